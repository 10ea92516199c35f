"""Pins of the engine's searches (moves, scores, PVs, nodes), prior outputs and MCTS
results, to hold a refactor to identical results: python scratch/pins.py OUT.json (run
with PYTHONPATH at the checkout to pin)."""
import json
import sys

import numpy as np

from search import Engine
from search.mcts.driver import MCTS
from search.mcts.prior import HeuristicPrior
from tdleaf.bench.positions import positions
from tests.helpers_search import random_positions
from variants.spec import VARIANTS, rules_family


def fens_of(v):
    fens = [p.fen for p in positions(rules_family(v))][::2][:5]
    return fens or list(random_positions(v, "pins", 5, lo=4, hi=40))


out = []
for v in VARIANTS:
    fens = fens_of(v)
    for weights, mode, depth in ((None, "selective", 5), ("traditional", "plain", 3),
                                 (None, "plain", 3)):
        e = Engine(v, weights, hash_mb=8, search=mode)
        for fen in fens:
            e.new_game()
            r = e.search(fen, depth=depth)
            out.append({"v": v, "w": weights, "mode": mode, "fen": fen, "move": r.move,
                        "score": r.score, "nodes": r.nodes, "pv": " ".join(r.pv),
                        "leaf": None if r.leaf_score is None else round(float(r.leaf_score), 9)})
    for depth in (0, 1):
        arr, _ = HeuristicPrior(v, None, depth=depth).batch(fens)
        out.append({"v": v, "prior_depth": depth, "n": arr.n.tolist(),
                    "moves": [arr.moves[i, :arr.n[i]].tolist() for i in range(len(fens))],
                    "scores": [np.round(arr.scores[i, :arr.n[i]], 9).tolist()
                               for i in range(len(fens))],
                    "probs": [np.round(arr.probs[i, :arr.n[i]], 12).tolist()
                              for i in range(len(fens))],
                    "values": np.round(arr.values, 12).tolist()})
for v in VARIANTS:
    r = MCTS(v).search(fens_of(v)[-1], playouts=300)
    out.append({"v": v, "mcts": r.move, "visits": r.visits, "pv": r.pv,
                "q": {k: round(x, 9) for k, x in r.q.items()}})
json.dump(out, open(sys.argv[1], "w"), indent=0)
print(len(out), "pins")
