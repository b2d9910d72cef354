"""ufs_tlm: the Python front end of the ufs-tlm simulator.

    import ufs_tlm
    r = ufs_tlm.run(preset="ufs31", workload="rw=randread,bs=4k,iodepth=32,size=1g,count=20000",
                    set={"memory.l2p_sram_kib": 512}, precondition_fill="1g")
    r.iops(), r.latency("read", "p99"), r.waf, r.map_hit_ratio, r.busy()
    ufs_tlm.params("ufs31")                 # the parameter table: key, type, unit, value, meaning
    ufs_tlm.sweep("sim/sweeps/nand-tr-channels-qd.toml", out="runs/sweeps/x", jobs=2)

Each run is a child process of the built ufs-sim (SystemC elaborates once per process).
Sweeps run on Dask (Debian's python3-distributed): a LocalCluster, or an existing cluster
given by its scheduler's address. Use it from the source tree with
PYTHONPATH=sim/python, or `pip install -e sim/python`.
"""
from .result import Result
from .simulator import Param, SimError, find_sim, params, run
from .spec import DEFAULT_METRICS, Spec, SpecError
from .sweep import SweepResult, sweep

__all__ = ["run", "params", "sweep", "Result", "Param", "SimError", "SpecError", "Spec", "SweepResult",
           "DEFAULT_METRICS", "find_sim"]
