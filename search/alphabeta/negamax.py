"""Negamax alpha-beta (PVS) with quiescence, transposition table and move ordering.

Everything here is numba. The search works on per-ply rows of position arrays
(copy-make: row ``ply + 1`` is the child), keeps the evaluation of every row up to date
with :func:`search.kernels.classic.evaluate_delta` (the classic blocks), adds the feature
layout's leaf blocks where it evaluates a node (:func:`node_eval`, from the int64
``table`` of :attr:`search.evaluation.layout.FeatureLayout.table`; None for the classic
layouts, where nothing is added), and writes a triangular principal variation that runs
through the quiescence search, so the PV ends at the very position whose evaluation is
the score (the leaf TDLeaf learns from). The variants' rules reach it as flags
(:mod:`variants.rules`) and as the functions of :mod:`variants.outcome`, never as a
variant's code.

Scores are floats in pawns from the side to move's point of view; a won game is
``MATE - ply``. The search's arrays travel in the groups of :mod:`search.alphabeta.state` (rows,
memory, line, evaluation) beside the control vector ``ctl``, which carries counters,
limits and the stop flag (another thread may set it while the search runs without the
GIL). :func:`negamax` is one recursive function (quiescence included: numba cannot load
from its cache a recursive function that calls another one); each step of a node that
needs no recursion is a helper beside it.

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

from ..kernels.classic import evaluate_delta, features
from ..kernels.dispatch import leaf_features, leaf_score
from .see import see
from .state import Eval, Line, Memory, Rows

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
# evaluation's own: search.alphabeta.engine.search_margins).
C_FUTILITY, C_RAZOR = 21, 22
N_CTL = 23
MARGIN_UNIT = 0.001
COLLECT_INTERIOR, COLLECT_QUIESCENCE = 1, 2

# Selective techniques (bits of ctl[C_FLAGS]); each is measured on its own (BENCHMARKS.md).
F_NULL_MOVE = 1          # null-move pruning (not in suicide/giveaway: zugzwang is the rule)
F_LMR = 2                # late-move reductions of quiet moves
F_CHECK_EXT = 4          # check extensions (where the spec allows them)
F_FUTILITY = 8           # futility pruning of quiet moves near the leaves
F_REVERSE_FUTILITY = 16  # static null move: eval far above beta near the leaves
F_RAZOR = 32             # razoring: eval far below alpha near the leaves -> quiescence
F_QSEE = 64              # quiescence skips captures that lose material (SEE < 0)
F_SUICIDE_QBOUND = 128   # suicide/giveaway quiescence: only the best captures deep down
F_SEE_ORDER = 256        # captures losing material by SEE are tried after quiet moves
SELECTIVE = (F_NULL_MOVE | F_LMR | F_CHECK_EXT | F_FUTILITY | F_REVERSE_FUTILITY | F_RAZOR
             | F_QSEE | F_SUICIDE_QBOUND | F_SEE_ORDER)
# Outside the selective set: a variant adds it (variants.spec selective_on) once measured.
F_ONLY_MOVE = 512        # a node's only move costs no depth (forced captures)
F_FORCED_EXT = 1024      # a compulsory capture among at most FORCED_WIDTH costs no depth
F_FORCING_ORDER = 2048   # quiet moves that offer a piece (a capture it must make) first
F_KEEP_OFFERS = 4096     # quiet moves that offer a piece are never reduced nor pruned
TECHNIQUES = (SELECTIVE | F_ONLY_MOVE | F_FORCED_EXT | F_FORCING_ORDER
              | F_KEEP_OFFERS)  # bits of ctl[C_FLAGS]
# F_FORCED_EXT: the most captures a node may offer for them to cost no depth.
FORCED_WIDTH = 2

# TT flags (also the kinds of the collected nodes' values)
TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3
# The depth of an entry that a proof search wrote (:func:`store_proof`): deeper than any
# search, so never replaced by the same position's own entries, and read as the node's
# value at any depth and window, on the principal variation too.
PROOF_DEPTH = 32767

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
_OFFER_BONUS = np.int64(1) << np.int64(38)


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
    :attr:`search.evaluation.layout.FeatureLayout.table`), computed here from the whole position.
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
    """Score of a position without legal moves (or whose game the variant has ended):
    a won game ``MATE - ply``, a lost one its negation, a draw 0
    (:func:`variants.outcome.terminal_result`)."""
    result = core.terminal_result(bb, st)
    if result > 0:
        return MATE - ply
    if result < 0:
        return -(MATE - ply)
    return 0.0


@njit(cache=True)
def _capture_gain(bb, st, m):
    """Ordering value of a capture: MVV-LVA, or the whole blast in atomic."""
    frm = core.m_from(m)
    to = core.m_to(m)
    victim = core.PAWN if core.m_flags(m) & core.F_EP else st[to]
    attacker = st[frm]
    if not core.EXPLOSIONS[st[core.VARIANT]]:
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
def score_moves(bb, st, moves, n, out, hash_move, killers, history, flags):
    """Ordering scores: the hash move, captures and promotions (MVV-LVA, or the blast in
    atomic), killers, then quiet moves by history. By the search's technique bits
    ``flags``: with F_SEE_ORDER, captures that lose material by static exchange go after
    every quiet move; with F_FORCING_ORDER, where captures are compulsory, quiet moves
    that offer a piece go first among the quiet ones (:func:`order_offers`)."""
    us = st[core.TURN]
    see_order = flags & F_SEE_ORDER != 0
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
    if flags & F_FORCING_ORDER and core.MUST_CAPTURE[st[core.VARIANT]]:
        order_offers(bb, st, moves, n, out)


@njit(cache=True)
def order_offers(bb, st, moves, n, out):
    """Where captures are compulsory (F_FORCING_ORDER): quiet moves that leave the moved
    piece where the opponent can take it go before the other quiet moves (after the
    killers): the opponent must capture, so these lines are forced."""
    for i in range(n):
        m = moves[i]
        if out[i] >= _KILLER_BONUS or core.is_tactical(st, m):
            continue
        if offers_piece(bb, st, m):
            out[i] += _OFFER_BONUS


@njit(cache=True, inline="always")
def offers_piece(bb, st, m):
    """Whether the quiet move ``m`` leaves the moved piece where the opponent can take
    it: where captures are compulsory, the opponent's reply is then forced (what
    F_FORCING_ORDER tries first and F_KEEP_OFFERS never reduces nor prunes)."""
    occ = bb[core.OCC] | bb[core.OCC + 1]
    to = core.m_to(m)
    after = (occ & ~core.SQ[core.m_from(m)]) | core.SQ[to]
    return core.attackers(bb, 1 - st[core.TURN], to, after) != 0


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
    # Every node, not every 1024th: a node limit below 1024 (UCI_Elo's weakest rungs)
    # must stop where it says.
    if ctl[C_MAX_NODES] > 0 and ctl[C_NODES] >= ctl[C_MAX_NODES]:
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


# ---------------------------------------------------------------------------------------
# The transposition table
# ---------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _probe(ply, depth, alpha, beta, is_pv, key, tt):
    """An interior node's entry in the table: (decided, value, hash move, slot). Decided
    where the stored bound settles the node (never on the principal variation), or
    where a proof search proved the position won or lost (:func:`store_proof`)."""
    slot = np.int64(key % np.uint64(tt.shape[0]))
    e = tt[slot]
    if e.key != key:
        return False, 0.0, np.int64(-1), slot
    if e.depth == PROOF_DEPTH:          # a proved win or loss (store_proof): final
        return True, tt_to_score(e.score, ply), e.move, slot
    if not is_pv and e.depth >= depth:
        s = tt_to_score(e.score, ply)
        f = e.flag
        if f == TT_EXACT or (f == TT_LOWER and s >= beta) or (f == TT_UPPER and s <= alpha):
            return True, s, e.move, slot
    return False, 0.0, e.move, slot


@njit(cache=True, inline="always")
def _store(tt, slot, key, move, value, depth, flag):
    """Write one entry of the table (``value`` as :func:`score_to_tt` stores it)."""
    e = tt[slot]
    e.key = key
    e.move = move
    e.score = value
    e.depth = depth
    e.flag = flag


@njit(cache=True)
def store_proof(tt, key, move, value):
    """Write a proof search's verdict on the position ``key`` (its side to move wins,
    ``value`` ``MATE - plies``, or loses, ``-(MATE - plies)``, ``plies`` the length of
    the proof's line: :func:`search.solve.pns.store_proved`) with ``move`` its best move
    (-1: none; the entry's move is then kept). A won position's entry is a lower bound
    and a lost one's an upper bound (the proof's line is a forced win, not always the
    shortest), and the probes take it as the node's value, at any depth and window:
    the win is proved, only its distance may be shorter (what the engine reports as
    ``mate N`` of a proof anyway). Its depth, :data:`PROOF_DEPTH`, keeps the same
    position's search entries from replacing it; another position's replaces it, as it
    would any entry."""
    slot = np.int64(key % np.uint64(tt.shape[0]))
    e = tt[slot]
    if move < 0 and e.key == key:
        move = e.move
    _store(tt, slot, key, move, value, PROOF_DEPTH, TT_LOWER if value > 0 else TT_UPPER)


# ---------------------------------------------------------------------------------------
# Quiescence (its recursion lives in negamax)
# ---------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _quiescence_probe(ply, depth, alpha, beta, bb, st, cbb, cst, tt, ctl):
    """A quiescence node's entry (its ply counts in the selective depth): the table, for
    the forced capture chains of the variants where captures are compulsory, which
    transpose a lot (elsewhere probing costs more time than it saves nodes): (cut,
    value, key, slot). Only bounds that cut are taken, so no PV is cut short, and a
    proof search's verdict (:func:`store_proof`); key 0 where the table is not used."""
    ctl[C_SELDEPTH] = max(ctl[C_SELDEPTH], ply)
    qkey = np.uint64(0)
    if core.MUST_CAPTURE[st[core.VARIANT]]:
        qkey = core.position_key(bb, st, cbb, cst)
    qslot = np.int64(qkey % np.uint64(tt.shape[0]))
    e = tt[qslot]
    if qkey != 0 and e.key == qkey and e.depth >= depth:
        s = tt_to_score(e.score, ply)
        f = e.flag
        if (f != TT_UPPER and s >= beta) or (f != TT_LOWER and s <= alpha) or (
                e.depth == PROOF_DEPTH):
            return True, s, qkey, qslot
    return False, 0.0, qkey, qslot


