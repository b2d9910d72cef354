# Points that fail are rows with their error; the sweep goes on and exits non-zero at the
# end naming them: a parameter value the simulator refuses at run time (a random power cut
# needs a workload with runtime=; the value alone passes the parameter table's checks) and a
# point killed by --point-timeout. The point meant to time out meets a stand-in simulator
# that never finishes (a script that sleeps instead of running it), so the outcome does not
# hang on how fast the machine or the model is; the other points run the real ufs-sim.
import csv
import os
import subprocess
import sys

SPEC = """
name = "failures"
preset = "test-small"
workload = "rw=randread,bs=4k,size=8m,count={count}"
[vary]
"fault.spo_at" = ["100s", "random"]
count = [200, 50000000]
"""


def test_refused_and_timed_out_points_are_rows_and_the_exit_is_non_zero(sim, tmp_path):
    hangs = tmp_path / "ufs-sim-hangs-on-the-long-point"
    hangs.write_text('#!/bin/sh\ncase "$*" in *spo_at=random*) ;; *count=50000000*) exec sleep 3600 ;; esac\nexec "%s" "$@"\n' % sim)
    hangs.chmod(0o755)
    spec = tmp_path / "failures.toml"
    spec.write_text(SPEC)
    out = tmp_path / "sweep"
    p = subprocess.run([sys.executable, "-m", "ufs_tlm", "sweep", str(spec), "--out", str(out), "--jobs", "2",
                        "--point-timeout", "5", "--no-progress"], capture_output=True, text=True,
                       env=dict(os.environ, UFS_SIM=str(hangs)))
    assert p.returncode == 1, p.stderr
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["fault.spo_at"], r["count"], r["status"]) for r in rows] == [
        ("100s", "200", "ok"), ("100s", "50000000", "failed"), ("random", "200", "failed"), ("random", "50000000", "failed")]
    refused = "ufs-sim: error: fault.spo_at: 'random' needs a workload with runtime= (or use random:TIME)"
    assert rows[0]["error"] == "" and float(rows[0]["ops.read.iops"]) > 0
    assert rows[1]["error"] == "timed out after 5 s (point timeout)" and rows[1]["ops.read.iops"] == ""
    assert rows[2]["error"] == refused and rows[3]["error"] == refused
    assert "failed: point 2 (fault.spo_at=random, count=200): " + refused in p.stderr
    assert "1 of 4 points ok" in p.stderr and "3 failed" in p.stderr
