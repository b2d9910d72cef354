#!/usr/bin/env python3
"""Simulator memory per GiB written, from the runs' own peak_rss_mib (stats.json).

Runs `ufs-sim run` with a functional precondition fill of two sizes (scoreboard on,
a short random read over the filled range) and prints the growth of peak memory
per GiB written between them; optionally the whole device filled, and host writes
(sequential 128 KiB writes through the simulated device) measured the same way.
The printed line is what the README's Speed section quotes.

    python3 sim/memory_per_gib.py build/sim/ufs-sim [--preset ufs31] [--sizes 8g,64g]
                                  [--full] [--host-write 8g]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text):
    text = text.strip().lower()
    if text and text[-1] in UNITS:
        return int(float(text[:-1]) * UNITS[text[-1]])
    return int(text)


def run(sim, preset, fill_bytes, workload, out):
    cmd = [sim, "run", "--preset", preset, "--workload", workload, "--out", out, "--quiet"]
    if fill_bytes:
        cmd += ["--precondition-fill", str(fill_bytes)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit("memory_per_gib: %s failed: %s" % (" ".join(cmd), done.stderr.strip()))
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    if stats.get("scoreboard", {}).get("mismatches", 0):
        sys.exit("memory_per_gib: data integrity mismatches in %s" % out)
    return stats["peak_rss_mib"]


def capacity(sim, preset):
    """The device's exported bytes, from the simulator's own refusal of a too-large fill."""
    cmd = [sim, "run", "--preset", preset, "--precondition-fill", "65536g", "--workload",
           "rw=randread,bs=4k,count=1", "--out", os.devnull, "--quiet"]
    err = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stderr
    for word in err.replace("'", " ").split():
        if word.isdigit() and "device's " + word in err:
            return int(word)
    sys.exit("memory_per_gib: could not learn the capacity of %s: %s" % (preset, err.strip()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sim", help="path to ufs-sim")
    ap.add_argument("--preset", default="ufs31")
    ap.add_argument("--sizes", default="8g,64g", help="two fill sizes (default 8g,64g)")
    ap.add_argument("--full", action="store_true", help="also fill the whole device")
    ap.add_argument("--host-write", metavar="SIZE", help="also write SIZE sequentially through the device")
    a = ap.parse_args()
    small, large = (parse_size(s) for s in a.sizes.split(","))
    if not 0 < small < large:
        sys.exit("memory_per_gib: --sizes needs two increasing sizes, got '%s'" % a.sizes)
    gib = float(1 << 30)
    reads = lambda size: "rw=randread,bs=4k,iodepth=32,size=%d,count=20000,seed=3" % size
    with tempfile.TemporaryDirectory() as tmp:
        rss_small = run(a.sim, a.preset, small, reads(small), os.path.join(tmp, "small"))
        rss_large = run(a.sim, a.preset, large, reads(large), os.path.join(tmp, "large"))
        per_gib = (rss_large - rss_small) / ((large - small) / gib)
        line = ("memory per GiB written (%s, scoreboard on, precondition fill %s vs %s): %.2f MiB/GiB "
                "(%.2f MB/GiB); peak %.0f MiB at %s" %
                (a.preset, a.sizes.split(",")[0], a.sizes.split(",")[1], per_gib, per_gib * 1.048576,
                 rss_large, a.sizes.split(",")[1]))
        if a.full:
            cap = capacity(a.sim, a.preset)
            rss_full = run(a.sim, a.preset, cap, reads(cap), os.path.join(tmp, "full"))
            line += "; whole device (%.1f GiB) filled: peak %.0f MiB" % (cap / gib, rss_full)
        if a.host_write:
            size = parse_size(a.host_write)
            writes = "rw=write,bs=128k,iodepth=32,size=%d,count=%d" % (size, size // (128 << 10))
            rss_base = run(a.sim, a.preset, 0, "rw=write,bs=128k,iodepth=32,count=64", os.path.join(tmp, "hw0"))
            rss_host = run(a.sim, a.preset, 0, writes, os.path.join(tmp, "hw"))
            line += "; host writes (sequential 128 KiB, %s): %.2f MiB/GiB" % (
                a.host_write, (rss_host - rss_base) / (size / gib))
        print(line)


if __name__ == "__main__":
    main()