@njit(cache=True, inline="always")
def _stand_pat(bb, st, e, ctl, ev):
    """A node's own evaluation for the side to move (``e``: its classic part), with the
    search's noise."""
    return static_eval(bb, st, node_eval(bb, st, e, ev.w, ev.table), ev.noise,
                       ctl[C_NOISE_SEED])


@njit(cache=True, inline="always")
def _quiescence_moves(ply, window, limit, bb, st, cbb, cst, mv, sc, e, ctl, ev):
    """Set up a quiescence node: returns (done, value, k, standing, alpha). When ``done``
    the node's value is ``value``; otherwise its ``k`` moves are ordered in ``mv`` (their
    scores in ``sc``), ``value`` is the best score so far (the stand-pat when
    ``standing``, else -INF: in check, or a compulsory capture). ``window``: (alpha,
    beta); ``limit``: the quiescence plies are used up (stand pat)."""
    alpha, beta = window
    if ply >= MAXPLY - 1:
        return True, _stand_pat(bb, st, e, ctl, ev), 0, False, alpha
    if core.MUST_CAPTURE[st[core.VARIANT]]:
        # Captures are compulsory: a position with a capture is not quiet and allows no
        # stand-pat; a quiet one is simply evaluated.
        k = core.gen_legal(bb, st, mv, cbb, cst)
        if k == 0:
            return True, terminal_score(bb, st, ply), 0, False, alpha
        if not core.is_tactical(st, mv[0]) or limit:
            return True, _stand_pat(bb, st, e, ctl, ev), 0, False, alpha
        best = -INF
    else:
        if core.ENDS_ON_BOARD[st[core.VARIANT]] and core.is_variant_end(bb, st):
            return True, terminal_score(bb, st, ply), 0, False, alpha
        if not limit and core.checkers_mask(bb, st) != 0:
            # In check: every evasion, no stand-pat (and mate is seen).
            k = core.gen_legal(bb, st, mv, cbb, cst)
            if k == 0:
                return True, terminal_score(bb, st, ply), 0, False, alpha
            best = -INF
        else:
            stand = _stand_pat(bb, st, e, ctl, ev)
            if stand >= beta or limit:
                return True, stand, 0, False, alpha
            alpha = max(alpha, stand)
            best = stand
            k = core.gen_legal_tactical(bb, st, mv, cbb, cst)
    _order_quiescence(bb, st, mv, sc, k, best > -INF)
    return False, best, k, best > -INF, alpha


