"""Negamax alpha-beta (PVS) with quiescence, transposition table and move ordering.

Everything here is numba. The search works on per-ply rows of position arrays
(copy-make: row ``ply + 1`` is the child), keeps the evaluation of every row up to date
with :func:`search.evaluate.evaluate_delta` (the classic blocks), adds the feature
layout's leaf blocks where it evaluates a node (:func:`node_eval`, from the int64
``table`` of :attr:`search.layout.FeatureLayout.table`; None for the classic layouts,
where nothing is added), and writes a triangular principal
variation that runs through the quiescence search, so the PV ends at the very
position whose evaluation is the score (the leaf TDLeaf learns from).

Scores are floats in pawns from the side to move's point of view; a won game is
``MATE - ply``. Arrays shared by the whole search live in :class:`SearchState` (Python);
the control vector ``ctl`` carries counters, limits and the stop flag, which another
thread may set while the search runs without the GIL.

For the bootstrapping learners (TreeStrap, RootStrap: :mod:`tdleaf.learn.bootstrap`) the
search can record, with ``ctl[C_COLLECT]`` set, every interior node whose value it
established (and, on request, the quiescence nodes whose moves changed their value;
:func:`_collect`): its sparse features, its value and whether that value
is exact or a bound, into rows kept in the tail of ``evals`` (a seeded reservoir sample
when they are full). The tail, not more arguments: every argument of the recursion costs
time at every node, and off, the same compiled code runs and only tests the flag.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import core
from variants.bits import KING_ATTACKS, lsb, popcount
from variants.nrt import unmanaged

from .evaluate import evaluate_delta, features, leaf_features, leaf_score
from .see import see

MAXPLY = 120
MATE = 100000.0
MATE_BOUND = MATE - 1000.0
INF = 1.0e9
NULL_EPS = 1.0e-7   # width of a null window

# ctl indices. C_ROOT_N: when > 0, the root searches only the first C_ROOT_N moves of
# ``root_only`` (searchmoves, and MultiPV's lines after the first: the moves not yet
# taken by an earlier line); 0 searches every legal move.
C_NODES, C_MAX_NODES, C_STOP, C_HIST_LEN, C_QLIMIT, C_SELDEPTH, C_NOISE_SEED, C_RNG = 0, 1, 2, 3, 4, 5, 6, 7
# C_FLAGS: the selective techniques in use (0: the plain full-width search).
# C_NULL_PLY: 1 + the ply of the position after the latest null move on the current line
# (0: none); repetitions are not looked for across it.
# C_ROOT_DEPTH: the iteration's nominal depth (bounds check extensions).
C_ROOT_N = 8
C_FLAGS, C_NULL_PLY, C_ROOT_DEPTH = 9, 10, 11
# Node collection (see _collect). C_COLLECT: 1 to record the interior nodes, 2 also the
# quiescence nodes whose moves changed their value (COLLECT_QUIESCENCE); C_SEEN: the non-root nodes
# offered to the reservoir; C_STORED: the rows filled; C_COL_RNG: the reservoir's random
# counter; C_REDUCED: the ply of the child being searched at an LMR-reduced depth (0:
# none), whose value is not recorded; C_OVERFLOW: nodes dropped for having more non-zero
# features than a row holds; C_NFEAT: the layout's size; C_COL_K: the features a row
# holds; C_COL_ROWS: the reservoir's rows (the root's row follows them).
C_COLLECT, C_SEEN, C_STORED, C_COL_RNG, C_REDUCED, C_OVERFLOW = 12, 13, 14, 15, 16, 17
C_NFEAT, C_COL_K, C_COL_ROWS = 18, 19, 20
# The futility and razoring margins, thousandths of a pawn per ply of depth (the
# evaluation's own: search.engine.search_margins).
C_FUTILITY, C_RAZOR = 21, 22
N_CTL = 23
MARGIN_UNIT = 0.001
COLLECT_INTERIOR, COLLECT_QUIESCENCE = 1, 2

# Selective techniques (bits of ctl[C_FLAGS]); each is measured on its own (BENCHMARKS.md).
F_NULL_MOVE = 1          # null-move pruning (not in suicide/giveaway: zugzwang is the rule)
F_LMR = 2                # late-move reductions of quiet moves
F_CHECK_EXT = 4          # check extensions (chess, atomic)
F_FUTILITY = 8           # futility pruning of quiet moves near the leaves
F_REVERSE_FUTILITY = 16  # static null move: eval far above beta near the leaves
F_RAZOR = 32             # razoring: eval far below alpha near the leaves -> quiescence
F_QSEE = 64              # quiescence skips captures that lose material (SEE < 0)
F_SUICIDE_QBOUND = 128   # suicide/giveaway quiescence: only the best captures deep down
F_SEE_ORDER = 256        # captures losing material by SEE are tried after quiet moves
SELECTIVE = (F_NULL_MOVE | F_LMR | F_CHECK_EXT | F_FUTILITY | F_REVERSE_FUTILITY | F_RAZOR
             | F_QSEE | F_SUICIDE_QBOUND | F_SEE_ORDER)

# TT flags (also the kinds of the collected nodes' values)
TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3

# ``evals`` holds the evaluation of each ply's row in its first EVALS entries; when
# collecting, its tail holds a dense feature row (C_NFEAT entries), then the collected
# rows (C_COL_ROWS for the reservoir, then the root's), each of row_width(C_COL_K)
# entries: the node's value (White's view, pawns, mates unclipped), its kind (TT_EXACT,
# TT_LOWER, TT_UPPER, White's view; 0: empty), ply, depth, the number of non-zero
# features, then K feature indices and their K values.
EVALS = MAXPLY + 4
R_VALUE, R_KIND, R_PLY, R_DEPTH, R_NNZ, R_FEAT = 0, 1, 2, 3, 4, 5


def row_width(k: int) -> int:
    """Entries of a collected row holding up to ``k`` non-zero features."""
    return R_FEAT + 2 * k

_ORDER_VALUE = np.array([0, 1, 3, 3, 5, 9, 20], dtype=np.int64)

# Late-move reductions in plies by (depth, move number), the usual log-log shape.
_LMR = np.zeros((64, 64), dtype=np.int64)
for _d in range(1, 64):
    for _i in range(1, 64):
        _LMR[_d, _i] = int(0.5 + np.log(_d) * np.log(_i) / 2.0)
# Suicide/giveaway quiescence: from this many capture plies on, only the best few
# captures (by ordering) are tried.
_SUICIDE_QDEEP = 4
_SUICIDE_QWIDTH = 3
_HASH_BONUS = np.int64(1) << np.int64(50)
_CAPTURE_BONUS = np.int64(1) << np.int64(40)
_KILLER_BONUS = np.int64(1) << np.int64(39)
_BAD_CAPTURE = -(np.int64(1) << np.int64(40))


@njit(cache=True)
def _mix(x):
    """splitmix64 finaliser: a well-spread 64-bit hash of x."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def static_eval(bb, st, e, noise, seed):
    """Evaluation ``e`` (White's view) for the side to move, with seeded noise.

    The noise is a deterministic function of the position and the seed, so a
    transposition always gets the same value (the TT stays consistent).
    """
    if noise > 0.0:
        u = (_mix(bb[core.HASH] ^ np.uint64(seed)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        e = e * (1.0 + noise * (2.0 * u - 1.0))
    return e if st[core.TURN] == core.WHITE else -e


@njit(cache=True)
def node_eval(bb, st, e, w, table):
    """The evaluation of a node (White's view, no noise): ``e``, its incremental classic
    part, plus the layout's leaf blocks (``table``: rows of code, offset, size; see
    :attr:`search.layout.FeatureLayout.table`), computed here from the whole position.
    ``table`` is None without leaf blocks: numba then compiles the search without their
    code (even an unused branch to it cost a few per cent of the nodes per second)."""
    if table is None:
        return e
    return e + leaf_score(bb, st, w, table)


@njit(cache=True)
def _unmanaged_table(table):
    """``table`` without reference counting (see search_root), or None for None."""
    if table is None:
        return table
    return unmanaged(table)


@njit(cache=True)
def terminal_score(bb, st, ply):
    """Score of a position without legal moves (or whose game the variant has ended)."""
    v = st[core.VARIANT]
    us = st[core.TURN]
    them = 1 - us
    win = MATE - ply
    if v == core.SUICIDE or v == core.GIVEAWAY:
        own = bb[core.OCC + us]
        theirs = bb[core.OCC + them]
        if not own:
            return win
        if not theirs:
            return 0.0
        if v == core.GIVEAWAY:
            return win
        bal = popcount(own) - popcount(theirs)
        if bal > 0:
            return -win
        if bal < 0:
            return win
        return 0.0
    if v == core.ATOMIC:
        kings = bb[core.KING - 1]
        if kings:
            if not kings & bb[core.OCC + us]:
                return -win
            if not kings & bb[core.OCC + them]:
                return win
    if v == core.KOTH or v == core.THREECHECK or v == core.RACING or v == core.HORDE:
        # The hill, the third check, the race or the horde may have ended the game.
        term, winner = core.variant_result(bb, st)
        if term == core.T_VARIANT_DRAW:
            return 0.0
        if term != core.T_NONE:
            return win if winner == us else -win
    if core.checkers_mask(bb, st):
        return -win
    return 0.0


@njit(cache=True)
def _capture_gain(bb, st, m):
    """Ordering value of a capture: MVV-LVA, or the whole blast in atomic."""
    frm = core.m_from(m)
    to = core.m_to(m)
    victim = core.PAWN if core.m_flags(m) & core.F_EP else st[to]
    attacker = st[frm]
    if st[core.VARIANT] != core.ATOMIC:
        return _ORDER_VALUE[victim] * 16 - _ORDER_VALUE[attacker]
    us = st[core.TURN]
    gain = (_ORDER_VALUE[victim] - _ORDER_VALUE[attacker]) * 16
    blast = KING_ATTACKS[to] & ~bb[core.PAWN - 1] & ~core.SQ[frm]
    while blast:
        s = lsb(blast)
        blast &= blast - np.uint64(1)
        t = st[s]
        if t == 0:
            continue
        if bb[core.OCC + us] & core.SQ[s]:
            gain -= _ORDER_VALUE[t] * 16
        else:
            gain += (1000 if t == core.KING else _ORDER_VALUE[t]) * 16
    return gain


@njit(cache=True)
def score_moves(bb, st, moves, n, out, hash_move, killers, history, see_order):
    """Ordering scores: the hash move, captures and promotions (MVV-LVA, or the blast in
    atomic), killers, then quiet moves by history. With ``see_order``, captures that lose
    material by static exchange go after every quiet move."""
    us = st[core.TURN]
    for i in range(n):
        m = moves[i]
        if m == hash_move:
            out[i] = _HASH_BONUS
        elif core.is_tactical(st, m):
            s = _CAPTURE_BONUS
            capture = st[core.m_to(m)] != 0 or core.m_flags(m) & core.F_EP
            if capture:
                s += _capture_gain(bb, st, m)
            s += _ORDER_VALUE[core.m_piece(m)] * 16
            if see_order and capture and see(bb, st, m) < 0:
                s = _BAD_CAPTURE + _capture_gain(bb, st, m)
            out[i] = s
        elif m == killers[0]:
            out[i] = _KILLER_BONUS + 1
        elif m == killers[1]:
            out[i] = _KILLER_BONUS
        else:
            out[i] = history[us, history_index(m)]


@njit(cache=True)
def history_index(m):
    if core.m_flags(m) & core.F_DROP:
        return 4096 + core.m_piece(m) * 64 + core.m_to(m)
    return core.m_from(m) * 64 + core.m_to(m)


@njit(cache=True)
def pick(moves, scores, i, n):
    """Move the best-scored remaining move to position i (lazy selection sort)."""
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        scores[i], scores[best] = scores[best], scores[i]
    return moves[i]


@njit(cache=True)
def tt_to_score(s, ply):
    """A stored score as seen at ``ply`` (mates are stored as distance from the node)."""
    if s > MATE_BOUND:
        return s - ply
    if s < -MATE_BOUND:
        return s + ply
    return s


@njit(cache=True)
def score_to_tt(s, ply):
    if s > MATE_BOUND:
        return s + ply
    if s < -MATE_BOUND:
        return s - ply
    return s


@njit(cache=True)
def _poll(ctl):
    ctl[C_NODES] += 1
    if (ctl[C_NODES] & 1023) == 0 and ctl[C_MAX_NODES] > 0 and ctl[C_NODES] >= ctl[C_MAX_NODES]:
        ctl[C_STOP] = 1
    return ctl[C_STOP] != 0


@njit(cache=True)
def _update_pv(pv, pvlen, ply, m):
    pv[ply, ply] = m
    for j in range(ply + 1, pvlen[ply + 1]):
        pv[ply, j] = pv[ply + 1, j]
    pvlen[ply] = max(pvlen[ply + 1], ply + 1)


@njit(cache=True)
def _collect(bb, st, ply, depth, value, kind, ctl, table, evals):
    """Record a node whose search established ``value`` (side to move's view) as exact
    or as a bound (``kind``, a TT flag): into the root row (ply 0), else into the next
    free row or, once all are full, by reservoir sampling (row j of the n-th node for
    a seeded uniform j < n, the node dropped when j is past the last row), so every
    node of the search has the same chance to be kept. Stored from White's view (a
    bound of Black's flips its kind) in the tail of ``evals`` (see EVALS), features
    sparse from the dense feature row there."""
    root = ctl[C_COL_ROWS]
    if ply == 0:
        slot = root
    else:
        ctl[C_SEEN] += 1
        slot = ctl[C_STORED]
        if slot >= root:
            r = _mix(np.uint64(ctl[C_COL_RNG]))
            ctl[C_COL_RNG] += 1
            slot = np.int64(r % np.uint64(ctl[C_SEEN]))  # type: ignore[assignment]
            if slot >= root:
                return
    nfeat = ctl[C_NFEAT]
    k = ctl[C_COL_K]
    scratch = evals[EVALS:EVALS + nfeat]
    features(bb, st, scratch)
    if table is not None:
        leaf_features(bb, st, table, scratch)
    at = EVALS + nfeat + slot * (R_FEAT + 2 * k)
    row = evals[at:at + R_FEAT + 2 * k]
    nnz = 0
    for i in range(scratch.shape[0]):
        x = scratch[i]
        if x != 0.0:
            if nnz == k:
                # More features than a row holds: the row is left empty (the engine
                # sizes rows so that this cannot happen; counted if it does).
                ctl[C_OVERFLOW] += 1
                row[R_KIND] = 0.0
                return
            row[R_FEAT + nnz] = i
            row[R_FEAT + k + nnz] = x
            nnz += 1
    white = st[core.TURN] == core.WHITE
    if not white and kind != TT_EXACT:
        kind = TT_UPPER if kind == TT_LOWER else TT_LOWER
    row[R_VALUE] = value if white else -value
    row[R_KIND] = kind
    row[R_PLY] = ply
    row[R_DEPTH] = depth
    row[R_NNZ] = nnz
    if ply > 0 and slot == ctl[C_STORED]:
        ctl[C_STORED] += 1


@njit(cache=True)
def _is_repetition(st, keys, idx, key, floor):
    """Whether ``key`` (at history index ``idx``) occurred before, same side to move,
    at index ``floor`` or later (a null move on the line is a floor)."""
    limit = floor
    if st[core.VARIANT] != core.CRAZYHOUSE:
        limit = max(limit, idx - st[core.HALFMOVE])
    j = idx - 2
    while j >= limit:
        if keys[j] == key:
            return True
        j -= 2
    return False


@njit(cache=True)
def _quiescence_moves(ply, alpha, beta, qply, bbs, sts, evals, moves, mscores, ctl, w, table,
                      noise):
    """Set up a quiescence node: returns (done, value, k, standing, alpha). When ``done``
    the node's value is ``value``; otherwise its ``k`` moves are ordered in
    ``moves[ply]``, ``value`` is the best score so far (the stand-pat when ``standing``,
    else -INF: in check, or a compulsory capture)."""
    bb = bbs[ply]
    st = sts[ply]
    v = st[core.VARIANT]
    seed = ctl[C_NOISE_SEED]
    if ply >= MAXPLY - 1:
        return True, static_eval(bb, st, node_eval(bb, st, evals[ply], w, table), noise, seed), \
            0, False, alpha
    limit_reached = qply >= ctl[C_QLIMIT]
    if v == core.SUICIDE or v == core.GIVEAWAY:
        # Captures are compulsory: a position with a capture is not quiet and allows no
        # stand-pat; a quiet one is simply evaluated.
        k = core.gen_legal(bb, st, moves[ply], bbs[ply + 1], sts[ply + 1])
        if k == 0:
            return True, terminal_score(bb, st, ply), 0, False, alpha
        if not core.is_tactical(st, moves[ply, 0]) or limit_reached:
            stand = static_eval(bb, st, node_eval(bb, st, evals[ply], w, table), noise, seed)
            return True, stand, 0, False, alpha
        best = -INF
    else:
        if v != core.CHESS and v != core.CRAZYHOUSE and core.is_variant_end(bb, st):
            return True, terminal_score(bb, st, ply), 0, False, alpha
        if not limit_reached and core.checkers_mask(bb, st) != 0:
            # In check: every evasion, no stand-pat (and mate is seen).
            k = core.gen_legal(bb, st, moves[ply], bbs[ply + 1], sts[ply + 1])
            if k == 0:
                return True, terminal_score(bb, st, ply), 0, False, alpha
            best = -INF
        else:
            stand = static_eval(bb, st, node_eval(bb, st, evals[ply], w, table), noise, seed)
            if stand >= beta or limit_reached:
                return True, stand, 0, False, alpha
            alpha = max(alpha, stand)
            best = stand
            k = core.gen_legal_tactical(bb, st, moves[ply], bbs[ply + 1], sts[ply + 1])
    mv = moves[ply]
    sc = mscores[ply]
    standing = best > -INF
    for i in range(k):
        if core.is_tactical(st, mv[i]):
            s = _CAPTURE_BONUS
        elif standing:
            s = _HASH_BONUS     # a quiet move that ends the game (core.made_goal): first
        else:
            s = np.int64(0)
        if st[core.m_to(mv[i])] != 0 or core.m_flags(mv[i]) & core.F_EP:
            s += _capture_gain(bb, st, mv[i])
        sc[i] = s + _ORDER_VALUE[core.m_piece(mv[i])]
    return False, best, k, standing, alpha


@njit(cache=True)
def negamax(ply, depth, alpha, beta, is_pv, bbs, sts, evals, moves, mscores, pv, pvlen,
            killers, history, keys, tt_key, tt_move, tt_score, tt_depth, tt_flag, ctl, w, table, noise):
    pvlen[ply] = ply
    bb = bbs[ply]
    st = sts[ply]
    v = st[core.VARIANT]
    # Flags passed to the recursive calls must not be literals: numba would compile a
    # specialisation per literal, which its cache cannot load back (segfault).
    no_pv = ply - ply
    yes_pv = no_pv + 1
    if _poll(ctl):
        return 0.0
    if depth <= 0:
        # Quiescence lives in this same function (-depth counts its plies): numba
        # cannot load from its cache a recursive function calling another recursive one.
        ctl[C_SELDEPTH] = max(ctl[C_SELDEPTH], ply)
        # Transposition table for the forced capture chains of suicide and giveaway,
        # which transpose a lot. Only bounds that cut are taken, so no PV is cut short.
        # (Only where it pays: elsewhere probing costs more time than it saves nodes.)
        use_tt = v == core.SUICIDE or v == core.GIVEAWAY
        qkey = core.position_key(bb, st, bbs[ply + 1], sts[ply + 1]) if use_tt else np.uint64(0)
        qslot = np.int64(qkey % np.uint64(tt_key.shape[0]))
        if use_tt and tt_key[qslot] == qkey and tt_depth[qslot] >= depth:
            s = tt_to_score(tt_score[qslot], ply)
            f = tt_flag[qslot]
            if (f != TT_UPPER and s >= beta) or (f != TT_LOWER and s <= alpha):
                return s
        qalpha0 = alpha
        done, best, k, standing, alpha = _quiescence_moves(ply, alpha, beta, -depth, bbs, sts,
                                                           evals, moves, mscores, ctl, w, table,
                                                           noise)
        if done:
            return best
        start_best = best               # the stand-pat, or -INF (no stand-pat here)
        us = st[core.TURN]
        legal = 0
        flags = ctl[C_FLAGS]
        antichess = v == core.SUICIDE or v == core.GIVEAWAY
        qsee = (flags & F_QSEE) != 0 and standing and not antichess
        narrow = (flags & F_SUICIDE_QBOUND) != 0 and antichess and -depth >= _SUICIDE_QDEEP
        for i in range(k):
            if narrow and i >= _SUICIDE_QWIDTH:
                break
            m = pick(moves[ply], mscores[ply], i, k)
            if qsee and core.is_tactical(st, m) and see(bb, st, m) < 0:
                continue
            core.copy_make(bb, st, bbs[ply + 1], sts[ply + 1], m)
            if core.m_flags(m) & core.F_UNCHECKED and not core.child_is_legal(bbs[ply + 1], us):
                continue
            legal += 1
            evals[ply + 1] = evals[ply] + evaluate_delta(bb, st, bbs[ply + 1], sts[ply + 1], w)
            score = -negamax(ply + 1, depth - 1, -beta, -alpha, no_pv, bbs, sts, evals, moves,
                             mscores, pv, pvlen, killers, history, keys, tt_key, tt_move,
                             tt_score, tt_depth, tt_flag, ctl, w, table, noise)
            if ctl[C_STOP]:
                return 0.0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    _update_pv(pv, pvlen, ply, m)
                    if score >= beta:
                        break
        # No capture to try: make sure the stand-pat is not a stalemate.
        if standing and legal == 0 and not core.has_legal_move(bb, st, moves[ply], bbs[ply + 1],
                                                               sts[ply + 1]):
            return terminal_score(bb, st, ply)
        # A quiescence node's value counts only where its moves changed it (else it is
        # the stand-pat, the evaluation itself); as for interior nodes, not under a null
        # move nor as a reduced child, and a value inside a null window is a lower bound.
        if (ctl[C_COLLECT] == COLLECT_QUIESCENCE and best > start_best
                and ctl[C_NULL_PLY] == 0 and ctl[C_REDUCED] != ply):
            qflag = TT_LOWER if best >= beta else (TT_EXACT if best > qalpha0 else TT_UPPER)
            _collect(bb, st, ply, depth, best,
                     qflag if is_pv or qflag != TT_EXACT else TT_LOWER, ctl, table, evals)
        if use_tt and k > 0 and (tt_key[qslot] != qkey or depth >= tt_depth[qslot]):
            s = score_to_tt(best, ply)
            tt_key[qslot] = qkey
            tt_move[qslot] = -1
            tt_score[qslot] = s
            tt_depth[qslot] = depth
            tt_flag[qslot] = TT_LOWER if best >= beta else (TT_EXACT if best > qalpha0 else TT_UPPER)
        return best
    key = core.position_key(bb, st, bbs[ply + 1], sts[ply + 1])
    hidx = ctl[C_HIST_LEN] + ply
    keys[hidx] = key
    if ply > 0:
        if v != core.CRAZYHOUSE and st[core.HALFMOVE] >= 100:
            return 0.0
        floor = ctl[C_HIST_LEN] + ctl[C_NULL_PLY] - 1 if ctl[C_NULL_PLY] > 0 else 0
        if _is_repetition(st, keys, hidx, key, floor):
            return 0.0
        if popcount(bb[core.OCC] | bb[core.OCC + 1]) <= 6 and core.is_insufficient_material(bb, st):
            return 0.0
    if ply >= MAXPLY - 1:
        return static_eval(bb, st, node_eval(bb, st, evals[ply], w, table), noise, ctl[C_NOISE_SEED])

    size = np.uint64(tt_key.shape[0])
    slot = np.int64(key % size)
    hash_move = np.int64(-1)
    if tt_key[slot] == key:
        hash_move = tt_move[slot]
        if not is_pv and tt_depth[slot] >= depth:
            s = tt_to_score(tt_score[slot], ply)
            f = tt_flag[slot]
            if f == TT_EXACT or (f == TT_LOWER and s >= beta) or (f == TT_UPPER and s <= alpha):
                return s

    flags = ctl[C_FLAGS]
    antichess = v == core.SUICIDE or v == core.GIVEAWAY
    in_check = core.checkers_mask(bb, st) != 0
    # Pruning before any move (selective mode, never at PV nodes, in check or near mates).
    prune = flags != 0 and not is_pv and not in_check and not antichess
    static = 0.0
    futility = 0.0
    if prune:
        futility = ctl[C_FUTILITY] * MARGIN_UNIT
        static = static_eval(bb, st, node_eval(bb, st, evals[ply], w, table), noise, ctl[C_NOISE_SEED])
        quiet_window = abs(alpha) < MATE_BOUND and abs(beta) < MATE_BOUND
        if (flags & F_REVERSE_FUTILITY and depth <= 3 and quiet_window
                and static - futility * depth >= beta):
            return static
        if (flags & F_RAZOR and depth <= 2 and quiet_window
                and static + ctl[C_RAZOR] * MARGIN_UNIT * depth <= alpha):
            q = negamax(ply, no_pv, alpha, alpha + NULL_EPS, no_pv, bbs, sts, evals, moves,
                        mscores, pv, pvlen, killers, history, keys, tt_key, tt_move,
                        tt_score, tt_depth, tt_flag, ctl, w, table, noise)
            if ctl[C_STOP]:
                return 0.0
            if q <= alpha:
                return q
        if (flags & F_NULL_MOVE and depth >= 3 and static >= beta and abs(beta) < MATE_BOUND
                and ctl[C_NULL_PLY] != ply + 1 and _has_pieces(bb, st)):
            reduction = 3 + depth // 6
            core.make_null(bb, st, bbs[ply + 1], sts[ply + 1])
            evals[ply + 1] = evals[ply]
            saved = ctl[C_NULL_PLY]
            ctl[C_NULL_PLY] = ply + 2
            score = -negamax(ply + 1, depth - 1 - reduction, -beta, -beta + NULL_EPS, no_pv, bbs,
                             sts, evals, moves, mscores, pv, pvlen, killers, history, keys,
                             tt_key, tt_move, tt_score, tt_depth, tt_flag, ctl, w, table, noise)
            ctl[C_NULL_PLY] = saved
            if ctl[C_STOP]:
                return 0.0
            if score >= beta:
                return beta if score > MATE_BOUND else score

    n = core.gen_moves(bb, st, moves[ply], bbs[ply + 1], sts[ply + 1], True)
    if n == 0:
        return terminal_score(bb, st, ply)

    mv = moves[ply]
    sc = mscores[ply]
    score_moves(bb, st, mv, n, sc, hash_move, killers[ply], history, (flags & F_SEE_ORDER) != 0)
    alpha0 = alpha
    best = -INF
    best_move = mv[0]
    us = st[core.TURN]
    legal = 0
    searched = 0
    skipped = False     # futility skipped a move: the value is partly an estimate
    futile = (prune and flags & F_FUTILITY and depth <= 2 and abs(alpha) < MATE_BOUND
              and static + futility * depth <= alpha)
    reduce = flags & F_LMR and depth >= 3 and not in_check
    extend_checks = flags & F_CHECK_EXT and (v == core.CHESS or v == core.ATOMIC) \
        and ply < 2 * ctl[C_ROOT_DEPTH]
    for i in range(n):
        m = pick(mv, sc, i, n)
        core.copy_make(bb, st, bbs[ply + 1], sts[ply + 1], m)
        if core.m_flags(m) & core.F_UNCHECKED and not core.child_is_legal(bbs[ply + 1], us):
            continue
        legal += 1
        quiet = not core.is_tactical(st, m) and m != killers[ply, 0] and m != killers[ply, 1] \
            and m != hash_move
        gives_check = False
        if (futile or reduce or extend_checks) and not antichess:
            gives_check = core.checkers_mask(bbs[ply + 1], sts[ply + 1]) != 0
        if (futile and quiet and legal > 1 and not gives_check
                and not core.made_goal(st, m, sts[ply + 1])):
            # This quiet move cannot lift the score to alpha (nor end the game at once:
            # three-check's third check gives check): skip it, keeping the bound.
            bound = static + futility * depth
            best = max(best, bound)
            skipped = True
            continue
        searched += 1
        evals[ply + 1] = evals[ply] + evaluate_delta(bb, st, bbs[ply + 1], sts[ply + 1], w)
        new_depth = depth - 1
        if extend_checks and gives_check:
            new_depth += 1
        if searched == 1:
            score = -negamax(ply + 1, new_depth, -beta, -alpha, is_pv, bbs, sts, evals, moves,
                             mscores, pv, pvlen, killers, history, keys, tt_key, tt_move,
                             tt_score, tt_depth, tt_flag, ctl, w, table, noise)
        else:
            r = 0
            if reduce and quiet and not gives_check and searched > (4 if is_pv else 2):
                r = _LMR[min(depth, 63), min(searched, 63)] - (1 if is_pv else 0)
                r = max(0, min(r, new_depth - 1))
            reduced = 0
            if r > 0:
                reduced = ctl[C_REDUCED]
                ctl[C_REDUCED] = ply + 1        # the child's value is not collected
            score = -negamax(ply + 1, new_depth - r, -alpha - NULL_EPS, -alpha, no_pv, bbs, sts,
                             evals, moves, mscores, pv, pvlen, killers, history, keys, tt_key,
                             tt_move, tt_score, tt_depth, tt_flag, ctl, w, table, noise)
            if r > 0:
                ctl[C_REDUCED] = reduced
            if r > 0 and score > alpha and not ctl[C_STOP]:
                score = -negamax(ply + 1, new_depth, -alpha - NULL_EPS, -alpha, no_pv, bbs, sts,
                                 evals, moves, mscores, pv, pvlen, killers, history, keys,
                                 tt_key, tt_move, tt_score, tt_depth, tt_flag, ctl, w, table, noise)
            if score > alpha and score < beta and not ctl[C_STOP]:
                score = -negamax(ply + 1, new_depth, -beta, -alpha, yes_pv, bbs, sts, evals,
                                 moves, mscores, pv, pvlen, killers, history, keys, tt_key,
                                 tt_move, tt_score, tt_depth, tt_flag, ctl, w, table, noise)
        if ctl[C_STOP]:
            return 0.0
        if score > best:
            best = score
            best_move = m
            if score > alpha:
                alpha = score
                _update_pv(pv, pvlen, ply, m)
                if score >= beta:
                    if not core.is_tactical(st, m):
                        if killers[ply, 0] != m:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = m
                        history[us, history_index(m)] += depth * depth
                    break

    if legal == 0:
        return terminal_score(bb, st, ply)
    if best >= beta:
        flag = TT_LOWER
    elif best > alpha0:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    # Collect the node unless its value rests on an estimate (a futility skip), on a
    # null move above it, or on a reduced depth (its full-depth re-search counts). A
    # value inside a null window is a lower bound.
    if (ctl[C_COLLECT] != 0 and not skipped and ctl[C_NULL_PLY] == 0
            and ctl[C_REDUCED] != ply):
        _collect(bb, st, ply, depth, best, flag if is_pv or flag != TT_EXACT else TT_LOWER,
                 ctl, table, evals)
    if tt_key[slot] != key or depth >= tt_depth[slot] or flag == TT_EXACT:
        s = score_to_tt(best, ply)
        tt_key[slot] = key
        tt_move[slot] = best_move
        tt_score[slot] = s
        tt_depth[slot] = depth
        tt_flag[slot] = flag
    return best


@njit(cache=True)
def _has_pieces(bb, st):
    """Whether the side to move has more than pawns and king (on the board or, in
    crazyhouse, in hand): a null move is then unlikely to be a zugzwang."""
    us = st[core.TURN]
    if bb[core.OCC + us] & ~bb[core.PAWN - 1] & ~bb[core.KING - 1]:
        return True
    if st[core.VARIANT] == core.CRAZYHOUSE:
        for t in range(core.PAWN, core.KING):
            if st[core.POCKET + 6 * us + t] > 0:
                return True
    return False


@njit(cache=True, nogil=True)
def search_root(depth, ties, prev_best, root_only, bbs, sts, evals, moves, mscores, root_scores,
                pv, pvlen, killers, history, keys, tt_key, tt_move, tt_score, tt_depth, tt_flag,
                ctl, w, table, noise, alpha_in, beta_in):
    """One iteration at ``depth``. Returns the number of root moves searched;
    ``moves[0, :n]`` holds them in searched order and ``root_scores`` their scores
    (exact for the best, bounds for the others). With ``ctl[C_ROOT_N] > 0`` only the
    legal moves among ``root_only[:ctl[C_ROOT_N]]`` are searched (0 returned when there
    is none), and the root is not stored in the table (its score is not the position's).
    With ``ties``, the best move is drawn at random among the equally scored best ones
    (seeded by ``ctl[C_RNG]``). The window ``(alpha_in, beta_in)`` is an aspiration
    window (-INF, INF for none): a best score at or below ``alpha_in`` or at or above
    ``beta_in`` is only a bound, and the caller searches again. ``w`` is the whole weight
    vector of the layout, ``table`` its leaf blocks (int64 rows: kernel code, offset,
    size), or None without any (the classic evaluation, compiled without them). With
    ``ctl[C_COLLECT]`` the nodes are recorded in the tail of ``evals`` (see EVALS and
    :func:`_collect`; the root in its own row, unless the root moves are restricted)."""
    # Views of these arrays are made at every node: drop their reference counting.
    bbs, sts, evals, moves, mscores = (unmanaged(bbs), unmanaged(sts), unmanaged(evals),
                                       unmanaged(moves), unmanaged(mscores))
    root_scores, pv, pvlen = unmanaged(root_scores), unmanaged(pv), unmanaged(pvlen)
    root_only = unmanaged(root_only)
    killers, history, keys = unmanaged(killers), unmanaged(history), unmanaged(keys)
    tt_key, tt_move, tt_score = unmanaged(tt_key), unmanaged(tt_move), unmanaged(tt_score)
    tt_depth, tt_flag = unmanaged(tt_depth), unmanaged(tt_flag)
    ctl, w, leaf = unmanaged(ctl), unmanaged(w), _unmanaged_table(table)
    pvlen[0] = 0
    # Non-literal arguments for negamax (see there).
    one = depth - depth + 1
    no_pv = one - 1
    bb = bbs[0]
    st = sts[0]
    key = core.position_key(bb, st, bbs[1], sts[1])
    keys[ctl[C_HIST_LEN]] = key
    n = core.gen_legal(bb, st, moves[0], bbs[1], sts[1])
    mv = moves[0]
    restricted = ctl[C_ROOT_N]
    if restricted > 0:
        k = 0
        for i in range(n):
            for j in range(restricted):
                if mv[i] == root_only[j]:
                    mv[k] = mv[i]
                    k += 1
                    break
        n = k
    if n == 0:
        return 0
    sc = mscores[0]
    score_moves(bb, st, mv, n, sc, prev_best, killers[0], history, (ctl[C_FLAGS] & F_SEE_ORDER) != 0)
    # Keep the moves in their searched order so the caller can read them back.
    for i in range(n):
        pick(mv, sc, i, n)
    if ties:
        # Random tie-breaks: search the root moves in a random order (Fisher-Yates,
        # seeded) and keep the first best one. Equal scores fail low on the null window,
        # so among equally scored best moves each is chosen with the same chance, at
        # the cost of a null-window search per move, as any PVS root pays anyway.
        for i in range(n - 1, 0, -1):
            r = _mix(np.uint64(ctl[C_RNG]))
            ctl[C_RNG] += 1
            j = np.int64(r % np.uint64(i + 1))  # type: ignore[assignment]
            mv[i], mv[j] = mv[j], mv[i]
    alpha = alpha_in
    beta = beta_in
    best = -INF
    ctl[C_ROOT_DEPTH] = depth
    for i in range(n):
        m = mv[i]
        core.copy_make(bb, st, bbs[1], sts[1], m)
        evals[1] = evals[0] + evaluate_delta(bb, st, bbs[1], sts[1], w)
        if i == 0:
            score = -negamax(one, depth - 1, -beta, -alpha, one, bbs, sts, evals, moves, mscores,
                             pv, pvlen, killers, history, keys, tt_key, tt_move, tt_score,
                             tt_depth, tt_flag, ctl, w, leaf, noise)
        else:
            score = -negamax(one, depth - 1, -alpha - NULL_EPS, -alpha, no_pv, bbs, sts, evals,
                             moves, mscores, pv, pvlen, killers, history, keys, tt_key, tt_move,
                             tt_score, tt_depth, tt_flag, ctl, w, leaf, noise)
            if score > alpha and not ctl[C_STOP]:
                score = -negamax(one, depth - 1, -beta, -alpha, one, bbs, sts, evals, moves,
                                 mscores, pv, pvlen, killers, history, keys, tt_key, tt_move,
                                 tt_score, tt_depth, tt_flag, ctl, w, leaf, noise)
        if ctl[C_STOP]:
            return n
        root_scores[i] = score
        if score > best:
            best = score
            alpha = max(alpha, score)
            _update_pv(pv, pvlen, 0, m)
            if score >= beta:       # fail high on the aspiration window
                for j in range(i + 1, n):
                    root_scores[j] = -INF
                if ctl[C_COLLECT] != 0 and restricted == 0:
                    _collect(bb, st, 0, depth, best, TT_LOWER, ctl, leaf, evals)
                return n
    if ctl[C_COLLECT] != 0 and restricted == 0:
        _collect(bb, st, 0, depth, best, TT_EXACT if best > alpha_in else TT_UPPER, ctl, leaf,
                 evals)
    if restricted == 0 and best > alpha_in:
        slot = np.int64(key % np.uint64(tt_key.shape[0]))
        tt_key[slot] = key
        tt_move[slot] = pv[0, 0]
        tt_score[slot] = best
        tt_depth[slot] = depth
        tt_flag[slot] = TT_EXACT
    return n
