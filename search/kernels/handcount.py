"""Kernel of the ``handcount`` block (:mod:`search.evaluation.blocks.handcount`)."""

from __future__ import annotations

from numba import njit

from variants.board import POCKET

from ..evaluation.blocks.handcount import BLOCK, PER_TYPE
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def handcount(bb, st, w, out, at):
    """Per piece type P..Q, [n >= 2], [n >= 3] and max(0, n - 3) of the n pieces of that
    type in hand, White's minus Black's."""
    s = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        for t in range(1, 6):
            n = st[POCKET + 6 * c + t]
            if n >= 2:
                i = at + PER_TYPE * (t - 1)
                s += put(w, out, i, sign)
                if n >= 3:
                    s += put(w, out, i + 1, sign)
                    if n >= 4:
                        s += put(w, out, i + 2, sign * (n - 3))
    return s
