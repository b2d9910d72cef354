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
