"""A study's step of independent runs (from `ufs-sim experiment NAME --jobs N`) on the engine.

The batch file (written by sim/experiments/experiment_context.cpp):
    {"sim": "/abs/ufs-sim", "runs": [{"name": "...", "out": "runs/STUDY/NAME", "args": [...]}]}
Each run's folder is written where a serial run would have put it; the result file says
{"runs": [{"name", "status", "error", "seconds"}]} for the runs that finished.
"""
import json
import os
import shutil

from . import simulator
from .engine import Engine


def run_batch(batch_path, result_path, jobs=None, scheduler=None, point_timeout=None, progress=True):
    """Returns 0 when every run succeeded, 1 when one failed, 130 when interrupted."""
    with open(batch_path) as f:
        batch = json.load(f)
    sim = simulator.find_sim(batch.get("sim"))
    digest = simulator.sim_digest(sim)
    runs = batch["runs"]
    outcomes = []

    def on_result(i, result):
        run = runs[i]
        folder = run["out"]
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        for name, data in result.get("files", {}).items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        outcomes.append({"name": run["name"], "status": result["status"], "error": result.get("error", ""),
                         "seconds": result.get("seconds", 0.0)})

    jobs_list = [{"sim": sim, "digest": digest, "args": r["args"]} for r in runs]
    with Engine(jobs=jobs, scheduler=scheduler, point_timeout=point_timeout, progress=progress,
                label="simulations") as engine:
        completed = engine.run(jobs_list, on_result)
    with open(result_path + ".tmp", "w") as f:
        json.dump({"runs": outcomes}, f, indent=1)
    os.replace(result_path + ".tmp", result_path)
    if not completed:
        return 130
    return 0 if all(o["status"] == "ok" for o in outcomes) else 1
