"""Compiled kernels of the goal blocks (:mod:`search.goal_blocks`): the features of each
variant's own way to win, computed at the leaves of the search.

Each kernel has the leaf-block signature of :func:`search.evaluate._block_kernel`
(``w``, ``out``, ``at``: it adds its features to ``out``, or, with an empty ``out``,
returns their score) and allocates nothing. The blocks' Python references in
:mod:`search.goal_blocks` define what they compute; the tests hold the kernels to them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import BB_RANK_8, EMPTY, NOT_FILE_A, NOT_FILE_H, ONE, lsb
from variants.board import CHECKS, OCC, king_square

from .evaluate import _put, piece_attacks

_S1 = np.uint64(1)
_S8 = np.uint64(8)

#: Offsets within the ``race`` block (search.goal_blocks.RACE_BLOCK's keys).
RACE_PATH = 7       # path1..path7 after rank1..rank7
RACE_BLOCKED = 14


@njit(cache=True)
def checks(st, w, out, at):
    """``checks``: feature k (k = 1, 2) = [White has given at least k checks] - [Black
    has]; three-check keeps the checks still to give in ``st[CHECKS + colour]``."""
    s = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        given = 3 - st[CHECKS + c]
        for k in range(1, 3):
            if given >= k:
                s += _put(w, out, at + k - 1, sign)
    return s


@njit(cache=True)
def hill_distance(sq):
    """Chebyshev distance of a square to the nearest of d4, e4, d5, e5."""
    f, r = sq & 7, sq >> 3
    return max(max(3 - f, f - 4, 0), max(3 - r, r - 4, 0))


@njit(cache=True)
def hill(bb, w, out, at):
    """``hill``: the king's distance to the hill, one-hot d = 1, 2, 3, White's minus
    Black's (d = 0 ends the game)."""
    s = 0.0
    for c in range(2):
        k = king_square(bb, c)
        if k >= 0:
            d = hill_distance(k)
            if d > 0:
                s += _put(w, out, at + d - 1, 1.0 if c == 0 else -1.0)
    return s


@njit(cache=True)
def attacked_squares(bb, c, occ):
    """Every square a piece of colour ``c`` attacks, sliders blocked by ``occ``."""
    a = EMPTY
    own = bb[OCC + c]
    for t in range(1, 7):
        b = bb[t - 1] & own
        while b:
            a |= piece_attacks(t, c, lsb(b), occ)
            b &= b - ONE
    return a


@njit(cache=True)
def _king_steps(b):
    """``b`` and every square one king step from it."""
    x = b | ((b << _S1) & NOT_FILE_A) | ((b >> _S1) & NOT_FILE_H)
    return x | (x << _S8) | (x >> _S8)


@njit(cache=True)
def race_path(bb, c, k):
    """Fewest king steps from ``k`` (the king of colour ``c``) to the 8th rank through
    squares that its own pieces leave empty and the enemy does not attack (the enemy's
    sliders see through the king, as for a legal king move); -1 when none leads there."""
    occ = (bb[OCC] | bb[OCC + 1]) & ~(ONE << np.uint64(k))
    free = ~bb[OCC + c] & ~attacked_squares(bb, 1 - c, occ)
    reach = ONE << np.uint64(k)
    d = 0
    while not reach & BB_RANK_8:
        grown = reach | (_king_steps(reach) & free)
        if grown == reach:
            return -1
        reach = grown
        d += 1
    return d


@njit(cache=True)
def race(bb, w, out, at):
    """``race``: the king's rank, one-hot 1..7, then its free path to the 8th rank
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
            s += _put(w, out, at + r, sign)
        d = race_path(bb, c, k)
        if d < 0:
            s += _put(w, out, at + RACE_BLOCKED, sign)
        elif d > 0:
            s += _put(w, out, at + RACE_PATH + min(d, 7) - 1, sign)
    return s
