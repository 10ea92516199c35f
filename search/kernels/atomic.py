"""Kernel of the ``atomic`` block (:mod:`search.evaluation.blocks.atomic`, whose
reference defines the features); ``ctx``: the node's attack maps over the whole board."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import KING_ATTACKS, ONE, popcount
from variants.board import KING, OCC, PAWN, QUEEN, TURN, WHITE, king_square

from ..evaluation.blocks.atomic import (
    ADJACENT_PAWN,
    ADJACENT_PIECE,
    BLOCK,
    KING_THREATS,
    QUEEN_THREATS,
    TOUCHING,
)
from .attacks import king_steps
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def atomic(bb, st, w, out, at, ctx):
    """Per side, capture squares that explode the enemy king, that hit or
    touch an enemy queen, own pawns and pieces next to the own king (White's minus
    Black's), and the kings touching for the side to move."""
    s = 0.0
    kings = bb[KING - 1]
    ksq0, ksq1 = king_square(bb, 0), king_square(bb, 1)
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        own_king = ksq0 if c == 0 else ksq1
        enemy_king = ksq1 if c == 0 else ksq0
        a = ctx[0][c]                         # over the whole board (attack_context)
        captures = (a[0] | a[1] | a[2] | a[3] | a[4]) & bb[OCC + 1 - c] & ~kings
        if own_king >= 0:
            near = KING_ATTACKS[own_king]
            captures &= ~near                 # such a capture would explode the own king
            near &= bb[OCC + c]
            n = popcount(near & bb[PAWN - 1])
            if n:
                s += put(w, out, at + ADJACENT_PAWN, sign * n)
            n = popcount(near & ~bb[PAWN - 1] & ~kings)
            if n:
                s += put(w, out, at + ADJACENT_PIECE, sign * n)
        if captures:
            if enemy_king >= 0:
                n = popcount(captures & KING_ATTACKS[enemy_king])
                if n:
                    s += put(w, out, at + KING_THREATS, sign * n)
            queens = bb[QUEEN - 1] & bb[OCC + 1 - c]
            if queens:
                n = popcount(captures & king_steps(queens))
                if n:
                    s += put(w, out, at + QUEEN_THREATS, sign * n)
    if ksq0 >= 0 and ksq1 >= 0 and KING_ATTACKS[ksq0] & (ONE << np.uint64(ksq1)):
        s += put(w, out, at + TOUCHING, 1.0 if st[TURN] == WHITE else -1.0)
    return s
