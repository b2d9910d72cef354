"""Command line: `ufs-sim sweep ...` and the studies' `batch` step come here.

    python3 -m ufs_tlm sweep SPEC.toml [--out DIR] [--jobs N | --scheduler tcp://HOST:PORT]
                             [--point-timeout S] [--no-progress] [--dry-run]
    python3 -m ufs_tlm batch STEP.json --result RESULT.json [--jobs N | --scheduler ...]

Exit status: 0 every point ran, 1 some failed (named at the end), 2 a refused spec or
option (one line naming the key), 130 interrupted (Ctrl-C; the same command goes on).
"""
import argparse
import signal
import sys

from .engine import EngineError
from .simulator import SimError
from .spec import Spec, SpecError


class _Parser(argparse.ArgumentParser):
    # Bad options get the program's one-line error and exit status 2.
    def error(self, message):
        print("ufs-sim: error: %s: %s (%s --help)" % (self.prog, message, self.prog), file=sys.stderr)
        sys.exit(2)


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a whole number" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a number of seconds" % text)
    if v <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return v


def _engine_options(p):
    p.add_argument("--jobs", type=_positive, help="simulations at once on a LocalCluster (default: one per core)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on this Dask scheduler's workers instead (ufs-sim and traces at the same paths there)")
    p.add_argument("--point-timeout", type=_seconds, metavar="S", help="a simulation running longer fails")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    # Ctrl-C and SIGTERM (also what `ufs-sim experiment` sends when it dies) stop the run in
    # order, even when started with SIGINT ignored (a shell's background job).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    parser = _Parser(prog="ufs-sim", description="ufs-tlm sweeps and parallel studies on Dask")
    sub = parser.add_subparsers(dest="command", required=True)
    sw = sub.add_parser("sweep", help="run every point of a sweep spec (TOML) into one table",
                        description="Runs every point of a sweep spec (sim/sweeps/*.toml; format in "
                                    "sim/python/ufs_tlm/spec.py) and writes DIR/results.csv, results.jsonl, "
                                    "sweep.json and a run folder per point. Points already done are not run again.")
    sw.add_argument("spec", help="sweep spec, a TOML file")
    sw.add_argument("--out", metavar="DIR", help="sweep folder (default runs/sweeps/NAME)")
    sw.add_argument("--sim", metavar="PATH", help="ufs-sim binary (default $UFS_SIM, then build/sim/ufs-sim)")
    sw.add_argument("--dry-run", action="store_true", help="validate the spec and list its points; run nothing")
    _engine_options(sw)
    b = sub.add_parser("batch", help="a study's step of runs (used by ufs-sim experiment --jobs N)")
    b.add_argument("batch")
    b.add_argument("--result", required=True)
    _engine_options(b)
    args = parser.parse_args(argv)
    if args.jobs and args.scheduler:
        parser.error("--jobs and --scheduler: give one (a scheduler's workers set the parallelism)")
    try:
        if args.command == "batch":
            from .batch import run_batch

            return run_batch(args.batch, args.result, args.jobs, args.scheduler, args.point_timeout,
                             not args.no_progress)
        from .sweep import Sweep

        sweep = Sweep(Spec(args.spec), args.out, args.jobs, args.scheduler, args.point_timeout,
                      not args.no_progress, args.sim)
        if args.dry_run:
            sweep.validate()
            for p in sweep.spec.points:
                refused = sweep.refused.get(p.index)
                print("%4d  %s%s\n      ufs-sim run %s" % (p.index, p.label(), "  (refused: %s)" % refused if refused
                                                          else "", " ".join(_quote(a) for a in p.args())))
            print("%d points" % len(sweep.spec.points))
            return 0
        result = sweep.run()
        if result.interrupted:
            return 130
        return 0 if result.ok else 1
    except SpecError as e:
        print("ufs-sim: error: %s" % e, file=sys.stderr)
        return 2
    except (SimError, EngineError) as e:
        message = str(e)
        print(message if message.startswith("ufs-sim:") else "ufs-sim: error: %s" % message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ufs-sim: interrupted", file=sys.stderr)
        return 130


def _quote(a):
    import shlex

    return shlex.quote(a)


if __name__ == "__main__":
    sys.exit(main())
