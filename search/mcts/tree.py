"""The MCTS tree in flat arrays, and its playouts in numba (:mod:`search.mcts.driver` drives it).

A node is an index into the node arrays, an edge (a legal move of a node) an index into
the edge arrays; a node's edges are ``first[i] .. first[i] + count[i]``, made when the
node is (its legal moves are generated then, to see whether the game is over there).
Edge statistics live on the edge: prior ``P``, visits ``N``, value sum ``W`` for the
side to move at the edge's node, the exact value ``E`` of a proven child (NaN
otherwise) and the ``child`` node (-1 until a playout first goes there).

:func:`collect` runs playouts down to new leaves, with a virtual loss on the way, and
hands back a batch of leaves for one evaluator call; :func:`expand` and
:func:`expand_logits` give the leaves their priors and values, :func:`find_wins` may
prove some won at once, :func:`finish` backs the batch up. A new node whose position an
expanded node already holds (a transposition; ``cache`` maps repetition keys to nodes)
takes that node's priors and value without an evaluation. Terminal positions and draws by repetition or the 50-move rule are exact and
proven (:func:`prove`), as the module docstring of :mod:`search.mcts.driver` describes.

Plain numba functions over tuples of arrays (``nodes``, ``edges``; :class:`Tree` holds
them), so that they compile once into the cache.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

from variants import core

from .encoding import move_index
from .prior import child_outcome, outcome_value

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3          # proof status, for the side to move there
F_EXPANDED, F_PENDING, F_RULE_DRAW = 1, 2, 4   # node flags
#: The settings array (:func:`settings`): PUCT's constants, first play urgency, virtual
#: loss, the value of a draw by rule inside the tree.
(S_C_INIT, S_C_BASE, S_Q_INIT, S_FPU_PARENT, S_FPU_REDUCTION, S_U_DIVISOR, S_VL, S_DRAW,
 S_U_MIN, S_U_BASE, S_CHECK_THRESH, S_CHECK_FACTOR, S_UNIFORM) = range(13)
#: The longest path a playout follows (deeper, it stops and evaluates where it is).
MAX_DEPTH = 1024
#: What :func:`collect` reports besides its counts.
OK, FULL = 0, 1


def settings(puct: Any, virtual_loss: float, uniform: bool = False) -> np.ndarray:
    """The settings array the kernels read, from a :class:`search.mcts.driver.PUCT` (``q_init``
    ``"parent"``: first play urgency; a ``u_min_divisor`` of None: no schedule; a
    ``check_factor`` of 0: no check enhancement). ``uniform``: the trivial evaluator,
    applied where a leaf is found, inside :func:`collect`."""
    q_init, u_min = puct.q_init, puct.u_min_divisor
    out = np.zeros(13)
    out[S_UNIFORM] = 1.0 if uniform else 0.0
    out[S_C_INIT], out[S_C_BASE] = puct.c_puct_init, puct.c_puct_base
    out[S_FPU_PARENT] = 1.0 if q_init == "parent" else 0.0
    out[S_Q_INIT] = 0.0 if q_init == "parent" else float(q_init)
    out[S_FPU_REDUCTION], out[S_U_DIVISOR] = puct.fpu_reduction, puct.u_divisor
    out[S_VL], out[S_DRAW] = virtual_loss, puct.draw_value
    out[S_U_MIN] = puct.u_divisor if u_min is None else u_min
    out[S_U_BASE] = puct.u_base_divisor
    out[S_CHECK_THRESH], out[S_CHECK_FACTOR] = puct.check_thresh, puct.check_factor
    return out


#: The node arrays, in the order of :attr:`Tree.nodes`: (name, dtype, columns).
NODE_ARRAYS = (("bb", np.uint64, core.NBB), ("st", np.int64, core.NST), ("first", np.int64, 0),
               ("count", np.int64, 0), ("visits", np.int64, 0), ("value", np.float64, 0),
               ("status", np.int8, 0), ("plies", np.int64, 0), ("key", np.uint64, 0),
               ("flags", np.int8, 0))
#: The edge arrays, in the order of :attr:`Tree.edges`: (name, dtype, fill).
EDGE_ARRAYS = (("move", np.int64, 0), ("P", np.float64, 0.0), ("N", np.float64, 0.0),
               ("W", np.float64, 0.0), ("E", np.float64, np.nan), ("child", np.int64, -1))


class Tree:
    """The arrays of a tree (:data:`NODE_ARRAYS`, :data:`EDGE_ARRAYS`), grown by
    doubling when a playout finds them full."""

    bb: np.ndarray
    st: np.ndarray
    first: np.ndarray
    count: np.ndarray
    visits: np.ndarray
    value: np.ndarray
    status: np.ndarray
    plies: np.ndarray
    key: np.ndarray
    flags: np.ndarray
    move: np.ndarray
    P: np.ndarray
    N: np.ndarray
    W: np.ndarray
    E: np.ndarray
    child: np.ndarray

    def __init__(self, nodes: int = 1024, edges: int = 32768) -> None:
        for name, dtype, columns in NODE_ARRAYS:
            setattr(self, name, np.zeros((nodes, columns) if columns else nodes, dtype=dtype))
        for name, dtype, fill in EDGE_ARRAYS:
            setattr(self, name, np.full(edges, fill, dtype=dtype))
        self.size = np.zeros(2, dtype=np.int64)           # nodes, edges in use
        self.cache = Dict.empty(key_type=types.uint64, value_type=types.int64)

    @property
    def nodes(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name, _, _ in NODE_ARRAYS)

    @property
    def edges(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name, _, _ in EDGE_ARRAYS)

    def grow(self) -> None:
        """Double whichever of the node and edge arrays is more than half full."""
        used_nodes, used_edges = self.size
        if used_nodes * 2 >= len(self.first):
            for name, _, _ in NODE_ARRAYS:
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)]))
        if used_edges * 2 >= len(self.move):
            for name, _, fill in EDGE_ARRAYS:
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.full_like(a, fill)]))

    def subtree(self, root: int) -> Tree:
        """A new tree of ``root`` and what lies below it (``root`` becomes node 0): what
        a game's earlier moves left behind is dropped."""
        out = Tree(max(1024, len(self.first)), max(32768, len(self.move)))
        copy_subtree(self.nodes, self.edges, root, out.nodes, out.edges, out.size, out.cache)
        return out

    def moves_of(self, node: int) -> np.ndarray:
        f, n = self.first[node], self.count[node]
        return self.move[f:f + n]

    def edge_range(self, node: int) -> slice:
        return slice(int(self.first[node]), int(self.first[node] + self.count[node]))

    def nbytes(self) -> int:
        return sum(a.nbytes for a in (*self.nodes, *self.edges))