@njit(cache=True, inline="always")
def _order_quiescence(bb, st, mv, sc, k, standing):
    """Ordering scores of a quiescence node's ``k`` moves: captures and promotions by
    gain; where the side stands pat, a quiet move (one that ends the game) first."""
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


@njit(cache=True, inline="always")
def _quiescence_filters(depth, standing, st, ctl):
    """(qsee, narrow): skip captures that lose material by SEE (where the side stands
    pat), and try only the best few captures deep in compulsory capture chains."""
    flags = ctl[C_FLAGS]
    forced = core.MUST_CAPTURE[st[core.VARIANT]]
    qsee = (flags & F_QSEE) != 0 and standing and not forced
    narrow = (flags & F_SUICIDE_QBOUND) != 0 and forced and -depth >= _SUICIDE_QDEEP
    return qsee, narrow


@njit(cache=True, inline="always")
def _next_capture(ply, i, k, qsee, bb, st, cbb, cst, mv, sc, evals, w):
    """Play the ``i``-th best of a quiescence node's ``k`` moves into ``cbb``, ``cst``:
    the move, or -1 when it is skipped (SEE) or illegal; the child's evaluation in
    ``evals[ply + 1]``."""
    m = pick(mv, sc, i, k)
    if qsee and core.is_tactical(st, m) and see(bb, st, m) < 0:
        return np.int64(-1)
    core.copy_make(bb, st, cbb, cst, m)
    if core.m_flags(m) & core.F_UNCHECKED and not core.child_is_legal(cbb, st[core.TURN]):
        return np.int64(-1)
    evals[ply + 1] = evals[ply] + evaluate_delta(bb, st, cbb, cst, w)
    return m


