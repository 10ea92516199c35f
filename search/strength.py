"""Strength limits for a requested Elo (``UCI_LimitStrength`` / ``UCI_Elo``), looked up in
the measured strength ladder ``search/ladder.json``.

``tdleaf ladder --save`` writes that file: per variant, the search limits it measured
(``{"depth": d}``, ``{"nodes": n}`` or ``{"movetime": s}``) with the rating each earned
against Fairy-Stockfish at its own ``UCI_LimitStrength`` settings. The ratings are on
Fairy-Stockfish's ``UCI_Elo`` scale (see the README, "Strength ladder"): nominal Elo,
anchored only through Stockfish's own calibration of that option for chess.

This module reads data only: it imports nothing of ``tdleaf`` (the packages depend one
way, variants <- search <- tdleaf).

Only depth and node limits serve a requested Elo: they do not depend on the machine;
a time limit's strength does, so time rungs are in the file for information only.
Strength is not interpolated between measured limits (a node limit between two depths
has not been measured, and depth and node limits do not scale alike); a requested Elo
gets the strongest measured limit rated at or below it, or the weakest limit when it is
below them all.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

LADDER_FILE = Path(__file__).resolve().parent / "ladder.json"

#: Limit kinds that may serve a requested Elo.
LOOKUP_KINDS = ("depth", "nodes")

#: Variants without a ladder of their own that use another variant's: suicide and
#: antichess are giveaway with other castling and stalemate rules.
FALLBACK = {"suicide": "giveaway", "antichess": "giveaway"}


class StrengthError(ValueError):
    """No measured strength for that variant."""


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def load_ladder(path: str | Path | None = None) -> dict[str, Any]:
    """The ladder file as saved (an empty ladder when there is no file)."""
    p = Path(path) if path is not None else LADDER_FILE
    if not p.exists():
        return {"variants": {}}
    return _load(str(p), p.stat().st_mtime)


def _canonical(variant: str) -> str:
    from variants import canonical_variant
    return canonical_variant(variant)


def ladder_variant(variant: str, path: str | Path | None = None) -> str | None:
    """The variant whose ladder serves ``variant`` (itself, a :data:`FALLBACK`, or None)."""
    v = _canonical(variant)
    for name in (v, FALLBACK.get(v)):
        if name and levels(name, path, fallback=False):
            return name
    return None


def levels(variant: str, path: str | Path | None = None, *, fallback: bool = True,
           kinds: tuple[str, ...] = LOOKUP_KINDS) -> list[dict[str, Any]]:
    """The measured levels of ``variant`` that may serve a requested Elo, weakest first:
    each ``{"level": {"depth": 3}, "elo": 1612.0, ...}`` with a finite rating. Of one
    kind, a level rated no higher than a cheaper one (a smaller depth or node count) is
    left out: measurement noise must not make a higher Elo search less deeply."""
    v = _canonical(variant)
    table = load_ladder(path).get("variants", {})
    entries = table.get(v)
    if not entries and fallback and v in FALLBACK:
        entries = table.get(FALLBACK[v])
    out = []
    for e in entries or []:
        level = e.get("level", {})
        elo = e.get("elo")
        if (len(level) == 1 and next(iter(level)) in kinds and isinstance(elo, (int, float))
                and math.isfinite(elo)):
            out.append(e)
    kept = []
    for kind in kinds:
        best = -math.inf
        for e in sorted((e for e in out if kind in e["level"]), key=lambda e: e["level"][kind]):
            if e["elo"] > best:
                kept.append(e)
                best = e["elo"]
    return sorted(kept, key=lambda e: e["elo"])


def has_ladder(variant: str, path: str | Path | None = None) -> bool:
    """Whether :func:`limits_for_elo` can serve ``variant``."""
    return bool(levels(variant, path))


def elo_range(variant: str, path: str | Path | None = None) -> tuple[int, int]:
    """The lowest and highest rating among ``variant``'s measured depth and node limits,
    rounded to whole Elo: the range a UCI front end may offer as ``UCI_Elo``."""
    found = levels(variant, path)
    if not found:
        raise StrengthError(f"no strength ladder for {variant} in {path or LADDER_FILE}")
    return int(math.floor(found[0]["elo"])), int(math.ceil(found[-1]["elo"]))


def limits_for_elo(variant: str, elo: float, path: str | Path | None = None) -> dict[str, int]:
    """The search limit for a requested Elo: the strongest measured depth or node limit
    rated at or below ``elo`` (the weakest one when ``elo`` is below them all), e.g.
    ``{"depth": 3}`` or ``{"nodes": 2000}``. Non-decreasing in ``elo``."""
    found = levels(variant, path)
    if not found:
        raise StrengthError(f"no strength ladder for {variant} in {path or LADDER_FILE}")
    chosen = found[0]
    for e in found:
        if e["elo"] <= elo:
            chosen = e
    kind, value = next(iter(chosen["level"].items()))
    return {kind: int(value)}


def ladder_search(variant: str, path: str | Path | None = None) -> str:
    """The search mode (``selective`` or ``plain``) the variant's ladder was measured
    with, which a strength-limited engine must play to be worth the ladder's Elo."""
    name = ladder_variant(variant, path)
    if name is None:
        raise StrengthError(f"no strength ladder for {variant} in {path or LADDER_FILE}")
    source = load_ladder(path).get("sources", {}).get(name, {})
    return str(source.get("search", "selective"))


def offered_range(path: str | Path | None = None) -> tuple[int, int]:
    """The UCI_Elo range to declare once for every variant: from the lowest to the
    highest measured rating over all ladders (a variant serves what it has)."""
    los, his = [], []
    for name in load_ladder(path).get("variants", {}):
        try:
            lo, hi = elo_range(name, path)
        except StrengthError:
            continue
        los.append(lo)
        his.append(hi)
    return (min(los), max(his)) if los else (1350, 2850)
