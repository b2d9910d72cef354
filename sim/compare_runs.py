#!/usr/bin/env python3
"""Print two or more run folders side by side (the main job: HPB off vs on).

    python3 sim/compare_runs.py RUN_DIR RUN_DIR [...]

Reads each folder's stats.json (contract: sim/output/README.md). Counters are those of
the whole run (precondition included); throughput and latency are the measured workload's.
"""
import json
import os
import sys


def load(run):
    with open(os.path.join(run, "stats.json")) as f:
        return json.load(f)


def row(stats):
    read = stats["ops"]["read"]
    ftl = stats["ftl"]["map_cache"]
    hpb = stats.get("hpb") or {}
    dev = hpb.get("device", {})
    host = hpb.get("host", {})
    return {
        "IOPS": f'{read["iops"]:,.0f}',
        "MB/s": f'{read["mb_per_s"]:.1f}',
        "mean latency (us)": f'{read["mean"]:.1f}',
        "p99 latency (us)": f'{read["p99"]:.1f}',
        "p99.9 latency (us)": f'{read["p99_9"]:.1f}',
        "L2P SRAM read misses": f'{ftl["read_misses"]:,}',
        "map pages loaded from NAND": f'{ftl["page_loads"]:,}',
        "HPB READs verified": f'{dev.get("verified", 0):,}',
        "HPB entries rejected": f'{sum(v for k, v in dev.items() if k.startswith("rejected_")):,}',
        "READ BUFFERs (sub-regions)": f'{dev.get("read_buffers", 0):,}',
        "host memory for HPB (MiB)": f'{host.get("peak_memory_bytes", 0) / 2**20:.1f}',
        "firmware core busy": f'{stats["utilisation"]["cpu_busy"]:.0%}',
        "scoreboard mismatches": f'{stats["scoreboard"].get("mismatches", 0):,}',
    }


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    runs = argv[1:]
    try:
        rows = [row(load(r)) for r in runs]
    except (OSError, KeyError, ValueError) as e:
        sys.stderr.write(f"compare_runs: {e}\n")
        return 2
    names = [os.path.basename(os.path.normpath(r)) for r in runs]
    width = max(len(k) for k in rows[0])
    cols = [max(len(n), max(len(r[k]) for k in r)) for n, r in zip(names, rows)]
    print(" " * width + "  " + "  ".join(n.rjust(c) for n, c in zip(names, cols)))
    for key in rows[0]:
        print(key.ljust(width) + "  " + "  ".join(r[key].rjust(c) for r, c in zip(rows, cols)))
    base, last = load(runs[0])["ops"]["read"], load(runs[-1])["ops"]["read"]
    print(f"\n{names[-1]} vs {names[0]}: throughput {last['iops'] / base['iops'] - 1:+.1%}, "
          f"mean latency {last['mean'] / base['mean'] - 1:+.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
