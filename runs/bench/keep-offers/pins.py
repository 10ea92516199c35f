"""Pins of the alpha-beta search at fixed depth (best move, score, PV, nodes, selective
depth) on the benchmark positions of chess, atomic, crazyhouse and the losing variants:
run from a checkout before and after a change to the search and compare the files
(``cmp``), or pass extra technique bits to see what a technique does to them.

    PYTHONPATH=$PWD python runs/bench/keep-offers/pins.py OUT.json [EXTRA_BITS]
"""
import json
import sys

from search import Engine
from search.alphabeta import negamax as ab
from search.alphabeta.engine import search_flags
from tdleaf.bench.positions import positions
from tdleaf.bench.selective import bench_positions
from variants.spec import rules_family

VARIANTS = ("chess", "atomic", "crazyhouse", "suicide", "giveaway", "antichess")
#: The compulsory-capture techniques outside the default set (all of them on).
FORCED = ab.F_ONLY_MOVE | ab.F_FORCED_EXT | ab.F_FORCING_ORDER


def fens_of(v):
    """Five labelled positions and three random ones (12 random plies)."""
    return [p.fen for p in positions(rules_family(v))][::2][:5] + bench_positions(v, 3)


def configs(v, extra):
    """(name, flags, depth) of the searches pinned in ``v``."""
    out = [("selective", search_flags("selective", v) | extra, 5), ("plain", extra, 3)]
    if v in ("suicide", "giveaway", "antichess"):
        out.append(("selective+forced", search_flags("selective", v) | FORCED | extra, 6))
    return out


def main(path, extra=0):
    out = []
    for v in VARIANTS:
        for name, flags, depth in configs(v, extra):
            e = Engine(v, "traditional", hash_mb=8, flags=flags)
            for fen in fens_of(v):
                e.new_game()
                r = e.search(fen, depth=depth, leaf=False)
                out.append({"v": v, "config": name, "flags": flags, "depth": depth, "fen": fen,
                            "move": r.move, "score": r.score, "nodes": r.nodes,
                            "seldepth": r.seldepth, "pv": " ".join(r.pv)})
    with open(path, "w") as fh:
        json.dump(out, fh, indent=0)
    print(len(out), "pins")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
