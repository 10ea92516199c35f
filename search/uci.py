"""``tdleaf uci``: the engine behind the Universal Chess Interface.

Answers ``uci``/``isready`` at once, searches in a background thread (so ``stop``,
``ponderhit`` and ``isready`` are read while it thinks) and treats every malformed or
out-of-order line as something to report with ``info string``, never as a reason to exit.

Options: ``UCI_Variant``, ``Hash``, ``Weights``, ``MultiPV`` (the N best lines, each
with its exact score and PV), ``Ponder`` (that the GUI may send ``go ponder``) and
``UCI_AnalyseMode`` (accepted; it changes nothing: the UCI engine plays
deterministically and has no play-only heuristic an analyst would want off -- no
contempt, no random tie-breaks, no resignation or draw logic).
``go`` takes ``depth``, ``nodes``, ``movetime``, ``wtime``/``btime``/``winc``/``binc``/
``movestogo``, ``mate``, ``infinite``, ``ponder`` and ``searchmoves``. A refused
``position`` leaves no position behind: ``go`` then answers ``bestmove 0000`` with an
``info string`` saying why, until a valid ``position`` arrives.
"""

from __future__ import annotations

import threading
from typing import Any, TextIO

from variants import VARIANTS, Position, VariantError, canonical_variant

from .engine import SEARCH_MODES, Engine, Limits, SearchResult
from . import strength
from .layout import VALUE_SETS, WeightsError
from .protocol import BackgroundSearch, Output, Session, Warmup, stdin_lines

NAME = "tdleaf"
AUTHOR = "the tdleaf developers"
MAX_MULTIPV = 256
#: The UCI option Search: the alpha-beta modes, or MCTS over the heuristic prior.
SEARCHES = SEARCH_MODES + ("mcts",)
#: UCI_Elo's range: the measured strength ladder's (search/ladder.json).
ELO_RANGE = strength.offered_range()


_GO_INT = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate")
_GO_FLAGS = ("infinite", "ponder")


def format_score(result: SearchResult) -> str:
    if result.mate is not None:
        return f"mate {result.mate}"
    return f"cp {int(round(result.score * 100))}"


