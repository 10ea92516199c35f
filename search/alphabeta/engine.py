"""The engine object: iterative deepening over :mod:`search.alphabeta.negamax`, limits, results.

>>> from search import Engine
>>> engine = Engine("atomic", depth=3)
>>> result = engine.search("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
>>> result.move, result.score, result.pv      # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import chess
import numpy as np

from variants import Position, canonical_variant, core, spec
from variants.position import move_to_uci

from ..evaluation.errors import WeightsError
from ..evaluation.layout import feature_layout
from ..evaluation.load import weights_or_default
from ..evaluation.registry import leaf_blocks
from ..evaluation.value_sets import value_set
from ..evaluation.weights import Weights
from ..kernels.classic import evaluate
from ..kernels.dispatch import feature_vector
from . import negamax as ab
from . import shortcuts
from .clock import MoveClock, time_plan
from .collect import Collection
from .modes import SEARCH_MODES
from .results import Limits, SearchResult, drawn_in_search, to_position
from .state import TT_ENTRY, Eval, Line, Memory, Rows

if TYPE_CHECKING:
    from ..solve.pns import ProofSearch

TT_ENTRY_BYTES = TT_ENTRY.itemsize
#: The kinds of search loaded so far in this process: False (the classic search), True
#: (with leaf blocks, which numba compiles apart).
_compiled: set[bool] = set()

#: Aspiration windows at the root (not a numba flag: the root loop is here).
F_ASPIRATION = 1 << 16
#: The margins an evaluation may refit for itself (``tdleaf bench margins --save``), in
#: its ``meta[MARGINS_META]``: fields of :class:`variants.spec.Variant`, in pawns.
MARGINS_META = "search_margins"
MARGIN_FIELDS = ("futility_margin", "razor_margin", "aspiration")


#: Bits of the technique names of :data:`variants.spec.TECHNIQUES`.
TECHNIQUE_BITS: dict[str, int] = {
    "null-move": ab.F_NULL_MOVE, "lmr": ab.F_LMR, "check-ext": ab.F_CHECK_EXT,
    "futility": ab.F_FUTILITY, "reverse-futility": ab.F_REVERSE_FUTILITY,
    "razor": ab.F_RAZOR, "qsee": ab.F_QSEE, "suicide-qbound": ab.F_SUICIDE_QBOUND,
    "see-order": ab.F_SEE_ORDER, "aspiration": F_ASPIRATION, "only-move": ab.F_ONLY_MOVE,
    "forced-ext": ab.F_FORCED_EXT, "forcing-order": ab.F_FORCING_ORDER,
    "keep-offers": ab.F_KEEP_OFFERS}


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
        #: Play the root's only legal move at once on a timed move, its time left on the
        #: clock for the moves to come (:func:`search.alphabeta.shortcuts.forced_move`).
        #: Off until measured at equal time: the move is the same, but its reported score
        #: (a depth-1 search's) feeds a match's resign and draw rules.
        self.forced_at_once = False
        #: Write what the proof searches of a timed move prove (the root's and the proof
        #: check's) into the transposition table, as mates the alpha-beta search then
        #: reads (:func:`search.alphabeta.shortcuts.proof_table`). Off until measured at
        #: equal time.
        self.proofs_to_tt = False
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
        #: The move's clock (:mod:`search.alphabeta.clock`).
        self.clock = MoveClock(self._time_up)
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
        shortcuts.load(self)

    def set_collect(self, nodes: int) -> None:
        """Record up to ``nodes`` interior nodes per search (0: none; see
        :class:`Collected`)."""
        if nodes < 0:
            raise ValueError(f"collect must be >= 0 nodes, got {nodes}")
        self.collect = int(nodes)
        self._allocate_collection()

    def _allocate_collection(self) -> None:
        """The search's ``evals`` array (:class:`~search.alphabeta.collect.Collection`)."""
        leaf = int(self.table[:, 2].sum()) if self.table.size else 0
        self._collection = Collection(self.weights.layout.size, leaf, self.collect)
        self.evals = self._collection.buffers[0]

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
        self.clock.ponderhit()

    def _rearm(self, budget: float) -> None:
        """Ready the search for another run within this move, with ``budget`` seconds
        from now (the re-search after the proof check refutes a move)."""
        self.ctl[ab.C_STOP] = 0
        self._armed = self._stop_requested = self._timed_out = False
        self.clock.restart(budget)

    # -- searching ------------------------------------------------------------------

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
        only a time limit runs the proof-number search first (:func:`search.alphabeta.shortcuts.prove_root`);
        with :attr:`forced_at_once` such a search plays the root's only legal move at once.
        ``info`` is called after every completed iteration, with the first line (its
        ``lines`` hold every line of the iteration). Raises IllegalMoveError for a
        search move that is not legal. ``leaf=False`` skips describing the PV's leaf
        (its FEN and features: what learning needs and play does not).
        """
        self.load_compiled()
        pos = to_position(position, self.variant)
        lim = limits or Limits()
        if depth is not None:
            lim.depth = depth
        if movetime is not None:
            lim.movetime = movetime
        if nodes is not None:
            lim.nodes = nodes
        plan = time_plan(lim, pos)
        check = shortcuts.check_share(self, lim, plan)
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
        self._timed_out = False
        self.clock.arm(lim.ponder, None if ab_plan is None else ab_plan[1])
        try:
            if shortcuts.forced_move(self, pos, lim, plan):
                result, proof_nodes = shortcuts.play_forced(self, pos, lim, start, info), 0
            else:
                result, proof_nodes = shortcuts.search_move(self, pos, lim, (plan, ab_plan, check),
                                                            allowed, start, info)
        finally:
            self.clock.disarm()
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
            result.collected = self._collection.collected()
        return result

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
        ctl[ab.C_COL_K] = self._collection.k
        ctl[ab.C_COL_ROWS] = self.collect
        # The sample's own random numbers: collecting never changes the tie-breaks.
        ctl[ab.C_COL_RNG] = (self.seed * 104729 + self._searches * 7 + 3) % (1 << 62)
        self._searches += 1
        self._collection.done = None

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
                self._collection.complete(ctl)
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
            self.evals = self._collection.start_iteration(self.evals, ctl)
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
        since = self.clock.running_for()
        if plan is not None and since is not None and lim.movetime is None:
            # A best move that keeps changing earns more time, a settled one less; an
            # iteration that would not end before the soft limit is not started (each
            # costs a few times the one before).
            scale = 1.3 if stable == 0 else (0.9 if stable < 3 else 0.6)
            return since > 0.5 * plan[0] * scale
        return False

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
        """The search's arrays as :mod:`search.alphabeta.state` groups them: rows, memory, line,
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
        elif codes and drawn_in_search(leaf):
            terminal, leaf_score = True, 0.0
        else:
            leaf_score = self.static_eval(leaf)
        result.leaf_fen = leaf.fen()
        result.leaf_score = leaf_score
        result.leaf_terminal = bool(terminal)
        result.leaf_features = feature_vector(leaf.bb, leaf.st, self.weights.layout)
        result.leaf_position = leaf
