"""The engine object: iterative deepening over :mod:`search.alphabeta`, limits, results.

>>> from search import Engine
>>> engine = Engine("atomic", depth=3)
>>> result = engine.search("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
>>> result.move, result.score, result.pv      # doctest: +SKIP
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess
import numpy as np

from variants import Position, canonical_variant, core, spec
from variants.position import move_to_uci

from . import alphabeta as ab
from .evaluation.errors import WeightsError
from .evaluation.layout import feature_layout
from .evaluation.load import weights_or_default
from .evaluation.registry import leaf_blocks
from .evaluation.value_sets import value_set
from .evaluation.weights import Weights
from .kernels.classic import evaluate
from .kernels.dispatch import feature_vector
from .modes import SEARCH_MODES
from .state import TT_ENTRY, Eval, Line, Memory, Rows

if TYPE_CHECKING:
    from .pns import ProofSearch

TT_ENTRY_BYTES = TT_ENTRY.itemsize
#: The kinds of search loaded so far in this process: False (the classic search), True
#: (with leaf blocks, which numba compiles apart).
_compiled: set[bool] = set()
#: Non-zero features a collected node can have in the classic blocks: one table entry per
#: occupied square, material of both colours (12, Black's own where the colours differ),
#: pieces in hand (5). A row holds these plus every entry of the leaf blocks.
_CLASSIC_NNZ = 64 + 12 + 5

#: Aspiration windows at the root (not a numba flag: the root loop is here).
F_ASPIRATION = 1 << 16
#: The margins an evaluation may refit for itself (``tdleaf bench margins --save``), in
#: its ``meta[MARGINS_META]``: fields of :class:`variants.spec.Variant`, in pawns.
MARGINS_META = "search_margins"
MARGIN_FIELDS = ("futility_margin", "razor_margin", "aspiration")
#: Never let a clock fall below this (seconds): what a move costs to send and read.
TIME_MARGIN = 0.1


#: Bits of the technique names of :data:`variants.spec.TECHNIQUES`.
TECHNIQUE_BITS: dict[str, int] = {
    "null-move": ab.F_NULL_MOVE, "lmr": ab.F_LMR, "check-ext": ab.F_CHECK_EXT,
    "futility": ab.F_FUTILITY, "reverse-futility": ab.F_REVERSE_FUTILITY,
    "razor": ab.F_RAZOR, "qsee": ab.F_QSEE, "suicide-qbound": ab.F_SUICIDE_QBOUND,
    "see-order": ab.F_SEE_ORDER, "aspiration": F_ASPIRATION, "only-move": ab.F_ONLY_MOVE,
    "forced-ext": ab.F_FORCED_EXT, "forcing-order": ab.F_FORCING_ORDER}


def technique_bits(names: tuple[str, ...] | list[str]) -> int:
    """The technique bits of technique names (:data:`TECHNIQUE_BITS`)."""
    bits = 0
    for name in names:
        if name not in TECHNIQUE_BITS:
            raise ValueError(f"unknown search technique {name!r}; expected one of "
                             f"{', '.join(TECHNIQUE_BITS)}")
        bits |= TECHNIQUE_BITS[name]
    return bits


#: Techniques taken out of the selective search per variant, where ``tdleaf bench
#: selective --ablate`` did not measure them to help (BENCHMARKS.md, "Selective
#: search"): each variant's :attr:`variants.spec.Variant.selective_off`, as bits.
SELECTIVE_OFF: dict[str, int] = {
    name: technique_bits(v.selective_off) for name, v in spec.SPECS.items() if v.selective_off}
#: Techniques outside the default set that a variant's selective search adds
#: (:attr:`variants.spec.Variant.selective_on`), as bits.
SELECTIVE_ON: dict[str, int] = {
    name: technique_bits(v.selective_on) for name, v in spec.SPECS.items() if v.selective_on}


def search_flags(mode: str, variant: str | None = None) -> int:
    """The technique bits (``alphabeta.F_*`` and :data:`F_ASPIRATION`) of a search mode;
    with ``variant``, the selective set less what was measured not to help there."""
    if mode == "plain":
        return 0
    if mode == "selective":
        full = ab.SELECTIVE | F_ASPIRATION
        if not variant:
            return full
        return (full | SELECTIVE_ON.get(variant, 0)) & ~SELECTIVE_OFF.get(variant, 0)
    raise ValueError(f"unknown search mode {mode!r}; expected one of {', '.join(SEARCH_MODES)}")


def ensure_compiled(leaf_blocks: bool = False) -> None:
    """Load (or compile) the search once per process, outside any time limit; with
    ``leaf_blocks``, also the search with leaf blocks (:meth:`Engine.load_compiled`),
    which numba compiles apart: one such load serves every variant and block."""
    if False not in _compiled:
        _compiled.add(False)
        Engine("chess", "traditional", hash_mb=1).search(None, depth=1)
    if leaf_blocks and True not in _compiled:
        _compiled.add(True)
        search_with_leaf_blocks("chess", depth=1)


def search_with_leaf_blocks(variant: str = "chess", depth: int = 2) -> None:
    """One search with every registered leaf block that fits ``variant`` (``--features
    psq+BLOCK...``): numba compiles it apart from the classic search, which has no
    leaf-block code at all; the one dispatch compiles every kernel with any one."""
    extra = [b.name for b in leaf_blocks() if not b.misfit(variant)
             and not feature_layout(variant, "psq").has(b.name)]
    if not extra:
        return
    layout = feature_layout(variant, "+".join(["psq", *extra]))
    w = np.zeros(layout.size)
    classic = value_set("traditional", variant)
    w[:classic.w.size] = classic.w
    Engine(variant, Weights(variant, w, {}, layout=layout), hash_mb=1).search(None, depth=depth)


def search_margins(variant: str, weights: Weights) -> dict[str, float]:
    """The futility and razoring margins (pawns per ply of depth) and the aspiration
    window's half-width (pawns) the selective search plays ``weights`` with: the
    variant's (``variants/spec.py``, measured with its shipped tables), each replaced by
    the weights' own refit where their ``meta["search_margins"]`` holds one."""
    v = spec.get(variant)
    margins = {f: float(getattr(v, f)) for f in MARGIN_FIELDS}
    own = (weights.meta or {}).get(MARGINS_META, {})
    where = f"{weights.source or 'weights'}: meta.{MARGINS_META}"
    if not isinstance(own, dict):
        raise WeightsError(f"{where} must be an object of margins, got {own!r}")
    for name, x in own.items():
        if name not in MARGIN_FIELDS:
            raise WeightsError(f"{where}: unknown margin {name!r}; expected one of "
                               + ", ".join(MARGIN_FIELDS))
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < 1e6:
            raise WeightsError(f"{where}.{name} must be a number of pawns >= 0, got {x!r}")
        margins[name] = float(x)
    return margins


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
    lines: list[SearchResult] = field(default_factory=list, repr=False)
    #: The root moves the proof check (:attr:`Engine.proof_check`) proved to lose.
    refuted: list[str] = field(default_factory=list)

    #: With :attr:`Engine.collect`: the interior nodes of the last completed iteration.
    collected: Collected | None = field(default=None, repr=False)

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


