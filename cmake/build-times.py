#!/usr/bin/env python3
"""Where a build's time goes: CPU seconds per step (BUILD/cpu-times.log) or Ninja's log.

  python3 cmake/build-times.py [BUILD] [--top N] [--wall]

A build configured with -DUFS_CPU_TIMES=ON runs every compile, link and custom step
through this script (--launch LOG -- COMMAND...), which logs the step's CPU time (user +
system of the step and its children) to BUILD/cpu-times.log: exact under load, where
wall times are not (this 2-core machine is shared). Without that log (or with --wall),
each step's wall time from BUILD/.ninja_log is used instead: close to CPU time only on
an otherwise idle machine. Only the last run of each target counts (both logs are
appended to; an incremental build would otherwise mix in). Run it after a clean build
without ccache (a cache hit costs no compile) for figures worth quoting.
"""
import argparse
import os
import re
import resource
import subprocess
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


def read_cpu_log(path):
    """Last entry per target from a --launch log: {target: CPU seconds}."""
    steps = {}
    with open(path) as f:
        for number, line in enumerate(f, start=1):
            fields = line.rstrip("\n").split("\t", 1)
            try:
                steps[fields[1]] = float(fields[0])
            except (IndexError, ValueError):
                raise ValueError("%s:%d: expected 'SECONDS<tab>TARGET', got %r" % (path, number, line.strip()))
    return steps


def step_name(command):
    """What a step makes: -o's argument (compilers, linkers), the model (Verilator), the archive (ar), else the command."""
    for i, arg in enumerate(command[:-1]):
        if arg == "-o":
            return command[i + 1]
        if arg == "--prefix":  # Verilator's generation step: name the model
            return "verilate " + command[i + 1]
    if command and os.path.basename(command[0]).endswith("ar") and len(command) > 2:
        return command[2]
    return " ".join(command)[:200]


def launch(log, command):
    """Run one build step, then append its CPU time (it and its children) to LOG."""
    if not command:
        print("build-times: --launch LOG -- COMMAND...: no command", file=sys.stderr)
        return 2
    status = subprocess.call(command)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "a") as f:  # one short write per step: appends from parallel steps do not mix
        f.write("%.3f\t%s\n" % (usage.ru_utime + usage.ru_stime, step_name(command)))
    return status


def room_of(target):
    for name, pattern in ROOMS:
        if pattern.search(target):
            return name
    return "other"


def main(argv):
    if argv[:1] == ["--launch"]:
        if len(argv) < 3 or argv[2] != "--":
            print("build-times: usage: --launch LOG -- COMMAND...", file=sys.stderr)
            return 2
        return launch(argv[1], argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--top", type=int, default=12, help="slowest steps to list (default 12)")
    parser.add_argument("--wall", action="store_true", help="use Ninja's wall times even if a CPU log exists")
    args = parser.parse_args(argv)
    cpu_log = os.path.join(args.build, "cpu-times.log")
    ninja_log = os.path.join(args.build, ".ninja_log")
    use_cpu = os.path.exists(cpu_log) and not args.wall
    log = cpu_log if use_cpu else ninja_log
    if not os.path.exists(log):
        print("build-times: no %s (build first)" % log, file=sys.stderr)
        return 2
    try:
        steps = read_cpu_log(log) if use_cpu else read_log(log)
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
    print("%d steps, %.0f s of %s (%.1f min), from %s" % (len(steps), total, "CPU time" if use_cpu else "step wall time", total / 60, log))
    print("%-26s %6s %9s %6s" % ("room", "steps", "seconds", "share"))
    for name, (count, seconds) in sorted(rooms.items(), key=lambda kv: -kv[1][1]):
        print("%-26s %6d %9.1f %5.1f%%" % (name, count, seconds, 100 * seconds / total))
    print("\nslowest steps:")
    for target, seconds in sorted(steps.items(), key=lambda kv: -kv[1])[: args.top]:
        print("%8.1f s  %s" % (seconds, target))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