@njit(cache=True, inline="always")
def _quiescence_value(ply, depth, best, bounds, probe, node, ctl, table, evals, tt):
    """The value of a quiescence node whose moves were tried: a stand-pat that is a
    stalemate corrected; the node collected where its moves changed its value and, in
    the variants where captures are compulsory, its bound stored. ``bounds``: (the
    stand-pat or -INF, alpha on entry, beta, moves, legal moves played, standing,
    is_pv); ``probe``: (key, slot) of :func:`_quiescence_probe`; ``node``: (bb, st, the
    child's bb, st, moves)."""
    start_best, qalpha0, beta, k, legal, standing, is_pv = bounds
    qkey, qslot = probe
    bb, st, cbb, cst, mv = node
    # No capture to try: make sure the stand-pat is not a stalemate.
    if standing and legal == 0 and not core.has_legal_move(bb, st, mv, cbb, cst):
        return terminal_score(bb, st, ply)
    # A quiescence node's value counts only where its moves changed it (else it is the
    # stand-pat, the evaluation itself); as for interior nodes, not under a null move nor
    # as a reduced child, and a value inside a null window is a lower bound.
    if (ctl[C_COLLECT] == COLLECT_QUIESCENCE and best > start_best
            and ctl[C_NULL_PLY] == 0 and ctl[C_REDUCED] != ply):
        qflag = TT_LOWER if best >= beta else (TT_EXACT if best > qalpha0 else TT_UPPER)
        _collect(bb, st, ply, depth, best, qflag if is_pv or qflag != TT_EXACT else TT_LOWER,
                 ctl, table, evals)
    if qkey != 0 and k > 0 and (tt[qslot].key != qkey or depth >= tt[qslot].depth):
        _store(tt, qslot, qkey, -1, score_to_tt(best, ply), depth,
               TT_LOWER if best >= beta else (TT_EXACT if best > qalpha0 else TT_UPPER))
    return best


# ---------------------------------------------------------------------------------------
# Interior nodes
# ---------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _enter(ply, depth, window, is_pv, bb, st, cbb, cst, keys, tt, ctl):
    """An interior node before its moves: (status, value, hash move, key, slot). Status
    1: its value is ``value`` (a draw by rule or by material, or a table bound that
    decides it); 2: the deepest ply, evaluated as it stands; 0: its moves are searched.
    The node's key is written into the line's ``keys``."""
    key = core.position_key(bb, st, cbb, cst)
    hidx = ctl[C_HIST_LEN] + ply
    keys[hidx] = key
    if ply > 0:
        # A null move on the line is a floor: no repetition is looked for across it.
        floor = ctl[C_HIST_LEN] + ctl[C_NULL_PLY] - 1 if ctl[C_NULL_PLY] > 0 else 0
        if core.rule_draw(st, keys, hidx, key, floor) or (
                popcount(bb[core.OCC] | bb[core.OCC + 1]) <= 6
                and core.is_insufficient_material(bb, st)):
            return 1, 0.0, np.int64(-1), key, np.int64(0)
    if ply >= MAXPLY - 1:
        return 2, 0.0, np.int64(-1), key, np.int64(0)
    cut, value, hash_move, slot = _probe(ply, depth, window[0], window[1], is_pv, key, tt)
    return (1 if cut else 0), value, hash_move, key, slot


@njit(cache=True, inline="always")
def _pruning(ply, depth, window, bb, st, e, ctl, ev):
    """The selective search's pruning before any move, at a node where it may prune:
    (static evaluation, futility margin, return the static evaluation at once (reverse
    futility), try razoring, try a null move). ``window``: (alpha, beta)."""
    alpha, beta = window
    flags = ctl[C_FLAGS]
    futility = ctl[C_FUTILITY] * MARGIN_UNIT
    static = _stand_pat(bb, st, e, ctl, ev)
    quiet_window = abs(alpha) < MATE_BOUND and abs(beta) < MATE_BOUND
    reverse = (flags & F_REVERSE_FUTILITY != 0 and depth <= 3 and quiet_window
               and static - futility * depth >= beta)
    razor = (flags & F_RAZOR != 0 and depth <= 2 and quiet_window
             and static + ctl[C_RAZOR] * MARGIN_UNIT * depth <= alpha)
    null = (flags & F_NULL_MOVE != 0 and depth >= 3 and static >= beta
            and abs(beta) < MATE_BOUND and ctl[C_NULL_PLY] != ply + 1 and _has_pieces(bb, st))
    return static, futility, reverse, razor, null


