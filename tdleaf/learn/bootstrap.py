"""Learning from the whole search tree: RootStrap and TreeStrap (Veness, Silver, Uther &
Blair, "Bootstrapping from Game Tree Search", NIPS 2009).

TDLeaf moves the evaluation of one position per move (the PV leaf) toward the next
move's search. These learners move the evaluation ``H(s) = w . x(s)`` of the positions
*inside* each move's search toward the values that same search established for them, and
update the weights once per move, right after its search:

- ``treestrap`` (TreeStrap(minimax)): every interior node with an exact value ``V(s)``
  (a PV node whose value lies strictly inside its full window) is a target both ways.
  Under our alpha-beta (PVS) search these are only the PV nodes; a full-width minimax
  search, as in the paper, would make every node exact.
- ``treestrap-ab`` (TreeStrap(alpha-beta)): exact nodes both ways, and the bounds of
  the other nodes one-sided: a lower bound ``b`` (fail high) pulls ``H(s)`` up only
  while ``H(s) < b``, an upper bound ``a`` (fail low) pulls it down only while
  ``H(s) > a``.
- ``rootstrap`` (RootStrap(alpha-beta)): the root alone, in the alpha-beta form (the
  root's value is exact here: the engine widens a failed aspiration window until the
  value falls inside it).

Which nodes the search records, and which it leaves out (null-move, futility, razoring
and table cutoffs, draws by rule, LMR-reduced searches but for their full-depth
re-search, nodes under a null move, quiescence nodes, an interrupted iteration), is
:class:`search.alphabeta.collect.Collected`: the interior nodes (depth > 0) of the last iteration,
a seeded reservoir sample of at most ``nodes`` of them plus the root. Quiescence nodes
do not count by default: their values are mostly the evaluation itself (stand pat). With
``--quiescence-nodes`` (LearnConfig.quiescence_nodes) those whose captures or evasions
changed their value from the stand-pat count too, as exact values or bounds like the
interior nodes.

**Space.** Like TDLeaf (:mod:`.td`) the error is measured on the squashed scale
``P = squash(H) = 1 / (1 + exp(-omega H))``: with every kind of target written as an
interval ``[lo, hi]`` (exact: ``lo = hi = V``; lower bound: ``[b, inf)``; upper bound:
``(-inf, a]``), a node's error is ``d = clamp(P, squash(lo), squash(hi)) - P``, zero
while the evaluation satisfies its bound, and its loss ``d^2 / 2``. Why squashed and not
pawns: the errors are bounded (|d| < 1), so a mate score (clipped to ``clip`` pawns,
20 by default; a clipped bound stays a valid bound of the clipped value) or a wild
evaluation from random weights cannot throw the weights far in one step, the global
rate ``alpha`` keeps its meaning across learners (TDLeaf's temporal differences are
differences of the same P), and the temporal-coherence rates compare like with like.

**Step.** ``change = (1 / N) sum_s d_s omega P_s (1 - P_s) x(s)`` over the N target
nodes of the move, then ``w_f += alpha * alpha_f * change_f`` with the
temporal-coherence rate ``alpha_f`` of :class:`.td.TemporalCoherence` (an option, on by
default as for TDLeaf; off: ``alpha_f = 1``). The paper's sum over the nodes is divided
by N here so that a move's step does not grow with the size of its search (it varies a
hundredfold between positions and depths): the text of the paper was not at hand, so
this normalisation is our choice, not a copy of Meep's step size.

**Transposition table.** Its scores were computed with the weights before the update;
it is cleared after every update (simple, deterministic, and the search then never
mixes evaluations of two weight vectors). Killers and history are kept for the game.
What clearing costs against keeping the table is measured in RESULTS.md (a few per cent
of the nodes in crazyhouse, up to a fifth in atomic).

Determinism: a game depends only on the weights at its start and its seed (ties, noise
and the reservoir's random numbers are seeded by the engine from it), so a checkpoint of
the weights and the temporal-coherence sums after each game resumes exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from search import Engine
from search.alphabeta.collect import EXACT, LOWER, UPPER, Collected
from search.alphabeta.engine import SearchResult

from .config import BOOTSTRAP_METHODS, MATE_CLIP
from .selfplay import GameRecord, play_moves
from .td import TemporalCoherence, apply_update, squash


def node_targets(c: Collected, method: str, clip: float = MATE_CLIP,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which collected nodes give ``method`` a target, and their target intervals
    ``[lo, hi]`` in pawns (White's view, clipped to +-``clip``; an open side is
    +-inf): ``(keep, lo, hi)``, ``lo`` and ``hi`` for the kept nodes."""
    if method not in BOOTSTRAP_METHODS:
        raise ValueError(f"unknown bootstrapping method {method!r}; expected one of "
                         f"{', '.join(BOOTSTRAP_METHODS)}")
    if method == "rootstrap":
        keep = c.ply == 0
    elif method == "treestrap":
        keep = c.kind == EXACT
    else:
        keep = (c.kind == EXACT) | (c.kind == LOWER) | (c.kind == UPPER)
    v = np.clip(c.value[keep], -clip, clip)
    kind = c.kind[keep]
    lo = np.where(kind == UPPER, -np.inf, v)
    hi = np.where(kind == LOWER, np.inf, v)
    return keep, lo, hi