# -- nodes ------------------------------------------------------------------------------------

@njit(cache=True)
def add_node(nodes, edges, size, bb, st, line, nline, bufs, cfg):
    """Append the position ``(bb, st)``: its legal moves as edges; terminal, or a draw by
    rule when ``nline`` > 0 (``line[:nline]``: the keys of the positions before it,
    ``line`` with room for one more). Returns the node, or -1 when the arrays are full."""
    nbb, nst, first, count, visits, value, status, plies, key, flags = nodes
    move, P, N, W, E, child = edges
    moves, sbb, sst = bufs
    i = size[0]
    if i >= first.shape[0]:
        return -1
    n, terminal, v = outcome_value(bb, st, moves, sbb, sst)
    if size[1] + n > move.shape[0]:
        return -1
    nbb[i, :] = bb
    nst[i, :] = st
    k = core.position_key(bb, st, sbb, sst)
    key[i] = k
    visits[i] = 0
    value[i] = 0.0
    status[i] = UNKNOWN
    plies[i] = 0
    flags[i] = 0
    first[i] = size[1]
    count[i] = 0
    if terminal:
        status[i] = WIN if v > 0 else (LOSS if v < 0 else DRAW)
        value[i] = v
    else:
        drawn = False
        if nline > 0:
            line[nline] = k
            drawn = core.rule_draw(st, line, nline, k, 0)
        if drawn:
            status[i] = DRAW
            value[i] = -cfg[S_DRAW]
            flags[i] = F_RULE_DRAW
        else:
            f = size[1]
            for j in range(n):
                move[f + j] = moves[j]
                P[f + j] = 0.0
                N[f + j] = 0.0
                W[f + j] = 0.0
                E[f + j] = np.nan
                child[f + j] = -1
            count[i] = n
            size[1] += n
    size[0] += 1
    return i


