"""A line that may start flat (a hinge) against the straight line of search.strength, fitted
through a variant's node rungs in the candidate ladder, and both checked against the
held-out rungs and the node budgets the candidate checks played (issue 63, RESULTS.md,
"Strength on request"):

    python runs/strength/shapes.py [VARIANT]

The hinge is ``elo = a + b * max(log2(nodes), knee)`` by games-weighted least squares,
the knee on a grid of 0.05 doublings with at least three rungs at or above it.
"""

import json
import math
import sys
from pathlib import Path

from search import strength

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "runs/strength/ladder.json"


def weighted_line(xs, ys, ws):
    sw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs)) / sw
    my = sum(w * y for w, y in zip(ws, ys)) / sw
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs))
    if sxx <= 1e-12:
        return None
    b = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys)) / sxx
    a = my - b * mx
    return a, b, sum(w * (y - a - b * x) ** 2 for w, x, y in zip(ws, xs, ys)) / sw


def hinge(rungs):
    xs = [math.log2(r["level"]["nodes"]) for r in rungs]
    ys = [r["elo"] for r in rungs]
    ws = [r["games"] for r in rungs]
    best = None
    for step in range(int((sorted(xs)[-3] - min(xs)) / 0.05 + 1e-9) + 1):
        knee = min(xs) + 0.05 * step
        fit = weighted_line([max(x, knee) for x in xs], ys, ws)
        if fit and fit[1] > 0 and (best is None or fit[2] < best[2]):
            best = (*fit, knee)
    a, b, msr, knee = best
    return (lambda n: a + b * max(math.log2(n), knee)), {
        "intercept": a, "slope": b, "knee": knee, "residual_sd": math.sqrt(msr)}


def main() -> None:
    variant = sys.argv[1] if len(sys.argv) > 1 else "crazyhouse"
    rungs = [e for e in json.loads(LADDER.read_text())["variants"][variant]
             if "nodes" in e["level"] and "bound" not in e]
    line = strength.node_fit(variant, LADDER)
    h, params = hinge(rungs)
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