@njit(cache=True)
def _has_pieces(bb, st):
    """Whether the side to move has more than pawns and king (on the board or, in
    crazyhouse, in hand): a null move is then unlikely to be a zugzwang."""
    us = st[core.TURN]
    if bb[core.OCC + us] & ~bb[core.PAWN - 1] & ~bb[core.KING - 1]:
        return True
    if core.POCKETS[st[core.VARIANT]]:
        for t in range(core.PAWN, core.KING):
            if st[core.POCKET + 6 * us + t] > 0:
                return True
    return False


@njit(cache=True, inline="always")
def _may_prune(is_pv, bb, st, ctl):
    """(in check, may prune before any move): selective mode, never at PV nodes, in
    check or where captures are compulsory."""
    in_check = core.checkers_mask(bb, st) != 0
    return in_check, ctl[C_FLAGS] != 0 and not (is_pv or in_check
                                                or core.MUST_CAPTURE[st[core.VARIANT]])


@njit(cache=True, inline="always")
def _make_null(ply, bb, st, cbb, cst, evals, ctl):
    """Pass the move into the child's row; returns the null-move ply to restore after."""
    core.make_null(bb, st, cbb, cst)
    evals[ply + 1] = evals[ply]
    saved = ctl[C_NULL_PLY]
    ctl[C_NULL_PLY] = ply + 2
    return saved


@njit(cache=True, inline="always")
def _mark_reduced(ply, r, ctl):
    """Before a child searched ``r`` plies short (r > 0): its value is not collected. The
    mark to restore after."""
    reduced = ctl[C_REDUCED]
    if r > 0:
        ctl[C_REDUCED] = ply + 1
    return reduced


@njit(cache=True, inline="always")
def _raise(ply, m, score, best, alpha, beta, pv, pvlen):
    """A move's score against the node's best: (improved, best, alpha, cut off); a score
    above alpha puts the move on the principal variation."""
    if score <= best:
        return False, best, alpha, False
    if score > alpha:
        _update_pv(pv, pvlen, ply, m)
        return True, score, score, score >= beta
    return True, score, alpha, False


@njit(cache=True, inline="always")
def _move_rules(ply, depth, alpha, prune, bound, in_check, st, ctl):
    """What the selective search may do to this node's moves: (the rules :func:`_try_move`
    reads; reduce late quiet moves; extend checks; extend an only move). The rules of
    :func:`_try_move` are (skip quiet moves by futility, whose value cannot reach alpha
    (``bound``: the static evaluation plus the margin); whether a move gives check matters
    (futility, reductions or check extensions); keep the quiet moves that offer a piece
    out of futility and reductions (F_KEEP_OFFERS, where captures are compulsory: the
    opponent's capture is then forced, and a reduced or skipped offer hides a forced
    line)). Where a capture is on the board every move is one, never reduced nor skipped,
    and no variant with compulsory captures prunes before its moves (:func:`_may_prune`):
    the offers are all that is left to keep."""
    flags = ctl[C_FLAGS]
    futile = (prune and flags & F_FUTILITY != 0 and depth <= 2 and abs(alpha) < MATE_BOUND
              and bound <= alpha)
    reduce = flags & F_LMR != 0 and depth >= 3 and not in_check
    deep = ply < 2 * ctl[C_ROOT_DEPTH]
    extend = flags & F_CHECK_EXT != 0 and core.CHECK_EXTENSIONS[st[core.VARIANT]] and deep
    keep = ((futile or reduce) and flags & F_KEEP_OFFERS != 0
            and core.MUST_CAPTURE[st[core.VARIANT]])
    free = flags & (F_ONLY_MOVE | F_FORCED_EXT) if deep else 0
    return (futile, futile or reduce or extend, keep), reduce, extend, free


@njit(cache=True, inline="always")
def _free_moves(n, st, mv, bits):
    """Whether this node's ``n`` moves cost no depth (``bits``, of :func:`_move_rules`):
    its only move (F_ONLY_MOVE), or compulsory captures, at most FORCED_WIDTH of them
    (F_FORCED_EXT)."""
    if bits == 0 or n > FORCED_WIDTH:       # most nodes: nothing to read
        return False
    if n == 1 and bits & F_ONLY_MOVE:
        return True
    m = mv[0]
    return (bits & F_FORCED_EXT != 0 and core.MUST_CAPTURE[st[core.VARIANT]]
            and (st[core.m_to(m)] != 0 or core.m_flags(m) & core.F_EP != 0))


