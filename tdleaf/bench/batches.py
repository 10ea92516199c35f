"""``tdleaf bench batches``: what a ladder's batches cost with their players kept from
batch to batch (a :class:`~tdleaf.play.match.MatchPool`, as ``tdleaf ladder`` plays
them) against started again for every batch, in games per second on the same machine.

A ladder plays each rung as short matches (batches of two games, one opening with both
colours), each against the engine at the setting the games so far call for. Here both
ways play the same series: tdleaf at a fixed node count against the variant's UCI_Elo
engine at a fixed node count, the batches' UCI_Elo cycling through a fixed list. Each
round plays the series both ways, the order alternating from round to round so that a
machine that slows down slows both alike. The figure to read is the ratio kept /
started (above 1: keeping the players is faster), median over the rounds, with its
range.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tdleaf.backend import Backend
from tdleaf.play.ladder.registry import remeasure_plan, resolve_engine
from tdleaf.play.match import MatchConfig, MatchPool, PlayerConfig, run_match

VARIANT = "atomic"
NODES, ENGINE_NODES = 643, 17_000
ELOS = (1700, 1900, 2100)
BATCHES, WORKERS, ROUNDS = 16, 2, 2
WAYS = ("started", "kept")


def _batches(variant: str, spec: str, nodes: int, engine_nodes: int, batches: int,
             backend: Backend, folder: Path) -> list[MatchConfig]:
    """The series: batch ``b`` against UCI_Elo ``ELOS[b % len(ELOS)]``, opening seed ``b``."""
    out = []
    for b in range(batches):
        elo = ELOS[b % len(ELOS)]
        out.append(MatchConfig(
            variant, PlayerConfig("default", {"nodes": nodes, "name": f"tdleaf nodes {nodes}"}),
            PlayerConfig(spec, {"nodes": engine_nodes, "UCI_LimitStrength": True,
                                "UCI_Elo": elo, "name": f"engine (UCI_Elo {elo})"}),
            games=2, seed=b, backend=backend,
            pgn=str(folder / f"b{b:03d}.pgn")))
    return out


def _series(way: str, cfgs: list[MatchConfig], backend: Backend) -> dict[str, float]:
    t0 = time.perf_counter()
    games = 0
    if way == "kept":
        with MatchPool(backend) as pool:
            for cfg in cfgs:
                games += run_match(cfg, pool=pool).games
    else:
        for cfg in cfgs:
            games += run_match(cfg).games
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "games": games, "games_per_s": games / seconds}


def bench_batches(variant: str = VARIANT, nodes: int = NODES, engine_nodes: int = ENGINE_NODES,
                  batches: int = BATCHES, workers: int = WORKERS, rounds: int = ROUNDS,
                  progress: bool = False) -> dict[str, Any]:
    """Play the series ``rounds`` times each way; the rates and their ratios."""
    engine = remeasure_plan([variant])[0][1]
    spec = resolve_engine(engine)[1]
    backend = Backend("local", workers)
    runs: dict[str, list[dict[str, float]]] = {w: [] for w in WAYS}
    for r in range(rounds):
        for way in (WAYS if r % 2 == 0 else WAYS[::-1]):
            with tempfile.TemporaryDirectory(prefix="tdleaf-bench-batches-") as tmp:
                cfgs = _batches(variant, spec, nodes, engine_nodes, batches, backend, Path(tmp))
                runs[way].append(_series(way, cfgs, backend))
            if progress:
                print(f"round {r + 1}/{rounds} {way}: {runs[way][-1]['games_per_s']:.2f} games/s",
                      file=sys.stderr, flush=True)
    ratios = [k["games_per_s"] / s["games_per_s"] for k, s in zip(runs["kept"], runs["started"])]
    return {"variant": variant, "engine": engine, "nodes": nodes, "engine_nodes": engine_nodes,
            "elos": list(ELOS), "batches": batches, "games_per_batch": 2, "workers": workers,
            "rounds": rounds, "runs": runs, "ratio": statistics.median(ratios),
            "ratio_range": [min(ratios), max(ratios)]}


def format_report(r: dict[str, Any]) -> str:
    lines = [(f"{r['variant']}: tdleaf at {r['nodes']} nodes against {r['engine']} at "
              f"{r['engine_nodes']} nodes (UCI_Elo {', '.join(map(str, r['elos']))} in turn), "
              f"{r['batches']} batches of {r['games_per_batch']} games, {r['workers']} "
              f"workers, {r['rounds']} rounds (median)"),
             "| players | games/s | seconds a batch |", "|---|---|---|"]
    for way in WAYS:
        rate = statistics.median(x["games_per_s"] for x in r["runs"][way])
        lines.append(f"| {way} {'every batch' if way == 'started' else 'by a pool'} | "
                     f"{rate:.2f} | {r['games_per_batch'] / rate:.2f} |")
    lo, hi = r["ratio_range"]
    lines.append(f"| kept / started | {r['ratio']:.2f} [{lo:.2f}, {hi:.2f}] | |")
    return "\n".join(lines)
