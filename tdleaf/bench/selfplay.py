"""``tdleaf bench selfplay``: self-play games per hour per core, as learning plays them.

Each game is what ``tdleaf learn`` plays: fixed depth (default 5 + quiescence), random
tie-breaks, all material weights 1; "psq" adds seeded random piece-square tables and
the 1% evaluation noise. Time is the CPU time of this one process, so the figure is per
core and not disturbed by other work on the machine as much as wall time would be.
"""

from __future__ import annotations

import platform
import time
from typing import Any

import numpy as np

from variants.spec import RULE_FAMILIES

#: The variants benchmarked by default: one per set of rules.
VARIANTS = RULE_FAMILIES
#: Targets in CPU seconds a game: 2,000 material-only atomic games in
#: 2 hours on one core; selective crazyhouse self-play at depth 5 in 5 s (15 s with tables).
TARGET_SECONDS = {("atomic", "material", "plain"): 3.6, ("crazyhouse", "material", "selective"): 5.0,
                  ("crazyhouse", "psq", "selective"): 15.0}


def _weights(variant: str, features: str, seed: int):
    from search.layout import Weights
    from tdleaf.learn.config import LearnConfig, initial_weights, run_layout
    cfg = LearnConfig(variant=variant)
    w, layout = initial_weights(cfg), run_layout(cfg)
    if features == "psq":
        tables = layout.mask([b for b in ("psq", "psq_black") if layout.has(b)])
        w[tables] = np.random.default_rng(seed).normal(0.0, 0.1, size=int(tables.sum()))
    return Weights(variant, w, {}, layout=layout)


def bench_selfplay(variants: list[str], features: list[str], games: int, depth: int,
                   seed: int, progress: bool = True,
                   searches: tuple[str, ...] = ("plain",)) -> dict[str, Any]:
    from search import Engine
    from tdleaf.learn.config import default_noise
    from tdleaf.learn.selfplay import play_game

    rows = []
    for v, f, mode in ((v, f, m) for v in variants for f in features for m in searches):
        engine = Engine(v, _weights(v, f, seed), hash_mb=16, random_ties=True,
                        noise=default_noise(f), search=mode)
        cpu = wall = 0.0
        plies = nodes = 0
        for g in range(games):
            c0, t0 = time.process_time(), time.perf_counter()
            rec = play_game(engine, v, depth, seed * 1000 + g)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - t0
            plies += len(rec.moves)
            nodes += rec.nodes
            if progress:
                print(f"  {v} {f} {mode} game {g + 1}/{games}: {len(rec.moves)} plies, "
                      f"{rec.termination}", flush=True)
        per_game = cpu / games
        rows.append({"variant": v, "features": f, "search": mode, "games": games,
                     "depth": depth, "plies_per_game": plies / games,
                     "cpu_seconds_per_game": per_game, "wall_seconds_per_game": wall / games,
                     "games_per_hour_per_core": 3600.0 / per_game if per_game else None,
                     "nodes_per_game": nodes / games, "nps_cpu": nodes / cpu if cpu else None,
                     "target_seconds_per_game": TARGET_SECONDS.get((v, f, mode))})
    return {"benchmark": "selfplay", "date": time.strftime("%Y-%m-%d %H:%M:%S"),
            "machine": platform.machine(), "python": platform.python_version(), "rows": rows}


def format_report(report: dict[str, Any]) -> str:
    lines = [f"tdleaf bench selfplay ({report['date']}); CPU time of one process",
             (f"{'variant':11s} {'features':8s} {'search':9s} {'games':>5s} {'plies':>6s} {'s/game':>7s} "
             f"{'games/h/core':>12s} {'nodes/game':>10s} {'nps':>8s}  target")]
    for r in report["rows"]:
        target = r["target_seconds_per_game"]
        verdict = "" if target is None else (
            f"<= {target} s/game: {'met' if r['cpu_seconds_per_game'] <= target else 'NOT met'}")
        lines.append(f"{r['variant']:11s} {r['features']:8s} {r.get('search', 'plain'):9s} {r['games']:5d} "
                     f"{r['plies_per_game']:6.0f} {r['cpu_seconds_per_game']:7.2f} "
                     f"{r['games_per_hour_per_core']:12.0f} {r['nodes_per_game']:10.0f} "
                     f"{r['nps_cpu']:8.0f}  {verdict}")
    return "\n".join(lines)
