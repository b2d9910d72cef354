# --scheduler: the same sweep and the same study on an existing Dask cluster (here a
# LocalCluster started by the test, standing in for `dask scheduler` + `dask worker`s).
import subprocess

import distributed

import ufs_tlm

SPEC = {"preset": "test-small", "precondition_fill": "16m",
        "workload": "rw=randrw,bs=4k,iodepth={qd},size=16m,count=1500,seed=5", "vary": {"qd": [1, 8, 32]}}


def test_sweep_and_study_on_a_running_scheduler(sim, tmp_path):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        r = ufs_tlm.sweep(SPEC, out=str(tmp_path / "sweep"), scheduler=address, sim=sim, progress=False)
        assert r.ok and r.ran == 3 and r.stats["workers"] == 2
        for row in r.rows:
            single = ufs_tlm.run(preset="test-small", precondition_fill="16m",
                                 workload="rw=randrw,bs=4k,iodepth=%d,size=16m,count=1500,seed=5" % row["qd"], sim=sim)
            for metric in ufs_tlm.DEFAULT_METRICS:
                assert row[metric] == single.get(metric), metric
        study = subprocess.run([sim, "experiment", "atc08-package-reads", "--scheduler", address, "--out",
                                str(tmp_path / "remote")], capture_output=True, text=True)
    assert study.returncode == 0, study.stderr
    assert "on the engine (%s)" % address in study.stderr
    serial = subprocess.run([sim, "experiment", "atc08-package-reads", "--jobs", "1", "--out", str(tmp_path / "serial")],
                            capture_output=True, text=True)
    with open(tmp_path / "serial" / "atc08-package-reads.csv") as a, \
            open(tmp_path / "remote" / "atc08-package-reads.csv") as b:
        assert a.read() == b.read()
