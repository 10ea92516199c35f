"""Shared helpers of the learning tests that drive ``tdleaf learn`` as a subprocess
(tests/test_learn.py, test_treestrap.py, test_leaf_blocks.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def learn_command(*argv: str) -> list[str]:
    """The command line of ``tdleaf learn ARGV``, quiet and without figures."""
    return [sys.executable, "-m", "tdleaf", "learn", "--no-progress", "--no-plot", *argv]


def checkout_env() -> dict[str, str]:
    """The environment for a subprocess that imports this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def kill_after_4_games(argv: list[str], out: Path) -> Path:
    """Start ``tdleaf learn ARGV --out OUT`` and kill -9 it once run-00 has checkpointed
    4 games; returns that checkpoint's path."""
    proc = subprocess.Popen(learn_command(*argv, "--out", str(out)),
                            env=checkout_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ck_path = out / "run-00" / "checkpoint.json"
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if ck_path.exists() and json.loads(ck_path.read_text())["games"] >= 4:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the job ended before it could be killed: " + \
            proc.stderr.read().decode()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return ck_path


def orphan_a_worker(cfg_json: dict, pid_file: str) -> None:
    """Start a local backend worker (:mod:`tdleaf.backend.local`) on a learning run of
    ``cfg_json``, as ``tdleaf learn --workers 2`` does, write its pid to ``pid_file``
    once it has sent its first game, then die without a word (as a job killed with
    kill -9 does)."""
    import multiprocessing as mp

    import numpy as np

    from tdleaf.backend.local import _worker
    from tdleaf.learn.config import LearnConfig, initial_weights
    from tdleaf.learn.jobs import LearnRuns
    from tdleaf.learn.runs import RunStart

    cfg = LearnConfig.from_json(cfg_json)
    w = initial_weights(cfg, 0)
    ctx = mp.get_context("spawn")
    tasks = ctx.Queue()
    results, send = ctx.Pipe(duplex=False)
    tasks.put(RunStart(0, 0, w, np.zeros(w.size), np.zeros(w.size)))
    worker = ctx.Process(target=_worker, args=(LearnRuns(cfg), 0, 0, tasks, send, os.getpid()))
    worker.start()
    send.close()
    for kind in ("ready", "item"):                     # then its first game
        assert results.poll(300) and results.recv()[2] == kind
    Path(pid_file).write_text(str(worker.pid))
    os._exit(0)
