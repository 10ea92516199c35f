"""A learning job's runs on the backend (:mod:`tdleaf.backend`): in this process, on
local workers or on Ray. A unit is a run, played from where its books stand
(:class:`.runs.RunStart`); every game comes back as it ends (:class:`.runs.GameDone`)
and is written here, by this process, which alone writes the result folder. A run whose
worker died carries on from its last recorded game on another worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..backend import Backend, BackendError, run_units
from .config import LearnConfig
from .runs import GameDone, RunStart, RunState, play_run

#: ``(run, games done, material weights P..K)``, called in the calling process.
Progress = Callable[[int, int, list[float]], None]

__all__ = ["BackendError", "LearnRuns", "Progress", "run_jobs"]


@dataclass
class LearnRuns:
    """The backend's job: one learning run per unit."""

    cfg: LearnConfig

    def start(self) -> None:
        return None

    def run(self, state: None, unit: RunStart) -> Iterator[GameDone]:
        return play_run(self.cfg, unit)

    def close(self, state: None) -> None:
        return None


def _material(w: np.ndarray) -> list[float]:
    return [float(x) for x in w[:6]]


def run_jobs(out: Path, cfg: LearnConfig, todo: list[int], progress: Progress,
             backend: Backend) -> None:
    """Play the runs ``todo`` of the job in ``out`` to ``cfg.games`` games each."""
    books = {r: RunState(out, cfg, r) for r in todo}

    def take(unit: RunStart, done: GameDone) -> bool:
        state = books[unit.run]
        state.game_done(done)
        progress(unit.run, state.games, _material(state.w))
        if state.games == cfg.games:
            state.finish()
        return False

    def again(unit: RunStart) -> RunStart:
        return books[unit.run].start()

    units: list[Any] = [books[r].start() for r in todo]
    run_units(backend, LearnRuns(cfg), units, take, again=again)
