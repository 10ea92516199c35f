"""The fit of search.strength (a line that may start flat: a hinge) against a straight
line, through a variant's node rungs in the candidate ladder, both checked against the
held-out rungs and the node budgets the candidate checks played (issue 63, RESULTS.md,
"Strength on request"):

    python runs/strength/shapes.py [VARIANT]

The hinge is ``elo = a + b * max(log2(nodes), knee)`` by games-weighted least squares
(search.strength.node_fit).
"""

import json
import math
import sys
from pathlib import Path

from search import strength

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "runs/strength/ladder.json"


def main() -> None:
    variant = sys.argv[1] if len(sys.argv) > 1 else "crazyhouse"
    rungs = [e for e in json.loads(LADDER.read_text())["variants"][variant]
             if "nodes" in e["level"] and "bound" not in e]
    xs = [math.log2(r["level"]["nodes"]) for r in rungs]
    a, b, msr = strength._weighted_line(xs, [r["elo"] for r in rungs],
                                        [r["games"] for r in rungs])
    line = strength.NodeFit(a, b, min(xs), 1, 1, len(rungs), math.sqrt(msr))
    fit = strength.node_fit(variant, LADDER)
    h = fit.elo
    params = {"slope": fit.slope, "knee": fit.knee, "residual_sd": fit.residual_sd}
    print(f"{variant}: {len(rungs)} node rungs")
    print(f"line: {line.slope:.1f} Elo a doubling, rungs +-{line.residual_sd:.0f} about it")
    print(f"hinge: {params['slope']:.1f} Elo a doubling above 2^{params['knee']:.2f} nodes, "
          f"{h(1):.0f} below; rungs +-{params['residual_sd']:.0f} about it; "
          f"range {h(1):.0f}..{h(max(r['level']['nodes'] for r in rungs)):.0f}")
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
