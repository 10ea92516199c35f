"""The classic blocks' evaluation in numba (:mod:`search.evaluation.classic`), White's
point of view.

One definition of the features serves three uses: the full evaluation, the incremental
update the search applies after each move (the difference of the piece bitboards and
pockets before and after it, which covers captures, promotions, castling, drops and
atomic explosions alike), and the feature vector that learning needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import core
from variants.bits import lsb
from variants.rules import POCKETS

from ..evaluation.classic import HAND, MATERIAL, PSQ
from .base import BLACK_VIEW as _BLACK

#: Per rules code: the weights (and features) the classic blocks need, Black's included.
_CLASSIC_END = np.array([int(_BLACK[c, 1]) + 6 * 64 for c in range(_BLACK.shape[0])],
                        dtype=np.int64)


@njit(cache=True)
def _piece_weight(w, t, c, sq, mat, tab, xor):
    """Contribution of one piece of type t (1..6), colour c, on sq, that reads its
    material at ``mat`` and its table at ``tab`` indexed by ``sq ^ xor``."""
    x = w[mat + t - 1] + w[tab + 64 * (t - 1) + (sq ^ xor)]
    return x if c == 0 else -x


@njit(cache=True)
def evaluate(bb, st, w):
    """Full evaluation, White's point of view (``w`` must hold the variant's classic
    blocks, Black's own included where the colours differ: ValueError otherwise)."""
    v = st[core.VARIANT]
    if w.shape[0] < _CLASSIC_END[v]:
        raise ValueError("evaluate: the weights lack this variant's classic blocks")
    s = 0.0
    for c in range(2):
        # White reads material and tables as they are; Black as its variant mirrors them.
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                s += _piece_weight(w, t, c, lsb(b), mat, tab, xor)
                b &= b - np.uint64(1)
    if POCKETS[st[core.VARIANT]]:
        for t in range(1, 6):
            s += w[HAND + t - 1] * (st[core.POCKET + t] - st[core.POCKET + 6 + t])
    return s


@njit(cache=True)
def evaluate_delta(pbb, pst, cbb, cst, w):
    """Evaluation of the child minus that of the parent (any move of any variant)."""
    v = cst[core.VARIANT]
    s = 0.0
    for c in range(2):
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            before = pbb[t - 1] & pbb[core.OCC + c]
            after = cbb[t - 1] & cbb[core.OCC + c]
            gone = before & ~after
            while gone:
                s -= _piece_weight(w, t, c, lsb(gone), mat, tab, xor)
                gone &= gone - np.uint64(1)
            new = after & ~before
            while new:
                s += _piece_weight(w, t, c, lsb(new), mat, tab, xor)
                new &= new - np.uint64(1)
    if POCKETS[cst[core.VARIANT]]:
        for t in range(1, 6):
            d = (cst[core.POCKET + t] - pst[core.POCKET + t]) - (cst[core.POCKET + 6 + t] - pst[core.POCKET + 6 + t])
            if d:
                s += w[HAND + t - 1] * d
    return s


@njit(cache=True)
def features(bb, st, out):
    """Write the classic blocks' features of a position into ``out``: its first
    BASE_SIZE entries, or, where the colours have separate values, the
    ``incremental_size`` entries that hold Black's own blocks too (ValueError if
    ``out`` is shorter)."""
    v = st[core.VARIANT]
    if out.shape[0] < _CLASSIC_END[v]:
        raise ValueError("features: out is shorter than this variant's classic blocks")
    out[:] = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                sq = lsb(b)
                b &= b - np.uint64(1)
                out[mat + t - 1] += sign
                out[tab + 64 * (t - 1) + (sq ^ xor)] += sign
    if POCKETS[st[core.VARIANT]]:
        for t in range(1, 6):
            out[HAND + t - 1] = st[core.POCKET + t] - st[core.POCKET + 6 + t]
