"""Compiled kernels of the king-safety blocks (:mod:`search.safety_blocks`, whose module
docstring and Python references define the features; the tests hold these to them).

Both have the leaf-block signature of :func:`search.evaluate._block_kernel` (``w``,
``out``, ``at``: they add their features to ``out``, or, with an empty ``out``, return
their score; ``ctx``: the node's attack maps, :mod:`search.attack_kernels`, which cover
at least the kings' zones) and allocate nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import (
    BB_RANK_1,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    ONE,
    PAWN_ATTACKS,
    bishop_attacks,
    popcount,
    rook_attacks,
)
from variants.board import NOT_BACKRANKS, OCC, POCKET, king_square

from .evaluate import _put

_S8, _S16 = np.uint64(8), np.uint64(16)
#: Offsets within the blocks (search.safety_blocks.SAFETY_KEYS, DROPS_KEYS).
_DEFENDED, _SHIELD1, _SHIELD2 = 6, 7, 8
_EXPOSURE = 5


@njit(cache=True)
def safety(bb, st, w, out, at, ctx):
    """``safety`` (leaf-block signature, see search.evaluate._block_kernel): around each
    king (``king_square``), the zone squares attacked by each enemy piece type, the
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
                s += _put(w, out, at + t, sign * n)
        n = popcount(ring & (mine[0] | mine[1] | mine[2] | mine[3] | mine[4]))
        if n:
            s += _put(w, out, at + _DEFENDED, sign * n)
        # The zone's squares on the king's rank (its file and those beside it), moved
        # one and two ranks ahead (off the board: gone).
        row = zone & (BB_RANK_1 << np.uint64(8 * (k >> 3)))
        pawns = bb[0] & bb[OCC + c]
        if c == 0:
            n1, n2 = popcount(pawns & (row << _S8)), popcount(pawns & (row << _S16))
        else:
            n1, n2 = popcount(pawns & (row >> _S8)), popcount(pawns & (row >> _S16))
        if n1:
            s += _put(w, out, at + _SHIELD1, sign * n1)
        if n2:
            s += _put(w, out, at + _SHIELD2, sign * n2)
    return s


@njit(cache=True)
def drops(bb, st, w, out, at, ctx):
    """``drops`` (leaf-block signature, see search.evaluate._block_kernel): per king,
    for each piece type the enemy holds in hand, the empty squares from which a dropped
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
                s += _put(w, out, at, sign * n)
        if st[hand + 2]:
            n = popcount(KNIGHT_ATTACKS[k] & empty)
            if n:
                s += _put(w, out, at + 1, sign * n)
        diag = line = 0
        if st[hand + 3] or st[hand + 5]:
            diag = popcount(bishop_attacks(k, occ) & empty)
        if st[hand + 4] or st[hand + 5]:
            line = popcount(rook_attacks(k, occ) & empty)
        if st[hand + 3] and diag:
            s += _put(w, out, at + 2, sign * diag)
        if st[hand + 4] and line:
            s += _put(w, out, at + 3, sign * line)
        if st[hand + 5] and diag + line:
            s += _put(w, out, at + 4, sign * (diag + line))
        open_ = KING_ATTACKS[k] & empty
        if open_:
            mine = ctx[0][c]
            n = popcount(open_ & ~(mine[0] | mine[1] | mine[2] | mine[3] | mine[4]))
            if n:
                s += _put(w, out, at + _EXPOSURE, sign * (total * n))
    return s
