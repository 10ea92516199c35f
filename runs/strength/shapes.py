"""The fit of search.strength (a line that may start flat: a hinge) against a straight
line, through a variant's node rungs in the candidate ladder, both checked against the
held-out rungs and the node budgets the candidate checks played (issue 63, RESULTS.md,
"Strength on request"):

    python runs/strength/shapes.py [VARIANT]

The hinge is ``elo = a + b * max(log2(nodes), knee)`` by games-weighted least squares
(search.strength.node_fit).
"""

import json
import sys
from pathlib import Path

from search import strength

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "runs/strength/ladder.json"


def main() -> None:
    variant = sys.argv[1] if len(sys.argv) > 1 else "crazyhouse"
    line = strength.node_fit(variant, LADDER, hinge=False)
    fit = strength.node_fit(variant, LADDER)
    h = fit.elo
    print(f"{variant}: {fit.rungs} node rungs")
    print(f"line: {line.slope:.1f} Elo a doubling, rungs +-{line.residual_sd:.0f} about it")
    print(f"hinge: {fit.slope:.1f} Elo a doubling above 2^{fit.knee:.2f} nodes, "
          f"{fit.floor:.0f} below; rungs +-{fit.residual_sd:.0f} about it; "
          f"range {fit.floor:.0f}..{h(fit.hi):.0f}")
    held = json.loads((ROOT / f"runs/ladders/{variant}-nodes-holdout/ladder.json").read_text())
    for r in (r for lad in held["ladders"] for r in lad["rungs"]):
        n = r["level"]["nodes"]
        print(f"held-out {n} nodes {r['elo']:.0f}: line {line.elo(n):.0f} "
              f"({r['elo'] - line.elo(n):+.0f}), hinge {h(n):.0f} ({r['elo'] - h(n):+.0f})")
    # The candidate checks: the budget each played (the line of their day) and its rating,
    # the request plus the Elo difference measured against Fairy-Stockfish at it.
    for n, elo in ((192, 1450), (2815, 1650), (41285, 1850)):
        folder = ROOT / f"runs/strength/check-candidate/{variant}-{elo}"
        if folder.exists():
            rated = elo + json.loads((folder / "summary.json").read_text())["elo"]
            print(f"check at {elo}, {n} nodes: rated {rated:.0f}; line {line.elo(n):.0f}, "
                  f"hinge {h(n):.0f}")


if __name__ == "__main__":
    main()
