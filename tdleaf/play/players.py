"""Players of a match: the tdleaf engine in this process, or an external engine over UCI
or XBoard (python-chess's ``chess.engine``), behind one interface.

A player spec is what a user types on the command line:

* ``traditional``, ``sunsetter``, ``sjeng``, ``losers``, ``ones``, the shipped reference
  sets ``learnt``, ``learnt-material``, ``learnt-psq``, ``avg-psq``, or ``default``: the
  tdleaf engine with that value set;
* a ``weights.json`` path or a ``tdleaf learn`` result folder: the tdleaf engine with
  those weights;
* ``uci:COMMAND`` or ``xboard:COMMAND``: an external engine started with COMMAND
  (split like a shell would), e.g. ``uci:fairy-stockfish``, ``xboard:sjeng`` or
  ``uci:fairy-stockfish-wasm``; :mod:`tdleaf.play.engines` finds it and knows its quirks.

Settings (``depth``, ``nodes``, ``movetime``, ``hash``, ``name``, ...) come as a dict, one
per player; for an external engine any other key is passed on as an engine option.

Every move of an external engine is checked against the rules (python-chess's, through
``chess.engine``); an illegal move, no move, a crash or a stall comes back as a
:class:`MoveAnswer` with an ``error``, never as an exception, so a match goes on.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.engine

from search import Engine, Limits, WeightsError
from search.alphabeta.modes import SEARCH_MODES
from search.layout import REFERENCE_SETS, VALUE_SETS
from variants import Position, board_class
from variants.errors import TdleafError

from . import engines

#: Names of weight sets a player spec may be (besides files and folders).
NAMED_SETS = VALUE_SETS + REFERENCE_SETS + ("default",)
#: Settings an internal player understands (anything else is a mistake).
INTERNAL_SETTINGS = ("depth", "nodes", "movetime", "hash", "qlimit", "name", "search",
                     "flags", "playouts", "prior", "q_init", "random_ties", "net", "proof",
                     "proof_check", "book", "forced_at_once", "proofs_to_tt", "u_min_divisor",
                     "check_factor", "win_check")
#: How a tdleaf player searches: the alpha-beta modes, or MCTS over the heuristic prior.
PLAYER_SEARCHES = SEARCH_MODES + ("mcts",)
#: What may lead a tdleaf MCTS player without a network (its ``prior`` setting).
MCTS_PRIORS = ("heuristic", "uniform", "none")
#: Settings of an external player that are not engine options.
EXTERNAL_SETTINGS = ("depth", "nodes", "movetime", "name", "timeout")
#: Seconds an external engine may take beyond its limit before it counts as stalled.
DEFAULT_STALL_SECONDS = 60.0


class PlayerError(TdleafError, ValueError):
    """A player spec or setting that cannot be used."""


@dataclass
class MoveLimits:
    """What a player is asked to do for one move: fixed limits, and/or a clock."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None          # seconds
    wtime: float | None = None             # seconds on the clocks, with increments
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0


@dataclass
class MoveAnswer:
    """A player's answer. ``score`` is in pawns from the mover's point of view."""

    move: str | None
    seconds: float
    score: float | None = None
    mate: int | None = None
    depth: int | None = None
    nodes: int | None = None
    error: str | None = None     # "illegal move", "dispute", "no move", "crash", "stall", "resign"
    detail: str = ""


def settings_text(settings: dict[str, Any]) -> str:
    """A player's settings as the PGN headers and summaries record them:
    ``movetime=0.1 UCI_LimitStrength=true UCI_Elo=2200 Threads=1``."""
    def text(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v)
    return " ".join(f"{k}={text(v)}" for k, v in settings.items())


