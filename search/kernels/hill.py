"""Kernel of the ``hill`` block (:mod:`search.evaluation.blocks.hill`)."""

from __future__ import annotations

from numba import njit

from variants.board import king_square

from ..evaluation.blocks.hill import BLOCK
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def hill_distance(sq):
    """Chebyshev distance of a square to the nearest of d4, e4, d5, e5."""
    f, r = sq & 7, sq >> 3
    return max(max(3 - f, f - 4, 0), max(3 - r, r - 4, 0))


@njit(cache=True)
def hill(bb, st, w, out, at):
    """The king's distance to the hill, one-hot d = 1, 2, 3, White's minus Black's (d = 0
    ends the game)."""
    s = 0.0
    for c in range(2):
        k = king_square(bb, c)
        if k >= 0:
            d = hill_distance(k)
            if d > 0:
                s += put(w, out, at + d - 1, 1.0 if c == 0 else -1.0)
    return s
