"""``tdleaf bench encoding``: positions per second of the network encoding
(:mod:`search.mcts.encoding`), against generating the same positions' legal moves.

On each variant's labelled positions (``search/data/prior_<variant>.epd``, the ones
``tdleaf bench prior`` scores: one variant per set of rules), compiled loops time the input
planes of every position, and the legal moves with their policy indices, against the
legal moves alone, in alternating rounds; the fastest round of each counts. The ratio
says what the encoding costs next to one move generation: a search visits thousands of
nodes, each with at least one, for every position a data writer encodes.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

ROUNDS = 20
REPEAT = 5           # passes over the positions in one round


def labelled_arrays(variant: str) -> tuple[np.ndarray, np.ndarray]:
    """The arrays (``bb``, ``st`` rows) of the variant's labelled positions."""
    from variants import Position

    from ..play.labels import data_path, read_labelled
    pos = [Position.from_fen(r.fen, variant) for r in read_labelled(data_path(variant))]
    return np.stack([p.bb for p in pos]), np.stack([p.st for p in pos])


def bench_encoding(variant: str, rounds: int = ROUNDS) -> dict[str, Any]:
    """Positions per second of the planes, of the moves with their indices, and of the
    moves alone, over ``rounds`` rounds (best round each)."""
    from search.mcts import encoding as enc
    from variants import core

    bbs, sts = labelled_arrays(variant)
    n = len(bbs)
    reps = np.zeros(n, dtype=np.int64)
    out = np.zeros((n, enc.N_PLANES, 8, 8), dtype=np.float32)
    moves = np.zeros(core.MAX_MOVES, dtype=np.int64)
    sbb, sst = np.zeros(core.NBB, dtype=np.uint64), np.zeros(core.NST, dtype=np.int64)
    idx = np.zeros((n, core.MAX_MOVES), dtype=np.int64)
    runs = {
        "planes": lambda: enc.planes_batch(bbs, sts, reps, out),
        "moves_and_indices": lambda: enc.legal_indices_batch(bbs, sts, moves, sbb, sst, idx),
        "moves": lambda: enc.legal_moves_batch(bbs, sts, moves, sbb, sst),
    }
    best = {k: float("inf") for k in runs}
    for f in runs.values():       # compile or load, outside the timing
        f()
    for r in range(rounds):
        for k in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
            t0 = time.perf_counter()
            for _ in range(REPEAT):
                runs[k]()
            best[k] = min(best[k], time.perf_counter() - t0)
    rate = {k: n * REPEAT / v for k, v in best.items()}
    return {"variant": variant, "positions": n, "rounds": rounds,
            "positions_per_s": rate,
            "planes_over_moves": best["planes"] / best["moves"],
            "indices_over_moves": best["moves_and_indices"] / best["moves"] - 1.0}


def format_report(rows: list[dict[str, Any]]) -> str:
    from .common import si
    lines = [("| variant | positions | planes/s | moves + indices/s | moves/s | planes / moves "
             "(time) | indices' extra time |"), "|---|---|---|---|---|---|---|"]
    for r in rows:
        p = r["positions_per_s"]
        lines.append(f"| {r['variant']} | {r['positions']} | {si(p['planes'])} | "
                     f"{si(p['moves_and_indices'])} | {si(p['moves'])} | "
                     f"{r['planes_over_moves']:.2f} | {100 * r['indices_over_moves']:+.0f}% |")
    return "\n".join(lines)
