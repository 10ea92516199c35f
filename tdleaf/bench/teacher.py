"""``tdleaf bench teacher``: how often tdleaf's search at depth D plays the label move
(Fairy-Stockfish's) on the labelled positions of ``search/data/prior_<variant>.epd``.

A network trained on data a depth-D search labelled can only beat the heuristic prior if
its teacher does: this is the teacher's own top-1, measured before any data is written,
to choose D (``tdleaf net data --depth``). One search a position (the selective search,
the evaluation given, a fresh game each), top-1 with its 95% Wilson interval, and the
mean seconds a search.
"""

from __future__ import annotations

from typing import Any

from tdleaf.net.measure import teacher_hits
from tdleaf.play.stats import wilson

DEPTHS = (1, 2, 3, 4, 5)


def bench_teacher(variant: str, depths: tuple[int, ...] = DEPTHS, weights: str | None = None,
                  ) -> dict[str, Any]:
    """Top-1 of the depth-D search against the labels, for each D of ``depths``."""
    from search import Engine

    from ..play.labels import data_path, label_of, read_labelled

    path = data_path(variant)
    rows = read_labelled(path)
    engine = Engine(variant, weights, hash_mb=16, search="selective")
    engine.load_compiled()
    out = []
    for d in depths:
        hits, seconds = teacher_hits(variant, d, rows, engine=engine)
        lo, hi = wilson(int(hits.sum()), len(rows))
        out.append({"depth": d, "top1": float(hits.mean()), "top1_ci": [lo, hi],
                    "seconds_per_search": seconds})
    return {"variant": variant, "positions": len(rows), "label": label_of(path),
            "weights": engine.weights.meta.get("name") or weights or "default",
            "depths": out}


def format_report(reports: list[dict[str, Any]]) -> str:
    lines = ["| variant | depth | top-1 | 95% interval | s a search |", "|---|---|---|---|---|"]
    for r in reports:
        for d in r["depths"]:
            lo, hi = d["top1_ci"]
            lines.append(f"| {r['variant']} | {d['depth']} | {100 * d['top1']:.1f}% | "
                         f"[{100 * lo:.1f}, {100 * hi:.1f}] | {d['seconds_per_search']:.3f} |")
    labels = sorted({f"{r['variant']}: {r['positions']} positions, {r['label']}" for r in reports})
    return "\n".join(lines + [""] + [f"Labels: {x}" for x in labels])
