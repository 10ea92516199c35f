"""The ``kingrel`` block's figure: its 90 weights as a grid of small heatmaps, one per
king (own, enemy) and piece type, each distance (1-3 king steps) by direction (ahead,
level, behind, in the frame of the piece's owner). Bars would be unreadable at 90."""

from __future__ import annotations

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.figure import Figure

from . import figures as F
from .blocks import BlockBars, block_title
from .runfolder import RunData

KINGS = ("own", "enemy")
KINGREL_PIECES = "PNBRQ"
DISTANCES = (1, 2, 3)
WAYS = ("ahead", "level", "behind")


def kingrel_grid(b: BlockBars) -> np.ndarray:
    """The block's means as (king, piece, distance, direction), checked against its keys."""
    expected = [f"{k}.{p}.{d}.{w}" for k in KINGS for p in KINGREL_PIECES for d in DISTANCES
                for w in WAYS]
    if b.keys != expected:
        raise ValueError("kingrel: unexpected keys (this version of plots reads "
                         f"{expected[0]} ... {expected[-1]})")
    return np.asarray(b.mean, dtype=float).reshape(len(KINGS), len(KINGREL_PIECES),
                                                   len(DISTANCES), len(WAYS))


def kingrel_figure(data: RunData, b: BlockBars) -> Figure:
    """``block-kingrel``: rows own / enemy king, columns P..Q; in each panel the rows are
    the directions (ahead on top) and the columns the distances; one diverging colour
    scale centred on 0 for all, every value written in."""
    grid = kingrel_grid(b)
    half = max(float(np.nanmax(np.abs(grid))), 1e-9)
    norm = mcolors.Normalize(-half, half)
    fig = F.new_figure(11.0, 6.2, dpi=120)
    axes = fig.subplots(len(KINGS), len(KINGREL_PIECES), squeeze=False)
    image = None
    for i, king in enumerate(KINGS):
        for j, piece in enumerate(KINGREL_PIECES):
            ax = axes[i][j]
            panel = grid[i, j].T                 # rows: directions, columns: distances
            image = ax.imshow(panel, cmap="RdBu", norm=norm, interpolation="nearest")
            for r in range(len(WAYS)):
                for c in range(len(DISTANCES)):
                    v = float(panel[r, c])
                    ax.text(c, r, F.fmt(v), ha="center", va="center", fontsize=7,
                            color="white" if abs(v) > 0.6 * half else "black")
            ax.set_xticks(range(len(DISTANCES)), [str(d) for d in DISTANCES])
            ax.set_yticks(range(len(WAYS)), list(WAYS) if j == 0 else [""] * len(WAYS))
            ax.tick_params(length=0, labelsize=8)
            ax.set_title(f"{piece}, {king} king", fontsize=9)
            if i == len(KINGS) - 1:
                ax.set_xlabel("king steps", fontsize=8)
    assert image is not None
    fig.colorbar(image, ax=[a for row in axes for a in row], shrink=0.8,
                 label=F.value_axis(data, b.normalised))
    caption = F.block_caption(data, b, "standard deviations over runs: summary.json's blocks_std")
    fig.suptitle(f"{F.headline(data, fig)}\n{block_title(b.name)[0]}\n"
                 f"{F.wrap(caption, F.chars(fig))}", fontsize=10)
    return fig
