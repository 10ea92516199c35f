"""External engines: where tdleaf finds them, how it starts them, and every quirk of
theirs it works around. Matches, tournaments, the strength ladder and the benchmarks all
come here; nothing else looks an engine up or patches its protocol.

Finding an engine
    :func:`find_engine` looks on PATH, then in /usr/games (where Debian puts Sjeng and
    Fairy-Stockfish, outside root's PATH). :func:`resolve_command` turns the command of a
    player spec (``xboard:sjeng``, ``uci:fairy-stockfish-wasm``) into one that runs.

``fairy-stockfish-wasm`` and ``TDLEAF_FSF_WASM``
    The name ``fairy-stockfish-wasm`` runs the npm package fairy-stockfish-nnue.wasm
    (which plays atomic, unlike Debian's Fairy-Stockfish 11.1) under Node.js. The
    package is looked for in ``$TDLEAF_FSF_WASM``, then ``./node_modules``, then npm's
    global folder (``npm root -g``). ``TDLEAF_FSF_WASM`` names the package: its folder
    (the one that holds ``uci.js``) or its ``uci.js``; both forms mean the same and
    :func:`fairy_stockfish_wasm_command` is their only reader. Set to anything else, it
    is an error rather than a silent fall-back to another copy.

Quirks
    * Sjeng 11.2's ``setboard`` reads neither crazyhouse pockets (``[...]``) nor
      promoted-piece marks (``~``): the FEN goes without them and the pockets follow
      as ``holding [White] [Black]`` (:func:`sjeng_lines`).
    * Sjeng reads ``st`` as whole seconds and ``st 0`` as no limit at all; python-chess
      sends ``st 0.5`` for half a second, and Sjeng then spent its default clock's
      6.5 s a move. A move time that is not a whole number of seconds goes to Sjeng as
      a clock that allots it that time: ``level 100 M:SS 0`` (Sjeng gives each move
      the base over 100 moves, less one second) and ``time 1000``, which keeps it from
      extending a move that fails low (:func:`sjeng_time_lines`).
    * XBoard has no mate syntax: python-chess reads a posted 100000 + n as mate in n,
      and Sjeng posts 1000000 - plies to mate (:func:`xboard_score`).
    * Sjeng prints its statistics outside the protocol and declares features
      python-chess rejects: :class:`EngineLog` keeps those warnings out of the log.
    * Fairy-Stockfish 11.1 plays on after a racing-kings race is over: with a move that
      wins the race, its ``bestmove`` names a ponder move in the finished game, which
      python-chess refuses and logs with a traceback. The best move is legal and nobody
      here ponders: :class:`EngineLog` drops that error too.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING, Self

# python-chess only for the type checker: bench and the CLI look engines up without it.
if TYPE_CHECKING:
    import chess
    import chess.engine

#: The spec name of the WebAssembly Fairy-Stockfish (``uci:fairy-stockfish-wasm``).
WASM_ALIAS = "fairy-stockfish-wasm"
#: Its npm package.
WASM_PACKAGE = "fairy-stockfish-nnue.wasm"
#: The environment variable that names the package (its folder or its ``uci.js``).
WASM_ENV = "TDLEAF_FSF_WASM"


class EngineNotFound(ValueError):
    """An engine that is not installed, or a setting that points at nothing."""


# -- lookup ---------------------------------------------------------------------------------

def find_engine(name: str) -> str | None:
    """Path of an engine binary on PATH, or in /usr/games, or None."""
    if not name:
        return None
    found = shutil.which(name)
    if found:
        return found
    if "/" in name:
        return None
    fallback = f"/usr/games/{name}"
    return fallback if os.path.isfile(fallback) and os.access(fallback, os.X_OK) else None


def find_fairy_stockfish() -> str | None:
    """Path of the Fairy-Stockfish binary, or None."""
    return find_engine("fairy-stockfish")


@functools.lru_cache(maxsize=1)
def _npm_global_root() -> str | None:
    """``npm root -g`` (asked once: npm takes a few tenths of a second to start)."""
    try:
        root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True,
                              timeout=20, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return root or None


def _uci_js(place: str) -> str | None:
    """The package's ``uci.js`` given its folder or the file itself, or None."""
    script = place if place.endswith(".js") else os.path.join(place, "uci.js")
    return os.path.abspath(script) if os.path.isfile(script) else None


def fairy_stockfish_wasm_command() -> list[str] | None:
    """The command that runs the npm package's UCI front end under Node.js, or None
    when Node.js or the package is missing. Raises :class:`EngineNotFound` when
    ``TDLEAF_FSF_WASM`` is set but names neither the package's folder nor its uci.js."""
    env = os.environ.get(WASM_ENV, "").strip()
    if env:
        script = _uci_js(env)
        if script is None:
            raise EngineNotFound(f"{WASM_ENV}={env}: neither the {WASM_PACKAGE} folder nor "
                                 f"its uci.js")
    else:
        places = [os.path.join("node_modules", WASM_PACKAGE)]
        root = _npm_global_root()
        if root:
            places.append(os.path.join(root, WASM_PACKAGE))
        script = next((s for s in map(_uci_js, places) if s), None)
    node = find_engine("node")
    if script is None or node is None:
        return None
    # Node 20 must not load its experimental fetch for the wasm module to load.
    return [node, "--no-experimental-fetch", script]