class Player:
    """The interface :mod:`tdleaf.play.game` drives."""

    name: str = "player"
    limits: MoveLimits

    @property
    def settings(self) -> dict[str, Any]:
        """What it plays with, as given: its limits and options (not its name)."""
        return {}

    def start(self, variant: str) -> None:
        """Get ready to play ``variant`` (start a process, load weights)."""

    def new_game(self, seed: int) -> None:
        """Forget the previous game."""

    def retune(self, settings: dict[str, Any]) -> bool:
        """Play with ``settings`` from the next game on, without starting again; False
        where that cannot be done (then a fresh player must be started)."""
        return False

    def play(self, pos: Position, limits: MoveLimits) -> MoveAnswer:
        raise NotImplementedError

    def close(self) -> None:
        """Release what :meth:`start` took."""

    @property
    def description(self) -> str:
        return self.name


def _int_setting(settings: dict[str, Any], key: str) -> int | None:
    if settings.get(key) is None:
        return None
    try:
        value = int(settings[key])
    except (TypeError, ValueError):
        raise PlayerError(f"{key} must be an integer, got {settings[key]!r}") from None
    if value < 1:
        raise PlayerError(f"{key} must be >= 1, got {value}")
    return value


def _float_setting(settings: dict[str, Any], key: str) -> float | None:
    if settings.get(key) is None:
        return None
    try:
        value = float(settings[key])
    except (TypeError, ValueError):
        raise PlayerError(f"{key} must be a number, got {settings[key]!r}") from None
    if not value > 0:
        raise PlayerError(f"{key} must be > 0, got {value}")
    return value


def _share_setting(settings: dict[str, Any], key: str,
                   what: str = "a share of the move's time") -> float | None:
    if settings.get(key) is None:
        return None
    try:
        value = float(settings[key])
    except (TypeError, ValueError):
        value = -1.0
    if not 0 <= value < 1:
        raise PlayerError(f"{key} is {what}, in [0, 1): got {settings[key]!r}")
    return value


def _bool_setting(settings: dict[str, Any], key: str) -> bool:
    value = settings.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise PlayerError(f"{key} must be 1 or 0 (true or false), got {value!r}")


def _limits(settings: dict[str, Any]) -> MoveLimits:
    return MoveLimits(depth=_int_setting(settings, "depth"), nodes=_int_setting(settings, "nodes"),
                      movetime=_float_setting(settings, "movetime"))


