"""The engine object: iterative deepening over :mod:`search.alphabeta`, limits, results.

>>> from search import Engine
>>> engine = Engine("atomic", depth=3)
>>> result = engine.search("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
>>> result.move, result.score, result.pv      # doctest: +SKIP
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import chess
import numpy as np

from variants import Position, canonical_variant, core
from variants.position import move_to_uci

from . import alphabeta as ab
from .evaluate import evaluate, feature_vector
from .layout import Weights, default_weights, load_weights

TT_ENTRY_BYTES = 8 + 8 + 8 + 2 + 1
_compiled = False


def _ensure_compiled() -> None:
    """Load (or compile) the search once per process, outside any time limit."""
    global _compiled
    if not _compiled:
        _compiled = True
        Engine("chess", "traditional", hash_mb=1).search(None, depth=1)


@dataclass
class SearchResult:
    """What one search found. Scores are in pawns for the side to move."""

    move: str | None
    score: float
    pv: list[str]
    depth: int
    seldepth: int
    nodes: int
    time: float
    mate: int | None = None
    leaf_fen: str = ""
    leaf_score: float = 0.0            # leaf evaluation (White's view, no noise) or terminal value
    leaf_terminal: bool = False
    leaf_features: np.ndarray = field(default_factory=lambda: np.zeros(0))
    leaf_position: Position | None = None
    #: MultiPV: this line's rank (1 = best) and, on the first line, every line of the
    #: iteration (``lines[0]`` is the result itself); a single-PV search has one line.
    multipv: int = 1
    lines: list["SearchResult"] = field(default_factory=list, repr=False)

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


@dataclass
class Limits:
    depth: int | None = None
    movetime: float | None = None        # seconds
    nodes: int | None = None
    wtime: float | None = None           # seconds on the clocks
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False
    #: Stop as soon as a win in at most this many moves is found; alone, search up to
    #: 2 * mate plies (the last ply of a suicide/giveaway win may be the opponent's).
    mate: int | None = None
    #: Only these root moves (UCI), as ``go searchmoves``; None: every legal move.
    searchmoves: list[str] | None = None
    #: The number of best lines to find (UCI MultiPV), each with its exact score and PV.
    multipv: int = 1
    #: Ponder: no time limit until :meth:`Engine.ponderhit`, which starts the clock
    #: budget these limits give (depth, nodes and mate limits apply throughout).
    ponder: bool = False


class Engine:
    """Alpha-beta engine for one variant with a linear evaluation.

    ``weights`` is a :class:`~search.layout.Weights`, a path to ``weights.json`` or a
    value-set name (``traditional``, ``sunsetter``, ``sjeng``, ...). For self-play
    learning, ``random_ties`` breaks ties between equally scored root moves at random
    and ``noise`` (e.g. 0.01) perturbs evaluations; both are seeded by ``seed``.
    """

    def __init__(self, variant: str = "chess", weights: Weights | str | None = None, *,
                 hash_mb: int = 64, depth: int | None = None, qlimit: int = 16,
                 random_ties: bool = False, noise: float = 0.0, seed: int = 0) -> None:
        self.variant = canonical_variant(variant)
        self.set_weights(weights)
        self.default_depth = depth
        self.qlimit = qlimit
        self.random_ties = random_ties
        self.noise = float(noise)
        self.seed = int(seed)
        self._searches = 0
        self._armed = False
        self._stop_requested = False
        self._clock = threading.Lock()      # guards the timer and the ponder state
        self._timer: threading.Timer | None = None
        self._pondering = False
        self._pending_budget: float | None = None
        self._move_budget: float | None = None
        self._budget_start = 0.0
        m = ab.MAXPLY + 4
        self.bbs = np.zeros((m, core.NBB), dtype=np.uint64)
        self.sts = np.zeros((m, core.NST), dtype=np.int64)
        self.evals = np.zeros(m, dtype=np.float64)
        self.moves = np.zeros((m, core.MAX_MOVES), dtype=np.int64)
        self.mscores = np.zeros((m, core.MAX_MOVES), dtype=np.int64)
        self.root_scores = np.zeros(core.MAX_MOVES, dtype=np.float64)
        self.pv = np.zeros((m, m), dtype=np.int64)
        self.pvlen = np.zeros(m, dtype=np.int64)
        self.killers = np.zeros((m, 2), dtype=np.int64)
        self.history = np.zeros((2, 4096 + 7 * 64), dtype=np.int64)
        self.ctl = np.zeros(ab.N_CTL, dtype=np.int64)
        self.root_only = np.zeros(core.MAX_MOVES, dtype=np.int64)
        self.keys = np.zeros(0, dtype=np.uint64)
        self.set_hash(hash_mb)

    # -- configuration --------------------------------------------------------------

    def set_weights(self, weights: Weights | str | None) -> None:
        if weights is None:
            weights = default_weights(self.variant)
        elif not isinstance(weights, Weights):
            weights = load_weights(weights, self.variant)
        if canonical_variant(weights.variant) != self.variant and not (
                {weights.variant, self.variant} <= {"giveaway", "antichess"}):
            raise ValueError(f"weights are for {weights.variant}, engine plays {self.variant}")
        self.weights = weights
        self.w = np.ascontiguousarray(weights.w, dtype=np.float64)

    def set_hash(self, hash_mb: int) -> None:
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MB, got {hash_mb}")
        n = max(1024, int(hash_mb) * 1024 * 1024 // TT_ENTRY_BYTES)
        self.tt_key = np.zeros(n, dtype=np.uint64)
        self.tt_move = np.zeros(n, dtype=np.int64)
        self.tt_score = np.zeros(n, dtype=np.float64)
        self.tt_depth = np.zeros(n, dtype=np.int16)
        self.tt_flag = np.zeros(n, dtype=np.int8)

    def new_game(self, seed: int | None = None) -> None:
        """Forget everything learned about previous positions (TT, history, killers).

        With ``seed``, also restart the random tie-breaks and noise from that seed, so a
        game depends only on the weights and the seed (what makes learning resumable
        and reproducible)."""
        self.tt_key[:] = 0
        self.history[:] = 0
        self.killers[:] = 0
        if seed is not None:
            self.seed = int(seed)
            self._searches = 0

    def clear_stop(self) -> None:
        """Forget a pending stop request (call before starting a search in a thread)."""
        self._stop_requested = False

    def stop(self) -> None:
        """Ask a running search to stop as soon as possible (thread-safe). The first
        iteration always completes, so that there is a move and a consistent PV."""
        self._stop_requested = True
        if self._armed:
            self.ctl[ab.C_STOP] = 1

    def ponderhit(self) -> None:
        """The move pondered on was played: the search running with ``Limits.ponder``
        now keeps the time budget of its limits, counted from now (thread-safe; a no-op
        when no search is pondering)."""
        with self._clock:
            if self._pondering:
                self._pondering = False
                self._start_clock(self._pending_budget)

    def _start_clock(self, budget: float | None) -> None:
        """Start the time budget of the move (call with ``_clock`` held)."""
        self._move_budget = budget
        self._budget_start = time.perf_counter()
        if budget is not None:
            self._timer = threading.Timer(budget, self.stop)
            self._timer.daemon = True
            self._timer.start()

    # -- searching ------------------------------------------------------------------

    def _position(self, pos: Position | chess.Board | str | None) -> Position:
        if isinstance(pos, Position):
            p = pos
        elif isinstance(pos, chess.Board):
            p = Position.from_board(pos)
            # Replay the board's moves so repetitions are known.
            if pos.move_stack:
                root = pos.root()
                p = Position.from_board(root, self.variant)
                for mv in pos.move_stack:
                    p.push_uci(mv.uci())
        else:
            p = Position.from_fen(pos, self.variant)
        if canonical_variant(p.variant) != self.variant and not (
                {p.variant, self.variant} <= {"giveaway", "antichess"}):
            raise ValueError(f"position is {p.variant}, engine plays {self.variant}")
        return p

    def _budget(self, lim: Limits, white: bool) -> float | None:
        """Seconds to spend on this move."""
        if lim.infinite:
            return None
        if lim.movetime is not None:
            return max(0.0, lim.movetime)
        left = lim.wtime if white else lim.btime
        if left is None:
            return None
        inc = lim.winc if white else lim.binc
        togo = lim.movestogo or 30
        return max(0.01, min(left / togo + 0.8 * inc, left * 0.5))

    def search(self, position: Position | chess.Board | str | None = None, depth: int | None = None,
               movetime: float | None = None, nodes: int | None = None, *,
               limits: Limits | None = None,
               info: Callable[[SearchResult], None] | None = None) -> SearchResult:
        """Search a position (FEN, python-chess board or :class:`Position`).

        Limits: ``depth`` (plies + quiescence), ``movetime`` (seconds), ``nodes``, or a
        :class:`Limits` for clocks, ``mate``, ``searchmoves``, ``multipv`` and
        ``ponder``. With none of them the engine's default depth (or 5) is used.
        ``info`` is called after every completed iteration, with the first line (its
        ``lines`` hold every line of the iteration). Raises IllegalMoveError for a
        search move that is not legal.
        """
        _ensure_compiled()
        pos = self._position(position)
        lim = limits or Limits()
        if depth is not None:
            lim.depth = depth
        if movetime is not None:
            lim.movetime = movetime
        if nodes is not None:
            lim.nodes = nodes
        budget = self._budget(lim, pos.turn)
        max_depth = lim.depth
        if max_depth is None:
            if budget is not None or lim.nodes or lim.infinite:
                max_depth = ab.MAXPLY - 10
            elif lim.mate:
                max_depth = 2 * lim.mate
            else:
                max_depth = self.default_depth or 5
        max_depth = max(1, min(int(max_depth), ab.MAXPLY - 10))

        # Root moves: every legal one, or the search moves; MultiPV lines after the first
        # search what the earlier lines of the iteration left.
        allowed: list[int] | None = None
        if lim.searchmoves is not None:
            allowed = list(dict.fromkeys(pos.parse_uci(m) for m in lim.searchmoves))
            if not allowed:
                raise ValueError("searchmoves: no move to search")
        n_root = len(allowed) if allowed is not None else len(pos.legal_move_codes())
        n_lines = max(1, min(int(lim.multipv), n_root))

        hist = [f.key for f in pos._history]
        self.keys = np.zeros(len(hist) + ab.MAXPLY + 4, dtype=np.uint64)
        self.keys[:len(hist)] = np.array(hist, dtype=np.uint64)
        self.bbs[0] = pos.bb
        self.sts[0] = pos.st
        self.evals[0] = evaluate(pos.bb, pos.st, self.w)
        self.killers[:] = 0
        ctl = self.ctl
        ctl[:] = 0
        ctl[ab.C_MAX_NODES] = lim.nodes or 0
        ctl[ab.C_HIST_LEN] = len(hist)
        ctl[ab.C_QLIMIT] = self.qlimit
        ctl[ab.C_NOISE_SEED] = (self.seed * 1000003 + 17) % (1 << 62)
        ctl[ab.C_RNG] = (self.seed * 7919 + self._searches) % (1 << 62)
        self._searches += 1

        start = time.perf_counter()
        with self._clock:
            self._pondering = lim.ponder
            self._pending_budget = budget
            self._move_budget = None
            if not lim.ponder:
                self._start_clock(budget)
        result: SearchResult | None = None
        prev_lines: list[int] = []
        try:
            for d in range(1, max_depth + 1):
                ctl[ab.C_MAX_NODES] = (lim.nodes or 0) if d > 1 else 0
                # Ties are broken at random in the last iteration (the one whose move is
                # played); earlier ones keep the best ordering.
                ties = self.random_ties and d == max_depth
                lines: list[SearchResult] = []
                taken: list[int] = []
                for k in range(n_lines):
                    if allowed is None and k == 0:
                        ctl[ab.C_ROOT_N] = 0           # every legal move
                    else:
                        rest = [m for m in (allowed if allowed is not None
                                            else pos.legal_move_codes()) if m not in taken]
                        self.root_only[:len(rest)] = rest
                        ctl[ab.C_ROOT_N] = len(rest)
                    prev = prev_lines[k] if k < len(prev_lines) else -1
                    n = ab.search_root(d, ties and k == 0, prev, self.root_only, self.bbs,
                                       self.sts, self.evals, self.moves, self.mscores,
                                       self.root_scores, self.pv, self.pvlen, self.killers,
                                       self.history, self.keys, self.tt_key, self.tt_move,
                                       self.tt_score, self.tt_depth, self.tt_flag, ctl, self.w,
                                       self.noise)
                    if n == 0 or (ctl[ab.C_STOP] and d > 1):
                        break
                    line = self._snapshot(d, n, int(ctl[ab.C_NODES]),
                                          time.perf_counter() - start)
                    line.multipv = k + 1
                    lines.append(line)
                    taken.append(line._codes[0])  # type: ignore[attr-defined]
                elapsed = time.perf_counter() - start
                if d == 1:
                    self._armed = True
                    if self._stop_requested or (lim.nodes and ctl[ab.C_NODES] >= lim.nodes):
                        ctl[ab.C_STOP] = 1
                if not lines:
                    if ctl[ab.C_STOP] and d > 1:
                        break
                    result = self._no_moves(pos, elapsed)   # no legal move at all
                    break
                if ctl[ab.C_STOP] and d > 1 and len(lines) < n_lines:
                    break                                     # an unfinished iteration
                # Depth 1 always completes, so there is always a move and a PV. The leaf
                # is worked out once, for the last completed iteration.
                for line in lines:
                    line.nodes, line.time = int(ctl[ab.C_NODES]), elapsed
                result = lines[0]
                result.lines = lines
                prev_lines = [line._codes[0] for line in lines]  # type: ignore[attr-defined]
                if info is not None:
                    info(result)
                if ctl[ab.C_STOP]:
                    break
                if result.mate is not None and abs(result.mate) <= d:
                    break
                if lim.mate and result.mate is not None and 0 < result.mate <= lim.mate:
                    break
                with self._clock:
                    mb, since = self._move_budget, time.perf_counter() - self._budget_start
                if mb is not None and since > 0.5 * mb and lim.movetime is None:
                    break
        finally:
            with self._clock:
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
                self._pondering = False
            # A stop() that arrives before the next search starts must not be lost:
            # only the end of a search clears it (front ends call clear_stop()).
            self._armed = False
            self._stop_requested = False
        assert result is not None
        if not result.lines:
            result.lines = [result]
        for line in result.lines:
            if line.leaf_position is None:
                self._add_leaf(pos, line)
        result.nodes = int(ctl[ab.C_NODES])
        result.time = time.perf_counter() - start
        return result

    def _no_moves(self, pos: Position, elapsed: float) -> SearchResult:
        score = ab.terminal_score(pos.bb, pos.st, 0)
        return SearchResult(None, float(score), [], 0, 0, int(self.ctl[ab.C_NODES]), elapsed,
                            mate=0 if abs(score) > ab.MATE_BOUND else None,
                            leaf_fen=pos.fen(), leaf_score=float(score if pos.turn else -score),
                            leaf_terminal=True, leaf_features=feature_vector(pos.bb, pos.st),
                            leaf_position=pos.copy())

    def _snapshot(self, depth: int, n: int, nodes: int, elapsed: float) -> SearchResult:
        """The result of the iteration just completed, without its leaf."""
        k = int(self.pvlen[0])
        codes = [int(m) for m in self.pv[0, :k]]
        scores = {int(self.moves[0, i]): float(self.root_scores[i]) for i in range(n)}
        score = scores.get(codes[0], max(scores.values()))
        mate = None
        if abs(score) > ab.MATE_BOUND:
            plies = int(round(ab.MATE - abs(score)))
            mate = (plies + 1) // 2 if score > 0 else -((plies + 1) // 2)
        result = SearchResult(
            move=move_to_uci(codes[0]), score=score, pv=[move_to_uci(m) for m in codes],
            depth=depth, seldepth=int(self.ctl[ab.C_SELDEPTH]), nodes=nodes, time=elapsed,
            mate=mate)
        result._codes = codes  # type: ignore[attr-defined]
        return result

    def _add_leaf(self, pos: Position, result: SearchResult) -> None:
        """Play the PV and describe where it ends (for TDLeaf and the tests)."""
        leaf = pos.copy()
        codes = result._codes  # type: ignore[attr-defined]
        for m in codes:
            leaf.push(m)
        n_leaf = core.gen_legal(leaf.bb, leaf.st, np.zeros(core.MAX_MOVES, np.int64),
                                np.zeros(core.NBB, np.uint64), np.zeros(core.NST, np.int64))
        terminal = n_leaf == 0
        if terminal:
            t = ab.terminal_score(leaf.bb, leaf.st, 0)
            leaf_score = float(t if leaf.turn else -t)
        elif codes and self._drawn_in_search(leaf):
            terminal, leaf_score = True, 0.0
        else:
            leaf_score = float(evaluate(leaf.bb, leaf.st, self.w))
        result.leaf_fen = leaf.fen()
        result.leaf_score = leaf_score
        result.leaf_terminal = bool(terminal)
        result.leaf_features = feature_vector(leaf.bb, leaf.st)
        result.leaf_position = leaf

    @staticmethod
    def _drawn_in_search(leaf: Position) -> bool:
        """Whether the search scored this PV leaf as a draw by rule (50 moves, a
        repetition, insufficient material), exactly as :func:`alphabeta.negamax` does."""
        st, bb = leaf.st, leaf.bb
        zh = st[core.VARIANT] == core.CRAZYHOUSE
        if not zh and st[core.HALFMOVE] >= 100:
            return True
        keys = [f.key for f in leaf._history]
        key, idx = leaf.key, len(keys)
        limit = 0 if zh else max(0, idx - int(st[core.HALFMOVE]))
        if any(keys[j] == key for j in range(idx - 2, limit - 1, -2)):
            return True
        pieces = int(bb[core.OCC] | bb[core.OCC + 1]).bit_count()
        return pieces <= 6 and bool(core.is_insufficient_material(bb, st))
