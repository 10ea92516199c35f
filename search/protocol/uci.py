"""``tdleaf uci``: the engine behind the Universal Chess Interface.

Answers ``uci`` at once, from data alone (the compiled engine loads meanwhile in a
background thread; ``isready`` waits for it), searches in a background thread (so
``stop``, ``ponderhit`` and ``isready`` are read while it thinks) and treats every
malformed or out-of-order line as something to report with ``info string``, never as a
reason to exit.

The options are :data:`OPTIONS` (``tdleaf uci --help`` prints :func:`options_help`).
``go`` takes ``depth``, ``nodes``, ``movetime``, ``wtime``/``btime``/``winc``/``binc``/
``movestogo``, ``mate``, ``infinite``, ``ponder`` and ``searchmoves``; a ``go`` with a
negative or malformed value is refused with an ``info string error`` and searches
nothing. A refused ``position`` leaves no position behind: ``go`` then answers
``bestmove 0000`` with an ``info string`` saying why, until a valid ``position`` arrives.

This module imports nothing heavy at load time (no numba, NumPy or python-chess):
only what the handshake needs.
"""

from __future__ import annotations

import textwrap
import threading
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from variants.errors import VariantError
from variants.spec import ALIASES, SPECS, by_uci

from ..alphabeta.modes import SEARCHES
from . import strength
from .session import BackgroundSearch, Output, Session, Warmup, stdin_lines

if TYPE_CHECKING:
    from variants import Position

    from ..alphabeta.engine import SearchResult

NAME = "tdleaf"
AUTHOR = "the tdleaf developers"
MAX_MULTIPV = 256
DEFAULT_HASH = 64
#: A network's threads (matches run one engine a core).
NET_THREADS = 1
#: UCI_Elo's range: the measured strength ladder's (search/data/ladder.json).
ELO_RANGE = strength.offered_range()


class Option(NamedTuple):
    """One UCI option: what ``uci`` declares and what ``tdleaf uci --help`` says (a
    NamedTuple, not a dataclass: importing dataclasses costs the handshake 5 ms)."""

    name: str
    kind: str                      # check, spin, combo, string
    default: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def declaration(self) -> str:
        """The ``option name ...`` line of the ``uci`` answer."""
        line = f"option name {self.name} type {self.kind} default {self.default}"
        if self.kind == "spin":
            line += f" min {self.low} max {self.high}"
        return line + "".join(f" var {c}" for c in self.choices)


#: The UCI_Variant values this engine declares (python-chess's ``uci_variant``).
UCI_VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(v.uci_variant for v in SPECS.values()))

#: Every option, in the order ``uci`` declares them.
OPTIONS: tuple[Option, ...] = (
    Option("UCI_Variant", "combo", "chess", ", ".join(UCI_VARIANTS)
           + f" (and aliases: {', '.join(ALIASES)})", choices=UCI_VARIANTS),
    Option("Hash", "spin", str(DEFAULT_HASH), f"transposition table in MB (default {DEFAULT_HASH})",
           low=1, high=65536),
    Option("Weights", "string", "default",
           "a weights.json path, a run folder, or a weight set ({weight_sets}); default: "
           "the variant's shipped default (the learnt tables where they ship); an "
           "'info string weights ...' names the file loaded and where from"),
    Option("Search", "combo", "selective",
           "selective (default: null move, late-move reductions, futility, razoring, "
           "SEE, aspiration windows), plain (the full-width alpha-beta of the report) or "
           "mcts (PUCT over the heuristic prior, or the network Net names; one line, "
           "clocks/nodes/movetime/infinite)",
           choices=SEARCHES),
    Option("Net", "string", "none",
           "a network file (.onnx, 'tdleaf net export'), or shipped: the variant's shipped "
           "network; with Search=mcts the MCTS is guided by it (without one, by the "
           "heuristic prior); resolved when the search is made, so it may come before "
           "UCI_Variant; an 'info string network ...' names it, or says why it is not used"),
    Option("UCI_LimitStrength", "check", "false",
           "play at UCI_Elo: the depth or node limit the strength ladder measured for "
           "that rating, in the search mode it measured (an info string says when the "
           "engine plays other weights than the ladder measured)"),
    Option("UCI_Elo", "spin", str(ELO_RANGE[0]),
           f"the rating for UCI_LimitStrength, {ELO_RANGE[0]}..{ELO_RANGE[1]} (on "
           "Fairy-Stockfish's UCI_Elo scale; a variant without a ladder of its own uses "
           "its relative's, and without any an info string says it is ignored)",
           low=ELO_RANGE[0], high=ELO_RANGE[1]),
    Option("MultiPV", "spin", "1",
           "the N best lines (default 1), each with its exact score and PV "
           "('info ... multipv k ...')", low=1, high=MAX_MULTIPV),
    Option("OwnBook", "check", "true",
           "consult the opening book the proof search built, where the variant has one "
           "(suicide, antichess): a proved win is played and a move it proves to lose never "
           "is, on a timed move ('tdleaf book')"),
    Option("Ponder", "check", "false", "GUIs may send 'go ponder' (pondering needs no "
           "other setting)"),
    Option("UCI_AnalyseMode", "check", "false",
           "accepted; changes nothing (the search is the same for play and analysis: no "
           "contempt, no random tie-breaks, no resignation)"),
)


