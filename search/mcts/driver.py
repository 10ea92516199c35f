"""PUCT Monte-Carlo tree search over any evaluator, as CrazyAra describes it.

An *evaluator* is any callable ``evaluator(positions) -> (policies, values)``:
``positions`` is a list of :class:`variants.Position` (no history; ``pos.bb``/``pos.st``,
``pos.legal_moves()``, ``pos.fen()``, ``pos.to_board()``); each policy is either a
mapping ``{uci: weight}`` or a sequence aligned with ``pos.legal_moves()`` (weights are
renormalised over the legal moves; missing moves get 0; all zero means uniform); each
value is the side to move's expectation in [-1, 1]. Positions whose game is over are
never sent: the tree scores them exactly. The default evaluator is the heuristic prior
(:class:`search.mcts.prior.HeuristicPrior`), called on its fast path (no Python per move).

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

from variants import Position, VariantError, canonical_variant, core
from variants.position import move_to_uci

from . import tree as T
from .encoding import N_PLANES, planes_batch
from .network import Network
from .prior import HeuristicPrior, to_position

UNKNOWN, WIN, LOSS, DRAW = T.UNKNOWN, T.WIN, T.LOSS, T.DRAW   # proof status, for the side to move
_STATUS_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
_STATUS_VALUE = {WIN: 1.0, LOSS: -1.0, DRAW: 0.0}
DEFAULT_PLAYOUTS = 800
#: The trivial evaluator (uniform policy, value 0, in compiled code): what is left is
#: the tree's own cost (``tdleaf bench mcts``).
UNIFORM = "uniform"
UNIFORM_CHUNK = 256
#: A network's leaves are evaluated a batch at a time unless ``batch_size`` says
#: otherwise (CrazyAra: 8-16, with a virtual loss of 3).
NET_BATCH = 8

Evaluator = Callable[[Sequence[Position]], tuple[Sequence[Any], Sequence[float] | np.ndarray]]


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
        """The value in pawns (``cp / 100``), as :class:`search.alphabeta.engine.SearchResult` has it."""
        return self.cp / 100.0

    def uci_info(self) -> str:
        """The UCI ``info`` line of this result (without the leading ``info``)."""
        score = f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"
        parts = [f"depth {max(1, self.depth)}", f"seldepth {max(1, self.seldepth)}",
                 f"score {score}", f"nodes {self.playouts}", f"nps {int(self.nps)}",
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
    ``dirichlet_alpha`` 0.2), ``batch_size`` (1: one leaf per evaluator call; a network
    wants 8 or more, with CrazyAra's virtual loss 3), and its u-divisor schedule
    (``u_min_divisor`` 0.25: Eq. 11) and check enhancement (``check_factor`` 0.5 under
    ``check_thresh`` 0.1: Eq. 12), which stay off until measured to help; so does
    ``win_check`` (:func:`search.mcts.tree.find_wins`: every new node's moves are tried for
    one that wins at once, which then proves the node won), but under a network, where
    it is on unless set: a network's policy may rate a mate low, the heuristic prior's
    never does."""

    c_puct_init: float = 2.5
    c_puct_base: float = 19652.0
    q_init: float | str = -1.0
    fpu_reduction: float = 0.1
    u_divisor: float = 1.0
    u_min_divisor: float | None = None      # CrazyAra: 0.25 (None: no schedule)
    u_base_divisor: float = 1965.0
    check_thresh: float = 0.1
    check_factor: float = 0.0               # CrazyAra: 0.5 (0: no check enhancement)
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
    win_check: bool = False                 # look for a move that wins at once at expansion

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
    docstring), a :class:`search.mcts.network.Network` (its policy over the move map, on the
    tree's arrays: no positions are made; leaves in batches of :data:`NET_BATCH` unless
    ``batch_size`` says otherwise), :data:`UNIFORM` (a uniform policy and value
    0, compiled: the tree's own cost), or None for the heuristic prior of
    ``weights`` (``prior_depth``, ``temperature``: see :class:`search.mcts.prior.HeuristicPrior`).
    The other keywords are the tree's settings, :class:`PUCT` (a TypeError names one that
    is not). ``tree_limit`` bounds the root's visits, and so the tree; a search that
    reaches it ends as if its time were up. ``draw_value`` is what a draw by repetition
    or the 50-move rule inside the tree is worth to the side that steers into it (0; a
    small negative value is a contempt: both sides avoid repeating, which a flat
    evaluation otherwise welcomes). Draws by the rules of the game are 0 always.

    The tree is :class:`search.mcts.tree.Tree` (flat arrays; playouts in numba); :attr:`root`
    is the root's node index in it (None before a search).
    """

    def __init__(self, variant: str = "chess", evaluator: Evaluator | Network | str | None = None, *,
                 weights: Any = None, prior_depth: int = 0, temperature: float | None = None,
                 seed: int = 0, **settings: Any) -> None:
        self.variant = canonical_variant(variant)
        if evaluator is None:
            evaluator = HeuristicPrior(self.variant, weights, prior_depth, temperature)
        self.evaluator: Any = evaluator
        self._kind = ("prior" if isinstance(evaluator, HeuristicPrior)
                      else "network" if isinstance(evaluator, Network)
                      else "uniform" if evaluator == UNIFORM else "python")
        if self._kind == "network":
            settings.setdefault("batch_size", NET_BATCH)
            # Measured: +252 Elo [+184, +342] at equal playouts in crazyhouse (RESULTS.md).
            settings.setdefault("win_check", True)
        s = PUCT(**settings)
        self.settings = s
        self.q_init = s.q_init
        self.move_selection = s.move_selection
        self.q_factor = s.q_factor
        self.q_thresh_init = s.q_thresh_init
        self.q_thresh_max = s.q_thresh_max
        self.q_thresh_base = s.q_thresh_base
        self.dirichlet_alpha = s.dirichlet_alpha
        self.dirichlet_epsilon = s.dirichlet_epsilon
        self.batch_size = int(s.batch_size)
        self.tree_limit = int(s.tree_limit)
        self.draw_value = float(s.draw_value)
        self._cfg = T.settings(s, float(s.virtual_loss) if s.batch_size > 1 else 0.0,
                               uniform=self._kind == "uniform")
        self.seed = seed
        self._stop = threading.Event()
        self._bufs = (np.zeros(core.MAX_MOVES, dtype=np.int64), np.zeros(core.NBB, dtype=np.uint64),
                      np.zeros(core.NST, dtype=np.int64))
        self._scratch = (np.zeros(core.NBB, dtype=np.uint64), np.zeros(core.NST, dtype=np.int64))
        self._batch = T.batch_buffers(self.batch_size)
        self.new_game()

    # -- game state ----------------------------------------------------------------------

    def new_game(self, seed: int | None = None) -> None:
        """Forget the tree (and restart the random numbers, from ``seed`` if given)."""
        if seed is not None:
            self.seed = seed
        self.rng = np.random.default_rng(self.seed)
        self.tree = T.Tree()
        self.root: int | None = None
        self._root_fen: str | None = None        # where the game of the root started
        self._moves: list[str] = []               # moves from there to the root
        self._hist: list[int] = []                # repetition keys before the root

    def load_compiled(self) -> None:
        """Run a few playouts from the start position and forget them: the compiled code
        of the tree and of its evaluator (a network's too) loads now, not on the first
        timed move. Front ends and match players call it before any clock runs."""
        self.search(None, playouts=8)
        assert self.root is not None
        self.tree.subtree(self.root)         # what a full tree does on a move (_as_root)
        self.new_game()

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
        e = self._edge(root, move)
        if e is None:
            raise ValueError(f"illegal move {move!r} at the root")
        child = int(self.tree.child[e])
        if child < 0:
            child = self._add_child(root, e, self._hist + [int(self.tree.key[root])])
        self._hist.append(int(self.tree.key[root]))
        self._moves.append(self._uci(e))
        self.root = self._as_root(child)

    def _as_root(self, node: int) -> int:
        """A node about to become the root: a draw by repetition or the 50-move rule
        ends a line of the search, not the game, so such a node is made anew; a tree
        more than half full keeps only the new root's subtree."""
        t = self.tree
        if t.flags[node] & T.F_RULE_DRAW:
            return self._add(t.bb[node].copy(), t.st[node].copy())
        if node and t.size[0] * 2 > len(t.first):
            self.tree = t.subtree(node)
            return 0
        return node

    @property
    def tree_size(self) -> int:
        """Nodes reachable from the root."""
        if self.root is None:
            return 0
        t, count, stack = self.tree, 0, [self.root]
        while stack:
            n = stack.pop()
            count += 1
            stack.extend(int(c) for c in t.child[t.edge_range(n)] if c >= 0)
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
        :class:`search.alphabeta.engine.Limits`) gives clocks: the move time is then the alpha-beta
        engine's (time left / moves to go + 0.8 increment, at most half the time left);
        its ``nodes`` (new playouts, as UCI's ``go nodes`` counts them) and ``movetime``
        apply too (``depth`` does not). ``info`` is
        ``callback`` by the name :meth:`search.alphabeta.engine.Engine.search` gives it, so an MCTS
        can stand in for an Engine in :class:`search.protocol.session.BackgroundSearch`."""
        if info is not None and callback is None:
            callback = info
        start = time.perf_counter()
        if position is not None or self.root is None:
            self._set_root(to_position(position, self.variant))
        root = self.root
        assert root is not None
        t = self.tree
        if limits is not None:
            # A front end's node limit (UCI 'go nodes N'): N new playouts in this search.
            playouts = playouts if playouts is not None else limits.nodes
            if movetime is None and not limits.infinite:
                movetime = clock_budget(limits, bool(t.st[root, core.TURN] == core.WHITE))
            if limits.infinite and playouts is None and nodes is None and movetime is None:
                playouts = 1 << 62
        if playouts is None and movetime is None and nodes is None:
            playouts = DEFAULT_PLAYOUTS
        deadline = None if movetime is None else start + movetime
        stopped = (stop.is_set if isinstance(stop, threading.Event) else stop) or (lambda: False)
        done = 0
        self._depth_sum, self._seldepth, self._leaves = 0, 0, 0
        next_info = start + info_interval
        self._line = np.zeros(len(self._hist) + T.MAX_DEPTH + 2, dtype=np.uint64)
        self._line[:len(self._hist)] = self._hist
        clean: np.ndarray | None = None
        try:
            if t.status[root] == UNKNOWN and not t.flags[root] & T.F_EXPANDED:
                done += self._playouts(1)
            edges = t.edge_range(root)
            if self.dirichlet_epsilon > 0 and t.flags[root] & T.F_EXPANDED and t.count[root]:
                clean = t.P[edges].copy()
                noise = self.rng.dirichlet([self.dirichlet_alpha] * int(t.count[root]))
                t.P[edges] = (1 - self.dirichlet_epsilon) * clean + self.dirichlet_epsilon * noise
            while t.status[root] == UNKNOWN and t.count[root] > 1:
                if playouts is not None and done >= playouts:
                    break
                if nodes is not None and t.visits[root] >= nodes:
                    break
                if t.visits[root] >= self.tree_limit:
                    break
                if self._stop.is_set() or stopped():
                    break
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    break
                # The trivial evaluator runs inside the compiled playouts: many a call.
                k = UNIFORM_CHUNK if self._kind == "uniform" else self.batch_size
                if playouts is not None:
                    k = min(k, playouts - done)
                if nodes is not None:
                    k = min(k, max(1, nodes - int(t.visits[root])))
                k = min(k, self.tree_limit - int(t.visits[root]))
                done += self._playouts(k)
                t = self.tree                    # grown perhaps
                if callback is not None and now >= next_info:
                    next_info = now + info_interval
                    callback(self._result(done, time.perf_counter() - start, 0.0))
        finally:
            self._stop.clear()
            if clean is not None:
                self.tree.P[self.tree.edge_range(root)] = clean
        return self._result(done, time.perf_counter() - start, temperature)

    # -- internals: root -------------------------------------------------------------

    def _with_room(self, make: Callable[[T.Tree], int]) -> int:
        """``make(tree)``'s new node, the tree grown until it has room for it."""
        while True:
            i = make(self.tree)
            if i >= 0:
                return int(i)
            self.tree.grow()

    def _add(self, bb: np.ndarray, st: np.ndarray) -> int:
        """A new node of the position (bb, st), not a draw by rule (a root)."""
        keys = np.zeros(1, dtype=np.uint64)
        return self._with_room(lambda t: T.add_node(t.nodes, t.edges, t.size, bb, st, keys, 0,
                                                    self._bufs, self._cfg))

    def _add_child(self, node: int, e: int, line: list[int]) -> int:
        """The child of edge ``e`` of ``node``; a draw by rule when ``line`` (the keys
        of the positions before it) says so."""
        keys = np.zeros(len(line) + 1, dtype=np.uint64)
        keys[:len(line)] = line
        return self._with_room(lambda t: T.add_child(t.nodes, t.edges, t.size, node, e, keys,
                                                     len(line), self._bufs, self._scratch,
                                                     self._cfg))

    def _set_root(self, pos: Position) -> None:
        t = self.tree
        moves = pos.move_stack
        hist = [f.key for f in pos._history]
        root = self.root
        if root is not None and self._root_fen is not None:
            # The same game, some moves on?
            if pos.root_fen == self._root_fen and moves[:len(self._moves)] == self._moves:
                node: int | None = root
                for mv in moves[len(self._moves):]:
                    e = self._edge(node, mv) if node is not None else None
                    if node is None or e is None or t.child[e] < 0:
                        node = None
                        break
                    node = int(t.child[e])
                if node is not None:
                    self.root = self._as_root(node)
                    self._root_fen, self._moves, self._hist = pos.root_fen, moves, hist
                    return
            # A position given by FEN: the root, a child or a grandchild?
            fen = pos.fen()
            key = pos.key
            for node, path in self._near(root):
                if int(t.key[node]) == key and self._fen(node) == fen:
                    self.root = self._as_root(node)
                    self._hist = hist if hist else self._hist + path
                    self._root_fen, self._moves = pos.root_fen, moves
                    return
        # A new game: a new tree.
        self.tree = t = T.Tree()
        node = self._add(pos.bb.copy(), pos.st.copy())
        if (t.status[node] == UNKNOWN and pos._history
                and pos._repetitions(pos.key) + 1 >= 5):
            self._set_terminal(node, 0.0)
        self.root, self._root_fen, self._moves, self._hist = node, pos.root_fen, moves, hist

    def _set_terminal(self, node: int, value: float) -> None:
        t = self.tree
        t.status[node] = WIN if value > 0 else (LOSS if value < 0 else DRAW)
        t.value[node] = value
        t.count[node] = 0

    def _near(self, root: int):
        t = self.tree
        yield root, []
        children = [int(c) for c in t.child[t.edge_range(root)] if c >= 0]
        for c in children:
            yield c, [int(t.key[root])]
        for c in children:
            for g in t.child[t.edge_range(c)]:
                if g >= 0:
                    yield int(g), [int(t.key[root]), int(t.key[c])]

    def _fen(self, node: int) -> str:
        return Position(self.variant, self.tree.bb[node], self.tree.st[node], "").fen()

    def _uci(self, e: int) -> str:
        return move_to_uci(int(self.tree.move[e]))

    def _edge(self, node: int, move: str) -> int | None:
        t = self.tree
        rng = t.edge_range(node)
        for e in range(rng.start, rng.stop):
            if self._uci(e) == move:
                return e
        # castling spelled king-takes-rook
        p = Position(self.variant, t.bb[node].copy(), t.st[node].copy(), "")
        try:
            code = p.parse_uci(move)
        except VariantError:
            return None
        hits = np.flatnonzero(t.move[rng] == code)
        return rng.start + int(hits[0]) if len(hits) else None

    # -- internals: playouts ---------------------------------------------------------

    def _playouts(self, k: int) -> int:
        """Run up to ``k`` playouts, evaluating their new leaves in one call."""
        assert self.root is not None
        while True:
            t = self.tree
            done, waiting, state, dsum, dmax = T.collect(
                t.nodes, t.edges, t.size, self.root, self._cfg, self._line, len(self._hist),
                self._bufs, self._scratch, self._batch, t.cache, k)
            self._note(done, dsum, dmax)
            if waiting:
                self._evaluate(self._batch[0][:waiting], self._batch[4][:waiting])
                if self.settings.win_check:
                    T.find_wins(t.nodes, t.edges, t.size, self._batch, waiting, self._bufs,
                                self._scratch, self._cfg)
                dsum, dmax = T.finish(t.nodes, t.edges, self._batch, waiting, self._cfg)
                self._note(waiting, dsum, dmax)
                done += waiting
            if state == T.FULL:
                t.grow()
                if not done:                     # nothing ran: again, with room
                    continue
            return done

    def _note(self, leaves: int, dsum: int, dmax: int) -> None:
        self._depth_sum += dsum
        self._leaves += leaves
        self._seldepth = max(self._seldepth, dmax)

    def _evaluate(self, leaves: np.ndarray, reps: np.ndarray) -> None:
        t = self.tree
        if self._kind == "prior":
            ev: HeuristicPrior = self.evaluator
            arr = ev.arrays(t.bb[leaves], t.st[leaves])
            for i, node in enumerate(leaves):
                k = int(t.count[node])
                assert int(arr.n[i]) == k
                T.expand(t.nodes, t.edges, node, arr.probs[i, :k], float(arr.values[i]), t.cache,
                         self._cfg, self._scratch)
            return
        if self._kind == "network":
            x = np.zeros((len(leaves), N_PLANES, 8, 8), dtype=np.float32)
            planes_batch(t.bb[leaves], t.st[leaves], reps, x)
            logits, values = self.evaluator(x)
            T.expand_logits(t.nodes, t.edges, leaves, len(leaves), logits,
                            values.astype(np.float64), t.cache, self._cfg, self._scratch)
            return
        positions = []
        for node in leaves:
            p = Position(self.variant, t.bb[node].copy(), t.st[node].copy(), "")
            p.root_fen = p.fen()
            positions.append(p)
        policies, values = self.evaluator(positions)
        for node, pol, val in zip(leaves, policies, values):
            T.expand(t.nodes, t.edges, node, self._policy_array(node, pol), float(val), t.cache,
                     self._cfg, self._scratch)

    def _policy_array(self, node: int, pol: Any) -> np.ndarray:
        k = int(self.tree.count[node])
        if isinstance(pol, Mapping):
            moves = self.tree.moves_of(node)
            return np.array([float(pol.get(move_to_uci(int(m)), 0.0)) for m in moves])
        arr = np.asarray(pol, dtype=np.float64).reshape(-1)
        if len(arr) != k:
            raise ValueError(f"evaluator policy has {len(arr)} entries for {k} legal moves")
        return arr

    # -- internals: results ----------------------------------------------------------

    def _children(self, node: int) -> tuple[slice, np.ndarray, np.ndarray]:
        """The node's edge range, its children's statuses and plies (UNKNOWN, 0 where
        none)."""
        t = self.tree
        rng = t.edge_range(node)
        child = t.child[rng]
        status = np.where(child >= 0, t.status[np.maximum(child, 0)], UNKNOWN).astype(np.int8)
        plies = np.where(child >= 0, t.plies[np.maximum(child, 0)], 0)
        return rng, status, plies

    def _q(self, rng: slice, q_init: float = -1.0) -> np.ndarray:
        """Q of every move (mover's view): exact when proven, ``q_init`` when unvisited."""
        t = self.tree
        N, W, E = t.N[rng], t.W[rng], t.E[rng]
        q = np.where(N > 0, W / np.maximum(N, 1e-9), q_init)
        return np.where(np.isnan(E), q, E)

    def _choose(self, node: int, temperature: float = 0.0) -> int | None:
        """The edge to play at ``node`` (an index into the edge arrays), None without one."""
        t = self.tree
        k = int(t.count[node])
        if k == 0:
            return None
        rng, status, plies = self._children(node)
        N = t.N[rng]
        off = rng.start
        if t.status[node] == WIN:
            wins = np.flatnonzero(status == LOSS)
            return off + int(min(wins, key=lambda i: (plies[i], -N[i])))
        if t.status[node] == LOSS:
            return off + int(max(range(k), key=lambda i: (plies[i], N[i])))
        if t.status[node] == DRAW:
            draws = np.flatnonzero(status == DRAW)
            return off + int(max(draws, key=lambda i: N[i]))
        ok = status != WIN
        if not ok.any():
            ok[:] = True
        cand = np.flatnonzero(ok)
        if temperature > 0 and N[cand].sum() > 0:
            w = N[cand] ** (1.0 / temperature)
            return off + int(self.rng.choice(cand, p=w / w.sum()))
        if self.move_selection == "visits" or N.sum() == 0:
            key = N + 1e-6 * t.P[rng] if t.flags[node] & T.F_EXPANDED else N
            return off + int(cand[np.argmax(key[cand])])
        total = N.sum()
        thresh = self.q_thresh_max - math.exp(-total / self.q_thresh_base) * (
            self.q_thresh_max - self.q_thresh_init)
        q = (self._q(rng) + 1.0) / 2.0
        q = np.where(N >= thresh * N[cand].max(), q, 0.0)
        pi = (1.0 - self.q_factor) * N / total + self.q_factor * q
        return off + int(cand[np.argmax(pi[cand])])

    def _pv(self, node: int, first: int | None, limit: int = 40) -> list[str]:
        t = self.tree
        pv: list[str] = []
        e = first
        while e is not None and len(pv) < limit:
            pv.append(self._uci(e))
            child = int(t.child[e])
            if child < 0 or not t.count[child] or (
                    t.N[t.edge_range(child)].sum() == 0 and t.status[child] == UNKNOWN):
                break
            node = child
            e = self._choose(node)
        return pv

    def _result(self, playouts: int, elapsed: float, temperature: float) -> MCTSResult:
        root = self.root
        assert root is not None
        t = self.tree
        e = self._choose(root, temperature)
        rng = t.edge_range(root)
        ucis = [self._uci(j) for j in range(rng.start, rng.stop)]
        visits = {u: int(n) for u, n in zip(ucis, t.N[rng])}
        qs = self._q(rng)
        q = {u: float(x) for u, x in zip(ucis, qs)}
        prior = {} if not t.flags[root] & T.F_EXPANDED else {
            u: float(p) for u, p in zip(ucis, t.P[rng])}
        proven = _STATUS_NAMES.get(int(t.status[root]))
        mate = None
        if t.status[root] == UNKNOWN:
            value = float(qs[e - rng.start]) if e is not None and t.N[e] > 0 else float(t.value[root])
        else:
            value = _STATUS_VALUE[int(t.status[root])]
            if t.status[root] in (WIN, LOSS):
                moves = (int(t.plies[root]) + 1) // 2
                mate = moves if t.status[root] == WIN else -moves
        leaves = max(1, self._leaves)
        if e is None and t.status[root] != UNKNOWN:
            # A game python-chess calls over with moves left (insufficient material, the
            # 75-move rule, fivefold repetition): still answer with a legal move.
            buf, sbb, sst = self._bufs
            n = core.gen_legal(t.bb[root], t.st[root], buf, sbb, sst)
            if n:
                first = move_to_uci(int(buf[0]))
                return MCTSResult(first, value, value_to_cp(value), [first], {first: 0}, {}, {},
                                  playouts, int(t.visits[root]), elapsed, proven=proven)
        return MCTSResult(
            move=None if e is None else self._uci(e), value=value, cp=value_to_cp(value),
            pv=[] if e is None else self._pv(root, e), visits=visits, q=q, prior=prior,
            playouts=playouts, nodes=int(t.visits[root]), time=elapsed,
            depth=round(self._depth_sum / leaves), seldepth=int(self._seldepth),
            proven=proven, mate=mate)


def clock_budget(lim: Any, white: bool) -> float | None:
    """Seconds for this move from UCI limits (as :class:`search.alphabeta.engine.Engine` does)."""
    if lim.movetime is not None:
        return max(0.0, lim.movetime)
    left = lim.wtime if white else lim.btime
    if left is None:
        return None
    inc = lim.winc if white else lim.binc
    togo = lim.movestogo or 30
    return max(0.01, min(left / togo + 0.8 * inc, left * 0.5))
