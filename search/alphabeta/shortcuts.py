"""The root's shortcuts around the alpha-beta search of a timed move: the only legal
move played at once (:func:`forced_move`, where asked), the endgame tables' move, the
opening book's, the proof-number search before the search (its share of the move) and
the proof check of the move chosen after it, with the re-search when that move is
proved to lose. They run only on a move with a time limit alone
(:func:`timed_alone`), as Sjeng runs its proof search."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from variants import Position, spec
from variants.position import move_to_uci

from . import negamax as ab
from .clock import MoveClock
from .results import Limits, SearchResult

if TYPE_CHECKING:
    from ..solve.pns import ProofSearch

Plan = tuple[float, float] | None


class Engine(Protocol):
    """What the shortcuts read and call of :class:`search.alphabeta.engine.Engine`."""

    variant: str
    proof_share: float
    proof_check: float
    own_book: bool
    forced_at_once: bool
    proofs_to_tt: bool
    tt: np.ndarray
    clock: MoveClock
    _proof: ProofSearch | None
    _stop_requested: bool

    def _stopped_by_user(self) -> bool: ...

    def _rearm(self, budget: float) -> None: ...

    def _deepen(self, pos: Position, lim: Limits, plan: Plan, allowed: list[int] | None,
                start: float, info: Callable[[SearchResult], None] | None) -> SearchResult: ...

#: The proof search's tree, in nodes (made when first used; its table of proved wins is
#: kept from move to move).
PROOF_NODES = 1 << 19


def timed_alone(lim: Limits, plan: Plan) -> bool:
    """Whether the move has a time limit alone (no depth, node or mate limit, as
    UCI_Elo's; not pondering or infinite; one line): where the proof searches run."""
    return not (plan is None or lim.depth or lim.nodes or lim.ponder or lim.infinite
                or lim.multipv > 1 or lim.mate)


def forced_move(engine: Engine, pos: Position, lim: Limits, plan: Plan) -> bool:
    """Whether the move is played at once (:attr:`Engine.forced_at_once`): the root has
    one legal move and the move a time limit alone (:func:`timed_alone`; no search
    moves). Searching it would only spend the clock: a fixed depth or node count, an
    infinite or pondering search and a front end's search moves are searched as asked."""
    return (engine.forced_at_once and timed_alone(lim, plan) and lim.searchmoves is None
            and len(pos.legal_move_codes()) == 1)


def play_forced(engine: Engine, pos: Position, lim: Limits, start: float,
                info: Callable[[SearchResult], None] | None) -> SearchResult:
    """The root's only legal move, played at once (:attr:`Engine.forced_at_once`): a
    depth-1 search gives its score and a PV (a front end's ponder move), and the time of
    the move stays on the clock, which the time plan spends on the moves to come."""
    return engine._deepen(pos, replace(lim, depth=1), None, None, start, info)


def search_move(engine: Engine, pos: Position, lim: Limits, plans: tuple[Plan, Plan, float],
                allowed: list[int] | None, start: float,
                info: Callable[[SearchResult], None] | None) -> tuple[SearchResult, int]:
    """Every search but a forced move played at once: the root's shortcuts
    (:func:`prove_root`), else the alpha-beta search and, with a proof check, the check
    of its move: (the result, the proof search's nodes). ``plans``: the move's plan, the
    alpha-beta search's, the proof check's share."""
    plan, ab_plan, check = plans
    proved, allowed, proof_nodes = prove_root(engine, pos, lim, plan, allowed, start)
    if proved is not None:              # a proved win (or the tables' or book's move)
        if info is not None:
            info(proved)
        return proved, proof_nodes
    result = engine._deepen(pos, lim, ab_plan, allowed, start, info)
    if plan is not None and check:
        result, checked = check_move(engine, pos, lim, plan, allowed, start, info, result)
        proof_nodes += checked
    return result, proof_nodes


def check_share(engine: Engine, lim: Limits, plan: Plan) -> float:
    """The proof check's share of this move (:attr:`Engine.proof_check`), where
    :func:`timed_alone` says the proof searches run."""
    return engine.proof_check if timed_alone(lim, plan) else 0.0


def proof_search(engine: Engine) -> ProofSearch:
    """The engine's proof-number search, made when first used."""
    if engine._proof is None:
        from ..solve.pns import ProofSearch
        engine._proof = ProofSearch(PROOF_NODES)
    return engine._proof


def proof_table(engine: Engine) -> np.ndarray | None:
    """The transposition table the proof searches write what they prove into, where
    :attr:`Engine.proofs_to_tt` asks for it: the alpha-beta search's own, which then
    reads those wins and losses through its probes."""
    return engine.tt if engine.proofs_to_tt else None


def prove_root(engine: Engine, pos: Position, lim: Limits, plan: Plan,
               allowed: list[int] | None, start: float,
               ) -> tuple[SearchResult | None, list[int] | None, int]:
    """With only a time limit (:func:`timed_alone`): the endgame tables' move where
    they know the position (:func:`table_move`), else the opening book's
    (:func:`book_move`: a proved win, or the moves it proves to lose left out), else
    with :attr:`Engine.proof_share` the proof-number search, for that share of the soft
    budget: a proved win (among ``allowed``) is the result, with its mate distance; the
    root moves it proves to lose leave ``allowed`` (unless every move does), and what it
    proves goes into the table where :func:`proof_table` says. Returns the result (or
    None), the moves alpha-beta searches and the proof search's nodes."""
    if plan is None or not timed_alone(lim, plan):
        return None, allowed, 0
    known = table_move(engine.variant, pos, allowed, start)
    if known is None and engine.own_book:
        known, allowed = book_move(engine.variant, pos, allowed, start)
    if known is not None or not engine.proof_share:
        return known, allowed, 0
    from ..solve.pns import at_root
    found, lost = at_root(proof_search(engine), pos, engine.proof_share * plan[0],
                          stop=lambda: engine._stop_requested, tt=proof_table(engine))
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


def check_move(engine: Engine, pos: Position, lim: Limits, plan: tuple[float, float],
               allowed: list[int] | None, start: float,
               info: Callable[[SearchResult], None] | None,
               result: SearchResult) -> tuple[SearchResult, int]:
    """The proof check of the chosen move: the proof-number search, for the opponent,
    of the position after it, in what is left of the move's time (its share, within
    the hard limit). A move proved to lose is left out and the other moves searched
    again with half of what is left, their choice checked in turn; when every move is
    proved to lose, the one whose loss is longest, scored as the mate it is. Not for a
    mate alpha-beta already sees, either way. What each check proves goes into the
    table where :func:`proof_table` says (the re-search reads it). Returns the move's
    result (the moves proved to lose in its ``refuted``) and the proof search's nodes."""
    from ..solve.pns import PROVED
    engine.clock.cancel()                # alpha-beta is done: its clock is not needed
    deadline = min(time.perf_counter() + engine.proof_check * plan[0], start + plan[1])
    codes = allowed if allowed is not None else [int(m) for m in pos.legal_move_codes()]
    refuted: dict[int, tuple[SearchResult, int]] = {}     # move: its result, plies
    nodes = 0
    while result.mate is None and not engine._stopped_by_user():
        # Its first chunk of expansions runs even with no time left, as alpha-beta's
        # first iteration does: a short proof is always found, however loaded the
        # machine (at most a move's worth of chunks, some milliseconds).
        left = max(0.0, deadline - time.perf_counter())
        move = int(result._codes[0])  # type: ignore[attr-defined]
        after = pos.copy()
        after.push(move)
        found = proof_search(engine).solve(after, seconds=left,
                                           stop=engine._stopped_by_user,
                                           tt=proof_table(engine))
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
        engine._rearm(share)
        result = engine._deepen(pos, lim, (share, share), rest, start, info)
    result.refuted = [move_to_uci(m) for m in refuted]
    return result, nodes


def table_move(variant: str, pos: Position, allowed: list[int] | None,
               start: float) -> SearchResult | None:
    """The endgame tables' move (:mod:`search.solve.endgame`) where the variant has
    them, the position is in one already built (loaded before the first timed move,
    or built earlier in the process: a table is never built on the clock) and every
    move may be played: the quickest win, the slowest loss, or a move that holds the
    draw."""
    if not spec.get(variant).endgame_pieces or allowed is not None:
        return None
    from ..solve.endgame import tables
    p = tables(variant).probe(pos, build=False)
    line = [] if p is None else tables(variant).line(pos)
    if p is None or not line:
        return None
    plies = max(p.plies, 1)
    score = 0.0 if p.result == 0 else p.result * float(ab.MATE - plies)
    mate = None if p.result == 0 else p.result * ((plies + 1) // 2)
    result = SearchResult(line[0], score, line, len(line), len(line), 0,
                          time.perf_counter() - start, mate=mate)
    result._codes = [pos.copy().push_uci(line[0])]  # type: ignore[attr-defined]
    return result


def book_move(variant: str, pos: Position, allowed: list[int] | None, start: float,
              ) -> tuple[SearchResult | None, list[int] | None]:
    """The opening book's answer (:mod:`search.solve.book`): its shortest proved win
    among ``allowed``, scored as the mate it is, or None and ``allowed`` less the moves
    it proves to lose (unless every move does)."""
    from ..solve.book import BookError, shipped_book
    try:
        book = shipped_book(variant)
    except BookError:                   # said once, by Engine.load_compiled
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


def load(engine: Engine) -> None:
    """Load what the shortcuts read before the first timed move: the proof search's
    compiled code, the variant's endgame tables and its book (a bad table or book file
    is said once, as a warning, and played without)."""
    if engine.proof_share or engine.proof_check:
        from ..solve.pns import load as load_pns
        load_pns()
    if spec.get(engine.variant).endgame_pieces:
        from ..solve.endgame import TableError, tables
        try:
            tables(engine.variant).load()
        except TableError as exc:           # a bad cache file: play without it
            warnings.warn(str(exc), stacklevel=3)
    if engine.own_book:
        from ..solve.book import BookError, shipped_book
        try:
            shipped_book(engine.variant)
        except BookError as exc:            # a bad per-user copy: play without it
            warnings.warn(str(exc), stacklevel=3)
            engine.own_book = False
