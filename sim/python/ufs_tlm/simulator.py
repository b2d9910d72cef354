"""The built ufs-sim program: where it is, which build it is, one run, the parameter table."""
import collections
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

from . import task
from .result import Result

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class SimError(Exception):
    """The simulator refused its input or failed. str() is its one-line error
    ('ufs-sim: error: unknown key ...'); status is its exit status (2: bad input)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = status


def find_sim(sim=None):
    """The ufs-sim binary: `sim`, else $UFS_SIM, else the repository's build/sim/ufs-sim,
    else ufs-sim on PATH. An absolute path (workers on other machines run the same path)."""
    candidates = [sim, os.environ.get("UFS_SIM"), os.path.join(_REPO, "build", "sim", "ufs-sim"),
                  shutil.which("ufs-sim")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    if sim:
        raise SimError("ufs-sim not found at %s" % sim)
    raise SimError("ufs-sim not found: build it (make), or set UFS_SIM to the binary")


_digests = {}


def sim_digest(sim):
    """SHA-256 of the binary: the simulator version in a sweep point's key (any rebuild that
    changes the program re-runs the points)."""
    st = os.stat(sim)
    stamp = (sim, st.st_size, st.st_mtime_ns)
    if stamp not in _digests:
        h = hashlib.sha256()
        with open(sim, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _digests[stamp] = h.hexdigest()
    return _digests[stamp]


def format_value(value):
    """A Python value as `--set` text: booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


def set_list(sets):
    """{'key': value} or ['key=value'] -> ['key=value', ...]."""
    if not sets:
        return []
    if isinstance(sets, dict):
        return ["%s=%s" % (k, format_value(v)) for k, v in sets.items()]
    return [str(s) for s in sets]


def run_args(preset="ufs31", workload=None, set=None, precondition=None, precondition_fill=None, check=True):
    """`ufs-sim run` arguments (after `run`) for these inputs."""
    if not workload:
        raise SimError("ufs-sim: error: a run needs a workload")
    args = ["--preset", str(preset), "--workload", str(workload)]
    if precondition_fill:
        args += ["--precondition-fill", str(precondition_fill)]
    if precondition:
        args += ["--precondition", str(precondition)]
    for s in set_list(set):
        args += ["--set", s]
    if not check:
        args.append("--no-check")
    return args


def run(preset="ufs31", workload=None, set=None, precondition=None, precondition_fill=None, out=None, check=True,
        timeout=None, sim=None):
    """Runs one simulation as a child process of the built ufs-sim and returns its Result.

    preset: a preset name or JSON file; workload: a spec as `ufs-sim run --workload` takes
    it; set: {'key': value} overrides; precondition / precondition_fill: as the options of
    the same names; out: keep the run folder there (default: a temporary one, removed);
    check: the data-integrity scoreboard; timeout: seconds. Raises SimError carrying the
    simulator's one-line error when it refuses the input or fails.
    """
    binary = find_sim(sim)
    args = run_args(preset, workload, set, precondition, precondition_fill, check)
    folder = os.path.abspath(out) if out else tempfile.mkdtemp(prefix="ufs-tlm-run-")
    try:
        outcome = task.execute(binary, args, folder, timeout=timeout)
        if outcome["status"] != "ok":
            raise SimError(outcome["error"], outcome["returncode"])
        result = Result.load(folder)
        if not out:
            result.out = None
        return result
    finally:
        if not out:
            shutil.rmtree(folder, ignore_errors=True)


Param = collections.namedtuple("Param", "key type unit value default meaning origin")


def params_table(preset, sets, sim):
    """`ufs-sim params --json` for a preset and `key=value` overrides: a list of dicts."""
    command = [sim, "params", "--json", "--preset", str(preset)]
    for s in sets:
        command += ["--set", s]
    proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SimError(task._error_line(proc.stderr, proc.returncode), proc.returncode)
    return json.loads(proc.stdout)


def params(preset="ufs31", set=None, sim=None):
    """The parameter table `ufs-sim params` prints: a list of Param(key, type, unit, value,
    default, meaning, origin), values after the preset and `set`. Raises SimError for an
    unknown preset, key or a refused value."""
    table = params_table(preset, set_list(set), find_sim(sim))
    return [Param(p["key"], p["type"], p["unit"], p["value"], p["default"], p["meaning"], p["origin"]) for p in table]


def effective_config(preset, sets, sim):
    """{key: effective value} for a preset and `key=value` overrides, as the simulator binds
    them (SimError when it refuses them)."""
    return {p["key"]: p["value"] for p in params_table(preset, sets, sim)}
