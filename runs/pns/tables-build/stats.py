"""What the saved endgame tables hold: per set of rules, the materials, the positions,
the shares won and drawn for the side to move, and the longest distance in plies.

    python runs/pns/tables-build/stats.py FOLDER   # -> runs/pns/tables-build/summary.json
"""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from search.solve.endgame import INVALID  # an index that is no position

out = {}
for path in sorted(Path(sys.argv[1]).glob("rules*.npz")):
    with np.load(path) as saved:
        values = [saved[k][saved[k] != INVALID] for k in saved.files]
    v = np.concatenate(values)
    out[path.name] = {"materials": len(values), "positions": int(v.size), "bytes": path.stat().st_size,
                      "won": round(float((v > 0).mean()), 4), "drawn": round(float((v == 0).mean()), 4),
                      "lost": round(float((v < 0).mean()), 4), "longest_plies": int(np.abs(v).max()) - 1}
Path(__file__).with_name("summary.json").write_text(json.dumps(out, indent=1) + "\n")
print(json.dumps(out, indent=1))
