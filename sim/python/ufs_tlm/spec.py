"""Sweep specs: a TOML file or the same as a Python dict, expanded into points.

    name = "l2p-sram"                      # optional; default: the file's name
    preset = "ufs31"                       # or a list: an axis
    workload = "rw=randread,bs=4k,iodepth=32,size={range},count=50000,seed={seed}"
                                           # or workloads = [...] / {label = "spec", ...}: an axis
    precondition_fill = "{range}"          # optional, as ufs-sim run's options
    precondition = "rw=randread,..."
    check = false                          # the data-integrity scoreboard (default true)
    replicates = 3                         # seeds seed, seed+1, ... through {seed}
    seed = 1                               # or seeds = [7, 8, 9]
    metrics = ["ops.read.iops", "ftl.map_cache.read_hit_ratio"]   # stats.json paths
    [set]                                  # fixed overrides for every point
    "hpb.control_mode" = "device"
    [vary]                                 # full product of these axes
    "memory.l2p_sram_kib" = {from = 256, to = 8192, times = 2}     # 256, 512, ..., 8192
    "hpb.enabled" = [false, true]
    range = ["1g", "8g", "32g"]            # no dot: a variable for {range} in the strings above
    [[zip]]                                # a group whose lists advance together: one axis
    "fcc.channels" = [1, 2, 4]
    "fcc.ways_per_channel" = [8, 4, 2]

Axis values: a list, or a range {from, to, step} (linear), {from, to, times} (geometric),
{from, to, points, log = true|false}. A dotted name is a parameter (`--set`); `preset`
and `workload` vary those; any other name is a variable used as {name} in the strings.
"""
import itertools
import math
import os
import re

from .simulator import format_value


class SpecError(ValueError):
    """A spec the sweep refuses; the message names the key."""


TOP_KEYS = {"name", "description", "preset", "workload", "workloads", "precondition", "precondition_fill", "check",
            "set", "vary", "zip", "replicates", "seed", "seeds", "metrics"}

# What a sweep collects when the spec names no metrics: throughput, latency, WAF, map cache, busy.
DEFAULT_METRICS = ["iops", "ops.read.iops", "ops.read.mb_per_s", "ops.read.mean", "ops.read.p99",
                   "ops.write.iops", "ops.write.mb_per_s", "ops.write.mean", "ops.write.p99",
                   "ftl.write_amplification", "ftl.map_cache.read_hit_ratio", "utilisation.die_busy",
                   "utilisation.channel_busy", "utilisation.cpu_busy", "simulated_seconds"]

_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def load(source):
    """A spec from a TOML file path or a dict -> (dict, origin)."""
    if isinstance(source, dict):
        return dict(source), "spec"
    import tomllib

    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise SpecError("%s: no such file" % path)
    except tomllib.TOMLDecodeError as e:
        raise SpecError("%s: %s" % (path, e))
    data.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    return data, path


def _is_scalar(v):
    return isinstance(v, (str, int, float, bool))


