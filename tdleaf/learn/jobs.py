"""Where learning runs are played: in this process, on local worker processes, or as
Ray tasks on a cluster. Runs are independent; each reports its progress as
``(run, games done, weights)`` through one callback in the calling process."""

from __future__ import annotations

import multiprocessing as mp
import queue
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from .config import LearnConfig
from .runs import run_learning

#: ``(run, games done, material weights P..K)``, called in the calling process.
Progress = Callable[[int, int, list[float]], None]


class BackendError(RuntimeError):
    """A backend that cannot be used here (Ray not installed, say)."""


def run_jobs(out: Path, cfg: LearnConfig, todo: list[int], progress: Progress, *,
             workers: int = 1, backend: str = "local", address: str | None = None) -> None:
    """Play the runs ``todo`` of the job in ``out`` to ``cfg.games`` games each."""
    if backend == "ray":
        _run_ray(out, cfg, todo, progress, address)
    elif workers <= 1:
        for r in todo:
            _run_local(out, cfg, r, progress)
    else:
        _run_pool(out, cfg, todo, workers, progress)


def _material(w: np.ndarray) -> list[float]:
    return [float(x) for x in w[:6]]


def _run_local(out: Path, cfg: LearnConfig, r: int, progress: Progress) -> None:
    run_learning(out, cfg.to_json(), r, lambda run, g, w: progress(run, g, _material(w)))


class OrphanedWorker(Exception):
    """The ``tdleaf learn`` process that started this worker has gone."""


def _pool_worker(out: str, cfg_json: dict[str, Any], r: int, q) -> int:
    parent = mp.parent_process()

    def progress(run: int, g: int, w: Any) -> None:
        # Called after each game's checkpoint. A worker whose job was killed (kill, not
        # Ctrl-C, which reaches the workers too) stops here: left playing, it would
        # write the same run as the next --resume.
        if parent is not None and not parent.is_alive():
            raise OrphanedWorker(f"run {run}: the learning job has gone; stopped after game {g}")
        q.put((run, g, _material(w)))

    run_learning(out, cfg_json, r, progress)
    return r


def _drain(q, progress: Progress, timeout: float) -> None:
    try:
        while True:
            progress(*q.get(timeout=timeout))
            timeout = 0.0
    except queue.Empty:
        pass


def _run_pool(out: Path, cfg: LearnConfig, todo: list[int], workers: int, progress: Progress) -> None:
    ctx = mp.get_context("spawn")     # fresh interpreters: no forked numba/threads state
    with ctx.Manager() as manager:
        q = manager.Queue()
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futures = [pool.submit(_pool_worker, str(out), cfg.to_json(), r, q) for r in todo]
            while not all(f.done() for f in futures):
                _drain(q, progress, 0.5)
            _drain(q, progress, 0.0)
            for f in futures:
                f.result()            # re-raise a worker's error


def _run_ray(out: Path, cfg: LearnConfig, todo: list[int], progress: Progress, address: str | None) -> None:
    try:
        import ray
        from ray.util.queue import Queue
    except ImportError:
        raise BackendError("--backend ray needs Ray: pip install 'tdleaf[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    q = Queue()
    remote = ray.remote(num_cpus=1)(_pool_worker)
    pending = [remote.remote(str(out.resolve()), cfg.to_json(), r, q) for r in todo]
    while pending:
        finished, pending = ray.wait(pending, timeout=0.5)
        ray.get(finished)
        while not q.empty():
            progress(*q.get())
    while not q.empty():
        progress(*q.get())
