"""Kernel of the ``kingrel`` block (:mod:`search.evaluation.blocks.kingrel`): the pieces
within 3 squares of each king, by type, distance and direction."""

from __future__ import annotations

import numpy as np
from numba import njit

from variants.bits import ONE, lsb
from variants.board import KING, OCC, VARIANT, king_square

from ..evaluation.blocks.kingrel import BLOCK, PER_KING, PER_TYPE, WAYS
from .base import BLACK_VIEW, put


def _tables() -> tuple[np.ndarray, np.ndarray]:
    """``NEAR[k]``: the squares within Chebyshev distance 1..3 of ``k``; ``REL[k, sq]``:
    the entry of a piece on ``sq`` within a block row, ``3 * (distance - 1) + way`` (way
    0 ahead, 1 level, 2 behind: the sign of sq's rank minus k's, White's frame), -1
    beyond distance 3 (or on k). int16: 8 KB, not 32, which the search's other tables
    leave room for in the CPU's cache (measured: 4-5% of the nodes a second)."""
    near = np.zeros(64, dtype=np.uint64)
    rel = np.full((64, 64), -1, dtype=np.int16)
    for k in range(64):
        for sq in range(64):
            up = (sq >> 3) - (k >> 3)
            d = max(abs(up), abs((sq & 7) - (k & 7)))
            if 1 <= d <= 3:
                near[k] |= np.uint64(1 << sq)
                rel[k, sq] = len(WAYS) * (d - 1) + (0 if up > 0 else 1 if up == 0 else 2)
    return near, rel


NEAR, REL = _tables()

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def kingrel(bb, st, w, out, at):
    """Per king (``king_square``) and per piece other than a king within 3 squares of it, +1 (white)
    or -1 (black) on its own/enemy, type, distance and direction entry. A black piece
    reads ``REL`` with both squares xor'ed by the variant's black-square xor (56: its
    frame is upside down; 7, racing kings: distance and ranks unchanged)."""
    flip = BLACK_VIEW[st[VARIANT], 2]
    others = ~bb[KING - 1]
    s = 0.0
    for kc in range(2):
        k = king_square(bb, kc)
        if k < 0:
            continue
        near = NEAR[k] & others
        for c in range(2):
            b = near & bb[OCC + c]
            if not b:
                continue
            x = 0 if c == 0 else flip
            kx = k ^ x
            sign = 1.0 if c == 0 else -1.0
            base = at + (0 if c == kc else PER_KING) - PER_TYPE
            while b:
                sq = lsb(b)
                b &= b - ONE
                s += put(w, out, base + PER_TYPE * st[sq] + REL[kx, sq ^ x], sign)
    return s
