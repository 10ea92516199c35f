"""Attack helpers the kernels share, and the attack maps that several leaf blocks read,
computed once per evaluated node.

``mobility``, ``atomic``, ``safety`` and ``drops`` all start from the squares each side's
pieces attack. Computed by each block apart, a node with three of them paid for the
same slider rays three times. :func:`attack_context` computes them once, as a tuple
(nothing allocated) that :func:`search.kernels.dispatch.leaf_score` hands to the kernels
that read it (``Block.attacks``):

- ``(attacks, counts)``: per side (``attacks[colour]``), the squares its pieces of each
  type P..K attack (sliders blocked by every piece), and per side and type the sum over
  its pieces of the squares each attacks that its own side does not occupy
  (``mobility``'s counts).
- With a block that reads the whole board (``mobility``, ``atomic``) in the layout the
  maps cover the whole board. With only blocks that look at the kings' zones
  (``safety``, ``drops``), they cover the zones (a slider whose lines miss them on an
  empty board is not followed) and the counts are zero. Without any of these blocks
  nothing is computed.

Whatever the extent, a block reads the same squares, so its features do not depend on
which other blocks share the context (tests/test_leaf_blocks.py holds them to that).
The per-type loops are inlined into their caller (numba's ``inline="always"``), so that
their constant arguments fold away.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import (
    EMPTY,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    NOT_FILE_A,
    NOT_FILE_H,
    ONE,
    PAWN_ATTACKS,
    RAYS,
    bishop_attacks,
    lsb,
    pawn_attack_set,
    popcount,
    rook_attacks,
)
from variants.board import OCC, PAWN, king_square, piece_attacks

from ..evaluation.block import ATTACK_EXTENTS

#: Squares a bishop (a rook) on each square attacks on an empty board (RAYS' directions
#: 2, 3, 6, 7 are the diagonals).
_DIAGONALS = RAYS[2] | RAYS[3] | RAYS[6] | RAYS[7]
_LINES = RAYS[0] | RAYS[1] | RAYS[4] | RAYS[5]
_ALL = ~EMPTY
#: Extents of the context (``Block.extent``).
NONE, ZONES, BOARD = (ATTACK_EXTENTS.index(e) for e in ("none", "zones", "board"))
_S1 = np.uint64(1)
_S8 = np.uint64(8)


@njit(cache=True)
def attacks_from(t, c, sq, occ):
    """The squares a piece of type t (1..6) and colour c on sq attacks, given the
    occupied squares ``occ``: a pawn's two capture squares too, which
    :func:`variants.board.piece_attacks` (the move generator's) leaves out."""
    if t == PAWN:
        return PAWN_ATTACKS[c, sq]
    return piece_attacks(t, sq, occ)


@njit(cache=True)
def king_steps(b):
    """``b`` and every square one king step from it."""
    x = b | ((b << _S1) & NOT_FILE_A) | ((b >> _S1) & NOT_FILE_H)
    return x | (x << _S8) | (x >> _S8)


@njit(cache=True, inline="always")
def _step_attacks(pieces, table, own):
    """(squares attacked, sum of each piece's attacked squares off ``own``) of the
    knights or kings ``pieces`` (``table``: their attacks)."""
    a = EMPTY
    n = 0
    while pieces:
        x = table[lsb(pieces)]
        a |= x
        n += popcount(x & ~own)
        pieces &= pieces - ONE
    return a, n


@njit(cache=True, inline="always")
def _slider_attacks(pieces, diagonal, line, occ, area, own):
    """(squares within ``area`` attacked, sum of each piece's attacked squares off
    ``own``) of the sliders ``pieces`` along diagonals and/or lines, blocked by ``occ``;
    a slider whose lines miss ``area`` on an empty board is not followed."""
    a = EMPTY
    n = 0
    while pieces:
        sq = lsb(pieces)
        x = EMPTY
        if diagonal and _DIAGONALS[sq] & area:
            x = bishop_attacks(sq, occ)
        if line and _LINES[sq] & area:
            x |= rook_attacks(sq, occ)
        a |= x
        n += popcount(x & ~own)
        pieces &= pieces - ONE
    return a & area, n


@njit(cache=True, inline="always")
def _pawn_count(pawns, c, own):
    """The sum of each pawn's attacked squares off ``own``."""
    n = 0
    while pawns:
        n += popcount(PAWN_ATTACKS[c, lsb(pawns)] & ~own)
        pawns &= pawns - ONE
    return n


@njit(cache=True)
def side_attacks(bb, c, occ, area, board):
    """Colour ``c``'s attacks within ``area`` per type P..K, and its mobility counts per
    type (meaningful only over the whole ``board``; the pawns' are then counted): two
    tuples, nothing allocated."""
    own = bb[OCC + c]
    pawns = bb[0] & own
    p, np_ = pawn_attack_set(pawns, c), 0
    if board:
        np_ = _pawn_count(pawns, c, own)
    n, nn = _step_attacks(bb[1] & own, KNIGHT_ATTACKS, own)
    b, nb = _slider_attacks(bb[2] & own, True, False, occ, area, own)
    r, nr = _slider_attacks(bb[3] & own, False, True, occ, area, own)
    q, nq = _slider_attacks(bb[4] & own, True, True, occ, area, own)
    k, nk = _step_attacks(bb[5] & own, KING_ATTACKS, own)
    return (p & area, n & area, b, r, q, k & area), (np_, nn, nb, nr, nq, nk)


@njit(cache=True)
def attacked_by(bb, c, occ):
    """Every square a piece of colour ``c`` attacks, sliders blocked by ``occ``."""
    maps, _ = side_attacks(bb, c, occ, _ALL, False)
    return maps[0] | maps[1] | maps[2] | maps[3] | maps[4] | maps[5]


@njit(cache=True)
def _zone(k):
    """The zone of a king on ``k`` (``k`` and its neighbours); empty for k = -1."""
    return KING_ATTACKS[k] | (ONE << np.uint64(k)) if k >= 0 else EMPTY


@njit(cache=True)
def context_extent(table):
    """The extent the leaf blocks of ``table`` need (NONE, ZONES or BOARD: the largest
    of their ``Block.extent``, the table's fourth column)."""
    extent = NONE
    for i in range(table.shape[0]):
        extent = max(extent, table[i, 3])
    return extent


@njit(cache=True)
def attack_context(bb, extent):
    """The attack maps of the position for blocks that need ``extent`` (see the module
    docstring): ((white, black), (white counts, black counts))."""
    if extent == NONE:
        z, n = (EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY), (0, 0, 0, 0, 0, 0)
        return (z, z), (n, n)
    occ = bb[OCC] | bb[OCC + 1]
    board = extent == BOARD
    area = _ALL if board else _zone(king_square(bb, 0)) | _zone(king_square(bb, 1))
    white, white_n = side_attacks(bb, 0, occ, area, board)
    black, black_n = side_attacks(bb, 1, occ, area, board)
    return (white, black), (white_n, black_n)
