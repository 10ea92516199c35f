"""Nodes at fixed depth with ``keep-offers`` off and on, per variant and search: the
table of README.md, from two pin files of pins.py (the second run with the bit).

    python runs/bench/keep-offers/summary.py after.json.gz on.json.gz
"""
import gzip
import json
import sys
from collections import defaultdict


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as fh:
        return json.load(fh)


def main(off_path, on_path):
    rows = defaultdict(lambda: [0, 0, 0, 0, 0])
    for off, on in zip(load(off_path), load(on_path), strict=True):
        assert (off["v"], off["config"], off["fen"]) == (on["v"], on["config"], on["fen"])
        r = rows[(off["v"], off["config"], off["depth"])]
        r[0] += off["nodes"]
        r[1] += on["nodes"]
        r[2] += off["move"] != on["move"]
        r[3] += off["score"] != on["score"]
        r[4] += 1
    print("| variant | search | depth | nodes off | nodes on | on/off | moves changed | scores changed |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (v, config, depth), (a, b, moves, scores, n) in rows.items():
        print(f"| {v} | {config} | {depth} | {a:,} | {b:,} | {b / a:.2f} | {moves}/{n} | {scores}/{n} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
