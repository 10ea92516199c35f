"""A match between two players: openings played with both colours, games in parallel,
one PGN, live statistics, an optional SPRT stop, and resumption from the PGN.

Game ``i`` (0-based) plays opening ``i // 2``; player A has White in even games, so
games ``2k`` and ``2k + 1`` are a pair with colours reversed (fishtest's pentanomial
statistics count such pairs). Games run where the configuration's backend says
(:mod:`tdleaf.backend`: this process, local workers or Ray); each worker keeps its own
two players for the whole match (for a series of matches, a :class:`MatchPool`'s keep
them from match to match), and this process writes the PGN as games come in. A
game's seed is its index, so at a fixed depth or node count a game of tdleaf's own
players does not depend on the backend or the number of workers (an external engine
that keeps its hash from game to game may).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from variants import canonical_variant
from variants.errors import TdleafError

from ..backend import Backend, BackendError, Pool, Take
from . import stats
from .game import Adjudication, Clock, GameResult, play_game
from .openings import Opening, random_openings, read_openings
from .pgn import StoredGame, append_game, game_text, read_games
from .players import Player, PlayerError, make_player, settings_text


class MatchError(TdleafError, ValueError):
    """A match that cannot be played as asked."""


@dataclass
class PlayerConfig:
    """A player as the user named it, and its settings."""

    spec: str
    settings: dict[str, Any] = field(default_factory=dict)

    def make(self) -> Player:
        return make_player(self.spec, self.settings)


@dataclass
class MatchConfig:
    """Everything that decides the games of a match."""

    variant: str
    a: PlayerConfig
    b: PlayerConfig
    games: int = 100
    random_plies: int = 8
    openings_file: str | None = None
    seed: int = 0
    tc: str | None = None              # "60+1": a clock for both players
    time_margin: float = 0.1           # seconds a move may overrun the clock
    adjudication: Adjudication = field(default_factory=Adjudication)
    backend: Backend = field(default_factory=Backend)     # where the games run
    sprt: stats.Sprt | None = None
    pgn: str | None = None
    event: str = "tdleaf match"

    def validate(self) -> MatchConfig:
        try:
            self.variant = canonical_variant(self.variant)
        except ValueError as exc:
            raise MatchError(str(exc)) from None
        if self.games < 1:
            raise MatchError(f"--games must be >= 1, got {self.games}")
        if self.random_plies < 0:
            raise MatchError(f"--random-plies must be >= 0, got {self.random_plies}")
        try:
            self.backend.validate()
        except BackendError as exc:
            raise MatchError(str(exc)) from None
        try:
            self.adjudication.validate()
        except ValueError as exc:
            raise MatchError(str(exc)) from None
        if self.tc is not None:
            try:
                Clock.parse(self.tc, self.time_margin)
            except ValueError as exc:
                raise MatchError(str(exc)) from None
        return self

    @property
    def timed(self) -> bool:
        """Whether both players are limited by time alone: a clock, or a move time each
        without a depth or node limit."""
        if self.tc:
            return True
        return all(p.settings.get("movetime") and not p.settings.get("depth")
                   and not p.settings.get("nodes") for p in (self.a, self.b))

    @property
    def clock(self) -> Clock | None:
        return Clock.parse(self.tc, self.time_margin) if self.tc else None

    def openings(self) -> list[Opening]:
        """One opening per game pair."""
        pairs = (self.games + 1) // 2
        if self.openings_file:
            try:
                book = read_openings(self.openings_file, self.variant)
            except ValueError as exc:
                raise MatchError(str(exc)) from None
            return [book[k % len(book)] for k in range(pairs)]
        return random_openings(self.variant, pairs, self.random_plies, self.seed)


@dataclass
class GameOutcome:
    """One finished game as the statistics see it (A's point of view)."""

    index: int
    a_white: bool
    result: str
    failure: str | None = None
    failed_a: bool | None = None     # whether A was the side that failed
    plies: int = 0
    a_time: tuple[int, float] = (0, 0.0)     # A's (moves, seconds) after the opening
    b_time: tuple[int, float] = (0, 0.0)

    @property
    def disputed(self) -> bool:
        """A rules dispute (an engine refused a legal move): the game has no score."""
        return self.result == "*"

    @property
    def a_score(self) -> float:
        if self.disputed:
            raise ValueError(f"game {self.index + 1} was disputed: it has no score")
        white = {"1-0": 1.0, "0-1": 0.0}.get(self.result, 0.5)
        return white if self.a_white else 1.0 - white


@dataclass
class Summary:
    """The statistics of a match so far, from A's point of view. Disputed games (an
    engine refused a legal move, see :mod:`.game`) are among ``outcomes`` but not in
    the score: not in the games counted, nor in the pairs."""

    a: str
    b: str
    variant: str
    outcomes: list[GameOutcome] = field(default_factory=list)
    sprt: stats.Sprt | None = None
    #: The SPRT's decision and the games played when it was reached: games still being
    #: played then finish and count, and may move the LLR back inside the bounds.
    decision: str | None = None
    decided_at: int | None = None
    #: Whether both players are limited by time (a clock, or a move time each and no
    #: depth or nodes): then their times per move should agree.
    timed: bool = False
    #: What each player played with: its limits and, for an engine, its options
    #: (:func:`~tdleaf.play.players.settings_text`), as the PGN headers record them.
    a_settings: str = ""
    b_settings: str = ""

    def record(self, outcome: GameOutcome) -> bool:
        """Add a finished game; True when this game made the SPRT decide."""
        self.outcomes.append(outcome)
        return self.check_sprt()

    def check_sprt(self) -> bool:
        if self.sprt is None or self.decision is not None:
            return False
        llr = self.llr()
        decision = self.sprt.decision(llr) if llr is not None else None
        if decision is None:
            return False
        self.decision, self.decided_at = decision, self.games
        return True

    @property
    def scored(self) -> list[GameOutcome]:
        """The games that count: all but the disputed."""
        return [o for o in self.outcomes if not o.disputed]

    @property
    def disputes(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.disputed]

    @property
    def wins(self) -> int:
        return sum(1 for o in self.scored if o.a_score == 1.0)

    @property
    def losses(self) -> int:
        return sum(1 for o in self.scored if o.a_score == 0.0)

    @property
    def draws(self) -> int:
        return sum(1 for o in self.scored if o.a_score == 0.5)

    @property
    def games(self) -> int:
        """The games scored (disputed games left out)."""
        return len(self.scored)

    def pentanomial(self) -> list[int]:
        """Counts of complete pairs scoring 0, 1/2, 1, 3/2, 2 points for A (a pair with
        a disputed game is not complete)."""
        by_pair: dict[int, list[float]] = {}
        for o in self.scored:
            by_pair.setdefault(o.index // 2, []).append(o.a_score)
        counts = [0] * 5
        for scores in by_pair.values():
            if len(scores) == 2:
                counts[round(2 * sum(scores))] += 1
        return counts

    def time_per_move(self) -> tuple[float | None, float | None]:
        """A's and B's mean seconds per move (as measured around each answer), or None
        before a side has moved."""
        out = []
        for key in ("a_time", "b_time"):
            moves = sum(getattr(o, key)[0] for o in self.outcomes)
            seconds = sum(getattr(o, key)[1] for o in self.outcomes)
            out.append(seconds / moves if moves else None)
        return out[0], out[1]

    def moves(self) -> tuple[int, int]:
        """Moves A and B have made after the openings."""
        return (sum(o.a_time[0] for o in self.outcomes), sum(o.b_time[0] for o in self.outcomes))

    def time_warning(self) -> str | None:
        """In a timed match, a warning when one side took more than 25% longer a move
        than the other (an engine that misreads its limit: the match is not fair)."""
        a, b = self.time_per_move()
        if not self.timed or a is None or b is None or max(a, b) <= TIME_TOLERANCE * min(a, b):
            return None
        slow, fast = ((self.a, a), (self.b, b)) if a > b else ((self.b, b), (self.a, a))
        return (f"{slow[0]} took {slow[1]:.3g} s a move and {fast[0]} {fast[1]:.3g} s: the "
                f"players did not get the same time")

    def pentanomial_estimate(self) -> tuple[stats.EloEstimate | None, str]:
        """The Elo of the game pairs with its interval, or None and why there is none:
        fewer than two pairs, or pairs that all scored the same (no variance)."""
        pairs = self.pentanomial()
        n = sum(pairs)
        if n < 2:
            return None, f"n/a ({n} pair{'s' if n != 1 else ''})"
        est = stats.elo_pentanomial(pairs)
        if est.stderr == 0:
            return None, f"n/a (every pair scored {2 * est.score:g} of 2 points)"
        return est, ""

    def failures(self, kind: str, of_a: bool | None = None) -> int:
        return sum(1 for o in self.outcomes
                   if o.failure == kind and (of_a is None or o.failed_a == of_a))

    def llr(self) -> float | None:
        if self.sprt is None:
            return None
        pairs = self.pentanomial()
        return self.sprt.llr(pairs) if sum(pairs) else 0.0

    def to_json(self) -> dict[str, Any]:
        w, lost, d = self.wins, self.losses, self.draws
        tri = stats.elo_trinomial(w, lost, d)
        pairs = self.pentanomial()
        penta, why = self.pentanomial_estimate()
        a_time, b_time = self.time_per_move()
        a_moves, b_moves = self.moves()
        warning = self.time_warning()
        out: dict[str, Any] = {
            "a": self.a, "b": self.b, "variant": self.variant,
            "settings": {"a": self.a_settings, "b": self.b_settings},
            "games": self.games, "wins": w, "losses": lost, "draws": d,
            "score": tri.score if self.games else None,
            "elo": _finite(tri.elo),
            # No interval from results without variance (every game drawn, won or lost).
            "elo_ci": [_finite(tri.low), _finite(tri.high)] if tri.stderr else [None, None],
            "elo_pentanomial": _finite(penta.elo) if penta else None,
            "elo_pentanomial_ci": [_finite(penta.low), _finite(penta.high)] if penta else None,
            "elo_pentanomial_note": why or None,
            "los": stats.los(w, lost), "sign_test_p": stats.sign_test_p(w, lost),
            "pentanomial": pairs,
            "time_per_move": {"a": a_time, "b": b_time},
            "moves": {"a": a_moves, "b": b_moves},
            "timed": self.timed,
            "warnings": [warning] if warning else [],
            "illegal_moves": self.failures("illegal move"),
            "crashes": self.failures("crash"), "timeouts": self.failures("time forfeit"),
            "stalls": self.failures("stall"), "no_moves": self.failures("no move"),
            "failures_of_a": {k: self.failures(k, True) for k in _FAILURES},
            "failures_of_b": {k: self.failures(k, False) for k in _FAILURES},
            # Left out of every number above but the times (their moves were played).
            "disputes": [{"game": o.index + 1, "refused_by": self.a if o.failed_a else self.b}
                         for o in self.disputes],
        }
        if self.sprt is not None:
            llr = self.llr()
            out["sprt"] = {"elo0": self.sprt.elo0, "elo1": self.sprt.elo1,
                           "alpha": self.sprt.alpha, "beta": self.sprt.beta,
                           "llr": llr, "lower": self.sprt.lower, "upper": self.sprt.upper,
                           "decision": self.decision, "decided_at_games": self.decided_at}
        return out

    def progress_line(self) -> str:
        w, lost, d = self.wins, self.losses, self.draws
        disputed = len(self.disputes)
        if not self.games:
            return f"{disputed} disputed, none scored" if disputed else "no games yet"
        est = stats.elo_trinomial(w, lost, d)
        text = f"+{w} -{lost} ={d} score {est.score:.3f} Elo {_fmt_elo(est.elo)} +- {_fmt_margin(est)}"
        if disputed:
            text += f" ({disputed} disputed)"
        llr = self.llr()
        if llr is not None:
            text += f" LLR {llr:.2f} [{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]"  # type: ignore[union-attr]
        return text

    def report(self) -> str:
        """The human-readable summary (cutechess-cli's lines, plus the report's test)."""
        j = self.to_json()
        n = self.games
        disputed = len(j["disputes"])
        lines = [f"{self.a} vs {self.b} ({self.variant}): {n} game{'s' if n != 1 else ''}"
                 + (f" scored, {disputed} disputed" if disputed else "")]
        if self.a_settings or self.b_settings:
            lines.append(f"Settings: {self.a}: {self.a_settings or '-'}; "
                         f"{self.b}: {self.b_settings or '-'}")
        if not n:
            return "\n".join(lines + self._dispute_lines(j))
        lines.append(f"Score of {self.a} vs {self.b}: {j['wins']} - {j['losses']} - {j['draws']} "
                     f"[{j['score']:.3f}] {n}")
        tri = stats.elo_trinomial(j["wins"], j["losses"], j["draws"])
        lines.append(f"Elo difference: {_fmt_estimate(tri)}, "
                     f"LOS: {100 * j['los']:.1f} %, DrawRatio: {100 * j['draws'] / n:.1f} %")
        npairs = sum(j["pentanomial"])
        if npairs:
            p, why = self.pentanomial_estimate()
            lines.append(f"Pentanomial [0-2]: {j['pentanomial']} over {npairs} "
                         f"pair{'s' if npairs != 1 else ''}: Elo "
                         f"{_fmt_estimate(p) if p is not None else why}")
        lines.append(f"Sign test (wins against losses, two-sided): p = {j['sign_test_p']:.3g}")
        if "sprt" in j:
            s = j["sprt"]
            # The test weighs elo0 against elo1: its verdict says which is the likelier,
            # not that the true Elo lies beyond it (the interval above says where it lies).
            verdict = {"H1": f"H1 accepted (elo1 = {s['elo1']:g} rather than {s['elo0']:g})",
                       "H0": f"H0 accepted (elo0 = {s['elo0']:g} rather than {s['elo1']:g})"
                       }.get(s["decision"], "no decision")
            if s["decided_at_games"] is not None and s["decided_at_games"] != n:
                verdict += f" at game {s['decided_at_games']}"
            lines.append(f"SPRT ({s['elo0']:g}, {s['elo1']:g}; alpha {s['alpha']:g}, beta "
                         f"{s['beta']:g}): LLR {s['llr']:.2f} [{s['lower']:.2f}, {s['upper']:.2f}], "
                         f"{verdict}")
        bad = [f"{k}: {v}" for k, v in (("illegal moves", j["illegal_moves"]),
                                        ("crashes", j["crashes"]), ("stalls", j["stalls"]),
                                        ("time forfeits", j["timeouts"]),
                                        ("no move", j["no_moves"])) if v]
        if bad:
            lines.append("Failures: " + ", ".join(bad))
        lines += self._dispute_lines(j)
        (a_time, b_time), (a_moves, b_moves) = self.time_per_move(), self.moves()
        lines.append(f"Time per move: {self.a} {_fmt_seconds(a_time)} ({a_moves} moves), "
                     f"{self.b} {_fmt_seconds(b_time)} ({b_moves} moves)")
        lines += [f"Warning: {w}" for w in j["warnings"]]
        return "\n".join(lines)


    @staticmethod
    def _dispute_lines(j: dict[str, Any]) -> list[str]:
        by: dict[str, list[str]] = {}
        for d in j["disputes"]:
            by.setdefault(d["refused_by"], []).append(str(d["game"]))
        if not by:
            return []
        return [f"Rules disputes, left out of the score: {len(j['disputes'])} ("
                + "; ".join(f"{who} refused a legal move in game{'s' * (len(g) > 1)} "
                            f"{', '.join(g)}" for who, g in by.items()) + ")"]


_FAILURES = ("illegal move", "dispute", "no move", "crash", "stall", "time forfeit", "resign")
#: How much longer a move one side of a timed match may take than the other's, on
#: average, before the summary warns (1.25: 25% longer).
TIME_TOLERANCE = 1.25


def _fmt_seconds(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f} s"


def _finite(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else x


def _fmt_elo(x: float) -> str:
    if x == float("inf"):
        return "+inf"
    if x == float("-inf"):
        return "-inf"
    return f"{x + 0.0:+.1f}"      # + 0.0: no "-0.0"


def _fmt_estimate(est: stats.EloEstimate) -> str:
    """``+52.5 +- 140.6 (95%: -79.1 to +202.1)``; no interval when every game went one way."""
    if est.score in (0.0, 1.0):
        return f"{_fmt_elo(est.elo)} (every game {'won' if est.score else 'lost'}: no interval)"
    if est.stderr == 0:
        return f"{_fmt_elo(est.elo)} (every game drawn: no interval)"
    return (f"{_fmt_elo(est.elo)} +- {_fmt_margin(est)} "
            f"(95%: {_fmt_elo(est.low)} to {_fmt_elo(est.high)})")


def _fmt_margin(est: stats.EloEstimate) -> str:
    m = est.margin
    return "inf" if math.isnan(m) or m == float("inf") else f"{m:.1f}"


# -- running games ---------------------------------------------------------------------------

class _Side:
    """The two players of one process, started once and kept from game to game."""

    def __init__(self, cfg: MatchConfig) -> None:
        self.variant = cfg.variant
        self.configs = (cfg.a, cfg.b)
        self.a = cfg.a.make()
        self.b = cfg.b.make()
        try:
            for p in (self.a, self.b):
                p.start(cfg.variant)
        except BaseException:
            self.close()      # a half-started engine too: no process may outlive a failure
            raise
        self._name_apart()

    def _name_apart(self) -> None:
        """Namesakes told apart: `` (A)`` and `` (B)`` after their own names."""
        self.names = (self.a.name, self.b.name)
        if self.a.name == self.b.name:
            self.a.name += " (A)"
            self.b.name += " (B)"

    def retune(self, cfg: MatchConfig) -> bool:
        """Play ``cfg``'s players from now on, as retuned ones where a player allows it
        (:meth:`Player.retune`) and as fresh ones where not; False (nothing changed) for
        another variant or another player."""
        if cfg.variant != self.variant or any(
                now.spec != was.spec for now, was in zip((cfg.a, cfg.b), self.configs)):
            return False
        players: list[Player] = [self.a, self.b]
        for k, (now, was) in enumerate(zip((cfg.a, cfg.b), self.configs)):
            if now == was:
                players[k].name = self.names[k]
            elif not players[k].retune(now.settings):
                fresh = now.make()
                fresh.start(cfg.variant)
                players[k].close()
                players[k] = fresh
        self.a, self.b = players
        self.configs = (cfg.a, cfg.b)
        self._name_apart()
        return True

    def close(self) -> None:
        for p in (self.a, self.b):
            p.close()


class _Seat:
    """Where a worker keeps its :class:`_Side` from one match to the next: set for each
    match's players as its games come, started only where a player cannot be retuned."""

    def __init__(self) -> None:
        self.side: _Side | None = None

    def ready(self, cfg: MatchConfig) -> _Side:
        try:
            if self.side is not None and not self.side.retune(cfg):
                self.close()
            if self.side is None:
                self.side = _Side(cfg)
        except BaseException:
            self.close()          # half retuned: start afresh next time
            raise
        return self.side

    def close(self) -> None:
        side, self.side = self.side, None
        if side is not None:
            side.close()


@dataclass
class _Game:
    """A backend unit: game ``index`` of the match ``cfg``, from ``opening``."""

    cfg: MatchConfig
    opening: Opening
    index: int


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a match seeded ``match_seed``."""
    return match_seed * 1_000_003 + index


def _play(side: _Side, game: _Game) -> tuple[GameResult, str]:
    cfg, index = game.cfg, game.index
    a_white = index % 2 == 0
    white, black = (side.a, side.b) if a_white else (side.b, side.a)
    result = play_game(white, black, cfg.variant, game.opening, clock=cfg.clock,
                       adjudication=cfg.adjudication, seed=game_seed(cfg.seed, index))
    text = game_text(result, cfg.variant, index + 1, event=cfg.event, time_control=cfg.tc or "-")
    return result, text


def _outcome(index: int, game: GameResult) -> GameOutcome:
    a_white = index % 2 == 0
    failed_a = None if game.failed_side is None else bool(game.failed_side == a_white)
    a_time, b_time = game.time_used(a_white), game.time_used(not a_white)
    return GameOutcome(index, a_white, game.result, game.failure, failed_a,
                       len(game.opening.moves) + len(game.plies), a_time, b_time)


def stored_outcome(g: StoredGame) -> GameOutcome:
    """A game of the match's PGN file as the statistics count it (A's point of view)."""
    index = g.round - 1
    a_white = index % 2 == 0
    failed_a = None
    if g.failure == "dispute":      # unscored: the side that refused the move was to move
        failed_a = g.white_to_move == a_white
    elif g.failure:
        loser_white = g.result == "0-1"
        failed_a = loser_white == a_white
    a_time, b_time = (g.white_time, g.black_time) if a_white else (g.black_time, g.white_time)
    return GameOutcome(index, a_white, g.result, g.failure, failed_a, g.plies, a_time, b_time)


@dataclass
class MatchGames:
    """The backend's job (:mod:`tdleaf.backend`): a worker's two players, kept in a
    :class:`_Seat`, started for ``first`` (a match's config) when the worker starts, so
    that an engine missing on a worker's node fails its start, which names the node; one
    game per unit (a :class:`_Game`), one item per game: ``(outcome, PGN text)``.
    ``seat``: the calling process's own, for a pool that plays there (never sent to a
    worker)."""

    first: MatchConfig
    seat: _Seat | None = None

    def start(self) -> _Seat:
        seat = self.seat or _Seat()
        seat.ready(self.first)
        return seat

    def run(self, seat: _Seat, game: _Game) -> Iterator[tuple[GameOutcome, str]]:
        result, text = _play(seat.ready(game.cfg), game)
        yield _outcome(game.index, result), text

    def close(self, seat: _Seat) -> None:
        seat.close()


class MatchPool:
    """Players kept from match to match, for a series of matches between the same
    players at other settings (a ladder's batches: tdleaf at one rung against the
    engine at the setting its games so far call for). Each worker of ``backend``
    starts its players once and retunes them for each match (an engine's options set
    anew, between games), instead of starting them for every match; this process keeps
    one pair too, to check each match's players before its games. Pass it to
    :func:`run_match`; its backend, not the match's, says where the games run."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.seat = _Seat()
        self.here = backend.in_process
        self._pool: Pool | None = None

    def run(self, cfg: MatchConfig, games: list[_Game], take: Take,
            again: Callable[[_Game], _Game | None]) -> None:
        """Play ``games`` of the match ``cfg`` on the pool's workers."""
        if self._pool is None:
            # The workers start with this match's players; played here, the games use
            # the checking pair: one engine, not two.
            self._pool = Pool(self.backend, MatchGames(cfg, self.seat if self.here else None))
        self._pool.run(games, take, again=again)

    def close(self, graceful: bool = True) -> None:
        if self._pool is not None:
            self._pool.close(graceful)
        self.seat.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.close(graceful=kind is None)


Progress = Callable[[Summary, GameOutcome | None], None]


def _counted(games: list[StoredGame], n: int) -> list[GameOutcome]:
    """What a match of ``n`` games counts of its stored games: the first of each round."""
    seen: set[int] = set()
    out = []
    for g in games:
        if g.round - 1 < n and g.round - 1 not in seen:
            seen.add(g.round - 1)
            out.append(stored_outcome(g))
    return out


def stored_summary(cfg: MatchConfig) -> Summary | None:
    """The summary of the games already in ``cfg.pgn`` (up to ``cfg.games``), without
    starting the players (their names as the PGN gives them); None if it holds none."""
    games = read_games(Path(cfg.pgn)) if cfg.pgn else []
    if not games:
        return None
    g = games[0]
    a_white = (g.round - 1) % 2 == 0
    a, b = (g.white, g.black) if a_white else (g.black, g.white)
    a_set, b_set = ((g.white_settings, g.black_settings) if a_white
                    else (g.black_settings, g.white_settings))
    summary = Summary(a, b, cfg.variant, _counted(games, cfg.games), sprt=cfg.sprt,
                      timed=cfg.timed, a_settings=a_set, b_settings=b_set)
    summary.check_sprt()
    return summary


def run_match(cfg: MatchConfig, *, resume: bool = False, progress: Progress | None = None,
              pool: MatchPool | None = None) -> Summary:
    """Play the match (to ``cfg.games`` games in all, counting those already in the PGN
    when resuming) and return its summary. Players are started here first (or retuned,
    from ``pool``), so that a bad spec, weights file or engine fails before any game.
    With ``pool`` (a series of matches), its workers play the games and keep their
    players for the next match."""
    cfg.validate()
    if pool is not None:
        return _run_match(cfg, resume, progress, pool)
    with MatchPool(cfg.backend) as own:
        return _run_match(cfg, resume, progress, own, close_seat=not own.here)


def _run_match(cfg: MatchConfig, resume: bool, progress: Progress | None, pool: MatchPool,
               close_seat: bool = False) -> Summary:
    pgn = Path(cfg.pgn) if cfg.pgn else None
    try:
        openings = cfg.openings()
    except ValueError as exc:
        raise MatchError(str(exc)) from None
    try:
        side = pool.seat.ready(cfg)
    except PlayerError as exc:
        raise MatchError(str(exc)) from None
    summary = Summary(side.a.name, side.b.name, cfg.variant, sprt=cfg.sprt, timed=cfg.timed,
                      a_settings=settings_text(side.a.settings),
                      b_settings=settings_text(side.b.settings))
    if pgn is not None:
        if resume:
            _check_stored(pgn, cfg, summary, (side.a.name, side.b.name))
        elif pgn.exists() and pgn.stat().st_size > 0:
            raise MatchError(f"{pgn} already holds games: use --resume to carry on, or "
                             f"another --pgn file")
    done = {o.index for o in summary.outcomes}
    todo = [i for i in range(cfg.games) if i not in done]
    if progress:
        progress(summary, None)

    if summary.check_sprt():          # a resumed match that had already decided
        todo = []
    if close_seat:
        pool.seat.close()      # the backend's workers start their own

    recorded: set[int] = set()

    def take(game: _Game, item: tuple[GameOutcome, str]) -> bool:
        """Record a game; True when the SPRT has decided (the games being played finish
        and count, no new one starts)."""
        outcome, text = item
        recorded.add(game.index)
        if pgn is not None:
            append_game(pgn, text)
        decided = summary.record(outcome)
        if progress:
            progress(summary, outcome)
        return decided

    try:
        # A worker lost after its game came back (before it said so) plays nothing again.
        pool.run(cfg, [_Game(cfg, openings[i // 2], i) for i in todo], take,
                 again=lambda g: None if g.index in recorded else g)
    except BackendError as exc:
        raise MatchError(str(exc)) from None
    return summary


def _check_stored(pgn: Path, cfg: MatchConfig, summary: Summary, names: tuple[str, str]) -> None:
    """Count the games of ``pgn`` into ``summary``, after checking that they are this
    match's: the same players with the same settings."""
    games = read_games(pgn, repair=True)
    for g in games:
        a_white = (g.round - 1) % 2 == 0
        expected = names if a_white else names[::-1]
        if (g.white, g.black) != expected:
            raise MatchError(f"{pgn}: game {g.round} is {g.white} vs {g.black}, not "
                             f"{expected[0]} vs {expected[1]}; not the same match")
        mine = ((summary.a_settings, summary.b_settings) if a_white
                else (summary.b_settings, summary.a_settings))
        for who, stored, now in ((g.white, g.white_settings, mine[0]),
                                 (g.black, g.black_settings, mine[1])):
            if stored and stored != now:     # games written before the tags: none
                raise MatchError(f"{pgn}: game {g.round}'s {who} played with {stored}, "
                                 f"not {now or 'nothing set'}; not the same match")
    summary.outcomes.extend(_counted(games, cfg.games))
