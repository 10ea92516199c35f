"""perft: the leaves of the legal move tree, bulk-counted at the last ply."""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import MAX_MOVES, NBB, NST
from .make import copy_make
from .movegen import gen_legal
from .nrt import unmanaged

# ---------------------------------------------------------------------------------------
# Perft
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _perft(bbs, sts, moves, depth):
    """Leaves below row 0, depth >= 1. Iterative: numba's cache cannot load recursion."""
    bbs, sts, moves = unmanaged(bbs), unmanaged(sts), unmanaged(moves)
    n0 = gen_legal(bbs[0], sts[0], moves[0], bbs[1], sts[1])
    if depth == 1:
        return np.int64(n0)
    nmoves = np.zeros(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    nmoves[0] = n0
    total = np.int64(0)
    ply = 0
    while ply >= 0:
        if idx[ply] >= nmoves[ply]:
            ply -= 1
            continue
        m = moves[ply, idx[ply]]
        idx[ply] += 1
        child = ply + 1
        copy_make(bbs[ply], sts[ply], bbs[child], sts[child], m)
        if child == depth - 1:
            total += gen_legal(bbs[child], sts[child], moves[child], bbs[child + 1], sts[child + 1])
        else:
            ply = child
            nmoves[ply] = gen_legal(bbs[ply], sts[ply], moves[ply], bbs[ply + 1], sts[ply + 1])
            idx[ply] = 0
    return total


@njit(cache=True)
def perft_divide(bb, st, depth):
    """Leaf counts below each legal root move (bulk counting at depth 1)."""
    bbs = np.zeros((depth + 2, NBB), dtype=np.uint64)
    sts = np.zeros((depth + 2, NST), dtype=np.int64)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    bbs[0] = bb
    sts[0] = st
    n = gen_legal(bbs[0], sts[0], moves[0], bbs[1], sts[1])
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if depth > 1:
            copy_make(bbs[0], sts[0], bbs[1], sts[1], moves[0, i])
            counts[i] = _perft(bbs[1:], sts[1:], moves[1:], depth - 1)
        else:
            counts[i] = 1
    return moves[0, :n].copy(), counts


@njit(cache=True)
def perft(bb, st, depth):
    if depth <= 0:
        return np.int64(1)
    bbs = np.zeros((depth + 2, NBB), dtype=np.uint64)
    sts = np.zeros((depth + 2, NST), dtype=np.int64)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    bbs[0] = bb
    sts[0] = st
    return _perft(bbs, sts, moves, depth)
