"""Print RESULTS.md's table of learning curves from the curve.json files that
``tdleaf curve`` writes: one row per result folder (learner and start), Elo against the
fixed opponent with its 95% interval at each snapshot (a folder's curve.json, or the curve
files given), and the CPU hours learning took to the last point.

    python tests/data/make_curves_table.py runs/curves/atomic-psq-*
    python tests/data/make_curves_table.py runs/curves/atomic-psq-*/curve-vs-shipped.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

LEARNERS = {"tdleaf": "TDLeaf", "treestrap-ab": "TreeStrap(ab)",
            "treestrap": "TreeStrap(minimax)", "rootstrap": "RootStrap"}


def rows(folders: list[Path]) -> list[str]:
    files = [f if f.is_file() else f / "curve.json" for f in folders]
    curves = [json.loads(f.read_text()) for f in files if f.exists()]
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
