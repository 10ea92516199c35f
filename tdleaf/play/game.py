"""One game between two players, refereed: the rules of the variant, the clocks, the
players' failures and cutechess-cli's adjudication rules.

The game ends, in this order of checks, when:

* the rules end it: python-chess's ``outcome()``, and the draws a player may claim at
  once (threefold repetition, fifty moves; not in crazyhouse, as python-chess);
* a player fails: an illegal move, no move, a crash, a stall (no answer in time) or
  a resignation lose the game; so does a clock that runs out (time forfeit);
* an engine refuses its opponent's legal move (a rules dispute: Sjeng plays FICS
  suicide): the game ends unscored, ``*``, and matches report it apart;
* adjudication: ``max_plies`` (the game's plies, opening included) reached is a draw;
  a side loses when, for ``resign_moves`` moves in a row each, it has scored itself at
  least ``resign_score`` pawns behind and its opponent has scored itself that much
  ahead (cutechess-cli's two-sided resign); a draw when both players' scores have
  stayed within ``draw_score`` of 0 for ``draw_moves`` moves each in a row, after
  full move ``draw_from``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from variants import Position

from .openings import Opening
from .players import MoveAnswer, MoveLimits, Player, settings_text


@dataclass
class Clock:
    """A time control: ``base`` seconds and ``inc`` seconds a move; a move may overrun
    the clock by ``margin`` seconds before it loses on time."""

    base: float
    inc: float = 0.0
    margin: float = 0.1

    @classmethod
    def parse(cls, text: str, margin: float = 0.1) -> Clock:
        """``60+1`` (seconds + increment), ``60`` or ``1:30+0.5``."""
        base, _, inc = text.partition("+")
        try:
            if ":" in base:
                minutes, seconds = base.split(":")
                total = 60 * float(minutes) + float(seconds)
            else:
                total = float(base)
            increment = float(inc) if inc else 0.0
        except ValueError:
            raise ValueError(f"time control must be BASE[+INC] in seconds, e.g. 60+1; got {text!r}") from None
        if not total > 0 or increment < 0:
            raise ValueError(f"time control needs a base > 0 and an increment >= 0, got {text!r}")
        return cls(total, increment, margin)


@dataclass
class Adjudication:
    """cutechess-cli's rules (``-resign``, ``-draw``, ``-maxmoves``); zero disables one."""

    max_plies: int = 0
    resign_moves: int = 0
    resign_score: float = 10.0
    draw_from: int = 0
    draw_moves: int = 0
    draw_score: float = 0.05

    def validate(self) -> Adjudication:
        """``ValueError`` names a count below 0 (the command line's option)."""
        for key in ("max_plies", "resign_moves", "draw_moves", "draw_from"):
            if getattr(self, key) < 0:
                raise ValueError(f"--{key.replace('_', '-')} must be >= 0, got {getattr(self, key)}")
        return self


class ResignRule:
    """cutechess-cli's two-sided resign, move by move: a side loses once, for ``moves``
    of its own moves in a row, it has scored itself at least ``score`` pawns behind and
    its opponent, for as many of its own, has scored itself that much ahead (scores
    from the mover's view). One place for :func:`play_game` and for replays of recorded
    scores (runs/strength/resign_rule.py)."""

    def __init__(self, moves: int, score: float) -> None:
        self.moves, self.score = moves, score
        self.losing = {chess.WHITE: 0, chess.BLACK: 0}
        self.winning = {chess.WHITE: 0, chess.BLACK: 0}

    def loser(self, mover: chess.Color, score: float | None) -> chess.Color | None:
        """Count the move ``mover`` just made with its own ``score`` (None: a move
        without one, which breaks its streaks); the side that loses by the rule, or
        None (always None with ``moves`` 0: the rule is off)."""
        if score is None:
            self.losing[mover] = self.winning[mover] = 0
            return None
        self.losing[mover] = self.losing[mover] + 1 if score <= -self.score else 0
        self.winning[mover] = self.winning[mover] + 1 if score >= self.score else 0
        if self.moves:
            for side in (mover, not mover):
                if self.losing[side] >= self.moves and self.winning[not side] >= self.moves:
                    return side
        return None