def _node_errors(c: Collected, w: np.ndarray, method: str, omega: float, clip: float,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per target node of ``method``: ``(kind, index, x, d, g)``, its target's kind, its
    sparse features, its error ``d`` on the squashed scale and ``g = omega P (1 - P) d``
    (the factor of its features in the change, before dividing by N)."""
    keep, lo, hi = node_targets(c, method, clip)
    index, x = c.index[keep], c.x[keep]
    p = squash((w[index] * x).sum(axis=1), omega)
    d = np.clip(p, squash(lo, omega), squash(hi, omega)) - p
    return c.kind[keep], index, x, d, omega * p * (1.0 - p) * d


def _spread(index: np.ndarray, x: np.ndarray, g: np.ndarray, size: int) -> np.ndarray:
    """``sum_s g_s x(s)`` as a dense vector of ``size`` entries."""
    return np.bincount(index.ravel(), weights=(g[:, None] * x).ravel(), minlength=size)


def bootstrap_change(c: Collected, w: np.ndarray, method: str, omega: float,
                     clip: float = MATE_CLIP) -> tuple[np.ndarray, float, int]:
    """The recommended change of one move's search (before any learning rate):
    ``(change, loss, N)`` with ``change = (1/N) sum_s d_s omega P_s (1 - P_s) x(s)``,
    the mean loss ``(1/N) sum_s d_s^2 / 2`` and N the number of target nodes (see the
    module's docstring)."""
    _, index, x, d, g = _node_errors(c, w, method, omega, clip)
    n = len(d)
    if n == 0:
        return np.zeros(len(w)), 0.0, 0
    return _spread(index, x, g / n, len(w)), float(0.5 * np.mean(d * d)), n


def change_by_kind(c: Collected, w: np.ndarray, method: str, omega: float,
                   clip: float = MATE_CLIP) -> dict[str, np.ndarray]:
    """Where a move's change comes from: ``N * change`` of :func:`bootstrap_change`
    (the sum over the target nodes, before dividing by their number) split by the kind
    of each node's target, ``"exact"``, ``"lower"`` and ``"upper"`` (the three add up
    to it). For studying a learner, not used by it."""
    kind, index, x, _, g = _node_errors(c, w, method, omega, clip)
    return {name: _spread(index[kind == k], x[kind == k], g[kind == k], len(w))
            for name, k in (("exact", EXACT), ("lower", LOWER), ("upper", UPPER))}


class Bootstrap:
    """A bootstrapping learner for one run (a :class:`.learners.Learner`): it owns
    nothing but its settings and updates ``w`` and ``tc`` (the run's arrays, in place)
    after every search of the games it plays."""

    def __init__(self, method: str, w: np.ndarray, tc: TemporalCoherence, mask: np.ndarray, *,
                 alpha: float, omega: float, coherence: bool = True,
                 clip: float = MATE_CLIP) -> None:
        if method not in BOOTSTRAP_METHODS:
            raise ValueError(f"unknown bootstrapping method {method!r}; expected one of "
                             f"{', '.join(BOOTSTRAP_METHODS)}")
        self.method, self.w, self.tc, self.mask = method, w, tc, mask
        self.alpha, self.omega, self.coherence, self.clip = alpha, omega, coherence, clip

    def update(self, c: Collected) -> np.ndarray:
        """One move's update from its search's nodes; returns the applied step."""
        change, _, n = bootstrap_change(c, self.w, self.method, self.omega, self.clip)
        if n == 0:
            return np.zeros(len(self.w))
        return apply_update(self.w, change, self.tc, self.alpha, self.mask,
                            coherence=self.coherence)

    def play(self, engine: Engine, variant: str, depth: int, seed: int, max_plies: int = 400,
             opening: Sequence[str] = ()) -> GameRecord:
        """Play ``engine`` against itself as :func:`.selfplay.play_game` does, learning
        after every search: the weights change (in ``self.w`` and the engine's), the
        transposition table is cleared. The record has no trajectory (nothing is left
        to learn at the end of the game)."""
        if not engine.collect:
            raise ValueError("the engine does not collect nodes (Engine(collect=...))")
        engine.w[:] = self.w

        def learn(r: SearchResult) -> None:
            assert r.collected is not None
            self.update(r.collected)
            engine.w[:] = self.w
            engine.clear_hash()

        return play_moves(engine, variant, depth, seed, max_plies, learn, opening=opening,
                          leaf=False)

    def learn(self, record: GameRecord) -> None:
        """Nothing: :meth:`play` learnt after every search of the game."""
