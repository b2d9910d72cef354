"""A sweep's metric against a parameter (sim/plot.py --sweep DIR --x PARAM --y METRIC).

One line per value of --hue (and per combination of any other column that varies and is
not fixed with --where), replicates as their mean with the min..max spread shaded; axes
labelled with the parameter's unit from the simulator's table (sweep.json) and the
metric's unit. Sizes such as "1g" or "512m" plot as numbers (bytes), labelled as given.
"""
import json
import math
import os
import re

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT])?[iI]?[bB]?\s*$")
_SCALE = {None: 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


class PlotError(ValueError):
    pass


def metric_unit(metric):
    """The unit of a stats.json figure (sim/output/README.md)."""
    last = metric.split(".")[-1]
    if metric.startswith("ops.") or metric.startswith("streams."):
        if last in ("mean", "min", "max") or re.match(r"^p\d", last):
            return "us"
    if last == "iops":
        return "IOPS"
    if last == "mb_per_s":
        return "MB/s"
    if last.endswith("_ratio") or "busy" in last or last == "idle_arrival_fraction":
        return "fraction"
    if last.endswith("_seconds"):
        return "s"
    if last.endswith("_us") or last.endswith("_us_mean"):
        return "us"
    if last.endswith("_mib"):
        return "MiB"
    if last.endswith("_bytes"):
        return "bytes"
    return ""


def _number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        m = _SIZE.match(v)
        if m:
            return float(m.group(1)) * _SCALE[m.group(2).lower() if m.group(2) else None]
    return None


def _text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def load(folder):
    try:
        with open(os.path.join(folder, "sweep.json")) as f:
            meta = json.load(f)
        with open(os.path.join(folder, "results.jsonl")) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError as e:
        raise PlotError("%s: not a sweep folder (%s)" % (folder, e))
    return meta, rows


def plot_sweep(plt, folder, x, y, hue=None, logx=False, where=(), out=None):
    """Draws the plot and returns the PNG's path."""
    meta, rows = load(folder)
    params = meta.get("parameters", [])
    columns = params + meta.get("metrics", []) + ["wall_seconds", "peak_rss_mib", "run_seconds"]
    for name, what in ((x, "--x"), (hue, "--hue")):
        if name is not None and name not in params:
            raise PlotError("%s %s: not a parameter of this sweep (%s)" % (what, name, ", ".join(params)))
    if y not in columns:
        raise PlotError("--y %s: not a metric of this sweep (%s)" % (y, ", ".join(meta.get("metrics", []))))
    for cond in where:
        key, _, value = cond.partition("=")
        if key not in params:
            raise PlotError("--where %s: not a parameter of this sweep" % key)
        rows = [r for r in rows if _text(r.get(key)) == value]
    if not rows:
        raise PlotError("no point matches --where %s" % " ".join(where))
    rows = [r for r in rows if r.get("status") == "ok" and r.get(y) is not None]
    if not rows:
        raise PlotError("no finished point has %s" % y)
    # Every other varying column (not replicates) splits lines too: nothing averaged silently.
    fixed = {x, hue, "replicate", "seed"}
    split = [c for c in params if c not in fixed and len(set(_text(r.get(c)) for r in rows)) > 1]
    series_keys = ([hue] if hue else []) + split

    xs = list(dict.fromkeys(r[x] for r in rows))
    numeric = [_number(v) for v in xs]
    categorical = any(n is None for n in numeric)
    position = {_text(v): (i if categorical else numeric[i]) for i, v in enumerate(xs)}

    lines = {}
    for r in rows:
        label = ", ".join("%s=%s" % (k, _text(r.get(k))) for k in series_keys)
        lines.setdefault(label, {}).setdefault(position[_text(r[x])], []).append(float(r[y]))

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    replicated = False
    for label, points in lines.items():
        px = sorted(points)
        mean = [sum(points[p]) / len(points[p]) for p in px]
        lo = [min(points[p]) for p in px]
        hi = [max(points[p]) for p in px]
        replicated = replicated or any(len(points[p]) > 1 for p in px)
        line, = ax.plot(px, mean, marker="o", label=label or y)
        if any(h > l for h, l in zip(hi, lo)):
            ax.fill_between(px, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    if logx and not categorical:
        ax.set_xscale("log", base=2)
    if categorical or any(isinstance(v, str) for v in xs) or len(xs) <= 12:
        ticks = [position[_text(v)] for v in xs]
        ax.set_xticks(ticks)
        ax.set_xticklabels([_text(v) for v in xs])
        ax.minorticks_off()
    units = meta.get("units", {})
    xunit = units.get(x, "")
    ax.set_xlabel(x + (" (%s)" % xunit if xunit and xunit != "-" else ""))
    yunit = metric_unit(y)
    ax.set_ylabel(y + (" (%s)" % yunit if yunit else ""))
    ax.grid(True, alpha=0.3)
    values = [v for pts in lines.values() for vs in pts.values() for v in vs]
    if all(v >= 0 for v in values):
        ax.set_ylim(bottom=0)
    if len(lines) > 1 or replicated:
        ax.legend(fontsize="small", title=("mean, min..max shaded" if replicated else None),
                  title_fontsize="small")
    title = "%s: %s vs %s" % (meta.get("name", "sweep"), y, x)
    if where:
        title += " (%s)" % ", ".join(where)
    ax.set_title(title, fontsize="medium")
    fig.tight_layout()
    name = "plot_%s_vs_%s%s.png" % (y, x, "_by_" + hue if hue else "")
    path = out or os.path.join(folder, re.sub(r"[^A-Za-z0-9_.=-]", "_", name))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
