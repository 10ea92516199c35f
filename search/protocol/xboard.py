"""``tdleaf xboard``: the engine behind the Chess Engine Communication Protocol v2.

Supports ``protover``/features (with the ``variants`` feature), ``new``, ``variant``,
``force``, ``go``, ``playother``, ``usermove``, ``sd``, ``st``, ``level``, ``time``,
``otim``, ``setboard``, ``undo``/``remove``, ``ping``, ``?`` and ``option`` (``Search``:
selective, plain or mcts; ``Net``: a network that guides the MCTS, a file or
``shipped``, said in a ``#`` line when the search is made). Bad input is answered
with ``Error (...)`` or ``Illegal move``, never by exiting (``sd`` and ``st`` with a
negative or malformed value too: they change nothing). A refused ``setboard`` leaves
no position behind: until ``new`` or a valid ``setboard``, moves are answered with
``Illegal move (no position: ...)`` and ``go`` with an ``Error``, never with a move.

The compiled engine loads in a background thread from the start: ``protover`` answers
``feature done=0`` at once while it loads, then the full features with ``done=1``.
This module imports nothing heavy at load time (no numba, NumPy or python-chess).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TextIO

from variants.errors import VariantError
from variants.spec import by_xboard, xboard_names

from ..alphabeta.modes import SEARCHES
from .session import BackgroundSearch, Output, Session, Warmup, stdin_lines

if TYPE_CHECKING:
    from variants import Position

    from ..alphabeta.engine import Limits, SearchResult

_IGNORED = {"xboard", "accepted", "rejected", "random", "hard", "easy", "computer", "name",
            "rating", "ics", "post", "nopost", "draw", "result", "white", "black", "cores",
            "memory", "egtpath", "bk", "hint", "analyze", "exit", "."}
#: Commands that never need the compiled engine: they do not wait for the warm-up.
_LIGHT = frozenset({"protover", "ping", "sd", "st", "level", "time", "otim", "option"})


def _seconds(text: str) -> float:
    """XBoard base time: minutes or minutes:seconds."""
    if ":" in text:
        m, s = text.split(":", 1)
        return 60 * float(m) + float(s)
    return 60 * float(text)


class XBoardEngine(Session):
    """A CECP session reading commands from ``inp`` and answering on ``out``."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None,
                 weights: str | None = None, hash_mb: int = 64, search: str = "selective",
                 net: str = "none") -> None:
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, got {search!r}")
        self.inp = inp or stdin_lines()
        self.out = Output(out)
        self.warmup = Warmup()       # first: the compiled code loads while we talk
        self.weights = weights
        self.search_mode = search
        self.net = net or "none"
        self.hash_mb = hash_mb
        self.variant = "chess"
        self._engine: Any = None              # an Engine, or an MCTS with Search mcts
        #: The position (see :attr:`position`); None: the variant's start position,
        #: built when first needed.
        self._position: Position | None = None
        #: Why the last setboard was refused ("" when it was not).
        self.refusal = ""
        self.force = False
        self.engine_white = False          # the side the engine plays
        self.post = True
        self.depth: int | None = None
        self.st: float | None = None
        self.level: tuple[int, float, float] | None = None
        self.time_left: float | None = None
        self.search = BackgroundSearch()
        self._discard = False

    @property
    def position(self) -> Position | None:
        """The game's position; None after a refused setboard (the reason in
        :attr:`refusal`) until ``new`` or a valid ``setboard``."""
        if self.refusal:
            return None
        if self._position is None:
            from variants import Position
            self._position = Position.start(self.variant)
        return self._position

    @property
    def engine(self) -> Any:
        if self._engine is None:
            if self.search_mode == "mcts":
                from ..mcts.driver import MCTS
                from ..mcts.network import resolve
                network = resolve(self.net, self.variant, lambda text: self.out(f"# {text}"))
                self._engine = MCTS(self.variant, network, weights=self.weights)
                self._engine.load_compiled()     # here, not on the first move's clock
            else:
                from ..alphabeta.engine import Engine
                self._engine = Engine(self.variant, self.weights, hash_mb=self.hash_mb,
                                      search=self.search_mode)
                self._engine.load_compiled()     # with leaf blocks, a search loaded apart
        return self._engine

    def handle(self, line: str) -> bool:
        tokens = line.strip().split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        if cmd == "quit":
            return False
        try:
            if cmd in _IGNORED:
                if cmd == "post":
                    self.post = True
                elif cmd == "nopost":
                    self.post = False
                elif cmd == "result":
                    self._stop()
                    self.force = True
                return True
            handler = getattr(self, f"cmd_{cmd.replace('?', 'movenow')}", None)
            if handler is not None:
                if cmd not in _LIGHT:
                    self._ready()
                handler(args)
            elif self._looks_like_move(cmd) and not args:
                self._ready()
                self.cmd_usermove([cmd])
            else:
                self.out(f"Error (unknown command): {line.strip()[:80]}")
        except (VariantError, ValueError) as exc:    # WeightsError is a ValueError
            self.out(f"Error ({exc}): {line.strip()[:80]}")
        except Exception as exc:  # malformed input must never kill the engine
            self.out(f"Error ({type(exc).__name__}: {exc}): {line.strip()[:80]}")
        return True

    @staticmethod
    def _looks_like_move(text: str) -> bool:
        return 4 <= len(text) <= 5 and text[0] in "abcdefghPNBRQK" and any(c.isdigit() for c in text)

    def _ready(self) -> None:
        """Wait for the compiled code (reporting once if loading it failed)."""
        if self.warmup.running or self.warmup.error is not None:
            self.warmup.wait()
            error, self.warmup.error = self.warmup.error, None
            if error is not None:
                self.out(f"# loading the engine failed: {type(error).__name__}: {error}")

    def _stop(self) -> None:
        """Abort a running search and drop its move (the game state is changing)."""
        self._discard = True
        self.search.wait(self._engine, stop=True)
        self._discard = False

    # -- commands -------------------------------------------------------------------

    def cmd_protover(self, args: list[str]) -> None:
        if self.warmup.running:
            self.out("feature done=0")      # ask the GUI to wait while numba loads
        self._ready()
        variants = ",".join(xboard_names())
        self.out(f'feature myname="tdleaf" variants="{variants}" setboard=1 usermove=1 '
                 'ping=1 time=1 draw=0 sigint=0 reuse=1 analyze=0 colors=0 '
                 'san=0 nps=0 memory=0')
        self.out('feature option="Search -combo ' + " /// ".join(
            ("*" if m == self.search_mode else "") + m for m in SEARCHES) + '"')
        self.out(f'feature option="Net -string {self.net}" done=1')

    def cmd_option(self, args: list[str]) -> None:
        """``option NAME=VALUE``: Search (selective, plain, mcts) or Net."""
        name, sep, value = " ".join(args).partition("=")
        name, value = name.strip().lower(), value.strip()
        if not sep:
            raise ValueError("option needs NAME=VALUE")
        if name == "search":
            if value not in SEARCHES:
                raise ValueError(f"Search must be one of {', '.join(SEARCHES)}, got {value!r}")
            self._stop()
            self.search_mode, self._engine = value, None
        elif name == "net":
            self._stop()
            self.net, self._engine = value or "none", None
        else:
            raise ValueError(f"unknown option {name!r} (options: Search, Net)")

    def _need_position(self) -> Position:
        if self.position is None:
            raise ValueError(f"no position: {self.refusal}; send new or a valid setboard")
        return self.position

    def cmd_new(self, args: list[str]) -> None:
        self._stop()
        self.variant = "chess"
        self._engine = None
        self._position, self.refusal = None, ""
        self.force = False
        self.engine_white = False
        self.depth = None
        self.st = None

    def cmd_variant(self, args: list[str]) -> None:
        self._stop()
        if len(args) != 1:
            raise ValueError(f"unsupported variant {' '.join(args)!r}")
        self.variant = by_xboard(args[0]).name
        self._engine = None
        self._position = None               # a refused setboard stays refused
        # Build the engine now, off the clock: weights with leaf blocks load a search
        # compiled apart, and a GUI's ping after 'variant' waits for it.
        _ = self.engine

    def cmd_setboard(self, args: list[str]) -> None:
        self._stop()
        from variants import Position
        try:
            pos = Position.from_fen(" ".join(args), self.variant, warn=False)
        except VariantError as exc:
            self._position, self.refusal = None, f"setboard refused: {exc}"
            raise
        self._position, self.refusal = pos, ""
        if pos.warning:
            self.out(f"# warning: {pos.warning}")

    def cmd_force(self, args: list[str]) -> None:
        self._stop()
        self.force = True

    def cmd_go(self, args: list[str]) -> None:
        self._stop()
        pos = self._need_position()
        self.force = False
        self.engine_white = pos.turn
        self._think()

    def cmd_playother(self, args: list[str]) -> None:
        self._stop()
        pos = self._need_position()
        self.force = False
        self.engine_white = not pos.turn

    def cmd_usermove(self, args: list[str]) -> None:
        if not args:
            raise ValueError("usermove needs a move")
        if self.search.running:
            self._stop()
        position = self.position
        if position is None:
            self.out(f"Illegal move (no position: {self.refusal}): {args[0]}")
            return
        try:
            position.push_uci(args[0])
        except VariantError:
            self.out(f"Illegal move: {args[0]}")
            return
        if not self.force and position.turn == self.engine_white:
            self._think()

    def cmd_undo(self, args: list[str]) -> None:
        self._stop()
        self._need_position().pop()

    def cmd_remove(self, args: list[str]) -> None:
        self._stop()
        pos = self._need_position()
        pos.pop()
        pos.pop()

    def cmd_sd(self, args: list[str]) -> None:
        """``sd DEPTH``: search at most DEPTH plies (a whole number >= 1)."""
        text = args[0] if len(args) == 1 else " ".join(args)
        try:
            depth = int(text)
        except ValueError:
            raise ValueError(f"sd needs a whole number of plies >= 1, got {text[:40]!r}") from None
        if depth < 1:
            raise ValueError(f"sd must be >= 1, got {depth}")
        self.depth = depth

    def cmd_st(self, args: list[str]) -> None:
        """``st SECONDS``: think that long per move (0: move at once)."""
        text = args[0] if len(args) == 1 else " ".join(args)
        try:
            seconds = float(text)
        except ValueError:
            raise ValueError(f"st needs seconds >= 0, got {text[:40]!r}") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"st must be finite seconds >= 0, got {text[:40]}")
        self.st = seconds

    def cmd_level(self, args: list[str]) -> None:
        if len(args) != 3:
            raise ValueError("level needs MPS BASE INC")
        self.level = (int(args[0]), _seconds(args[1]), float(args[2]))
        self.st = None

    def cmd_time(self, args: list[str]) -> None:
        self.time_left = int(args[0]) / 100

    def cmd_otim(self, args: list[str]) -> None:
        int(args[0])

    def cmd_ping(self, args: list[str]) -> None:
        self.out(f"pong {args[0] if args else ''}".rstrip())

    def cmd_movenow(self, args: list[str]) -> None:
        if self._engine is not None:
            self._engine.stop()

    # -- thinking -------------------------------------------------------------------

    def _limits(self) -> Limits:
        from ..alphabeta.engine import Limits
        assert self.position is not None
        lim = Limits(depth=self.depth)
        if self.st is not None:
            lim.movetime = self.st
        elif self.time_left is not None:
            mps, _, inc = self.level or (0, 0.0, 0.0)
            moves_played = len(self.position.move_stack) // 2
            togo = (mps - moves_played % mps) if mps else None
            if self.engine_white:
                lim.wtime, lim.winc = self.time_left, inc
            else:
                lim.btime, lim.binc = self.time_left, inc
            lim.movestogo = togo
        elif self.depth is None:
            lim.movetime = 5.0
        return lim

    def _think(self) -> None:
        if self.position is None or self.position.outcome() is not None:
            return
        self.search.start(self.engine, self.position.copy(), self._limits(), self._info, self._done)

    def _info(self, r: SearchResult) -> None:
        if self.post:
            cp = round(r.score * 100)
            if r.mate is not None:
                cp = (100000 + abs(r.mate)) * (1 if r.mate > 0 else -1)
            self.out(f"{r.depth} {cp} {int(r.time * 100)} {r.nodes} {' '.join(r.pv)}")

    def _done(self, result: SearchResult | None, exc: BaseException | None) -> None:
        if self._discard:
            return
        if exc is not None or result is None or result.move is None or self.position is None:
            if exc is not None:
                self.out(f"Error (search failed: {exc}): go")
            return
        self.position.push_uci(result.move)
        self.out(f"move {result.move}")


def main(inp: TextIO | None = None, out: TextIO | None = None, weights: str | None = None) -> int:
    """Run an XBoard session on standard input/output."""
    return XBoardEngine(inp, out, weights).run()
