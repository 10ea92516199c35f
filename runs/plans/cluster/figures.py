"""The figures docs/cluster.md's 64-core plan rests on, read from the evidence in runs/.

    python runs/plans/cluster/figures.py > runs/plans/cluster/figures.json

- ladder: every game of the 2026-11-29 re-measure (runs/ladders/remeasure), its seconds
  the sum of both sides' move times in the PGN comments (an engine thinks on one core,
  the two sides in turn: a game holds one core); a ladder's batches run one after the
  other, the games of a batch at once, so a ladder's wall time with one worker per game
  of a batch is the sum over its batches of their longest game.
- tables: the seconds per game of the shipped tables' self-play (runs/reference/<variant>/
  psq/run-*/history.csv, one worker per run on the 2-core machine) and their plies.
"""

from __future__ import annotations

import csv
import json
import re
import statistics
from pathlib import Path

from tdleaf.play.ladder import rung_batches

RUNS = Path(__file__).resolve().parents[2]
TIME = re.compile(r"\{[^}]*?([0-9.]+)s\}")


def _games(text: str) -> list[float]:
    """Seconds of each game of a PGN text (a batch's)."""
    return [sum(float(t) for t in TIME.findall(g)) for g in text.split("[Event ")[1:]]


def ladder() -> dict:
    out = {}
    for lad in sorted(p for p in (RUNS / "ladders" / "remeasure").iterdir() if p.is_dir()):
        games, seconds, wall = 0, 0.0, 0.0
        for _, batch in (b for rung in sorted(lad.glob("*/")) for b in rung_batches(rung)):
            g = _games(batch)
            games, seconds, wall = games + len(g), seconds + sum(g), wall + max(g, default=0.0)
        out[lad.name] = {"games": games, "game_hours": seconds / 3600,
                         "wall_hours_batch_workers": wall / 3600}
    return out


def tables() -> dict:
    out = {}
    for v in sorted(p.parent.name for p in (RUNS / "reference").glob("*/psq")):
        cfg = json.loads((RUNS / "reference" / v / "psq" / "config.json").read_text())["learn"]
        sec, plies = [], []
        for h in (RUNS / "reference" / v / "psq").glob("run-*/history.csv"):
            for row in csv.DictReader(h.open()):
                sec.append(float(row["seconds"]))
                plies.append(int(row["plies"]))
        out[v] = {"depth": cfg["depth"], "games": len(sec), "s_per_game": statistics.fmean(sec),
                  "plies_per_game": statistics.fmean(plies)}
    return out


if __name__ == "__main__":
    print(json.dumps({"ladder": ladder(), "tables": tables()}, indent=2))
