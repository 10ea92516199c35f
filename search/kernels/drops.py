"""Kernel of the ``drops`` block (:mod:`search.evaluation.blocks.drops`, whose docstring
and reference define the features); ``ctx``: the node's attack maps, covering at least
the kings' zones."""

from __future__ import annotations

from numba import njit

from variants.bits import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    popcount,
    rook_attacks,
)
from variants.board import NOT_BACKRANKS, OCC, POCKET, king_square

from ..evaluation.blocks.drops import BLOCK, EXPOSURE
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def drops(bb, st, w, out, at, ctx):
    """Per king, for each piece type the enemy holds in hand, the empty squares from which a dropped
    piece of that type would attack the king (pawns: not on the back ranks), and the
    enemy's pieces in hand times the king's empty neighbours that its own pieces other
    than kings do not attack; White's king minus Black's."""
    occ = bb[OCC] | bb[OCC + 1]
    empty = ~occ
    s = 0.0
    for c in range(2):
        hand = POCKET + 6 * (1 - c)         # the enemy's pocket, entries hand + 1..5
        total = st[hand + 1] + st[hand + 2] + st[hand + 3] + st[hand + 4] + st[hand + 5]
        if total == 0:
            continue
        k = king_square(bb, c)
        if k < 0:
            continue
        sign = 1.0 if c == 0 else -1.0
        if st[hand + 1]:
            # An enemy pawn attacks k from where a pawn of k's colour on k would attack.
            n = popcount(PAWN_ATTACKS[c, k] & empty & NOT_BACKRANKS)
            if n:
                s += put(w, out, at, sign * n)
        if st[hand + 2]:
            n = popcount(KNIGHT_ATTACKS[k] & empty)
            if n:
                s += put(w, out, at + 1, sign * n)
        diag = line = 0
        if st[hand + 3] or st[hand + 5]:
            diag = popcount(bishop_attacks(k, occ) & empty)
        if st[hand + 4] or st[hand + 5]:
            line = popcount(rook_attacks(k, occ) & empty)
        if st[hand + 3] and diag:
            s += put(w, out, at + 2, sign * diag)
        if st[hand + 4] and line:
            s += put(w, out, at + 3, sign * line)
        if st[hand + 5] and diag + line:
            s += put(w, out, at + 4, sign * (diag + line))
        open_ = KING_ATTACKS[k] & empty
        if open_:
            mine = ctx[0][c]
            n = popcount(open_ & ~(mine[0] | mine[1] | mine[2] | mine[3] | mine[4]))
            if n:
                s += put(w, out, at + EXPOSURE, sign * (total * n))
    return s
