# ufs-sim experiment NAME --jobs N: a study's simulations go to the engine and it prints the
# same table as when they run one after another (--jobs 1, no engine). Two cheap studies
# that need no traces: two runs plus the demux alone, and three wear-levelling runs.
import csv
import os
import subprocess

import pytest


def run_study(sim, name, out, *options):
    p = subprocess.run([sim, "experiment", name, "--out", str(out)] + list(options), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p


def table(stdout):
    """The printed study without the lines naming its output files."""
    return [line for line in stdout.splitlines() if not line.startswith(("table:", "plot:"))]


@pytest.mark.parametrize("study, runs", [("atc08-package-reads", ["one_package_no_interleave", "one_package_interleaved"]),
                                         ("wear-levelling", ["wl_off", "wl_rate-limit", "wl_migration"])])
def test_parallel_study_prints_the_serial_numbers(sim, tmp_path, study, runs):
    serial = run_study(sim, study, tmp_path / "serial", "--jobs", "1")
    parallel = run_study(sim, study, tmp_path / "parallel", "--jobs", "2")
    assert "on the engine" not in serial.stderr
    assert "running %d simulations on the engine (2 jobs)" % len(runs) in parallel.stderr
    assert table(serial.stdout) == table(parallel.stdout)
    assert len(table(serial.stdout)) > 6
    with open(tmp_path / "serial" / (study + ".csv")) as a, open(tmp_path / "parallel" / (study + ".csv")) as b:
        assert list(csv.reader(a)) == list(csv.reader(b))
    for run in runs:  # each run's folder where the serial study puts it
        assert os.path.exists(tmp_path / "parallel" / run / "stats.json")
        assert os.path.exists(tmp_path / "parallel" / run / "config.json")


def test_study_options_are_checked(sim, tmp_path):
    p = subprocess.run([sim, "experiment", "wear-levelling", "--jobs", "0", "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.startswith("ufs-sim: error: ") and p.stderr.count("\n") == 1


def study_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series_by_panel(rows):
    """panel -> series -> {x: model}: how sim/plot.py groups a study's rows."""
    panels = {}
    for r in rows:
        panels.setdefault(r["panel"], {}).setdefault(r["series"], {})[r["x"]] = float(r["model"])
    return panels


def phone_trace(path, seed):
    """A tiny MobileBlockIOTraces file (proces,device,rw_flag,sector,size,timestamp; 512 B
    sectors, seconds): 300 reads and writes of 4-64 KiB over the first 64 MiB."""
    import gzip
    import random
    rnd = random.Random(seed)
    lines = ["proces,device,rw_flag,sector,size,timestamp"]
    for i in range(300):
        lines.append("app-1,8,%s,%d,%d,%.6f" % ("RW"[rnd.random() < 0.3], rnd.randrange(0, 131072, 8),
                                                8 * rnd.randint(1, 16), 100 + i * 0.001))
    with gzip.open(path, "wt") as f:
        f.write("\n".join(lines) + "\n")


def test_hpb_mobile_trace_compares_modes_as_series(sim, tmp_path):
    """The HPB mode is a series in each panel (not part of the x label): x is the trace."""
    traces = tmp_path / "traces"
    traces.mkdir()
    for n, app in enumerate(["slideshow", "cod"]):
        phone_trace(traces / (app + "_precond.csv.gz"), 2 * n)
        phone_trace(traces / (app + "_exec.csv.gz"), 2 * n + 1)
    p = subprocess.run([sim, "experiment", "hpb-mobile-trace", "--jobs", "1", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, env=dict(os.environ, UFS_TRACE_DIR=str(traces)))
    assert p.returncode == 0, p.stderr
    rows = study_csv(tmp_path / "out" / "hpb-mobile-trace.csv")
    assert {r["x"] for r in rows} == {"slideshow", "cod"}
    assert {r["x_label"] for r in rows} == {"trace"}
    panels = series_by_panel(rows)
    assert list(panels) == ["read mean latency", "read p99 latency", "map page loads", "map loads avoided",
                            "HPB READs verified", "READ BUFFER traffic", "host memory for HPB (peak)"]
    for panel in ["read mean latency", "read p99 latency", "map page loads"]:
        assert list(panels[panel]) == ["HPB off", "device control", "host control"], panel
    for panel in ["map loads avoided", "HPB READs verified", "READ BUFFER traffic", "host memory for HPB (peak)"]:
        assert list(panels[panel]) == ["device control", "host control"], panel
    for panel, series in panels.items():
        for name, points in series.items():
            assert set(points) == {"slideshow", "cod"}, (panel, name)
    # The series carry their own runs' numbers: map loads avoided = HPB off's loads - the mode's.
    loads = panels["map page loads"]
    for app in ["slideshow", "cod"]:
        for mode in ["device control", "host control"]:
            assert panels["map loads avoided"][mode][app] == loads["HPB off"][app] - loads[mode][app]



def test_atc08_logical_page_compares_page_sizes_as_series(sim, tmp_path):
    """The logical page size is a series in each panel (not part of the x label): x is the
    arrival process. The study exits 1 (its known row outside tolerance) but writes its CSV."""
    p = subprocess.run([sim, "experiment", "atc08-logical-page", "--jobs", "1", "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "1 row(s) OUTSIDE their tolerance" in p.stdout, p.stderr
    rows = study_csv(tmp_path / "atc08-logical-page.csv")
    arrivals = ["Poisson", "b-model 0.55", "b-model 0.6", "b-model 0.65", "b-model 0.7", "b-model 0.8"]
    assert list(dict.fromkeys(r["x"] for r in rows)) == arrivals
    assert {r["x_label"] for r in rows} == {"arrivals"}
    panels = series_by_panel(rows)
    for panel in ["mean I/O latency", "reads (8 KiB)", "writes (8 KiB)", "flash sectors read per write (RMW)",
                  "package busy (array + bus)"]:
        assert list(panels[panel]) == ["4 KiB logical pages", "256 KiB logical pages"], panel
        for series in panels[panel].values():
            assert list(series) == arrivals, panel
    # Each series holds its own page size's figures: the published 200 us and >20 ms, and a
    # read-modify-write only at 256 KiB (62 of its 64 sectors read back per 8 KiB write).
    published = {(r["series"], r["x"]): float(r["published"]) for r in rows if r["panel"] == "mean I/O latency"}
    assert {published[("4 KiB logical pages", a)] for a in arrivals} == {200.0}
    assert {published[("256 KiB logical pages", a)] for a in arrivals} == {20000.0}
    rmw = panels["flash sectors read per write (RMW)"]
    assert all(v == 0 for v in rmw["4 KiB logical pages"].values())
    assert all(v > 50 for v in rmw["256 KiB logical pages"].values())
    latency = panels["mean I/O latency"]
    assert all(latency["256 KiB logical pages"][a] > 10 * latency["4 KiB logical pages"][a] for a in arrivals)