def options_help(width: int = 88) -> str:
    """The options of :data:`OPTIONS` as ``tdleaf uci --help`` lists them (this loads
    the weight-set names, so it costs what importing the value and reference sets costs)."""
    from ..evaluation.reference_sets import REFERENCE_SETS
    from ..evaluation.value_sets import VALUE_SETS
    sets = ", ".join(tuple(VALUE_SETS) + tuple(REFERENCE_SETS))
    pad = max(len(o.name) for o in OPTIONS) + 4
    lines = []
    for o in OPTIONS:
        text = o.help.replace("{weight_sets}", sets)
        wrapped = textwrap.wrap(text, width - pad, break_on_hyphens=False) or [""]
        lines.append(f"  {o.name:<{pad - 2}}{wrapped[0]}")
        lines += [" " * pad + w for w in wrapped[1:]]
    return "\n".join(lines)


#: go's arguments that take a whole number, with the least value each may have:
#: movetime and the clocks may be 0 (move at once); depth, nodes, movestogo and mate
#: of 0 mean nothing, and no value may be negative.
_GO_INT = {"depth": 1, "nodes": 1, "movetime": 0, "wtime": 0, "btime": 0, "winc": 0,
           "binc": 0, "movestogo": 1, "mate": 1}
_GO_FLAGS = ("infinite", "ponder")


def parse_go(args: list[str]) -> tuple[dict[str, Any], list[str] | None]:
    """``go``'s arguments as :class:`search.alphabeta.engine.Limits` fields (times in seconds)
    and the search moves (None: all). Raises ValueError, naming the argument, for an
    unknown or repeated-without-value word and for a value that is not a whole number
    or is below what it may be (negative; 0 for depth, nodes, movestogo, mate)."""
    fields: dict[str, Any] = {}
    searchmoves: list[str] | None = None
    i = 0
    while i < len(args):
        key = args[i]
        if key in _GO_FLAGS:
            fields[key] = True
        elif key == "searchmoves":
            searchmoves = []
            while i + 1 < len(args) and args[i + 1] not in (*_GO_INT, *_GO_FLAGS, "searchmoves"):
                i += 1
                searchmoves.append(args[i])
        elif key in _GO_INT and i + 1 < len(args):
            text = args[i + 1]
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"go {key}: not a whole number: {text[:40]!r}") from None
            least = _GO_INT[key]
            if value < least:
                raise ValueError(f"go {key} must be >= {least}, got {value}")
            i += 1
            if key in ("movetime", "wtime", "btime", "winc", "binc"):
                fields[key] = value / 1000
            else:
                fields[key] = value
        elif key in _GO_INT:
            raise ValueError(f"go {key}: missing value")
        else:
            raise ValueError(f"go: unexpected {key[:40]!r}")
        i += 1
    return fields, searchmoves


def format_score(result: SearchResult) -> str:
    if result.mate is not None:
        return f"mate {result.mate}"
    return f"cp {round(result.score * 100)}"


#: Commands that never need the compiled engine: they do not wait for the warm-up.
_LIGHT = frozenset({"uci", "debug", "stop", "ponderhit", "isready"})


