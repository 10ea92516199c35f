"""Which expert teaches best per CPU second: the top-1 on Fairy-Stockfish's moves (the
first 400 positions of runs/net/test-atomic.epd) of the MCTS led by the heuristic prior or
by the shipped network, at 200 and 800 playouts from a fresh tree
(tdleaf.net.measure.search_hits). Run from the repository root:

    python runs/iterate/experts/experts.py
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tdleaf.net.measure import search_hits
from tdleaf.play.labels import read_labelled

EXPERTS = (("prior:default", 800), ("net:search/data/networks/atomic.onnx", 200),
           ("net:search/data/networks/atomic.onnx", 800), ("prior:default", 200))


def main() -> None:
    rows = read_labelled(Path("runs/net/test-atomic.epd"))[:400]
    out = {}
    for guide, playouts in EXPERTS:
        t = time.process_time()
        hits, seconds = search_hits(guide, "atomic", playouts, rows)
        out[f"{guide}@{playouts}"] = {"top1": float(hits.mean()), "seconds": seconds,
                                      "cpu": time.process_time() - t}
        print(guide, playouts, out[f"{guide}@{playouts}"], flush=True)
    Path("runs/iterate/experts/atomic-400.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
