"""What the benchmarks share: the tdleaf command (external engines are found by
:mod:`tdleaf.play.engines`, where engine lookup lives), the machine description, CPU time of a
process, and number formatting for the tables."""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from importlib import metadata
from typing import Any


def tdleaf_command() -> list[str]:
    """The command that starts this installation's ``tdleaf`` (its venv's script first)."""
    beside = os.path.join(os.path.dirname(sys.executable), "tdleaf")
    exe = beside if os.access(beside, os.X_OK) else shutil.which("tdleaf")
    return [exe] if exe else [sys.executable, "-m", "tdleaf"]


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def package_version(dist: str) -> str | None:
    """Installed version of a distribution, or None."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    """What a benchmark report says about where it ran."""
    return {"platform": platform.platform(), "processor": cpu_model(),
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "numba": package_version("numba"), "chess": package_version("chess")}


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages, or None where the OS has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used so far (from /proc/<pid>/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def si(x: float | None) -> str:
    """A rate in three significant digits with a k/M/G suffix (``31.2M``); ``-`` for None."""
    if x is None:
        return "-"
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suffix}"
    return f"{x:.3g}"


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b``, or None when either is unknown or ``b`` is zero."""
    return None if a is None or not b else a / b


def times(r: float | None) -> str:
    """A ratio as ``12.3x``; ``-`` for None."""
    return "-" if r is None else f"{r:.3g}x"


def print_report(report: dict[str, Any], as_json: bool, fmt: Any) -> None:
    """Print a benchmark report: one JSON object (warnings to stderr), or ``fmt(report)``."""
    if as_json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
        for w in report.get("warnings", []):
            print(f"tdleaf: warning: {w}", file=sys.stderr)
    else:
        print(fmt(report))