class UciEngine(Session):
    """A UCI session reading commands from ``inp`` and answering on ``out``."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or stdin_lines()
        self.out = Output(out)
        self.warmup = Warmup()       # first: the compiled code loads while we talk
        self.variant = "chess"
        self.hash_mb = DEFAULT_HASH
        self.weights_spec = "default"
        self.net_spec = "none"
        self.multipv = 1
        self.own_book = True
        self.analyse_mode = False
        self.search_mode = "selective"
        self.limit_strength = False
        self.elo = ELO_RANGE[0]
        self._engine: Any = None              # an Engine, or an MCTS with Search=mcts
        #: The position ``go`` searches (see :attr:`position`); None: the current
        #: variant's start position, built when first needed.
        self._position: Position | None = None
        #: Why the last ``position`` was refused ("" when it was not).
        self.refusal = ""
        self.search = BackgroundSearch()
        self._announced: tuple[str, ...] | None = None    # last weights info string
        self._warned: tuple[Any, ...] | None = None        # last UCI_Elo warning check
        self._noted: tuple[str, int] | None = None         # the last UCI_Elo explained
        # While pondering (go ponder) or in an infinite search, the result waits for
        # ponderhit/stop: UCI forbids bestmove before them.
        self._hold_lock = threading.Lock()
        self._holding = False
        self._pondering = False
        self._held: tuple[SearchResult | None, BaseException | None] | None = None

    # -- engine life cycle ----------------------------------------------------------

    @property
    def position(self) -> Position | None:
        """The position ``go`` searches; None after a refused ``position`` command (the
        reason in :attr:`refusal`) until a valid one arrives."""
        if self.refusal:
            return None
        if self._position is None:
            from variants import Position
            self._position = Position.start(self.variant)
        return self._position

    def _restart_position(self) -> None:
        """Back to the start position of the variant (a refused position stays refused)."""
        self._position = None

    @property
    def engine(self) -> Any:
        if self._engine is None:
            weights = None if self.weights_spec == "default" else self.weights_spec
            if self.search_mode == "mcts":
                from ..mcts.driver import MCTS
                from ..mcts.network import resolve
                network = resolve(self.net_spec, self.variant, self.info, threads=NET_THREADS)
                self._engine = MCTS(self.variant, network, weights=weights)
                self._engine.load_compiled()     # here, not on the first move's clock
            else:
                from ..alphabeta.engine import Engine
                mode = self.search_mode
                if self.limit_strength and strength.has_ladder(self.variant):
                    mode = strength.ladder_search(self.variant)   # as the ladder measured it
                self._engine = Engine(self.variant, weights, hash_mb=self.hash_mb, search=mode)
                self._engine.own_book = self._engine.own_book and self.own_book
                # Leaf blocks: their search loads here (isready), not on a move's clock.
                self._engine.load_compiled()
            self._announce()
        return self._engine

    def _weights(self) -> Any:
        engine = self._engine
        if hasattr(engine, "weights"):
            return engine.weights
        return getattr(engine.evaluator, "weights", None)

    def _announce(self) -> None:
        """Say which weights the engine plays, and from where, once per change; and,
        with UCI_LimitStrength on, whether the ladder measured them."""
        weights = self._weights()
        if weights is None:              # a network guides the MCTS: it said so itself
            self._announced = None
            return
        source = getattr(weights, "source", None) or f"{self.weights_spec} weights"
        key = (self.variant, source)
        if key != self._announced:
            self._announced = key
            self.info(f"weights for {self.variant}: {source}")
        self._ladder_warning(weights, source)

    def _ladder_warning(self, weights: Any, source: str) -> None:
        """UCI_Elo is what the ladder measured: say so when the engine plays other
        weights (once per change of variant, weights or limit)."""
        if not self.limit_strength or self.search_mode == "mcts":
            self._warned = None
            return
        from ..evaluation.weights import weights_digest
        digest = weights_digest(weights.w)
        key = (self.variant, source, digest)
        if key == self._warned:
            return
        self._warned = key
        warning = strength.ladder_warning(self.variant, source, digest)
        if warning:
            self.info(warning)

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
                return True
            if cmd not in _LIGHT:
                self._ready()
            handler(args)
        except (VariantError, ValueError) as exc:    # WeightsError is a ValueError
            self.info(f"error: {exc}")
        except Exception as exc:  # malformed input must never kill the engine
            self.info(f"error: cannot handle {line.strip()[:80]!r}: {type(exc).__name__}: {exc}")
        return True

    def _ready(self) -> None:
        """Wait for the compiled code (reporting once if loading it failed)."""
        if self.warmup.running or self.warmup.error is not None:
            self.warmup.wait()
            error, self.warmup.error = self.warmup.error, None
            if error is not None:
                self.info(f"error: loading the engine failed: {type(error).__name__}: {error}")

    def cmd_uci(self, args: list[str]) -> None:
        self.out(f"id name {NAME}", f"id author {AUTHOR}",
                 *(option.declaration() for option in OPTIONS), "uciok")

    def cmd_isready(self, args: list[str]) -> None:
        """Wait for the compiled code, load the weights (saying which), then readyok;
        always answered, whatever failed before it."""
        try:
            self._ready()
            if not self.search.running:
                _ = self.engine          # the property loads the weights and says which
        except Exception as exc:
            self.info(f"error: {type(exc).__name__}: {exc}")
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
            self.variant = by_uci(value).name
            self._engine = None
            self._restart_position()
        elif name == "hash":
            mb = int(value)
            if mb < 1:
                raise ValueError(f"Hash must be >= 1, got {mb}")
            self.hash_mb = mb
            if self._engine is not None and self.search_mode != "mcts":
                self._engine.set_hash(mb)
        elif name == "weights":
            spec = value or "default"
            if spec != "default":
                from ..alphabeta.engine import Engine
                Engine(self.variant, spec, hash_mb=1)   # validate now, report now
            self.weights_spec = spec
            self._engine = None
        elif name == "net":
            self.net_spec = value or "none"
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
        elif name == "ownbook":
            self.own_book = _check_bool(name, value)
            if self._engine is not None and hasattr(self._engine, "own_book"):
                from variants.spec import get as spec_of
                self._engine.own_book = self.own_book and spec_of(self.variant).book
        elif name == "ponder":
            _check_bool(name, value)      # pondering is driven by 'go ponder' alone
        elif name == "uci_analysemode":
            self.analyse_mode = _check_bool(name, value)
        else:
            raise ValueError(f"unknown option {name!r} (options: "
                             f"{', '.join(o.name for o in OPTIONS)})")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self._stop_search()
        if self._engine is not None:
            self._engine.new_game()
        self._restart_position()

    def cmd_position(self, args: list[str]) -> None:
        self._stop_search()   # tolerate a missing "stop"
        try:
            pos = self._parse_position(args)
        except (VariantError, ValueError) as exc:
            self._position, self.refusal = None, f"position refused: {exc}"
            raise
        self._position, self.refusal = pos, ""
        if pos.warning:
            self.info(f"warning: {pos.warning}")

    def _parse_position(self, args: list[str]) -> Position:
        from variants import Position
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
        fields, searchmoves = parse_go(args)     # a refused go leaves any search running
        self._stop_search()
        from ..alphabeta.engine import Limits
        lim = Limits(multipv=self.multipv, **fields)
        position = self.position
        if position is None:
            self.info(f"no position to search ({self.refusal}); send a valid 'position'")
            self.out("bestmove 0000")
            return
        if searchmoves is not None:
            lim.searchmoves = self._legal_search_moves(position, searchmoves)
            if not lim.searchmoves:
                self.info("searchmoves: no legal move to search")
                self.out("bestmove 0000")
                return
        cap = self._strength_limits()
        if cap is not None:
            # The measured limit for the asked Elo, on top of whatever the GUI asks.
            if "depth" in cap:
                lim.depth = min(lim.depth or cap["depth"], cap["depth"])
            if "nodes" in cap:
                lim.nodes = min(lim.nodes or cap["nodes"], cap["nodes"])
        if self.search_mode == "mcts" and (lim.multipv > 1 or lim.searchmoves or lim.mate):
            self.info("Search mcts plays one line: MultiPV, searchmoves and mate are ignored")
            lim.multipv, lim.searchmoves, lim.mate = 1, None, None
        engine = self.engine          # loaded (and announced) before the clock starts
        with self._hold_lock:
            self._holding = lim.ponder or lim.infinite
            self._pondering = lim.ponder
            self._held = None
        self.search.start(engine, position.copy(), lim, self._info, self._done)

    def _strength_limits(self) -> dict[str, int] | None:
        """The ladder's limit for UCI_Elo when UCI_LimitStrength is on, else None (also
        when the variant has no ladder: then an info string says so at 'go')."""
        if not self.limit_strength:
            return None
        if self.search_mode == "mcts":
            self.info("UCI_LimitStrength ignored: the ladder rates the alpha-beta search, "
                      "not Search mcts")
            return None
        try:
            limits = strength.limits_for_elo(self.variant, self.elo)
        except strength.StrengthError as exc:
            self.info(f"UCI_LimitStrength ignored: {exc}")
            return None
        if (self.variant, self.elo) != self._noted:                  # once per request
            self.info(strength.elo_note(self.variant, self.elo))
            self._noted = (self.variant, self.elo)
        return limits

    def _legal_search_moves(self, position: Position, moves: list[str]) -> list[str]:
        """The legal ones among ``moves`` (the others are reported and ignored;
        python-chess sends ``0000`` for an empty list)."""
        legal = []
        for mv in moves:
            if mv == "0000":
                continue
            try:
                position.parse_uci(mv)
            except VariantError as exc:
                self.info(f"searchmoves: ignoring {mv!r}: {exc}")
            else:
                legal.append(mv)
        return legal

    def _info(self, r: Any) -> None:
        from ..alphabeta.engine import SearchResult
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

    def _bestmove(self, result: Any, exc: BaseException | None) -> None:
        if exc is not None:
            self.info(f"search failed: {exc}")
            self.out("bestmove 0000")
            return
        assert result is not None
        from ..alphabeta.engine import SearchResult
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
        elif self.search_mode != "mcts" and self._engine is not None:
            self._engine.ponderhit()         # MCTS has no pondering clock

    def cmd_d(self, args: list[str]) -> None:
        position = self.position
        if position is None:
            self.info(f"no position ({self.refusal})")
        else:
            self.info(f"{position.variant} {position.fen()}")


def _check_bool(name: str, value: str) -> bool:
    if value.lower() not in ("true", "false"):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value.lower() == "true"


def main(inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run a UCI session on standard input/output."""
    return UciEngine(inp, out).run()