class InternalPlayer(Player):
    """The tdleaf engine, searched in this process."""

    def __init__(self, spec: str, settings: dict[str, Any] | None = None) -> None:
        settings = dict(settings or {})
        unknown = sorted(set(settings) - set(INTERNAL_SETTINGS))
        if unknown:
            raise PlayerError(f"{spec}: unknown setting(s) {', '.join(unknown)} for a tdleaf "
                              f"player (settings: {', '.join(INTERNAL_SETTINGS)})")
        self.spec = spec
        self._settings = {k: v for k, v in settings.items() if k != "name"}
        self.limits = _limits(settings)
        self.hash_mb = _int_setting(settings, "hash") or 16
        qlimit = settings.get("qlimit")
        self.qlimit = 16 if qlimit is None else int(qlimit)
        self.search = str(settings.get("search") or "selective")
        if self.search not in PLAYER_SEARCHES:
            raise PlayerError(f"{spec}: search must be one of {', '.join(PLAYER_SEARCHES)}, "
                              f"got {self.search!r}")
        # flags: the selective techniques as a bit mask (search.alphabeta.negamax.F_*), to measure
        # one technique against the others.
        self.flags = None if settings.get("flags") is None else int(str(settings["flags"]), 0)
        # MCTS: playouts a move (unless a node or time limit is given), the prior's kind
        # ("heuristic"; "uniform" to measure what the heuristic's policy adds; "none":
        # a uniform policy and value 0, nothing learnt) and Q-init.
        self.playouts = _int_setting(settings, "playouts")
        self.prior = str(settings.get("prior") or "heuristic")
        if self.prior not in MCTS_PRIORS:
            raise PlayerError(f"{spec}: prior must be one of {', '.join(MCTS_PRIORS)}, "
                              f"got {self.prior!r}")
        q_init = settings.get("q_init", -1.0)
        self.q_init = q_init if q_init == "parent" else float(q_init)
        # CrazyAra's u-divisor schedule (its floor, 0.25 in CrazyAra), check enhancement
        # (0.5) and a check for moves that win at once, off unless set: to measure them
        # (search.mcts.driver.PUCT).
        self.puct: dict[str, Any] = {"q_init": self.q_init}
        u_min = _float_setting(settings, "u_min_divisor")
        if u_min is not None:
            self.puct["u_min_divisor"] = u_min
        check = _share_setting(settings, "check_factor", what="a factor of the largest prior")
        if check is not None:
            self.puct["check_factor"] = check
        if settings.get("win_check") is not None:      # MCTS's own default otherwise
            self.puct["win_check"] = _bool_setting(settings, "win_check")
        if self.search != "mcts" and len(self.puct) > 1:
            raise PlayerError(f"{spec}: u_min_divisor, check_factor and win_check are MCTS "
                              "settings: add search=mcts")
        # net: a network (an ONNX file or "shipped") that guides the MCTS instead of the
        # prior; unlike a GUI's engine, a match refuses one it cannot use.
        self.net = None if settings.get("net") in (None, "", "none") else str(settings["net"])
        if self.net is not None and self.search != "mcts":
            raise PlayerError(f"{spec}: net guides the MCTS: add search=mcts")
        if self.search == "mcts" and self.limits.depth is not None:
            raise PlayerError(f"{spec}: MCTS takes playouts, nodes or movetime, not depth")
        # random_ties: pick at random among equally scored root moves, seeded per game, as
        # self-play learning does; material-only values tie often, and a player that always
        # takes the first of them can shuffle a won endgame to the move limit.
        self.random_ties = _bool_setting(settings, "random_ties")
        if self.random_ties and self.search == "mcts":
            raise PlayerError(f"{spec}: random_ties is for the alpha-beta search, not MCTS")
        # proof: the share of a timed move's budget the root's proof-number search gets
        # (variants.spec.Variant.proof_share by default: off), to measure it.
        self.proof = _share_setting(settings, "proof")
        # proof_check: the share kept for the proof check of the chosen move
        # (variants.spec.Variant.proof_check by default).
        self.proof_check = _share_setting(settings, "proof_check")
        # book: consult the variant's opening book (variants.spec.Variant.book by
        # default), to measure it.
        self.book = None if settings.get("book") is None else _bool_setting(settings, "book")
        # forced_at_once: play the only legal move of a timed move at once, its time kept
        # on the clock (Engine.forced_at_once, off by default), to measure it.
        self.forced_at_once = _bool_setting(settings, "forced_at_once")
        # proofs_to_tt: what the proof searches prove goes into the alpha-beta search's
        # table (Engine.proofs_to_tt, off by default), to measure it.
        self.proofs_to_tt = _bool_setting(settings, "proofs_to_tt")
        self.name = str(settings.get("name") or _internal_name(spec))
        self.engine: Engine | None = None
        self.mcts: Any = None

    def start(self, variant: str) -> None:
        weights = None if self.spec == "default" else self.spec
        try:
            mode = "selective" if self.search == "mcts" else self.search
            self.engine = Engine(variant, weights, hash_mb=self.hash_mb, qlimit=self.qlimit,
                                 search=mode, flags=self.flags, random_ties=self.random_ties)
            if self.proof is not None:
                self.engine.proof_share = self.proof
            if self.proof_check is not None:
                self.engine.proof_check = self.proof_check
            if self.book is not None:
                self.engine.own_book = self.book
            self.engine.forced_at_once = self.forced_at_once
            self.engine.proofs_to_tt = self.proofs_to_tt
            if self.search == "mcts" and self.net is not None:
                from search.mcts.driver import MCTS
                from search.mcts.network import open_network
                self.mcts = MCTS(variant, open_network(self.net, variant, threads=1),
                                 **self.puct)
            elif self.search == "mcts":
                self.mcts = _make_mcts(variant, self.engine.weights, self.prior, self.puct)
        except (WeightsError, ValueError) as exc:
            msg = str(exc)    # a weights error names its file already: name it once
            raise PlayerError(msg if msg.startswith(self.spec) else f"{self.spec}: {msg}") from None
        # Load the numba code now (its leaf-block search too), not on the first move's clock.
        self.engine.load_compiled()
        if self.mcts is not None:
            self.mcts.load_compiled()

    def new_game(self, seed: int) -> None:
        assert self.engine is not None
        # Each player its own stream of tie-breaks (both get the game's seed); the seed
        # only drives random ties, so a player without them plays as before.
        self.engine.new_game(seed ^ zlib.crc32(self.name.encode()))
        if self.mcts is not None:
            self.mcts.new_game(seed)

    def play(self, pos: Position, limits: MoveLimits) -> MoveAnswer:
        assert self.engine is not None
        lim = Limits(depth=limits.depth, nodes=limits.nodes, movetime=limits.movetime,
                     wtime=limits.wtime, btime=limits.btime, winc=limits.winc, binc=limits.binc)
        t0 = time.perf_counter()
        if self.mcts is not None:
            playouts = self.playouts
            if playouts is None and lim.nodes is None and lim.movetime is None \
                    and lim.wtime is None:
                playouts = 800
            r = self.mcts.search(pos, playouts=playouts, limits=lim)
        else:
            r = self.engine.search(pos, limits=lim, leaf=False)
        seconds = time.perf_counter() - t0
        if r.move is None:
            return MoveAnswer(None, seconds, error="no move", detail="the engine found no move")
        return MoveAnswer(r.move, seconds, score=r.score, mate=r.mate, depth=r.depth, nodes=r.nodes)

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self._settings)

    @property
    def description(self) -> str:
        return f"tdleaf {self.spec}"


