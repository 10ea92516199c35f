"""Kernel of the ``checks`` block (:mod:`search.evaluation.blocks.checks`)."""

from __future__ import annotations

from numba import njit

from variants.board import CHECKS

from ..evaluation.blocks.checks import BLOCK
from .base import put

#: Its number in the dispatch (its description's).
CODE = BLOCK.code


@njit(cache=True)
def checks(bb, st, w, out, at):
    """Feature k (k = 1, 2) = [White has given at least k checks] - [Black has];
    three-check keeps the checks still to give in ``st[CHECKS + colour]``."""
    s = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        given = 3 - st[CHECKS + c]
        for k in range(1, 3):
            if given >= k:
                s += put(w, out, at + k - 1, sign)
    return s
