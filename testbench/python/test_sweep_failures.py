# Points that fail are rows with their error; the sweep goes on and exits non-zero at the
# end naming them: a parameter value the simulator refuses at run time (a random power cut
# needs a workload with runtime=; the value alone passes the parameter table's checks) and a
# point killed by --point-timeout (its cut at 1000 s of simulated time is far past 10 s of
# wall time: at 100 s the faster model finished the point in about 10 s and it passed).
import csv
import os
import subprocess
import sys

SPEC = """
name = "failures"
preset = "test-small"
workload = "rw=randread,bs=4k,size=8m,count={count}"
[vary]
"fault.spo_at" = ["1000s", "random"]
count = [200, 50000000]
"""


def test_refused_and_timed_out_points_are_rows_and_the_exit_is_non_zero(sim, tmp_path):
    spec = tmp_path / "failures.toml"
    spec.write_text(SPEC)
    out = tmp_path / "sweep"
    p = subprocess.run([sys.executable, "-m", "ufs_tlm", "sweep", str(spec), "--out", str(out), "--jobs", "2",
                        "--point-timeout", "10", "--no-progress"], capture_output=True, text=True,
                       env=dict(os.environ, UFS_SIM=sim))
    assert p.returncode == 1, p.stderr
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["fault.spo_at"], r["count"], r["status"]) for r in rows] == [
        ("1000s", "200", "ok"), ("1000s", "50000000", "failed"), ("random", "200", "failed"), ("random", "50000000", "failed")]
    refused = "ufs-sim: error: fault.spo_at: 'random' needs a workload with runtime= (or use random:TIME)"
    assert rows[0]["error"] == "" and float(rows[0]["ops.read.iops"]) > 0
    assert rows[1]["error"] == "timed out after 10 s (point timeout)" and rows[1]["ops.read.iops"] == ""
    assert rows[2]["error"] == refused and rows[3]["error"] == refused
    assert "failed: point 2 (fault.spo_at=random, count=200): " + refused in p.stderr
    assert "1 of 4 points ok" in p.stderr and "3 failed" in p.stderr
