"""The figures: piece-square heatmaps, learning curves, final values, the summary page.

Every figure is a bare :class:`matplotlib.figure.Figure` drawn on the Agg canvas (no
pyplot, no global state, no display needed). The ``draw_*`` functions draw into given
axes, so the single figures and the one-page summary share them.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg", force=False)

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from . import paper
from .blocks import BAR_COLOUR, BlockBars, block_title
from .runfolder import HAND_PIECES, PIECE_NAMES, PIECES, RunData, convention_text
from .values import Boards, Curves, Finals, Series, hand_key

#: One colour per piece type in every figure (matplotlib's tab10, colour-blind friendlier
#: than the defaults of most tools); a piece in hand has its piece's colour, dashed/hatched.
PIECE_COLOURS = {"P": "#1f77b4", "N": "#ff7f0e", "B": "#2ca02c", "R": "#d62728",
                 "Q": "#9467bd", "K": "#8c564b"}
GEOMETRY_KEY = "tdleaf:boards"
STYLE: dict[str, Any] = {
    "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "legend.fontsize": 8,
    "xtick.labelsize": 8, "ytick.labelsize": 8, "figure.titlesize": 11,
    "axes.spines.top": False, "axes.spines.right": False, "svg.hashsalt": "tdleaf",
    "figure.facecolor": "white", "savefig.facecolor": "white",
}


def colour(key: str) -> str:
    return PIECE_COLOURS[key[0]]


def label(key: str) -> str:
    name = PIECE_NAMES[key[0]].capitalize()
    return f"{name} in hand" if key.endswith("@hand") else name


def fmt(x: float) -> str:
    """A value the way the figures print it: two decimals, a real minus sign."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    text = f"{x:.1f}" if abs(x) >= 99.995 else f"{x:.2f}"
    if text.lstrip("-").strip("0.") == "":
        text = text.lstrip("-")                 # no "-0.00"
    return minus(text)


def minus(text: str) -> str:
    """Real minus signs in the numbers of ``text`` (not in its hyphenated words)."""
    return re.sub(r"-(?=[\d.])", "\u2212", text)


def norm_text(reference: tuple[str, float]) -> str:
    piece, target = reference
    return f"{PIECE_NAMES[piece]} = {target:g}".replace("-", "\u2212")


def conv_text(reference: tuple[str, float], runs: int) -> str:
    """``mean of 2 runs, then normalised so that the knight = 2.5`` (real minus sign)."""
    return convention_text(reference, runs).replace("-", "\u2212")


def value_axis(data: RunData, normalised: bool = True) -> str:
    """The y label of every value axis: which normalisation it is (or raw weights)."""
    if not normalised:
        return "raw weight (mean over runs, not normalised)"
    return f"value (mean over runs, then {norm_text(data.normalisation)})"