@njit(cache=True)
def add_child(nodes, edges, size, node, e, line, nline, bufs, scratch, cfg):
    """The child of edge ``e`` of ``node``, made now (see :func:`add_node`; ``scratch``:
    arrays for the child's position); -1 when full."""
    cbb, cst = scratch
    core.copy_make(nodes[0][node], nodes[1][node], cbb, cst, edges[0][e])
    c = add_node(nodes, edges, size, cbb, cst, line, nline, bufs, cfg)
    if c >= 0:
        edges[5][e] = c
    return c


@njit(cache=True)
def exact(nodes, node):
    """The exact value of a proven node for its side to move (a draw by rule: its
    contempt)."""
    status, flags = nodes[6], nodes[9]
    if flags[node] & F_RULE_DRAW:
        return nodes[5][node]
    if status[node] == WIN:
        return 1.0
    if status[node] == LOSS:
        return -1.0
    return 0.0


# -- playouts ---------------------------------------------------------------------------------

@njit(cache=True)
def select(nodes, edges, node, cfg):
    """PUCT's choice among ``node``'s edges: ``argmax Q + U`` (the first of equals)."""
    first, count, value = nodes[2], nodes[3], nodes[5]
    P, N, W, E = edges[1], edges[2], edges[3], edges[4]
    f, n = first[node], count[node]
    total, wsum = 0.0, 0.0
    for j in range(f, f + n):
        total += N[j]
        wsum += W[j]
    c = math.log((total + cfg[S_C_BASE] + 1.0) / cfg[S_C_BASE]) + cfg[S_C_INIT]
    if cfg[S_FPU_PARENT] > 0:
        qi = (value[node] + wsum) / (1.0 + total) - cfg[S_FPU_REDUCTION]
    else:
        qi = cfg[S_Q_INIT]
    scale = c * math.sqrt(max(total, 1.0))
    # CrazyAra's u-divisor schedule (Eq. 11): from u_divisor towards u_min as visits grow.
    u_min = cfg[S_U_MIN]
    u_div = u_min - math.exp(-total / cfg[S_U_BASE]) * (u_min - cfg[S_U_DIVISOR])
    best, pick = -np.inf, f
    for j in range(f, f + n):
        if not np.isnan(E[j]):
            q = E[j]
        elif N[j] > 0:
            q = W[j] / max(N[j], 1e-9)
        else:
            q = qi
        s = q + scale * P[j] / (u_div + N[j])
        if s > best:
            best, pick = s, j
    return pick


@njit(cache=True)
def backup(nodes, edges, pn, pe, d, leaf, v, vl):
    """Back ``v`` (the leaf's value for its side to move) up the path of ``d`` edges,
    taking the virtual loss ``vl`` off again."""
    visits = nodes[4]
    N, W = edges[2], edges[3]
    visits[leaf] += 1
    for j in range(d - 1, -1, -1):
        v = -v
        e = pe[j]
        N[e] += 1.0 - vl
        W[e] += v + vl
        visits[pn[j]] += 1


@njit(cache=True)
def undo_virtual(edges, pe, d, vl):
    N, W = edges[2], edges[3]
    for j in range(d):
        N[pe[j]] -= vl
        W[pe[j]] += vl


@njit(cache=True)
def prove(nodes, edges, pn, pe, d):
    """Carry a proof from the end of the path up as far as it changes anything: a move
    to a proven loss makes a proven win (shortest), all moves to proven wins a proven
    loss (longest), all proven with a draw among them a proven draw."""
    first, count, status, plies = nodes[2], nodes[3], nodes[6], nodes[7]
    E, child = edges[4], edges[5]
    for j in range(d - 1, -1, -1):
        node, e = pn[j], pe[j]
        c = child[e]
        if c < 0 or status[c] == UNKNOWN:
            return
        E[e] = -exact(nodes, c)
        before_s, before_p = status[node], plies[node]
        f, n = first[node], count[node]
        win_plies, unknown, draws, longest = -1, False, False, 0
        for k in range(f, f + n):
            ck = child[k]
            s = UNKNOWN if ck < 0 else status[ck]
            if s == UNKNOWN:
                unknown = True
                continue
            if s == LOSS and (win_plies < 0 or plies[ck] < win_plies):
                win_plies = plies[ck]
            if s == DRAW:
                draws = True
            longest = max(longest, plies[ck])
        if win_plies >= 0:
            status[node], plies[node] = WIN, 1 + win_plies
        elif not unknown:
            status[node], plies[node] = (DRAW if draws else LOSS), 1 + longest
        if status[node] == before_s and plies[node] == before_p:
            return


