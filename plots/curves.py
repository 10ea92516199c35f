"""Learning curves of several learners in one figure, from their ``curve.json`` files
(written by ``tdleaf curve``; files only, never the engine).

Two panels: Elo against the fixed opponent (95% interval bars) against self-play games a
run, and against the CPU hours learning spent, both on log axes that keep the untrained
start (game 0, 0 hours) at the left edge (symmetric log: linear below the first point).
Each folder is one series, labelled by its learner (``method``) and features, and by
whatever else tells the folders apart (variant, init, opponent, folder name).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, cast

from .runfolder import VARIANT_TITLES, PlotError

#: The figure's file name, before its format's extension.
CURVES_NAME = "learning-curves"
#: What a point of curve.json must hold.
_POINT_KEYS = ("games", "cpu_hours", "elo", "elo_ci", "score", "games_played")


def read_curve(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A folder's ``curve.json`` (``path`` is the folder or the file); PlotError naming
    the file if it is missing or malformed."""
    path = Path(path)
    file = path if path.is_file() else path / "curve.json"
    if not path.exists():
        raise PlotError(f"no such folder: {path}")
    if not file.exists():
        raise PlotError(f"missing curve.json in {path} (measure it first: tdleaf curve {path})")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlotError(f"unreadable curve file {file}: {exc}") from None
    points = data.get("points") if isinstance(data, dict) else None
    if not isinstance(points, list) or not points:
        raise PlotError(f"{file}: no points (is the curve's first match still being played?)")
    for k, pt in enumerate(points):
        missing = [key for key in _POINT_KEYS if not isinstance(pt, dict) or key not in pt]
        if missing:
            raise PlotError(f"{file}: point {k} has no {', '.join(missing)}")
    data["_file"] = str(file)
    return data


def _labels(curves: list[dict[str, Any]]) -> list[str]:
    """Each curve's label: method and features, then what else differs between them."""
    def part(c: dict[str, Any], key: str) -> str:
        value = c.get(key)
        if key == "variant":
            return VARIANT_TITLES.get(str(value), str(value))
        if key == "init":
            return f"init {value}"
        if key == "opponent":
            return f"vs {value} at depth {c.get('depth')}"
        return str(value)

    labels = [f"{c.get('method', 'tdleaf')}, {c.get('features', '?')}" for c in curves]
    for key in ("variant", "init", "opponent"):
        if len({part(c, key) for c in curves}) > 1:
            labels = [f"{lab}, {part(c, key)}" for lab, c in zip(labels, curves)]
    if len(set(labels)) < len(labels):
        labels = [f"{lab} ({Path(c['_file']).parent.name})" for lab, c in zip(labels, curves)]
    return labels


def _y_range(curves: list[dict[str, Any]]) -> tuple[float, float]:
    """The Elo axis: every finite Elo and interval end, with a margin."""
    values = [v for c in curves for pt in c["points"]
              for v in [pt["elo"], *(pt["elo_ci"] or [])] if v is not None]
    lo, hi = (min(values), max(values)) if values else (-400.0, 400.0)
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    pad = max(25.0, 0.08 * (hi - lo))
    return lo - pad, hi + pad


