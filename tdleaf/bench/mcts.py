"""``tdleaf bench mcts``: playouts per second of the MCTS (:mod:`search.mcts.driver`), against the
alpha-beta default's nodes per second on the same positions.

On the first ``--positions`` labelled positions of a variant (``search/data/
prior_<variant>.epd``), each searched afresh (a new tree) with ``--playouts`` playouts:

- ``uniform``: the trivial evaluator (a uniform policy and value 0, compiled), so that
  what is timed is the tree's own work: selection, expansion (a node's legal moves are
  generated when it is made), backup; reported as microseconds a playout;
- ``prior``: the heuristic prior of the variant's default evaluation, one leaf a call;
- ``network``: with ``--net`` (an ONNX file or ``shipped``), leaves in batches of 8 with
  a virtual loss of 3, the network on ``--threads`` threads;

and the alpha-beta default (the selective search, the variant's default evaluation) at
``--depth`` on the same positions, one search each: its nodes per second are the
reference, and each MCTS row is also given as playouts per alpha-beta node. The runs
alternate over ``--rounds`` rounds; the fastest round of each counts.
"""

from __future__ import annotations

import time
from typing import Any

POSITIONS = 20
PLAYOUTS = 2000
DEPTH = 5
ROUNDS = 3


def _searchers(variant: str, net: str | None, threads: int) -> dict[str, Any]:
    from search.mcts.driver import MCTS, UNIFORM
    out: dict[str, Any] = {
        "uniform": lambda: MCTS(variant, UNIFORM),
        "prior": lambda: MCTS(variant),
    }
    if net is not None:
        from search.mcts.network import open_network
        network = open_network(net, variant, threads=threads)
        out["network"] = lambda: MCTS(variant, network)      # batches of NET_BATCH
    return out


def bench_mcts(variant: str, positions: int = POSITIONS, playouts: int = PLAYOUTS,
               depth: int = DEPTH, net: str | None = None, threads: int = 1,
               rounds: int = ROUNDS) -> dict[str, Any]:
    """Playouts/s of each MCTS row and the alpha-beta default's nodes/s, best round each."""
    from search import Engine

    from ..play.labels import data_path, read_labelled

    fens = [r.fen for r in read_labelled(data_path(variant))][:positions]
    makers = _searchers(variant, net, threads)
    engine = Engine(variant, None, hash_mb=16, search="selective")
    engine.load_compiled()
    for make in makers.values():             # compile or load outside the timing
        make().search(fens[0], playouts=16)
    engine.search(fens[0], depth=2, leaf=False)
    best: dict[str, float] = {}
    done: dict[str, int] = {}
    for r in range(rounds):
        names = list(makers) + ["alphabeta"]
        for name in (names if r % 2 == 0 else names[::-1]):
            count, t0 = 0, time.perf_counter()
            for fen in fens:
                if name == "alphabeta":
                    engine.new_game(0)
                    count += engine.search(fen, depth=depth, leaf=False).nodes
                else:
                    count += makers[name]().search(fen, playouts=playouts).playouts
            rate = count / (time.perf_counter() - t0)
            best[name], done[name] = max(best.get(name, 0.0), rate), count
    ab = best["alphabeta"]
    rows = {name: {"playouts_per_s": best[name], "us_per_playout": 1e6 / best[name],
                   "playouts_per_alphabeta_node": best[name] / ab, "playouts": done[name]}
            for name in makers}
    return {"variant": variant, "positions": len(fens), "playouts": playouts, "depth": depth,
            "net": net, "threads": threads, "rounds": rounds,
            "alphabeta_nodes_per_s": ab, "alphabeta_nodes": done["alphabeta"], "mcts": rows}


def format_report(rows: list[dict[str, Any]]) -> str:
    lines = ["| variant | evaluator | playouts/s | us a playout | playouts / alpha-beta node |",
             "|---|---|---|---|---|"]
    for r in rows:
        for name, x in r["mcts"].items():
            lines.append(f"| {r['variant']} | {name} | {x['playouts_per_s']:,.0f} | "
                         f"{x['us_per_playout']:.1f} | {x['playouts_per_alphabeta_node']:.4f} |")
        lines.append(f"| {r['variant']} | alpha-beta, depth {r['depth']} (nodes/s) | "
                     f"{r['alphabeta_nodes_per_s']:,.0f} | - | 1 |")
    r0 = rows[0]
    lines.append(f"{r0['positions']} positions a variant, {r0['playouts']} playouts each; best "
                 f"of {r0['rounds']} rounds")
    return "\n".join(lines)
