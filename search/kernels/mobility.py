"""Kernel of the ``mobility`` block (:mod:`search.evaluation.blocks.mobility`)."""

from __future__ import annotations

from numba import njit

from ..evaluation.blocks.mobility import BLOCK
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def mobility(bb, st, w, out, at, ctx):
    """Per piece type, the squares its pieces attack that their own side does not
    occupy, White's minus Black's: the counts of the node's attack maps ``ctx``."""
    s = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        counts = ctx[1][c]
        for t in range(6):
            s += put(w, out, at + t, sign * counts[t])
    return s