def resolve_command(command: list[str]) -> list[str]:
    """An engine command with its program found (PATH, /usr/games) or, for
    ``fairy-stockfish-wasm``, replaced by the command that runs the npm package.
    Raises :class:`EngineNotFound` with a one-line reason."""
    exe, rest = command[0], command[1:]
    found = find_engine(exe)
    if found is not None:
        return [found, *rest]
    if exe == WASM_ALIAS:
        wasm = fairy_stockfish_wasm_command()
        if wasm is None:
            raise EngineNotFound(f"the npm package {WASM_PACKAGE} (or Node.js) is not installed "
                                 f"(npm install -g {WASM_PACKAGE}, or set {WASM_ENV})")
        return [*wasm, *rest]
    raise EngineNotFound(f"engine {exe!r} not found (on PATH or in /usr/games)")


def dies_with_parent(command: list[str]) -> list[str]:
    """``command`` wrapped so that the engine is killed when the process that started it
    dies (Linux, util-linux ``setpriv --pdeathsig KILL``). A match worker that is
    terminated, or killed with ``kill -9``, would otherwise leave its engines running:
    Sjeng, its input closed, then spins at a fifth of a CPU until the machine stops."""
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    return [setpriv, "--pdeathsig", "KILL", "--", *command] if setpriv else list(command)


# -- quirks: scores -------------------------------------------------------------------------

#: python-chess reads a posted 100000 + n as mate in n (the XBoard convention).
XBOARD_MATE = 100_000
#: Sjeng posts 1000000 - plies to mate, which that reading takes for mate in ~900000.
SJENG_MATE = 1_000_000


def xboard_score(info: chess.engine.InfoDict,
                 turn: chess.Color) -> tuple[float | None, int | None]:
    """(pawns, mate in moves) of an engine's last ``info`` from ``turn``'s point of view;
    a mate is +-100 pawns. Reads both XBoard mate conventions (UCI's is exact already)."""
    pov = info.get("score")
    if pov is None:
        return None, None
    s = pov.pov(turn)
    mate = s.mate()
    if mate is not None:
        posted = abs(mate) + XBOARD_MATE
        if posted > SJENG_MATE - 1000:                  # Sjeng's convention
            moves = max(1, (SJENG_MATE - posted + 1) // 2)
            mate = moves if mate > 0 else -moves
        return (100.0 if mate > 0 else -100.0), mate
    cp = s.score()
    return (None if cp is None else cp / 100.0), None


# -- quirks: Sjeng's commands ---------------------------------------------------------------

def is_sjeng(engine: chess.engine.SimpleEngine) -> bool:
    """Whether the engine says it is Sjeng."""
    return "sjeng" in str(engine.id.get("name", "")).lower()


def sjeng_time_lines(seconds: float) -> list[str]:
    """What Sjeng must read to search about ``seconds``: ``st N`` for a whole number of
    seconds (1 or more), else a clock that allots exactly that (to the centisecond)."""
    if seconds >= 1 and float(seconds).is_integer():
        return [f"st {int(seconds)}"]
    centis = max(1, round(seconds * 100))
    base = centis + 100        # seconds for 100 moves: base * 100 / 100 - 100 centiseconds
    return [f"level 100 {base // 60}:{base % 60:02d} 0", "time 1000"]


def sjeng_lines(line: str) -> list[str]:
    """The lines Sjeng must read for one line python-chess sends it (see the module's
    quirks): ``setboard`` with pockets split off into ``holding``, ``st`` of a fraction
    of a second as a clock; any other line as it is."""
    if line.startswith("setboard ") and "[" in line:
        placement, _, rest = line[len("setboard "):].partition(" ")
        placement, _, pocket = placement.partition("[")
        pocket = pocket.rstrip("]")
        white = "".join(c for c in pocket if c.isupper())
        black = "".join(c.upper() for c in pocket if c.islower())
        # holding even when both are empty: it resets Sjeng's pockets, setboard does not.
        return [f"setboard {placement.replace('~', '')} {rest}", f"holding [{white}] [{black}]"]
    if line.startswith("st "):
        try:
            seconds = float(line[3:])
        except ValueError:
            return [line]
        return sjeng_time_lines(seconds)
    return [line]


def adapt(engine: chess.engine.SimpleEngine) -> None:
    """Teach a freshly started engine's connection the quirks of that engine (for now
    Sjeng's; any other engine is left as it is)."""
    if not is_sjeng(engine):
        return
    protocol = engine.protocol
    send_line = protocol.send_line

    def send(line: str) -> None:
        for out in sjeng_lines(line):
            send_line(out)

    protocol.send_line = send  # type: ignore[method-assign]


# -- quirks: the log ------------------------------------------------------------------------

class EngineLog(logging.Filter):
    """A filter for python-chess's ``chess.engine`` logger: drops its warnings about
    lines an engine prints outside the protocol (Sjeng's statistics), keeping the lines
    themselves in :attr:`lines` when ``keep`` is set, about features it rejects
    (Sjeng's ``sigterm=0``, harmless), and its error about a ponder move it refuses
    (Fairy-Stockfish's after a won race; the ponder move is never used)."""

    def __init__(self, keep: bool = False) -> None:
        super().__init__()
        self.keep = keep
        self.lines: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        if "Unexpected engine output" in msg:
            if self.keep and record.args:
                self.lines.append(str(record.args[-1]))  # type: ignore[index]
            return False
        return "Rejecting feature" not in msg and "invalid ponder move" not in msg

    def attach(self) -> Self:
        """Start filtering python-chess's engine log."""
        logging.getLogger("chess.engine").addFilter(self)
        return self

    def detach(self) -> None:
        """Stop filtering it."""
        logging.getLogger("chess.engine").removeFilter(self)

    def __enter__(self) -> Self:
        return self.attach()

    def __exit__(self, *exc: object) -> None:
        self.detach()
