"""Kernel of the ``chains`` block (:mod:`search.evaluation.blocks.chains`, whose
reference :func:`~search.evaluation.blocks.chains.chains_features` defines the features):
capture chains in the losing variants."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import EMPTY, NOT_FILE_A, NOT_FILE_H, ONE, lsb, popcount
from variants.board import BLACK, OCC, PAWN, TURN, WHITE

from ..evaluation.blocks.chains import BLOCK, FORCED, TAKEN, TEMPO
from .attacks import attacks_from
from .base import put

_S7, _S9 = np.uint64(7), np.uint64(9)

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def _captures(bb, c, occ, w, out, at):
    """Side ``c``'s ``capture.*`` features (sign: White +, Black -): returns (their
    score, the number of captures, every square ``c`` attacks)."""
    sign = 1.0 if c == 0 else -1.0
    own, enemy = bb[OCC + c], bb[OCC + 1 - c]
    s = 0.0
    # Pawns all at once: the two capture directions as shifts, wrapped files masked off.
    p = bb[PAWN - 1] & own
    if c == 0:
        left, right = (p << _S7) & NOT_FILE_H, (p << _S9) & NOT_FILE_A
    else:
        left, right = (p >> _S9) & NOT_FILE_H, (p >> _S7) & NOT_FILE_A
    attacked = left | right
    n = popcount(left & enemy) + popcount(right & enemy)
    total = n
    if n:
        s += put(w, out, at, sign * n)
    for t in range(2, 7):
        b = bb[t - 1] & own
        n = 0
        while b:
            a = attacks_from(t, c, lsb(b), occ)
            attacked |= a
            n += popcount(a & enemy)
            b &= b - ONE
        if n:
            total += n
            s += put(w, out, at + t - 1, sign * n)
    return s, total, attacked


@njit(cache=True)
def _taken(bb, c, attacked, w, out, at):
    """Side ``c``'s ``taken.*`` features: its pieces of each type on ``attacked`` (the
    enemy's attacked squares)."""
    sign = 1.0 if c == 0 else -1.0
    hit = bb[OCC + c] & attacked
    s = 0.0
    if hit == EMPTY:
        return s
    for t in range(1, 7):
        n = popcount(bb[t - 1] & hit)
        if n:
            s += put(w, out, at + TAKEN + t - 1, sign * n)
    return s


@njit(cache=True)
def chains(bb, st, w, out, at):
    """Per piece type, each side's captures (capturer, captured pairs) and
    its pieces the enemy attacks, then whether it has a capture and whether it is to move
    with one; White's minus Black's."""
    occ = bb[OCC] | bb[OCC + 1]
    sw, nw, aw = _captures(bb, 0, occ, w, out, at)
    sb, nb, ab = _captures(bb, 1, occ, w, out, at)
    s = sw + sb + _taken(bb, 0, ab, w, out, at) + _taken(bb, 1, aw, w, out, at)
    if nw:
        s += put(w, out, at + FORCED, 1.0)
        if st[TURN] == WHITE:
            s += put(w, out, at + TEMPO, 1.0)
    if nb:
        s += put(w, out, at + FORCED, -1.0)
        if st[TURN] == BLACK:
            s += put(w, out, at + TEMPO, -1.0)
    return s
