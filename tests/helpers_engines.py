"""External engines in the tests: find one or skip the test, or, with
``TDLEAF_REQUIRE_ENGINES`` set (``.ci/run`` sets it), fail it; and the processes a test
started, found through the parent links of /proc (no psutil).

Every test that needs Sjeng, Fairy-Stockfish, the wasm Fairy-Stockfish or Node.js calls
:func:`require_engine` (or :func:`engine_path`), so that CI cannot pass by skipping.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Self

import pytest

from tdleaf.play import engines

#: The names :func:`require_engine` knows: binaries looked up as tdleaf does (PATH, then
#: /usr/games), and the npm package run under Node.js.
KNOWN = ("sjeng", "fairy-stockfish", "node", engines.WASM_ALIAS)


def engines_required() -> bool:
    """Whether a missing engine fails the test (TDLEAF_REQUIRE_ENGINES set, not 0)."""
    return os.environ.get("TDLEAF_REQUIRE_ENGINES", "").strip() not in ("", "0")


def missing(what: str) -> None:
    """Skip the test, or fail it when engines are required."""
    if engines_required():
        pytest.fail(f"{what} (TDLEAF_REQUIRE_ENGINES is set)")
    pytest.skip(what)


def require_engine(name: str) -> list[str]:
    """The command that runs the engine ``name`` (one of :data:`KNOWN`); a test without
    it is skipped, or failed when TDLEAF_REQUIRE_ENGINES is set."""
    assert name in KNOWN, f"unknown engine {name!r}; known: {', '.join(KNOWN)}"
    if name == engines.WASM_ALIAS:
        try:
            command = engines.fairy_stockfish_wasm_command()
        except engines.EngineNotFound as exc:
            missing(str(exc))
        if command is None:
            missing(f"the npm package {engines.WASM_PACKAGE} (with Node.js) is not installed")
        assert command is not None
        return command
    path = engines.find_engine(name)
    if path is None:
        missing(f"{name} is not installed")
    assert path is not None
    return [path]


def engine_path(name: str) -> str:
    """The path of the engine binary ``name`` (see :func:`require_engine`)."""
    return require_engine(name)[0]


# -- processes ------------------------------------------------------------------------------

def process_stat(pid: str) -> tuple[str, int] | None:
    """(command name, parent pid) of a process, or None when it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    if fields[0] == "Z":
        return None
    return name, int(fields[1])


def descendants(root: int) -> dict[int, str]:
    """Every running process below ``root`` (children, their children, ...): pid ->
    command name, from the parent pids in /proc/<pid>/stat."""
    parent: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := process_stat(entry)) is not None:
            names[int(entry)], parent[int(entry)] = st
    out: dict[int, str] = {}
    for pid, name in names.items():
        p = parent.get(pid)
        seen = 0
        while p is not None and p != root and seen < 64:    # ppid chains are short
            p, seen = parent.get(p), seen + 1
        if p == root:
            out[pid] = name
    return out


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped does not)."""
    return process_stat(str(pid)) is not None


def still_running(pids: set[int], seconds: float = 15.0) -> set[int]:
    """Those of ``pids`` still running after waiting up to ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return {p for p in pids if alive(p)}


class Descendants:
    """Watches, while a ``with`` block runs, the processes named ``name`` that this
    process starts, directly or through others: an engine that outlives its match
    worker is re-parented away, so it must be seen while the match runs."""

    def __init__(self, name: str, every: float = 0.05) -> None:
        self.name, self.every = name, every
        self.seen: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        me = os.getpid()
        while not self._stop.is_set():
            self.seen |= {p for p, n in descendants(me).items() if n == self.name}
            self._stop.wait(self.every)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
