"""Print RESULTS.md's table of learnt piece values: lichess's eight variants and the
report's suicide, each from its material reference experiment
(runs/reference/<variant>/material/summary.json: the mean over runs, normalised by the
spec's rule, with the standard deviation over runs on the same scale), beside the
multi-variant Stockfish's values where the ``stockfish`` value set has them (normalised by
the same rule). Variants whose experiment has not finished are listed as such.

    python tests/data/make_values_table.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from search.layout import PIECES, VALUE_SETS, WeightsError, value_set
from variants import spec
from variants.normalise import learnt_pieces

STOCKFISH = "stockfish"


def _variants() -> list[str]:
    """lichess's variants (the spec's ``lichess`` key), then suicide, as the report had."""
    names = [v.name for v in spec.SPECS.values() if v.lichess]
    return names + ["suicide"]


def _cells(values: dict[str, float], std: dict[str, float] | None, pieces: str) -> list[str]:
    """P N B R Q K cells: a dash for a piece without a learnt value in the variant (the
    king outside the losing variants, racing kings' pawn)."""
    out = []
    for p in "PNBRQK":
        if p not in pieces:
            out.append("\u2014")
        elif p not in values:
            out.append("")
        elif std is None:
            out.append(f"{values[p]:.2f}")
        else:
            out.append(f"{values[p]:.2f} \u00b1 {std[p]:.2f}")
    return out


def _stockfish(variant: str, black: bool) -> dict[str, float] | None:
    if STOCKFISH not in VALUE_SETS:
        return None
    try:
        w = value_set(STOCKFISH, variant)
    except WeightsError:
        return None
    at = 396 if black else 0          # material_black where the colours differ
    raw = {p: float(w.w[at + i]) for i, p in enumerate(PIECES)}
    piece, target = spec.get(variant).normalisation(black)
    return {p: v * target / raw[piece] for p, v in raw.items()}


def rows() -> list[str]:
    out = [("| variant | normalised so that | P | N | B | R | Q | K | multi-variant Stockfish "
            "(P N B R Q K, where learnt) |"), "|---|---|---|---|---|---|---|---|---|"]
    for name in _variants():
        v = spec.get(name)
        path = ROOT / "runs" / "reference" / name / "material" / "summary.json"
        parts = [("", False)] + ([(" (Black)", True)] if v.normalise_black else [])
        for who, black in parts:
            piece, target = v.normalisation(black)
            sf = _stockfish(name, black)
            sf_text = (" ".join(f"{sf[p]:.2f}" for p in learnt_pieces(name)) if sf else "\u2014")
            label = f"{name}{who}"
            if not path.exists():
                out.append(f"| {label} | {piece} = {target:g} | not learnt yet |||||| {sf_text} |")
                continue
            summary = json.loads(path.read_text())
            part = summary["black"] if black else summary
            view = part["normalisation"]["view"]
            values, std = part["normalised"][view], part["normalised_std"][view]
            cells = _cells(values, std, learnt_pieces(name))
            runs = summary["runs"]
            depth = json.loads((path.parent / "config.json").read_text())["learn"]["depth"]
            out.append(f"| {label} ({runs} runs, depth {depth}) | {piece} = {target:g} | "
                       + " | ".join(cells) + f" | {sf_text} |")
    return out


if __name__ == "__main__":
    print("\n".join(rows()))
