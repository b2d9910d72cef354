#!/usr/bin/env python3
"""Golden runs: fixed-seed ufs-sim runs whose stats.json figures are stored in
testbench/golden/<case>.json and compared exactly (every counter, every percentile).

  golden.py --ufs-sim build/sim/ufs-sim CASE...        check (ctest runs one case per test)
  golden.py --ufs-sim build/sim/ufs-sim --all          check every case
  golden.py --ufs-sim build/sim/ufs-sim --update [CASE...]   rewrite the golden files (all without CASE)

A commit that changes behaviour on purpose regenerates them with --update, in its own
commit saying why. Exit status: 0 all equal, 1 a difference (each one printed), 2 bad usage.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# Host-dependent figures: never part of the comparison.
HOST_DEPENDENT = {"wall_seconds", "simulated_ios_per_wall_second", "peak_rss_mib"}


def load_cases():
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)
    cases.pop("_comment", None)
    # Each case: a list of option lines ("--set key=value"), split as a shell would.
    return {name: [word for line in lines for word in shlex.split(line)] for name, lines in cases.items()}


def run_case(ufs_sim, args):
    with tempfile.TemporaryDirectory() as out:
        cmd = [ufs_sim, "run", "--quiet", "--out", out] + args
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode != 0:
            raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
    for key in HOST_DEPENDENT:
        stats.pop(key, None)
    return stats


def differences(expected, actual, path=""):
    """Every leaf that differs, as 'path: expected -> actual' (exact, floats included)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual)):
            sub = path + "." + key if path else key
            if key not in actual:
                out.append("%s: %r -> (missing)" % (sub, expected[key]))
            elif key not in expected:
                out.append("%s: (missing) -> %r" % (sub, actual[key]))
            else:
                out += differences(expected[key], actual[key], sub)
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += differences(e, a, "%s[%d]" % (path, i))
        return out
    if type(expected) != type(actual) or expected != actual:
        return ["%s: %r -> %r" % (path, expected, actual)]
    return []


def golden_path(name):
    return os.path.join(HERE, name + ".json")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ufs-sim", required=True, help="path to the built ufs-sim")
    p.add_argument("--update", action="store_true", help="rewrite the golden files instead of comparing")
    p.add_argument("--all", action="store_true", help="every case")
    p.add_argument("cases", nargs="*")
    a = p.parse_args()
    cases = load_cases()
    names = a.cases or (sorted(cases) if a.all or a.update else [])
    if not names:
        print("golden.py: name a case or give --all (cases: %s)" % ", ".join(sorted(cases)), file=sys.stderr)
        return 2
    for n in names:
        if n not in cases:
            print("golden.py: unknown case '%s' (cases: %s)" % (n, ", ".join(sorted(cases))), file=sys.stderr)
            return 2
    failed = 0
    for n in names:
        stats = run_case(a.ufs_sim, cases[n])
        if a.update:
            with open(golden_path(n), "w") as f:
                json.dump(stats, f, indent=1, sort_keys=True)
                f.write("\n")
            print("wrote %s" % os.path.relpath(golden_path(n)))
            continue
        if not os.path.exists(golden_path(n)):
            print("%s: no golden file %s (golden.py --update %s)" % (n, golden_path(n), n))
            failed += 1
            continue
        with open(golden_path(n)) as f:
            expected = json.load(f)
        diff = differences(expected, stats)
        if diff:
            failed += 1
            print("%s: %d figures differ from %s (golden -> this build):" % (n, len(diff), os.path.relpath(golden_path(n))))
            for line in diff[:60]:
                print("  " + line)
            if len(diff) > 60:
                print("  ... and %d more" % (len(diff) - 60))
        else:
            print("%s: same figures" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
