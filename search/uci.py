"""``tdleaf uci``: the engine behind the Universal Chess Interface.

Answers ``uci``/``isready`` at once, searches in a background thread (so ``stop`` and
``isready`` are read while it thinks) and treats every malformed or out-of-order line as
something to report with ``info string``, never as a reason to exit.
"""

from __future__ import annotations

from typing import TextIO

from variants import VARIANTS, Position, VariantError, canonical_variant

from .engine import Engine, Limits, SearchResult
from .layout import VALUE_SETS, WeightsError
from .protocol import BackgroundSearch, Output, Session, Warmup, stdin_lines

NAME = "tdleaf"
AUTHOR = "the tdleaf developers"


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
        self._engine: Engine | None = None
        self.position = Position.start(self.variant)
        self.search = BackgroundSearch()
        self.warmup = Warmup()

    # -- engine life cycle ----------------------------------------------------------

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            weights = None if self.weights_spec == "default" else self.weights_spec
            self._engine = Engine(self.variant, weights, hash_mb=self.hash_mb)
        return self._engine

    def info(self, text: str) -> None:
        self.out(f"info string {text}")

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
        self.out("uciok")

    def cmd_isready(self, args: list[str]) -> None:
        self.warmup.wait()
        self.out("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        pass

    def cmd_setoption(self, args: list[str]) -> None:
        self.search.wait(self._engine, stop=True)
        text = " ".join(args)
        if not text.startswith("name "):
            raise ValueError(f"malformed setoption: {text!r}")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "uci_variant":
            self.variant = canonical_variant(value)
            self._engine = None
            self.position = Position.start(self.variant)
        elif name == "hash":
            mb = int(value)
            if mb < 1:
                raise ValueError(f"Hash must be >= 1, got {mb}")
            self.hash_mb = mb
            if self._engine is not None:
                self._engine.set_hash(mb)
        elif name == "weights":
            spec = value or "default"
            if spec != "default":
                Engine(self.variant, spec, hash_mb=1)   # validate now, report now
            self.weights_spec = spec
            self._engine = None
        else:
            raise ValueError(f"unknown option {name!r} (options: UCI_Variant, Hash, Weights; "
                             f"weight sets: {', '.join(VALUE_SETS)})")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.search.wait(self._engine, stop=True)
        if self._engine is not None:
            self._engine.new_game()
        self.position = Position.start(self.variant)

    def cmd_position(self, args: list[str]) -> None:
        self.search.wait(self._engine, stop=True)   # tolerate a missing "stop"
        if not args:
            raise ValueError("position needs startpos or fen")
        if "moves" in args:
            i = args.index("moves")
            setup, moves = args[:i], args[i + 1:]
        else:
            setup, moves = args, []
        if not setup:
            raise ValueError("position needs startpos or fen before moves")
        if setup[0] == "startpos":
            pos = Position.start(self.variant)
        elif setup[0] == "fen" and len(setup) > 1:
            pos = Position.from_fen(" ".join(setup[1:]), self.variant)
        else:
            raise ValueError(f"malformed position command: {' '.join(args)[:80]}")
        for mv in moves:
            pos.push_uci(mv)
        self.position = pos

    def cmd_go(self, args: list[str]) -> None:
        self.search.wait(self._engine, stop=True)
        lim = Limits()
        keys = {"depth": int, "nodes": int, "movetime": int, "wtime": int, "btime": int,
                "winc": int, "binc": int, "movestogo": int, "mate": int}
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                lim.infinite = True
            elif key == "ponder":
                pass
            elif key == "searchmoves":
                break
            elif key in keys and i + 1 < len(args):
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
                elif key in ("wtime", "btime"):
                    setattr(lim, key, max(0, value) / 1000)
                elif key in ("winc", "binc"):
                    setattr(lim, key, max(0, value) / 1000)
                elif key == "movestogo":
                    lim.movestogo = max(1, value)
            else:
                raise ValueError(f"go: unexpected {key!r}")
            i += 1
        engine = self.engine
        self.search.start(engine, self.position.copy(), lim, self._info, self._done)

    def _info(self, r: SearchResult) -> None:
        ms = int(r.time * 1000)
        self.out(f"info depth {r.depth} seldepth {r.seldepth} score {format_score(r)} "
                 f"nodes {r.nodes} nps {int(r.nps)} time {ms} pv {' '.join(r.pv)}")

    def _done(self, result: SearchResult | None, exc: BaseException | None) -> None:
        if exc is not None:
            self.info(f"search failed: {exc}")
            self.out("bestmove (none)")
            return
        assert result is not None
        self.out(f"bestmove {result.move or '(none)'}")

    def cmd_stop(self, args: list[str]) -> None:
        self.search.wait(self._engine, stop=True)

    def cmd_ponderhit(self, args: list[str]) -> None:
        pass

    def cmd_d(self, args: list[str]) -> None:
        self.info(f"{self.position.variant} {self.position.fen()}")


def main(inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run a UCI session on standard input/output."""
    return UciEngine(inp, out).run()
