#!/usr/bin/env python3
"""Plots for ufs-sim run folders and experiment tables.

    python3 sim/plot.py RUN_DIR [--out DIR]          # run folder -> PNGs (default: into RUN_DIR)
    python3 sim/plot.py --experiment CSV [--out DIR]  # published vs model -> PNGs (default: beside CSV)
    python3 sim/plot.py --sweep DIR --x PARAM --y METRIC [--hue PARAM] [--logx] [--where PARAM=VALUE]
                                                      # a sweep's metric vs a parameter (sim/python/ufs_tlm/plot_sweep.py)

File-format contract (also in sim/output/README.md; the C++ side is
sim/output/run_folder.h, latency_histogram.h, time_series.h). Every input is
optional: a plot whose input is missing is skipped with a note on stderr.

Run folder inputs
  latency_cdf_<op>.csv   columns: latency_us,fraction
                         one row per non-empty histogram bucket, ascending; latency_us is
                         the bucket's upper end, fraction = share of <op> requests <= it.
                         <op> is lowercase: read, write, (flush, unmap, ...).
  timeseries.csv         columns: time_s,read_iops,write_iops,read_mbps,write_mbps,
                                  mean_read_lat_us,mean_write_lat_us
                         one row per interval with completions, plus the first and last
                         interval of each idle run (zeros); time_s = END of the interval (simulated s);
                         MB/s decimal (1e6 B/s); an empty mean latency = no completions.
  stats.json             keys read here:
                           preset, workload               (strings, plot titles)
                           utilisation.die_busy[]         busy fraction 0..1 per die, index =
                                                          channel * dies_per_channel + die
                           utilisation.channel_busy[]     busy fraction 0..1 per channel
                           utilisation.dies_per_channel   int (colours dies by channel)
                           utilisation.<name>             any other number 0..1 (cpu_busy,
                                                          link_host_to_device, ...)
                           ops.<op>.{p50,p99,p99_9}       (us; marked on the CDF when present)
Run folder outputs
  latency_cdf.png        CDF and tail (1 - fraction, log) per op
  throughput.png         IOPS, MB/s and mean latency over simulated time
  utilisation.png        per die, per channel and per block busy fractions

Experiment input (--experiment CSV, RFC 4180: fields with commas are quoted), one row per data point
  columns: study,metric,x,published,model          (required, in any order)
           unit,tolerance,panel,series,x_label     (optional; ufs-sim writes them all)
  study      an experiment name, e.g. "hpb_iozone_range"
  metric     what is measured, e.g. "throughput_mbps"
  x          the swept value ("4", "8g", "16 threads", "randread"); three or more numbers with one
             common suffix draw lines (a sweep), else grouped bars
  published  the paper's value (empty when the paper gives none)
  model      the simulator's value (empty when not run yet)
  tolerance  relative band the row must stay in (empty: shape only)
  panel      the panel the row is drawn in (default: its metric): compared metrics share one
  series     a curve or bar colour within a panel, e.g. "HPB on" / "HPB off"
  unit       y-axis label
  x_label    x-axis label (default: the sweep's common suffix, else none)
Experiment output
  <study>.png            a grid of panels (three a row): published (hollow / dashed) vs model (solid)
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def _import_pyplot():
    """matplotlib comes from Debian's python3-matplotlib; a pyenv/venv python first on
    PATH may not see it, so re-run under the system interpreter in that case."""
    try:
        import matplotlib
    except ImportError:
        if os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) \
                and not os.environ.get("UFS_PLOT_REEXEC"):
            os.environ["UFS_PLOT_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        sys.exit("plot.py: matplotlib is not installed; it is optional (about 500 MB with its dependencies): "
                 "./make.sh extras installs it (or, as root: apt-get install --no-install-recommends python3-matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _float(text):
    """CSV cell -> float; empty or malformed -> NaN (a gap in the plot)."""
    try:
        return float(text) if text is not None and text.strip() != "" else math.nan
    except ValueError:
        return math.nan


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def note(message):
    print("plot.py: " + message, file=sys.stderr)


def run_title(stats):
    if not isinstance(stats, dict):
        return ""
    parts = [str(stats[k]) for k in ("preset", "workload") if k in stats]
    return " | ".join(parts)


# ---------------------------------------------------------------- run folder


def plot_latency_cdf(plt, run_dir, out_dir, stats):
    files = sorted(glob.glob(os.path.join(run_dir, "latency_cdf_*.csv")))
    if not files:
        note("no latency_cdf_*.csv in %s: latency CDF skipped" % run_dir)
        return None
    fig, (ax_cdf, ax_tail) = plt.subplots(1, 2, figsize=(12, 4.5))
    for path in files:
        op = re.sub(r"^latency_cdf_(.*)\.csv$", r"\1", os.path.basename(path))
        rows = read_csv(path)
        xs = [_float(r["latency_us"]) for r in rows]
        ys = [_float(r["fraction"]) for r in rows]
        if not xs:
            continue
        (line,) = ax_cdf.step(xs, ys, where="post", label=op)
        # Tail: share of requests slower than x; the last point (fraction 1) has no tail.
        tail = [(x, 1.0 - y) for x, y in zip(xs, ys) if 1.0 - y > 0]
        if tail:
            ax_tail.step([t[0] for t in tail], [t[1] for t in tail], where="post", color=line.get_color(), label=op)
        summary = stats.get("ops", {}).get(op, {}) if isinstance(stats, dict) else {}
        for key, frac in (("p50", 0.5), ("p99", 0.99), ("p99_9", 0.999)):
            if isinstance(summary.get(key), (int, float)):
                ax_cdf.plot([summary[key]], [frac], "o", color=line.get_color(), markersize=4)
    ax_cdf.set_xscale("log")
    ax_cdf.set_xlabel("latency (us)")
    ax_cdf.set_ylabel("fraction of requests <= latency")
    ax_cdf.set_ylim(0, 1.02)
    ax_cdf.grid(True, which="both", alpha=0.3)
    ax_cdf.legend()
    ax_cdf.set_title("latency CDF (dots: p50, p99, p99.9)")
    ax_tail.set_xscale("log")
    ax_tail.set_yscale("log")
    ax_tail.set_xlabel("latency (us)")
    ax_tail.set_ylabel("fraction of requests > latency")
    ax_tail.grid(True, which="both", alpha=0.3)
    ax_tail.set_title("tail")
    if ax_tail.lines:
        ax_tail.legend()
    return save(fig, out_dir, "latency_cdf.png", run_title(stats))


def plot_throughput(plt, run_dir, out_dir, stats):
    path = os.path.join(run_dir, "timeseries.csv")
    if not os.path.exists(path):
        note("no timeseries.csv in %s: throughput plot skipped" % run_dir)
        return None
    rows = read_csv(path)
    if not rows:
        note("timeseries.csv is empty: throughput plot skipped")
        return None
    t = [_float(r["time_s"]) for r in rows]
    fig, axes = plt.subplots(3, 1, figsize=(11, 8), sharex=True)
    for op in ("read", "write"):
        iops = [_float(r.get(op + "_iops")) for r in rows]
        if not any(v > 0 for v in iops if not math.isnan(v)):
            continue  # an op that never ran stays off the plot
        axes[0].plot(t, iops, label=op)
        axes[1].plot(t, [_float(r.get(op + "_mbps")) for r in rows], label=op)
        axes[2].plot(t, [_float(r.get("mean_%s_lat_us" % op)) for r in rows], label=op)
    for ax, label in zip(axes, ("IOPS", "MB/s", "mean latency (us)")):
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(loc="upper right")
        ax.set_ylim(bottom=0)
    axes[2].set_xlabel("simulated time (s)")
    axes[0].set_title("throughput over time")
    return save(fig, out_dir, "throughput.png", run_title(stats))


def plot_utilisation(plt, run_dir, out_dir, stats):
    util = stats.get("utilisation") if isinstance(stats, dict) else None
    if not isinstance(util, dict) or not util:
        note("stats.json has no utilisation section: utilisation plot skipped")
        return None
    dies = [v for v in util.get("die_busy", []) if isinstance(v, (int, float))]
    channels = [v for v in util.get("channel_busy", []) if isinstance(v, (int, float))]
    blocks = {k: v for k, v in util.items()
              if k not in ("die_busy", "channel_busy", "die_idle", "channel_idle", "dies_per_channel")
              and isinstance(v, (int, float)) and not isinstance(v, bool)}
    panels = [p for p in (("dies", dies), ("channels", channels), ("blocks", blocks)) if p[1]]
    if not panels:
        note("utilisation section has nothing to plot")
        return None
    widths = [max(3, min(12, len(p[1]) * 0.35)) for p in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, sum(widths) + 2), 4.5),
                             gridspec_kw={"width_ratios": widths}, squeeze=False)
    per_channel = util.get("dies_per_channel")
    cmap = plt.get_cmap("tab10")
    for ax, (name, values) in zip(axes[0], panels):
        if name == "dies":
            if isinstance(per_channel, int) and per_channel > 0:
                colors = [cmap((i // per_channel) % 10) for i in range(len(values))]
                ax.set_xlabel("die (colour = channel, %d dies per channel)" % per_channel)
            else:
                colors = [cmap(0)] * len(values)
                ax.set_xlabel("die")
            ax.bar(range(len(values)), [v * 100 for v in values], color=colors)
        elif name == "channels":
            ax.bar(range(len(values)), [v * 100 for v in values], color=[cmap(i % 10) for i in range(len(values))])
            ax.set_xlabel("channel")
        else:
            names = list(values.keys())
            ax.bar(range(len(names)), [values[n] * 100 for n in names], color=cmap(7))
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels(names, rotation=30, ha="right")
        if name != "blocks" and len(values) <= 32:
            ax.set_xticks(range(len(values)))
        mean = (sum(values) / len(values) if name != "blocks" else None)
        ax.set_title(name + ("  (mean %.1f%%)" % (mean * 100) if mean is not None else ""))
        ax.set_ylim(0, 105)
        ax.set_ylabel("busy (% of simulated time)")
        ax.grid(True, axis="y", alpha=0.3)
    return save(fig, out_dir, "utilisation.png", run_title(stats))


def plot_run(plt, run_dir, out_dir):
    if not os.path.isdir(run_dir):
        sys.exit("plot.py: %s is not a directory" % run_dir)
    stats = {}
    stats_path = os.path.join(run_dir, "stats.json")
    if os.path.exists(stats_path):
        with open(stats_path) as f:
            try:
                stats = json.load(f)
            except json.JSONDecodeError as e:
                sys.exit("plot.py: %s: %s" % (stats_path, e))
    else:
        note("no stats.json in %s" % run_dir)
    written = [p for p in (plot_latency_cdf(plt, run_dir, out_dir, stats),
                           plot_throughput(plt, run_dir, out_dir, stats),
                           plot_utilisation(plt, run_dir, out_dir, stats)) if p]
    return written


# ---------------------------------------------------------------- experiments


def _is_number(text):
    return not math.isnan(_float(text))


_LEADING_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def numeric_axis(xs):
    """x labels of one panel as numbers when they are a sweep: every label a number with the
    same suffix ("1g", "4g", ...; "4 threads", "16 threads"). Returns (values, suffix) or None."""
    parsed = [_LEADING_NUMBER.match(x or "") for x in xs]
    if not xs or not all(parsed):
        return None
    suffixes = {m.group(2) for m in parsed}
    if len(suffixes) != 1:
        return None
    return [float(m.group(1)) for m in parsed], suffixes.pop()


def experiment_panels(rows):
    """Rows of a study CSV -> {study: {panel: [row, ...]}}, in file order. A row's panel is
    its `panel` column (several metrics compared in one panel, each a series) or its metric."""
    studies = {}
    for r in rows:
        panel = r.get("panel") or r["metric"]
        studies.setdefault(r["study"], {}).setdefault(panel, []).append(r)
    return studies


def plot_experiment(plt, csv_path, out_dir, kind):
    rows = read_csv(csv_path)
    required = {"study", "metric", "x", "published", "model"}
    header = set(rows[0].keys()) if rows else set()
    if not rows or not required <= header:
        sys.exit("plot.py: %s: needs columns %s (has %s)" % (csv_path, ",".join(sorted(required)),
                                                            ",".join(sorted(header)) or "no rows"))
    written = []
    for study, panels in experiment_panels(rows).items():
        # A grid, at most three panels a row: a study of 16 metrics stays readable; a panel
        # with many categories (18 apps x 2 semantics) gets a whole row so its labels fit.
        placement = grid_placement([len(category_labels(points)) > WIDE_PANEL_CATEGORIES
                                    for points in panels.values()])
        nrows = max(r for r, _, _ in placement) + 1
        ncols = min(3, max(c + span for _, c, span in placement))
        fig = plt.figure(figsize=(6.0 * ncols, 4.6 * nrows))
        grid = fig.add_gridspec(nrows, ncols)
        for (r, c, span), (panel, points) in zip(placement, panels.items()):
            draw_metric(fig.add_subplot(grid[r, c:c + span]), panel, points, kind)
        fig.suptitle(study)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", study) + ".png"
        written.append(save(fig, out_dir, name, None))
        print_table(study, panels)
    return written


def series_of(p):
    return p.get("series") or ""


WIDE_PANEL_CATEGORIES = 10  # more x categories than this: the panel takes a whole row
LOG_SPAN = 100              # positive values spanning this factor or more: logarithmic y axis
LABELLED_BARS = 16          # up to this many bars in a panel carry their value (a 0 is seen)


def category_labels(points):
    return list(dict.fromkeys(p["x"] for p in points))


def grid_placement(wide):
    """Panels in order -> (row, first column, columns spanned): three narrow panels a row, a
    wide panel alone on a full row (the row in progress is closed first)."""
    placement, row, col = [], 0, 0
    ncols = min(3, len(wide)) if not any(wide) else 3
    for w in wide:
        if w:
            if col:
                row, col = row + 1, 0
            placement.append((row, 0, ncols))
            row += 1
        else:
            placement.append((row, col, 1))
            col += 1
            if col == ncols:
                row, col = row + 1, 0
    return placement


def tick_labels(ax, labels, wide):
    """Category labels that stay legible: long ones wrapped, many ones turned further."""
    import textwrap
    wrapped = ["\n".join(textwrap.wrap(x, 18)) or x for x in labels]
    longest = max((len(x) for x in labels), default=0)
    crowded = len(labels) * min(longest, 18) > (110 if wide else 40)
    rotation = 60 if crowded else (20 if longest > 6 else 0)
    ax.set_xticklabels(wrapped, rotation=rotation, ha="right" if rotation else "center",
                       fontsize="small" if crowded else None, rotation_mode="anchor" if rotation else "default")


def short_number(v):
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return "{:,.0f}".format(v)
    return "%.3g" % v


def draw_metric(ax, metric, points, kind):
    series_names = list(dict.fromkeys(series_of(p) for p in points))
    xs = list(dict.fromkeys(p["x"] for p in points))
    axis = numeric_axis(xs)
    numeric = axis is not None
    position = dict(zip(xs, axis[0])) if numeric else {}
    lines = kind == "lines" or (kind == "auto" and numeric and len(xs) >= 3)
    colors = ["C%d" % i for i in range(10)]
    unit = next((p.get("unit") for p in points if p.get("unit")), "")
    if lines and numeric:
        for i, s in enumerate(series_names):
            pts = sorted((p for p in points if series_of(p) == s), key=lambda p: position[p["x"]])
            label = (s + ": ") if s else ""
            px = [position[p["x"]] for p in pts]
            pub = [_float(p["published"]) for p in pts]
            mod = [_float(p["model"]) for p in pts]
            color = colors[i % 10]
            if any(not math.isnan(v) for v in pub):
                ax.plot(px, pub, "--o", color=color, mfc="none", label=label + "published")
            if any(not math.isnan(v) for v in mod):
                ax.plot(px, mod, "-s", color=color, label=label + "model")
        ordered = sorted(xs, key=lambda x: position[x])
        values = [position[x] for x in ordered]
        if all(v > 0 for v in values) and max(values) / min(values) >= 16:
            ax.set_xscale("log", base=2)
        ax.set_xticks(values)
        ax.set_xticklabels(ordered, rotation=20 if max(len(x) for x in xs) > 6 else 0)
    else:
        # One bar per (series, published|model) that has any value; a missing value leaves a gap.
        bars = []
        for i, s in enumerate(series_names):
            by_x = {p["x"]: p for p in points if series_of(p) == s}
            for column in ("published", "model"):
                values = [_float(by_x[x][column]) if x in by_x else math.nan for x in xs]
                if any(not math.isnan(v) for v in values):
                    bars.append((s, column, colors[i % 10], values))
        width = min(0.8 / max(1, len(bars)), 0.35)
        for k, (s, column, color, values) in enumerate(bars):
            offset = (k - (len(bars) - 1) / 2) * width
            keep = [j for j, v in enumerate(values) if not math.isnan(v)]
            style = dict(facecolor="none", edgecolor=color, hatch="//") if column == "published" else dict(color=color)
            container = ax.bar([j + offset for j in keep], [values[j] for j in keep], width,
                               label=((s + ": ") if s else "") + column, **style)
            if sum(len(b[3]) for b in bars) <= LABELLED_BARS:
                ax.bar_label(container, labels=[short_number(values[j]) for j in keep], fontsize="x-small", padding=2)
        ax.set_xticks(range(len(xs)))
        tick_labels(ax, xs, len(xs) > WIDE_PANEL_CATEGORIES)
        ax.set_xlim(-0.7, len(xs) - 0.3)  # keeps a lone bar from filling the panel
        ax.axhline(0, color="black", linewidth=0.8)
    ax.set_title(metric.strip())
    # The study names its x axis; a sweep's common suffix ("threads") otherwise; else none.
    x_label = next((p.get("x_label") for p in points if p.get("x_label")), "")
    if not x_label and numeric and axis[1]:
        x_label = axis[1]
    ax.set_xlabel(x_label)
    ax.set_ylabel(unit if unit else metric.strip())
    ax.grid(True, alpha=0.3)
    values = [_float(p[c]) for p in points for c in ("published", "model")]
    finite = [v for v in values if not math.isnan(v)]
    if len(finite) >= 3 and min(finite) > 0 and max(finite) / min(finite) >= LOG_SPAN:
        # 200 us beside 1 s: on a linear axis the small bars vanish
        ax.set_yscale("log")
        ax.set_ylabel(ax.get_ylabel() + " (log scale)")
        ax.set_ylim(top=max(finite) * 8)  # room for the legend
    else:
        if all(v >= 0 for v in finite):
            ax.set_ylim(bottom=0)  # throughputs and latencies read best from zero; gains may be negative
        if finite and max(finite) > 0:
            ax.set_ylim(top=max(finite) * 1.3)  # room for the legend above the tallest bar or point
    ax.legend(fontsize="small", loc="upper right")


def print_table(study, panels):
    """Published vs model as text, so a terminal or CI log shows the comparison too."""
    print("%s" % study)
    for panel, points in panels.items():
        for p in points:
            pub, mod = _float(p["published"]), _float(p["model"])
            ratio = "%.2f" % (mod / pub) if not math.isnan(pub) and not math.isnan(mod) and pub != 0 else "-"
            print("  %-24s %-12s %-10s published %-10s model %-10s model/published %s" % (
                p["metric"].strip(), series_of(p), p["x"], p["published"] or "-", p["model"] or "-", ratio))


# ---------------------------------------------------------------- common


def save(fig, out_dir, name, title):
    if title:
        fig.suptitle(title, fontsize="small")
    # keep the figure's title clear of the first row's panel titles
    fig.tight_layout(rect=(0, 0, 1, 0.97) if fig._suptitle is not None else None)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    import matplotlib.pyplot as plt
    plt.close(fig)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot a ufs-sim run folder or an experiment CSV.")
    parser.add_argument("run_dir", nargs="?", help="run folder written by ufs-sim (--out)")
    parser.add_argument("--experiment", metavar="CSV", help="experiment table: study,metric,x,published,model")
    parser.add_argument("--out", metavar="DIR", help="where PNGs go (default: the run folder / the CSV's folder)")
    parser.add_argument("--kind", choices=("auto", "bars", "lines"), default="auto",
                        help="experiment plot style (auto: lines for 3+ numeric x values)")
    parser.add_argument("--sweep", metavar="DIR", help="sweep folder written by ufs-sim sweep (with --x, --y)")
    parser.add_argument("--x", metavar="PARAM", help="sweep: the parameter on the x axis")
    parser.add_argument("--y", metavar="METRIC", help="sweep: the metric on the y axis (a column of results.csv)")
    parser.add_argument("--hue", metavar="PARAM", help="sweep: one line per value of this parameter")
    parser.add_argument("--logx", action="store_true", help="sweep: logarithmic x axis")
    parser.add_argument("--where", metavar="PARAM=VALUE", action="append", default=[],
                        help="sweep: only the points with this value (repeatable)")
    args = parser.parse_args(argv)
    if args.sweep:
        return plot_sweep_main(parser, args)
    if bool(args.run_dir) == bool(args.experiment):
        parser.error("give either RUN_DIR, --experiment CSV or --sweep DIR")
    plt = _import_pyplot()
    if args.experiment:
        if not os.path.exists(args.experiment):
            sys.exit("plot.py: %s not found" % args.experiment)
        out_dir = args.out or os.path.dirname(os.path.abspath(args.experiment))
        written = plot_experiment(plt, args.experiment, out_dir, args.kind)
    else:
        written = plot_run(plt, args.run_dir, args.out or args.run_dir)
    for path in written:
        print(path)
    return 0 if written else 1


def plot_sweep_main(parser, args):
    if args.run_dir or args.experiment or not args.x or not args.y:
        parser.error("--sweep DIR needs --x PARAM and --y METRIC (and no RUN_DIR or --experiment)")
    plt = _import_pyplot()
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
    from ufs_tlm.plot_sweep import PlotError, plot_sweep
    try:
        out = os.path.join(args.out, "sweep_%s_vs_%s.png" % (args.y, args.x)) if args.out else None
        if args.out:
            os.makedirs(args.out, exist_ok=True)
        print(plot_sweep(plt, args.sweep, args.x, args.y, args.hue, args.logx, args.where, out))
    except PlotError as e:
        print("plot.py: error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