def _make_mcts(variant: str, weights: Any, prior: str, puct: dict[str, Any]) -> Any:
    from search.mcts.driver import MCTS, UNIFORM
    from search.mcts.prior import HeuristicPrior
    evaluator: Any = None
    if prior == "none":
        evaluator = UNIFORM
    elif prior == "uniform":
        # The same value function, a uniform policy: what the heuristic policy adds.
        evaluator = HeuristicPrior(variant, weights, policy="uniform")
    return MCTS(variant, evaluator, weights=weights, **puct)


def _internal_name(spec: str) -> str:
    if spec in NAMED_SETS:
        return spec
    path = Path(spec)
    if path.name == "weights.json":
        path = path.parent
    return path.name or spec


def is_external(spec: str) -> bool:
    return spec.startswith(("uci:", "xboard:"))


class ExternalPlayer(Player):
    """An engine process over UCI or XBoard. A crashed or stalled engine is killed and
    started again at the next :meth:`new_game`."""

    def __init__(self, spec: str, settings: dict[str, Any] | None = None) -> None:
        settings = dict(settings or {})
        protocol, _, command = spec.partition(":")
        if not command.strip():
            raise PlayerError(f"{spec!r}: no command after '{protocol}:'")
        self.spec = spec
        self.protocol = protocol
        try:
            self.command = shlex.split(command)
        except ValueError as exc:
            raise PlayerError(f"{spec!r}: {exc}") from None
        if not self.command or not self.command[0]:
            raise PlayerError(f"{spec!r}: no command after '{protocol}:'")
        exe = self.command[0]
        try:
            self.command = engines.resolve_command(self.command)
        except engines.EngineNotFound as exc:
            raise PlayerError(f"{spec!r}: {exc}") from None
        self.limits = _limits(settings)
        self.stall_seconds = _float_setting(settings, "timeout") or DEFAULT_STALL_SECONDS
        self.options = {k: v for k, v in settings.items() if k not in EXTERNAL_SETTINGS}
        self._limit_settings = {k: settings[k] for k in EXTERNAL_SETTINGS
                                if k != "name" and settings.get(k) is not None}
        self._given_name = settings.get("name")
        self.name = str(self._given_name or os.path.basename(exe))
        self.process: engines.EngineProcess | None = None
        self.variant = "chess"
        self._game: object = object()
        self.restarts = 0

    @property
    def settings(self) -> dict[str, Any]:
        """Its limits, then its engine options (spelt as the engine spells them once it
        has started): ``{"movetime": 0.1, "UCI_LimitStrength": "true", ...}``."""
        return {**self._limit_settings, **self.options}

    @property
    def engine(self) -> chess.engine.SimpleEngine | None:
        """python-chess's connection to the running engine (None while it is not)."""
        return None if self.process is None else self.process.engine

    # -- process life -------------------------------------------------------------------

    def start(self, variant: str) -> None:
        self.variant = variant
        self._launch()
        assert self.process is not None
        self.name = str(self._given_name or self.process.name)
        self._check_variant()

    def _launch(self) -> None:
        try:
            self.process = engines.EngineProcess(self.protocol, self.command)
        except (TimeoutError, OSError, chess.engine.EngineError, engines.EngineNotFound) as exc:
            raise PlayerError(f"cannot start {self.spec!r}: {type(exc).__name__}: {exc}") from None
        try:
            self.options = self.process.configure(self.options)
            self.process.ready()          # loaded before its first timed move
        except ValueError as exc:
            self.close()
            raise PlayerError(f"{self.spec}: {exc}") from None
        except (TimeoutError, chess.engine.EngineError) as exc:
            self._kill()
            raise PlayerError(f"{self.spec}: not ready: {type(exc).__name__}: {exc}") from None

    def _check_variant(self) -> None:
        assert self.process is not None
        board = board_class(self.variant)()
        if self.protocol == "uci":
            if type(board) is chess.Board:      # standard chess needs no UCI_Variant
                return
            known = self.process.variants
            if board.uci_variant not in known:
                raise PlayerError(f"{self.name} does not play {self.variant} over UCI "
                                  f"(its UCI_Variant: {', '.join(sorted(known)) or 'none'})")
        else:
            features = sorted(self.process.variants)
            if board.xboard_variant not in features:
                raise PlayerError(f"{self.name} does not play {self.variant} over XBoard "
                                  f"(its variants: {', '.join(features)})")

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.close()

    def retune(self, settings: dict[str, Any]) -> bool:
        """New limits, name and option values, the options set on the running engine
        (python-chess sends only those that changed). False when ``settings`` name other
        options than before: an engine has no way to unset one."""
        new = ExternalPlayer(self.spec, settings)
        if self.process is not None:
            try:
                named = self.process.option_names(new.options)
                if set(named) != set(self.options):
                    return False
                new.options = self.process.configure(named)
            except ValueError as exc:
                raise PlayerError(f"{self.spec}: {exc}") from None
            except (TimeoutError, chess.engine.EngineError):
                self._kill()     # dead or stalled: started again, with them, next game
        self.limits, self.stall_seconds = new.limits, new.stall_seconds
        self.options, self._limit_settings = new.options, new._limit_settings
        self._given_name = new._given_name
        if self._given_name is not None:
            self.name = str(self._given_name)
        elif self.process is not None:
            self.name = self.process.name
        return True

    def new_game(self, seed: int) -> None:
        if self.process is None:         # killed after a crash or a stall: start again
            self.restarts += 1
            self._launch()
        self._game = object()            # python-chess sends ucinewgame / new

    # -- moves --------------------------------------------------------------------------

    def play(self, pos: Position, limits: MoveLimits) -> MoveAnswer:
        if self.process is None:
            return MoveAnswer(None, 0.0, error="crash", detail="the engine is not running")
        board = _fresh_board(pos)
        limit = chess.engine.Limit(depth=limits.depth, nodes=limits.nodes, time=limits.movetime,
                                   white_clock=limits.wtime, black_clock=limits.btime,
                                   white_inc=limits.winc if limits.wtime is not None else None,
                                   black_inc=limits.binc if limits.btime is not None else None)
        budget = limits.movetime or 0.0
        clock = limits.wtime if pos.turn else limits.btime
        if clock is not None:
            budget = max(budget, clock)
        timeout = budget + self.stall_seconds
        engine = self.process.engine
        coro = asyncio.wait_for(engine.protocol.play(board, limit, game=self._game,
                                                     info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC),
                                timeout)
        t0 = time.perf_counter()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop)
            result = future.result()
        except TimeoutError:
            self._kill()
            return MoveAnswer(None, time.perf_counter() - t0, error="stall",
                              detail=f"no answer within {timeout:.0f} s")
        except chess.engine.EngineTerminatedError as exc:
            self._kill()
            return MoveAnswer(None, time.perf_counter() - t0, error="crash", detail=str(exc))
        except chess.engine.EngineError as exc:
            self._kill()    # its idea of the position is unknown now
            error = "dispute" if disputes_last_move(board, str(exc)) else "illegal move"
            return MoveAnswer(None, time.perf_counter() - t0, error=error, detail=str(exc))
        except RuntimeError as exc:   # the event loop of a dead engine
            self._kill()
            return MoveAnswer(None, time.perf_counter() - t0, error="crash", detail=str(exc))
        seconds = time.perf_counter() - t0
        info = result.info or {}
        score, mate = engines.xboard_score(info, board.turn)
        answer = MoveAnswer(None, seconds, score=score, mate=mate, depth=info.get("depth"),
                            nodes=info.get("nodes"))
        if result.resigned:
            answer.error, answer.detail = "resign", "the engine resigned"
        elif result.move is None:
            # An XBoard engine ends its turn without a move when it claims a result: Sjeng
            # claims its own loss a move early ("0-1 {Black Mates}"). python-chess does not
            # pass the claim on; as cutechess-cli scores such a claim, the claimer loses.
            answer.error = "no move"
            answer.detail = ("the engine claimed a result instead of moving"
                             if self.protocol == "xboard" else "the engine answered without a move")
        else:
            answer.move = result.move.uci()
        return answer

    @property
    def description(self) -> str:
        return f"{self.name} ({self.protocol}: {shlex.join(self.command)})"