@dataclass
class PlyRecord:
    move: str
    answer: MoveAnswer


@dataclass
class GameResult:
    """A finished game. ``result`` is "1-0", "0-1" or "1/2-1/2"; ``reason`` says why in
    words (cutechess-cli's style); ``termination`` is the PGN tag's value. A disputed
    game's result is "*": it has no score."""

    white: str
    black: str
    opening: Opening
    plies: list[PlyRecord] = field(default_factory=list)
    result: str = "*"
    reason: str = ""
    termination: str = "normal"
    failure: str | None = None        # the losing player's failure, if any
    failed_side: bool | None = None   # chess.WHITE / chess.BLACK
    first_mover: bool = chess.WHITE   # the side that made the first of ``plies``
    white_settings: str = ""          # each player's limits and options (settings_text)
    black_settings: str = ""

    def time_used(self, side: bool) -> tuple[int, float]:
        """(moves, seconds) of ``side``'s moves after the opening, as measured."""
        own = self.plies[0 if side == self.first_mover else 1::2]
        return len(own), sum(p.answer.seconds for p in own)


_RULE_REASONS = {
    chess.Termination.CHECKMATE: "mates",
    chess.Termination.VARIANT_WIN: "wins by the variant's rules",
    chess.Termination.VARIANT_LOSS: "wins by the variant's rules",
}
_DRAW_REASONS = {
    chess.Termination.STALEMATE: "Draw by stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "Draw by insufficient mating material",
    chess.Termination.SEVENTYFIVE_MOVES: "Draw by the 75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "Draw by 5-fold repetition",
    chess.Termination.FIFTY_MOVES: "Draw by the 50-move rule",
    chess.Termination.THREEFOLD_REPETITION: "Draw by 3-fold repetition",
    chess.Termination.VARIANT_DRAW: "Draw by the variant's rules",
}
_FAILURE_TEXT = {
    "illegal move": ("rules infraction", "{side} makes an illegal move"),
    "dispute": ("rules dispute", "{side} refuses its opponent's legal move"),
    "no move": ("rules infraction", "{side} answers without a move"),
    "crash": ("abandoned", "{side} disconnects"),
    "stall": ("abandoned", "{side}'s connection stalls"),
    "resign": ("normal", "{side} resigns"),
    "time forfeit": ("time forfeit", "{side} loses on time"),
}


def _side(color: bool) -> str:
    return "White" if color else "Black"


