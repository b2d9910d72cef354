# ufs_tlm.run() and ufs_tlm.params(): results equal to the stats.json of the same run, and
# the simulator's one-line error as the exception on bad input.
import json
import subprocess

import pytest

import ufs_tlm

WORKLOAD = "rw=randrw,bs=4k,iodepth=4,size=32m,count=2000,seed=3"


def test_run_returns_the_stats_of_the_same_simulation(sim, tmp_path):
    r = ufs_tlm.run(preset="test-small", workload=WORKLOAD, precondition_fill="32m",
                    set={"memory.l2p_sram_kib": 16, "firmware.map_cache": True}, out=str(tmp_path / "api"))
    subprocess.run([sim, "run", "--quiet", "--preset", "test-small", "--workload", WORKLOAD, "--precondition-fill",
                    "32m", "--set", "memory.l2p_sram_kib=16", "--set", "firmware.map_cache=true", "--out",
                    str(tmp_path / "cli")], check=True)
    with open(tmp_path / "cli" / "stats.json") as f:
        cli = json.load(f)
    for key in ("iops", "ops", "ftl", "utilisation", "simulated_seconds"):
        assert r.stats[key] == cli[key]
    assert r.config["memory"]["l2p_sram_kib"] == 16
    # The helpers read the figures stats.json has.
    assert r.iops() == cli["iops"]
    assert r.iops("write") == cli["ops"]["write"]["iops"]
    assert r.mb_per_s() == pytest.approx(cli["ops"]["read"]["mb_per_s"] + cli["ops"]["write"]["mb_per_s"])
    assert r.latency("read", "p99.9") == cli["ops"]["read"]["p99_9"]
    assert r.percentiles("write")["p99"] == cli["ops"]["write"]["p99"]
    assert r.waf == cli["ftl"]["write_amplification"]
    assert r.map_hit_ratio == cli["ftl"]["map_cache"]["read_hit_ratio"]
    dies = cli["utilisation"]["die_busy"]
    assert r.busy()["dies"] == pytest.approx(sum(dies) / len(dies))
    assert r.busy()["cpu"] == cli["utilisation"]["cpu_busy"]
    assert 0 < r.map_hit_ratio < 1  # 16 KiB of SRAM: one map page for a 32 MiB range


def test_run_without_out_leaves_no_folder(tmp_path):
    r = ufs_tlm.run(preset="test-small", workload="rw=randread,bs=4k,count=500")
    assert r.out is None and r.stats["requests"] == 500


def test_bad_key_raises_with_the_simulators_line():
    with pytest.raises(ufs_tlm.SimError) as e:
        ufs_tlm.run(preset="test-small", workload="rw=randread,bs=4k,count=100", set={"fcc.chanels": 2})
    assert str(e.value) == ("ufs-sim: error: unknown key 'fcc.chanels' (did you mean 'fcc.channels'?) (from --set)")
    assert e.value.status == 2


def test_bad_workload_and_refused_value_raise():
    with pytest.raises(ufs_tlm.SimError, match=r"^ufs-sim: error: size: 64g exceeds the device's"):
        ufs_tlm.run(preset="test-small", workload="rw=randread,bs=4k,size=64g,count=100")
    with pytest.raises(ufs_tlm.SimError, match=r"^ufs-sim: error: firmware.logical_page_kib: must divide the block"):
        ufs_tlm.run(preset="test-small", workload="rw=randread,bs=4k,count=100",
                    set={"firmware.logical_page_kib": 8192})


def test_params_is_the_simulators_table(sim):
    table = ufs_tlm.params("test-small", set={"memory.l2p_sram_kib": 48})
    by_key = {p.key: p for p in table}
    assert by_key["memory.l2p_sram_kib"].value == 48
    assert by_key["memory.l2p_sram_kib"].origin == "--set"
    assert by_key["memory.l2p_sram_kib"].unit == "KiB"
    text = subprocess.run([sim, "params", "--preset", "test-small"], capture_output=True, text=True, check=True).stdout
    keys = [line.split()[0] for line in text.splitlines()[1:] if line.strip()]
    assert keys == [p.key for p in table]
    with pytest.raises(ufs_tlm.SimError, match="memory.l2p_sram_kib: must be at least 1"):
        ufs_tlm.params("test-small", set={"memory.l2p_sram_kib": 0})
    with pytest.raises(ufs_tlm.SimError, match="nosuchpreset"):
        ufs_tlm.params("nosuchpreset")