def disputes_last_move(board: chess.Board, message: str) -> bool:
    """Whether an engine's error ``message`` refuses the last move of ``board``'s game
    (``Illegal move: e8g8`` or ``Illegal move: O-O``): the referee, python-chess, played
    it, so the engine disputes the rules rather than failing at them."""
    move = engines.refused_move(message)
    if move is None or not board.move_stack:
        return False
    last = board.peek()
    before = board.copy()
    before.pop()
    san = before.san(last)
    return move in (last.uci(), san, san.rstrip("+#"))


def _fresh_board(pos: Position) -> chess.Board:
    """A new python-chess board of the game so far: python-chess 1.11.2 shares crazyhouse
    pockets between a board and its root(), which its engine protocols push onto."""
    board = board_class(pos.variant)(pos.root_fen)
    for mv in pos.move_stack:
        board.push_uci(mv)
    return board


#: A player's move limit when it is given none (and no clock): tdleaf's, an engine's.
DEFAULT_DEPTH = 4
DEFAULT_ENGINE_MOVETIME = 0.1


def with_default_limit(spec: str, settings: dict[str, Any], clock: bool = False) -> dict[str, Any]:
    """``settings`` with a move limit added when they have none and no clock limits the
    player: depth :data:`DEFAULT_DEPTH` for tdleaf (MCTS takes its own playouts),
    :data:`DEFAULT_ENGINE_MOVETIME` seconds for an external engine."""
    if clock or settings.get("search") == "mcts" or \
            any(k in settings for k in ("depth", "nodes", "movetime", "playouts")):
        return dict(settings)
    if is_external(spec):
        return {**settings, "movetime": DEFAULT_ENGINE_MOVETIME}
    return {**settings, "depth": DEFAULT_DEPTH}


def make_player(spec: str, settings: dict[str, Any] | None = None) -> Player:
    """A player from a spec (see the module docstring) and its settings."""
    spec = spec.strip()
    if not spec:
        raise PlayerError("empty player spec")
    if is_external(spec):
        return ExternalPlayer(spec, settings)
    if spec not in NAMED_SETS:
        path = Path(spec)
        if not (path.exists() or (path / "weights.json").exists()):
            raise PlayerError(f"unknown player {spec!r}: not a value set "
                              f"({', '.join(NAMED_SETS)}), not a weights file or result "
                              f"folder, and not uci:COMMAND or xboard:COMMAND")
    return InternalPlayer(spec, settings)
