"""What the UCI and XBoard front ends share: line output, the read loop and a background search."""

from __future__ import annotations

import io
import sys
import threading
from typing import Callable, TextIO

from .engine import Engine, Limits, SearchResult


class Output:
    """Thread-safe line writer (the search thread and the reader both print)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self._lock:
            self.stream.write(line + "\n")
            self.stream.flush()


class BackgroundSearch:
    """Runs one :meth:`Engine.search` at a time in a thread, so ``stop`` can be read."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, engine: Engine, position, limits: Limits,
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

    def wait(self, engine: Engine | None = None, stop: bool = False) -> None:
        """Wait for the running search to end (asking it to stop first if ``stop``)."""
        if self._thread is None:
            return
        if stop and engine is not None:
            engine.stop()
        self._thread.join()
        self._thread = None


class Warmup:
    """Loads (or compiles) the numba code in the background, so the front end can
    answer its handshake at once and still be quick on the first ``go``."""

    def __init__(self) -> None:
        self._thread = threading.Thread(target=self._run, name="warmup", daemon=True)
        self._thread.start()

    @staticmethod
    def _run() -> None:
        Engine("chess", "traditional", hash_mb=1).search(None, depth=2)

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
    _engine: Engine | None

    def handle(self, line: str) -> bool:
        raise NotImplementedError

    def run(self) -> int:
        for line in self.inp:
            if not self.handle(line):
                break
        self.search.wait(self._engine, stop=True)
        return 0
