"""Proof-number search (Allis): does the side ``target`` force a win from a position?

Best-first over an AND/OR tree in flat arrays: at an OR node ``target`` is to move (one
proving child suffices), at an AND node the other side (every child must be proved). A
node's proof number ``pn`` is how many leaves at least must still be proved to prove
it, its disproof number ``dn`` how many to disprove it; each iteration descends to a
most-proving leaf (OR: the child of least ``pn``, AND: of least ``dn``), expands it with
every legal move and backs the numbers up to the root. A node is proved at ``pn == 0``
(``target`` wins by force), disproved at ``dn == 0`` (it does not: the other side wins,
or it is a draw).

Terminals are python-chess's outcomes (:func:`search.mcts.prior.outcome_value`: checkmate,
stalemate as each variant scores it, variant ends, insufficient material, the 75-move
rule). A position that repeats one on the path from the root (or before it, in the
game) is a draw: a forced win never needs to repeat a position (play the shortest one),
so this costs no proof, and a proof never rests on a repetition the loser could claim.

Where the variant has endgame tables (:mod:`search.solve.endgame`), a child in a table
already built is scored from it at once (a win only where the 75-move rule cannot
intervene), its length the table's distance.

The transposition table keeps what holds whatever the path: proved wins, with their
length. A disproof can rest on a repetition draw, so it is not kept. A win's key mixes in
the half-move clock, on which the 75-move rule depends.

Plain numba functions over tuples of arrays (:class:`ProofTree` holds them), so that
they compile once into the cache; :func:`prove` runs a bounded number of expansions
per call, and :class:`ProofSearch` calls it until the position is solved, the tree is
full, or the time is up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

from variants import Position, core, spec
from variants.position import move_to_uci

from ..alphabeta import negamax as ab
from ..mcts.prior import outcome_value
from . import endgame as eg

#: "Infinite" proof and disproof numbers (sums saturate there).
INF = np.int64(1 << 40)
#: The deepest line the search follows.
MAX_DEPTH = 512
#: :func:`prove`'s answers.
SOLVED, FULL, BUDGET = 0, 1, 2
#: A move's status (:attr:`ProofResult.moves`): proved win for ``target``, disproved, open.
PROVED, DISPROVED, OPEN = 1, -1, 0
_CLOCK_MIX = np.int64(0x2545F4914F6CDD1D)
#: Proved wins the table keeps before it starts afresh (about 100 bytes each).
TABLE_LIMIT = 1 << 20
#: The halfmove clock at which the alpha-beta search (and the referee) calls the game
#: drawn, the 50-move rule: a proved node goes into its table (:func:`store_proved`)
#: only where no line of the proof can reach it.
FIFTY_MOVES = 100

# The node arrays, in this order (:func:`new_nodes`).
NODE_ARRAYS = ("pn", "dn", "plen", "parent", "first", "count", "move", "key")


def new_nodes(capacity: int) -> tuple[np.ndarray, ...]:
    """Empty node arrays for ``capacity`` nodes: proof and disproof numbers, the length
    in plies of a proved node's win, parent, first child and number of children (-1:
    not expanded), the move from the parent, the repetition key."""
    return (np.zeros(capacity, np.int64), np.zeros(capacity, np.int64),
            np.zeros(capacity, np.int64), np.full(capacity, -1, np.int64),
            np.full(capacity, -1, np.int64), np.full(capacity, -1, np.int64),
            np.zeros(capacity, np.int64), np.zeros(capacity, np.int64))


def new_table() -> Any:
    """The transposition table of proved wins: key -> winner * (1 << 32) + length."""
    return Dict.empty(key_type=types.int64, value_type=types.int64)


@njit(cache=True)
def _add(a, b):
    return min(INF, a + b)


@njit(cache=True)
def _table_key(key, st):
    return key ^ (st[core.HALFMOVE] * _CLOCK_MIX)


@njit(cache=True)
def _update(nodes, node, target_or):
    """Recompute ``node``'s numbers (and a proved node's length) from its children."""
    pn, dn, plen, first, count = nodes[0], nodes[1], nodes[2], nodes[4], nodes[5]
    f, n = first[node], count[node]
    if target_or:
        p, d, best = INF, np.int64(0), np.int64(1 << 30)
        for c in range(f, f + n):
            p = min(p, pn[c])
            d = _add(d, dn[c])
            if pn[c] == 0 and plen[c] < best:
                best = plen[c]
        pn[node], dn[node] = p, d
        if p == 0:
            plen[node] = best + 1
    else:
        p, d, worst = np.int64(0), INF, np.int64(0)
        for c in range(f, f + n):
            p = _add(p, pn[c])
            d = min(d, dn[c])
            worst = max(worst, plen[c])
        pn[node], dn[node] = p, d
        if p == 0:
            plen[node] = worst + 1


@njit(cache=True)
def _repeats(nodes, node, k, history):
    """Whether key ``k`` is on the path from the root to ``node`` or in the game before."""
    key, parent = nodes[7], nodes[3]
    i = node
    while i >= 0:
        if key[i] == k:
            return True
        i = parent[i]
    for h in history:
        if h == k:
            return True
    return False


@njit(cache=True)
def _expand(nodes, size, node, bb, st, target, history, table, bufs, endgame):
    """Give leaf ``node`` (position ``bb, st``) a child per legal move, each scored
    where it can be at once (terminal, repetition, an endgame table, a win in the
    transposition table); False when the arrays are full."""
    pn, dn, plen, parent, first, count, move, key = nodes
    moves, sbb, sst, cbb, cst = bufs
    n = outcome_value(bb, st, moves, sbb, sst)[0]
    if size[0] + n > pn.shape[0]:
        return False
    f = size[0]
    for j in range(n):
        c = f + j
        core.copy_make(bb, st, cbb, cst, moves[j])
        k = np.int64(core.position_key(cbb, cst, sbb, sst))
        parent[c], first[c], count[c], move[c], key[c], plen[c] = node, -1, -1, moves[j], k, 0
        cn, cterm, cv = outcome_value(cbb, cst, moves[n:], sbb, sst)   # keeps moves[:n]
        mover = cst[core.TURN]
        ev = _endgame_value(endgame, cbb, cst)
        if cterm:
            win = (cv > 0 and mover == target) or (cv < 0 and mover != target)
            pn[c], dn[c] = (np.int64(0), INF) if win else (INF, np.int64(0))
        elif _repeats(nodes, node, k, history):
            pn[c], dn[c] = INF, np.int64(0)
        elif ev != eg.UNKNOWN:
            if ev != 0 and (ev > 0) == (mover == target):      # target wins
                pn[c], dn[c], plen[c] = np.int64(0), INF, abs(ev) - 1
            else:
                pn[c], dn[c] = INF, np.int64(0)
        else:
            tk = _table_key(k, cst)
            if tk in table:
                e = table[tk]
                if (e >> 32) == target:
                    pn[c], dn[c], plen[c] = np.int64(0), INF, e & 0xFFFFFFFF
                else:
                    pn[c], dn[c] = INF, np.int64(0)
            elif mover == target:               # OR: one of its cn moves must win
                pn[c], dn[c] = np.int64(1), np.int64(max(cn, 1))
            else:                               # AND: all cn replies must lose
                pn[c], dn[c] = np.int64(max(cn, 1)), np.int64(1)
    first[node], count[node] = f, n
    size[0] += n
    return True


@njit(cache=True)
def _endgame_value(endgame, bb, st):
    """A position's endgame-table value (search.solve.endgame's encoding), UNKNOWN where no
    table built answers or where the 75-move rule could turn its win into a draw."""
    tables, limit = endgame
    if limit == 0:
        return np.int16(eg.UNKNOWN)
    v = eg.probe_value(bb, st, limit, tables)
    if v != eg.UNKNOWN and v != 0 and st[core.HALFMOVE] + abs(v) - 1 >= eg.CLOCK_LIMIT:
        return np.int16(eg.UNKNOWN)
    return v


def endgame_of(variant: str) -> tuple[Any, np.int64]:
    """What :func:`prove` reads of ``variant``'s endgame tables: the process's tables
    (those built so far) and their piece limit, or none."""
    if spec.get(variant).endgame_pieces:
        t = eg.tables(variant)
        return t.tables, np.int64(t.limit)
    global _NO_TABLES
    if _NO_TABLES is None:
        _NO_TABLES = eg.new_tables()
    return _NO_TABLES, np.int64(0)


_NO_TABLES: Any = None


@njit(cache=True)
def prove(nodes, size, root_bb, root_st, target, history, table, expansions, bufs, endgame):
    """Up to ``expansions`` iterations of proof-number search from the root (node 0,
    position ``root_bb, root_st``, already added), ``endgame`` the variant's endgame
    tables and their piece limit (0: none); returns SOLVED, FULL or BUDGET."""
    pn, dn, plen, parent, first, count, move, key = nodes
    pbb = np.empty((MAX_DEPTH + 1, core.NBB), np.uint64)
    pst = np.empty((MAX_DEPTH + 1, core.NST), np.int64)
    for _ in range(expansions):
        if pn[0] == 0 or dn[0] == 0:
            return SOLVED
        # Down to a most-proving leaf, the positions made on the way.
        node, d = 0, 0
        pbb[0, :] = root_bb
        pst[0, :] = root_st
        while count[node] >= 0 and d < MAX_DEPTH:
            is_or = pst[d, core.TURN] == target
            f, n = first[node], count[node]
            best = f
            for c in range(f, f + n):
                if is_or:
                    if pn[c] < pn[best]:
                        best = c
                elif dn[c] < dn[best]:
                    best = c
            core.copy_make(pbb[d], pst[d], pbb[d + 1], pst[d + 1], move[best])
            node, d = best, d + 1
        if d >= MAX_DEPTH:                      # too deep to follow: no proof this way
            pn[node], dn[node] = INF, np.int64(0)
        elif not _expand(nodes, size, node, pbb[d], pst[d], target, history, table, bufs,
                         endgame):
            return FULL
        else:
            _update(nodes, node, pst[d, core.TURN] == target)
        # Back up to the root (every ancestor: a child's numbers changed).
        while True:
            if pn[node] == 0:
                table[_table_key(key[node], pst[d])] = (np.int64(target) << 32) | plen[node]
            if node == 0:
                break
            node, d = parent[node], d - 1
            _update(nodes, node, pst[d, core.TURN] == target)
    return SOLVED if pn[0] == 0 or dn[0] == 0 else BUDGET


@njit(cache=True)
def store_proved(nodes, size, root_bb, root_st, target, tt):
    """Write every node of the tree (its first ``size`` nodes) proved for ``target`` into
    the alpha-beta search's transposition table ``tt``
    (:func:`search.alphabeta.negamax.store_proof`): a won position where ``target`` is
    to move, a lost one where the other side is, as mates of the proof's length, so that
    the search reads what was proved through its probes. Walks depth first from the
    root (position ``root_bb, root_st``) down to those nodes only
    (:func:`_towards_proofs`), making the moves for the halfmove clock (the key is the
    node's own, the search's key). Returns the number of entries written."""
    first, count, move = nodes[4], nodes[5], nodes[6]
    wanted = _towards_proofs(nodes, size)
    pbb = np.empty((MAX_DEPTH + 1, core.NBB), np.uint64)
    pst = np.empty((MAX_DEPTH + 1, core.NST), np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)      # the next child to visit, by depth
    end = np.zeros(MAX_DEPTH + 1, np.int64)
    pbb[0, :] = root_bb
    pst[0, :] = root_st
    written = _store_node(nodes, 0, pst[0], target, tt)
    nxt[0], end[0] = first[0], first[0] + (max(count[0], 0) if wanted[0] else 0)
    d = 0
    while d >= 0:
        if nxt[d] >= end[d]:
            d -= 1
            continue
        c = nxt[d]
        nxt[d] += 1
        if not wanted[c]:
            continue
        core.copy_make(pbb[d], pst[d], pbb[d + 1], pst[d + 1], move[c])
        written += _store_node(nodes, c, pst[d + 1], target, tt)
        if count[c] > 0 and d + 2 <= MAX_DEPTH:
            d += 1
            nxt[d], end[d] = first[c], first[c] + count[c]
    return written


@njit(cache=True)
def _towards_proofs(nodes, size):
    """The nodes :func:`store_proved` visits: those proved with a length (expanded, or
    leaves proved by a table of proved wins or the endgame tables; a terminal's length
    is 0, and the search scores terminals itself) and their ancestors, a fraction of a
    full tree's. A child's index is above its parent's, so one pass from the last node
    down marks them."""
    pn, plen, parent = nodes[0], nodes[2], nodes[3]
    wanted = np.zeros(max(size, 1), np.bool_)
    for i in range(size - 1, 0, -1):
        if pn[i] == 0 and plen[i] > 0:
            wanted[i] = True
        if wanted[i]:
            wanted[parent[i]] = True
    wanted[0] = wanted[0] or (pn[0] == 0 and plen[0] > 0)
    return wanted


@njit(cache=True)
def _store_node(nodes, c, st, target, tt):
    """Node ``c`` (its position's state ``st``) into ``tt`` where it is proved and the
    50-move rule cannot touch its proof (the clock plus its length below
    :data:`FIFTY_MOVES`); 1 if written."""
    pn, plen, key = nodes[0], nodes[2], nodes[7]
    if pn[c] != 0 or plen[c] <= 0 or st[core.HALFMOVE] + plen[c] >= FIFTY_MOVES:
        return 0
    won = st[core.TURN] == target
    value = ab.MATE - plen[c]
    ab.store_proof(tt, np.uint64(key[c]), _proof_move(nodes, c, won),
                   value if won else -value)
    return 1


@njit(cache=True)
def _proof_move(nodes, c, won):
    """The best move of the proved node ``c``: the winner's shortest proved move, the
    loser's longest defence (-1 where it has no children)."""
    pn, plen, first, count, move = nodes[0], nodes[2], nodes[4], nodes[5], nodes[6]
    best = -1
    for j in range(first[c], first[c] + max(count[c], 0)):
        if pn[j] == 0 and (best < 0 or (plen[j] < plen[best] if won else plen[j] > plen[best])):
            best = j
    return np.int64(-1) if best < 0 else move[best]


@dataclass
class ProofResult:
    """What a proof search found for ``target`` (the side to move, or the other side).

    ``status``: PROVED (``target`` wins by force), DISPROVED (it does not) or OPEN;
    ``plies``: the length of the proved win along the proof found (not always the
    shortest); ``moves``: each root move's status for ``target`` (PROVED, DISPROVED,
    OPEN) with its proved length; ``best``: a root move of the proof (when the side to
    move is ``target`` and it is proved), ``nodes``: the tree's size."""

    status: int
    plies: int
    moves: dict[str, tuple[int, int]]
    best: str | None
    nodes: int
    seconds: float
    #: A proved win's line: the winner's proof moves, the loser's longest defence.
    pv: list[str] = field(default_factory=list)
    #: The proved nodes written into an alpha-beta transposition table (``solve``'s
    #: ``tt``).
    stored: int = 0


class ProofSearch:
    """A proof-number search with a node budget (``capacity`` nodes of 64 bytes) and a
    transposition table of proved wins that lives as long as the object."""

    def __init__(self, capacity: int = 1 << 20) -> None:
        self.capacity = capacity
        self.table = new_table()
        self._nodes: tuple[np.ndarray, ...] | None = None
        self._bufs = (np.zeros(2 * core.MAX_MOVES, np.int64), np.zeros(core.NBB, np.uint64),
                      np.zeros(core.NST, np.int64), np.zeros(core.NBB, np.uint64),
                      np.zeros(core.NST, np.int64))

    def solve(self, position: Position, *, target: str = "mover",
              seconds: float | None = None, chunk: int = 500,
              stop: Callable[[], bool] | None = None,
              tt: np.ndarray | None = None) -> ProofResult:
        """Search until ``position`` is solved for ``target`` (``mover``: the side to
        move; ``other``: its opponent), the tree is full, ``seconds`` are up or
        ``stop()`` says so (both checked every ``chunk`` expansions). With ``tt`` (an
        alpha-beta transposition table), every node proved is then written into it
        (:func:`store_proved`), whatever the root's status: a node's proof is complete
        once it is proved."""
        if target not in ("mover", "other"):
            raise ValueError(f"target must be 'mover' or 'other', not {target!r}")
        start = time.perf_counter()
        turn = int(position.st[core.TURN])
        side = turn if target == "mover" else 1 - turn
        if len(self.table) > TABLE_LIMIT:   # a long game's proofs: start afresh
            self.table = new_table()
        if self._nodes is None:             # every field of a node is set when it is made
            self._nodes = new_nodes(self.capacity)
        nodes = self._nodes
        size = np.ones(1, np.int64)
        keys = np.array([f.key for f in position._history] + [position.key],
                        dtype=np.uint64).view(np.int64)
        history = keys[:-1]
        nodes[2][0], nodes[3][0], nodes[5][0], nodes[7][0] = 0, -1, -1, keys[-1]
        _n, terminal, v = outcome_value(position.bb, position.st, *self._bufs[:3])
        if terminal:
            win = (v > 0 and turn == side) or (v < 0 and turn != side)
            nodes[0][0], nodes[1][0] = (0, INF) if win else (INF, 0)
        else:
            nodes[0][0], nodes[1][0] = 1, 1
            endgame = endgame_of(position.variant)
            while True:
                state = prove(nodes, size, position.bb, position.st, side, history,
                              self.table, chunk, self._bufs, endgame)
                if state != BUDGET or (seconds is not None
                                       and time.perf_counter() - start >= seconds) or (
                                           stop is not None and stop()):
                    break
        stored = 0 if tt is None else int(store_proved(nodes, size[0], position.bb,
                                                        position.st, side, tt))
        result = self._result(nodes, int(size[0]), side, turn, time.perf_counter() - start)
        result.stored = stored
        return result

    @staticmethod
    def _result(nodes: tuple[np.ndarray, ...], size: int, side: int, turn: int,
                seconds: float) -> ProofResult:
        pn, dn, plen, _parent, first, count, move, _key = nodes

        def status(i: int) -> int:
            return PROVED if pn[i] == 0 else (DISPROVED if dn[i] == 0 else OPEN)

        moves = {}
        best, best_len = None, 1 << 30
        if count[0] > 0:
            for c in range(int(first[0]), int(first[0] + count[0])):
                uci = move_to_uci(int(move[c]))
                moves[uci] = (status(c), int(plen[c]))
                if turn == side and pn[c] == 0 and plen[c] < best_len:
                    best, best_len = uci, int(plen[c])
        pv: list[str] = []
        node, mover = 0, turn
        while pn[0] == 0 and count[node] > 0:
            kids = range(int(first[node]), int(first[node] + count[node]))
            proved = [c for c in kids if pn[c] == 0]
            node = (min if mover == side else max)(proved, key=lambda c: plen[c])
            pv.append(move_to_uci(int(move[node])))
            mover = 1 - mover
        return ProofResult(status(0), int(plen[0]) if pn[0] == 0 else 0, moves, best,
                           size, seconds, pv)


_loaded = threading.Event()


def load() -> None:
    """Load (or compile) the search's code, once per process: a few expansions from
    suicide's start position (what an engine does before its first timed move)."""
    if not _loaded.is_set():
        ProofSearch(1 << 12).solve(Position.start("suicide"), seconds=0.0)
        _loaded.set()


def at_root(search: ProofSearch, position: Position, seconds: float,
            stop: Callable[[], bool] | None = None,
            tt: np.ndarray | None = None) -> tuple[ProofResult, set[str]]:
    """What the engine asks before its alpha-beta search: half of ``seconds`` for a win
    of the side to move (the result), the other half, when that is not proved, for the
    opponent's wins after each move (the moves proved to lose); with ``tt``, both
    searches' proved nodes written into that alpha-beta table."""
    mine = search.solve(position, seconds=seconds / 2, stop=stop, tt=tt)
    if mine.status == PROVED or not mine.moves:
        return mine, set()
    theirs = search.solve(position, target="other", seconds=seconds / 2, stop=stop, tt=tt)
    mine.nodes += theirs.nodes
    mine.stored += theirs.stored
    return mine, {m for m, (status, _plies) in theirs.moves.items() if status == PROVED}
