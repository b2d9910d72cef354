#!/usr/bin/env python3
"""Stretches without a completion in run folders (issue 14 item 2: "no 20 ms stretch without a
completion, 10 ms time-series bins").

    python3 sim/stretches.py RUN_DIR [RUN_DIR ...] [--at-least MS]

Reads each folder's timeseries.csv (sim/output/README.md: one row per interval that had
completions; a run of empty intervals is written as two zero rows, its first and its last) and
counts the runs of empty intervals as testbench/systemc/system_bench.cpp's longest_silence_ms
does: a run from the interval labelled t0 to the one labelled t1 is (t1 - t0) + one interval
long. Prints, per folder: the longest stretch, how many reach --at-least (default 20 ms), the
empty intervals in all, and from stats.json the write p99 / p99.9 and IOPS and the write
amplification (measured phase). Bad input (no timeseries.csv, a malformed row) is one line on
stderr and exit 2.
"""
import argparse
import csv
import json
import os
import sys


class StretchError(Exception):
    pass


def stretches(path):
    """(interval_ms, [stretch lengths in ms]) of a timeseries.csv."""
    rows = []
    try:
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header or header[:3] != ["time_s", "read_iops", "write_iops"]:
                raise StretchError(f"{path}: not a timeseries.csv (header {header!r})")
            for n, row in enumerate(reader, start=2):
                try:
                    rows.append((float(row[0]), float(row[1]) + float(row[2])))
                except (IndexError, ValueError):
                    raise StretchError(f"{path}: line {n}: malformed row {row!r}")
    except OSError as e:
        raise StretchError(f"{path}: {e.strerror or e}")
    # The interval: the most common step between consecutive rows (rows are interval ends; the
    # last one is the run's end, a partial interval).
    steps = {}
    for a, b in zip(rows, rows[1:-1]):
        step = round((b[0] - a[0]) * 1000.0, 3)
        if step > 0:
            steps[step] = steps.get(step, 0) + 1
    interval = max(steps, key=lambda k: (steps[k], -k)) if steps else 10.0
    runs, start, last = [], None, None
    for t, n in rows:
        if n == 0:
            if start is None:
                start = t
            last = t
        elif start is not None:
            runs.append(round((last - start) * 1000.0 + interval, 3))
            start = None
    if start is not None:
        runs.append(round((last - start) * 1000.0 + interval, 3))
    return interval, runs


def describe(run, at_least):
    interval, runs = stretches(os.path.join(run, "timeseries.csv"))
    longest = max(runs) if runs else 0.0
    # Compare in whole intervals: a stretch of k intervals is k * interval ms.
    reach = sum(1 for r in runs if r + 1e-6 >= at_least)
    empty = sum(int(round(r / interval)) for r in runs)
    line = (f"{run}: longest stretch without a completion {longest:g} ms, {reach} of {at_least:g} ms or more, "
            f"{empty} empty {interval:g} ms intervals")
    try:
        with open(os.path.join(run, "stats.json")) as f:
            s = json.load(f)
        w = s["ops"]["write"]
        line += (f"; write p99 {w['p99'] / 1000:.2f} ms, p99.9 {w['p99_9'] / 1000:.2f} ms, "
                 f"{w['iops']:.0f} IOPS; WAF {s['ftl']['write_amplification']:.2f}")
    except (OSError, ValueError, KeyError, TypeError):
        pass  # stats.json is optional (a run without writes, a bare timeseries.csv)
    return line


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="RUN_DIR")
    p.add_argument("--at-least", type=float, default=20.0, metavar="MS",
                   help="count the stretches at least this long (default 20 ms)")
    a = p.parse_args()
    if a.at_least <= 0:
        print("stretches.py: --at-least must be positive", file=sys.stderr)
        return 2
    try:
        for run in a.runs:
            print(describe(run, a.at_least))
    except StretchError as e:
        print(f"stretches.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