def new_figure(width: float, height: float, dpi: float = 120) -> Figure:
    fig = Figure(figsize=(width, height), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


def chars(fig: Figure, size: float = 11) -> int:
    """About how many characters of a ``size``-point line fit across ``fig``."""
    return int(fig.get_figwidth() * 72 / (size * 0.56))


def headline(data: RunData, fig: Figure, size: float = 11) -> str:
    """The run's title, wrapped to the figure's width."""
    return wrap(data.title(), chars(fig, size))


# -- piece-square heatmaps -----------------------------------------------------------------

@dataclass(frozen=True)
class BoardGeometry:
    """Where one board lies in a saved PNG, in pixels: ``left``/``right`` are the
    x of the a- and h-file edges, ``top``/``bottom`` the y of the 8th- and 1st-rank edges
    (y grows downwards, as in image arrays)."""

    left: float
    top: float
    right: float
    bottom: float

    def square_center(self, square: int | str) -> tuple[int, int]:
        """``(x, y)`` pixel of the centre of ``square`` (0 = a1 ... 63 = h8, or "e4")."""
        if isinstance(square, str):
            square = "abcdefgh".index(square[0]) + 8 * (int(square[1]) - 1)
        f, r = square % 8, square // 8
        x = self.left + (f + 0.5) * (self.right - self.left) / 8
        y = self.bottom - (r + 0.5) * (self.bottom - self.top) / 8
        return round(x), round(y)


def draw_board(ax, values: np.ndarray, *, numbers: bool = False, title: str | None = None,
               caption: str | None = None, number_size: float = 6.5,
               visits: np.ndarray | None = None) -> None:
    """One 8 x 8 board of ``values`` (a1 = 0 ... h8 = 63, White's view: a1 bottom-left).

    Grey scale (the report's style, after Beal & Smith): the best square white, the
    worst black. With ``numbers``: a diverging map centred on the piece's value on the
    squares it never visited (its material value, table entry 0), the values written in.
    """
    grid = np.asarray(values, dtype=float).reshape(8, 8)     # grid[rank, file]
    lo, hi = float(np.min(grid)), float(np.max(grid))
    if numbers:
        centre = _centre(grid, visits)
        half = max(hi - centre, centre - lo, 1e-9)
        cmap, norm = "RdBu", mcolors.Normalize(centre - half, centre + half)
    else:
        cmap = "gray"
        norm = mcolors.Normalize(lo, hi) if hi > lo else mcolors.Normalize(lo - 1, hi + 1)
    ax.imshow(grid, origin="lower", extent=(0, 8, 0, 8), cmap=cmap, norm=norm,
              interpolation="nearest", resample=False)
    ax.set_xlim(0, 8)
    ax.set_ylim(0, 8)
    ax.set_aspect("equal")
    ax.set_xticks(np.arange(8) + 0.5, list("abcdefgh"))
    ax.set_yticks(np.arange(8) + 0.5, [str(r) for r in range(1, 9)])
    ax.tick_params(length=0, pad=2)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_color("#444444")
        ax.spines[side].set_linewidth(0.8)
    if numbers:
        cm = matplotlib.colormaps[cmap]
        for r in range(8):
            for f in range(8):
                v = grid[r, f]
                red, green, blue, _ = cm(norm(v))
                light = 0.299 * red + 0.587 * green + 0.114 * blue > 0.55
                ax.text(f + 0.5, r + 0.5, fmt(v), ha="center", va="center",
                        fontsize=number_size, color="black" if light else "white",
                        in_layout=False)
    if title:
        ax.set_title(title, pad=4)
    if caption:
        ax.set_xlabel(caption, labelpad=4)


def _centre(grid: np.ndarray, visits: np.ndarray | None) -> float:
    """The neutral value of a board: its most common value (table entry 0, unvisited
    squares), else the median."""
    vals, counts = np.unique(np.round(grid, 12), return_counts=True)
    if counts.max() > 1:
        return float(vals[np.argmax(counts)])
    return float(np.median(grid))


def min_max_caption(values: np.ndarray, piece: str, variant: str, compare: bool) -> str:
    text = f"Min/Max: {fmt(float(np.min(values)))}/{fmt(float(np.max(values)))}"
    if compare:
        mm = paper.min_max(variant).get(piece)
        if mm:
            text += f"\nreport: {fmt(mm[0])}/{fmt(mm[1])}"
    return text


def heatmap_subtitle(data: RunData, b: Boards, numbers: bool) -> str:
    n = len(data.checkpoints) or len(data.histories)
    what = (f"material + table entry of the mean weights of {n} run{'s' if n != 1 else ''}, "
            f"scaled so that the {norm_text(data.normalisation)} on average over the "
            f"squares it visited (all runs' visits)")
    if not b.normalised:
        what = minus(f"material + table entry, raw weights ({b.problem})")
    key = ("red = below the piece's base value, blue = above" if numbers
           else "white = best square, black = worst")
    return f"{what}; {key}"


def heatmaps_figure(data: RunData, b: Boards, *, numbers: bool = False,
                    compare: bool = False) -> tuple[Figure, dict[str, object]]:
    """The tables in one figure (2 x 3; six, or five where a piece never plays). Returns
    the figure and its axes per piece."""
    fig = new_figure(10.5, 9.3 if compare else 9.0, dpi=120)
    axes = fig.subplots(2, 3)
    by_piece = {}
    for ax in axes.flat[len(data.table_pieces):]:
        ax.set_axis_off()
    for ax, p in zip(axes.flat, data.table_pieces):
        draw_board(ax, b.values[p], numbers=numbers, title=PIECE_NAMES[p].capitalize(),
                   caption=min_max_caption(b.values[p], p, data.variant, compare),
                   visits=None if b.visits is None else b.visits[PIECES.index(p)])
        by_piece[p] = ax
    fig.suptitle(headline(data, fig) + "\n"
                 + wrap(f"Piece-square values: {heatmap_subtitle(data, b, numbers)}", chars(fig)))
    return fig, by_piece


def heatmap_figure(data: RunData, b: Boards, piece: str, *, numbers: bool = False,
                   compare: bool = False) -> tuple[Figure, object]:
    """One piece's table alone."""
    fig = new_figure(4.6, 5.6 if compare else 5.4, dpi=120)
    ax = fig.subplots()
    draw_board(ax, b.values[piece], numbers=numbers, number_size=7.5,
               caption=min_max_caption(b.values[piece], piece, data.variant, compare),
               visits=None if b.visits is None else b.visits[PIECES.index(piece)])
    ax.set_title(f"{PIECE_NAMES[piece].capitalize()}: piece-square values", fontsize=11)
    fig.suptitle(wrap(data.title(), 58) + "\n" + wrap(heatmap_subtitle(data, b, numbers), 64),
                 fontsize=8, color="#333333")
    return fig, ax


def board_geometry(fig: Figure, axes: dict[str, Any], draw: bool = True,
                   ) -> dict[str, BoardGeometry]:
    """The pixel box of each board of a figure, as in a PNG saved at ``fig.dpi``
    without ``bbox_inches='tight'`` (which is how :mod:`plots` saves them). ``draw``
    lays the figure out first (not needed right after ``fig.canvas.draw()``)."""
    if draw:
        fig.canvas.draw()
    height = fig.bbox.height
    out = {}
    for p, ax in axes.items():
        (x0, y0), (x1, y1) = ax.transData.transform([(0, 0), (8, 8)])
        out[p] = BoardGeometry(float(x0), float(height - y1), float(x1), float(height - y0))
    return out


def read_board_geometry(png: str | Path) -> dict[str, BoardGeometry]:
    """The board boxes recorded in a heatmap PNG written by :mod:`plots` (its
    ``tdleaf:boards`` text chunk), to map a square to a pixel of the image."""
    from PIL import Image

    with Image.open(png) as im:
        text = getattr(im, "text", {}).get(GEOMETRY_KEY)
    if text is None:
        raise ValueError(f"{png}: no {GEOMETRY_KEY} metadata (not a heatmap PNG of plots)")
    return {p: BoardGeometry(*box) for p, box in json.loads(text).items()}


# -- learning curves --------------------------------------------------------------------

def draw_curves(ax, c: Curves, keys: list[str], *, title: str, ylabel: str,
                legend: bool = True) -> None:
    """Mean over runs against games played, with a band of one standard deviation."""
    ref = c.reference[0] if c.normalised else None
    x = c.games
    for k in keys:
        m, s = c.mean[k], c.std[k]
        hand = k.endswith("@hand")
        is_ref = k == ref
        final = m[~np.isnan(m)]
        tail = fmt(float(final[-1])) if final.size else "n/a"
        lab = (f"{label(k)} = {fmt(c.reference[1])} (reference)" if is_ref
               else f"{label(k)}: {tail}")
        ax.plot(x, m, color=colour(k), lw=1.0 if is_ref else 1.6,
                ls=":" if is_ref else ("--" if hand else "-"), label=lab)
        # The reference piece sits at its value; its band is the spread of its raw
        # weights over runs on the same scale (fainter).
        if len(x) > 1:
            ax.fill_between(x, m - s, m + s, color=colour(k), alpha=0.08 if is_ref else 0.18,
                            lw=0)
        else:
            ax.errorbar(x, m, yerr=s, color=colour(k), capsize=3, lw=0)
    lo, hi, clipped = _robust_limits([c.mean[k] - c.std[k] for k in keys]
                                     + [c.mean[k] + c.std[k] for k in keys])
    if lo is not None:
        ax.set_ylim(lo, hi)
        notes = (["some early games off the scale"] if clipped else []) + (
            [(f"{c.left_out} game{'s' if c.left_out != 1 else ''} left out: the mean "
             f"{PIECE_NAMES[c.reference[0]]} weight near 0 or not "
             f"{'negative' if c.reference[1] < 0 else 'positive'}")] if c.left_out else [])
        if notes:
            ax.text(0.99, 0.01, "\n".join(notes), transform=ax.transAxes,
                    ha="right", va="bottom", fontsize=7, color="#555555")
        if hi is not None and lo < 0 < hi:
            ax.axhline(0, color="#999999", lw=0.6, zorder=0)
    ax.set_xlim(x[0] - 0.5 if len(x) == 1 else x[0], x[-1] + 0.5 if len(x) == 1 else x[-1])
    _mark_run_counts(ax, c)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("games played")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)
    if legend:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
                  handlelength=2.4, borderaxespad=0.0)


