"""Small helpers shared by the `tdleaf` subcommands: the user-error type, the argument
parser that reports errors on one line, argument types and number formatting."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn


class CliError(Exception):
    """A mistake in the user's input: reported as ``tdleaf: error: ...``, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors raise :class:`CliError`, so that
    :func:`tdleaf.cli.main` reports every usage error the same way, on one line."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.prog} --help')")


def depth_arg(text: str) -> int:
    """argparse type of a perft depth: an integer >= 0."""
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be an integer, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth must be >= 0, got {depth}")
    return depth


def one_line(message: object) -> str:
    """``message`` as a single line of text."""
    return " ".join(str(message).split())


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


def print_json(obj: Any) -> None:
    """Print one JSON object on stdout."""
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


def emit_report(report: dict[str, Any], as_json: bool, fmt: Any) -> None:
    """Print a benchmark report: one JSON object (warnings to stderr), or ``fmt(report)``."""
    if as_json:
        print_json(report)
        for w in report.get("warnings", []):
            print(f"tdleaf: warning: {w}", file=sys.stderr)
    else:
        print(fmt(report))
