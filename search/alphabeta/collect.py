"""The collection of search nodes for the bootstrapping learners: the compiled search
writes the interior nodes it establishes into rows after its per-ply evaluations
(:data:`search.alphabeta.negamax.EVALS`); this module sizes those buffers, switches
between them from iteration to iteration and reads the last completed one back as a
:class:`Collected`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import negamax as ab

#: Kinds of a collected node's value (White's view): exact, a lower or an upper bound.
EXACT, LOWER, UPPER = ab.TT_EXACT, ab.TT_LOWER, ab.TT_UPPER
#: Non-zero features a collected node can have in the classic blocks: one table entry per
#: occupied square, material of both colours (12, Black's own where the colours differ),
#: pieces in hand (5). A row holds these plus every entry of the leaf blocks.
CLASSIC_NNZ = 64 + 12 + 5


@dataclass
class Collected:
    """The interior nodes (depth > 0) of one search whose values the search established,
    for the bootstrapping learners (:mod:`tdleaf.learn.bootstrap`): row i is a node, its
    non-zero features ``x[i, :nnz]`` at ``index[i, :nnz]`` (zero padding after them) in
    the engine's layout, from White's view, its search value ``value[i]`` (pawns, White's
    view, mates unclipped) and ``kind[i]``: :data:`EXACT` (a PV node's value strictly
    inside its full window), :data:`LOWER` (a lower bound for White: White to move
    failed high, or Black failed low) or :data:`UPPER`. The root, when recorded, is the
    last row (``ply`` 0). Left out: null-move, futility, razoring and table cutoffs, draws by rule,
    LMR-reduced searches (their re-search counts), nodes under a null move, quiescence
    nodes (unless :attr:`Engine.collect_quiescence`: then those whose moves changed their
    value from the stand-pat, with ``depth`` <= 0) and an interrupted iteration. At most
    :attr:`Engine.collect` non-root rows: a seeded reservoir sample of the ``seen`` nodes."""

    index: np.ndarray      # (n, K) int64
    x: np.ndarray          # (n, K) float64
    value: np.ndarray      # (n,) float64
    kind: np.ndarray       # (n,) int8
    ply: np.ndarray        # (n,) int64
    depth: np.ndarray      # (n,) int64
    seen: int = 0          # non-root nodes offered to the sample
    overflow: int = 0      # nodes dropped for having more features than a row holds

    def __len__(self) -> int:
        return len(self.value)

    def dense(self, size: int) -> np.ndarray:
        """The (n, size) feature matrix."""
        out = np.zeros((len(self), size))
        np.add.at(out, (np.arange(len(self))[:, None], self.index), self.x)
        return out

    @staticmethod
    def empty(width: int = 0) -> Collected:
        z = np.zeros(0, dtype=np.int64)
        return Collected(np.zeros((0, width), np.int64), np.zeros((0, width)), np.zeros(0),
                         np.zeros(0, np.int8), z, z.copy())


class Collection:
    """The search's ``evals`` arrays for a layout of ``size`` features whose leaf
    blocks add ``leaf`` non-zero entries: the per-ply evaluations and, when collecting
    ``nodes`` > 0, a dense feature row and the collected rows after them, twice (one
    holds the last completed iteration while the next fills the other)."""

    def __init__(self, size: int, leaf: int, nodes: int) -> None:
        self.size = size
        self.nodes = nodes
        self.k = min(size, CLASSIC_NNZ + leaf)
        n = ab.EVALS
        if nodes:
            n += size + (nodes + 1) * ab.row_width(self.k)
        self.buffers = [np.zeros(n) for _ in range(2 if nodes else 1)]
        self.now = 0
        # The buffer that holds the last completed iteration's nodes, and its counts.
        self.done: tuple[int, int, int, int] | None = None

    def rows(self, buf: int) -> np.ndarray:
        """The collected rows of buffer ``buf``: (nodes + 1, row width), the root last."""
        start = ab.EVALS + self.size
        return self.buffers[buf][start:].reshape(self.nodes + 1, ab.row_width(self.k))

    def start_iteration(self, evals: np.ndarray, ctl: np.ndarray) -> np.ndarray:
        """The buffer the next iteration fills (the one not holding the last completed
        iteration), with the root's evaluation from ``evals`` and its counts reset."""
        now = 1 - self.done[0] if self.done else 0
        self.buffers[now][0] = evals[0]
        self.now = now
        ctl[ab.C_SEEN] = ctl[ab.C_STORED] = ctl[ab.C_OVERFLOW] = 0
        self.rows(now)[-1, ab.R_KIND] = 0.0      # no root yet
        return self.buffers[now]

    def complete(self, ctl: np.ndarray) -> None:
        """The iteration that filled the current buffer completed."""
        self.done = (self.now, int(ctl[ab.C_STORED]), int(ctl[ab.C_SEEN]),
                     int(ctl[ab.C_OVERFLOW]))

    def collected(self) -> Collected:
        """The nodes of the last completed iteration (none without one)."""
        k = self.k
        if self.done is None:
            return Collected.empty(k)
        buf, stored, seen, overflow = self.done
        col = self.rows(buf)
        rows = col[:stored]
        if col[-1, ab.R_KIND]:
            rows = np.concatenate([rows, col[-1:]])
        rows = rows[rows[:, ab.R_KIND] != 0]        # rows a feature overflow emptied
        nnz = rows[:, ab.R_NNZ].astype(np.int64)
        used = np.arange(k)[None, :] < nnz[:, None]
        index = np.where(used, rows[:, ab.R_FEAT:ab.R_FEAT + k], 0).astype(np.int64)
        x = np.where(used, rows[:, ab.R_FEAT + k:], 0.0)
        return Collected(index, x, rows[:, ab.R_VALUE].copy(),
                         rows[:, ab.R_KIND].astype(np.int8), rows[:, ab.R_PLY].astype(np.int64),
                         rows[:, ab.R_DEPTH].astype(np.int64), seen, overflow)
