"""The linear evaluation ``sum_f w_f * f(x)`` in numba, from White's point of view.

One definition of the features serves three uses: the full evaluation, the
incremental update the search applies after each move (the difference of the piece
bitboards and pockets before and after it, which covers captures, promotions, castling,
drops and atomic explosions alike), and the feature vector that learning needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import core, spec
from variants.bits import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    lsb,
    rook_attacks,
)

from .layout import (
    ATOMIC_CODE,
    CHAINS_CODE,
    CHECKS_CODE,
    DROPS_CODE,
    HAND,
    HANDCOUNT_CODE,
    HILL_CODE,
    KINGREL_CODE,
    MATERIAL,
    MOBILITY_CODE,
    PSQ,
    RACE_CODE,
    SAFETY_CODE,
    FeatureLayout,
    black_view,
    incremental_size,
)

#: Per rules code (``st[core.VARIANT]``): where Black's pieces read their weights,
#: (material offset, table offset, square xor) of :func:`search.layout.black_view`,
#: from the variant's spec (its ``mirror``). Frozen into the compiled code as constants.
_BLACK = np.array([black_view(spec.by_code(c).name)
                   for c in range(1 + max(v.code for v in spec.SPECS.values()))], dtype=np.int64)
#: Per rules code: the weights (and features) the classic blocks need, Black's included.
_CLASSIC_END = np.array([int(_BLACK[c, 1]) + 6 * 64 for c in range(_BLACK.shape[0])],
                        dtype=np.int64)


@njit(cache=True)
def _piece_weight(w, t, c, sq, mat, tab, xor):
    """Contribution of one piece of type t (1..6), colour c, on sq, that reads its
    material at ``mat`` and its table at ``tab`` indexed by ``sq ^ xor``."""
    x = w[mat + t - 1] + w[tab + 64 * (t - 1) + (sq ^ xor)]
    return x if c == 0 else -x


@njit(cache=True)
def evaluate(bb, st, w):
    """Full evaluation, White's point of view (``w`` must hold the variant's classic
    blocks, Black's own included where the colours differ: ValueError otherwise)."""
    v = st[core.VARIANT]
    if w.shape[0] < _CLASSIC_END[v]:
        raise ValueError("evaluate: the weights lack this variant's classic blocks")
    s = 0.0
    for c in range(2):
        # White reads material and tables as they are; Black as its variant mirrors them.
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                s += _piece_weight(w, t, c, lsb(b), mat, tab, xor)
                b &= b - np.uint64(1)
    if st[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            s += w[HAND + t - 1] * (st[core.POCKET + t] - st[core.POCKET + 6 + t])
    return s


@njit(cache=True)
def evaluate_delta(pbb, pst, cbb, cst, w):
    """Evaluation of the child minus that of the parent (any move of any variant)."""
    v = cst[core.VARIANT]
    s = 0.0
    for c in range(2):
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            before = pbb[t - 1] & pbb[core.OCC + c]
            after = cbb[t - 1] & cbb[core.OCC + c]
            gone = before & ~after
            while gone:
                s -= _piece_weight(w, t, c, lsb(gone), mat, tab, xor)
                gone &= gone - np.uint64(1)
            new = after & ~before
            while new:
                s += _piece_weight(w, t, c, lsb(new), mat, tab, xor)
                new &= new - np.uint64(1)
    if cst[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            d = (cst[core.POCKET + t] - pst[core.POCKET + t]) - (cst[core.POCKET + 6 + t] - pst[core.POCKET + 6 + t])
            if d:
                s += w[HAND + t - 1] * d
    return s


@njit(cache=True)
def features(bb, st, out):
    """Write the classic blocks' features of a position into ``out``: its first
    BASE_SIZE entries, or, where the colours have separate values, the
    ``incremental_size`` entries that hold Black's own blocks too (ValueError if
    ``out`` is shorter)."""
    v = st[core.VARIANT]
    if out.shape[0] < _CLASSIC_END[v]:
        raise ValueError("features: out is shorter than this variant's classic blocks")
    out[:] = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        mat, tab, xor = (MATERIAL, PSQ, 0) if c == 0 else (_BLACK[v, 0], _BLACK[v, 1], _BLACK[v, 2])
        for t in range(1, 7):
            b = bb[t - 1] & bb[core.OCC + c]
            while b:
                sq = lsb(b)
                b &= b - np.uint64(1)
                out[mat + t - 1] += sign
                out[tab + 64 * (t - 1) + (sq ^ xor)] += sign
    if st[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(1, 6):
            out[HAND + t - 1] = st[core.POCKET + t] - st[core.POCKET + 6 + t]


# -- blocks after the classic ones (search.layout.FeatureLayout.table) --------------------

@njit(cache=True)
def piece_attacks(t, c, sq, occ):
    """The squares a piece of type t (1..6) and colour c on sq attacks, given the
    occupied squares ``occ`` (a pawn: its two capture squares)."""
    if t == core.PAWN:
        return PAWN_ATTACKS[c, sq]
    if t == core.KNIGHT:
        return KNIGHT_ATTACKS[sq]
    if t == core.BISHOP:
        return bishop_attacks(sq, occ)
    if t == core.ROOK:
        return rook_attacks(sq, occ)
    if t == core.QUEEN:
        return bishop_attacks(sq, occ) | rook_attacks(sq, occ)
    return KING_ATTACKS[sq]


@njit(cache=True)
def _put(w, out, i, x):
    """Feature ``i`` of a leaf block has value ``x``: added to ``out[i]`` when ``out`` is
    the feature vector; with an empty ``out`` (scoring), returns ``w[i] * x`` instead, so
    one kernel serves the features and the search's score without allocating."""
    if out.shape[0]:
        out[i] += x
        return 0.0
    return w[i] * x


@njit(cache=True)
def _mobility(w, out, at, ctx):
    """The ``mobility`` block (search.layout.MOBILITY_BLOCK): per piece type, the squares
    its pieces attack that their own side does not occupy, White's minus Black's (the
    counts of the node's attack context, :mod:`search.attack_kernels`)."""
    s = 0.0
    for c in range(2):
        sign = 1.0 if c == 0 else -1.0
        counts = ctx[1][c]
        for t in range(6):
            s += _put(w, out, at + t, sign * counts[t])
    return s


@njit(cache=True)
def _block_kernel(code, bb, st, w, out, at):
    """The leaf block with kernel ``code``, at offset ``at``: adds its features to
    ``out``, or, with an empty ``out``, returns its score (see :func:`_put`). A block
    with a compiled kernel gets its branch here (``if code == K: ...``, K from
    search.layout), or in :func:`_attack_block` if it reads the node's attack maps; code
    0 has none (its features come from its Python reference, outside the search)."""
    if code == CHECKS_CODE:
        return goal_kernels.checks(st, w, out, at)
    if code == HILL_CODE:
        return goal_kernels.hill(bb, w, out, at)
    if code == RACE_CODE:
        return goal_kernels.race(bb, w, out, at)
    if code == HANDCOUNT_CODE:
        return hand_kernels.handcount(bb, st, w, out, at)
    if code == KINGREL_CODE:
        return kingrel_kernels.kingrel(bb, st, w, out, at)
    if code == CHAINS_CODE:
        return chain_kernels.chains(bb, st, w, out, at)
    return 0.0


@njit(cache=True)
def _attack_block(code, bb, st, w, out, at, ctx):
    """As :func:`_block_kernel`, for the blocks that read the node's attack maps ``ctx``
    (:func:`search.attack_kernels.attack_context`; passed to these alone: the maps are
    two dozen words, a cost at every call)."""
    if code == MOBILITY_CODE:
        return _mobility(w, out, at, ctx)
    if code == SAFETY_CODE:
        return safety_kernels.safety(bb, st, w, out, at, ctx)
    if code == DROPS_CODE:
        return safety_kernels.drops(bb, st, w, out, at, ctx)
    if code == ATOMIC_CODE:
        return atomic_kernels.atomic(bb, st, w, out, at, ctx)
    return 0.0


@njit(cache=True)
def leaf_features(bb, st, table, out):
    """Write the features of the layout's leaf blocks (``table`` rows: code, offset,
    size) into ``out`` (the whole feature vector)."""
    ctx = attack_kernels.attack_context(bb, attack_kernels.context_extent(table))
    for k in range(table.shape[0]):
        code, at, size = table[k, 0], table[k, 1], table[k, 2]
        out[at:at + size] = 0.0
        if attack_kernels.reads_attacks(code):
            _attack_block(code, bb, st, out, out, at, ctx)
        elif code:
            _block_kernel(code, bb, st, out, out, at)


@njit(cache=True)
def leaf_score(bb, st, w, table):
    """The leaf blocks' share of the evaluation (White's view): ``w . x`` over them (what
    the search adds at every node it evaluates)."""
    s = 0.0
    scoring = w[:0]             # an empty view: the kernels return w . x, nothing written
    ctx = attack_kernels.attack_context(bb, attack_kernels.context_extent(table))
    for k in range(table.shape[0]):
        code = table[k, 0]
        if attack_kernels.reads_attacks(code):
            s += _attack_block(code, bb, st, w, scoring, table[k, 1], ctx)
        elif code:
            s += _block_kernel(code, bb, st, w, scoring, table[k, 1])
    return s


@njit(cache=True)
def evaluate_layout(bb, st, w, table):
    """Full evaluation with every block of a layout: the classic blocks at their fixed
    offsets (:func:`evaluate`) plus the leaf blocks of ``table``."""
    return evaluate(bb, st, w) + leaf_score(bb, st, w, table)


def feature_vector(bb: np.ndarray, st: np.ndarray,
                   layout: FeatureLayout | None = None) -> np.ndarray:
    """The dense feature vector of a position (White's point of view), of
    ``layout.size`` entries (default: the classic blocks, 396 entries, or 786 where the
    colours have separate values: :func:`search.layout.incremental_size`)."""
    if layout is None:
        out = np.zeros(incremental_size(spec.by_code(int(st[core.VARIANT])).name))
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


# The leaf blocks' kernels call _put and piece_attacks above: imported last, as modules
# (their kernels are looked up when _block_kernel compiles).
from . import (
    atomic_kernels,
    attack_kernels,
    chain_kernels,
    goal_kernels,
    hand_kernels,
    kingrel_kernels,
    safety_kernels,
)
