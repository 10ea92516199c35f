"""``tdleaf bench backend``: what Ray costs against local worker processes, in games per
second of the same match on the same machine.

One match (two internal players at a fixed depth, so both backends play the same
games) is played with the same number of workers on the local backend and on Ray, the
order of the two alternating from round to round so that a machine that slows down
slows both alike. Ray is joined (or started) before the first round: its start-up is
paid once per job, not per match. Two rates come out of each match: over the whole
match (workers' start-up included: a ladder plays one short match per batch) and in
the steady state, from the first game's end to the last's. The figure to read is the
ratio Ray / local of each (below 1: Ray is slower), median over the rounds.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from tdleaf.backend import Backend
from tdleaf.play.match import MatchConfig, PlayerConfig, run_match

VARIANT = "atomic"
DEPTH, GAMES, WORKERS, ROUNDS = 3, 60, 2, 3
PLAYERS = ("traditional", "ones")


def _match(variant: str, depth: int, games: int, backend: Backend) -> dict[str, float]:
    a, b = (PlayerConfig(p, {"depth": depth}) for p in PLAYERS)
    cfg = MatchConfig(variant, a, b, games=games, backend=backend)
    ends: list[float] = []
    t0 = time.perf_counter()
    run_match(cfg, progress=lambda s, o: ends.append(time.perf_counter()) if o else None)
    t1 = time.perf_counter()
    return {"seconds": t1 - t0, "games_per_s": games / (t1 - t0),
            "steady_games_per_s": (games - 1) / (ends[-1] - ends[0]) if games > 1 else 0.0}


def bench_backend(variant: str = VARIANT, depth: int = DEPTH, games: int = GAMES,
                  workers: int = WORKERS, rounds: int = ROUNDS, address: str | None = None,
                  progress: bool = False) -> dict[str, Any]:
    """Play the match ``rounds`` times on each backend; the rates and their ratios."""
    from tdleaf.backend.cluster import connect
    ray = connect(address)
    backends = {"local": Backend("local", workers), "ray": Backend("ray", workers, address)}
    runs: dict[str, list[dict[str, float]]] = {"local": [], "ray": []}
    for r in range(rounds):
        for kind in (("local", "ray") if r % 2 == 0 else ("ray", "local")):
            runs[kind].append(_match(variant, depth, games, backends[kind]))
            if progress:
                print(f"round {r + 1}/{rounds} {kind}: {runs[kind][-1]['games_per_s']:.2f} "
                      f"games/s", file=sys.stderr, flush=True)
    ratios = {key: [x[key] / y[key] for x, y in zip(runs["ray"], runs["local"])]
              for key in ("games_per_s", "steady_games_per_s")}
    return {"variant": variant, "depth": depth, "games": games, "workers": workers,
            "rounds": rounds, "players": list(PLAYERS),
            "cluster_cpus": ray.cluster_resources().get("CPU"), "runs": runs,
            "ratio": {k: statistics.median(v) for k, v in ratios.items()},
            "ratio_range": {k: [min(v), max(v)] for k, v in ratios.items()}}


def format_report(r: dict[str, Any]) -> str:
    def med(kind: str, key: str) -> float:
        return statistics.median(x[key] for x in r["runs"][kind])
    lines = [(f"{r['variant']}, {' vs '.join(r['players'])} at depth {r['depth']}, "
              f"{r['games']} games, {r['workers']} workers, {r['rounds']} rounds (median)"),
             "| backend | games/s (whole match) | games/s (steady) |", "|---|---|---|"]
    for kind in ("local", "ray"):
        lines.append(f"| {kind} | {med(kind, 'games_per_s'):.2f} | "
                     f"{med(kind, 'steady_games_per_s'):.2f} |")
    lo, hi = r["ratio_range"]["games_per_s"]
    slo, shi = r["ratio_range"]["steady_games_per_s"]
    lines.append(f"| Ray / local | {r['ratio']['games_per_s']:.3f} [{lo:.3f}, {hi:.3f}] | "
                 f"{r['ratio']['steady_games_per_s']:.3f} [{slo:.3f}, {shi:.3f}] |")
    return "\n".join(lines)