def axis_values(where, spec):
    """A list, or a range table, as the list of values it stands for."""
    if isinstance(spec, list):
        if not spec:
            raise SpecError("%s: an empty list" % where)
        for v in spec:
            if not _is_scalar(v):
                raise SpecError("%s: values must be strings, numbers or booleans (got %r)" % (where, v))
        return list(spec)
    if not isinstance(spec, dict):
        raise SpecError("%s: give a list of values or a range {from, to, step|times|points}" % where)
    unknown = set(spec) - {"from", "to", "step", "times", "points", "log"}
    if unknown:
        raise SpecError("%s: unknown range key '%s' (from, to, step, times, points, log)" % (where, sorted(unknown)[0]))
    if "from" not in spec or "to" not in spec:
        raise SpecError("%s: a range needs 'from' and 'to'" % where)
    lo, hi = spec["from"], spec["to"]
    for k in ("from", "to"):
        if isinstance(spec[k], bool) or not isinstance(spec[k], (int, float)):
            raise SpecError("%s.%s: a number" % (where, k))
    integral = isinstance(lo, int) and isinstance(hi, int)
    kinds = [k for k in ("step", "times", "points") if k in spec]
    if len(kinds) != 1:
        raise SpecError("%s: a range needs exactly one of step, times, points" % where)
    kind = kinds[0]
    x = spec[kind]
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise SpecError("%s.%s: a number" % (where, kind))
    values = []
    if kind == "step":
        if x <= 0 or hi < lo:
            raise SpecError("%s: step must be > 0 and from <= to" % where)
        n = int(math.floor((hi - lo) / x + 1e-9)) + 1
        values = [lo + i * x for i in range(n)]
        integral = integral and isinstance(x, int)
    elif kind == "times":
        if x <= 1 or lo <= 0 or hi < lo:
            raise SpecError("%s: times must be > 1 and 0 < from <= to" % where)
        v = lo
        while v <= hi * (1 + 1e-9):
            values.append(v)
            v = v * x
        integral = integral and isinstance(x, int)
    else:
        if not isinstance(x, int) or x < 1:
            raise SpecError("%s.points: a whole number >= 1" % where)
        log = spec.get("log", False)
        if not isinstance(log, bool):
            raise SpecError("%s.log: true or false" % where)
        if log and (lo <= 0 or hi <= 0):
            raise SpecError("%s: a log range needs from and to > 0" % where)
        for i in range(x):
            t = i / (x - 1) if x > 1 else 0.0
            values.append(lo * (hi / lo) ** t if log else lo + (hi - lo) * t)
        if integral:
            values = sorted(set(int(round(v)) for v in values))
    if len(values) > 100000:
        raise SpecError("%s: %d values" % (where, len(values)))
    if integral:
        values = [int(round(v)) for v in values]
    return values


class Axis:
    """One dimension of the product: names that advance together and their value tuples."""

    def __init__(self, names, rows, where):
        self.names = names
        self.rows = rows
        self.where = where


class Point:
    """One simulation of the sweep (before the simulator has looked at it)."""

    def __init__(self, index, values, replicate, seed, preset, workload, precondition, fill, sets, check):
        self.index = index
        self.values = values        # axis name -> value (the spec's own values)
        self.replicate = replicate
        self.seed = seed
        self.preset = preset
        self.workload = workload
        self.precondition = precondition
        self.precondition_fill = fill
        self.sets = sets            # [(key, text)] in spec order
        self.check = check

    def set_list(self):
        return ["%s=%s" % kv for kv in self.sets]

    def args(self):
        """`ufs-sim run` arguments (after `run`)."""
        a = ["--preset", self.preset, "--workload", self.workload]
        if self.precondition_fill:
            a += ["--precondition-fill", self.precondition_fill]
        if self.precondition:
            a += ["--precondition", self.precondition]
        for s in self.set_list():
            a += ["--set", s]
        if not self.check:
            a.append("--no-check")
        return a

    def label(self):
        parts = ["%s=%s" % (k, format_value(v)) for k, v in self.values.items()]
        if self.replicate is not None:
            parts.append("seed=%s" % self.seed)
        return ", ".join(parts) or "the base point"


