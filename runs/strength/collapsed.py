"""Issue 63: the node rungs of the variants whose scale is flat above its bend, rated
again with every setting above the bend counted at the bend (where, measured, they play
alike) instead of at its nominal Elo: how much the flat part moved each rung's rating.
An analysis of the recorded games; the shipped ladder rates them at the nominal Elo.

    python runs/strength/collapsed.py > runs/strength/collapsed.txt
"""

import json
from pathlib import Path

from tdleaf.play.stats import fit_rating

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: The rungs analysed: racing kings' against the clock, atomic's at its node limit.
RUNGS = {"racingkings": "racingkings-nodes", "atomic": "atomic-nodes"}


def rate(opponents: list[dict], top: float) -> tuple[float, float, float]:
    """A rung's rating, with its 95% interval, from its games against each setting
    (``{"elo", "games", "points"}``), every setting rated at most ``top``."""
    elos, scores = [], []
    for o in opponents:
        elos += [min(o["elo"], top)] * o["games"]
        scores += [o["points"] / o["games"]] * o["games"]   # the fit needs only the sums
    fit = fit_rating(elos, scores)
    return fit.elo, fit.low, fit.high


def main() -> None:
    bends = json.loads((HERE / "bends.json").read_text())
    print("| variant | rung | games | above the bend | rating | rated with the flat part "
          "at the bend |\n|---|---|---|---|---|---|")
    for variant, stem in RUNGS.items():
        top = bends[variant]["bend"]
        for suffix in ("", "-holdout", "-holdout2"):
            record = ROOT / f"runs/ladders/{stem}{suffix}/ladder.json"
            if not record.exists():
                continue
            for r in json.loads(record.read_text())["ladders"][0]["rungs"]:
                above = sum(o["games"] for o in r["opponents"] if o["elo"] > top)
                elo, lo, hi = rate(r["opponents"], top)
                print(f"| {variant} (bend {top}) | {record.parent.name} {r['label']} "
                      f"| {r['games']} | {above} | {r['elo']:.0f} | {elo:.0f} "
                      f"[{lo:.0f}, {hi:.0f}] |")


if __name__ == "__main__":
    main()