@njit(cache=True, inline="always")
def _try_move(i, n, bb, st, cbb, cst, mv, sc, killers, hash_move, rules):
    """Play the ``i``-th best of ``n`` moves into ``cbb``, ``cst``: (the move, status,
    quiet, gives check). Status -1: illegal; 0: a quiet move futility may skip (if not the
    first legal one); 1: to be searched. ``rules`` (of :func:`_move_rules`): (``futile``:
    futility may skip quiet moves here; ``checks``: whether the move gives check matters
    (futility, reductions or check extensions); ``keep``: a move that offers a piece is
    not quiet (F_KEEP_OFFERS: neither skipped nor reduced))."""
    futile, checks, keep = rules
    m = pick(mv, sc, i, n)
    core.copy_make(bb, st, cbb, cst, m)
    if core.m_flags(m) & core.F_UNCHECKED and not core.child_is_legal(cbb, st[core.TURN]):
        return m, -1, False, False
    quiet = not core.is_tactical(st, m) and m != killers[0] and m != killers[1] and m != hash_move
    if quiet and keep and offers_piece(bb, st, m):
        quiet = False
    gives_check = False
    if checks and not core.MUST_CAPTURE[st[core.VARIANT]]:
        gives_check = core.checkers_mask(cbb, cst) != 0
    skippable = futile and quiet and not gives_check and not core.made_goal(st, m, cst)
    return m, 0 if skippable else 1, quiet, gives_check


@njit(cache=True, inline="always")
def _reduction(depth, new_depth, searched, is_pv, quiet, gives_check, reduce):
    """Plies of late-move reduction for the ``searched``-th move searched (0: none)."""
    if not (reduce and quiet and not gives_check and searched > (4 if is_pv else 2)):
        return 0
    r = _LMR[min(depth, 63), min(searched, 63)] - (1 if is_pv else 0)
    return max(0, min(r, new_depth - 1))


@njit(cache=True, inline="always")
def _cutoff(depth, m, st, killers, history):
    """A quiet move that failed high: a killer of its ply, and history by depth."""
    if not core.is_tactical(st, m):
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        history[st[core.TURN], history_index(m)] += depth * depth


@njit(cache=True, inline="always")
def _interior_store(ply, depth, best, best_move, bounds, kinds, bb, st, ctl, table, evals, tt):
    """An interior node whose moves were searched: collected (unless its value rests on an
    estimate) and stored. ``bounds``: (alpha on entry, beta, key, slot); ``kinds``:
    (on the principal variation, futility skipped a move)."""
    alpha0, beta, key, slot = bounds
    is_pv, skipped = kinds
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
    if tt[slot].key != key or depth >= tt[slot].depth or flag == TT_EXACT:
        _store(tt, slot, key, best_move, score_to_tt(best, ply), depth, flag)


