"""Kernel of the ``race`` block (:mod:`search.evaluation.blocks.race`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import BB_RANK_8, ONE
from variants.board import OCC, king_square

from ..evaluation.blocks.race import BLOCK, BLOCKED, PATH
from .attacks import attacked_by, king_steps
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def race_path(bb, c, k):
    """Fewest king steps from ``k`` (the king of colour ``c``) to the 8th rank through
    squares that its own pieces leave empty and the enemy does not attack (the enemy's
    sliders see through the king, as for a legal king move); -1 when none leads there."""
    occ = (bb[OCC] | bb[OCC + 1]) & ~(ONE << np.uint64(k))
    free = ~bb[OCC + c] & ~attacked_by(bb, 1 - c, occ)
    reach = ONE << np.uint64(k)
    d = 0
    while not reach & BB_RANK_8:
        grown = reach | (king_steps(reach) & free)
        if grown == reach:
            return -1
        reach = grown
        d += 1
    return d


@njit(cache=True)
def race(bb, st, w, out, at):
    """The king's rank, one-hot 1..7, then its free path to the 8th rank
    (:func:`race_path`), one-hot 1..7 (7: seven steps or more) or blocked, White's
    minus Black's (both kings race to the 8th rank)."""
    s = 0.0
    for c in range(2):
        k = king_square(bb, c)
        if k < 0:
            continue
        sign = 1.0 if c == 0 else -1.0
        r = k >> 3
        if r < 7:
            s += put(w, out, at + r, sign)
        d = race_path(bb, c, k)
        if d < 0:
            s += put(w, out, at + BLOCKED, sign)
        elif d > 0:
            s += put(w, out, at + PATH + min(d, 7) - 1, sign)
    return s
