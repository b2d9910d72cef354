# A point whose worker dies is run again on a worker that lives; Ctrl-C stops a sweep with
# no ufs-sim left running, and the same command goes on from the points already done.
import os
import random
import signal
import subprocess
import sys
import time

import ufs_tlm
from conftest import run_lines, write_wrapper


def test_a_point_whose_worker_died_is_retried(sim, tmp_path):
    log = str(tmp_path / "runs.log")
    mark = tmp_path / "killed-once"
    # The first time it sees seed=4242 the stand-in kills the worker process that started it.
    wrapper = write_wrapper(tmp_path / "ufs-sim", sim, log, body=(
        "case \"$*\" in *seed=4242*) if [ ! -e '%s' ]; then touch '%s'; kill -9 $PPID; exec sleep 600; fi;; esac"
        % (mark, mark)))
    spec = {"preset": "test-small", "workload": "rw=randread,bs=4k,size=8m,count=500,seed={s}",
            "vary": {"s": [1, 4242, 3]}}
    r = ufs_tlm.sweep(spec, out=str(tmp_path / "sweep"), jobs=2, sim=wrapper, progress=False)
    assert mark.exists()
    assert r.ok and r.ran == 3, [row["error"] for row in r.rows]
    runs = run_lines(log)
    assert sum("seed=4242" in line for line in runs) == 2  # killed with its worker, then run again
    single = ufs_tlm.run(preset="test-small", workload="rw=randread,bs=4k,size=8m,count=500,seed=4242", sim=sim)
    assert r.rows[1]["ops.read.mean"] == single.latency("read", "mean")


def _simulators(marker):
    """Live processes (not zombies) whose command line holds the marker."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().decode("utf-8", "replace")
            with open("/proc/%s/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z" and "ufs_tlm" not in cmd:
            found.append(int(pid))
    return found


def test_ctrl_c_leaves_no_simulator_running_and_the_sweep_resumes(sim, tmp_path):
    marker = "seed=%d" % random.randrange(10**8, 10**9)
    spec = tmp_path / "long.toml"
    # Two short points, then four that would run for minutes.
    spec.write_text('preset = "test-small"\ncheck = false\n'
                    'workload = "rw=randwrite,bs=4k,iodepth=32,count={count},%s"\n'
                    '[vary]\ncount = [300, 400, 50000000, 50000001, 50000002, 50000003]\n' % marker)
    out = tmp_path / "sweep"
    command = [sys.executable, "-m", "ufs_tlm", "sweep", str(spec), "--out", str(out), "--jobs", "2", "--no-progress"]
    env = dict(os.environ, UFS_SIM=sim)
    # Its own process group, as a shell gives a foreground job: Ctrl-C goes to the whole group.
    p = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    # The two short points are stored, and two long ones are running.
    while not (out / "points").exists() or len(os.listdir(out / "points")) < 2 or len(_simulators(marker)) < 2:
        assert p.poll() is None, p.stderr.read().decode()
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    _, stderr = p.communicate()
    assert p.returncode == 130, stderr.decode()
    assert "interrupted" in stderr.decode()
    # The simulators die with the sweep (killed, not left to finish): wait for the kernel to reap them.
    for _ in range(300):
        if not _simulators(marker):
            break
        time.sleep(0.2)
    assert _simulators(marker) == []
    # The same command goes on: the two short points are not run again.
    spec.write_text(spec.read_text().replace("50000000, 50000001, 50000002, 50000003", "500"))
    r = ufs_tlm.sweep(str(spec), out=str(out), jobs=2, sim=sim, progress=False)
    assert r.ok and r.cached == 2 and r.ran == 1