def _mark_run_counts(ax, c: Curves) -> None:
    """In an unfinished job the runs have played different numbers of games: mark where
    the mean starts to cover fewer runs."""
    drops = [i for i in range(1, len(c.runs)) if c.runs[i] < c.runs[i - 1]]
    for i in drops[:6]:
        g = c.games[i] - 0.5
        ax.axvline(g, color="#777777", lw=0.8, ls=(0, (2, 2)), zorder=1)
        n = int(c.runs[i])
        ax.annotate(f"{n} run{'s' if n != 1 else ''} from here", (g, 1.0),
                    xycoords=("data", "axes fraction"), xytext=(3, -3),
                    textcoords="offset points", ha="left", va="top", fontsize=7,
                    color="#555555")


def _robust_limits(arrays: list[np.ndarray]) -> tuple[float | None, float | None, bool]:
    """y limits that a few wild games cannot flatten the rest with: the first 10% of the
    games (the start-up transient, where a reference weight near 0 throws the ratios
    off) are left out, and in long runs the 1st-99th percentiles are used. Returns
    ``(lo, hi, clipped)``, ``clipped`` when some data lies off the scale."""
    if not arrays:
        return None, None, False
    n = len(arrays[0])
    skip = n // 10 if n >= 20 else 0
    allv = np.concatenate([a[~np.isnan(a)] for a in arrays])
    vals = np.concatenate([a[skip:][~np.isnan(a[skip:])] for a in arrays])
    if vals.size == 0:
        return None, None, False
    lo, hi = (np.percentile(vals, [1, 99]) if n >= 200 else (vals.min(), vals.max()))
    lo, hi = float(lo), float(hi)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    pad = 0.06 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    return lo, hi, bool(allv.size and (allv.min() < lo or allv.max() > hi))


