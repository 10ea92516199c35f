"""The leaf blocks a run learnt (goal blocks ``hill``, ``checks``, ``race``; issue 31's
``mobility``, ``handcount``, ``kingrel``, ``safety``, ``drops``, ``atomic``, ``chains``):
one bar chart each, ``block-<name>``.

A bar is one weight of the block: the mean over runs of the raw weights, times the
factor that normalises the run's material values (:data:`~plots.runfolder.CONVENTION`,
the factor ``summary.json`` holds as ``normalisation.scale``), with one standard
deviation over runs of the raw weights, times the same factor, as its error bar. The
factor is made by the one normalisation function, :func:`variants.normalise.mean_then_normalise`,
from the material values with the block's weights beside them, so that the material
alone decides it. Where the material values cannot be normalised, the bars are raw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.figure import Figure

from variants.normalise import mean_then_normalise

from . import figures as F
from .runfolder import RunData
from .values import Finals, _index, _run_vectors, value_keys

#: What each leaf block holds (the one-line title of its figure) and what its keys are
#: (the x axis). search.layout's ``Block.doc`` says the same at more length; plots may
#: not import search, and a test checks that every registered leaf block is here.
BLOCK_TITLES: dict[str, tuple[str, str]] = {
    "hill": ("hill: the king's distance to the hill, White minus Black",
             "king steps to the nearest of d4, e4, d5, e5"),
    "checks": ("checks: checks given (at least 1, at least 2), White minus Black",
               "checks given, at least"),
    "race": ("race: the king's rank and its free path to the 8th rank, White minus Black",
             "the king's rank; steps of its free path (7: seven or more), or blocked"),
    "mobility": ("mobility: squares attacked outside the own pieces, White minus Black",
                 "piece type"),
    "handcount": (("handcount: offsets on the hand value for the 2nd, 3rd and each further "
                   "piece of a type in hand, White minus Black"), "piece type and count"),
    "kingrel": (("kingrel: pieces near their own and the enemy king, by distance and "
                 "direction, White minus Black"), "king, piece, distance, direction"),
    "safety": (("safety: around each king, squares attacked by each enemy piece type, "
                "defended, pawn shield; White's king minus Black's"), "entry"),
    "drops": (("drops: checking drops of the enemy's pieces in hand, and its pieces in hand "
               "times the king's exposure; White's king minus Black's"), "entry"),
    "atomic": (("atomic: captures exploding the enemy king or a queen, pieces next to the "
                "own king, kings touching; White minus Black"), "entry"),
    "chains": (("chains: captures by piece type, pieces the enemy can take, captures "
                "available and forced; White minus Black"), "entry"),
}
#: The bars of a block whose keys are not pieces.
BAR_COLOUR = "#4c72b0"


def block_title(name: str) -> tuple[str, str]:
    """``(title, x label)`` of a leaf block (a plain one for a block this version of
    plots does not describe)."""
    return BLOCK_TITLES.get(name, (f"{name}: the learnt weights of the leaf block", "entry"))


@dataclass
class BlockBars:
    """One leaf block's final weights: per key (the order of ``keys``), the mean over
    runs and the standard deviation over runs, normalised as the material values are
    (``normalised``) or raw."""

    name: str
    keys: list[str]
    mean: np.ndarray
    std: np.ndarray
    raw_mean: np.ndarray
    raw_std: np.ndarray
    scale: float                    # the material values' factor (NaN: raw)
    games: list[int]                # games played by each run used
    problem: str | None = None      # why raw (the material values' reason)
    #: The run's material (and hand) values on the same scale as the bars ("P",
    #: "P@hand": the mean over the same runs, normalised or raw as the bars are).
    values: dict[str, float] = field(default_factory=dict)

    @property
    def normalised(self) -> bool:
        return not math.isnan(self.scale)


def block_bars(data: RunData, f: Finals) -> list[BlockBars]:
    """The bars of every leaf block of ``data`` (none for a classic folder). ``f``: the
    run's final values (:func:`plots.values.finals`), for the reason when raw."""
    if not data.leaf_keys:
        return []
    piece, target = data.normalisation
    keys = value_keys(data)
    size = sum(len(k) for k in data.leaf_keys.values())
    rows, games = [], []
    for h, (w, _, g) in zip(data.histories, _run_vectors(data)):
        ck = data.checkpoints.get(h.run)
        # A run known only from its history has material values but no block weights.
        leaf = ck.leaf if ck is not None else np.full(size, np.nan)
        rows.append(np.concatenate([[w[_index(k)] for k in keys], leaf]))
        if ck is not None:
            games.append(g)
    if not games:
        return []
    raw = np.array(rows)
    # The material columns alone decide the factor (typical_of), as for the final values.
    mean, std, scale = mean_then_normalise(raw, keys.index(piece), target,
                                           typical_of=list(range(len(keys))))
    used = raw[[not np.isnan(r[-1]) for r in rows], len(keys):]
    raw_mean, raw_std = used.mean(axis=0), used.std(axis=0)
    scale = float(scale)
    out, at = [], len(keys)
    for name, bkeys in data.leaf_keys.items():
        span = slice(at, at + len(bkeys))
        part = slice(at - len(keys), at - len(keys) + len(bkeys))
        raw_part = math.isnan(scale)
        used_values = raw[[not np.isnan(r[-1]) for r in rows], :len(keys)].mean(axis=0)
        values = dict(zip(keys, map(float, used_values if raw_part else mean[:len(keys)])))
        out.append(BlockBars(name, list(bkeys),
                             raw_mean[part] if raw_part else mean[span],
                             raw_std[part] if raw_part else std[span],
                             raw_mean[part], raw_std[part], scale, games,
                             f.problem if raw_part else None, values))
        at += len(bkeys)
    return out