@njit(cache=True)
def _descend(nodes, edges, size, root, cfg, line, nhist, bufs, scratch, pn, pe):
    """One playout's way down: returns (leaf, depth) with the path in ``pn``/``pe``, or
    (-1, depth) when the arrays are full (the virtual loss taken off again)."""
    status, key, flags = nodes[6], nodes[8], nodes[9]
    child, N, W = edges[5], edges[2], edges[3]
    vl = cfg[S_VL]
    node, d, nl = root, 0, nhist
    while (status[node] == UNKNOWN and flags[node] & F_EXPANDED and not flags[node] & F_PENDING
           and d < MAX_DEPTH):
        e = select(nodes, edges, node, cfg)
        pn[d], pe[d] = node, e
        d += 1
        N[e] += vl
        W[e] -= vl
        line[nl] = key[node]
        nl += 1
        c = child[e]
        if c < 0:
            c = add_child(nodes, edges, size, node, e, line, nl, bufs, scratch, cfg)
            if c < 0:
                undo_virtual(edges, pe, d, vl)
                return -1, d
            return c, d
        node = c
    return node, d


@njit(cache=True)
def _repeated(line, n, k):
    """How often the key ``k`` occurs in ``line[:n]`` (the game and the path before a
    leaf), at most 2: the network's repetition planes."""
    seen = 0
    for i in range(n):
        if line[i] == k:
            seen += 1
    return min(seen, 2)


@njit(cache=True)
def collect(nodes, edges, size, root, cfg, line, nhist, bufs, scratch, batch, cache, k):
    """Up to ``k`` playouts from ``root``; those that end on a proven node or a
    transposition are backed up at once, the others' new leaves wait (pending) in
    ``batch`` = (leaves, path nodes, path edges, depths, repetitions) for one evaluation. ``line``:
    the keys of the game before the root in ``line[:nhist]``, room for a path after.
    Returns (playouts done, leaves waiting, OK or FULL, sum of depths, deepest)."""
    status, value, flags, first, count, key = nodes[6], nodes[5], nodes[9], nodes[2], nodes[3], nodes[8]
    P = edges[1]
    leaves, pns, pes, depths, reps = batch
    vl = cfg[S_VL]
    uniform = np.ones(core.MAX_MOVES)
    done, waiting, dsum, dmax = 0, 0, 0, 0
    for _ in range(k):
        pn, pe = pns[waiting], pes[waiting]
        leaf, d = _descend(nodes, edges, size, root, cfg, line, nhist, bufs, scratch, pn, pe)
        if leaf < 0:
            return done, waiting, FULL, dsum, dmax
        if status[leaf] != UNKNOWN:
            backup(nodes, edges, pn, pe, d, leaf, exact(nodes, leaf), vl)
            prove(nodes, edges, pn, pe, d)
        elif flags[leaf] & F_PENDING:
            undo_virtual(edges, pe, d, vl)
            break
        elif not flags[leaf] & F_EXPANDED and key[leaf] in cache:
            src = cache[key[leaf]]          # a transposition: its evaluation, no new one
            if count[src] != count[leaf]:
                flags[leaf] |= F_PENDING
                leaves[waiting], depths[waiting] = leaf, d
                reps[waiting] = _repeated(line, nhist + d, key[leaf])
                waiting += 1
                continue
            for j in range(count[leaf]):
                P[first[leaf] + j] = P[first[src] + j]
            value[leaf] = value[src]
            flags[leaf] |= F_EXPANDED
            backup(nodes, edges, pn, pe, d, leaf, value[leaf], vl)
        elif flags[leaf] & F_EXPANDED:      # d == MAX_DEPTH: as deep as a playout goes
            backup(nodes, edges, pn, pe, d, leaf, value[leaf], vl)
        elif cfg[S_UNIFORM] > 0:
            expand(nodes, edges, leaf, uniform[:count[leaf]], 0.0, cache, cfg, scratch)
            backup(nodes, edges, pn, pe, d, leaf, 0.0, vl)
        else:
            flags[leaf] |= F_PENDING
            leaves[waiting], depths[waiting] = leaf, d
            reps[waiting] = _repeated(line, nhist + d, key[leaf])
            waiting += 1
            continue
        done += 1
        dsum += d
        dmax = max(dmax, d)
        if status[root] != UNKNOWN:
            break
    return done, waiting, OK, dsum, dmax


