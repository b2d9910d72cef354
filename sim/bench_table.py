#!/usr/bin/env python3
"""Simulator speed table (issue 18): runs each speed job with one or more ufs-sim builds and
prints a Markdown table, so the README's figures come from runs, not from hand.

  python3 sim/bench_table.py NAME=BUILD/sim/ufs-sim [NAME=...] [--traces DIR] [--callgrind]
                             [--mqsim PATH/bench.sh] [--runs N]

Jobs: `bench` (500K 4 KiB random reads, QD32, 8 GiB on ufs31), `bench --write` (steady-state
4 KiB random writes with GC), the `make run` HPB-on run with crypto.model=cpp and with rtl
(100K warm-up + 200K measured reads), and the cod phone trace (install + exec phases,
scoreboard on; needs --traces, the MobileBlockIOTraces folder). Per job and build: simulated
I/Os per wall second (the median of --runs runs, taken in turn: round after round every job with
every build; wall time is noisy on a shared machine, so the load average is printed beside it,
and the CPU time's median on stderr), peak memory, and with --callgrind the instructions per I/O:
the difference of two callgrind runs of the same job at two sizes, divided by the I/Os added
(so elaboration and the functional fill drop out; repeatable where wall time is not).
--mqsim runs ../shared/peers/mqsim/bench.sh with each build and reports MQSim's wall time over
ufs-sim bench's, measured in turn.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import gzip

MAIN_READS = "rw=randread,bs=4k,iodepth=32,size=8g"


def hpb_job(model, warm, measured):
    return ["run", "--preset", "ufs31", "--precondition-fill", "8g",
            "--precondition", f"{MAIN_READS},count={warm},seed=7",
            "--workload", f"{MAIN_READS},count={measured},seed=8",
            "--set", "hpb.enabled=true", "--set", f"crypto.model={model}", "--quiet"]


def trace_lines(path):
    with gzip.open(path, "rt") as f:
        return sum(1 for _ in f) - 1  # header


def jobs(traces):
    """name -> (args for size s, I/Os at size s, full size, two callgrind sizes)"""
    j = {
        "bench (4 KiB random read)": (lambda s: ["bench", "--ios", str(s)], lambda s: s, 500000, (20000, 60000)),
        "bench --write (4 KiB random write, GC)": (lambda s: ["bench", "--write", "--ios", str(s)],
                                                   lambda s: 2 * s, 400000, (10000, 30000)),
        "make run HPB on, crypto.model=cpp": (lambda s: hpb_job("cpp", s // 2, s), lambda s: s + s // 2, 200000, (4000, 12000)),
        "make run HPB on, crypto.model=rtl": (lambda s: hpb_job("rtl", s // 2, s), lambda s: s + s // 2, 200000, (2000, 6000)),
    }
    if traces:
        pre, exe = os.path.join(traces, "cod_precond.csv.gz"), os.path.join(traces, "cod_exec.csv.gz")
        n = trace_lines(pre) + trace_lines(exe)
        j["phone trace cod (install + exec, scoreboard on)"] = (
            lambda s: ["run", "--preset", "ufs31", "--precondition", f"trace:mobile:{pre},idle_compress=1ms",
                       "--workload", f"trace:mobile:{exe},idle_compress=10ms" + (f",limit={s}" if s < 10**9 else ""),
                       "--quiet"],
            lambda s: trace_lines(pre) + min(s, trace_lines(exe)), 10**9, (20000, 60000))
        j["phone trace cod (install + exec, scoreboard on)"] += (n,)
    return j


def timed(binary, args, out_dir):
    """(wall seconds, peak RSS MiB, CPU seconds user + system) of one run."""
    tfile = os.path.join(out_dir, "time.txt")
    cmd = ["/usr/bin/time", "-f", "%e %M %U %S", "-o", tfile, binary] + args
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"bench_table: {' '.join(cmd)} failed: {r.stderr.strip().splitlines()[-1:]}")
    wall, rss_kib, user, system = open(tfile).read().split()[-4:]
    return float(wall), float(rss_kib) / 1024.0, float(user) + float(system)


def callgrind_instructions(binary, args, out_dir):
    out = os.path.join(out_dir, "cg.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"bench_table: callgrind of {' '.join(args)} failed")
    os.remove(out)
    return int(m.group(1))


def load():
    return os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", help="NAME=PATH of a ufs-sim binary")
    ap.add_argument("--traces", help="folder with cod_precond.csv.gz and cod_exec.csv.gz")
    ap.add_argument("--callgrind", action="store_true", help="instructions per I/O (slow)")
    ap.add_argument("--mqsim", help="path of shared/peers/mqsim/bench.sh")
    ap.add_argument("--runs", type=int, default=1, help="wall-time runs per job and build (median)")
    ap.add_argument("--only", help="regular expression: jobs to run")
    a = ap.parse_args()
    builds = []
    for b in a.builds:
        name, _, path = b.partition("=")
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"bench_table: '{b}': expected NAME=PATH of an executable ufs-sim")
        builds.append((name, os.path.abspath(path)))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        selected = [(job, spec) for job, spec in jobs(a.traces).items()
                    if not a.only or re.search(a.only, job)]
        # The wall-time runs in turn: round after round, every selected job with every build,
        # so that a change in the machine's load falls on all of them alike.
        timing = {}
        for _ in range(a.runs):
            for job, spec in selected:
                for name, path in builds:
                    t = timing.setdefault((job, name), dict(walls=[], cpus=[], rss=0.0, loads=[]))
                    t["loads"].append(load())
                    w, m, c = timed(path, spec[0](spec[2]), tmp)
                    t["walls"].append(w)
                    t["cpus"].append(c)
                    t["rss"] = max(t["rss"], m)
        for job, spec in selected:
            make_args, ios_of, full = spec[0], spec[1], spec[2]
            cg_sizes = spec[3]
            ios = spec[4] if len(spec) > 4 else ios_of(full)
            for name, path in builds:
                t = timing[(job, name)]
                wall, rss, loads = statistics.median(t["walls"]), t["rss"], t["loads"]
                cpu = statistics.median(t["cpus"])
                ipio = None
                if a.callgrind:
                    s1, s2 = cg_sizes
                    i1 = callgrind_instructions(path, make_args(s1), tmp)
                    i2 = callgrind_instructions(path, make_args(s2), tmp)
                    ipio = (i2 - i1) / (ios_of(s2) - ios_of(s1))
                rows.append(dict(job=job, build=name, ios=ios, wall=wall, rate=ios / wall, rss=rss,
                                 ipio=ipio, load=max(loads), cpu=cpu, walls=t["walls"], cpus=t["cpus"]))
                print(f"# {job} [{name}]: {ios} I/Os in {wall:.2f} s (load {max(loads):.1f}), "
                      f"{rss:.0f} MiB, CPU {cpu:.2f} s (median of {len(t['cpus'])}; walls "
                      + " ".join(f"{w:.2f}" for w in t["walls"]) + ", CPU "
                      + " ".join(f"{c:.2f}" for c in t["cpus"]) + ")"
                      + (f", {ipio:,.0f} instructions per I/O" if ipio else ""),
                      file=sys.stderr, flush=True)
        mq = {}
        if a.mqsim:
            for name, path in builds:
                r = subprocess.run(["bash", a.mqsim, path, str(a.runs)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
                ratios = [float(x) for x in re.findall(r"speed ratio ([\d.]+)x", r.stdout)]
                if r.returncode != 0 or not ratios:
                    sys.exit(f"bench_table: {a.mqsim} failed: {r.stderr.strip()}")
                mq[name] = (statistics.median(ratios), r.stdout.strip().splitlines())
                for line in mq[name][1]:
                    print(f"# mqsim [{name}]: {line}", file=sys.stderr, flush=True)
    print("| job | build | I/Os | wall s (load) | simulated I/Os per wall second | peak memory MiB |"
          " instructions per I/O (callgrind) | MQSim wall / ufs-sim wall |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ratio = f"{mq[r['build']][0]:.2f}x" if r["job"].startswith("bench (") and r["build"] in mq else ""
        ipio = f"{r['ipio']:,.0f}" if r["ipio"] is not None else ""
        print(f"| {r['job']} | {r['build']} | {r['ios']:,} | {r['wall']:.2f} ({r['load']:.1f}) | "
              f"{r['rate']:,.0f} | {r['rss']:.0f} | {ipio} | {ratio} |")
    print(json.dumps(rows), file=open(os.environ.get("BENCH_TABLE_JSON", os.devnull), "w"))


if __name__ == "__main__":
    main()