def _draw(ax: Any, curves: list[dict[str, Any]], labels: list[str], key: str,
          ylim: tuple[float, float]) -> None:
    """One panel: Elo against ``key`` (``games`` or ``cpu_hours``) of every curve."""
    lo_edge, hi_edge = ylim
    positive = [pt[key] for c in curves for pt in c["points"] if pt[key] and pt[key] > 0]
    # Linear from 0 to the first point (the games') or the power of ten below it (hours).
    first = min(positive) if positive else 1.0
    ax.set_xscale("symlog", linscale=0.5,
                  linthresh=first if key == "games" else 10.0 ** math.floor(math.log10(first)))
    ax.axhline(0.0, color="0.45", lw=0.9, ls="--", zorder=2)
    for k, (c, lab) in enumerate(zip(curves, labels)):
        colour = f"C{k % 10}"
        xs, ys, lows, highs = [], [], [], []
        for pt in c["points"]:
            if pt["elo"] is None:       # every game won or lost: a marker on the edge
                won = pt["score"] == 1
                ax.plot([pt[key]], [hi_edge if won else lo_edge], "^" if won else "v",
                        color=colour, ms=7, clip_on=False)
                continue
            ci = pt["elo_ci"] or [pt["elo"], pt["elo"]]
            xs.append(pt[key])
            ys.append(pt["elo"])
            lows.append(pt["elo"] - (lo_edge if ci[0] is None else ci[0]))
            highs.append((hi_edge if ci[1] is None else ci[1]) - pt["elo"])
        ax.errorbar(xs, ys, yerr=[lows, highs], color=colour, marker="o", ms=4, lw=1.4,
                    capsize=3, label=lab)
    ax.set_ylim(lo_edge, hi_edge)
    if key == "games":
        ticks = sorted({pt["games"] for c in curves for pt in c["points"]})
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{t:,}" for t in ticks], rotation=45 if len(ticks) > 6 else 0)
        ax.set_xlabel("self-play games a run (log scale; 0: the untrained start)")
    else:
        wall = sum(pt.get("cpu_source", {}).get("seconds", 0) for c in curves for pt in c["points"])
        ax.set_xlabel("CPU hours of learning, summed over runs (log scale)"
                      + ("; wall time for runs that did not record process time" if wall else ""))
    ax.grid(True, which="major", color="0.92", lw=0.6)


def plot_curves(run_dirs: list[str | os.PathLike[str]], out: str | os.PathLike[str] | None = None,
                fmt: str = "png") -> list[Path]:
    """Draw the learning curves of ``run_dirs`` (each with a ``curve.json``) in one
    figure, ``learning-curves.<fmt>``, and return the file written. ``out`` defaults to
    the folder's ``figures/`` when there is one folder, and is required for several."""
    from . import figures as F
    from .api import FORMATS, _save

    if fmt not in FORMATS:
        raise PlotError(f"unknown figure format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if not run_dirs:
        raise PlotError("no folders to draw the curves of")
    curves = [read_curve(r) for r in run_dirs]
    if out is None:
        if len(run_dirs) > 1:
            raise PlotError("--out DIR is needed for the curves of several folders")
        out = Path(curves[0]["_file"]).parent / "figures"
    out_dir = Path(out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PlotError(f"cannot write figures to {out_dir}: {exc.strerror or exc}") from None

    import matplotlib

    with matplotlib.rc_context(cast(Any, F.STYLE)):
        fig = F.new_figure(13.0, 5.4, dpi=120)
        axes = fig.subplots(1, 2, sharey=True)
        labels = _labels(curves)
        ylim = _y_range(curves)
        _draw(axes[0], curves, labels, "games", ylim)
        _draw(axes[1], curves, labels, "cpu_hours", ylim)
        first = curves[0]
        same = all((c.get("opponent"), c.get("depth")) == (first.get("opponent"), first.get("depth"))
                   for c in curves)
        against = f"{first.get('opponent')} at depth {first.get('depth')}" if same else "its opponent"
        axes[0].set_ylabel(f"Elo against {against} (95% interval)")
        axes[0].legend(loc="best")
        variants = sorted({VARIANT_TITLES.get(str(c.get("variant")), str(c.get("variant")))
                           for c in curves})
        games = sorted({int(c.get("games", 0)) for c in curves})
        fig.suptitle(F.wrap(
            f"{', '.join(variants)}: learning curves. Each point: the mean over runs of the "
            f"weights after that many games, {'/'.join(map(str, games))} games against "
            f"{against} from random openings with both colours; dashed: equal strength; "
            "a triangle on the edge: every game won (\u25b2) or lost (\u25bc)", F.chars(fig)))
        path = out_dir / f"{CURVES_NAME}.{fmt}"
        _save(fig, path, fmt, f"{', '.join(variants)}: {CURVES_NAME}")
    return [path]
