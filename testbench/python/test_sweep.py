# A sweep of six tiny points on a 2-worker LocalCluster: its table equals single runs of
# the same points, and running it again simulates nothing (points are keyed by effective
# configuration, workload and simulator build).
import csv
import json
import os

import ufs_tlm
from conftest import run_lines, write_wrapper

SPEC = {
    "name": "tiny",
    "preset": "test-small",
    "precondition_fill": "32m",
    "workload": "rw=randrw,bs=4k,iodepth={qd},size=32m,count=2000,seed=3",
    "vary": {"memory.l2p_sram_kib": [16, 64], "qd": [1, 4, 16]},
}


def single_run(sim, row):
    return ufs_tlm.run(preset="test-small", precondition_fill="32m",
                       workload="rw=randrw,bs=4k,iodepth=%d,size=32m,count=2000,seed=3" % row["qd"],
                       set={"memory.l2p_sram_kib": row["memory.l2p_sram_kib"]}, sim=sim)


def test_table_equals_single_runs_and_a_second_run_simulates_nothing(sim, tmp_path):
    log = str(tmp_path / "runs.log")
    wrapper = write_wrapper(tmp_path / "ufs-sim", sim, log)
    out = str(tmp_path / "sweep")
    first = ufs_tlm.sweep(SPEC, out=out, jobs=2, sim=wrapper, progress=False)
    assert first.ok and first.ran == 6 and first.cached == 0
    assert first.stats["workers"] == 2
    assert len(run_lines(log)) == 6

    with open(os.path.join(out, "results.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    with open(os.path.join(out, "results.csv")) as f:
        csv_rows = list(csv.DictReader(f))
    assert [(r["memory.l2p_sram_kib"], r["qd"]) for r in rows] == [(16, 1), (16, 4), (16, 16), (64, 1), (64, 4),
                                                                   (64, 16)]
    assert len({r["key"] for r in rows}) == 6
    for row, text in zip(rows, csv_rows):
        assert row["status"] == "ok" and text["status"] == "ok" and row["error"] == ""
        single = single_run(sim, row)
        for metric in ufs_tlm.DEFAULT_METRICS:
            expected = single.get(metric)
            assert row[metric] == expected, metric
            assert (float(text[metric]) if text[metric] else None) == expected, metric
        assert os.path.exists(os.path.join(out, row["run_dir"], "stats.json"))
        assert os.path.exists(os.path.join(out, row["run_dir"], "config.json"))
    # The smaller map cache misses more at QD1: the table is not six copies of one run.
    assert rows[0]["ftl.map_cache.read_hit_ratio"] < rows[3]["ftl.map_cache.read_hit_ratio"]

    second = ufs_tlm.sweep(SPEC, out=out, jobs=2, sim=wrapper, progress=False)
    assert second.ok and second.ran == 0 and second.cached == 6
    assert len(run_lines(log)) == 6
    assert second.rows == first.rows

    # A spec grown by one value runs only its new points.
    grown = dict(SPEC, vary={"memory.l2p_sram_kib": [16, 64], "qd": [1, 4, 16, 32]})
    third = ufs_tlm.sweep(grown, out=out, jobs=2, sim=wrapper, progress=False)
    assert third.ok and third.ran == 2 and third.cached == 6
    assert len(run_lines(log)) == 8