def curve_panels(data: RunData) -> list[tuple[str, list[str]]]:
    panels = [("pieces on the board", list(data.board_pieces))]
    if data.has_hand:
        panels.append(("pieces in hand", [hand_key(p) for p in HAND_PIECES] + [data.normalisation[0]]))
    return panels


def curves_ylabel(data: RunData, c: Curves | None = None) -> str:
    return value_axis(data, c is None or c.normalised)


def curves_title(data: RunData, panel: str, prefix: str = "") -> str:
    if data.psq and "board" in panel:
        panel += " (base material weights, without the table entries)"
    return wrap(prefix + panel, 72)


def curves_figure(data: RunData, c: Curves) -> Figure:
    panels = curve_panels(data)
    fig = new_figure(7.6 * len(panels), 4.9, dpi=120)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (name, keys) in zip(axes, panels):
        draw_curves(ax, c, keys, title=curves_title(data, name), ylabel=curves_ylabel(data, c))
    n = len(data.histories)
    what = (conv_text(data.normalisation, n) if c.normalised else
            f"mean of {n} runs, raw weights: not normalised so that the "
            f"{norm_text(data.normalisation)} (the mean {PIECE_NAMES[c.reference[0]]} "
            f"weight is never of that sign, or near 0)")
    fig.suptitle(headline(data, fig) + "\n" + wrap(
        f"Learning curves: after every game, the {what}"
        + (" (of the runs that reached that game)" if len(set(c.runs)) > 1 else "")
        + "; band: \u00b1 one standard deviation over runs of the raw weights"
        + (", same scale" if c.normalised else ""), chars(fig)))
    return fig


# -- final values ---------------------------------------------------------------------------

