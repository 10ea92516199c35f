"""The linear evaluation ``sum_f w_f * f(x)`` in numba, from White's point of view.

One definition of the features serves three uses: the full evaluation, the
incremental update the search applies after each move (the difference of the piece
bitboards and pockets before and after it, which covers captures, promotions, castling,
drops and atomic explosions alike), and the feature vector that learning needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import core
from variants.bits import lsb

from .layout import HAND, MATERIAL, N_FEATURES, PSQ


@njit(cache=True)
def _piece_weight(w, t, c, sq):
    """Contribution of one piece of type t (1..6), colour c, on sq."""
    if c == 0:
        return w[MATERIAL + t - 1] + w[PSQ + 64 * (t - 1) + sq]
    return -(w[MATERIAL + t - 1] + w[PSQ + 64 * (t - 1) + (sq ^ 56)])


@njit(cache=True)
def evaluate(bb, st, w):
    """Full evaluation, White's point of view."""
    s = 0.0
    for c in range(2):
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                s += _piece_weight(w, t, c, lsb(b))
                b &= b - np.uint64(1)
    if st[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            s += w[HAND + t - 1] * (st[core.POCKET + t] - st[core.POCKET + 6 + t])
    return s


@njit(cache=True)
def evaluate_delta(pbb, pst, cbb, cst, w):
    """Evaluation of the child minus that of the parent (any move of any variant)."""
    s = 0.0
    for c in range(2):
        for t in range(1, 7):
            before = pbb[t - 1] & pbb[core.OCC + c]
            after = cbb[t - 1] & cbb[core.OCC + c]
            gone = before & ~after
            while gone:
                s -= _piece_weight(w, t, c, lsb(gone))
                gone &= gone - np.uint64(1)
            new = after & ~before
            while new:
                s += _piece_weight(w, t, c, lsb(new))
                new &= new - np.uint64(1)
    if cst[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            d = (cst[core.POCKET + t] - pst[core.POCKET + t]) - (cst[core.POCKET + 6 + t] - pst[core.POCKET + 6 + t])
            if d:
                s += w[HAND + t - 1] * d
    return s


@njit(cache=True)
def features(bb, st, out):
    """Write the feature vector of a position into ``out`` (length N_FEATURES)."""
    out[:] = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                sq = lsb(b)
                b &= b - np.uint64(1)
                out[MATERIAL + t - 1] += sign
                out[PSQ + 64 * (t - 1) + (sq if c == 0 else sq ^ 56)] += sign
    if st[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            out[HAND + t - 1] = st[core.POCKET + t] - st[core.POCKET + 6 + t]


def feature_vector(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """The dense feature vector of a position (White's point of view)."""
    out = np.zeros(N_FEATURES, dtype=np.float64)
    features(bb, st, out)
    return out


def sparse_features(bb: np.ndarray, st: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indices, values) of the non-zero features of a position."""
    x = feature_vector(bb, st)
    idx = np.flatnonzero(x)
    return idx, x[idx]
