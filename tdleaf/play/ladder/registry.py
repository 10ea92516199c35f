"""The reference engines a ladder plays, and which ladders a command measures: each
variant's engines come from the variant spec (:attr:`variants.spec.Variant.engines`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from search.protocol import strength
from variants import canonical_variant
from variants.spec import SPECS

from .config import LadderError


@dataclass(frozen=True)
class KnownEngine:
    """A reference engine of the ladder: its name, player spec, variants and default
    move limit."""

    name: str
    spec: str
    variants: tuple[str, ...]
    limits: dict[str, Any]          # its default move limit in the ladder
    limit_text: str


def _reference_of(spec: str) -> tuple[str, ...]:
    """The variants whose reference engines (:attr:`variants.spec.Variant.engines`)
    include the player spec ``spec``."""
    return tuple(name for name, v in SPECS.items() if spec in v.engines)


KNOWN_ENGINES: dict[str, KnownEngine] = {
    "fairy-stockfish": KnownEngine("fairy-stockfish", "uci:fairy-stockfish",
                                   _reference_of("uci:fairy-stockfish"), {"movetime": 0.1},
                                   "0.1 s a move"),
    "sjeng": KnownEngine("sjeng", "xboard:sjeng", _reference_of("xboard:sjeng"), {"depth": 6},
                         "depth 6 (sd 6)"),
    "fairy-stockfish-wasm": KnownEngine("fairy-stockfish-wasm", "uci:fairy-stockfish-wasm",
                                        _reference_of("uci:fairy-stockfish-wasm"),
                                        {"movetime": 0.1}, "0.1 s a move"),
}
ENGINE_ALIASES = {"fsf": "fairy-stockfish", "wasm": "fairy-stockfish-wasm",
                  "fsf-wasm": "fairy-stockfish-wasm"}
_ENGINE_OF_SPEC = {k.spec: name for name, k in KNOWN_ENGINES.items()}
#: Every ladder of the reference engines, in order: (variant, engine), each variant's
#: reference engines in the spec's order.
DEFAULT_PLAN: list[tuple[str, str]] = [(name, _ENGINE_OF_SPEC[e]) for name, v in SPECS.items()
                                       for e in v.engines]
#: The variants with reference engines of their own.
LADDER_VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(v for v, _ in DEFAULT_PLAN))


#: The engines that rate a rung on the UCI_Elo scale, what the shipped ladder holds
#: (Sjeng has no strength setting: its figures are differences to Sjeng).
ELO_SCALE_ENGINES = ("fairy-stockfish", "fairy-stockfish-wasm")


def remeasure_plan(variants: list[str] | None = None) -> list[tuple[str, str]]:
    """The ladders that re-measure the shipped ``ladder.json``: each variant (default:
    every ladder variant that has one) against its UCI_Elo-scale engine."""
    out = []
    for v in variants or LADDER_VARIANTS:
        try:
            v = canonical_variant(v)
        except ValueError as exc:
            raise LadderError(str(exc)) from None
        found = [(v, e) for e in engines_for(v) if e in ELO_SCALE_ENGINES]
        if not found and variants:
            fallback = strength.FALLBACK.get(v)
            raise LadderError(f"{v} has no ladder on the UCI_Elo scale (reference engines: "
                              f"{', '.join(engines_for(v)) or 'none'})"
                              + (f"; its UCI_Elo uses the {fallback} ladder" if fallback else ""))
        out += found
    return out


def engines_for(variant: str) -> list[str]:
    """The reference engines of ``variant`` (empty when it has none)."""
    return [e for v, e in DEFAULT_PLAN if v == variant]


def resolve_engine(name: str) -> tuple[str, str]:
    """``(label, spec)`` of a known engine name or alias, or of a uci:/xboard: spec."""
    key = ENGINE_ALIASES.get(name.lower(), name.lower())
    if key in KNOWN_ENGINES:
        return key, KNOWN_ENGINES[key].spec
    if name.startswith(("uci:", "xboard:")):
        label = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.basename(name.split(":", 1)[1].split()[0]))
        return label or "engine", name
    raise LadderError(f"unknown engine {name!r}: one of {', '.join(KNOWN_ENGINES)} "
                      f"(or fsf, wasm), or uci:COMMAND / xboard:COMMAND")


def plan_ladders(variants: list[str], engine: str | None) -> list[tuple[str, str]]:
    """The (variant, engine) ladders asked: every default one of each variant, or the
    variants against one engine."""
    out = []
    for v in variants:
        try:
            v = canonical_variant(v)
        except ValueError as exc:
            raise LadderError(str(exc)) from None
        if engine is None:
            found = engines_for(v)
            if not found:
                raise LadderError(f"no reference engine for {v}: the ladder's are "
                                  + ", ".join(f"{e} ({', '.join(k.variants)})"
                                              for e, k in KNOWN_ENGINES.items())
                                  + "; name one with --engine")
            out += [(v, e) for e in found]
        else:
            out.append((v, engine))
    return out


def check_saveable(plan: list[tuple[str, str]]) -> None:
    """:class:`LadderError` unless some ladder of ``plan`` is on the UCI_Elo scale (what
    ``--save`` writes): Sjeng's figures are differences to Sjeng, not ratings."""
    if not any(resolve_engine(e)[0] in ELO_SCALE_ENGINES or e.startswith("uci:")
               for _, e in plan):
        raise LadderError("--save: no ladder on the UCI_Elo scale to save (Sjeng's figures "
                          "are differences to Sjeng, not ratings)")