_BAR_STYLE: dict[str, dict[str, Any]] = {
    "learnt": {"alpha": 0.95, "hatch": None, "fill": True},
    "psq": {"alpha": 0.45, "hatch": "///", "fill": True},
    "paper": {"alpha": 1.0, "hatch": "...", "fill": False},
}


def final_series(data: RunData, f: Finals, compare: bool) -> list[Series]:
    """The series drawn on one value axis: all normalised, or (where the learnt values
    cannot be) all raw; the report's values only beside normalised ones."""
    normalised = f.series[0].normalised
    series = [s for s in f.series if s.normalised == normalised]
    if compare and normalised:
        lab, vals = paper.values(data.variant, data.features)
        if vals:
            series.append(Series(lab, dict(vals), {}, "paper"))
    return series


def draw_finals(ax, series: list[Series], keys: list[str], *, title: str, ylabel: str,
                legend: bool = True, annotate: bool = True) -> None:
    """Bars of each series' values with error bars of one standard deviation; each value
    written beyond the end of its error bar; a legend of the series' styles when there
    are several, each entry a bar container of this axes."""
    n = len(series)
    width = 0.8 / n
    x = np.arange(len(keys))
    tops, bottoms = [0.0], [0.0]
    for j, s in enumerate(series):
        st = _BAR_STYLE[s.style]
        xs = x - 0.4 + width * (j + 0.5)
        drawn = [(xi, k, s.mean[k]) for xi, k in zip(xs, keys)
                 if s.mean.get(k) is not None and not math.isnan(s.mean[k])]
        if not drawn:
            continue
        faces = [mcolors.to_rgba(colour(k), st["alpha"]) if st["fill"] else "white"
                 for _, k, _ in drawn]
        # One container per series, so that its legend entry is a bar that was drawn.
        ax.bar([d[0] for d in drawn], [d[2] for d in drawn], width * 0.92, color=faces,
               edgecolor=[colour(k) for _, k, _ in drawn], hatch=st["hatch"], lw=1.0,
               label=s.label)
        for xi, k, v in drawn:
            e = s.std.get(k, 0.0)
            e = 0.0 if e is None or math.isnan(e) else abs(e)
            if e > 1e-9:
                ax.errorbar(xi, v, yerr=e, color="#222222", capsize=2.5, lw=0.9, capthick=0.9)
            end = v + e if v >= 0 else v - e
            tops.append(end)
            bottoms.append(end)
            if annotate:
                # Beyond the cap: 5 points of gap clear the cap's line and the text's
                # own side bearing.
                ax.annotate(fmt(v), (xi, end), xytext=(0, 5 if v >= 0 else -5),
                            textcoords="offset points", rotation=90, rotation_mode="anchor",
                            ha="left" if v >= 0 else "right", va="center", fontsize=6.5,
                            gid="value-label")
    hi, lo = max(tops), min(bottoms)
    span = max(hi - lo, 1e-9)
    ax.set_ylim(lo - (0.18 * span if lo < 0 else 0), hi + (0.18 * span if hi > 0 else 0.02 * span))
    ax.axhline(0, color="#555555", lw=0.8)
    ax.set_xticks(x, [label(k).replace(" in hand", "\nin hand") for k in keys])
    ax.set_xlim(-0.6, len(keys) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    if legend and len(bars) > 1:
        # Entries from the bars themselves (each shows its first bar): one per series
        # drawn here, nothing that matches no bar.
        ax.legend(handles=bars, labels=[b.get_label() for b in bars], loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), frameon=False, borderaxespad=0.0)


def _same_y(axes) -> None:
    """One value scale for the board and the hand panel (the report normalises both by
    the bishop on the board), so that their bars compare."""
    axes = list(axes)
    if len(axes) > 1:
        lo = min(ax.get_ylim()[0] for ax in axes)
        hi = max(ax.get_ylim()[1] for ax in axes)
        for ax in axes:
            ax.set_ylim(lo, hi)


def final_panels(data: RunData) -> list[tuple[str, list[str]]]:
    panels = [("pieces on the board", list(data.board_pieces))]
    if data.has_hand:
        panels.append(("pieces in hand", [hand_key(p) for p in HAND_PIECES]))
    return panels


