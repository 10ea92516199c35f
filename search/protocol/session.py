"""What the UCI and XBoard front ends share: line output, the read loop, a background
search and the background warm-up.

Cheap to import (no numba, NumPy or python-chess): a front end answers its handshake
before the compiled engine is loaded, which :class:`Warmup` does meanwhile.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from variants import Position

    from ..alphabeta.engine import Engine, Limits, SearchResult


class Output:
    """Thread-safe line writer (the search thread and the reader both print)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._lock = threading.Lock()

    def __call__(self, *lines: str) -> None:
        """Write ``lines`` in one write: while the warm-up thread holds the interpreter,
        each write gives it up and waits up to a switch interval (5 ms) to get it back."""
        with self._lock:
            self.stream.write("".join(line + "\n" for line in lines))
            self.stream.flush()


class BackgroundSearch:
    """Runs one :meth:`Engine.search` at a time in a thread, so ``stop`` can be read."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, engine: Engine, position: Position, limits: Limits,
              info: Callable[[SearchResult], None],
              done: Callable[[SearchResult | None, BaseException | None], None]) -> None:
        self.wait(engine, stop=True)
        engine.clear_stop()

        def run() -> None:
            try:
                result = engine.search(position, limits=limits, info=info)
            except BaseException as exc:  # reported, never kills the front end
                done(None, exc)
            else:
                done(result, None)

        self._thread = threading.Thread(target=run, name="search", daemon=True)
        self._thread.start()

    def wait(self, engine: Any = None, stop: bool = False) -> None:
        """Wait for the running search to end (asking it to stop first if ``stop``)."""
        if self._thread is None:
            return
        if stop and engine is not None:
            engine.stop()
        self._thread.join()
        self._thread = None


def _front_end() -> None:
    from .warm import front_end
    front_end()


class Warmup:
    """Loads (or compiles) the numba code in a background thread, started at once, so
    the front end can answer its handshake at once and still be quick on the first
    ``go``: the front ends :meth:`wait` for it before ``readyok``, before the full
    XBoard features and before any command that needs the engine. ``job`` defaults to
    :func:`search.protocol.warm.front_end`; an exception it raises is kept in :attr:`error`."""

    def __init__(self, job: Callable[[], None] = _front_end) -> None:
        self.error: BaseException | None = None
        self._job = job
        self._thread = threading.Thread(target=self._run, name="warmup", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._job()
        except BaseException as exc:    # the commands that need the engine report it
            self.error = exc

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self) -> None:
        self._thread.join()


def stdin_lines() -> TextIO:
    """Standard input decoded leniently: bytes that are not UTF-8 become U+FFFD, so
    binary junk on the pipe is an unknown command, not a crash (whatever the locale)."""
    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")


class Session:
    """The read loop both front ends run: one line at a time to ``handle`` until it
    returns False (``quit``) or the input ends, then stop any search still running."""

    inp: TextIO
    search: BackgroundSearch
    _engine: Any

    def handle(self, line: str) -> bool:
        raise NotImplementedError

    def run(self) -> int:
        for line in self.inp:
            if not self.handle(line):
                break
        self.search.wait(self._engine, stop=True)
        return 0
