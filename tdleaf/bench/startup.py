"""``tdleaf bench startup``: how fast each engine answers its protocol handshake.

For every engine, many times (default 20): start the process with the handshake
already written to its standard input (a :class:`tdleaf.play.engines.LineEngine`: the
raw pipe, since python-chess would add its own start-up to the time), and time, from just before the start, the
first protocol line (UCI: the first ``id``/``option``/``uciok`` line, after any banner;
XBoard: the first ``feature`` line) and the moment it is ready to play (UCI:
``readyok`` to an ``isready`` sent with ``uci``; XBoard: the ``feature ... done=1``
line). ``python -c pass`` gives the floor: the time to start and end an interpreter.
The report gives medians (and min/max) and each median as a multiple of
``python -c pass``'s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tdleaf.play.engines import EngineError, LineEngine, find_engine

from .common import load_average, machine, tdleaf_command

DEFAULT_RUNS = 20
#: Seconds an engine may take to be ready before a run counts as failed.
TIMEOUT = 60.0

UCI_INPUT = b"uci\nisready\n"
XBOARD_INPUT = b"xboard\nprotover 2\n"


def _uci_first(line: str) -> bool:
    return line.split()[:1] in (["id"], ["option"], ["uciok"])


def _uci_ready(line: str) -> bool:
    return line.strip() == "readyok"


def _xboard_first(line: str) -> bool:
    return line.startswith("feature")


def _xboard_ready(line: str) -> bool:
    return line.startswith("feature") and "done=1" in line.split()


@dataclass(frozen=True)
class Subject:
    """One engine to time: its command, what it is sent, and how its lines are read."""

    name: str
    protocol: str                       # "uci", "xboard" or "none" (python -c pass)
    command: list[str]

    def send(self) -> bytes:
        return {"uci": UCI_INPUT, "xboard": XBOARD_INPUT}.get(self.protocol, b"")

    def predicates(self) -> tuple[Callable[[str], bool], Callable[[str], bool]]:
        if self.protocol == "uci":
            return _uci_first, _uci_ready
        return _xboard_first, _xboard_ready


def subjects(engines: bool = True) -> list[Subject]:
    """``python -c pass``, ``tdleaf uci``, ``tdleaf xboard`` and, with ``engines``, the
    installed Sjeng (XBoard) and Fairy-Stockfish (UCI)."""
    tdleaf = tdleaf_command()
    out = [Subject("python -c pass", "none", [sys.executable, "-c", "pass"]),
           Subject("tdleaf uci", "uci", [*tdleaf, "uci"]),
           Subject("tdleaf xboard", "xboard", [*tdleaf, "xboard"])]
    if engines:
        sjeng = find_engine("sjeng")
        if sjeng:
            out.append(Subject("sjeng (xboard)", "xboard", [sjeng]))
        fsf = find_engine("fairy-stockfish")
        if fsf:
            out.append(Subject("fairy-stockfish (uci)", "uci", [fsf]))
    return out


def time_once(subject: Subject, timeout: float = TIMEOUT) -> tuple[float, float]:
    """Seconds from just before the start of ``subject`` to its first protocol line and
    to its being ready (for ``python -c pass``: both its whole run)."""
    if subject.protocol == "none":
        t0 = time.perf_counter()
        subprocess.run(subject.command, check=True, stdin=subprocess.DEVNULL)
        t = time.perf_counter() - t0
        return t, t
    first, ready = subject.predicates()
    with LineEngine(subject.command, first_input=subject.send()) as proc:
        t_first = t_ready = None
        deadline = proc.started + timeout
        try:
            while t_ready is None:
                at, line = proc.read(deadline)
                if t_first is None and first(line):
                    t_first = at - proc.started
                if ready(line):
                    t_ready = at - proc.started
        except EngineError as exc:
            raise RuntimeError(f"{subject.name}: not ready (timeout {timeout:g} s): {exc}") from None
        assert t_first is not None
        return t_first, t_ready


def _summary(samples: list[float]) -> dict[str, float]:
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def bench_startup(runs: int = DEFAULT_RUNS, engines: bool = True,
                  progress: bool = False) -> dict[str, Any]:
    """Time every subject ``runs`` times, interleaved (one run of each in turn, so that
    a change in the machine's load touches them all alike); returns the report."""
    subs = subjects(engines)
    samples: dict[str, list[tuple[float, float]]] = {s.name: [] for s in subs}
    load_before = load_average()
    for i in range(runs):
        for s in subs:
            samples[s.name].append(time_once(s))
        if progress:
            print(f"\rstartup: run {i + 1}/{runs}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    rows = []
    floor = statistics.median(t for t, _ in samples[subs[0].name])
    for s in subs:
        first = _summary([t for t, _ in samples[s.name]])
        ready = _summary([t for _, t in samples[s.name]])
        rows.append({"name": s.name, "protocol": s.protocol, "command": s.command,
                     "first_line": first, "ready": ready,
                     "first_line_vs_python": first["median"] / floor,
                     "ready_vs_python": ready["median"] / floor})
    return {"bench": "startup", "runs": runs, "machine": machine(),
            "load_before": load_before, "load_after": load_average(), "rows": rows,
            "missing": [n for n in ("sjeng", "fairy-stockfish") if engines and not find_engine(n)]}


def format_report(report: dict[str, Any]) -> str:
    """The report as a text table (milliseconds)."""
    m = report["machine"]
    out = [(f"Start-up: time from process start to the first protocol line and to ready "
           f"(UCI readyok, XBoard feature done=1); median of {report['runs']} runs "
           f"[min-max], ms"),
           (f"{m['processor']}, {m['cpus']} CPUs, Python {m['python']}; load average "
           f"before {report['load_before']}, after {report['load_after']}"), ""]
    head = f"{'engine':<24}{'first line':>22}{'x python':>10}{'ready':>22}{'x python':>10}"
    out += [head, "-" * len(head)]
    for r in report["rows"]:
        f, d = r["first_line"], r["ready"]
        out.append(f"{r['name']:<24}{_ms(f):>22}{r['first_line_vs_python']:>9.2f}x"
                   f"{_ms(d):>22}{r['ready_vs_python']:>9.2f}x")
    for name in report["missing"]:
        out.append(f"({name} is not installed: skipped)")
    return "\n".join(out)


def _ms(s: dict[str, float]) -> str:
    return f"{1000 * s['median']:.0f} [{1000 * s['min']:.0f}-{1000 * s['max']:.0f}]"