def finals_caption(data: RunData, f: Finals) -> str:
    lo, hi = min(f.games), max(f.games)
    when = f"after {lo} games" if lo == hi else f"after {lo}\u2013{hi} games"
    n = len(f.games)
    if f.problem is None:
        text = (f"Final values {when}: {conv_text(data.normalisation, n)}; error bars: one "
                f"standard deviation over runs of the raw weights, same scale")
    else:
        text = (f"Final values {when}: mean of {n} runs, raw weights, {f.problem}; error "
                f"bars: one standard deviation over runs")
    if data.psq and f.psq_problem is None and f.problem is None:
        text += ("; table averages from the mean weights and all runs' visits, scaled so "
                 f"that the {norm_text(data.normalisation)} on average")
    elif data.psq and f.psq_problem is not None and f.problem is None:
        text += f"; table averages not shown: {f.psq_problem}"
    elif data.psq and f.psq_problem is not None:
        text += "; table averages from the mean weights and all runs' visits, raw"
    return minus(text)


def finals_figure(data: RunData, f: Finals, compare: bool = False) -> Figure:
    panels = final_panels(data)
    series = final_series(data, f, compare)
    widths = [len(k) for _, k in panels]
    fig = new_figure(3.4 + 0.4 * sum(widths) * len(series) + 0.8 * len(panels), 4.9, dpi=120)
    axes = fig.subplots(1, len(panels), squeeze=False, width_ratios=widths)[0]
    for i, (ax, (name, keys)) in enumerate(zip(axes, panels)):
        draw_finals(ax, series, keys, title=name, ylabel=value_axis(data, f.problem is None),
                    legend=i == len(panels) - 1)
    _same_y(axes)
    fig.suptitle(f"{headline(data, fig)}\n{wrap(finals_caption(data, f), chars(fig))}")
    return fig


# -- the one-page summary ---------------------------------------------------------------------

def summary_figure(data: RunData, c: Curves, f: Finals, b: Boards | None,
                   compare: bool = False, header: str = "", blocks: Sequence[Any] = (),
                   ) -> Figure:
    """The one-page summary: curves, final values, the tables (psq runs) and, in a
    last row, the bars of the leaf blocks (``blocks``: :class:`plots.blocks.BlockBars`)."""
    cpanels, fpanels = curve_panels(data), final_panels(data)
    series = final_series(data, f, compare)
    side_by_side = len(cpanels) == 1
    rows = (1 if side_by_side else 2) + (1 if b is not None else 0) + (1 if blocks else 0)
    heights = (([4.6] if side_by_side else [4.4, 4.4]) + ([3.65] if b is not None else [])
               + ([3.4] if blocks else []))
    fig = new_figure(16, sum(heights) + 1.0, dpi=100)
    made: Any = fig.subfigures(rows, 1, height_ratios=heights)
    subs: list[Any] = list(np.atleast_1d(made))
    ylabel_c = curves_ylabel(data, c)
    ylabel_f = value_axis(data, f.problem is None)
    if side_by_side:
        axes = subs[0].subplots(1, 2, width_ratios=[1.35, 1])
        draw_curves(axes[0], c, cpanels[0][1], ylabel=ylabel_c,
                    title=curves_title(data, cpanels[0][0], "Learning curves: "))
        draw_finals(axes[1], series, fpanels[0][1], title="Final values: " + fpanels[0][0],
                    ylabel=ylabel_f)
        row = 1
    else:
        axes = subs[0].subplots(1, len(cpanels))
        for ax, (name, keys) in zip(axes, cpanels):
            draw_curves(ax, c, keys, title=curves_title(data, name, "Learning curves: "),
                        ylabel=ylabel_c)
        axes = subs[1].subplots(1, len(fpanels), width_ratios=[len(k) for _, k in fpanels])
        for i, (ax, (name, keys)) in enumerate(zip(axes, fpanels)):
            draw_finals(ax, series, keys, title="Final values: " + name, ylabel=ylabel_f,
                        legend=i == len(fpanels) - 1)
        _same_y(axes)
        row = 2
    if b is not None:
        sub = subs[row]
        axes = sub.subplots(1, len(data.table_pieces), squeeze=False)[0]
        for ax, p in zip(axes, data.table_pieces):
            draw_board(ax, b.values[p], title=PIECE_NAMES[p].capitalize(),
                       caption=min_max_caption(b.values[p], p, data.variant, compare))
        sub.suptitle("Piece-square values: " + heatmap_subtitle(data, b, False), fontsize=9.5)
        row += 1
    if blocks:
        ratios = [len(k.keys) + 3 for k in blocks]
        # An empty last column keeps a block of 2 or 3 bars from spanning the page.
        axes = subs[row].subplots(1, len(blocks) + 1, squeeze=False,
                                  width_ratios=ratios + [max(1, 40 - sum(ratios))])[0]
        axes[-1].axis("off")
        for i, (ax, bb) in enumerate(zip(axes, blocks)):
            draw_block(ax, data, bb, title=wrap(block_title(bb.name)[0], 60), annotate=False)
            if i:
                ax.set_ylabel("")           # one value scale label per row
        subs[row].suptitle("Leaf blocks: final weights, normalised as the values above"
                           if blocks[0].normalised else "Leaf blocks: final weights, raw",
                           fontsize=9.5)
    values = (f"Values: {conv_text(data.normalisation, len(f.games))}; \u00b1 one standard "
              f"deviation over runs of the raw weights, same scale")
    if f.problem is not None:
        values = wrap(minus(f"Values: mean of {len(f.games)} runs, raw weights, {f.problem}"),
                      chars(fig, 12))
    fig.suptitle(headline(data, fig, 12) + f"\n{values}" + (f"\n{header}" if header else ""),
                 fontsize=12)
    return fig


