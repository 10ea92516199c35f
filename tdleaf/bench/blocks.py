"""``tdleaf bench blocks``: what each leaf feature block costs the search, in nodes per
second.

For each variant and each leaf block that fits it, the selective search runs to a fixed
depth on the same positions twice: with the variant's ``psq`` layout, and with the same
layout plus the block, whose weights are all zero. Zero weights leave every score, and so
the whole tree, unchanged (the benchmark checks that both searches visit the same nodes)
while the block is still computed at every node the search evaluates: the difference in
time is the block's cost alone. Material is the traditional set, tables zero. The
positions are the first ``--positions`` of the variant's labelled positions
(``search/data/prior_<variant>.epd``: engine games), one fresh engine (16 MB table) per
search, the two layouts alternating. Time is the process's CPU time, which other work on
the machine disturbs less than wall time; the ratio is the figure to read (nps with the
block / nps without).

A set of blocks (``--block safety+drops+kingrel``) is measured the same way, all its
blocks at once: what a layout with them costs. That is less than the blocks' costs
summed where blocks read attacked squares: they share one computation of them per node
(:mod:`search.attack_kernels`).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from variants import canonical_variant

#: Depth of the searches (plies + quiescence) and positions per variant, by default.
DEPTH = 7
POSITIONS = 8
HASH_MB = 16


def _weights(variant: str, features: str) -> Any:
    from search.layout import feature_layout, value_set

    return value_set("traditional", variant).in_layout(feature_layout(variant, features))


def _search(weights: Any, fen: str, depth: int) -> tuple[int, float]:
    from search import Engine

    engine = Engine(weights.variant, weights, hash_mb=HASH_MB)
    c0 = time.process_time()
    r = engine.search(fen, depth=depth)
    return int(r.nodes), time.process_time() - c0


def bench_blocks(variants: list[str], blocks: list[str] | None = None, depth: int = DEPTH,
                 n_positions: int = POSITIONS, progress: bool = False) -> dict[str, Any]:
    """Run the benchmark (see the module's docstring); the JSON-ready report. ``blocks``:
    names (measured in registration order) or sets (``safety+drops``, after them), each
    where all its blocks fit (default: each block that fits, alone)."""
    from search.layout import extra_blocks
    from tdleaf.play.labels import data_path, read_labelled

    rows = []
    for variant in (canonical_variant(v) for v in variants):
        fens = [r.fen for r in read_labelled(data_path(variant))[:n_positions]]
        fits = extra_blocks(variant)
        names = [b for b in fits if blocks is None or b in blocks] + [
            b for b in blocks or [] if "+" in b and all(p in fits for p in b.split("+"))]
        base = _weights(variant, "psq")
        _search(base, fens[0], 2)                # compile outside the clock
        for name in names:
            with_block = _weights(variant, f"psq+{name}")
            _search(with_block, fens[0], 2)
            nodes = [0, 0]
            cpu = [0.0, 0.0]
            for i, fen in enumerate(fens):
                if progress:
                    print(f"\r{variant} {name}: {i + 1}/{len(fens)}", end="", file=sys.stderr,
                          flush=True)
                order = (0, 1) if i % 2 == 0 else (1, 0)
                for k in order:
                    n, c = _search((base, with_block)[k], fen, depth)
                    nodes[k] += n
                    cpu[k] += c
            nps = [nodes[k] / cpu[k] if cpu[k] > 0 else float("nan") for k in (0, 1)]
            rows.append({"variant": variant, "block": name, "positions": len(fens),
                         "nodes": nodes[0], "same_tree": nodes[0] == nodes[1],
                         "cpu_seconds": cpu, "nps": nps, "ratio": nps[1] / nps[0]})
        if progress:
            print(file=sys.stderr)
    return {"benchmark": "blocks", "depth": depth, "positions": n_positions, "rows": rows}


def format_report(report: dict[str, Any]) -> str:
    """The report as a table."""
    width = max([11] + [len(r["block"]) + 2 for r in report["rows"]])
    lines = [(f"Leaf blocks' cost: selective search, depth {report['depth']}, "
              f"{report['positions']} positions per variant, CPU time; zero block weights "
              "(the same tree)"),
             (f"{'variant':<14}{'block':<{width}}{'nodes':>10}{'nps psq':>11}"
              f"{'nps +block':>12}{'ratio':>8}")]
    for r in report["rows"]:
        flag = "" if r["same_tree"] else "  (trees differ!)"
        lines.append(f"{r['variant']:<14}{r['block']:<{width}}{r['nodes']:>10}"
                     f"{r['nps'][0] / 1e6:>10.2f}M{r['nps'][1] / 1e6:>11.2f}M"
                     f"{r['ratio']:>8.2f}{flag}")
    if not report["rows"]:
        lines.append("(no block fits these variants)")
    return "\n".join(lines)

