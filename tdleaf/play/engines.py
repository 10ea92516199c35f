"""External engines: where tdleaf finds them, how it starts and drives them, and every
quirk of theirs it works around. Matches, tournaments, the strength ladder, the prior's
labels and the benchmarks all come here; nothing else looks an engine up, starts its
process or patches its protocol.

Driving an engine
    :class:`EngineProcess` is an engine over UCI or XBoard through python-chess's
    ``chess.engine``, started the one way tdleaf starts engines: its command found,
    killed with the process that started it, in a temporary folder of its own (engines
    write files), its quirks adapted and python-chess's log of them filtered.
    :class:`LineEngine` is the raw line client for what python-chess does not speak or
    must not time: ``go perft``, and the start-up and memory of our own ``tdleaf uci``,
    measured from the moment the process starts.

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
      python-chess rejects: :class:`EngineLog` keeps those warnings out of the log, and
      :func:`sjeng_statistics` reads the statistics (its nodes, its proof-number search).
    * Fairy-Stockfish 11.1 plays on after a racing-kings race is over: with a move that
      wins the race, its ``bestmove`` names a ponder move in the finished game, which
      python-chess refuses and logs with a traceback. The best move is legal and nobody
      here ponders: :class:`EngineLog` drops that error too.
    * Sjeng plays FICS suicide, whose rules differ from python-chess's: it answers some
      legal moves of its opponent (castling) with ``Illegal move: e8g8``. A refusal of
      the opponent's last move is a rules dispute, not an illegal move of its own
      (:func:`refused_move`); matches report such games apart.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

from variants.errors import TdleafError

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
#: Seconds an engine may take to answer ``isready`` after it starts (``tdleaf uci``
#: compiling its code on a machine's first run takes minutes).
READY_SECONDS = 600.0


class EngineNotFound(TdleafError, ValueError):
    """An engine that is not installed, or a setting that points at nothing."""


class EngineError(TdleafError, RuntimeError):
    """An external engine died, timed out or answered something unexpected."""


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


_REFUSAL = re.compile(r"^\s*Illegal move\s*(?:\([^()]*\))?\s*:\s*(\S+)")


def refused_move(message: str) -> str | None:
    """The move an XBoard engine's ``Illegal move: MOVE`` (or ``Illegal move (why):
    MOVE``) refuses, as it wrote it; None for any other message."""
    m = _REFUSAL.match(message)
    return m.group(1) if m else None


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


def sjeng_statistics(lines: list[str]) -> dict[str, Any]:
    """What Sjeng printed outside the protocol after a search (:class:`EngineLog` with
    ``keep``): its ``Nodes:`` (alpha-beta and quiescence nodes; its proof-number search
    in suicide counts none) and ``NPS:``, the last of each or None, and whether its
    proof-number search ran and found a forced win."""
    text = "\n".join(lines)

    def last(pattern: str) -> int | None:
        found = re.findall(pattern, text, flags=re.MULTILINE)
        return int(found[-1]) if found else None

    return {"nodes": last(r"^Nodes: (\d+)"), "nps": last(r"^NPS: (\d+)"),
            "proof_number_search": "proof" in text or "Forced win" in text,
            "forced_win": "Forced win" in text}


# -- driving an engine ----------------------------------------------------------------------

class EngineProcess:
    """An external engine over UCI or XBoard (python-chess's ``SimpleEngine`` in
    :attr:`engine`), started as tdleaf starts every engine: the command found
    (:func:`resolve_command`), the process killed with its parent
    (:func:`dies_with_parent`), a temporary working folder, standard error discarded,
    its quirks adapted (:func:`adapt`) and python-chess's log of them filtered
    (:class:`EngineLog`; with ``keep_output`` the lines it prints outside the protocol
    are kept in :attr:`output`). Raises :class:`EngineNotFound` for a missing engine,
    and python-chess's errors (or ``TimeoutError``, ``OSError``) when it does not start."""

    def __init__(self, protocol: str, command: list[str], *, keep_output: bool = False,
                 timeout: float | None = 30.0) -> None:
        import chess.engine

        if protocol not in ("uci", "xboard"):
            raise ValueError(f"protocol must be uci or xboard, got {protocol!r}")
        self.protocol = protocol
        self.command = resolve_command(command)
        self._log = EngineLog(keep=keep_output).attach()
        self._dir = tempfile.TemporaryDirectory(prefix="tdleaf-engine-")
        popen = (chess.engine.SimpleEngine.popen_uci if protocol == "uci"
                 else chess.engine.SimpleEngine.popen_xboard)
        try:
            self.engine = popen(dies_with_parent(self.command), cwd=self._dir.name,
                                stderr=subprocess.DEVNULL, timeout=timeout)
        except BaseException:
            self._cleanup()
            raise
        adapt(self.engine)
        self._open = True

    @property
    def name(self) -> str:
        """The name the engine gives itself (else its program's)."""
        return str(self.engine.id.get("name") or os.path.basename(self.command[0]))

    @property
    def options(self) -> dict[str, Any]:
        """The engine's options (python-chess's ``Option`` by name)."""
        return dict(self.engine.options)

    @property
    def variants(self) -> set[str]:
        """The variants the engine says it plays: its ``UCI_Variant`` values (none
        without that option: then it plays standard chess alone), or its XBoard
        ``variants`` feature."""
        if self.protocol == "uci":
            option = self.engine.options.get("UCI_Variant")
            return set(option.var) if option is not None and option.var else set()
        declared = getattr(self.engine.protocol, "features", {})
        return set(str(declared.get("variants", "normal")).split(","))

    @property
    def pid(self) -> int:
        transport = self.engine.protocol.transport
        assert transport is not None, "the engine is not running"
        return transport.get_pid()

    @property
    def output(self) -> list[str]:
        """The lines it printed outside the protocol since :meth:`clear_output`."""
        return self._log.lines

    def clear_output(self) -> None:
        self._log.lines.clear()

    def option_names(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` with each name spelt as the engine spells it (names compare
        without case); ``ValueError`` names one it does not have."""
        out = {}
        for key, value in options.items():
            match = next((n for n in self.engine.options if n.lower() == str(key).lower()), None)
            if match is None:
                raise ValueError(f"the engine has no option {key!r} "
                                 f"(options: {', '.join(self.engine.options) or 'none'})")
            out[match] = value
        return out

    def configure(self, options: dict[str, Any]) -> dict[str, Any]:
        """Set ``options`` (names without case, see :meth:`option_names`); returns them
        as set. ``ValueError`` for an option it lacks or a value it refuses."""
        import chess.engine

        named = self.option_names(options)
        try:
            self.engine.configure(named)
        except chess.engine.EngineError as exc:
            raise ValueError(str(exc)) from None
        return named

    def ready(self, timeout: float | None = None) -> None:
        """Wait until a UCI engine answers ``isready``. An engine that loads after
        answering ``uci`` (``tdleaf uci`` loads its compiled code then) answers when
        loaded: waited for here, the load is not on its first move's clock, as in
        cutechess-cli. ``TimeoutError`` after ``timeout`` seconds (default
        :data:`READY_SECONDS`)."""
        import asyncio

        if self.protocol != "uci":
            return        # XBoard: python-chess waited for the features (done=1) at start
        protocol = self.engine.protocol
        future = asyncio.run_coroutine_threadsafe(
            asyncio.wait_for(protocol.ping(), timeout or READY_SECONDS), protocol.loop)
        future.result()

    def close(self) -> None:
        """Ask the engine to quit; kill it when it does not (or cannot) answer."""
        if self._open:
            self._open = False
            try:
                self.engine.quit()
            except Exception:
                self.kill()
        self._cleanup()

    def kill(self) -> None:
        """Kill the process at once (a crashed or stalled engine, whose event loop may
        be gone)."""
        self._open = False
        engine = self.engine

        def kill() -> None:
            try:
                engine.transport.kill()
            except ProcessLookupError:   # it is dead already
                pass

        with contextlib.suppress(Exception):    # its event loop is gone: nothing left to kill
            engine.protocol.loop.call_soon_threadsafe(kill)
        with contextlib.suppress(Exception):
            engine.close()

    def _cleanup(self) -> None:
        self._log.detach()
        self._dir.cleanup()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LineEngine:
    """An engine process driven line by line, for what python-chess does not speak
    (``go perft``) or must not be in the way of (the time to a process's first line):
    the lines it prints are read on a thread as they come, each with the
    ``time.perf_counter()`` at which it was read; :attr:`started` is that clock just
    before the process started. Errors are :class:`EngineError`."""

    def __init__(self, command: list[str], *, first_input: bytes = b"") -> None:
        self.command = list(command)
        self._lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     bufsize=0)
        threading.Thread(target=self._pump, daemon=True).start()
        if first_input:
            self._write(first_input)

    def _pump(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        for raw in iter(stdout.readline, b""):
            self._lines.put((time.perf_counter(), raw.decode("utf-8", "replace").strip()))
        self._lines.put((time.perf_counter(), None))

    def _write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except OSError as exc:
            raise EngineError(f"{self.command[0]}: {exc}") from None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, line: str) -> None:
        """Send one line."""
        self._write(line.encode() + b"\n")

    def read(self, deadline: float) -> tuple[float, str]:
        """The next line and when it was read; :class:`EngineError` when the engine
        exits or says nothing before ``deadline`` (a ``time.perf_counter()`` time)."""
        try:
            at, line = self._lines.get(timeout=max(0.0, deadline - time.perf_counter()))
        except queue.Empty:
            raise EngineError(f"{self.command[0]}: no answer in time") from None
        if line is None:
            raise EngineError(f"{self.command[0]} exited unexpectedly")
        return at, line

    def until(self, done: Callable[[str], bool], timeout: float) -> list[str]:
        """The lines up to and including the first for which ``done`` is true."""
        deadline = time.perf_counter() + timeout
        lines = []
        while True:
            line = self.read(deadline)[1]
            lines.append(line)
            if done(line):
                return lines

    def close(self, command: str = "quit") -> None:
        """Send ``command``, close its input, and kill it unless it ends within 10 s."""
        try:
            self.send(command)
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.close()
