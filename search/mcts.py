"""PUCT Monte-Carlo tree search over any evaluator, as CrazyAra describes it.

An *evaluator* is any callable ``evaluator(positions) -> (policies, values)``:
``positions`` is a list of :class:`variants.Position` (no history; ``pos.bb``/``pos.st``,
``pos.legal_moves()``, ``pos.fen()``, ``pos.to_board()``); each policy is either a
mapping ``{uci: weight}`` or a sequence aligned with ``pos.legal_moves()`` (weights are
renormalised over the legal moves; missing moves get 0; all zero means uniform); each
value is the side to move's expectation in [-1, 1]. Positions whose game is over are
never sent: the tree scores them exactly. The default evaluator is the heuristic prior
(:class:`search.prior.HeuristicPrior`), called on its fast path (no Python per move).

The search (CrazyAra, section 9; Silver et al. 2017):

* selection ``argmax_a Q(s, a) + U(s, a)``, ``U = c_puct(s) P(s, a) sqrt(sum_b N(s, b)) /
  (u_divisor + N(s, a))``, with ``c_puct(s) = log((sum_b N(s, b) + 19652 + 1) / 19652) +
  2.5``; an unvisited move has ``Q = q_init`` (CrazyAra: -1), or with ``q_init="parent"``
  the position's own mean value less ``fpu_reduction`` (Leela's "first play urgency"),
  which explores more when the prior is flat;
* expansion and evaluation of one new position per playout (``batch_size`` > 1 collects
  several leaves per evaluator call, spread apart by a virtual loss), and the negated
  value backed up along the path (Q is the mean);
* terminal positions (mate, stalemate, variant wins and losses, insufficient material,
  the 50-move rule and repetitions, scored as draws as the alpha-beta search does) are
  exact and *proven*: a position with a move to a proven loss for the opponent is a
  proven win, one whose moves all lead to proven wins for the opponent a proven loss
  (the longest), all proven with a draw among them a proven draw. A proven edge's Q is
  its exact value; the search stops when the root is proven and then plays the shortest
  win proven by then (a shorter one may be left unproven) or the longest loss;
* the move played: the most visited (``move_selection="visits"``) or CrazyAra's
  visits-and-Q mix (``"q"``, the default: Eq. 5 with ``q_factor`` 0.7 and the dynamic
  ``Q_thresh`` of Eq. 7); proven losses are avoided while anything else is left;
  ``temperature`` > 0 samples proportionally to ``N^(1/temperature)`` instead;
* Dirichlet noise on the root priors as an option (CrazyAra: ``alpha`` 0.2, 25%);
* tree reuse: :meth:`MCTS.advance` keeps the subtree of the move played, and
  :meth:`MCTS.search` on a position that continues the last one (same start and more
  moves, or a FEN found among the tree's children and grandchildren) reuses it.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess
import numpy as np
from numba import njit

from variants import Position, VariantError, canonical_variant, core, spec
from variants.position import move_to_uci

from .prior import HeuristicPrior, outcome_value, to_position

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3          # proof status, for the side to move there
_STATUS_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
_STATUS_VALUE = {WIN: 1.0, LOSS: -1.0, DRAW: 0.0}
DEFAULT_PLAYOUTS = 800

Evaluator = Callable[[Sequence[Position]], tuple[Sequence[Any], Sequence[float] | np.ndarray]]


# ---------------------------------------------------------------------------------------
# numba helpers
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def node_info(bb, st, moves, sbb, sst):
    """(legal moves, terminal, exact value, repetition key) of a position."""
    n, terminal, v = outcome_value(bb, st, moves, sbb, sst)
    return n, terminal, v, core.position_key(bb, st, sbb, sst)


@njit(cache=True)
def child_info(pbb, pst, m, cbb, cst, moves, sbb, sst):
    """Play ``m`` into ``cbb``/``cst`` and return :func:`node_info` of the child."""
    core.copy_make(pbb, pst, cbb, cst, m)
    return node_info(cbb, cst, moves, sbb, sst)


# ---------------------------------------------------------------------------------------
# The tree
# ---------------------------------------------------------------------------------------


class Node:
    """A position in the tree. Edge statistics live in the parent: ``N``, ``W`` (value
    sum for this node's side to move), ``E`` (exact value of a proven child, else NaN)."""

    __slots__ = (
        "E",
        "N",
        "P",
        "P_raw",
        "W",
        "bb",
        "children",
        "key",
        "moves",
        "pending",
        "plies",
        "rule_draw",
        "st",
        "status",
        "value",
        "visits",
    )

    def __init__(self, bb: np.ndarray, st: np.ndarray, key: int, moves: np.ndarray) -> None:
        self.bb = bb
        self.st = st
        self.key = key
        self.moves = moves
        self.P: np.ndarray | None = None          # None: not evaluated yet
        self.P_raw: np.ndarray | None = None
        n = len(moves)
        self.N = np.zeros(n, dtype=np.float64)
        self.W = np.zeros(n, dtype=np.float64)
        self.E = np.full(n, np.nan)
        self.children: list[Node | None] = [None] * n
        self.visits = 0
        self.value = 0.0
        self.status = UNKNOWN
        self.plies = 0                              # to the end of the game, when proven
        self.pending = False
        self.rule_draw = False       # a draw by repetition or the 50-move rule (not at a root)

    @property
    def expanded(self) -> bool:
        return self.P is not None

    def uci(self, i: int) -> str:
        return move_to_uci(int(self.moves[i]))

    def q(self, q_init: float = -1.0) -> np.ndarray:
        """Q of every move (mover's view): exact when proven, ``q_init`` when unvisited."""
        q = np.where(self.N > 0, self.W / np.maximum(self.N, 1e-9), q_init)
        return np.where(np.isnan(self.E), q, self.E)


@dataclass
class MCTSResult:
    """What a search found. Values are for the side to move at the root, in [-1, 1]."""

    move: str | None
    value: float
    cp: int                                  # CrazyAra's Eq. 8: the value in centipawns
    pv: list[str]
    visits: dict[str, int]
    q: dict[str, float]
    prior: dict[str, float]
    playouts: int                            # simulations of this search
    nodes: int                               # visits of the root, reused ones included
    time: float
    depth: int = 0                           # mean depth of this search's leaves
    seldepth: int = 0
    proven: str | None = None                # "win", "loss" or "draw" when the root is proven
    mate: int | None = None                  # moves to the proven end (UCI 'score mate'), < 0 lost
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def nps(self) -> float:
        return self.playouts / self.time if self.time > 0 else 0.0

    @property
    def score(self) -> float:
        """The value in pawns (``cp / 100``), as :class:`search.engine.SearchResult` has it."""
        return self.cp / 100.0

    def uci_info(self) -> str:
        """The UCI ``info`` line of this result (without the leading ``info``)."""
        score = f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"
        parts = [f"depth {max(1, self.depth)}", f"seldepth {max(1, self.seldepth)}",
                 f"score {score}", f"nodes {self.nodes}", f"nps {int(self.nps)}",
                 f"time {int(self.time * 1000)}"]
        if self.pv:
            parts.append("pv " + " ".join(self.pv))
        return " ".join(parts)


def value_to_cp(v: float) -> int:
    """CrazyAra's Eq. 8: ``cp = -v/|v| log(1 - |v|) / log 1.2`` (x100: centipawns)."""
    a = min(abs(v), 0.9999)
    if a == 0:
        return 0
    cp = -math.log(1.0 - a) / math.log(1.2) * 100.0
    return round(cp if v > 0 else -cp)


@dataclass(frozen=True)
class PUCT:
    """The settings of the tree search (keywords of :class:`MCTS`): CrazyAra's defaults
    except ``dirichlet_epsilon`` (0: no noise; CrazyAra uses 0.25 with
    ``dirichlet_alpha`` 0.2) and ``batch_size`` (1: one leaf per evaluator call; a
    network wants 8 or more, with CrazyAra's virtual loss 3)."""

    c_puct_init: float = 2.5
    c_puct_base: float = 19652.0
    q_init: float | str = -1.0
    fpu_reduction: float = 0.1
    u_divisor: float = 1.0
    move_selection: str = "q"
    q_factor: float = 0.7
    q_thresh_init: float = 0.5
    q_thresh_max: float = 0.9
    q_thresh_base: float = 1965.0
    dirichlet_alpha: float = 0.2
    dirichlet_epsilon: float = 0.0
    batch_size: int = 1
    virtual_loss: float = 3.0
    tree_limit: int = 500_000
    draw_value: float = 0.0

    def __post_init__(self) -> None:
        if self.move_selection not in ("q", "visits"):
            raise ValueError("move_selection must be 'q' or 'visits'")
        if self.batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if isinstance(self.q_init, str) and self.q_init != "parent":
            raise ValueError("q_init must be a number or 'parent'")


class MCTS:
    """PUCT search for one variant.

    >>> mcts = MCTS("crazyhouse")                      # heuristic prior, CrazyAra's settings
    >>> r = mcts.search(board, playouts=800)           # doctest: +SKIP
    >>> r.move, r.value, r.pv, r.visits                # doctest: +SKIP
    >>> mcts.advance(r.move)                           # keep the subtree  # doctest: +SKIP

    ``evaluator``: a callable ``(positions) -> (policies, values)`` (see the module
    docstring), or None for the heuristic prior of ``weights`` (``prior_depth``,
    ``temperature``: see :class:`search.prior.HeuristicPrior`). The other keywords are
    the tree's settings, :class:`PUCT` (a TypeError names one that is not). ``tree_limit`` bounds
    the root's visits, and so the tree (about 4 KB a node: 500,000 nodes are 2 GB); a
    search that reaches it ends as if its time were up. ``draw_value`` is what a draw by
    repetition or the 50-move rule inside the tree is worth to the side that steers
    into it (0; a small negative value is a contempt: both sides avoid repeating, which a
    flat evaluation otherwise welcomes). Draws by the rules of the game are 0 always.
    """

    def __init__(self, variant: str = "chess", evaluator: Evaluator | None = None, *,
                 weights: Any = None, prior_depth: int = 0, temperature: float | None = None,
                 seed: int = 0, **settings: Any) -> None:
        self.variant = canonical_variant(variant)
        if evaluator is None:
            evaluator = HeuristicPrior(self.variant, weights, prior_depth, temperature)
        self.evaluator: Evaluator = evaluator
        self._fast = isinstance(evaluator, HeuristicPrior)
        s = PUCT(**settings)
        self.settings = s
        self.c_puct_init = s.c_puct_init
        self.c_puct_base = s.c_puct_base
        self.q_init = s.q_init
        self.fpu_reduction = float(s.fpu_reduction)
        self.u_divisor = s.u_divisor
        self.move_selection = s.move_selection
        self.q_factor = s.q_factor
        self.q_thresh_init = s.q_thresh_init
        self.q_thresh_max = s.q_thresh_max
        self.q_thresh_base = s.q_thresh_base
        self.dirichlet_alpha = s.dirichlet_alpha
        self.dirichlet_epsilon = s.dirichlet_epsilon
        self.batch_size = int(s.batch_size)
        self.virtual_loss = float(s.virtual_loss) if s.batch_size > 1 else 0.0
        self.tree_limit = int(s.tree_limit)
        self.draw_value = float(s.draw_value)
        self.seed = seed
        self._stop = threading.Event()
        self._moves_buf = np.zeros(core.MAX_MOVES, dtype=np.int64)
        self._sbb = np.zeros(core.NBB, dtype=np.uint64)
        self._sst = np.zeros(core.NST, dtype=np.int64)
        self.new_game()

    # -- game state ----------------------------------------------------------------------

    def new_game(self, seed: int | None = None) -> None:
        """Forget the tree (and restart the random numbers, from ``seed`` if given)."""
        if seed is not None:
            self.seed = seed
        self.rng = np.random.default_rng(self.seed)
        self.root: Node | None = None
        self._root_fen: str | None = None        # where the game of the root started
        self._moves: list[str] = []               # moves from there to the root
        self._hist: list[int] = []                # repetition keys before the root

    def clear_stop(self) -> None:
        """Forget a pending stop request (front ends: before starting a search thread)."""
        self._stop.clear()

    def stop(self) -> None:
        """Ask a running search to stop after the current playout (thread-safe)."""
        self._stop.set()

    def advance(self, move: str) -> None:
        """Play ``move`` (UCI) at the root, keeping its subtree for the next search."""
        root = self.root
        if root is None:
            return
        idx = self._index(root, move)
        if idx is None:
            raise ValueError(f"illegal move {move!r} at the root")
        child = root.children[idx]
        if child is None:
            child = self._new_child(root, idx, self._hist + [root.key])
        self._hist.append(root.key)
        self._moves.append(root.uci(idx))
        self.root = self._as_root(child)

    def _as_root(self, node: Node) -> Node:
        """A node about to become the root: a draw by repetition or the 50-move rule
        ends a line of the search, not the game, so such a node is made anew."""
        if not node.rule_draw:
            return node
        n, terminal, value, key = node_info(node.bb, node.st, self._moves_buf, self._sbb, self._sst)
        fresh = Node(node.bb, node.st, int(key), self._moves_buf[:n].copy())
        if terminal:
            self._set_terminal(fresh, value)
        return fresh

    @property
    def tree_size(self) -> int:
        """Nodes in the tree (walks it)."""
        if self.root is None:
            return 0
        count, stack = 0, [self.root]
        while stack:
            n = stack.pop()
            count += 1
            stack.extend(c for c in n.children if c is not None)
        return count

    # -- search --------------------------------------------------------------------------

    def search(self, position: Position | chess.Board | str | None = None,
               playouts: int | None = None, movetime: float | None = None,
               nodes: int | None = None, *, stop: threading.Event | Callable[[], bool] | None = None,
               callback: Callable[[MCTSResult], None] | None = None, info_interval: float = 1.0,
               temperature: float = 0.0, limits: Any = None,
               info: Callable[[MCTSResult], None] | None = None) -> MCTSResult:
        """Search ``position`` (FEN, python-chess board, :class:`Position`; None: the
        current root, or the start position) and return the move to play.

        Limits (the first reached ends the search): ``playouts`` new simulations,
        ``nodes`` root visits (reused ones count), ``movetime`` seconds, :meth:`stop` or
        the ``stop`` event/callable. Without any, ``DEFAULT_PLAYOUTS``. The search also
        ends when the root is proven or has a single legal move. ``callback`` gets a
        result every ``info_interval`` seconds (UCI ``info`` lines). ``temperature`` > 0
        samples the move from the visit counts. ``limits`` (a
        :class:`search.engine.Limits`) gives clocks: the move time is then the alpha-beta
        engine's (time left / moves to go + 0.8 increment, at most half the time left);
        its ``nodes`` and ``movetime`` apply too (``depth`` does not). ``info`` is
        ``callback`` by the name :meth:`search.engine.Engine.search` gives it, so an MCTS
        can stand in for an Engine in :class:`search.protocol.BackgroundSearch`."""
        if info is not None and callback is None:
            callback = info
        start = time.perf_counter()
        if position is not None or self.root is None:
            self._set_root(to_position(position, self.variant))
        root = self.root
        assert root is not None
        if limits is not None:
            nodes = nodes if nodes is not None else limits.nodes
            if movetime is None and not limits.infinite:
                movetime = clock_budget(limits, bool(root.st[core.TURN] == core.WHITE))
            if limits.infinite and playouts is None and nodes is None and movetime is None:
                playouts = 1 << 62
        if playouts is None and movetime is None and nodes is None:
            playouts = DEFAULT_PLAYOUTS
        deadline = None if movetime is None else start + movetime
        stopped = (stop.is_set if isinstance(stop, threading.Event) else stop) or (lambda: False)
        done = 0
        self._depth_sum, self._seldepth, self._leaves = 0, 0, 0
        next_info = start + info_interval
        try:
            if root.status == UNKNOWN and not root.expanded:
                self._playouts(1)
                done += 1
            if (self.dirichlet_epsilon > 0 and root.expanded and len(root.moves)
                    and root.P_raw is not None):
                noise = self.rng.dirichlet([self.dirichlet_alpha] * len(root.moves))
                root.P = (1 - self.dirichlet_epsilon) * root.P_raw + self.dirichlet_epsilon * noise
            while root.status == UNKNOWN and len(root.moves) > 1:
                if playouts is not None and done >= playouts:
                    break
                if nodes is not None and root.visits >= nodes:
                    break
                if root.visits >= self.tree_limit:    # each playout adds a node at most
                    break
                if self._stop.is_set() or stopped():
                    break
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    break
                k = self.batch_size
                if playouts is not None:
                    k = min(k, playouts - done)
                if nodes is not None:
                    k = min(k, max(1, nodes - root.visits))
                done += self._playouts(k)
                if callback is not None and now >= next_info:
                    next_info = now + info_interval
                    callback(self._result(done, time.perf_counter() - start, 0.0))
        finally:
            self._stop.clear()
            if root.P_raw is not None:
                root.P = root.P_raw
        return self._result(done, time.perf_counter() - start, temperature)

    # -- internals: root -------------------------------------------------------------

    def _set_root(self, pos: Position) -> None:
        moves = pos.move_stack
        hist = [f.key for f in pos._history]
        root = self.root
        if root is not None and self._root_fen is not None:
            # The same game, some moves on?
            if pos.root_fen == self._root_fen and moves[:len(self._moves)] == self._moves:
                node: Node | None = root
                for mv in moves[len(self._moves):]:
                    idx = self._index(node, mv) if node is not None else None
                    if node is None or idx is None or node.children[idx] is None:
                        node = None
                        break
                    node = node.children[idx]
                if node is not None:
                    self.root = self._as_root(node)
                    self._root_fen, self._moves, self._hist = pos.root_fen, moves, hist
                    return
            # A position given by FEN: the root, a child or a grandchild?
            fen = pos.fen()
            key = pos.key
            for node, path in self._near(root):
                if node.key == key and self._fen(node) == fen:
                    self.root = self._as_root(node)
                    self._hist = hist if hist else self._hist + path
                    self._root_fen, self._moves = pos.root_fen, moves
                    return
        n, terminal, value, key = node_info(pos.bb, pos.st, self._moves_buf, self._sbb, self._sst)
        node = Node(pos.bb.copy(), pos.st.copy(), int(key), self._moves_buf[:n].copy())
        if terminal:
            self._set_terminal(node, value)
        elif pos._history and pos._repetitions(pos.key) + 1 >= 5:
            self._set_terminal(node, 0.0)
        self.root, self._root_fen, self._moves, self._hist = node, pos.root_fen, moves, hist

    def _near(self, root: Node):
        yield root, []
        for c in root.children:
            if c is not None:
                yield c, [root.key]
        for c in root.children:
            if c is not None:
                for g in c.children:
                    if g is not None:
                        yield g, [root.key, c.key]

    def _fen(self, node: Node) -> str:
        return Position(self.variant, node.bb, node.st, "").fen()

    @staticmethod
    def _index(node: Node, move: str) -> int | None:
        for i in range(len(node.moves)):
            if node.uci(i) == move:
                return i
        # castling spelled king-takes-rook
        p = Position(node_variant(node), node.bb.copy(), node.st.copy(), "")
        try:
            code = p.parse_uci(move)
        except VariantError:
            return None
        hits = np.flatnonzero(node.moves == code)
        return int(hits[0]) if len(hits) else None

    # -- internals: nodes ----------------------------------------------------------------

    def _set_terminal(self, node: Node, value: float, draw: bool = False) -> None:
        node.status = DRAW if draw else (WIN if value > 0 else (LOSS if value < 0 else DRAW))
        node.value = value
        node.plies = 0
        node.moves = node.moves[:0]
        node.N, node.W, node.E, node.children = node.N[:0], node.W[:0], node.E[:0], []

    def _classify(self, node: Node, terminal: bool, value: float, keys: list[int]) -> None:
        """Terminal by the rules, or a draw by the 50-move rule or a repetition."""
        if terminal:
            self._set_terminal(node, value)
            return
        # keys[-1] is the parent's; the node stands at index len(keys).
        line = np.array([*keys, node.key], dtype=np.uint64)
        if core.rule_draw(node.st, line, len(keys), line[-1], 0):
            self._set_terminal(node, -self.draw_value, draw=True)
            node.rule_draw = True

    def _new_child(self, node: Node, idx: int, keys: list[int]) -> Node:
        cbb = np.empty(core.NBB, dtype=np.uint64)
        cst = np.empty(core.NST, dtype=np.int64)
        n, terminal, value, key = child_info(node.bb, node.st, node.moves[idx], cbb, cst,
                                             self._moves_buf, self._sbb, self._sst)
        child = Node(cbb, cst, int(key), self._moves_buf[:n].copy())
        self._classify(child, terminal, value, keys)
        node.children[idx] = child
        return child

    # -- internals: playouts ---------------------------------------------------------

    def _select(self, node: Node) -> int:
        N = node.N
        total = N.sum()
        c = math.log((total + self.c_puct_base + 1.0) / self.c_puct_base) + self.c_puct_init
        if self.q_init == "parent":
            qi = (node.value + node.W.sum()) / (1.0 + total) - self.fpu_reduction
        else:
            qi = self.q_init  # type: ignore[assignment]
        q = node.q(qi)
        assert node.P is not None          # only expanded nodes are selected from
        u = (c * math.sqrt(max(total, 1.0))) * node.P / (self.u_divisor + N)
        return int(np.argmax(q + u))

    def _descend(self) -> tuple[list[tuple[Node, int]], Node]:
        node = self.root
        assert node is not None
        path: list[tuple[Node, int]] = []
        keys = list(self._hist)
        vl = self.virtual_loss
        while node.status == UNKNOWN and node.expanded and not node.pending:
            idx = self._select(node)
            path.append((node, idx))
            if vl:
                node.N[idx] += vl
                node.W[idx] -= vl
            keys.append(node.key)
            child = node.children[idx]
            if child is None:
                child = self._new_child(node, idx, keys)
                node = child
                break
            node = child
        return path, node

    def _playouts(self, k: int) -> int:
        """Run up to ``k`` playouts, evaluating their new leaves in one call."""
        batch: list[tuple[list[tuple[Node, int]], Node]] = []
        done = 0
        for _ in range(k):
            path, leaf = self._descend()
            if leaf.status != UNKNOWN:
                self._backup(path, leaf, self._exact(leaf))
                self._prove(path)
                done += 1
                if self.root.status != UNKNOWN:   # type: ignore[union-attr]
                    break
                continue
            if leaf.pending:
                self._undo_virtual(path)
                break
            leaf.pending = True
            batch.append((path, leaf))
        if batch:
            self._evaluate([leaf for _, leaf in batch])
            for path, leaf in batch:
                leaf.pending = False
                self._backup(path, leaf, leaf.value)
                done += 1
        return done

    def _undo_virtual(self, path: list[tuple[Node, int]]) -> None:
        vl = self.virtual_loss
        if vl:
            for node, idx in path:
                node.N[idx] -= vl
                node.W[idx] += vl

    def _backup(self, path: list[tuple[Node, int]], leaf: Node, value: float) -> None:
        leaf.visits += 1
        v = value
        vl = self.virtual_loss
        for node, idx in reversed(path):
            v = -v
            node.N[idx] += 1.0 - vl
            node.W[idx] += v + vl
            node.visits += 1
        depth = len(path)
        self._depth_sum += depth
        self._leaves += 1
        self._seldepth = max(self._seldepth, depth)

    def _exact(self, node: Node) -> float:
        """The exact value of a proven node for its side to move (a draw by rule: the
        contempt ``-draw_value``)."""
        return node.value if node.rule_draw else _STATUS_VALUE[node.status]

    def _prove(self, path: list[tuple[Node, int]]) -> None:
        """Carry a proof from the end of ``path`` up as far as it changes anything."""
        for node, idx in reversed(path):
            child = node.children[idx]
            if child is None or child.status == UNKNOWN:
                return
            node.E[idx] = -self._exact(child)
            before = (node.status, node.plies)
            status = _child_status(node)
            wins = np.flatnonzero(status == LOSS)
            if len(wins):
                node.status = WIN
                node.plies = 1 + min(node.children[i].plies for i in wins)  # type: ignore[union-attr]
            elif not (status == UNKNOWN).any():
                if (status == DRAW).any():
                    node.status, node.plies = DRAW, 1 + max(c.plies for c in node.children)  # type: ignore[union-attr]
                else:
                    node.status, node.plies = LOSS, 1 + max(c.plies for c in node.children)  # type: ignore[union-attr]
            if (node.status, node.plies) == before:
                return

    def _evaluate(self, leaves: list[Node]) -> None:
        if self._fast:
            ev: HeuristicPrior = self.evaluator  # type: ignore[assignment]
            arr = ev.arrays(np.stack([n.bb for n in leaves]), np.stack([n.st for n in leaves]))
            for i, node in enumerate(leaves):
                k = len(node.moves)
                assert int(arr.n[i]) == k
                self._expand(node, arr.probs[i, :k], float(arr.values[i]))
            return
        positions = []
        for node in leaves:
            p = Position(self.variant, node.bb.copy(), node.st.copy(), "")
            p.root_fen = p.fen()
            positions.append(p)
        policies, values = self.evaluator(positions)
        for node, pol, val in zip(leaves, policies, values):
            self._expand(node, self._policy_array(node, pol), float(val))

    def _policy_array(self, node: Node, pol: Any) -> np.ndarray:
        k = len(node.moves)
        if isinstance(pol, Mapping):
            return np.array([float(pol.get(node.uci(i), 0.0)) for i in range(k)])
        arr = np.asarray(pol, dtype=np.float64).reshape(-1)
        if len(arr) != k:
            raise ValueError(f"evaluator policy has {len(arr)} entries for {k} legal moves")
        return arr

    def _expand(self, node: Node, probs: np.ndarray, value: float) -> None:
        p = np.clip(np.asarray(probs, dtype=np.float64), 0.0, None)
        s = p.sum()
        p = p / s if s > 0 and np.isfinite(s) else np.full(len(p), 1.0 / max(1, len(p)))
        node.P = p
        node.P_raw = p
        node.value = float(min(1.0, max(-1.0, value)))

    # -- internals: results ----------------------------------------------------------

    def _choose(self, node: Node, temperature: float = 0.0) -> int | None:
        k = len(node.moves)
        if k == 0:
            return None
        N = node.N
        status = _child_status(node)
        if node.status == WIN:
            wins = np.flatnonzero(status == LOSS)
            return int(min(wins, key=lambda i: (node.children[i].plies, -N[i])))  # type: ignore[union-attr]
        if node.status == LOSS:
            return int(max(range(k), key=lambda i: (node.children[i].plies, N[i])))  # type: ignore[union-attr]
        if node.status == DRAW:
            draws = np.flatnonzero(status == DRAW)
            return int(max(draws, key=lambda i: N[i]))
        ok = status != WIN
        if not ok.any():
            ok[:] = True
        cand = np.flatnonzero(ok)
        if temperature > 0 and N[cand].sum() > 0:
            w = N[cand] ** (1.0 / temperature)
            return int(self.rng.choice(cand, p=w / w.sum()))
        if self.move_selection == "visits" or N.sum() == 0:
            key = N + 1e-6 * node.P if node.P is not None else N
            return int(cand[np.argmax(key[cand])])
        total = N.sum()
        thresh = self.q_thresh_max - math.exp(-total / self.q_thresh_base) * (
            self.q_thresh_max - self.q_thresh_init)
        q = (node.q(-1.0) + 1.0) / 2.0
        q = np.where(N >= thresh * N[cand].max(), q, 0.0)
        pi = (1.0 - self.q_factor) * N / total + self.q_factor * q
        return int(cand[np.argmax(pi[cand])])

    def _pv(self, node: Node, first: int | None, limit: int = 40) -> list[str]:
        pv: list[str] = []
        idx = first
        while idx is not None and len(pv) < limit:
            pv.append(node.uci(idx))
            child = node.children[idx]
            if child is None or not len(child.moves) or (child.N.sum() == 0 and child.status == UNKNOWN):
                break
            node = child
            idx = self._choose(node)
        return pv

    def _result(self, playouts: int, elapsed: float, temperature: float) -> MCTSResult:
        root = self.root
        assert root is not None
        idx = self._choose(root, temperature)
        visits = {root.uci(i): int(root.N[i]) for i in range(len(root.moves))}
        qs = root.q(-1.0)
        q = {root.uci(i): float(qs[i]) for i in range(len(root.moves))}
        prior = {} if root.P_raw is None else {root.uci(i): float(root.P_raw[i])
                                               for i in range(len(root.moves))}
        proven = _STATUS_NAMES.get(root.status)
        mate = None
        if root.status == UNKNOWN:
            value = float(qs[idx]) if idx is not None and root.N[idx] > 0 else root.value
        else:
            value = _STATUS_VALUE[root.status]
            if root.status in (WIN, LOSS):
                moves = (root.plies + 1) // 2
                mate = moves if root.status == WIN else -moves
        leaves = max(1, self._leaves)
        if idx is None and root.status != UNKNOWN:
            # A game python-chess calls over with moves left (insufficient material, the
            # 75-move rule, fivefold repetition): still answer with a legal move.
            n = core.gen_legal(root.bb, root.st, self._moves_buf, self._sbb, self._sst)
            if n:
                first = move_to_uci(int(self._moves_buf[0]))
                return MCTSResult(first, value, value_to_cp(value), [first], {first: 0}, {}, {},
                                  playouts, int(root.visits), elapsed, proven=proven)
        return MCTSResult(
            move=None if idx is None else root.uci(idx), value=value, cp=value_to_cp(value),
            pv=[] if idx is None else self._pv(root, idx), visits=visits, q=q, prior=prior,
            playouts=playouts, nodes=int(root.visits), time=elapsed,
            depth=round(self._depth_sum / leaves), seldepth=int(self._seldepth),
            proven=proven, mate=mate)


def _child_status(node: Node) -> np.ndarray:
    return np.array([UNKNOWN if c is None else c.status for c in node.children], dtype=np.int8)


def clock_budget(lim: Any, white: bool) -> float | None:
    """Seconds for this move from UCI limits (as :class:`search.engine.Engine` does)."""
    if lim.movetime is not None:
        return max(0.0, lim.movetime)
    left = lim.wtime if white else lim.btime
    if left is None:
        return None
    inc = lim.winc if white else lim.binc
    togo = lim.movestogo or 30
    return max(0.01, min(left / togo + 0.8 * inc, left * 0.5))


def node_variant(node: Node) -> str:
    return spec.by_code(int(node.st[core.VARIANT])).name
