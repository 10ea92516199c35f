"""Print RESULTS.md's table of learning curves from the curve.json files that
``tdleaf curve`` writes: one row per result folder (learner and start), Elo against the
fixed opponent with its 95% interval at each snapshot (a folder's curve.json, or the curve
files given), and the CPU hours learning took to the last point.

    python tests/data/make_curves_table.py runs/curves/atomic-psq-*
    python tests/data/make_curves_table.py runs/curves/atomic-psq-*/curve-vs-shipped.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from plots import PlotError
from plots.curves import read_curve

LEARNERS = {"tdleaf": "TDLeaf", "treestrap-ab": "TreeStrap(ab)",
            "treestrap": "TreeStrap(minimax)", "rootstrap": "RootStrap"}


def rows(folders: list[Path]) -> list[str]:
    curves = []
    for f in folders:
        try:
            curves.append(read_curve(f))     # a folder's curve.json, or a curve file
        except PlotError as exc:             # not measured yet: no row
            print(f"skipped: {exc}", file=sys.stderr)
    counts = sorted({p["games"] for c in curves for p in c["points"]})
    out = ["| learner, start | " + " | ".join(f"{g:,} games" for g in counts)
           + " | CPU h to the last |", "|---|" + "---|" * (len(counts) + 1)]
    for c in curves:
        points = {p["games"]: p for p in c["points"]}
        cells = [f"{points[g]['elo']:+.0f} [{points[g]['elo_ci'][0]:+.0f}, "
                 f"{points[g]['elo_ci'][1]:+.0f}]" if g in points else "" for g in counts]
        last = max(points.values(), key=lambda p: p["games"])
        label = f"{LEARNERS.get(c['method'], c['method'])}, {c['init']}"
        out.append(f"| {label} | " + " | ".join(cells) + f" | {last['cpu_hours']:.2f} |")
    return out


if __name__ == "__main__":
    print("\n".join(rows([Path(a) for a in sys.argv[1:]])))
