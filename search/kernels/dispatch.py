"""The one dispatch over a layout's leaf blocks, and the evaluation with all its blocks.

A layout hands the compiled code its leaf blocks as the int64 rows of
:attr:`search.evaluation.layout.FeatureLayout.table` (kernel code, offset, size, attack
extent). The attack maps the blocks read are computed once per node
(:func:`search.kernels.attacks.attack_context`), and each row is sent to its kernel by
its code: each kernel module (its ``CODE``, its block's number) has its line in
:func:`_kernel` or, if it reads the attack maps, :func:`_attack_kernel` (the maps are
two dozen words: passed to those alone, they cost nothing at the other calls). A block
without a kernel (code 0) is computed from its Python reference, outside the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import spec
from variants.board import VARIANT

from ..evaluation.classic import incremental_size
from ..evaluation.layout import FeatureLayout
from . import (
    atomic,
    chains,
    checks,
    drops,
    handcount,
    hill,
    kingrel,
    mobility,
    race,
    safety,
    sjeng,
)
from .attacks import attack_context, context_extent
from .classic import evaluate, features


@njit(cache=True)
def _kernel(code, bb, st, w, out, at):
    """The kernel of the leaf block with ``code`` that reads no attack maps, at offset
    ``at``: adds its features to ``out``, or, with an empty ``out``, returns its score."""
    if code == checks.CODE:
        return checks.checks(bb, st, w, out, at)
    if code == hill.CODE:
        return hill.hill(bb, st, w, out, at)
    if code == race.CODE:
        return race.race(bb, st, w, out, at)
    if code == handcount.CODE:
        return handcount.handcount(bb, st, w, out, at)
    if code == kingrel.CODE:
        return kingrel.kingrel(bb, st, w, out, at)
    if code == chains.CODE:
        return chains.chains(bb, st, w, out, at)
    if code == sjeng.CODE:
        return sjeng.sjeng(bb, st, w, out, at)
    return 0.0


@njit(cache=True)
def _attack_kernel(code, bb, st, w, out, at, ctx):
    """As :func:`_kernel`, for the blocks that read the node's attack maps ``ctx``."""
    if code == mobility.CODE:
        return mobility.mobility(bb, st, w, out, at, ctx)
    if code == safety.CODE:
        return safety.safety(bb, st, w, out, at, ctx)
    if code == drops.CODE:
        return drops.drops(bb, st, w, out, at, ctx)
    if code == atomic.CODE:
        return atomic.atomic(bb, st, w, out, at, ctx)
    return 0.0


@njit(cache=True)
def leaf_features(bb, st, table, out):
    """Write the features of the layout's leaf blocks (``table`` rows) into ``out`` (the
    whole feature vector)."""
    ctx = attack_context(bb, context_extent(table))
    for k in range(table.shape[0]):
        code, at, size = table[k, 0], table[k, 1], table[k, 2]
        out[at:at + size] = 0.0
        if table[k, 3]:
            _attack_kernel(code, bb, st, out, out, at, ctx)
        elif code:
            _kernel(code, bb, st, out, out, at)


@njit(cache=True)
def leaf_score(bb, st, w, table):
    """The leaf blocks' share of the evaluation (White's view): ``w . x`` over them (what
    the search adds at every node it evaluates)."""
    s = 0.0
    scoring = w[:0]             # an empty view: the kernels return w . x, nothing written
    ctx = attack_context(bb, context_extent(table))
    for k in range(table.shape[0]):
        code = table[k, 0]
        if table[k, 3]:
            s += _attack_kernel(code, bb, st, w, scoring, table[k, 1], ctx)
        elif code:
            s += _kernel(code, bb, st, w, scoring, table[k, 1])
    return s


@njit(cache=True)
def evaluate_layout(bb, st, w, table):
    """Full evaluation with every block of a layout: the classic blocks at their fixed
    offsets (:func:`search.kernels.classic.evaluate`) plus the leaf blocks of ``table``."""
    return evaluate(bb, st, w) + leaf_score(bb, st, w, table)


def feature_vector(bb: np.ndarray, st: np.ndarray,
                   layout: FeatureLayout | None = None) -> np.ndarray:
    """The dense feature vector of a position (White's point of view), of
    ``layout.size`` entries (default: the classic blocks, 396 entries, or 786 where the
    colours have separate values: :func:`search.evaluation.classic.incremental_size`)."""
    if layout is None:
        out = np.zeros(incremental_size(spec.by_code(int(st[VARIANT])).name))
        features(bb, st, out)
        return out
    out = np.zeros(layout.size, dtype=np.float64)
    features(bb, st, out[:layout.leaf_start])
    if layout.size == layout.leaf_start:
        return out
    leaf_features(bb, st, layout.table, out)
    for b in layout.blocks:
        if b.evaluation == "leaf" and not b.code:
            if b.reference is None:
                raise ValueError(f"block {b.name!r} has neither a compiled kernel nor a reference")
            out[layout.span(b.name)] = b.reference(bb, st)
    return out


def sparse_features(bb: np.ndarray, st: np.ndarray,
                    layout: FeatureLayout | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(indices, values) of the non-zero features of a position."""
    x = feature_vector(bb, st, layout)
    idx = np.flatnonzero(x)
    return idx, x[idx]
