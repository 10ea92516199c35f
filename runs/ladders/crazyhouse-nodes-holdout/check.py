"""Issue 63: does the node fit hold on rungs it was not fitted on? The fit of
search.strength (rating against log2(nodes), games-weighted) through the node rungs of
runs/ladders/crazyhouse-nodes, against the held-out rungs measured here. Run from the
repository root: python runs/ladders/crazyhouse-nodes-holdout/check.py"""

import json
import math
from pathlib import Path

here = Path(__file__).parent
fitted = json.loads((here.parent / "crazyhouse-nodes" / "ladder.json").read_text())
held = json.loads((here / "ladder.json").read_text())


def rungs(data):
    return [r for lad in data["ladders"] for r in lad["rungs"] if "nodes" in r["level"]]


xs, ys, ws = [], [], []
for r in rungs(fitted):
    xs.append(math.log2(r["level"]["nodes"]))
    ys.append(r["elo"])
    ws.append(r["games"])
sw = sum(ws)
mx = sum(w * x for w, x in zip(ws, xs)) / sw
my = sum(w * y for w, y in zip(ws, ys)) / sw
slope = (sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys))
         / sum(w * (x - mx) ** 2 for w, x in zip(ws, xs)))
intercept = my - slope * mx
print(f"fit: elo = {intercept:.1f} + {slope:.1f} * log2(nodes), "
      f"{len(xs)} rungs, {sw} games")
for x, y in zip(xs, ys):
    print(f"  fitted rung {2 ** x:>7.0f} nodes: {y:7.1f}, line {intercept + slope * x:7.1f}")
out = []
for r in rungs(held):
    n = r["level"]["nodes"]
    line = intercept + slope * math.log2(n)
    lo, hi = r["elo_ci"]
    out.append({"nodes": n, "measured": r["elo"], "ci": [lo, hi], "games": r["games"],
                "fit": round(line, 1), "difference": round(r["elo"] - line, 1),
                "fit_in_ci": lo <= line <= hi, "within_50": abs(r["elo"] - line) <= 50})
    print(f"held-out {n} nodes: measured {r['elo']:.1f} [{lo:.1f}, {hi:.1f}] "
          f"({r['games']} games), fit {line:.1f}: difference {r['elo'] - line:+.1f}")
(here / "check.json").write_text(json.dumps({"slope": slope, "intercept": intercept,
                                             "held_out": out}, indent=1) + "\n")