@njit(cache=True)
def _enhance_checks(nodes, edges, leaf, cfg, scratch):
    """CrazyAra's check enhancement (Eq. 12): a checking move with a prior under the
    threshold gets ``check_factor`` times the largest prior added; renormalised."""
    first, count = nodes[2], nodes[3]
    move, P = edges[0], edges[1]
    cbb, cst = scratch
    f, n = first[leaf], count[leaf]
    top = 0.0
    for j in range(f, f + n):
        top = max(top, P[j])
    s = 0.0
    for j in range(f, f + n):
        if P[j] < cfg[S_CHECK_THRESH]:
            core.copy_make(nodes[0][leaf], nodes[1][leaf], cbb, cst, move[j])
            if core.checkers_mask(cbb, cst):
                P[j] += cfg[S_CHECK_FACTOR] * top
        s += P[j]
    for j in range(f, f + n):
        P[j] /= s


@njit(cache=True)
def expand(nodes, edges, leaf, probs, v, cache, cfg, scratch):
    """Give ``leaf`` its priors (``probs``, aligned with its edges; normalised, uniform
    when they sum to nothing; checks enhanced when ``cfg`` says) and value (clipped to
    [-1, 1])."""
    first, count, value, key, flags = nodes[2], nodes[3], nodes[5], nodes[8], nodes[9]
    P = edges[1]
    f, n = first[leaf], count[leaf]
    s = 0.0
    for j in range(n):
        p = probs[j]
        p = p if p > 0.0 else 0.0          # noqa: FURB136  (NaN too)
        P[f + j] = p
        s += p
    for j in range(n):
        P[f + j] = P[f + j] / s if s > 0.0 and np.isfinite(s) else 1.0 / n
    if cfg[S_CHECK_FACTOR] > 0.0 and n > 0:
        _enhance_checks(nodes, edges, leaf, cfg, scratch)
    value[leaf] = min(1.0, max(-1.0, v))
    flags[leaf] = (flags[leaf] | F_EXPANDED) & ~F_PENDING
    cache[key[leaf]] = leaf


@njit(cache=True)
def expand_logits(nodes, edges, leaves, n, logits, values, cache, cfg, scratch):
    """:func:`expand` the first ``n`` leaves from a network's policy logits over the move
    map (:mod:`search.mcts.encoding`): the softmax over each leaf's legal moves."""
    nst, first, count = nodes[1], nodes[2], nodes[3]
    move = edges[0]
    buf = np.zeros(core.MAX_MOVES)
    for i in range(n):
        leaf = leaves[i]
        f, k = first[leaf], count[leaf]
        turn = nst[leaf, core.TURN]
        top = -np.inf
        for j in range(k):
            buf[j] = logits[i, move_index(move[f + j], turn)]
            top = max(top, buf[j])
        for j in range(k):
            buf[j] = math.exp(buf[j] - top)
        expand(nodes, edges, leaf, buf[:k], values[i], cache, cfg, scratch)


