"""Kernel of the ``safety`` block (:mod:`search.evaluation.blocks.safety`, whose
docstring and reference define the features); ``ctx``: the node's attack maps, covering
at least the kings' zones."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import BB_RANK_1, KING_ATTACKS, ONE, popcount
from variants.board import OCC, king_square

from ..evaluation.blocks.safety import BLOCK, DEFENDED, SHIELD1, SHIELD2
from .base import put

_S8, _S16 = np.uint64(8), np.uint64(16)

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def safety(bb, st, w, out, at, ctx):
    """Around each king (``king_square``), the zone squares attacked by each enemy piece type, the
    neighbours its own pieces other than kings defend, and its pawn shield one and two
    ranks ahead; White's king minus Black's."""
    k0, k1 = king_square(bb, 0), king_square(bb, 1)
    if k0 < 0 and k1 < 0:
        return 0.0
    white, black = ctx[0]
    s = 0.0
    for c in range(2):
        k = k0 if c == 0 else k1
        if k < 0:
            continue
        sign = 1.0 if c == 0 else -1.0
        mine, theirs = (white, black) if c == 0 else (black, white)
        ring = KING_ATTACKS[k]
        zone = ring | (ONE << np.uint64(k))
        for t in range(6):
            n = popcount(zone & theirs[t])
            if n:
                s += put(w, out, at + t, sign * n)
        n = popcount(ring & (mine[0] | mine[1] | mine[2] | mine[3] | mine[4]))
        if n:
            s += put(w, out, at + DEFENDED, sign * n)
        # The zone's squares on the king's rank (its file and those beside it), moved
        # one and two ranks ahead (off the board: gone).
        row = zone & (BB_RANK_1 << np.uint64(8 * (k >> 3)))
        pawns = bb[0] & bb[OCC + c]
        if c == 0:
            n1, n2 = popcount(pawns & (row << _S8)), popcount(pawns & (row << _S16))
        else:
            n1, n2 = popcount(pawns & (row >> _S8)), popcount(pawns & (row >> _S16))
        if n1:
            s += put(w, out, at + SHIELD1, sign * n1)
        if n2:
            s += put(w, out, at + SHIELD2, sign * n2)
    return s
