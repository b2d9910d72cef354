# Sweep specs: expansion (lists, ranges, zipped groups, replicates, {variables}) and the
# validation that stops a sweep before its first point, naming the key.
import os
import subprocess
import sys

import pytest

from ufs_tlm.spec import Spec, SpecError, axis_values
from ufs_tlm.sweep import Sweep

BASE = {"preset": "test-small", "workload": "rw=randread,bs=4k,iodepth={qd},count=100"}


def spec(**extra):
    d = dict(BASE)
    d.update(extra)
    return d


def test_ranges():
    assert axis_values("a", {"from": 256, "to": 8192, "times": 2}) == [256, 512, 1024, 2048, 4096, 8192]
    assert axis_values("a", {"from": 1, "to": 10, "step": 3}) == [1, 4, 7, 10]
    assert axis_values("a", {"from": 0.5, "to": 1.0, "step": 0.25}) == [0.5, 0.75, 1.0]
    assert axis_values("a", {"from": 1, "to": 1000, "points": 4, "log": True}) == [1, 10, 100, 1000]
    assert axis_values("a", {"from": 0.0, "to": 1.0, "points": 3}) == [0.0, 0.5, 1.0]
    for bad in ({"from": 1}, {"from": 1, "to": 2}, {"from": 1, "to": 2, "step": 0}, {"from": 0, "to": 8, "times": 2},
                {"from": 1, "to": 2, "step": 1, "times": 2}, {"from": 1, "to": 2, "stride": 1}, []):
        with pytest.raises(SpecError):
            axis_values("a", bad)


def test_product_zip_and_replicates():
    s = Spec(spec(workload="rw=randread,bs=4k,iodepth={qd},count=100,seed={seed}", replicates=2, seed=5,
                  vary={"memory.l2p_sram_kib": [16, 64], "qd": [1, 8]},
                  zip=[{"nand.t_read_us": [40, 60], "fcc.channels": [1, 2]}],
                  set={"firmware.map_cache": True}))
    assert len(s.points) == 2 * 2 * 2 * 2
    assert s.columns() == ["memory.l2p_sram_kib", "qd", "nand.t_read_us", "fcc.channels", "replicate", "seed"]
    p = s.points[0]
    assert p.values == {"memory.l2p_sram_kib": 16, "qd": 1, "nand.t_read_us": 40, "fcc.channels": 1}
    assert (p.replicate, p.seed) == (0, 5) and s.points[1].seed == 6
    assert p.workload == "rw=randread,bs=4k,iodepth=1,count=100,seed=5"
    assert p.set_list() == ["firmware.map_cache=true", "memory.l2p_sram_kib=16", "nand.t_read_us=40", "fcc.channels=1"]
    # Zipped values advance together: never t_read 40 with 2 channels.
    assert {(q.values["nand.t_read_us"], q.values["fcc.channels"]) for q in s.points} == {(40, 1), (60, 2)}
    assert p.args()[:4] == ["--preset", "test-small", "--workload", p.workload]


def test_named_workloads_and_presets_as_axes():
    s = Spec({"preset": ["test-small", "ufs31"], "workloads": {"rr": "rw=randread,count=10", "rw": "rw=randwrite,count=10"}})
    assert [(p.preset, p.values["workload"], p.workload) for p in s.points] == [
        ("test-small", "rr", "rw=randread,count=10"), ("test-small", "rw", "rw=randwrite,count=10"),
        ("ufs31", "rr", "rw=randread,count=10"), ("ufs31", "rw", "rw=randwrite,count=10")]


@pytest.mark.parametrize("bad, message", [
    ({"vary": {"qd": [1]}, "colour": 1}, "unknown key 'colour'"),
    ({"vary": {"qd": [1], "depth": [2]}}, "vary.depth: {depth} appears in no workload"),
    ({"vary": {}}, r"workload: {qd} is not a variable"),
    ({"vary": {"qd": [1]}, "replicates": 3}, "replicates: nothing uses {seed}"),
    ({"vary": {"qd": []}}, "vary.qd: an empty list"),
    ({"vary": {"qd": [1]}, "zip": [{"a.b": [1, 2], "c.d": [1]}]}, r"zip\[0\]: lists of different lengths"),
    ({"vary": {"qd": [1], "fcc.channels": [1]}, "set": {"fcc.channels": 2}}, "'fcc.channels' is also in"),
    ({"vary": {"qd": [1]}, "metrics": []}, "metrics: a non-empty list"),
])
def test_malformed_specs_name_the_key(bad, message):
    with pytest.raises(SpecError, match=message):
        Spec(spec(**bad))


def test_unknown_key_and_refused_value_stop_the_sweep_before_any_point(sim, tmp_path):
    out = tmp_path / "sweep"
    s = Sweep(spec(vary={"qd": [1, 2], "fcc.chanels": [1, 2]}), out=str(out), sim=sim)
    with pytest.raises(SpecError, match=r"vary.fcc.chanels = 1: unknown key 'fcc.chanels' \(did you mean 'fcc.channels'"):
        s.run()
    s = Sweep(spec(vary={"qd": [1], "memory.l2p_sram_kib": [16, 0]}), out=str(out), sim=sim)
    with pytest.raises(SpecError, match=r"vary.memory.l2p_sram_kib = 0: memory.l2p_sram_kib: must be at least 1"):
        s.run()
    s = Sweep(spec(vary={"qd": [1]}, preset="nosuch"), out=str(out), sim=sim)
    with pytest.raises(SpecError, match=r"preset 'nosuch'"):
        s.run()
    assert not out.exists()  # nothing ran, nothing written


def test_cli_refuses_a_bad_spec_with_one_line_and_status_2(sim, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('preset = "test-small"\nworkload = "rw=randread,count=10"\n[vary]\n"nand.t_read_us" = [50, -1]\n')
    env = dict(os.environ, UFS_SIM=sim)
    p = subprocess.run([sys.executable, "-m", "ufs_tlm", "sweep", str(path), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("ufs-sim: error: vary.nand.t_read_us = -1: ")
    path.write_text('preset = "test-small"\nworkload = "rw=randread,count=10"\nseed = 1\nseed = 2\n')
    p = subprocess.run([sys.executable, "-m", "ufs_tlm", "sweep", str(path)], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and p.stderr.startswith("ufs-sim: error: %s: " % path) and "line 4" in p.stderr
    assert not (tmp_path / "o").exists()


def test_ufs_sim_sweep_hands_its_command_line_to_the_front_end(sim, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('preset = "test-small"\nworkload = "rw=randread,iodepth={qd},count=10"\n[vary]\nqd = [1, 2]\n')
    p = subprocess.run([sim, "sweep", str(path), "--dry-run"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "ufs-sim run --preset test-small --workload rw=randread,iodepth=2,count=10" in p.stdout
    assert p.stdout.endswith("2 points\n")
    p = subprocess.run([sim, "sweep", str(path), "--jobs", "0"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.startswith("ufs-sim: error: ") and p.stderr.count("\n") == 1