@njit(cache=True)
def find_wins(nodes, edges, size, batch, n, bufs, scratch, cfg):
    """A move that wins at once (mate, or the variant's own win), looked for among all the
    legal moves of the first ``n`` leaves of ``batch``, just expanded: a leaf with one is
    proven won, its value 1, whatever its prior gave that move. Without it a winning
    move the policy rates low is found only if a playout happens to try it. Its child
    is made (a terminal node); a tree too full for it is left as it was."""
    nst, value, status, plies = nodes[1], nodes[5], nodes[6], nodes[7]
    first, count = nodes[2], nodes[3]
    move, E, child = edges[0], edges[4], edges[5]
    moves, sbb, sst = bufs
    cbb, cst = scratch
    line = np.zeros(1, dtype=np.uint64)
    for i in range(n):
        leaf = batch[0][i]
        for e in range(first[leaf], first[leaf] + count[leaf]):
            if child[e] >= 0:
                continue
            core.copy_make(nodes[0][leaf], nst[leaf], cbb, cst, move[e])
            terminal, v = child_outcome(cbb, cst, moves, sbb, sst)
            if not terminal or v >= 0.0:
                continue
            c = add_node(nodes, edges, size, cbb, cst, line, 0, bufs, cfg)
            if c < 0:
                break
            child[e], E[e] = c, 1.0
            status[leaf], plies[leaf], value[leaf] = WIN, 1, 1.0
            break


@njit(cache=True)
def finish(nodes, edges, batch, n, cfg):
    """Back up the first ``n`` leaves of ``batch``, expanded by now; returns the sum of
    their depths and the deepest."""
    leaves, pns, pes, depths = batch[0], batch[1], batch[2], batch[3]
    dsum, dmax = 0, 0
    for i in range(n):
        d = depths[i]
        backup(nodes, edges, pns[i], pes[i], d, leaves[i], nodes[5][leaves[i]], cfg[S_VL])
        if nodes[6][leaves[i]] != UNKNOWN:          # proven when expanded (find_wins)
            prove(nodes, edges, pns[i], pes[i], d)
        dsum += d
        dmax = max(dmax, d)
    return dsum, dmax


@njit(cache=True)
def copy_subtree(nodes, edges, root, to_nodes, to_edges, to_size, to_cache):
    """Copy ``root`` and every node below it, breadth first, into the empty arrays
    ``to_*`` (large enough: those of a tree at least as big); ``root`` becomes node 0,
    the evaluated nodes go into ``to_cache``."""
    first, count, key, flags = nodes[2], nodes[3], nodes[8], nodes[9]
    move, P, N, W, E, child = edges
    remap = np.full(first.shape[0], -1, dtype=np.int64)
    queue = np.empty(first.shape[0], dtype=np.int64)
    remap[root], queue[0], head, tail = 0, root, 0, 1
    to_size[0] = 1
    while head < tail:
        src = queue[head]
        dst = remap[src]
        head += 1
        to_nodes[0][dst, :] = nodes[0][src]
        to_nodes[1][dst, :] = nodes[1][src]
        to_nodes[3][dst] = count[src]
        to_nodes[4][dst] = nodes[4][src]
        to_nodes[5][dst] = nodes[5][src]
        to_nodes[6][dst] = nodes[6][src]
        to_nodes[7][dst] = nodes[7][src]
        to_nodes[8][dst] = key[src]
        to_nodes[9][dst] = flags[src]
        f, g = first[src], to_size[1]
        to_nodes[2][dst] = g
        for j in range(count[src]):
            to_edges[0][g + j] = move[f + j]
            to_edges[1][g + j] = P[f + j]
            to_edges[2][g + j] = N[f + j]
            to_edges[3][g + j] = W[f + j]
            to_edges[4][g + j] = E[f + j]
            c = child[f + j]
            if c >= 0 and remap[c] < 0:
                remap[c] = to_size[0]
                to_size[0] += 1
                queue[tail] = c
                tail += 1
            to_edges[5][g + j] = remap[c] if c >= 0 else -1
        to_size[1] += count[src]
        if flags[src] & F_EXPANDED:
            to_cache[key[src]] = dst


def batch_buffers(size: int) -> tuple[np.ndarray, ...]:
    """The ``batch`` of :func:`collect` for ``size`` leaves: the leaves, their paths'
    nodes and edges, their depths and how often each occurred before."""
    return (np.zeros(size, dtype=np.int64), np.zeros((size, MAX_DEPTH), dtype=np.int64),
            np.zeros((size, MAX_DEPTH), dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int64))
