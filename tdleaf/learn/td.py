"""TDLeaf(lambda) with temporal-coherence learning rates (pure NumPy).

Notation of the report (Droste & Fürnkranz 2008, sections 3-4): the evaluation of the
principal-variation leaf of the search at time t is ``P'_t = w . x_t`` (White's point of
view, pawns); it is squashed to ``P_t = 1 / (1 + exp(-omega P'_t))``, a winning
probability for White. Temporal differences ``d_t = P_{t+1} - P_t``, the last one
against the result (1, 0.5, 0), drive

    dw = sum_t grad P_t * sum_{j >= t} lambda^(j - t) d_j,  grad P_t = omega P_t (1 - P_t) x_t.

A leaf that ends the game counts with its true value (1, 0.5 or 0) and no gradient.
Temporal coherence (Beal & Smith 1999) gives every weight its own rate
``alpha_f = |sum of its recommended changes| / sum of |its recommended changes|``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def squash(score: np.ndarray | float, omega: float) -> np.ndarray:
    """``1 / (1 + exp(-omega * score))``, computed without overflow."""
    return 0.5 * (1.0 + np.tanh(0.5 * omega * np.asarray(score, dtype=np.float64)))


@dataclass
class Trajectory:
    """The dominant (PV-leaf) positions of one game, from White's point of view."""

    features: np.ndarray          # (T, n_features): x_t of each leaf
    scores: np.ndarray            # (T,): P'_t = w . x_t (ignored where terminal)
    terminal: np.ndarray          # (T,) bool: the leaf ended the game
    terminal_values: np.ndarray   # (T,): 1, 0.5 or 0 where terminal
    result: float                 # the game: 1 White won, 0.5 draw, 0 Black won


def probabilities(traj: Trajectory, omega: float) -> np.ndarray:
    p = squash(traj.scores, omega)
    return np.where(traj.terminal, traj.terminal_values, p)


def temporal_differences(p: np.ndarray, result: float) -> np.ndarray:
    """d_t = P_{t+1} - P_t, and the last against the game result."""
    nxt = np.append(p[1:], result)
    return nxt - p


def eligibility_sums(d: np.ndarray, lam: float) -> np.ndarray:
    """e_t = sum_{j >= t} lambda^(j - t) d_j (backwards recursion)."""
    e = np.zeros_like(d)
    acc = 0.0
    for t in range(len(d) - 1, -1, -1):
        acc = d[t] + lam * acc
        e[t] = acc
    return e


def gradients(traj: Trajectory, omega: float) -> np.ndarray:
    """grad_w P_t for every t, shape (T, n_features); zero for terminal leaves."""
    p = squash(traj.scores, omega)
    g = (omega * p * (1.0 - p))[:, None] * traj.features
    g[traj.terminal] = 0.0
    return g


def recommended_change(traj: Trajectory, lam: float, omega: float) -> np.ndarray:
    """The TDLeaf(lambda) direction ``sum_t grad P_t e_t`` (before any learning rate)."""
    if len(traj.scores) == 0:
        return np.zeros(traj.features.shape[1])
    p = probabilities(traj, omega)
    e = eligibility_sums(temporal_differences(p, traj.result), lam)
    return gradients(traj, omega).T @ e


@dataclass
class TemporalCoherence:
    """Per-weight learning rates from the history of recommended changes."""

    n: int
    net: np.ndarray = field(default_factory=lambda: np.zeros(0))    # sum of recommended changes
    total: np.ndarray = field(default_factory=lambda: np.zeros(0))  # sum of their absolute values

    def __post_init__(self) -> None:
        if not len(self.net):               # not given: nothing recorded yet
            self.net = np.zeros(self.n)
        if not len(self.total):
            self.total = np.zeros(self.n)

    def rates(self) -> np.ndarray:
        """alpha_f in [0, 1]; 1 while nothing has been recorded for f."""
        out = np.ones(self.n)
        seen = self.total > 0
        out[seen] = np.abs(self.net[seen]) / self.total[seen]
        return out

    def record(self, change: np.ndarray) -> None:
        self.net += change
        self.total += np.abs(change)


def apply_update(w: np.ndarray, change: np.ndarray, tc: TemporalCoherence, alpha: float,
                 mask: np.ndarray, coherence: bool = True) -> np.ndarray:
    """One step: ``w_f += alpha * alpha_f * change_f`` on the learned weights (rates
    from the history before this update; ``coherence=False``: every ``alpha_f`` is 1),
    then record the change (also without coherence, so that the history is there).
    Returns the applied step."""
    change = np.where(mask, change, 0.0)
    step = alpha * (tc.rates() if coherence else 1.0) * change
    w += step
    tc.record(change)
    return step
