#!/usr/bin/env python3
"""Where a build's time goes, from Ninja's own log (BUILD/.ninja_log).

  python3 cmake/build-times.py [BUILD] [--top N]

Each step's duration is its wall time in the log; on an otherwise idle machine with
-j N that is close to its CPU time, so the sums say which rooms cost most. Only the
last run of each target counts (Ninja appends; an incremental build would otherwise
mix in). Run it after a clean build without ccache for figures worth quoting.
"""
import argparse
import os
import re
import sys

# Rooms in the order they are checked: the first pattern that matches a target wins.
ROOMS = [
    ("Verilated RTL (rtl/)", re.compile(r"(^|/)rtl/|Vhpb_|verilated")),
    ("tests (testbench/)", re.compile(r"(^|/)testbench/")),
    ("program (sim/)", re.compile(r"(^|/)sim/")),
    ("SystemC models (tlm/)", re.compile(r"(^|/)tlm/")),
    ("firmware (firmware/)", re.compile(r"(^|/)firmware/")),
]


def read_log(path):
    """Last entry per target: {target: seconds}."""
    steps = {}
    with open(path) as f:
        header = f.readline()
        if not header.startswith("# ninja log v"):
            raise ValueError("%s:1: not a Ninja log (header %r)" % (path, header.strip()))
        for number, line in enumerate(f, start=2):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5:
                raise ValueError("%s:%d: expected 5 tab-separated fields, got %d" % (path, number, len(fields)))
            start_ms, end_ms, target = int(fields[0]), int(fields[1]), fields[3]
            steps[target] = (end_ms - start_ms) / 1000.0
    return steps


def room_of(target):
    for name, pattern in ROOMS:
        if pattern.search(target):
            return name
    return "other"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--top", type=int, default=12, help="slowest steps to list (default 12)")
    args = parser.parse_args(argv)
    log = os.path.join(args.build, ".ninja_log")
    if not os.path.exists(log):
        print("build-times: no %s (build first)" % log, file=sys.stderr)
        return 2
    try:
        steps = read_log(log)
    except ValueError as e:
        print("build-times: %s" % e, file=sys.stderr)
        return 2
    if not steps:
        print("build-times: %s has no steps" % log, file=sys.stderr)
        return 2
    total = sum(steps.values())
    rooms = {}
    for target, seconds in steps.items():
        count, sum_s = rooms.get(room_of(target), (0, 0.0))
        rooms[room_of(target)] = (count + 1, sum_s + seconds)
    print("%d steps, %.0f s of step time (%.1f min)" % (len(steps), total, total / 60))
    print("%-26s %6s %9s %6s" % ("room", "steps", "seconds", "share"))
    for name, (count, seconds) in sorted(rooms.items(), key=lambda kv: -kv[1][1]):
        print("%-26s %6d %9.1f %5.1f%%" % (name, count, seconds, 100 * seconds / total))
    print("\nslowest steps:")
    for target, seconds in sorted(steps.items(), key=lambda kv: -kv[1])[: args.top]:
        print("%8.1f s  %s" % (seconds, target))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
