"""A sweep: every point of a spec on the engine, one tidy table.

    OUT/results.csv, OUT/results.jsonl   a row per point: parameters, status, error, metrics
    OUT/sweep.json                       the spec, columns, units, simulator (sim/plot.py --sweep)
    OUT/points/KEY/                      each point's run folder (stats.json, ...) and point.json

A point's KEY is a hash of its effective configuration (as the simulator binds it), its
workload, precondition and scoreboard switch, and the simulator build (the binary's
SHA-256). A point whose folder already holds a finished run with that key is not run
again: re-running a sweep after Ctrl-C, a lost worker or a spec grown by some values runs
only what is missing.
"""
import csv
import hashlib
import io
import json
import math
import os
import shutil
import sys
import time

from . import simulator
from .engine import Engine
from .result import lookup
from .simulator import SimError
from .spec import Spec, SpecError

# Figures of the run itself (not of the model): they differ between identical runs.
RUN_COLUMNS = ["wall_seconds", "peak_rss_mib", "run_seconds"]


def _strip(message):
    return message[len("ufs-sim: error: "):] if message.startswith("ufs-sim: error: ") else message


def point_key(point, config, digest):
    doc = {"preset": point.preset, "config": config, "workload": point.workload, "precondition": point.precondition,
           "precondition_fill": point.precondition_fill, "check": point.check, "sim": digest}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class SweepResult:
    """rows: one dict per point, in point order. failed: the rows whose status is not ok.
    ran / cached: points simulated now / found done. interrupted: stopped by Ctrl-C."""

    def __init__(self, spec, out, rows, ran, cached, interrupted, stats):
        self.spec = spec
        self.out = out
        self.rows = rows
        self.ran = ran
        self.cached = cached
        self.interrupted = interrupted
        self.stats = stats

    @property
    def failed(self):
        return [r for r in self.rows if r["status"] != "ok"]

    @property
    def ok(self):
        return not self.failed and not self.interrupted


