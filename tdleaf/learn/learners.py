"""The learners of ``tdleaf learn`` behind one interface: a learner plays a game of
self-play with the run's engine and learns from it, updating the run's weights ``w``
and temporal-coherence sums ``tc`` in place.

- :class:`TDLeaf`: TDLeaf(lambda) (:mod:`.td`, the report's): the game records the PV
  leaf of every search; after the game, one update moves each leaf's evaluation toward
  the next one's and the last toward the result.
- :class:`.bootstrap.Bootstrap`: RootStrap and TreeStrap (:mod:`.bootstrap`): an update
  after every search, toward the values that search found; nothing is left to learn
  when the game ends.

A run (:func:`.runs.run_learning`) is then a loop over games::

    record = learner.play(engine, variant, depth, seed, max_plies, opening)
    learner.learn(record)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from search import Engine

from .bootstrap import Bootstrap
from .config import BOOTSTRAP_METHODS, LearnConfig
from .selfplay import GameRecord, play_game
from .td import TemporalCoherence, apply_update, recommended_change


class Learner(Protocol):
    """What a run asks of a learner."""

    w: np.ndarray                 # the run's weights, updated in place
    tc: TemporalCoherence         # their temporal-coherence sums, updated in place

    def play(self, engine: Engine, variant: str, depth: int, seed: int, max_plies: int = 400,
             opening: Sequence[str] = ()) -> GameRecord:
        """Play one game of ``engine`` against itself at fixed depth (after the moves of
        ``opening``, neither searched nor learnt from), learning as the learner does
        during a game."""
        ...

    def learn(self, record: GameRecord) -> None:
        """Learn from the finished game."""
        ...


class TDLeaf:
    """TDLeaf(lambda) with temporal-coherence rates (:mod:`.td`) for one run: it owns
    nothing but its settings, and updates ``w`` and ``tc`` in place once a game."""

    def __init__(self, w: np.ndarray, tc: TemporalCoherence, mask: np.ndarray, *, lam: float,
                 omega: float, alpha: float, coherence: bool = True) -> None:
        self.w, self.tc, self.mask = w, tc, mask
        self.lam, self.omega, self.alpha, self.coherence = lam, omega, alpha, coherence

    def play(self, engine: Engine, variant: str, depth: int, seed: int, max_plies: int = 400,
             opening: Sequence[str] = ()) -> GameRecord:
        """The game, with the PV leaf of every search in its trajectory."""
        return play_game(engine, variant, depth, seed, max_plies, opening=opening)

    def learn(self, record: GameRecord) -> None:
        """``w += alpha * alpha_f * sum_t grad P_t sum_{j >= t} lambda^(j - t) d_j``."""
        change = recommended_change(record.trajectory, self.lam, self.omega)
        apply_update(self.w, change, self.tc, self.alpha, self.mask, coherence=self.coherence)


def make_learner(cfg: LearnConfig, w: np.ndarray, tc: TemporalCoherence,
                 mask: np.ndarray) -> Learner:
    """The learner ``cfg.method`` names, updating ``w`` and ``tc`` (only where ``mask``)."""
    if cfg.method in BOOTSTRAP_METHODS:
        return Bootstrap(cfg.method, w, tc, mask, alpha=cfg.alpha, omega=cfg.omega,
                         coherence=cfg.coherence, clip=cfg.clip)
    return TDLeaf(w, tc, mask, lam=cfg.lam, omega=cfg.omega, alpha=cfg.alpha,
                  coherence=cfg.coherence)
