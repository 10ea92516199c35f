"""Bitboard primitives and precomputed attack tables.

Squares are numbered like python-chess: a1 = 0, b1 = 1, ..., h8 = 63. Every table is a
module-level NumPy array, which numba freezes into the compiled code as a constant.
All bitboard arithmetic stays in ``np.uint64``: mixing it with signed integers makes
numba promote to float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe import numbers as _numbers
from numba.extending import intrinsic as _intrinsic

# Before any function here is defined: every compiled module of variants/ and search/
# imports this one first, so numba's cache stamps are the project's (see jitcache.py).
from . import jitcache  # noqa: F401

# numba intrinsics take a typing context first, which compiled callers never pass: typed
# as Any, so that type checkers read the compiled calls as they run.
intrinsic: Any = _intrinsic
leading_zeros: Any = _numbers.leading_zeros
trailing_zeros: Any = _numbers.trailing_zeros

U64 = np.uint64
EMPTY = U64(0)
ONE = U64(1)

BB_LIGHT = U64(0x55AA55AA55AA55AA)
BB_DARK = U64(0xAA55AA55AA55AA55)
BB_RANK_1 = U64(0xFF)
BB_RANK_8 = U64(0xFF) << U64(56)
BB_BACKRANKS = BB_RANK_1 | BB_RANK_8
#: Every square but the a-file (h-file): what a shift toward the h-file (a-file) may
#: leave set without wrapping round the board's edge.
NOT_FILE_A = U64(0xFEFEFEFEFEFEFEFE)
NOT_FILE_H = U64(0x7F7F7F7F7F7F7F7F)
_S7, _S9 = U64(7), U64(9)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ``ctpop``)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen


@njit(cache=True)
def lsb(b):
    """Index of the lowest set bit; ``b`` must be non-zero."""
    return np.int64(trailing_zeros(b))


@njit(cache=True)
def msb(b):
    """Index of the highest set bit; ``b`` must be non-zero."""
    return np.int64(63 - leading_zeros(b))


def _sq_bb(sq: int) -> int:
    return 1 << sq


def _step_table(deltas: list[tuple[int, int]]) -> np.ndarray:
    table = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        b = 0
        for df, dr in deltas:
            nf, nr = f + df, r + dr
            if 0 <= nf < 8 and 0 <= nr < 8:
                b |= _sq_bb(nr * 8 + nf)
        table[sq] = b
    return table


KNIGHT_ATTACKS = _step_table([(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
KING_ATTACKS = _step_table([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])
# PAWN_ATTACKS[color, sq]: squares a pawn of `color` on `sq` attacks (0 = white, 1 = black).
PAWN_ATTACKS = np.stack([_step_table([(-1, 1), (1, 1)]), _step_table([(-1, -1), (1, -1)])])

# Ray directions: the first four increase the square index (blocker found by lsb),
# the last four decrease it (blocker found by msb).
_DIRS = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)]
RAYS = np.zeros((8, 64), dtype=np.uint64)
for _d, (_df, _dr) in enumerate(_DIRS):
    for _sq in range(64):
        _f, _r, _b = _sq % 8, _sq // 8, 0
        while True:
            _f, _r = _f + _df, _r + _dr
            if not (0 <= _f < 8 and 0 <= _r < 8):
                break
            _b |= _sq_bb(_r * 8 + _f)
        RAYS[_d, _sq] = _b

# BETWEEN[a, b]: squares strictly between two aligned squares; LINE[a, b]: the whole
# line through them (both ends included); both empty when a and b are not aligned.
BETWEEN = np.zeros((64, 64), dtype=np.uint64)
LINE = np.zeros((64, 64), dtype=np.uint64)
for _a in range(64):
    for _d in range(8):
        _ray = int(RAYS[_d, _a])
        _opp = (_d + 4) % 8
        for _bsq in range(64):
            if _ray >> _bsq & 1:
                BETWEEN[_a, _bsq] = _ray & ~int(RAYS[_d, _bsq]) & ~_sq_bb(_bsq)
                LINE[_a, _bsq] = _ray | int(RAYS[_opp, _a]) | _sq_bb(_a)


@njit(cache=True)
def pawn_attack_set(pawns, c):
    """The squares the pawns ``pawns`` of colour ``c`` (0 White) attack, all at once (the
    union of their PAWN_ATTACKS)."""
    if c == 0:
        return ((pawns << _S7) & NOT_FILE_H) | ((pawns << _S9) & NOT_FILE_A)
    return ((pawns >> _S9) & NOT_FILE_H) | ((pawns >> _S7) & NOT_FILE_A)


@njit(cache=True)
def _ray_attacks(sq, occ, d, positive):
    ray = RAYS[d, sq]
    blockers = ray & occ
    if blockers:
        if positive:
            ray ^= RAYS[d, lsb(blockers)]
        else:
            ray ^= RAYS[d, msb(blockers)]
    return ray


@njit(cache=True)
def rook_attacks(sq, occ):
    return (_ray_attacks(sq, occ, 0, True) | _ray_attacks(sq, occ, 1, True)
            | _ray_attacks(sq, occ, 4, False) | _ray_attacks(sq, occ, 5, False))


@njit(cache=True)
def bishop_attacks(sq, occ):
    return (_ray_attacks(sq, occ, 2, True) | _ray_attacks(sq, occ, 3, True)
            | _ray_attacks(sq, occ, 6, False) | _ray_attacks(sq, occ, 7, False))
