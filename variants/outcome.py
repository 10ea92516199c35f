"""How a game ends: insufficient material per variant and python-chess's ``outcome()``
(without repetitions, which need the game's history)."""

from __future__ import annotations

from numba import njit

from .bits import BB_DARK, BB_LIGHT, popcount
from .board import (
    ATOMIC,
    BISHOP,
    CRAZYHOUSE,
    GIVEAWAY,
    HALFMOVE,
    KING,
    KNIGHT,
    OCC,
    PAWN,
    POCKET,
    PROMOTED,
    QUEEN,
    ROOK,
    SUICIDE,
    T_CHECKMATE,
    T_INSUFFICIENT,
    T_NONE,
    T_SEVENTYFIVE,
    T_STALEMATE,
    T_VARIANT_DRAW,
    T_VARIANT_LOSS,
    T_VARIANT_WIN,
    TURN,
    VARIANT,
    WHITE,
    checkers_mask,
)
from .movegen import gen_legal

# ---------------------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _insufficient_standard(bb, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    if ours & (bb[PAWN - 1] | bb[ROOK - 1] | bb[QUEEN - 1]):
        return False
    if ours & bb[KNIGHT - 1]:
        return popcount(ours) <= 2 and not (theirs & ~bb[KING - 1] & ~bb[QUEEN - 1])
    if ours & bb[BISHOP - 1]:
        b = bb[BISHOP - 1]
        same = (not (b & BB_DARK)) or (not (b & BB_LIGHT))
        return same and not bb[PAWN - 1] and not bb[KNIGHT - 1]
    return True


@njit(cache=True)
def _insufficient_crazyhouse(bb, st):
    occ = bb[OCC] | bb[OCC + 1]
    total = popcount(occ)
    for c in range(2):
        for t in range(1, 6):
            total += st[POCKET + 6 * c + t]
    if total > 3 or bb[PROMOTED] or bb[PAWN - 1] or bb[ROOK - 1] or bb[QUEEN - 1]:
        return False
    for c in range(2):
        if st[POCKET + 6 * c + PAWN] or st[POCKET + 6 * c + ROOK] or st[POCKET + 6 * c + QUEEN]:
            return False
    return True


@njit(cache=True)
def _insufficient_suicide(bb, st, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    occ = ours | theirs
    if not ours:
        return False
    if not theirs:
        return True
    if occ == bb[BISHOP - 1]:
        we_light = (ours & BB_LIGHT) != 0
        we_dark = (ours & BB_DARK) != 0
        they_all_dark = not (theirs & BB_LIGHT)
        they_all_light = not (theirs & BB_DARK)
        return (we_light and they_all_dark) or (we_dark and they_all_light)
    if occ == bb[KNIGHT - 1] and popcount(bb[KNIGHT - 1]) == 2:
        x = (c == WHITE) ^ ((bb[OCC] & BB_LIGHT) != 0) ^ ((bb[OCC + 1] & BB_DARK) != 0)
        return (st[TURN] == WHITE) == x
    return False


@njit(cache=True)
def _insufficient_atomic(bb, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    kings = bb[KING - 1]
    occ = ours | theirs
    if not (theirs & kings):
        return False
    if not (ours & ~kings):
        return True
    if theirs & ~kings:
        if occ == bb[BISHOP - 1] | kings:
            b = bb[BISHOP - 1]
            if not (b & bb[OCC] & BB_DARK):
                return not (b & bb[OCC + 1] & BB_LIGHT)
            if not (b & bb[OCC] & BB_LIGHT):
                return not (b & bb[OCC + 1] & BB_DARK)
        return False
    if bb[QUEEN - 1] or bb[PAWN - 1]:
        return False
    if popcount(bb[KNIGHT - 1] | bb[BISHOP - 1] | bb[ROOK - 1]) == 1:
        return True
    if occ == bb[KNIGHT - 1] | kings:
        return popcount(bb[KNIGHT - 1]) <= 2
    return False


@njit(cache=True)
def is_insufficient_material(bb, st):
    v = st[VARIANT]
    if v == CRAZYHOUSE:
        return _insufficient_crazyhouse(bb, st)
    for c in range(2):
        if v == SUICIDE or v == GIVEAWAY:
            r = _insufficient_suicide(bb, st, c)
        elif v == ATOMIC:
            r = _insufficient_atomic(bb, c)
        else:
            r = _insufficient_standard(bb, c)
        if not r:
            return False
    return True


@njit(cache=True)
def outcome_code(bb, st, moves, sbb, sst):
    """python-chess ``outcome()`` without repetition: (termination, winner or -1)."""
    v = st[VARIANT]
    us = st[TURN]
    them = 1 - us
    n = gen_legal(bb, st, moves, sbb, sst)
    if v == SUICIDE or v == GIVEAWAY:
        if not bb[OCC + us]:
            return T_VARIANT_WIN, us
        stalemate = n == 0 and bb[OCC + them] != 0
        if stalemate:
            if v == GIVEAWAY:
                return T_VARIANT_WIN, us
            balance = popcount(bb[OCC + us]) - popcount(bb[OCC + them])
            if balance > 0:
                return T_VARIANT_LOSS, them
            if balance < 0:
                return T_VARIANT_WIN, us
            return T_VARIANT_DRAW, -1
    elif v == ATOMIC:
        kings = bb[KING - 1]
        if kings:
            if not kings & bb[OCC + us]:
                return T_VARIANT_LOSS, them
            if not kings & bb[OCC + them]:
                return T_VARIANT_WIN, us
    if n == 0 and checkers_mask(bb, st):
        return T_CHECKMATE, them
    if is_insufficient_material(bb, st):
        return T_INSUFFICIENT, -1
    if n == 0:
        return T_STALEMATE, -1
    if v != CRAZYHOUSE and st[HALFMOVE] >= 150:
        return T_SEVENTYFIVE, -1
    return T_NONE, -1
