"""Kernel of the ``sjeng`` block (:mod:`search.evaluation.blocks.sjeng`, whose reference
:func:`~search.evaluation.blocks.sjeng.sjeng_features` defines the features): Sjeng
11.2's suicide terms, on bitboards (per-file masks where its code keeps per-file
ranks)."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import EMPTY, ONE, PAWN_ATTACKS, lsb, pawn_attack_set, popcount
from variants.board import OCC, PAWN, piece_attacks

from ..evaluation.blocks.sjeng import (
    BACKWARD,
    BACKWARD_OPEN,
    BLOCK,
    DOUBLED,
    ISLAND,
    ISOLATED,
    ISOLATED_OPEN,
    OFFER,
    OUTSIDE,
    OUTSIDE_RANK,
    PASSED,
    PASSED_CONNECTED,
    PASSED_RANK,
    PUSH,
    REACH,
)
from .base import put


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``FILES[f]``: file f; ``NEIGHBOURS[f]``: the files beside it; ``AHEAD[c, r]``:
    the ranks ahead of rank r (0-based, a1's rank 0) for colour c (0 White)."""
    files = [sum(1 << (8 * r + f) for r in range(8)) for f in range(8)]
    neighbours = [(files[f - 1] if f > 0 else 0) | (files[f + 1] if f < 7 else 0)
                  for f in range(8)]
    ahead = [[sum(0xFF << (8 * q) for q in range(8) if (q > r if c == 0 else q < r))
              for r in range(8)] for c in range(2)]
    return (np.array(files, dtype=np.uint64), np.array(neighbours, dtype=np.uint64),
            np.array(ahead, dtype=np.uint64))


FILES, NEIGHBOURS, AHEAD = _tables()
_S8, _S16 = np.uint64(8), np.uint64(16)
_RANK_2, _RANK_7 = np.uint64(0xFF << 8), np.uint64(0xFF << 48)

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def _pieces(bb, c, occ, empty, w, out, at):
    """Side ``c``'s ``reach.*`` features (White +, Black -); returns (their score, the
    squares its pieces other than pawns attack once or more, twice or more)."""
    sign = 1.0 if c == 0 else -1.0
    own = bb[OCC + c]
    once = EMPTY
    twice = EMPTY
    s = 0.0
    for t in range(2, 7):
        b = bb[t - 1] & own
        n = 0
        while b:
            a = piece_attacks(t, lsb(b), occ)
            twice |= once & a
            once |= a
            n += popcount(a & empty)
            b &= b - ONE
        if n:
            s += put(w, out, at + REACH + t - 2, sign * n)
    return s, once, twice


@njit(cache=True)
def _pushes(pawns, c, empty):
    """The empty squares the pawns ``pawns`` of colour ``c`` can push onto (one step, or
    two from their 2nd rank)."""
    if c == 0:
        one = (pawns << _S8) & empty
        return one | (((one & (_RANK_2 << _S8)) << _S8) & empty)
    one = (pawns >> _S8) & empty
    return one | (((one & (_RANK_7 >> _S8)) >> _S8) & empty)


@njit(cache=True)
def _pawns(bb, c, empty, once, twice, w, out, at):
    """Side ``c``'s pawn features: ``push``, ``offer`` (``once``/``twice``: the squares the
    enemy's pieces other than pawns attack once or more, twice or more) and the pawn
    structure."""
    sign = 1.0 if c == 0 else -1.0
    e = 1 - c
    own = bb[PAWN - 1] & bb[OCC + c]
    enemy = bb[PAWN - 1] & bb[OCC + e]
    s = 0.0
    if c == 0:
        n = popcount((own << _S8) & empty)
    else:
        n = popcount((own >> _S8) & empty)
    if n:
        s += put(w, out, at + PUSH, sign * n)
    # Squares where the enemy offers a piece our pawn must take and it cannot take back.
    guarded = pawn_attack_set(enemy, e)
    offered = (once & ~twice) | (_pushes(enemy, e, empty) & ~once)
    offers = backward = isolated = backward_open = isolated_open = doubled = 0
    passed = passed_rank = connected = outside = outside_rank = island = 0
    b = own
    while b:
        sq = lsb(b)
        b &= b - ONE
        hits = PAWN_ATTACKS[c, sq]
        if hits & guarded == EMPTY and hits & offered != EMPTY:
            offers += 1
        f, r = sq & 7, sq >> 3
        rank = r + 1 if c == 0 else 8 - r           # the side's own, 1..8
        beside = own & NEIGHBOURS[f]
        is_backward = rank < 7 and beside & ~AHEAD[c, r] == EMPTY
        is_isolated = is_backward and beside == EMPTY
        opened = enemy & FILES[f] == EMPTY
        backward += is_backward
        isolated += is_isolated
        backward_open += is_backward and opened
        isolated_open += is_isolated and opened
        doubled += popcount(own & FILES[f]) - 1
        if opened and rank >= 2 and enemy & NEIGHBOURS[f] & AHEAD[c, r] == EMPTY:
            passed += 1
            passed_rank += rank - 2
            connected += not is_isolated
            if f == 0 or f == 7:
                outside += 1
                outside_rank += rank - 2
        island += f == 0 or own & FILES[f - 1] == EMPTY
    for i, n in ((OFFER, offers), (BACKWARD, backward), (ISOLATED, isolated),
                 (BACKWARD_OPEN, backward_open), (ISOLATED_OPEN, isolated_open),
                 (DOUBLED, doubled), (PASSED, passed), (PASSED_RANK, passed_rank),
                 (PASSED_CONNECTED, connected), (OUTSIDE, outside),
                 (OUTSIDE_RANK, outside_rank), (ISLAND, island)):
        if n:
            s += put(w, out, at + i, sign * n)
    return s


@njit(cache=True)
def sjeng(bb, st, w, out, at):
    """Each side's empty squares reached per piece type, free pushes, offered pawns and
    pawn structure, White's minus Black's."""
    occ = bb[OCC] | bb[OCC + 1]
    empty = ~occ
    sw, ow, tw = _pieces(bb, 0, occ, empty, w, out, at)
    sb, ob, tb = _pieces(bb, 1, occ, empty, w, out, at)
    return (sw + sb + _pawns(bb, 0, empty, ob, tb, w, out, at)
            + _pawns(bb, 1, empty, ow, tw, w, out, at))
