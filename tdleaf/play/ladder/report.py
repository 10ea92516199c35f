"""A ladder's results in words: ``ladder.md``'s tables beside ``ladder.json``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from search.files import write_json, write_text

from .config import engine_limit_text, from_json_number


def write_ladder_files(out: Path, data: dict[str, Any]) -> None:
    """Write a ladder's results (:func:`~tdleaf.play.ladder.measure.results_json`) as
    ``out/ladder.json`` and its tables as ``out/ladder.md``."""
    write_json(out / "ladder.json", data, indent=2)
    write_text(out / "ladder.md", markdown(data))


def _fmt(x: Any, signed: bool = False) -> str:
    """A rating (or with ``signed`` an Elo difference) of ``ladder.json`` for a table."""
    v = from_json_number(x)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return f"{v:+.0f}" if signed else f"{v:.0f}"


def markdown(data: dict[str, Any]) -> str:
    """The ladder tables (one per variant and engine) as Markdown."""
    adj = data["adjudication"]
    lines = ["# tdleaf strength ladder", "",
             f"tdleaf `{data['player']}`, {data['games_per_rung']} games a rung in batches of "
             f"{data['batch']} (one opening, both colours), {data['random_plies']} random "
             f"opening plies (seed {data['seed']}); draw at {adj['max_plies']} plies"
             + (f", resign after {adj['resign_moves']} moves both agree on "
                f"{adj['resign_score']:g} pawns" if adj["resign_moves"] else "")
             + f". Measured {data['date']}."]
    for lad in data["ladders"]:
        rel = lad["scale"] != "uci_elo"
        head = (f"Elo vs {lad['engine']}" if rel else "rating (UCI_Elo)")
        lines += ["", (f"## {lad['variant']} against {lad['engine']} "
                      f"({engine_limit_text(lad['engine_limits'])})"), "",
                  f"Scale: {lad['scale_description']}.", "",
                  f"| tdleaf | games | +W -L =D | score | {head} | 95% interval | opponents |",
                  "|---|---|---|---|---|---|---|"]
        any_extra = bounds = False
        for r in lad["rungs"]:
            lo, hi = r["elo_ci"]
            opp = ", ".join(f"{o['setting'].replace('UCI_Elo ', '').replace('Skill Level ', 'skill ')}"
                            f" {o['points']:g}/{o['games']}" for o in r["opponents"]) if not rel else "-"
            mark = " *" if r.get("extrapolated") else ""
            any_extra = any_extra or bool(mark)
            if r.get("bound"):
                mark += f" ({r['bound']} bound)"
                bounds = True
            score = f"{100 * r['score']:.0f}%" if r["score"] is not None else "-"
            lines.append(f"| {r['label']} | {r['games']} | +{r['wins']} -{r['losses']} ={r['draws']} "
                         f"| {score} | {_fmt(r['elo'], rel)}{mark} | [{_fmt(lo, rel)}, {_fmt(hi, rel)}] "
                         f"| {opp} |")
        if any_extra:
            lines += ["", ("\\* some of its games were against settings below UCI_Elo 1347 "
                          "(negative Skill Levels), whose Elo is Fairy-Stockfish's extrapolation, "
                          "not a calibration.")]
        if bounds:
            lines += ["", ("(lower bound): most of its games were against the scale's strongest "
                          "setting, and it scored above it: it is at least that strong, and its "
                          "figure extrapolates past the scale; (upper bound) likewise at the "
                          "bottom. UCI_Elo does not map to a bound.")]
    return "\n".join(lines) + "\n"