class Sweep:
    def __init__(self, spec, out=None, jobs=None, scheduler=None, point_timeout=None, progress=True, sim=None,
                 log=None):
        self.spec = spec if isinstance(spec, Spec) else Spec(spec)
        self.out = os.path.abspath(out or os.path.join("runs", "sweeps", self.spec.name))
        self.jobs = jobs
        self.scheduler = scheduler
        self.point_timeout = point_timeout
        self.progress = progress
        self.sim = simulator.find_sim(sim)
        self.log = log or sys.stderr
        self.units = {}
        self.keys = {}       # point index -> key
        self.refused = {}    # point index -> error (the simulator refused its configuration)

    def say(self, text):
        self.log.write(text + "\n")
        self.log.flush()

    # -- before the first point

    def validate(self):
        """Every preset and every parameter value alone, against the simulator's own table and
        checks: an unknown key or a refused value stops the sweep here, naming it. Then each
        point's whole configuration: one the simulator refuses becomes a failed row."""
        spec = self.spec
        tables = {}
        for preset in dict.fromkeys(p.preset for p in spec.points):
            try:
                tables[preset] = simulator.params_table(preset, [], self.sim)
            except SimError as e:
                raise SpecError("preset '%s': %s" % (preset, _strip(e.message)))
        for preset, table in tables.items():
            known = {p["key"]: p for p in table}
            for key, value, where in spec.parameter_values():
                if key in known and known[key]["type"] != "string" and value == "":
                    raise SpecError("%s: an empty value" % where)
                try:
                    simulator.params_table(preset, ["%s=%s" % (key, value)], self.sim)
                except SimError as e:
                    raise SpecError("%s = %s: %s" % (where, value, _strip(e.message)))
            for key, p in known.items():
                self.units.setdefault(key, p["unit"])
        digest = simulator.sim_digest(self.sim)
        self.digest = digest
        configs = {}  # replicates and workload variables share a configuration: ask once
        for point in spec.points:
            which = (point.preset, tuple(point.set_list()))
            if which not in configs:
                try:
                    configs[which] = (simulator.effective_config(point.preset, point.set_list(), self.sim), None)
                except SimError as e:
                    configs[which] = ({"refused": e.message, "sets": point.set_list()}, e.message)
            config, refused = configs[which]
            if refused:
                self.refused[point.index] = refused
            self.keys[point.index] = point_key(point, config, digest)

    # -- folders

    def folder(self, key):
        return os.path.join(self.out, "points", key[:16])

    def finished(self, key):
        """True when the point's folder holds a finished run with this key."""
        try:
            with open(os.path.join(self.folder(key), "point.json")) as f:
                meta = json.load(f)
        except (OSError, ValueError):
            return False
        return meta.get("key") == key and meta.get("status") == "ok" and os.path.exists(
            os.path.join(self.folder(key), "stats.json"))

    def store(self, point, key, result):
        folder = self.folder(key)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        for name, data in result.get("files", {}).items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        meta = {"key": key, "point": point.label(), "args": point.args(), "status": result["status"],
                "error": result.get("error", ""), "run_seconds": result.get("seconds", 0.0),
                "worker": result.get("worker", ""), "host": result.get("host", ""), "sim": self.sim,
                "sim_sha256": self.digest, "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
        # point.json last: a folder without it (a crash while writing) is not a finished run.
        with open(os.path.join(folder, "point.json.tmp"), "w") as f:
            json.dump(meta, f, indent=1)
        os.replace(os.path.join(folder, "point.json.tmp"), os.path.join(folder, "point.json"))

    # -- the run

    def run(self):
        start = time.monotonic()
        spec = self.spec
        self.validate()
        os.makedirs(self.out, exist_ok=True)
        todo, cached, seen = [], 0, set()
        for point in spec.points:
            key = self.keys[point.index]
            if key in seen:
                continue
            seen.add(key)
            if point.index in self.refused:
                self.store(point, key, {"status": "failed", "error": self.refused[point.index]})
            elif self.finished(key):
                cached += 1
            else:
                todo.append(point)
        self.say("sweep %s: %d points (%d to run, %d done before), table in %s" % (
            spec.name, len(spec.points), len(todo), cached, self.out))
        stats = {"workers": 0, "engine_seconds": 0.0, "startup_seconds": 0.0, "run_seconds": 0.0,
                 "worker_rss_mib": {}}
        interrupted = False
        ran = 0
        if todo:
            t0 = time.monotonic()
            with Engine(jobs=self.jobs, scheduler=self.scheduler, point_timeout=self.point_timeout,
                        progress=self.progress) as engine:
                stats["workers"] = engine.workers()
                stats["startup_seconds"] = time.monotonic() - t0
                jobs = [{"sim": self.sim, "digest": self.digest, "args": p.args()} for p in todo]

                def on_result(i, result):
                    nonlocal ran
                    ran += 1
                    stats["run_seconds"] += result.get("seconds", 0.0)
                    self.store(todo[i], self.keys[todo[i].index], result)

                t1 = time.monotonic()
                interrupted = not engine.run(jobs, on_result, cached=len(spec.points) - len(todo))
                stats["engine_seconds"] = time.monotonic() - t1
                if not interrupted:
                    stats["worker_rss_mib"] = engine.worker_memory_mib()
        rows = self.table()
        stats["wall_seconds"] = time.monotonic() - start
        self.write(rows)
        result = SweepResult(spec, self.out, rows, ran, cached, interrupted, stats)
        self.summary(result)
        return result

    def table(self):
        spec = self.spec
        rows = []
        for point in spec.points:
            key = self.keys[point.index]
            folder = self.folder(key)
            row = {"point": point.index}
            row.update(point.values)
            if spec.replicated:
                row["replicate"] = point.replicate
            if spec.uses_seed:
                row["seed"] = point.seed
            meta = {}
            try:
                with open(os.path.join(folder, "point.json")) as f:
                    meta = json.load(f)
            except (OSError, ValueError):
                pass
            status = meta.get("status", "not run") if meta.get("key") == key else "not run"
            stats = None
            if status == "ok":
                try:
                    with open(os.path.join(folder, "stats.json")) as f:
                        stats = json.load(f)
                except (OSError, ValueError) as e:
                    status, meta["error"] = "failed", "stats.json unreadable: %s" % e
            row["status"] = status
            row["error"] = meta.get("error", "") if status != "ok" else ""
            for m in spec.metrics:
                row[m] = lookup(stats, m) if stats else None
            row["wall_seconds"] = stats.get("wall_seconds") if stats else None
            row["peak_rss_mib"] = stats.get("peak_rss_mib") if stats else None
            row["run_seconds"] = meta.get("run_seconds") if status == "ok" else None
            row["key"] = key
            row["run_dir"] = os.path.relpath(folder, self.out)
            rows.append(row)
        return rows

    def columns(self):
        return (["point"] + self.spec.columns() + ["status", "error"] + self.spec.metrics + RUN_COLUMNS +
                ["key", "run_dir"])

    def write(self, rows):
        columns = self.columns()
        text = io.StringIO()
        w = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: _cell(r.get(k)) for k in columns})
        _write(os.path.join(self.out, "results.csv"), text.getvalue())
        _write(os.path.join(self.out, "results.jsonl"),
               "".join(json.dumps({k: r.get(k) for k in columns}) + "\n" for r in rows))
        units = {n: self.units.get(n, "") for n in self.spec.columns() if "." in n}
        meta = {"name": self.spec.name, "spec": self.spec.data, "origin": self.spec.origin,
                "parameters": self.spec.columns(), "metrics": self.spec.metrics, "units": units,
                "sim": self.sim, "sim_sha256": self.digest, "points": len(rows)}
        _write(os.path.join(self.out, "sweep.json"), json.dumps(meta, indent=1, default=str) + "\n")

    def summary(self, result):
        s = result.stats
        failed = result.failed
        done = sum(1 for r in result.rows if r["status"] == "ok")
        self.say("sweep %s: %d of %d points ok (%d run now, %d done before), %d failed%s; %.1f s" % (
            self.spec.name, done, len(result.rows), result.ran, result.cached,
            sum(1 for r in failed if r["status"] == "failed"),
            ", interrupted" if result.interrupted else "", s["wall_seconds"]))
        if result.ran and s["workers"]:
            # Engine overhead per point: worker time not spent in ufs-sim, over the points
            # (while they ran, and over the whole sweep with start-up and validation).
            running = (s["engine_seconds"] * s["workers"] - s["run_seconds"]) / result.ran
            whole = (s["wall_seconds"] * s["workers"] - s["run_seconds"]) / result.ran
            self.say("  engine: %d workers (started in %.1f s); %d points in %.1f s, %.2f s of simulation each; "
                     "overhead per point %.3f s while running, %.3f s over the whole sweep" % (
                         s["workers"], s["startup_seconds"], result.ran, s["engine_seconds"],
                         s["run_seconds"] / result.ran, running, whole))
        peaks = [r["peak_rss_mib"] for r in result.rows if r.get("peak_rss_mib") is not None]
        if peaks:
            rss = s.get("worker_rss_mib") or {}
            self.say("  peak memory: ufs-sim up to %.0f MiB per point%s" % (
                max(peaks), "; worker processes %.0f MiB each (Python and Dask)" % max(rss.values()) if rss else ""))
        missing = [m for m in self.spec.metrics if done and "metrics" in self.spec.data and all(r.get(m) is None for r in result.rows
                                                                if r["status"] == "ok")]
        for m in missing:
            self.say("  note: metric '%s' is in no point's stats.json" % m)
        for r in failed[:20]:
            if r["status"] == "failed":
                self.say("  failed: point %d (%s): %s" % (r["point"], self.spec.points[r["point"]].label(), r["error"]))
        if len(failed) > 20:
            self.say("  ... and %d more (results.csv, column error)" % (len(failed) - 20))
        self.say("  table: %s" % os.path.join(self.out, "results.csv"))
        if result.interrupted:
            self.say("  interrupted: the same command goes on where it stopped")


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and math.isnan(v):
        return ""
    return v


def _write(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def sweep(spec, out=None, jobs=None, scheduler=None, point_timeout=None, progress=True, sim=None, log=None):
    """Runs a sweep (a TOML path or a dict, see ufs_tlm.spec) and returns its SweepResult.

    out: the sweep folder (default runs/sweeps/NAME); jobs: LocalCluster workers (default: one
    per core); scheduler: 'tcp://HOST:PORT' of a running Dask scheduler instead;
    point_timeout: seconds per point. Raises SpecError before any point runs when the spec
    or one of its values is refused; failed points are rows (result.failed).
    """
    return Sweep(spec, out, jobs, scheduler, point_timeout, progress, sim, log).run()
