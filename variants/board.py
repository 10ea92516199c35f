"""Positions as arrays: the layout, move encoding, Zobrist keys, board editing and attacks.

A position is two flat arrays, so that a search can keep one row per ply and copy-make:

* ``bb`` (``uint64[NBB]``): bitboards by piece type (``bb[t - 1]`` for t = 1..6, pawn
  to king, both colours), colour occupancy ``bb[OCC + c]`` (0 = white, 1 = black), the
  promoted-piece mask, castling rights as a mask of rook squares (python-chess's
  convention) and the Zobrist hash.
* ``st`` (``int64[NST]``): a mailbox of piece types (0 = empty), side to move, en
  passant square, clocks, pockets, the variant code and three-check's remaining checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (
    BB_BACKRANKS,
    BB_RANK_8,
    EMPTY,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    lsb,
    msb,
    rook_attacks,
)
from .spec import get as _spec

# Variant codes, from the variant descriptions (numba freezes them as constants when it
# compiles). Antichess plays by the giveaway rules (it differs only in its start).
CHESS, CRAZYHOUSE, SUICIDE, GIVEAWAY, ATOMIC = (
    _spec(n).code for n in ("chess", "crazyhouse", "suicide", "giveaway", "atomic"))
KOTH, THREECHECK, RACING, HORDE = (
    _spec(n).code for n in ("kingofthehill", "3check", "racingkings", "horde"))

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1

# bb layout
OCC = 6          # bb[OCC + colour]
PROMOTED = 8
CASTLING = 9
HASH = 10
NBB = 12

# st layout
TURN = 64
EP = 65
HALFMOVE = 66
FULLMOVE = 67
POCKET = 68      # st[POCKET + 6 * colour + type], type 1..5
VARIANT = 80
CHECKS = 82      # st[CHECKS + colour]: three-check's remaining checks
NST = 84

# Move encoding: from | to << 6 | piece << 12 | flags << 16. ``piece`` is the promotion
# type, or the dropped type for drops (then from == to).
F_DROP, F_CASTLE, F_EP = 1, 2, 4
# Set by gen_legal(..., lazy=True) on moves whose legality is left to the caller, who
# plays them anyway and then asks child_is_legal (atomic captures, king moves, ...).
F_UNCHECKED = 8
MAX_MOVES = 1024

# Outcome codes (mapped onto chess.Termination by the Python layer).
T_NONE, T_CHECKMATE, T_STALEMATE, T_INSUFFICIENT, T_SEVENTYFIVE = 0, 1, 2, 3, 4
T_FIVEFOLD, T_FIFTY, T_THREEFOLD = 5, 6, 7
T_VARIANT_WIN, T_VARIANT_LOSS, T_VARIANT_DRAW = 8, 9, 10

SQ = np.array([1 << s for s in range(64)], dtype=np.uint64)
NOT_BACKRANKS = ~BB_BACKRANKS

# Zobrist keys, fixed seed so that hashes are stable across runs and machines.
_rng = np.random.default_rng(20080707)
Z_PIECE = _rng.integers(0, 2**63, size=(2, 7, 64), dtype=np.uint64) << np.uint64(1) | _rng.integers(0, 2, size=(2, 7, 64), dtype=np.uint64)
Z_SIDE = np.uint64(_rng.integers(0, 2**63, dtype=np.uint64)) << np.uint64(1)
Z_CASTLE = _rng.integers(0, 2**63, size=64, dtype=np.uint64) << np.uint64(1)
Z_EP = _rng.integers(0, 2**63, size=8, dtype=np.uint64) << np.uint64(1)
Z_POCKET = _rng.integers(0, 2**63, size=(2, 7, 65), dtype=np.uint64) << np.uint64(1)
Z_POCKET[:, :, 0] = 0
Z_PROMO = _rng.integers(0, 2**63, size=64, dtype=np.uint64) << np.uint64(1)
# Drawn last, so that the keys above stay what they were.
Z_CHECKS = _rng.integers(0, 2**63, size=2, dtype=np.uint64) << np.uint64(1)
BB_CENTER = np.uint64((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36))


@njit(cache=True)
def encode(frm, to, piece, flags):
    return np.int64(frm | (to << 6) | (piece << 12) | (flags << 16))


@njit(cache=True)
def m_from(m):
    return m & 63


@njit(cache=True)
def m_to(m):
    return (m >> 6) & 63


@njit(cache=True)
def m_piece(m):
    return (m >> 12) & 7


@njit(cache=True)
def m_flags(m):
    return m >> 16


# ---------------------------------------------------------------------------------------
# Board editing (keeps bitboards, mailbox, promoted mask and hash in step)
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def put_piece(bb, st, sq, t, c, promoted):
    b = SQ[sq]
    bb[t - 1] |= b
    bb[OCC + c] |= b
    st[sq] = t
    h = Z_PIECE[c, t, sq]
    if promoted:
        bb[PROMOTED] |= b
        if st[VARIANT] == CRAZYHOUSE:
            h ^= Z_PROMO[sq]
    bb[HASH] ^= h


@njit(cache=True)
def remove_piece(bb, st, sq):
    """Remove whatever stands on ``sq``; returns its type (0 when empty)."""
    t = st[sq]
    if t == 0:
        return 0
    b = SQ[sq]
    c = WHITE if bb[OCC] & b else BLACK
    bb[t - 1] ^= b
    bb[OCC + c] ^= b
    st[sq] = 0
    h = Z_PIECE[c, t, sq]
    if bb[PROMOTED] & b:
        bb[PROMOTED] ^= b
        if st[VARIANT] == CRAZYHOUSE:
            h ^= Z_PROMO[sq]
    bb[HASH] ^= h
    return t


@njit(cache=True)
def set_pocket(bb, st, c, t, count):
    idx = POCKET + 6 * c + t
    bb[HASH] ^= Z_POCKET[c, t, st[idx]] ^ Z_POCKET[c, t, count]
    st[idx] = count


@njit(cache=True)
def z_checks(c, n):
    """Hash of three-check's remaining checks ``n`` of colour ``c`` (any integer a FEN
    may hold: a mix, not a table)."""
    x = Z_CHECKS[c] + np.uint64(n & 0xFFFF) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def set_checks(bb, st, c, n):
    bb[HASH] ^= z_checks(c, st[CHECKS + c]) ^ z_checks(c, n)
    st[CHECKS + c] = n


@njit(cache=True)
def set_castling(bb, rights):
    changed = bb[CASTLING] ^ rights
    while changed:
        s = lsb(changed)
        bb[HASH] ^= Z_CASTLE[s]
        changed &= changed - np.uint64(1)
    bb[CASTLING] = rights


@njit(cache=True)
def compute_hash(bb, st):
    """Zobrist hash from scratch (the incremental one must always equal it)."""
    h = np.uint64(0)
    zh = st[VARIANT] == CRAZYHOUSE
    for sq in range(64):
        t = st[sq]
        if t:
            c = WHITE if bb[OCC] & SQ[sq] else BLACK
            h ^= Z_PIECE[c, t, sq]
            if zh and bb[PROMOTED] & SQ[sq]:
                h ^= Z_PROMO[sq]
    r = bb[CASTLING]
    while r:
        h ^= Z_CASTLE[lsb(r)]
        r &= r - np.uint64(1)
    for c in range(2):
        for t in range(1, 6):
            h ^= Z_POCKET[c, t, st[POCKET + 6 * c + t]]
    if st[TURN] == BLACK:
        h ^= Z_SIDE
    if st[VARIANT] == THREECHECK:
        h ^= z_checks(0, st[CHECKS]) ^ z_checks(1, st[CHECKS + 1])
    return h


# ---------------------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def attackers(bb, color, sq, occ):
    """Pieces of ``color`` attacking ``sq``, sliders blocked by ``occ``."""
    a = (KNIGHT_ATTACKS[sq] & bb[KNIGHT - 1]) | (KING_ATTACKS[sq] & bb[KING - 1])
    a |= PAWN_ATTACKS[1 - color, sq] & bb[PAWN - 1]
    a |= rook_attacks(sq, occ) & (bb[ROOK - 1] | bb[QUEEN - 1])
    a |= bishop_attacks(sq, occ) & (bb[BISHOP - 1] | bb[QUEEN - 1])
    return a & bb[OCC + color]


@njit(cache=True)
def piece_attacks(t, sq, occ):
    if t == KNIGHT:
        return KNIGHT_ATTACKS[sq]
    if t == BISHOP:
        return bishop_attacks(sq, occ)
    if t == ROOK:
        return rook_attacks(sq, occ)
    if t == QUEEN:
        return rook_attacks(sq, occ) | bishop_attacks(sq, occ)
    return KING_ATTACKS[sq]


@njit(cache=True)
def king_square(bb, c):
    """python-chess ``king()``: the highest non-promoted king of ``c``, or -1."""
    k = bb[KING - 1] & bb[OCC + c] & ~bb[PROMOTED]
    return msb(k) if k else -1


@njit(cache=True)
def kings_connected(bb):
    wk = bb[KING - 1] & bb[OCC]
    bk = bb[KING - 1] & bb[OCC + 1]
    while wk:
        if KING_ATTACKS[lsb(wk)] & bk:
            return True
        wk &= wk - np.uint64(1)
    return False


@njit(cache=True)
def is_variant_end(bb, st):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return bb[OCC] == 0 or bb[OCC + 1] == 0
    if v == ATOMIC:
        k = bb[KING - 1]
        return (k & bb[OCC]) == 0 or (k & bb[OCC + 1]) == 0
    if v == KOTH:
        return (bb[KING - 1] & BB_CENTER) != 0
    if v == THREECHECK:
        return st[CHECKS] <= 0 or st[CHECKS + 1] <= 0
    if v == HORDE:
        return bb[OCC] == 0 or bb[OCC + 1] == 0
    if v == RACING:
        return _race_over(bb, st)
    return False


@njit(cache=True)
def _race_over(bb, st):
    """python-chess RacingKingsBoard.is_variant_end: a king on the 8th rank, unless
    white got there and black, to move, can still follow onto a safe square."""
    kings = bb[KING - 1]
    if not kings & BB_RANK_8:
        return False
    black_kings = kings & bb[OCC + 1]
    if st[TURN] == WHITE or black_kings & BB_RANK_8 or not black_kings:
        return True
    targets = KING_ATTACKS[msb(black_kings)] & BB_RANK_8 & ~bb[OCC + 1]
    occ = bb[OCC] | bb[OCC + 1]
    while targets:
        if not attackers(bb, WHITE, lsb(targets), occ):
            return False
        targets &= targets - np.uint64(1)
    return True


@njit(cache=True)
def checkers_mask(bb, st):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return EMPTY
    if v == ATOMIC and kings_connected(bb):
        return EMPTY
    us = st[TURN]
    k = king_square(bb, us)
    if k < 0:
        return EMPTY
    return attackers(bb, 1 - us, k, bb[OCC] | bb[OCC + 1])


@njit(cache=True)
def attacked_for_king(bb, st, path, occ):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return False
    them = 1 - st[TURN]
    if v == ATOMIC:
        # Squares next to the enemy king are safe: it cannot capture there.
        ek = bb[KING - 1] & bb[OCC + them]
        while ek:
            path &= ~KING_ATTACKS[lsb(ek)]
            ek &= ek - np.uint64(1)
    while path:
        if attackers(bb, them, lsb(path), occ):
            return True
        path &= path - np.uint64(1)
    return False
