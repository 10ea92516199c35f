"""Pins of the engine's outputs, to hold the move into rooms to identical results: the
alpha-beta searches (moves, scores, PVs, nodes, leaf values) in every variant, plain and
selective, the heuristic prior at depths 0 and 1 (moves, scores, probabilities, values)
and the MCTS (move, visits, PV, Q). Run from a checkout, before or after the move:

    PYTHONPATH=$PWD python runs/bench/rooms/pins.py OUT.json
"""
import json
import sys

import numpy as np

from search import Engine
from tdleaf.bench.positions import positions
from tests.helpers_search import random_positions
from variants.spec import VARIANTS, rules_family

try:
    from search.mcts.driver import MCTS
    from search.mcts.prior import HeuristicPrior
except ModuleNotFoundError:              # a checkout from before the rooms
    from search.mcts import MCTS  # type: ignore[no-redef]
    from search.prior import HeuristicPrior  # type: ignore[no-redef]


def fens_of(v):
    fens = [p.fen for p in positions(rules_family(v))][::2][:5]
    return fens or list(random_positions(v, "pins", 5, lo=4, hi=40))


def main(path):
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
                            "leaf": None if r.leaf_score is None
                            else round(float(r.leaf_score), 9)})
        for depth in (0, 1):
            arr, _ = HeuristicPrior(v, None, depth=depth).batch(fens)
            n = len(fens)
            out.append({"v": v, "prior_depth": depth, "n": arr.n.tolist(),
                        "moves": [arr.moves[i, :arr.n[i]].tolist() for i in range(n)],
                        "scores": [np.round(arr.scores[i, :arr.n[i]], 9).tolist()
                                   for i in range(n)],
                        "probs": [np.round(arr.probs[i, :arr.n[i]], 12).tolist()
                                  for i in range(n)],
                        "values": np.round(arr.values, 12).tolist()})
    for v in VARIANTS:
        r = MCTS(v).search(fens_of(v)[-1], playouts=300)
        out.append({"v": v, "mcts": r.move, "visits": r.visits, "pv": r.pv,
                    "q": {k: round(x, 9) for k, x in r.q.items()}})
    with open(path, "w") as fh:
        json.dump(out, fh, indent=0)
    print(len(out), "pins")


if __name__ == "__main__":
    main(sys.argv[1])