def draw_block(ax: Any, data: RunData, b: BlockBars, *, title: str,
               annotate: bool = True) -> None:
    """The bars of one block, with error bars of one standard deviation over runs; each
    value written beyond the end of its error bar."""
    x = np.arange(len(b.keys))
    pieces = all(k in F.PIECE_COLOURS for k in b.keys)          # mobility: per piece
    edges = [F.PIECE_COLOURS[k] if pieces else BAR_COLOUR for k in b.keys]
    ax.bar(x, b.mean, 0.7, color=[(*mcolors.to_rgb(c), 0.85) for c in edges],
           edgecolor=edges, lw=1.0)
    ax.errorbar(x, b.mean, yerr=np.abs(b.std), fmt="none", ecolor="#222222", capsize=2.5,
                lw=0.9, capthick=0.9)
    ends = [float(v + e if v >= 0 else v - e) for v, e in zip(b.mean, np.abs(b.std))]
    if annotate:
        for xi, v, end in zip(x, b.mean, ends):
            ax.annotate(F.fmt(float(v)), (xi, end), xytext=(0, 5 if v >= 0 else -5),
                        textcoords="offset points", rotation=90, rotation_mode="anchor",
                        ha="left" if v >= 0 else "right", va="center", fontsize=6.5,
                        gid="value-label")
    hi, lo = max(ends + [0.0]), min(ends + [0.0])
    span = max(hi - lo, 1e-9)
    ax.set_ylim(lo - (0.22 * span if lo < 0 else 0), hi + (0.22 * span if hi > 0 else 0.02 * span))
    ax.axhline(0, color="#555555", lw=0.8)
    ax.set_xticks(x, b.keys, rotation=90 if len(b.keys) > 8 else 0)
    ax.set_xlim(-0.6, len(b.keys) - 0.4)
    ax.set_xlabel(F.wrap(block_title(b.name)[1], 10 + 7 * len(b.keys)))
    ax.set_ylabel(F.value_axis(data, b.normalised))
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
        text = (f"Final weights {when}: {F.conv_text(data.normalisation, n)} by the factor "
                f"of the material values ({b.scale:.4g}); ")
        bars = "error bars: one standard deviation over runs of the raw weights, same scale"
    else:
        text = f"Final weights {when}: mean of {n} runs, raw weights, {b.problem}; "
        bars = "error bars: one standard deviation over runs"
    return F.minus(text + (bars if spread is None else spread))


def block_figure(data: RunData, b: BlockBars) -> Figure:
    """The figure ``block-<name>``: the block's bars under a one-line title of what it
    holds."""
    if b.name == "kingrel":             # 90 weights: a grid of heatmaps, not bars
        from .kingrel import kingrel_figure  # it imports this module
        return kingrel_figure(data, b)
    if b.name == "handcount":           # offsets: drawn as the value of each piece in hand
        from .handcount import handcount_figure  # it imports this module
        return handcount_figure(data, b)
    title = block_title(b.name)[0]
    # Wide enough for the title on one line (about 0.56 em a character at 10 points).
    width = max(6.4, 2.4 + 0.42 * len(b.keys), 1.2 + len(title) * 10 * 0.56 / 72)
    fig = F.new_figure(width, 4.9, dpi=120)
    ax = fig.subplots()
    draw_block(ax, data, b, title=title)
    fig.suptitle(f"{F.headline(data, fig)}\n{F.wrap(block_caption(data, b), F.chars(fig))}")
    return fig
