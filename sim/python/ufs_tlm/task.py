"""One `ufs-sim run` as a child process: the part that runs where the simulation runs.

execute() is used by ufs_tlm.run() in the caller's process and, through run_point(), by
Dask workers. This module uses the standard library only and is shipped to the workers
by value (cloudpickle), so a `dask worker` needs no copy of ufs_tlm, only the ufs-sim
binary (and the traces) at the client's paths.
"""
import os
import signal
import subprocess
import tempfile
import time

_PR_SET_PDEATHSIG = 1


def _error_line(stderr_text, returncode):
    """The simulator's one-line error (its last 'ufs-sim:' line), or what killed it."""
    lines = [line.strip() for line in stderr_text.splitlines() if line.strip()]
    own = [line for line in lines if line.startswith("ufs-sim:")]
    line = own[-1] if own else (lines[-1] if lines else "")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "signal %d" % -returncode
        return "ufs-sim killed by %s" % name + (" (%s)" % line if line else "")
    return line or "ufs-sim exited with status %d and no message" % returncode


def execute(sim, args, out, timeout=None, should_stop=None, poll_seconds=1.0):
    """Runs `SIM run --quiet --out OUT ARGS...` and waits for it.

    timeout: seconds before the run is killed (None: no limit). should_stop: called about
    every poll_seconds while the run goes on; True kills it. The child is in its own session
    (a terminal's Ctrl-C reaches the caller, which decides) and dies with the thread that
    started it (PR_SET_PDEATHSIG), so a worker that dies leaves no simulator behind.
    Returns {"status": "ok" | "failed" | "stopped", "error", "returncode", "seconds"}.
    """
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def die_with_parent():
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    command = [sim, "run", "--quiet", "--out", out] + [str(a) for a in args]
    start = time.monotonic()
    with tempfile.TemporaryFile() as stderr:
        try:
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                                    start_new_session=True, preexec_fn=die_with_parent)
        except OSError as e:
            return {"status": "failed", "error": "cannot start %s: %s" % (sim, e.strerror), "returncode": None,
                    "seconds": 0.0}
        outcome = None
        try:
            while True:
                wait = poll_seconds
                if timeout is not None:
                    wait = min(wait, max(0.0, start + timeout - time.monotonic()))
                try:
                    proc.wait(timeout=wait if (timeout is not None or should_stop) else None)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if timeout is not None and time.monotonic() >= start + timeout:
                    outcome = ("failed", "timed out after %g s (point timeout)" % timeout)
                elif should_stop is not None and should_stop():
                    outcome = ("stopped", "stopped before it finished (sweep interrupted)")
                if outcome:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    break
        except BaseException:
            # KeyboardInterrupt in the caller's process: no simulator outlives it.
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            raise
        seconds = time.monotonic() - start
        if outcome:
            return {"status": outcome[0], "error": outcome[1], "returncode": proc.returncode, "seconds": seconds}
        if proc.returncode == 0:
            return {"status": "ok", "error": "", "returncode": 0, "seconds": seconds}
        stderr.seek(0)
        text = stderr.read()[-65536:].decode("utf-8", "replace")
        return {"status": "failed", "error": _error_line(text, proc.returncode), "returncode": proc.returncode,
                "seconds": seconds}


def _digest(path):
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_point(job):
    """A Dask task: one point. job = {"sim", "digest", "args", "timeout", "stop"}.

    The run goes to a folder of the worker's own (no shared file system needed) and its
    files come back in the result; the client writes them. "stop" names a Dask Event the
    client sets on Ctrl-C: the run is killed at the next poll.
    """
    import shutil
    import socket

    import distributed

    worker = distributed.get_worker()
    sim = job["sim"]
    result = {"worker": worker.address, "host": socket.gethostname()}
    # The point's key holds the simulator's digest: the binary here must be the client's.
    digests = worker.__dict__.setdefault("_ufs_tlm_digests", {})
    try:
        st = os.stat(sim)
        stamp = (sim, st.st_size, st.st_mtime_ns)
        if stamp not in digests:
            digests[stamp] = _digest(sim)
        if job.get("digest") and digests[stamp] != job["digest"]:
            result.update(status="failed", error="%s on %s is not the client's build (install the same ufs-sim at "
                                                 "the same path on every worker)" % (sim, result["host"]),
                          returncode=None, seconds=0.0, files={})
            return result
    except OSError as e:
        result.update(status="failed", error="ufs-sim not found on %s: %s (%s)" % (result["host"], sim, e.strerror),
                      returncode=None, seconds=0.0, files={})
        return result

    should_stop = None
    if job.get("stop"):
        event = []

        def should_stop():
            if not event:
                event.append(distributed.Event(job["stop"]))
            return event[0].is_set()

    tmp = tempfile.mkdtemp(prefix="ufs-tlm-point-")
    try:
        out = os.path.join(tmp, "run")
        result.update(execute(sim, job["args"], out, timeout=job.get("timeout"), should_stop=should_stop))
        files = {}
        if os.path.isdir(out):
            for name in sorted(os.listdir(out)):
                path = os.path.join(out, name)
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        files[name] = f.read()
        result["files"] = files
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def worker_rss():
    """Resident bytes of this worker process (run on every worker by the client)."""
    import psutil

    return psutil.Process().memory_info().rss