class UciEngine(Session):
    """A UCI session reading commands from ``inp`` and answering on ``out``."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or stdin_lines()
        self.out = Output(out)
        self.variant = "chess"
        self.hash_mb = 64
        self.weights_spec = "default"
        self.multipv = 1
        self.analyse_mode = False
        self.search_mode = "selective"
        self.limit_strength = False
        self.elo = ELO_RANGE[0]
        self._engine: Any = None              # an Engine, or an MCTS with Search=mcts
        #: The position ``go`` searches; None after a refused ``position`` command,
        #: with the reason in ``refusal``, until a valid one arrives.
        self.position: Position | None = Position.start(self.variant)
        self.refusal = ""
        self.search = BackgroundSearch()
        self.warmup = Warmup()
        # While pondering (go ponder) or in an infinite search, the result waits for
        # ponderhit/stop: UCI forbids bestmove before them.
        self._hold_lock = threading.Lock()
        self._holding = False
        self._pondering = False
        self._held: tuple[SearchResult | None, BaseException | None] | None = None

    # -- engine life cycle ----------------------------------------------------------

    @property
    def engine(self) -> Any:
        if self._engine is None:
            weights = None if self.weights_spec == "default" else self.weights_spec
            if self.search_mode == "mcts":
                from .mcts import MCTS
                self._engine = MCTS(self.variant, weights=weights)
            else:
                mode = self.search_mode
                if self._strength_limits() is not None:
                    mode = strength.ladder_search(self.variant)   # as the ladder measured it
                self._engine = Engine(self.variant, weights, hash_mb=self.hash_mb, search=mode)
        return self._engine

    def info(self, text: str) -> None:
        self.out(f"info string {text}")

    def _stop_search(self) -> None:
        """End the running search, its bestmove sent (a held one included)."""
        self._release()
        self.search.wait(self._engine, stop=True)

    # -- commands -------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Process one line; returns False on ``quit``."""
        tokens = line.strip().split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        try:
            if cmd == "quit":
                return False
            handler = getattr(self, f"cmd_{cmd}", None)
            if handler is None:
                self.info(f"unknown command: {line.strip()[:80]}")
            else:
                handler(args)
        except (VariantError, WeightsError, ValueError) as exc:
            self.info(f"error: {exc}")
        except Exception as exc:  # malformed input must never kill the engine
            self.info(f"error: cannot handle {line.strip()[:80]!r}: {type(exc).__name__}: {exc}")
        return True

    def cmd_uci(self, args: list[str]) -> None:
        self.out(f"id name {NAME}")
        self.out(f"id author {AUTHOR}")
        variants = " ".join(f"var {v}" for v in VARIANTS)
        self.out(f"option name UCI_Variant type combo default chess {variants}")
        self.out("option name Hash type spin default 64 min 1 max 65536")
        self.out("option name Weights type string default default")
        modes = " ".join(f"var {m}" for m in SEARCHES)
        self.out(f"option name Search type combo default selective {modes}")
        self.out("option name UCI_LimitStrength type check default false")
        self.out(f"option name UCI_Elo type spin default {ELO_RANGE[0]} min {ELO_RANGE[0]} "
                 f"max {ELO_RANGE[1]}")
        self.out(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self.out("option name Ponder type check default false")
        self.out("option name UCI_AnalyseMode type check default false")
        self.out("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.warmup.wait()
        self.out("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        pass

    def cmd_setoption(self, args: list[str]) -> None:
        self._stop_search()
        text = " ".join(args)
        if not text.startswith("name "):
            raise ValueError(f"malformed setoption: {text!r}")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "uci_variant":
            self.variant = canonical_variant(value)
            self._engine = None
            if self.position is not None:
                self.position = Position.start(self.variant)
        elif name == "hash":
            mb = int(value)
            if mb < 1:
                raise ValueError(f"Hash must be >= 1, got {mb}")
            self.hash_mb = mb
            if isinstance(self._engine, Engine):
                self._engine.set_hash(mb)
        elif name == "weights":
            spec = value or "default"
            if spec != "default":
                Engine(self.variant, spec, hash_mb=1)   # validate now, report now
            self.weights_spec = spec
            self._engine = None
        elif name == "search":
            if value not in SEARCHES:
                raise ValueError(f"Search must be one of {', '.join(SEARCHES)}, got {value!r}")
            self.search_mode = value
            self._engine = None
        elif name == "uci_limitstrength":
            self.limit_strength = _check_bool(name, value)
            self._engine = None
        elif name == "uci_elo":
            elo = int(value)
            if not ELO_RANGE[0] <= elo <= ELO_RANGE[1]:
                raise ValueError(f"UCI_Elo must be in {ELO_RANGE[0]}..{ELO_RANGE[1]}, got {elo}")
            self.elo = elo
            self._engine = None
        elif name == "multipv":
            n = int(value)
            if not 1 <= n <= MAX_MULTIPV:
                raise ValueError(f"MultiPV must be in 1..{MAX_MULTIPV}, got {n}")
            self.multipv = n
        elif name == "ponder":
            _check_bool(name, value)      # pondering is driven by 'go ponder' alone
        elif name == "uci_analysemode":
            self.analyse_mode = _check_bool(name, value)
        else:
            raise ValueError(f"unknown option {name!r} (options: UCI_Variant, Hash, Weights, Search, "
                             f"UCI_LimitStrength, UCI_Elo, MultiPV, Ponder, UCI_AnalyseMode; "
                             f"weight sets: {', '.join(VALUE_SETS)})")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self._stop_search()
        if self._engine is not None:
            self._engine.new_game()
        if self.position is not None:      # a refused position stays refused
            self.position = Position.start(self.variant)

    def cmd_position(self, args: list[str]) -> None:
        self._stop_search()   # tolerate a missing "stop"
        try:
            pos = self._parse_position(args)
        except (VariantError, ValueError) as exc:
            self.position, self.refusal = None, f"position refused: {exc}"
            raise
        self.position, self.refusal = pos, ""
        if pos.warning:
            self.info(f"warning: {pos.warning}")

    def _parse_position(self, args: list[str]) -> Position:
        if not args:
            raise ValueError("position needs startpos or fen")
        if "moves" in args:
            i = args.index("moves")
            setup, moves = args[:i], args[i + 1:]
        else:
            setup, moves = args, []
        if not setup:
            raise ValueError("position needs startpos or fen before moves")
        if setup[0] == "startpos" and len(setup) == 1:
            pos = Position.start(self.variant)
        elif setup[0] == "fen" and len(setup) > 1:
            pos = Position.from_fen(" ".join(setup[1:]), self.variant, warn=False)
        else:
            raise ValueError(f"malformed position command: {' '.join(args)[:80]}")
        for mv in moves:
            pos.push_uci(mv)
        return pos

    def cmd_go(self, args: list[str]) -> None:
        self._stop_search()
        lim = Limits(multipv=self.multipv)
        searchmoves: list[str] | None = None
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                lim.infinite = True
            elif key == "ponder":
                lim.ponder = True
            elif key == "searchmoves":
                searchmoves = []
                while i + 1 < len(args) and args[i + 1] not in _GO_INT + _GO_FLAGS + ("searchmoves",):
                    i += 1
                    searchmoves.append(args[i])
            elif key in _GO_INT and i + 1 < len(args):
                try:
                    value = int(args[i + 1])
                except ValueError:
                    raise ValueError(f"go {key}: not a number: {args[i + 1]!r}") from None
                i += 1
                if key == "depth":
                    lim.depth = max(1, value)
                elif key == "nodes":
                    lim.nodes = max(1, value)
                elif key == "movetime":
                    lim.movetime = max(0, value) / 1000
                elif key in ("wtime", "btime", "winc", "binc"):
                    setattr(lim, key, max(0, value) / 1000)
                elif key == "movestogo":
                    lim.movestogo = max(1, value)
                elif key == "mate":
                    lim.mate = max(1, value)
            else:
                raise ValueError(f"go: unexpected {key!r}")
            i += 1
        if self.position is None:
            self.info(f"no position to search ({self.refusal}); send a valid 'position'")
            self.out("bestmove 0000")
            return
        if searchmoves is not None:
            lim.searchmoves = self._legal_search_moves(searchmoves)
            if not lim.searchmoves:
                self.info("searchmoves: no legal move to search")
                self.out("bestmove 0000")
                return
        cap = self._strength_limits()
        if cap is not None and self.search_mode != "mcts":
            # The measured limit for the asked Elo, on top of whatever the GUI asks.
            if "depth" in cap:
                lim.depth = min(lim.depth or cap["depth"], cap["depth"])
            if "nodes" in cap:
                lim.nodes = min(lim.nodes or cap["nodes"], cap["nodes"])
        if self.search_mode == "mcts" and (lim.multipv > 1 or lim.searchmoves or lim.mate):
            self.info("Search mcts plays one line: MultiPV, searchmoves and mate are ignored")
            lim.multipv, lim.searchmoves, lim.mate = 1, None, None
        with self._hold_lock:
            self._holding = lim.ponder or lim.infinite
            self._pondering = lim.ponder
            self._held = None
        engine = self.engine
        self.search.start(engine, self.position.copy(), lim, self._info, self._done)

    def _strength_limits(self) -> dict[str, int] | None:
        """The ladder's limit for UCI_Elo when UCI_LimitStrength is on, else None (also
        when the variant has no ladder: then an info string says so at 'go')."""
        if not self.limit_strength:
            return None
        try:
            return strength.limits_for_elo(self.variant, self.elo)
        except strength.StrengthError as exc:
            self.info(f"UCI_LimitStrength ignored: {exc}")
            return None

    def _legal_search_moves(self, moves: list[str]) -> list[str]:
        """The legal ones among ``moves`` (the others are reported and ignored;
        python-chess sends ``0000`` for an empty list)."""
        assert self.position is not None
        legal = []
        for mv in moves:
            if mv == "0000":
                continue
            try:
                self.position.parse_uci(mv)
            except VariantError as exc:
                self.info(f"searchmoves: ignoring {mv!r}: {exc}")
            else:
                legal.append(mv)
        return legal

    def _info(self, r: Any) -> None:
        if not isinstance(r, SearchResult):          # an MCTS snapshot
            self.out("info " + r.uci_info())
            return
        ms = int(r.time * 1000)
        for line in r.lines or [r]:
            self.out(f"info depth {line.depth} seldepth {line.seldepth} multipv {line.multipv} "
                     f"score {format_score(line)} nodes {line.nodes} nps {int(line.nps)} "
                     f"time {ms} pv {' '.join(line.pv)}")

    def _done(self, result: SearchResult | None, exc: BaseException | None) -> None:
        with self._hold_lock:
            if self._holding:
                self._held = (result, exc)
                return
        self._bestmove(result, exc)

    def _bestmove(self, result: SearchResult | None, exc: BaseException | None) -> None:
        if exc is not None:
            self.info(f"search failed: {exc}")
            self.out("bestmove 0000")
            return
        assert result is not None
        if not isinstance(result, SearchResult) and result.move is not None:
            self.out("info " + result.uci_info())      # MCTS: its final statistics
        if result.move is None:
            self.out("bestmove 0000")
        elif len(result.pv) >= 2:
            self.out(f"bestmove {result.move} ponder {result.pv[1]}")
        else:
            self.out(f"bestmove {result.move}")

    def _release(self) -> None:
        """Stop holding the result back (stop, or anything that ends the search):
        a result already waiting is sent now, a later one when the search ends."""
        with self._hold_lock:
            self._holding = self._pondering = False
            held, self._held = self._held, None
        if held is not None:
            self._bestmove(*held)

    def cmd_stop(self, args: list[str]) -> None:
        self._stop_search()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The GUI played the move pondered on: the search carries on as a normal one
        (its time budget starts now); one that already finished answers at once."""
        with self._hold_lock:
            if not self._pondering:
                return
            self._holding = self._pondering = False
            held, self._held = self._held, None
        if held is not None:
            self._bestmove(*held)
        elif isinstance(self._engine, Engine):
            self._engine.ponderhit()

    def cmd_d(self, args: list[str]) -> None:
        if self.position is None:
            self.info(f"no position ({self.refusal})")
        else:
            self.info(f"{self.position.variant} {self.position.fen()}")


def _check_bool(name: str, value: str) -> bool:
    if value.lower() not in ("true", "false"):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value.lower() == "true"


def main(inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run a UCI session on standard input/output."""
    return UciEngine(inp, out).run()
