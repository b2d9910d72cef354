# Energy in sweeps (issue 22): stats.json's energy section is collected like any metric.
# Auto-hibernate off vs on x reads vs writes on test-small, four tiny points at 50 I/Os a
# second (the link idles between them): every row holds the energy figures of its own run
# folder, and they move the way the model says (Hibern8 between I/Os saves the link's STALL
# power; a written byte costs more than a read one: tPROG against tR).
import json
import os

import pytest
import ufs_tlm
from ufs_tlm.result import lookup

METRICS = ["energy.total_uj", "energy.per_byte_nj", "energy.mean_power_mw", "energy.mb_per_s_per_ma",
           "energy.blocks.link", "energy.components.link_hibern8", "energy.activity.link_hibern8_s", "iops"]

SPEC = {
    "name": "tiny-energy",
    "preset": "test-small",
    "precondition_fill": "16m",
    "workload": "rw={rw},bs=4k,iodepth=1,size=16m,count=100,rate_iops=50,seed=4",
    "check": False,
    "metrics": METRICS,
    "vary": {"link.hibernate_idle_us": [0, 200], "rw": ["randread", "randwrite"]},
}


def test_a_sweep_collects_energy_metrics_from_each_run(sim, tmp_path):
    out = str(tmp_path / "sweep")
    result = ufs_tlm.sweep(SPEC, out=out, jobs=2, sim=sim, progress=False)
    assert result.ok and result.ran == 4
    with open(os.path.join(out, "results.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    assert len(rows) == 4
    by_point = {}
    for row in rows:
        assert row["status"] == "ok"
        with open(os.path.join(out, row["run_dir"], "stats.json")) as f:
            stats = json.load(f)
        for metric in METRICS:
            assert isinstance(row[metric], (int, float)) and not isinstance(row[metric], bool), metric
            assert row[metric] == lookup(stats, metric), metric
        assert row["energy.total_uj"] > 0 and row["energy.per_byte_nj"] > 0
        # The per-block figures add up to the total the sweep reports.
        assert sum(stats["energy"]["blocks"].values()) == pytest.approx(row["energy.total_uj"])
        by_point[(row["link.hibernate_idle_us"], row["rw"])] = row
    for rw in ("randread", "randwrite"):
        awake, h8 = by_point[(0, rw)], by_point[(200, rw)]
        assert awake["energy.activity.link_hibern8_s"] == 0 and h8["energy.activity.link_hibern8_s"] > 0
        assert h8["energy.components.link_hibern8"] > 0
        assert h8["energy.blocks.link"] < awake["energy.blocks.link"], rw
        assert h8["energy.mean_power_mw"] < awake["energy.mean_power_mw"], rw
    for h in (0, 200):
        assert by_point[(h, "randwrite")]["energy.per_byte_nj"] > by_point[(h, "randread")]["energy.per_byte_nj"]
