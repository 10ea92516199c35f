"""Expert iteration's curves: loops (``tdleaf net iterate`` folders) drawn against the CPU
they spent learning, from their ``loop.json`` files only.

Two panels, one series a loop (labelled by its start): the raw network's top-1 on the
labelled positions (the heuristic prior's at depth 1 a dashed line), and the Elo of the
generation's MCTS against the loop's fixed anchor with its 95% interval (game pairs),
the start's own Elo at 0, the line through the loop's player (the start, then each shipped
generation). The x-axis is the CPU hours of learning so far: self-play, training and the
gate matches (what decides the next games); the measurements (the labels, the anchor)
are not counted. A generation not shipped is drawn hollow.

>>> import plots.iterate
>>> plots.iterate.plot_loops(["runs/iterate/atomic-prior"], "runs/iterate/figures")  # doctest: +SKIP
[PosixPath('runs/iterate/figures/expert-iteration.png')]
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .runfolder import PlotError

#: The figure's file name, before its format's extension.
LOOPS_NAME = "expert-iteration"
#: The steps whose CPU counts as learning (the x-axis).
LEARNING_STEPS = ("selfplay", "train", "gate")


def read_loop(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """A loop folder's ``loop.json``; PlotError naming the file when it is missing,
    unreadable or holds no measured generation."""
    path = Path(folder) / "loop.json"
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlotError(f"{path}: not a loop's record ({exc})") from None
    if not isinstance(state, dict) or "generations" not in state or "config" not in state:
        raise PlotError(f"{path}: not a loop's record (no generations)")
    return state


def loop_points(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One point a measured generation: ``cpu_hours`` of learning up to and including
    it, ``top1``, ``prior_top1``, ``elo`` and ``elo_ci`` against the anchor (None where
    not measured), ``shipped``."""
    points, seconds = [], 0.0
    for rec in state["generations"]:
        seconds += sum((rec.get(s) or {}).get("cpu_seconds", 0.0) for s in LEARNING_STEPS)
        if "eval" not in rec:
            break
        anchor = rec.get("anchor") or {}
        points.append({"generation": rec["generation"], "cpu_hours": seconds / 3600,
                       "top1": rec["eval"]["top1"], "prior_top1": rec["eval"]["prior_depth_1_top1"],
                       "elo": anchor.get("elo"), "elo_ci": anchor.get("elo_ci"),
                       "shipped": bool(rec.get("shipped"))})
    return points


def plot_loops(folders: list[str | os.PathLike[str]], out: str | os.PathLike[str],
               fmt: str = "png", title: str | None = None) -> list[Path]:
    """Draw ``expert-iteration.<fmt>`` in ``out`` from the loops in ``folders`` and
    return it in a list."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .api import FORMATS, _save

    if fmt not in FORMATS:
        raise PlotError(f"unknown figure format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if not folders:
        raise PlotError("no loop folders to draw")
    fig, (top, elo) = plt.subplots(1, 2, figsize=(11, 4), dpi=100)
    prior = None
    for k, folder in enumerate(folders):
        state = read_loop(folder)
        points = loop_points(state)
        color = f"C{k}"
        label = f"from {state['config']['start']} ({Path(folder).name})"
        xs = [p["cpu_hours"] for p in points]
        top.plot(xs, [100 * p["top1"] for p in points], color=color, label=label)
        for p in points:
            face = color if p["shipped"] else "none"
            top.plot(p["cpu_hours"], 100 * p["top1"], "o", color=color, mfc=face)
            if p["elo"] is not None:
                low, high = p["elo_ci"] or (p["elo"], p["elo"])
                elo.errorbar(p["cpu_hours"], p["elo"], yerr=[[p["elo"] - low], [high - p["elo"]]],
                             fmt="o", color=color, mfc=face, capsize=3)
        start = state.get("start_anchor") or {}
        # The loop's player: the start, then each shipped generation.
        measured = [(0.0, start.get("elo"))] + [(p["cpu_hours"], p["elo"]) for p in points
                                                if p["shipped"]]
        measured = [(x, y) for x, y in measured if y is not None]
        if measured:
            elo.plot(*zip(*measured), color=color, label=label)
        if start.get("elo") is not None:
            low, high = start.get("elo_ci") or (start["elo"], start["elo"])
            elo.errorbar(0.0, start["elo"], yerr=[[start["elo"] - low], [high - start["elo"]]],
                         fmt="s", color=color, capsize=3)
        if points:
            prior = points[-1]["prior_top1"]
    if prior is not None:
        top.axhline(100 * prior, ls="--", color="grey", label="heuristic prior, depth 1")
    top.set_title("raw network: top-1 on the labelled positions", fontsize=9)
    top.set_ylabel("top-1 (%)")
    elo.set_title("the MCTS against the fixed anchor (95% interval, game pairs)", fontsize=9)
    elo.set_ylabel("Elo")
    elo.axhline(0, color="grey", lw=0.5)
    for ax in (top, elo):
        ax.set_xlabel("CPU hours of learning (self-play, training, gate)")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{LOOPS_NAME}.{fmt}"
    _save(fig, path, fmt, "expert iteration's curves")
    plt.close(fig)
    return [path]
