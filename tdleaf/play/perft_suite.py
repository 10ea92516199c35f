"""Perft suites (``tdleaf perft --epd``): EPD files whose positions list the leaf counts
they must have, ``FEN ;D1 20 ;D2 400 ;D3 8902``, checked against the numba rules."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tdleaf.play.epd import EpdError, read_epd

_DEPTH = re.compile(r"^[Dd](\d+)$")


@dataclass
class SuiteEntry:
    """One position of a perft suite: its line, its FEN and ``(depth, expected leaves)``."""

    line: int
    fen: str
    depths: list[tuple[int, int]] = field(default_factory=list)


def read_suite(path: str | os.PathLike[str]) -> list[SuiteEntry]:
    """The positions of a perft suite; :class:`~tdleaf.play.epd.EpdError` naming the file
    and line of a line without ``;D<depth> <nodes>`` operations. FENs are not checked
    here (:func:`check_positions` does)."""
    entries = []
    for e in read_epd(path):
        entry = SuiteEntry(e.line, e.fen)
        for opcode, operand in e.operations:
            m = _DEPTH.match(opcode)
            if not m or not operand.isdigit():
                raise EpdError(f"{path}:{e.line}: malformed EPD line: expected "
                               f"';D<depth> <nodes>', got {f';{opcode} {operand}'!r}")
            entry.depths.append((int(m.group(1)), int(operand)))
        if not entry.depths:
            raise EpdError(f"{path}:{e.line}: malformed EPD line: no ';D<depth> <nodes>' fields")
        entries.append(entry)
    if not entries:
        raise EpdError(f"{path}: no positions in EPD file")
    return entries


def check_positions(variant: str, entries: list[SuiteEntry], source: str,
                    strict: bool = False) -> list[str]:
    """Check every FEN of a suite with the rules: a position that cannot be played (or,
    with ``strict``, one python-chess calls impossible) raises
    :class:`~tdleaf.play.epd.EpdError` naming ``source`` and the line; returns a
    warning for each position that is impossible but playable."""
    import variants

    warnings = []
    for e in entries:
        try:
            pos = variants.Position.from_fen(e.fen, variant, strict=strict, warn=False)
        except variants.VariantError as exc:
            raise EpdError(f"{source}:{e.line}: {exc}") from None
        if pos.problems:
            warnings.append(f"{source}:{e.line}: {pos.warning}")
    return warnings


def suite_checks(entries: list[SuiteEntry], max_depth: int | None = None,
                 ) -> list[tuple[SuiteEntry, int, int]]:
    """The ``(entry, depth, expected)`` checks of a suite, up to ``max_depth``."""
    return [(e, d, n) for e in entries for d, n in e.depths
            if max_depth is None or d <= max_depth]


def run_suite(variant: str, entries: list[SuiteEntry], max_depth: int | None = None,
              on_check: Callable[[SuiteEntry, dict[str, Any]], None] | None = None,
              ) -> dict[str, Any]:
    """Count every ``(FEN, depth)`` of a suite (up to ``max_depth``) and return the
    JSON-ready report; ``on_check`` sees each check's result as it comes."""
    import variants

    variants.perft(variant, None, 1)  # load the compiled code before timing
    results: list[dict[str, Any]] = []
    for e, depth, expected in suite_checks(entries, max_depth):
        t0 = time.perf_counter()
        nodes = variants.perft(variant, e.fen, depth, warn=False)
        seconds = time.perf_counter() - t0
        results.append({"fen": e.fen, "depth": depth, "expected": expected, "nodes": nodes,
                        "ok": nodes == expected, "seconds": seconds})
        if on_check is not None:
            on_check(e, results[-1])
    failed = sum(not r["ok"] for r in results)
    return {"variant": variant, "positions": results, "passed": len(results) - failed,
            "failed": failed, "nodes": sum(r["nodes"] for r in results),
            "seconds": sum(r["seconds"] for r in results)}
