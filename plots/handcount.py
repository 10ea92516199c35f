"""The ``handcount`` block's figure: what the 1st, 2nd, 3rd and each further piece of a
type in hand is worth (the ``hand`` value plus the block's offsets up to that count),
grouped by piece type, on the scale of the run's material values."""

from __future__ import annotations

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.figure import Figure

from . import figures as F
from .blocks import BlockBars
from .runfolder import HAND_PIECES, RunData

#: The counts drawn, and the block's offsets that apply from each on.
COUNTS = ("1st", "2nd", "3rd", "4th+")
OFFSETS = ("2", "3", "4+")


def hand_values_by_count(b: BlockBars) -> dict[str, list[float]]:
    """Per piece type, the value of its 1st, 2nd, 3rd and of each further piece in hand:
    ``hand`` + the offsets up to that count (the 4th and each later one: ``hand`` + all
    three)."""
    offsets = dict(zip(b.keys, map(float, b.mean)))
    out = {}
    for p in HAND_PIECES:
        value = b.values[f"{p}@hand"]
        row = [value]
        for k in OFFSETS:
            value += offsets[f"{p}{k}"]
            row.append(value)
        out[p] = row
    return out


def handcount_figure(data: RunData, b: BlockBars) -> Figure:
    """``block-handcount``: per piece type, four bars (1st, 2nd, 3rd, 4th and later piece
    in hand), each with its value written above or below it."""
    values = hand_values_by_count(b)
    fig = F.new_figure(8.4, 5.0, dpi=120)
    ax = fig.subplots()
    width = 0.2
    for i, p in enumerate(HAND_PIECES):
        colour = F.PIECE_COLOURS[p]
        for j, v in enumerate(values[p]):
            x = i + (j - 1.5) * width
            alpha = 0.95 - 0.2 * j
            ax.bar(x, v, width * 0.9, color=(*mcolors.to_rgb(colour), alpha), edgecolor=colour,
                   lw=0.8, label=COUNTS[j] if i == 0 else None)
            ax.annotate(F.fmt(v), (x, v), xytext=(0, 3 if v >= 0 else -3),
                        textcoords="offset points", ha="center",
                        va="bottom" if v >= 0 else "top", fontsize=6.5, rotation=90)
    ax.axhline(0, color="#555555", lw=0.8)
    ax.set_xticks(np.arange(len(HAND_PIECES)), list(HAND_PIECES))
    ax.set_xlabel("piece type in hand; bars: the 1st, 2nd, 3rd and each further piece")
    ax.set_ylabel(F.value_axis(data, b.normalised))
    ax.legend(fontsize=8, ncols=4, loc="upper left")
    ax.grid(True, axis="y", color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)
    caption = F.block_caption(data, b, "a piece's value: its hand value plus the block's "
                                     "offsets up to its count")
    ax.set_title("handcount: the value of each piece in hand by how many are in hand")
    fig.suptitle(f"{F.headline(data, fig)}\n{F.wrap(caption, F.chars(fig))}", fontsize=10)
    return fig