class Spec:
    """A parsed, expanded spec: axes, points and metrics."""

    def __init__(self, source):
        data, self.origin = load(source)
        self.data = data
        unknown = sorted(set(data) - TOP_KEYS)
        if unknown:
            raise SpecError("%s: unknown key '%s' (known: %s)" % (self.origin, unknown[0], ", ".join(sorted(TOP_KEYS))))
        self.name = str(data.get("name", "sweep"))
        self.metrics = self._metrics(data.get("metrics", DEFAULT_METRICS))
        self.check = data.get("check", True)
        if not isinstance(self.check, bool):
            raise SpecError("check: true or false")
        self.axes = []
        self._axis_names = set()
        self.fixed = {}
        self.fixed = self._fixed(data)
        for name, values in self._table(data, "vary").items():
            self._add_axis([name], [(v,) for v in axis_values("vary.%s" % name, values)], "vary.%s" % name)
        zips = data.get("zip", [])
        if isinstance(zips, dict):
            zips = [zips]
        if not isinstance(zips, list):
            raise SpecError("zip: a list of tables ([[zip]])")
        for g, group in enumerate(zips):
            if not isinstance(group, dict) or not group:
                raise SpecError("zip[%d]: a table of equal-length lists" % g)
            names = list(group)
            columns = [axis_values("zip[%d].%s" % (g, n), group[n]) for n in names]
            if len(set(len(c) for c in columns)) != 1:
                raise SpecError("zip[%d]: lists of different lengths (%s)" % (
                    g, ", ".join("%s: %d" % (n, len(c)) for n, c in zip(names, columns))))
            self._add_axis(names, list(zip(*columns)), "zip[%d]" % g)
        self.seeds, self.replicated = self._seeds(data)
        self._check_variables()
        self.points = self._expand()

    # -- parsing

    @staticmethod
    def _table(data, key):
        t = data.get(key, {})
        if not isinstance(t, dict):
            raise SpecError("%s: a table" % key)
        return t

    @staticmethod
    def _metrics(metrics):
        if not isinstance(metrics, list) or not metrics or not all(isinstance(m, str) and m for m in metrics):
            raise SpecError("metrics: a non-empty list of stats.json paths ('ops.read.p99')")
        if len(set(metrics)) != len(metrics):
            raise SpecError("metrics: '%s' twice" % next(m for m in metrics if metrics.count(m) > 1))
        return list(metrics)

    def _fixed(self, data):
        fixed = {}
        for key in ("preset", "precondition", "precondition_fill"):
            v = data.get(key)
            if v is None:
                continue
            if isinstance(v, list) and key == "preset":
                self._add_axis(["preset"], [(x,) for x in axis_values("preset", v)], "preset")
            elif isinstance(v, str):
                fixed[key] = v
            else:
                raise SpecError("%s: a string" % key)
        if "workload" in data and "workloads" in data:
            raise SpecError("workloads: give workload or workloads, not both")
        w = data.get("workload", data.get("workloads"))
        if isinstance(w, str):
            fixed["workload"] = w
        elif isinstance(w, list):
            self._add_axis(["workload"], [(x,) for x in axis_values("workloads", w)], "workloads")
        elif isinstance(w, dict):
            if not w or not all(isinstance(v, str) for v in w.values()):
                raise SpecError("workloads: a table of label = \"spec\"")
            self.workload_specs = dict(w)
            self._add_axis(["workload"], [(label,) for label in w], "workloads")
        elif "vary" not in data or "workload" not in data.get("vary", {}):
            raise SpecError("workload: missing (a spec as ufs-sim run --workload takes it)")
        for key in ("preset", "workload"):
            if key in self._table(data, "vary") and (key in data or key + "s" in data):
                raise SpecError("vary.%s: %s is also given at the top" % (key, key))
        fixed.setdefault("preset", "ufs31")
        sets = self._table(data, "set")
        for k, v in sets.items():
            if "." not in k:
                raise SpecError("set.%s: not a parameter key (section.name)" % k)
            if not _is_scalar(v):
                raise SpecError("set.%s: a string, number or boolean" % k)
        fixed["set"] = dict(sets)
        return fixed

    def _add_axis(self, names, rows, where):
        for n in names:
            if n in self._axis_names:
                raise SpecError("%s: '%s' varies twice" % (where, n))
            if n in self.fixed.get("set", {}):
                raise SpecError("%s: '%s' is also in [set]" % (where, n))
            if "." not in n and not _NAME.match(n):
                raise SpecError("%s: '%s' is neither a parameter key nor a variable name" % (where, n))
            if n in ("seed", "replicate"):
                raise SpecError("%s: '%s' is set by replicates/seeds" % (where, n))
            self._axis_names.add(n)
        self.axes.append(Axis(names, rows, where))

    @staticmethod
    def _seeds(data):
        if "seeds" in data:
            if "replicates" in data or "seed" in data:
                raise SpecError("seeds: give seeds, or replicates and seed, not both")
            seeds = data["seeds"]
            if not isinstance(seeds, list) or not seeds or not all(
                    isinstance(s, int) and not isinstance(s, bool) for s in seeds):
                raise SpecError("seeds: a non-empty list of whole numbers")
            return list(seeds), True
        n = data.get("replicates", 1)
        s = data.get("seed", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise SpecError("replicates: a whole number >= 1")
        if isinstance(s, bool) or not isinstance(s, int):
            raise SpecError("seed: a whole number")
        return [s + i for i in range(n)], "replicates" in data or "seed" in data

    def _strings(self):
        """Where {variables} may appear: (where, text)."""
        out = [(k, self.fixed[k]) for k in ("preset", "workload", "precondition", "precondition_fill")
               if k in self.fixed]
        out += [("set.%s" % k, v) for k, v in self.fixed["set"].items() if isinstance(v, str)]
        for a in self.axes:
            if a.names == ["workload"] or a.names == ["preset"]:
                out += [(a.where, r[0]) for r in a.rows if isinstance(r[0], str)]
        out += [("workloads.%s" % k, v) for k, v in getattr(self, "workload_specs", {}).items()]
        return out

    def _check_variables(self):
        variables = {n for a in self.axes for n in a.names if "." not in n and n not in ("preset", "workload")}
        used = set()
        for where, text in self._strings():
            for v in _VAR.findall(text):
                if v not in variables and v not in ("seed", "replicate"):
                    raise SpecError("%s: {%s} is not a variable of [vary] or [[zip]] (nor seed, replicate)" % (where, v))
                used.add(v)
        for v in sorted(variables - used):
            raise SpecError("vary.%s: {%s} appears in no workload, precondition or set value" % (v, v))
        if self.replicated and "seed" not in used:
            raise SpecError("replicates: nothing uses {seed} (write seed={seed} in the workload)")
        self.uses_seed = "seed" in used

    # -- expansion

    def _expand(self):
        points = []
        combos = itertools.product(*[a.rows for a in self.axes]) if self.axes else [()]
        for combo in combos:
            values = {}
            for axis, row in zip(self.axes, combo):
                values.update(zip(axis.names, row))
            for r, seed in enumerate(self.seeds):
                env = {k: format_value(v) for k, v in values.items() if "." not in k}
                env.update(seed=str(seed), replicate=str(r))

                def fill(text):
                    return _VAR.sub(lambda m: env[m.group(1)], text)

                preset = fill(str(values.get("preset", self.fixed["preset"])))
                workload = values.get("workload", self.fixed.get("workload"))
                workload = fill(getattr(self, "workload_specs", {}).get(workload, workload))
                sets = [(k, fill(format_value(v))) for k, v in self.fixed["set"].items()]
                sets += [(k, format_value(v)) for k, v in values.items() if "." in k]
                points.append(Point(len(points), values, r if self.replicated else None,
                                    seed if self.uses_seed else None, preset, workload,
                                    fill(self.fixed["precondition"]) if "precondition" in self.fixed else None,
                                    fill(self.fixed["precondition_fill"]) if "precondition_fill" in self.fixed else None,
                                    sets, self.check))
        if len(points) > 1000000:
            raise SpecError("%s: %d points" % (self.origin, len(points)))
        return points

    def parameter_values(self):
        """(key, text) pairs a sweep sets, each once: what validation checks one by one."""
        seen = []
        for k, v in self.fixed["set"].items():
            if not (isinstance(v, str) and _VAR.search(v)):
                seen.append((k, format_value(v), "set.%s" % k))
        for a in self.axes:
            for i, n in enumerate(a.names):
                if "." in n:
                    for row in a.rows:
                        seen.append((n, format_value(row[i]), a.where if len(a.names) == 1 else "%s.%s" % (a.where, n)))
        out, keys = [], set()
        for k, v, where in seen:
            if (k, v) not in keys:
                keys.add((k, v))
                out.append((k, v, where))
        return out

    def columns(self):
        """The table's parameter columns, in axis order."""
        cols = [n for a in self.axes for n in a.names]
        if self.replicated:
            cols += ["replicate"]
        if self.uses_seed:
            cols += ["seed"]
        return cols
