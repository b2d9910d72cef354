"""The engine: simulations as Dask tasks, on a LocalCluster or an existing Dask cluster.

Each simulation is one task (task.run_point) on a worker with one thread, so a worker
runs one `ufs-sim` at a time: a LocalCluster of N workers runs N at once. Dask does the
scheduling, and re-runs a task whose worker died (distributed.scheduler.allowed-failures
times; after that the point fails with KilledWorker). Results come back to the client,
which hands each to on_result as it arrives.

Ctrl-C: queued tasks are cancelled, a Dask Event tells running tasks to kill their
simulator (they poll it each second), and a LocalCluster is closed; its simulators also
die with their worker (PR_SET_PDEATHSIG). Nothing is left running.
"""
import logging
import os
import signal
import threading
import time
import uuid

from . import task
from .progress import Progress


class EngineError(Exception):
    """The engine cannot start: no Dask, or the scheduler cannot be reached."""


def default_jobs():
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Engine:
    """with Engine(jobs=2) as e: e.run(jobs, on_result)

    jobs: worker processes of a LocalCluster (default: one per core); scheduler:
    'tcp://HOST:PORT' of a running `dask scheduler` instead (its workers must have the
    ufs-sim binary, and any trace, at the client's paths). point_timeout: seconds.
    """

    def __init__(self, jobs=None, scheduler=None, point_timeout=None, progress=True, label="points"):
        self.jobs = jobs or default_jobs()
        self.scheduler = scheduler
        self.point_timeout = point_timeout
        self.progress = progress
        self.label = label
        self.cluster = None
        self.client = None
        self.interrupted = False

    def __enter__(self):
        try:
            import cloudpickle
            import distributed
        except ImportError as e:
            raise EngineError("Dask is not installed for %s (apt-get install python3-distributed): %s"
                              % (os.sys.executable, e))
        # Workers need no copy of ufs_tlm: the task module travels with each task.
        cloudpickle.register_pickle_by_value(task)
        if self.scheduler:
            try:
                self.client = distributed.Client(self.scheduler, timeout="30s")
            except (OSError, TimeoutError) as e:
                raise EngineError("cannot reach the Dask scheduler %s: %s" % (self.scheduler, e))
            try:
                self.client.wait_for_workers(1, timeout=120)
            except (TimeoutError, distributed.TimeoutError):
                self.close()
                raise EngineError("no worker joined the Dask scheduler %s in 120 s" % self.scheduler)
            return self
        # Workers ignore SIGINT (inherited across their spawn): a terminal's Ctrl-C reaches
        # this process only, which stops the sweep in order.
        logging.getLogger("distributed").setLevel(logging.ERROR)  # no INFO lines around the progress bar
        main = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self.cluster = distributed.LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True,
                                                    dashboard_address=":0", silence_logs=logging.ERROR,
                                                    memory_limit=0)
        finally:
            if main:
                signal.signal(signal.SIGINT, old)
        self.client = distributed.Client(self.cluster)
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        main = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            self.client = self.cluster = None
            if main:
                signal.signal(signal.SIGINT, old)

    def workers(self):
        """Simulations the cluster runs at once (its worker threads)."""
        return sum(self.client.nthreads().values())

    def worker_memory_mib(self):
        """Resident memory of each worker process (Python and Dask, without its simulator)."""
        try:
            return {w: rss / 2**20 for w, rss in self.client.run(task.worker_rss).items()}
        except Exception:
            return {}

    def run(self, jobs, on_result, cached=0):
        """Runs jobs ({"sim", "digest", "args"}) and calls on_result(index, result) for each as it
        finishes (result: task.run_point's dict). Returns False when interrupted by Ctrl-C."""
        import distributed

        client = self.client
        batch = uuid.uuid4().hex[:12]
        stop = "ufs-tlm-stop-" + batch
        futures = {}
        for i, job in enumerate(jobs):
            spec = dict(job, stop=stop, timeout=self.point_timeout)
            futures[client.submit(task.run_point, spec, key="ufs-tlm-%s-%d" % (batch, i), pure=False)] = i
        progress = Progress(len(jobs) + cached, cached=cached, label=self.label, enabled=self.progress)
        finished = failed = running = 0
        nthreads = {}
        last_poll = 0.0
        try:
            ac = distributed.as_completed(list(futures))
            while not ac.is_empty():
                for f in ac.next_batch(block=False):
                    i = futures.pop(f)
                    result = self._outcome(f)
                    f.release()
                    if result is None:
                        continue
                    finished += 1
                    failed += result["status"] != "ok"
                    on_result(i, result)
                now = time.monotonic()
                if now - last_poll >= 0.5:
                    nthreads = client.nthreads()
                    running = self._running(nthreads, set(f.key for f in futures))
                    last_poll = now
                progress.update(finished, failed, min(running, len(futures)))
                if not ac.is_empty() and not ac.has_ready():
                    time.sleep(0.1)
            progress.update(finished, failed, 0, force=True)
            progress.close()
            return True
        except KeyboardInterrupt:
            self.interrupted = True
            progress.close()
            main = threading.current_thread() is threading.main_thread()
            old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                client.cancel(list(futures))
                distributed.Event(stop, client=client).set()
                # Running tasks poll the event each second and kill their simulator.
                time.sleep(1.5)
            finally:
                if main:
                    signal.signal(signal.SIGINT, old)
            return False

    @staticmethod
    def _outcome(f):
        """A finished future's result dict; a failed task (worker died too often) as a failed
        run; None for a cancelled one."""
        if f.status == "finished":
            return f.result()
        if f.status == "cancelled":
            return None
        exc = f.exception()
        name = type(exc).__name__
        if name == "KilledWorker":
            error = "its worker died each time it ran it (KilledWorker: %s)" % exc
        else:
            error = "%s: %s" % (name, exc)
        return {"status": "failed", "error": error, "returncode": None, "seconds": 0.0, "files": {},
                "worker": "", "host": ""}

    def _running(self, nthreads, keys):
        """Tasks of ours that workers are executing now (at most a thread's worth each)."""
        try:
            processing = self.client.processing()
        except Exception:
            return 0
        return sum(min(nthreads.get(w, 1), sum(1 for k in ks if k in keys)) for w, ks in processing.items())