@njit(cache=True)
def negamax(ply, depth, alpha, beta, is_pv, rows, mem, line, ctl, ev):
    """The value of the node at ``ply`` for the side to move: PVS to ``depth``, then
    quiescence (``depth`` <= 0, ``-depth`` counts its plies), in this same function:
    numba cannot load from its cache a recursive function calling another recursive one.
    The state it reads and writes is grouped as :mod:`search.alphabeta.state` describes."""
    line.pvlen[ply] = ply
    # Flags of the recursive calls are not literals: numba would compile a specialisation
    # per literal, which its cache cannot load back (segfault).
    no_pv, yes_pv = ply - ply, ply - ply + 1
    if _poll(ctl):
        return 0.0
    bb, st, cbb, cst = rows.bbs[ply], rows.sts[ply], rows.bbs[ply + 1], rows.sts[ply + 1]
    mv, sc, evals = rows.moves[ply], rows.scores[ply], rows.evals
    if depth <= 0:
        cut, s, qkey, qslot = _quiescence_probe(ply, depth, alpha, beta, bb, st, cbb, cst, mem.tt,
                                                ctl)
        if cut:
            return s
        qalpha0 = alpha
        done, best, k, standing, alpha = _quiescence_moves(
            ply, (alpha, beta), -depth >= ctl[C_QLIMIT], bb, st, cbb, cst, mv, sc, evals[ply],
            ctl, ev)
        if done:
            return best
        start_best, legal = best, 0       # the stand-pat, or -INF (no stand-pat here)
        qsee, narrow = _quiescence_filters(depth, standing, st, ctl)
        for i in range(k):
            if narrow and i >= _SUICIDE_QWIDTH:
                break
            m = _next_capture(ply, i, k, qsee, bb, st, cbb, cst, mv, sc, evals, ev.w)
            if m < 0:
                continue
            legal += 1
            score = -negamax(ply + 1, depth - 1, -beta, -alpha, no_pv, rows, mem, line, ctl, ev)
            if ctl[C_STOP]:
                return 0.0
            _, best, alpha, cut = _raise(ply, m, score, best, alpha, beta, line.pv, line.pvlen)
            if cut:
                break
        return _quiescence_value(ply, depth, best, (start_best, qalpha0, beta, k, legal, standing,
                                 is_pv), (qkey, qslot), (bb, st, cbb, cst, mv), ctl, ev.table,
                                 evals, mem.tt)

    status, value, hash_move, key, slot = _enter(ply, depth, (alpha, beta), is_pv, bb, st, cbb,
                                                 cst, line.keys, mem.tt, ctl)
    if status:          # decided, or the deepest ply: evaluated as it stands
        return value if status == 1 else _stand_pat(bb, st, evals[ply], ctl, ev)
    in_check, prune = _may_prune(is_pv, bb, st, ctl)
    static = futility = 0.0
    if prune:
        static, futility, reverse, razor, null = _pruning(ply, depth, (alpha, beta), bb, st,
                                                          evals[ply], ctl, ev)
        if reverse:
            return static
        if razor:
            q = negamax(ply, no_pv, alpha, alpha + NULL_EPS, no_pv, rows, mem, line, ctl, ev)
            if ctl[C_STOP]:
                return 0.0
            if q <= alpha:
                return q
        if null:
            saved = _make_null(ply, bb, st, cbb, cst, evals, ctl)
            score = -negamax(ply + 1, depth - 4 - depth // 6, -beta, -beta + NULL_EPS, no_pv,
                             rows, mem, line, ctl, ev)
            ctl[C_NULL_PLY] = saved
            if ctl[C_STOP]:
                return 0.0
            if score >= beta:
                return beta if score > MATE_BOUND else score
    n = core.gen_moves(bb, st, mv, cbb, cst, True)
    if n == 0:
        return terminal_score(bb, st, ply)
    killers = mem.killers[ply]
    score_moves(bb, st, mv, n, sc, hash_move, killers, mem.history, ctl[C_FLAGS])
    rules, reduce, extend, free = _move_rules(ply, depth, alpha, prune, static + futility * depth,
                                              in_check, st, ctl)
    only = _free_moves(n, st, mv, free)
    alpha0, best, best_move = alpha, -INF, mv[0]
    legal, searched, skipped = 0, 0, False    # skipped: the value is partly an estimate
    for i in range(n):
        m, status, quiet, gives_check = _try_move(i, n, bb, st, cbb, cst, mv, sc, killers,
                                                  hash_move, rules)
        if status < 0:
            continue
        legal += 1
        if status == 0 and legal > 1:
            # A quiet move that cannot lift the score to alpha: skipped, its bound kept.
            best = max(best, static + futility * depth)
            skipped = True
            continue
        searched += 1
        evals[ply + 1] = evals[ply] + evaluate_delta(bb, st, cbb, cst, ev.w)
        new_depth = depth if (extend and gives_check) or only else depth - 1
        if searched == 1:
            score = -negamax(ply + 1, new_depth, -beta, -alpha, is_pv, rows, mem, line, ctl, ev)
        else:
            r = _reduction(depth, new_depth, searched, is_pv, quiet, gives_check, reduce)
            reduced = _mark_reduced(ply, r, ctl)     # a reduced child's value is not collected
            score = -negamax(ply + 1, new_depth - r, -alpha - NULL_EPS, -alpha, no_pv, rows, mem,
                             line, ctl, ev)
            ctl[C_REDUCED] = reduced
            if r > 0 and score > alpha and not ctl[C_STOP]:
                score = -negamax(ply + 1, new_depth, -alpha - NULL_EPS, -alpha, no_pv, rows,
                                 mem, line, ctl, ev)
            if score > alpha and score < beta and not ctl[C_STOP]:
                score = -negamax(ply + 1, new_depth, -beta, -alpha, yes_pv, rows, mem, line,
                                 ctl, ev)
        if ctl[C_STOP]:
            return 0.0
        improved, best, alpha, cut = _raise(ply, m, score, best, alpha, beta, line.pv, line.pvlen)
        if improved:
            best_move = m
        if cut:
            _cutoff(depth, m, st, killers, mem.history)
            break
    if legal == 0:
        return terminal_score(bb, st, ply)
    _interior_store(ply, depth, best, best_move, (alpha0, beta, key, slot), (is_pv, skipped),
                    bb, st, ctl, ev.table, evals, mem.tt)
    return best


# ---------------------------------------------------------------------------------------
# The root
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _unmanaged_state(rows, mem, line, ev):
    """The state's arrays without reference counting: views of them are made at every
    node (see :mod:`variants.nrt`); the caller keeps the arrays alive."""
    rows = Rows(unmanaged(rows.bbs), unmanaged(rows.sts), unmanaged(rows.evals),
                unmanaged(rows.moves), unmanaged(rows.scores))
    mem = Memory(unmanaged(mem.tt), unmanaged(mem.killers), unmanaged(mem.history))
    line = Line(unmanaged(line.pv), unmanaged(line.pvlen), unmanaged(line.keys))
    ev = Eval(unmanaged(ev.w), _unmanaged_table(ev.table), ev.noise)
    return rows, mem, line, ev