#: Kinds of a collected node's value (White's view): exact, a lower or an upper bound.
EXACT, LOWER, UPPER = ab.TT_EXACT, ab.TT_LOWER, ab.TT_UPPER


@dataclass
class Collected:
    """The interior nodes (depth > 0) of one search whose values the search established,
    for the bootstrapping learners (:mod:`tdleaf.learn.bootstrap`): row i is a node, its
    non-zero features ``x[i, :nnz]`` at ``index[i, :nnz]`` (zero padding after them) in
    the engine's layout, from White's view, its search value ``value[i]`` (pawns, White's
    view, mates unclipped) and ``kind[i]``: :data:`EXACT` (a PV node's value strictly
    inside its full window), :data:`LOWER` (a lower bound for White: White to move
    failed high, or Black failed low) or :data:`UPPER`. The root, when recorded, is the
    last row (``ply`` 0). Left out: null-move, futility, razoring and table cutoffs, draws by rule,
    LMR-reduced searches (their re-search counts), nodes under a null move, quiescence
    nodes (unless :attr:`Engine.collect_quiescence`: then those whose moves changed their
    value from the stand-pat, with ``depth`` <= 0) and an interrupted iteration. At most
    :attr:`Engine.collect` non-root rows: a seeded reservoir sample of the ``seen`` nodes."""

    index: np.ndarray      # (n, K) int64
    x: np.ndarray          # (n, K) float64
    value: np.ndarray      # (n,) float64
    kind: np.ndarray       # (n,) int8
    ply: np.ndarray        # (n,) int64
    depth: np.ndarray      # (n,) int64
    seen: int = 0          # non-root nodes offered to the sample
    overflow: int = 0      # nodes dropped for having more features than a row holds

    def __len__(self) -> int:
        return len(self.value)

    def dense(self, size: int) -> np.ndarray:
        """The (n, size) feature matrix."""
        out = np.zeros((len(self), size))
        np.add.at(out, (np.arange(len(self))[:, None], self.index), self.x)
        return out

    @staticmethod
    def empty(width: int = 0) -> Collected:
        z = np.zeros(0, dtype=np.int64)
        return Collected(np.zeros((0, width), np.int64), np.zeros((0, width)), np.zeros(0),
                         np.zeros(0, np.int8), z, z.copy())


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

    The weights' layout (:class:`~search.layout.FeatureLayout`) may hold leaf blocks
    (``psq+mobility``): the search adds them, computed from the whole position, wherever
    it evaluates a node, and results describe the PV's leaf with every feature of the
    layout. A leaf block needs a compiled kernel (ValueError otherwise).

    ``collect`` > 0 makes every search record its interior nodes for the bootstrapping
    learners, at most that many (a seeded reservoir sample beyond): see
    :class:`Collected`, in :attr:`SearchResult.collected`. 0 (the default) searches
    exactly as without it. ``collect_quiescence`` also records the quiescence nodes
    whose captures (or evasions) changed their value.
    """

    def __init__(self, variant: str = "chess", weights: Weights | str | None = None, *,
                 hash_mb: int = 64, depth: int | None = None, qlimit: int = 16,
                 random_ties: bool = False, noise: float = 0.0, seed: int = 0,
                 search: str = "selective", flags: int | None = None, collect: int = 0,
                 collect_quiescence: bool = False) -> None:
        self.variant = canonical_variant(variant)
        self.set_search(search, flags)
        #: The root's proof-number search (variants.spec.Variant.proof_share; made when
        #: first used, its table of proved wins kept from move to move).
        self.proof_share = spec.get(self.variant).proof_share
        #: The share kept for the proof check of the chosen move (``Variant.proof_check``).
        self.proof_check = spec.get(self.variant).proof_check
        #: Consult the variant's opening book on a timed move (``Variant.book``; UCI's
        #: ``OwnBook``).
        self.own_book = spec.get(self.variant).book
        self._proof: ProofSearch | None = None
        self.collect = 0
        self.collect_quiescence = bool(collect_quiescence)
        self.set_weights(weights)
        self.set_collect(collect)
        self.default_depth = depth
        self.qlimit = qlimit
        self.random_ties = random_ties
        self.noise = float(noise)
        self.seed = int(seed)
        self._searches = 0
        self._armed = False
        self._stop_requested = False
        self._timed_out = False             # the stop came from the move's clock
        self._clock = threading.Lock()      # guards the timer and the ponder state
        self._timer: threading.Timer | None = None
        self._pondering = False
        self._pending_budget: float | None = None
        self._move_budget: float | None = None
        self._budget_start = 0.0
        m = ab.MAXPLY + 4
        self.bbs = np.zeros((m, core.NBB), dtype=np.uint64)
        self.sts = np.zeros((m, core.NST), dtype=np.int64)
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
        weights = weights_or_default(weights, self.variant)
        if not spec.get(weights.variant).same_rules(spec.get(self.variant)):
            raise ValueError(f"weights are for {weights.variant}, engine plays {self.variant}")
        missing = [b.name for b in weights.layout.blocks if b.evaluation == "leaf" and not b.code]
        if missing:
            raise ValueError(f"block(s) {', '.join(missing)} of layout {weights.layout.name!r} "
                             "have no compiled kernel: the search cannot evaluate them")
        self.margins = search_margins(self.variant, weights)
        self.weights = weights
        self.w = np.ascontiguousarray(weights.w, dtype=np.float64)
        # The leaf blocks the search adds at every node it evaluates (none: 0 rows).
        self.table = np.ascontiguousarray(weights.layout.table, dtype=np.int64)
        # None without leaf blocks: the search is then compiled without their code.
        self._leaf = self.table if self.table.size else None
        self._allocate_collection()

    def load_compiled(self) -> None:
        """Load (or compile) the search these weights need, once per process: what a
        player calls before its first move is timed (with leaf blocks, a search that
        numba compiles apart; :func:`ensure_compiled`), and the first touch of every page
        of the transposition table, which costs the first search a tenth of a second at
        64 MB otherwise."""
        ensure_compiled(self._leaf is not None)
        if not self._table_touched:
            self.clear_hash()
        if self.proof_share or self.proof_check:
            from .pns import load
            load()
        if spec.get(self.variant).endgame_pieces:
            from .endgame import TableError, tables
            try:
                tables(self.variant).load()
            except TableError as exc:           # a bad cache file: play without it
                warnings.warn(str(exc), stacklevel=2)
        if self.own_book:
            from .book import BookError, shipped_book
            try:
                shipped_book(self.variant)
            except BookError as exc:            # a bad per-user copy: play without it
                warnings.warn(str(exc), stacklevel=2)
                self.own_book = False

    def set_collect(self, nodes: int) -> None:
        """Record up to ``nodes`` interior nodes per search (0: none; see
        :class:`Collected`)."""
        if nodes < 0:
            raise ValueError(f"collect must be >= 0 nodes, got {nodes}")
        self.collect = int(nodes)
        self._allocate_collection()

    def _allocate_collection(self) -> None:
        """The search's ``evals`` array: the per-ply evaluations and, when collecting, a
        dense feature row and the collected rows after them (see search.alphabeta.EVALS),
        twice (one holds the last completed iteration while the next fills the other)."""
        size = self.weights.layout.size
        leaf = int(self.table[:, 2].sum()) if self.table.size else 0
        self._col_k = min(size, _CLASSIC_NNZ + leaf)
        n = ab.EVALS
        if self.collect:
            n += size + (self.collect + 1) * ab.row_width(self._col_k)
        self._evals = [np.zeros(n) for _ in range(2 if self.collect else 1)]
        self._col_now = 0
        self.evals = self._evals[0]

    def _rows(self, buf: int) -> np.ndarray:
        """The collected rows of buffer ``buf``: (collect + 1, row width), the root last."""
        start = ab.EVALS + self.weights.layout.size
        return self._evals[buf][start:].reshape(self.collect + 1, ab.row_width(self._col_k))

    def set_search(self, mode: str, flags: int | None = None) -> None:
        """``selective`` or ``plain``; ``flags`` (technique bits) overrides the mode's
        set, for measuring one technique against the others."""
        base = search_flags(mode, self.variant)
        self.search_mode = mode
        self.flags = base if flags is None else int(flags)

    def set_hash(self, hash_mb: int) -> None:
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MB, got {hash_mb}")
        n = max(1024, int(hash_mb) * 1024 * 1024 // TT_ENTRY_BYTES)
        self.tt = np.zeros(n, dtype=TT_ENTRY)
        self._table_touched = False     # its pages are not in memory yet: load_compiled

    def new_game(self, seed: int | None = None) -> None:
        """Forget everything learned about previous positions (TT, history, killers).

        With ``seed``, also restart the random tie-breaks and noise from that seed, so a
        game depends only on the weights and the seed (what makes learning resumable
        and reproducible)."""
        self.clear_hash()
        self.history[:] = 0
        self.killers[:] = 0
        if seed is not None:
            self.seed = int(seed)
            self._searches = 0

    def clear_hash(self) -> None:
        """Empty the transposition table (its scores were made with the weights of the
        time: the bootstrapping learners clear it after every update)."""
        self.tt["key"] = 0
        self._table_touched = True

    def clear_stop(self) -> None:
        """Forget a pending stop request (call before starting a search in a thread)."""
        self._stop_requested = False

    def stop(self) -> None:
        """Ask a running search to stop as soon as possible (thread-safe). The first
        iteration always completes, so that there is a move and a consistent PV."""
        self._stop_requested = True
        if self._armed:
            self.ctl[ab.C_STOP] = 1

    def _cancel_timer(self) -> None:
        """Cancel the move's clock (with ``_clock`` held)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _time_up(self) -> None:
        """The move's clock ran out: a stop that the proof check may outlive (a stop
        asked for by a front end ends it too)."""
        self._timed_out = True
        self.stop()

    def _stopped_by_user(self) -> bool:
        return self._stop_requested and not self._timed_out

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
            self._timer = threading.Timer(budget, self._time_up)
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
        if not spec.get(p.variant).same_rules(spec.get(self.variant)):
            raise ValueError(f"position is {p.variant}, engine plays {self.variant}")
        return p

    def _time_plan(self, lim: Limits, pos: Position) -> tuple[float, float] | None:
        """``(soft, hard)`` seconds for this move, or None without a time limit. The hard
        limit stops the search; after the soft one no new iteration starts (scaled by how
        stable the best move has been). A clock keeps TIME_MARGIN in reserve."""
        if lim.infinite:
            return None
        if lim.movetime is not None:
            t = max(0.0, lim.movetime)
            return t, t
        white = pos.turn
        left = lim.wtime if white else lim.btime
        if left is None:
            return None
        inc = lim.winc if white else lim.binc
        usable = max(0.0, left - TIME_MARGIN)
        # Moves still to play: as asked, else fewer as the game goes on (its phase).
        togo = lim.movestogo or max(15, 45 - int(pos.st[core.FULLMOVE]) // 2)
        soft = usable / togo + 0.75 * inc
        hard = min(usable * 0.4 + inc * 0.5, soft * 4.0)
        hard = max(0.001, min(hard, usable))
        return min(soft, hard), hard

    def search(self, position: Position | chess.Board | str | None = None, depth: int | None = None,
               movetime: float | None = None, nodes: int | None = None, *,
               limits: Limits | None = None,
               info: Callable[[SearchResult], None] | None = None,
               leaf: bool = True) -> SearchResult:
        """Search a position (FEN, python-chess board or :class:`Position`).

        Limits: ``depth`` (plies + quiescence), ``movetime`` (seconds), ``nodes``, or a
        :class:`Limits` for clocks, ``mate``, ``searchmoves``, ``multipv`` and
        ``ponder``. With none of them the engine's default depth (or 5) is used. Where
        the variant has a ``proof_share`` (suicide, giveaway, antichess), a search with
        only a time limit runs the proof-number search first (:meth:`_prove_root`).
        ``info`` is called after every completed iteration, with the first line (its
        ``lines`` hold every line of the iteration). Raises IllegalMoveError for a
        search move that is not legal. ``leaf=False`` skips describing the PV's leaf
        (its FEN and features: what learning needs and play does not).
        """
        self.load_compiled()
        pos = self._position(position)
        lim = limits or Limits()
        if depth is not None:
            lim.depth = depth
        if movetime is not None:
            lim.movetime = movetime
        if nodes is not None:
            lim.nodes = nodes
        plan = self._time_plan(lim, pos)
        check = self._check_share(lim, plan)
        # The alpha-beta search's plan: the move's, less the proof check's share.
        ab_plan = plan if plan is None or not check else (
            plan[0] * (1 - check), max(0.001, plan[1] - check * plan[0]))
        # Root moves: every legal one, or the search moves.
        allowed: list[int] | None = None
        if lim.searchmoves is not None:
            allowed = list(dict.fromkeys(pos.parse_uci(m) for m in lim.searchmoves))
            if not allowed:
                raise ValueError("searchmoves: no move to search")
        self._prepare(pos, lim)
        start = time.perf_counter()
        with self._clock:
            self._pondering = lim.ponder
            self._pending_budget = None if ab_plan is None else ab_plan[1]
            self._move_budget = None
            self._timed_out = False
            if not lim.ponder:
                self._start_clock(self._pending_budget)
        try:
            proved, allowed, proof_nodes = self._prove_root(pos, lim, plan, allowed, start)
            if proved is not None and info is not None:
                info(proved)
            result = proved or self._deepen(pos, lim, ab_plan, allowed, start, info)
            if proved is None and plan is not None and check:
                result, checked = self._check_move(pos, lim, plan, allowed, start, info,
                                                   result)
                proof_nodes += checked
        finally:
            with self._clock:
                self._cancel_timer()
                self._pondering = False
            # A stop() that arrives before the next search starts must not be lost:
            # only the end of a search clears it (front ends call clear_stop()).
            self._armed = False
            self._stop_requested = False
            self._timed_out = False
        if not result.lines:
            result.lines = [result]
        for line in result.lines if leaf else []:
            if line.leaf_position is None:
                self._add_leaf(pos, line)
        result.nodes = int(self.ctl[ab.C_NODES]) + proof_nodes
        result.time = time.perf_counter() - start
        if self.collect:
            result.collected = self._collected(self._done_col)
        return result

    def _prove_root(self, pos: Position, lim: Limits, plan: tuple[float, float] | None,
                    allowed: list[int] | None, start: float,
                    ) -> tuple[SearchResult | None, list[int] | None, int]:
        """With only a time limit (no depth or node limit, as UCI_Elo's; not pondering;
        one line): the endgame tables' move where they know the position
        (:meth:`_table_move`), else the opening book's (:meth:`_book_move`: a proved
        win, or the moves it proves to lose left out), else with :attr:`proof_share`
        the proof-number search,
        for that share of the soft budget: a proved win
        (among ``allowed``) is the result, with its mate distance; the root moves it
        proves to lose leave ``allowed`` (unless every move does). Returns the result
        (or None), the moves alpha-beta searches and the proof search's nodes."""
        if plan is None or not self._timed_alone(lim, plan):
            return None, allowed, 0
        known = self._table_move(pos, allowed, start)
        if known is None and self.own_book:
            known, allowed = self._book_move(pos, allowed, start)
        if known is not None or not self.proof_share:
            return known, allowed, 0
        from .pns import at_root
        found, lost = at_root(self._proof_search(), pos, self.proof_share * plan[0],
                              stop=lambda: self._stop_requested)
        names = None if allowed is None else {move_to_uci(m) for m in allowed}
        if found.best is not None and (names is None or found.best in names):
            plies, line = found.plies, pos.copy()
            result = SearchResult(found.best, ab.MATE - plies, found.pv, len(found.pv),
                                  len(found.pv), found.nodes, time.perf_counter() - start,
                                  mate=(plies + 1) // 2)
            result._codes = [line.push_uci(m) for m in found.pv]  # type: ignore[attr-defined]
            return result, allowed, found.nodes
        if lost:
            codes = allowed if allowed is not None else [int(m) for m in pos.legal_move_codes()]
            kept = [m for m in codes if move_to_uci(m) not in lost]
            allowed = kept or allowed
        return None, allowed, found.nodes

    @staticmethod
    def _timed_alone(lim: Limits, plan: tuple[float, float] | None) -> bool:
        """Whether the move has a time limit alone (no depth, node or mate limit, as
        UCI_Elo's; not pondering or infinite; one line): where the proof searches run."""
        return not (plan is None or lim.depth or lim.nodes or lim.ponder or lim.infinite
                    or lim.multipv > 1 or lim.mate)

    def _check_share(self, lim: Limits, plan: tuple[float, float] | None) -> float:
        """The proof check's share of this move (:attr:`proof_check`), where
        :meth:`_timed_alone` says the proof searches run."""
        return self.proof_check if self._timed_alone(lim, plan) else 0.0

    def _check_move(self, pos: Position, lim: Limits, plan: tuple[float, float],
                    allowed: list[int] | None, start: float,
                    info: Callable[[SearchResult], None] | None,
                    result: SearchResult) -> tuple[SearchResult, int]:
        """The proof check of the chosen move: the proof-number search, for the
        opponent, of the position after it, in what is left of the move's time (its
        share, within the hard limit). A move proved to lose is left out and the other
        moves searched again with half of what is left, their choice checked in turn;
        when every move is proved to lose, the one whose loss is longest, scored as the
        mate it is. Not for a mate alpha-beta already sees, either way. Returns the
        move's result (the moves proved to lose in its ``refuted``) and the proof
        search's nodes."""
        from .pns import PROVED
        with self._clock:                # alpha-beta is done: its clock is not needed
            self._cancel_timer()
        deadline = min(time.perf_counter() + self.proof_check * plan[0], start + plan[1])
        codes = allowed if allowed is not None else [int(m) for m in pos.legal_move_codes()]
        refuted: dict[int, tuple[SearchResult, int]] = {}     # move: its result, plies
        nodes = 0
        while result.mate is None and not self._stopped_by_user():
            # Its first chunk of expansions runs even with no time left, as alpha-beta's
            # first iteration does: a short proof is always found, however loaded the
            # machine (at most a move's worth of chunks, some milliseconds).
            left = max(0.0, deadline - time.perf_counter())
            move = int(result._codes[0])  # type: ignore[attr-defined]
            after = pos.copy()
            after.push(move)
            found = self._proof_search().solve(after, seconds=left,
                                               stop=self._stopped_by_user)
            nodes += found.nodes
            if found.status != PROVED:
                break
            refuted[move] = (result, found.plies)
            rest = [m for m in codes if m not in refuted]
            if not rest:
                result, plies = max(refuted.values(), key=lambda rp: rp[1])
                result.score, result.mate = -float(ab.MATE - plies - 1), -((plies + 2) // 2)
                if info is not None:
                    info(result)
                break
            # Half of what is left (its first iteration completes even with none left).
            share = max(0.0, deadline - time.perf_counter()) / 2
            self.ctl[ab.C_STOP] = 0
            self._armed = self._stop_requested = self._timed_out = False
            with self._clock:
                self._start_clock(share)
            result = self._deepen(pos, lim, (share, share), rest, start, info)
        result.refuted = [move_to_uci(m) for m in refuted]
        return result, nodes

    def _proof_search(self) -> ProofSearch:
        """The engine's proof-number search, made when first used."""
        if self._proof is None:
            from .pns import ProofSearch
            self._proof = ProofSearch(1 << 19)
        return self._proof

    def _table_move(self, pos: Position, allowed: list[int] | None,
                    start: float) -> SearchResult | None:
        """The endgame tables' move (:mod:`search.endgame`) where the variant has them,
        the position is in one already built (loaded before the first timed move, or
        built earlier in the process: a table is never built on the clock) and every
        move may be played: the quickest win, the slowest loss, or a move that holds
        the draw."""
        if not spec.get(self.variant).endgame_pieces or allowed is not None:
            return None
        from .endgame import tables
        p = tables(self.variant).probe(pos, build=False)
        line = [] if p is None else tables(self.variant).line(pos)
        if p is None or not line:
            return None
        plies = max(p.plies, 1)
        score = 0.0 if p.result == 0 else p.result * float(ab.MATE - plies)
        mate = None if p.result == 0 else p.result * ((plies + 1) // 2)
        result = SearchResult(line[0], score, line, len(line), len(line), 0,
                              time.perf_counter() - start, mate=mate)
        result._codes = [pos.copy().push_uci(line[0])]  # type: ignore[attr-defined]
        return result

    def _book_move(self, pos: Position, allowed: list[int] | None, start: float,
                   ) -> tuple[SearchResult | None, list[int] | None]:
        """The opening book's answer (:mod:`search.book`): its shortest proved win among
        ``allowed``, scored as the mate it is, or None and ``allowed`` less the moves it
        proves to lose (unless every move does)."""
        from .book import BookError, shipped_book
        try:
            book = shipped_book(self.variant)
        except BookError:                   # said once, by load_compiled
            return None, allowed
        entry = None if book is None else book.probe(pos)
        if entry is None:
            return None, allowed
        names = None if allowed is None else {move_to_uci(m) for m in allowed}
        win = entry.best_win(names)
        if win is not None:
            move, plies = win
            result = SearchResult(move, ab.MATE - plies, [move], 1, 1, 0,
                                  time.perf_counter() - start, mate=(plies + 1) // 2)
            result._codes = [pos.copy().push_uci(move)]  # type: ignore[attr-defined]
            return result, allowed
        codes = allowed if allowed is not None else [int(m) for m in pos.legal_move_codes()]
        kept = [m for m in codes if move_to_uci(m) not in entry.losses]
        return None, (kept or allowed)

    def _max_depth(self, lim: Limits, budget: float | None) -> int:
        """The deepest iteration: as asked, else unbounded under a clock, a node limit
        or ``infinite``, else what a mate search needs, else the default depth."""
        max_depth = lim.depth
        if max_depth is None:
            if budget is not None or lim.nodes or lim.infinite:
                max_depth = ab.MAXPLY - 10
            elif lim.mate:
                # Reductions and pruning may hide a win at the horizon: two plies more.
                max_depth = 2 * lim.mate + (2 if self.flags else 0)
            else:
                max_depth = self.default_depth or 5
        return max(1, min(int(max_depth), ab.MAXPLY - 10))

    def _prepare(self, pos: Position, lim: Limits) -> None:
        """The root's rows, the game's position keys and the control vector."""
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
        ctl[ab.C_FLAGS] = self.flags & ab.TECHNIQUES
        ctl[ab.C_FUTILITY] = round(self.margins["futility_margin"] / ab.MARGIN_UNIT)
        ctl[ab.C_RAZOR] = round(self.margins["razor_margin"] / ab.MARGIN_UNIT)
        ctl[ab.C_COLLECT] = (0 if not self.collect else ab.COLLECT_QUIESCENCE
                             if self.collect_quiescence else ab.COLLECT_INTERIOR)
        ctl[ab.C_NFEAT] = self.weights.layout.size
        ctl[ab.C_COL_K] = self._col_k
        ctl[ab.C_COL_ROWS] = self.collect
        # The sample's own random numbers: collecting never changes the tie-breaks.
        ctl[ab.C_COL_RNG] = (self.seed * 104729 + self._searches * 7 + 3) % (1 << 62)
        self._searches += 1
        # The buffer that holds the last completed iteration's nodes, and its counts.
        self._done_col: tuple[int, int, int, int] | None = None

    def _deepen(self, pos: Position, lim: Limits, plan: tuple[float, float] | None,
                allowed: list[int] | None, start: float,
                info: Callable[[SearchResult], None] | None) -> SearchResult:
        """Iterative deepening to the last iteration that completes in the limits; its
        first line (the others in ``lines``), without its leaf."""
        ctl = self.ctl
        max_depth = self._max_depth(lim, None if plan is None else plan[1])
        n_root = len(allowed) if allowed is not None else len(pos.legal_move_codes())
        n_lines = max(1, min(int(lim.multipv), n_root))
        result: SearchResult | None = None
        prev_lines: list[int] = []
        prev_score = 0.0
        stable = 0                    # iterations in a row with the same best move
        for d in range(1, max_depth + 1):
            ctl[ab.C_MAX_NODES] = (lim.nodes or 0) if d > 1 else 0
            lines = self._iteration(d, pos, allowed, n_lines, prev_lines, prev_score,
                                    d == max_depth, start)
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
            if self.collect:
                self._done_col = (self._col_now, int(ctl[ab.C_STORED]), int(ctl[ab.C_SEEN]),
                                  int(ctl[ab.C_OVERFLOW]))
            result = lines[0]
            result.lines = lines
            best_code = result._codes[0]  # type: ignore[attr-defined]
            stable = stable + 1 if prev_lines and best_code == prev_lines[0] else 0
            prev_score = result.score
            prev_lines = [line._codes[0] for line in lines]  # type: ignore[attr-defined]
            if info is not None:
                info(result)
            if self._done_after(d, result, lim, plan, stable):
                break
        assert result is not None
        return result

    def _iteration(self, d: int, pos: Position, allowed: list[int] | None, n_lines: int,
                   prev_lines: list[int], prev_score: float, last: bool,
                   start: float) -> list[SearchResult]:
        """The lines of the iteration at depth ``d`` (MultiPV's lines after the first
        search what the earlier lines left), as far as the limits let it go."""
        ctl = self.ctl
        # Ties are broken at random in the last iteration (the one whose move is played);
        # earlier ones keep the best ordering.
        ties = self.random_ties and last
        lines: list[SearchResult] = []
        taken: list[int] = []
        if self.collect:
            # Fill the buffer that does not hold the last completed iteration.
            now = 1 - self._done_col[0] if self._done_col else 0
            self._evals[now][0] = self.evals[0]
            self.evals = self._evals[now]
            self._col_now = now
            ctl[ab.C_SEEN] = ctl[ab.C_STORED] = ctl[ab.C_OVERFLOW] = 0
            self._rows(now)[-1, ab.R_KIND] = 0.0      # no root yet
        for k in range(n_lines):
            if allowed is None and k == 0:
                ctl[ab.C_ROOT_N] = 0           # every legal move
            else:
                rest = [m for m in (allowed if allowed is not None
                                    else pos.legal_move_codes()) if m not in taken]
                self.root_only[:len(rest)] = rest
                ctl[ab.C_ROOT_N] = len(rest)
            prev = prev_lines[k] if k < len(prev_lines) else -1
            # Aspiration windows for the first line of an unrestricted root.
            window = allowed is None and k == 0
            n = self._root(d, ties and k == 0, prev, prev_score if window else None)
            if n == 0 or (ctl[ab.C_STOP] and d > 1):
                break
            line = self._snapshot(d, n, int(ctl[ab.C_NODES]), time.perf_counter() - start)
            line.multipv = k + 1
            lines.append(line)
            taken.append(line._codes[0])  # type: ignore[attr-defined]
        return lines

    def _done_after(self, d: int, result: SearchResult, lim: Limits,
                    plan: tuple[float, float] | None, stable: int) -> bool:
        """Whether no iteration follows the one at depth ``d``: stopped, a mate found
        (or the one asked for), or, under a clock, too little time left for the next."""
        if self.ctl[ab.C_STOP]:
            return True
        if result.mate is not None and abs(result.mate) <= d:
            return True
        if lim.mate and result.mate is not None and 0 < result.mate <= lim.mate:
            return True
        with self._clock:
            started = self._move_budget is not None
            since = time.perf_counter() - self._budget_start
        if plan is not None and started and lim.movetime is None:
            # A best move that keeps changing earns more time, a settled one less; an
            # iteration that would not end before the soft limit is not started (each
            # costs a few times the one before).
            scale = 1.3 if stable == 0 else (0.9 if stable < 3 else 0.6)
            return since > 0.5 * plan[0] * scale
        return False

    def _collected(self, done: tuple[int, int, int, int] | None) -> Collected:
        """The nodes of the last completed iteration (none without one)."""
        k = self._col_k
        if done is None:
            return Collected.empty(k)
        buf, stored, seen, overflow = done
        col = self._rows(buf)
        rows = col[:stored]
        if col[-1, ab.R_KIND]:
            rows = np.concatenate([rows, col[-1:]])
        rows = rows[rows[:, ab.R_KIND] != 0]        # rows a feature overflow emptied
        nnz = rows[:, ab.R_NNZ].astype(np.int64)
        used = np.arange(k)[None, :] < nnz[:, None]
        index = np.where(used, rows[:, ab.R_FEAT:ab.R_FEAT + k], 0).astype(np.int64)
        x = np.where(used, rows[:, ab.R_FEAT + k:], 0.0)
        return Collected(index, x, rows[:, ab.R_VALUE].copy(),
                         rows[:, ab.R_KIND].astype(np.int8), rows[:, ab.R_PLY].astype(np.int64),
                         rows[:, ab.R_DEPTH].astype(np.int64), seen, overflow)

    def _root(self, depth: int, ties: bool, prev_best: int, prev_score: float | None) -> int:
        """One root search; with ``prev_score`` (and aspiration on, from depth 4, not for
        random ties) inside an aspiration window around it, widened until the score
        falls inside. Returns the number of root moves searched."""
        rows, mem, line, ctl, ev = self._state()
        only, scores = self.root_only, self.root_scores
        if (prev_score is None or not (self.flags & F_ASPIRATION) or depth < 4 or ties
                or abs(prev_score) > ab.MATE_BOUND):
            return ab.search_root(depth, ties, prev_best, only, scores, rows, mem, line, ctl, ev,
                                  -ab.INF, ab.INF)
        delta = self.margins["aspiration"]
        alpha, beta = prev_score - delta, prev_score + delta
        while True:
            n = ab.search_root(depth, ties, prev_best, only, scores, rows, mem, line, ctl, ev,
                               alpha, beta)
            if n == 0 or self.ctl[ab.C_STOP]:
                return n
            best = float(self.root_scores[:n].max())
            if best <= alpha:
                alpha = -ab.INF if delta > 4.0 else best - delta
            elif best >= beta:
                beta = ab.INF if delta > 4.0 else best + delta
            else:
                return n
            delta *= 2.0
            prev_best = int(self.pv[0, 0])

    def _state(self) -> tuple[Rows, Memory, Line, np.ndarray, Eval]:
        """The search's arrays as :mod:`search.state` groups them: rows, memory, line,
        control vector and evaluation."""
        return (Rows(self.bbs, self.sts, self.evals, self.moves, self.mscores),
                Memory(self.tt, self.killers, self.history),
                Line(self.pv, self.pvlen, self.keys), self.ctl,
                Eval(self.w, self._leaf, self.noise))

    def _no_moves(self, pos: Position, elapsed: float) -> SearchResult:
        score = ab.terminal_score(pos.bb, pos.st, 0)
        return SearchResult(None, float(score), [], 0, 0, int(self.ctl[ab.C_NODES]), elapsed,
                            mate=0 if abs(score) > ab.MATE_BOUND else None,
                            leaf_fen=pos.fen(), leaf_score=float(score if pos.turn else -score),
                            leaf_terminal=True,
                            leaf_features=feature_vector(pos.bb, pos.st, self.weights.layout),
                            leaf_position=pos.copy())

    def _snapshot(self, depth: int, n: int, nodes: int, elapsed: float) -> SearchResult:
        """The result of the iteration just completed, without its leaf."""
        k = int(self.pvlen[0])
        codes = [int(m) for m in self.pv[0, :k]]
        scores = {int(self.moves[0, i]): float(self.root_scores[i]) for i in range(n)}
        score = scores.get(codes[0], max(scores.values()))
        mate = None
        if abs(score) > ab.MATE_BOUND:
            plies = round(ab.MATE - abs(score))
            mate = (plies + 1) // 2 if score > 0 else -((plies + 1) // 2)
        result = SearchResult(
            move=move_to_uci(codes[0]), score=score, pv=[move_to_uci(m) for m in codes],
            depth=depth, seldepth=int(self.ctl[ab.C_SELDEPTH]), nodes=nodes, time=elapsed,
            mate=mate)
        result._codes = codes  # type: ignore[attr-defined]
        return result

    def static_eval(self, pos: Position) -> float:
        """The evaluation the search gives ``pos`` at a node (White's view, pawns, no
        noise): the incremental blocks and the layout's leaf blocks."""
        return float(ab.node_eval(pos.bb, pos.st, evaluate(pos.bb, pos.st, self.w), self.w,
                                  self._leaf))

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
            leaf_score = self.static_eval(leaf)
        result.leaf_fen = leaf.fen()
        result.leaf_score = leaf_score
        result.leaf_terminal = bool(terminal)
        result.leaf_features = feature_vector(leaf.bb, leaf.st, self.weights.layout)
        result.leaf_position = leaf

    @staticmethod
    def _drawn_in_search(leaf: Position) -> bool:
        """Whether the search scored this PV leaf as a draw by rule (50 moves, a
        repetition, insufficient material), exactly as :func:`alphabeta.negamax` does."""
        st, bb = leaf.st, leaf.bb
        keys = np.array([f.key for f in leaf._history] + [leaf.key], dtype=np.uint64)
        if core.rule_draw(st, keys, len(keys) - 1, keys[-1], 0):
            return True
        pieces = int(bb[core.OCC] | bb[core.OCC + 1]).bit_count()
        return pieces <= 6 and bool(core.is_insufficient_material(bb, st))