def rules_outcome(pos: Position) -> chess.Outcome | None:
    """The game's end by the rules as a referee applies them: python-chess's outcome,
    plus threefold repetition and the fifty-move rule as soon as they hold (cutechess)."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome
    if pos.is_repetition(3):
        return chess.Outcome(chess.Termination.THREEFOLD_REPETITION, None)
    if pos.is_fifty_moves():
        return chess.Outcome(chess.Termination.FIFTY_MOVES, None)
    return None


def play_game(white: Player, black: Player, variant: str, opening: Opening, *,
              clock: Clock | None = None, adjudication: Adjudication | None = None,
              seed: int = 0) -> GameResult:
    """Play one game from ``opening``; players' own limits apply to their moves, and the
    clock, if any, to both."""
    adj = adjudication or Adjudication()
    pos = opening.position(variant)
    game = GameResult(white.name, black.name, opening, first_mover=pos.turn,
                      white_settings=settings_text(white.settings),
                      black_settings=settings_text(black.settings))
    for player in (white, black):
        player.new_game(seed)
    times = {chess.WHITE: clock.base, chess.BLACK: clock.base} if clock else None
    # cutechess's resign (two-sided) and draw adjudication: own moves in a row each
    # side has scored itself lost / won, and plies in a row both have scored near 0.
    resign = ResignRule(adj.resign_moves, adj.resign_score)
    draw_streak = 0
    while True:
        outcome = rules_outcome(pos)
        if outcome is not None:
            _finish_by_rules(game, outcome)
            return game
        if adj.max_plies and len(pos.move_stack) >= adj.max_plies:
            _finish(game, "1/2-1/2", "Draw by adjudication: move limit", "adjudication")
            return game
        turn = pos.turn
        player = white if turn else black
        limits = _limits_for(player, times, clock)
        answer = player.play(pos, limits)
        if times is not None and clock is not None and answer.error is None:
            times[turn] -= answer.seconds
            if times[turn] < -clock.margin:
                answer.error, answer.detail = "time forfeit", f"{answer.seconds:.3f} s used"
            else:
                times[turn] = max(times[turn], 0.0) + clock.inc
        if answer.error is None and answer.move is not None:
            try:
                pos.push_uci(answer.move)
            except ValueError as exc:   # an internal player is trusted, but never blindly
                answer.error, answer.detail = "illegal move", str(exc)
        if answer.error is not None:
            if answer.error == "no move" and _claimable_draw(pos):
                # An engine that claims a draw the rules allow (Sjeng claims threefold
                # repetitions one move early) gets it.
                _finish(game, "1/2-1/2", "Draw claimed by " + _side(turn), "normal")
                return game
            _fail(game, turn, answer)
            return game
        assert answer.move is not None
        game.plies.append(PlyRecord(answer.move, answer))
        # Adjudication by the players' own scores (mover's view, pawns).
        loser = resign.loser(turn, answer.score)
        if loser is not None:
            _finish(game, "0-1" if loser else "1-0",
                    f"{_side(not loser)} wins by adjudication", "adjudication")
            return game
        if answer.score is None:
            draw_streak = 0
            continue
        if adj.draw_moves and pos.fullmove_number > adj.draw_from:
            draw_streak = draw_streak + 1 if abs(answer.score) <= adj.draw_score else 0
            if draw_streak >= 2 * adj.draw_moves:
                _finish(game, "1/2-1/2", "Draw by adjudication", "adjudication")
                return game


def _limits_for(player: Player, times: dict[bool, float] | None, clock: Clock | None) -> MoveLimits:
    own = player.limits
    if times is None or clock is None:
        return own
    return MoveLimits(depth=own.depth, nodes=own.nodes, movetime=own.movetime,
                      wtime=max(times[chess.WHITE], 0.001), btime=max(times[chess.BLACK], 0.001),
                      winc=clock.inc, binc=clock.inc)


def _claimable_draw(pos: Position) -> bool:
    outcome = pos.outcome(claim_draw=True)
    return outcome is not None and outcome.winner is None


def _finish(game: GameResult, result: str, reason: str, termination: str) -> None:
    game.result, game.reason, game.termination = result, reason, termination


def _finish_by_rules(game: GameResult, outcome: chess.Outcome) -> None:
    if outcome.winner is None:
        _finish(game, "1/2-1/2", _DRAW_REASONS.get(outcome.termination, "Draw"), "normal")
        return
    verb = _RULE_REASONS.get(outcome.termination, "wins")
    _finish(game, "1-0" if outcome.winner else "0-1", f"{_side(outcome.winner)} {verb}", "normal")


def _fail(game: GameResult, side: bool, answer: MoveAnswer) -> None:
    assert answer.error is not None
    termination, text = _FAILURE_TEXT.get(answer.error, ("abandoned", "{side} fails"))
    reason = text.format(side=_side(side))
    if answer.move and answer.error == "illegal move":
        reason += f": {answer.move}"
    if answer.detail:
        reason += f" ({answer.detail})"
    unscored = answer.error == "dispute"
    _finish(game, "*" if unscored else "0-1" if side else "1-0", reason, termination)
    game.failure, game.failed_side = answer.error, side