@njit(cache=True)
def _root_moves(ties, prev_best, root_only, rows, mem, line, ctl):
    """The root's moves in ``rows.moves[0]``, in the order they are searched; their
    number (0: none, or none of ``root_only``'s first ``ctl[C_ROOT_N]``)."""
    bb, st = rows.bbs[0], rows.sts[0]
    line.keys[ctl[C_HIST_LEN]] = core.position_key(bb, st, rows.bbs[1], rows.sts[1])
    n = core.gen_legal(bb, st, rows.moves[0], rows.bbs[1], rows.sts[1])
    mv = rows.moves[0]
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
    sc = rows.scores[0]
    score_moves(bb, st, mv, n, sc, prev_best, mem.killers[0], mem.history, ctl[C_FLAGS])
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
    return n


@njit(cache=True, nogil=True)
def search_root(depth, ties, prev_best, root_only, root_scores, rows, mem, line, ctl, ev,
                alpha_in, beta_in):
    """One iteration at ``depth``. Returns the number of root moves searched;
    ``rows.moves[0, :n]`` holds them in searched order and ``root_scores`` their scores
    (exact for the best, bounds for the others). With ``ctl[C_ROOT_N] > 0`` only the
    legal moves among ``root_only[:ctl[C_ROOT_N]]`` are searched (0 returned when there
    is none), and the root is not stored in the table (its score is not the position's).
    With ``ties``, the best move is drawn at random among the equally scored best ones
    (seeded by ``ctl[C_RNG]``). The window ``(alpha_in, beta_in)`` is an aspiration
    window (-INF, INF for none): a best score at or below ``alpha_in`` or at or above
    ``beta_in`` is only a bound, and the caller searches again. The state (``rows``,
    ``mem``, ``line``, ``ctl``, ``ev``) is grouped as :mod:`search.alphabeta.state` says. With
    ``ctl[C_COLLECT]`` the nodes are recorded in the tail of ``rows.evals`` (see EVALS
    and :func:`_collect`; the root in its own row, unless the root moves are
    restricted)."""
    rows, mem, line, ev = _unmanaged_state(rows, mem, line, ev)
    root_only, root_scores, ctl = unmanaged(root_only), unmanaged(root_scores), unmanaged(ctl)
    line.pvlen[0] = 0
    # Non-literal arguments for negamax (see there).
    one = depth - depth + 1
    no_pv = one - 1
    bb = rows.bbs[0]
    st = rows.sts[0]
    n = _root_moves(ties, prev_best, root_only, rows, mem, line, ctl)
    if n == 0:
        return 0
    key = line.keys[ctl[C_HIST_LEN]]
    restricted = ctl[C_ROOT_N]
    mv = rows.moves[0]
    alpha = alpha_in
    beta = beta_in
    best = -INF
    ctl[C_ROOT_DEPTH] = depth
    for i in range(n):
        m = mv[i]
        core.copy_make(bb, st, rows.bbs[1], rows.sts[1], m)
        rows.evals[1] = rows.evals[0] + evaluate_delta(bb, st, rows.bbs[1], rows.sts[1], ev.w)
        if i == 0:
            score = -negamax(one, depth - 1, -beta, -alpha, one, rows, mem, line, ctl, ev)
        else:
            score = -negamax(one, depth - 1, -alpha - NULL_EPS, -alpha, no_pv, rows, mem, line,
                             ctl, ev)
            if score > alpha and not ctl[C_STOP]:
                score = -negamax(one, depth - 1, -beta, -alpha, one, rows, mem, line, ctl, ev)
        if ctl[C_STOP]:
            return n
        root_scores[i] = score
        if score > best:
            best = score
            alpha = max(alpha, score)
            _update_pv(line.pv, line.pvlen, 0, m)
            if score >= beta:       # fail high on the aspiration window
                for j in range(i + 1, n):
                    root_scores[j] = -INF
                if ctl[C_COLLECT] != 0 and restricted == 0:
                    _collect(bb, st, 0, depth, best, TT_LOWER, ctl, ev.table, rows.evals)
                return n
    if ctl[C_COLLECT] != 0 and restricted == 0:
        _collect(bb, st, 0, depth, best, TT_EXACT if best > alpha_in else TT_UPPER, ctl,
                 ev.table, rows.evals)
    if restricted == 0 and best > alpha_in:
        _store(mem.tt, np.int64(key % np.uint64(mem.tt.shape[0])), key, line.pv[0, 0], best,
               depth, TT_EXACT)
    return n
