# Shared by the Python front end's tests (sim/python/ufs_tlm). ctest runs them with the
# interpreter CMake found (one with dask.distributed), UFS_SIM naming the built ufs-sim and
# PYTHONPATH holding sim/python. Points are tiny: test-small, a few thousand I/Os.
import os
import stat
import sys

import pytest

PACKAGE_DIR = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim", "python"))
sys.path.insert(0, PACKAGE_DIR)
# Child interpreters (python -m ufs_tlm) and Dask's worker processes import it too.
os.environ["PYTHONPATH"] = os.pathsep.join([PACKAGE_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(
    os.pathsep) if p])

import ufs_tlm  # noqa: E402


@pytest.fixture(scope="session")
def sim():
    return ufs_tlm.find_sim()


def write_wrapper(path, sim, log, body=""):
    """An executable standing in for ufs-sim: logs each command line, runs `body`, then the
    real binary. Sweeps hash the wrapper as 'the simulator'."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\necho \"$*\" >> '%s'\n%s\nexec '%s' \"$@\"\n" % (log, body, sim))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def run_lines(log):
    """The simulations a wrapper saw (`run` commands, not `params` look-ups)."""
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [line for line in f if line.startswith("run ")]