def draw_block(ax: Any, data: RunData, b: BlockBars, *, title: str,
               annotate: bool = True) -> None:
    """The bars of one block, with error bars of one standard deviation over runs; each
    value written beyond the end of its error bar."""
    x = np.arange(len(b.keys))
    pieces = all(k in PIECE_COLOURS for k in b.keys)          # mobility: per piece
    edges = [PIECE_COLOURS[k] if pieces else BAR_COLOUR for k in b.keys]
    ax.bar(x, b.mean, 0.7, color=[(*mcolors.to_rgb(c), 0.85) for c in edges],
           edgecolor=edges, lw=1.0)
    ax.errorbar(x, b.mean, yerr=np.abs(b.std), fmt="none", ecolor="#222222", capsize=2.5,
                lw=0.9, capthick=0.9)
    ends = [float(v + e if v >= 0 else v - e) for v, e in zip(b.mean, np.abs(b.std))]
    if annotate:
        for xi, v, end in zip(x, b.mean, ends):
            ax.annotate(fmt(float(v)), (xi, end), xytext=(0, 5 if v >= 0 else -5),
                        textcoords="offset points", rotation=90, rotation_mode="anchor",
                        ha="left" if v >= 0 else "right", va="center", fontsize=6.5,
                        gid="value-label")
    hi, lo = max(ends + [0.0]), min(ends + [0.0])
    span = max(hi - lo, 1e-9)
    ax.set_ylim(lo - (0.22 * span if lo < 0 else 0), hi + (0.22 * span if hi > 0 else 0.02 * span))
    ax.axhline(0, color="#555555", lw=0.8)
    ax.set_xticks(x, b.keys, rotation=90 if len(b.keys) > 8 else 0)
    ax.set_xlim(-0.6, len(b.keys) - 0.4)
    ax.set_xlabel(wrap(block_title(b.name)[1], 10 + 7 * len(b.keys)))
    ax.set_ylabel(value_axis(data, b.normalised))
    ax.set_title(title)
    ax.grid(True, axis="y", color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)


def block_caption(data: RunData, b: BlockBars, spread: str | None = None) -> str:
    """What the bars are: which runs, which normalisation, what the error bars are
    (``spread``: what a figure without error bars says of the spread over runs
    instead)."""
    lo, hi = min(b.games), max(b.games)
    when = f"after {lo} games" if lo == hi else f"after {lo}\u2013{hi} games"
    n = len(b.games)
    if b.normalised:
        text = (f"Final weights {when}: {conv_text(data.normalisation, n)} by the factor "
                f"of the material values ({b.scale:.4g}); ")
        bars = "error bars: one standard deviation over runs of the raw weights, same scale"
    else:
        text = f"Final weights {when}: mean of {n} runs, raw weights, {b.problem}; "
        bars = "error bars: one standard deviation over runs"
    return minus(text + (bars if spread is None else spread))
