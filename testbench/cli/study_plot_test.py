#!/usr/bin/env python3
"""A study CSV written by the C++ writer (output/study_table, via test_simcore's hidden
case "study CSV sample file") through sim/plot.py: labels with commas keep their columns,
compared metrics share one panel as series, the study's x label is on the axis, a sweep
("1 threads" .. "16 threads") is drawn as lines, the panels form a grid.

    study_plot_test.py TEST_SIMCORE
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.join(HERE, "..", "..", "sim", "plot.py")


def load_plot():
    spec = importlib.util.spec_from_file_location("plot", PLOT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        # Debian's python3-matplotlib lives in /usr/bin/python3's site (plot.py does the same).
        if os.path.exists("/usr/bin/python3") and not os.environ.get("UFS_PLOT_REEXEC"):
            os.environ["UFS_PLOT_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    test_simcore = sys.argv[1]
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "study.csv")
        subprocess.run([test_simcore, "study CSV sample file"], check=True, env=dict(os.environ, UFS_STUDY_CSV=path),
                       stdout=subprocess.DEVNULL)
        plot = load_plot()
        rows = plot.read_csv(path)
        check(len(rows) == 7, "7 rows read, got %d" % len(rows))
        check(rows[0]["metric"] == "burst write, WB on" and rows[0]["x"] == "2GiB, 1MiB QD32", "labels with commas")
        check(rows[0]["published"] == "1568" and rows[0]["model"] == "1151.25", "published and model columns")
        check(rows[2]["published"] == "", "no published figure is empty")
        panels = plot.experiment_panels(rows)
        check(list(panels) == ["study, with comma"], "one study: %s" % list(panels))
        study = panels["study, with comma"]
        check(list(study) == ["burst write", "sequential read gain", "  quoted \"label\"", "random read gain"],
              "panels: %s" % list(study))
        check(plot.numeric_axis(["1 threads", "4 threads", "16 threads"]) == ([1.0, 4.0, 16.0], "threads"), "sweep axis")
        check(plot.numeric_axis(["4K rand read QD8", "256K seq read QD1"]) is None, "labels are not a sweep")
        try:
            plt = plot._import_pyplot()
        except SystemExit as e:
            print("matplotlib missing: the drawing is not checked (%s)" % e)
            plt = None
        if plt:
            figures = []
            plot.save = lambda fig, out_dir, name, title: figures.append(fig) or name
            plot.plot_experiment(plt, path, tmp, "auto")
            check(len(figures) == 1, "one figure")
            fig = figures[0]
            axes = [ax for ax in fig.axes if ax.get_visible()]
            check(len(axes) == 4, "four panels, got %d" % len(axes))
            grid = {(round(ax.get_position().x0, 2), round(ax.get_position().y0, 2)) for ax in axes}
            check(len({y for _, y in grid}) == 2, "a grid of two rows (three panels a row)")
            by_title = {ax.get_title(): ax for ax in axes}
            burst = by_title.get("burst write")
            check(burst is not None, "compared panel titled by the study: %s" % list(by_title))
            if burst:
                labels = [t.get_text() for t in burst.get_legend().get_texts()]
                check(labels == ["WB on: published", "WB on: model", "WB off: published", "WB off: model"],
                      "series in one panel: %s" % labels)
                check(burst.get_xlabel() == "write, size and depth", "x label from the study: %r" % burst.get_xlabel())
                check([t.get_text() for t in burst.get_xticklabels()] == ["2GiB, 1MiB QD32"], "x tick keeps its comma")
                heights = sorted(round(p.get_height(), 2) for p in burst.patches)
                check(heights == [391, 556, 1151.25, 1568], "bar values: %s" % heights)
            sweep = by_title.get("random read gain")
            if sweep:
                check(len(sweep.lines) == 2, "a sweep is drawn as lines (published, model)")
                check(list(sweep.lines[1].get_xdata()) == [1.0, 4.0, 16.0], "sweep x values")
                check(sweep.get_xlabel() == "threads", "sweep axis label: %r" % sweep.get_xlabel())
                check(sweep.get_ylabel() == "%", "y axis is the unit")
            else:
                check(False, "sweep panel missing")
            # The same file through the command line: a PNG, and the table on stdout.
            out = subprocess.run([sys.executable, PLOT, "--experiment", path, "--out", tmp], capture_output=True,
                                 text=True)
            check(out.returncode == 0, "plot.py exit %d: %s" % (out.returncode, out.stderr))
            check(os.path.exists(os.path.join(tmp, "study_with_comma.png")), "PNG written")
            check("burst write, WB on" in out.stdout and "published -" in out.stdout, "table: %s" % out.stdout)
    for f in failures:
        print("FAIL: " + f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
