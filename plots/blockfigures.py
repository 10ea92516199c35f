"""The figure ``block-<name>`` of each leaf block a run learnt: bars, or a figure of
its own where bars do not read well (``kingrel``'s grid, ``handcount``'s values by
count)."""

from __future__ import annotations

from matplotlib.figure import Figure

from . import figures as F
from .blocks import BlockBars, block_title
from .handcount import handcount_figure
from .kingrel import kingrel_figure
from .runfolder import RunData


def block_figure(data: RunData, b: BlockBars) -> Figure:
    """The figure ``block-<name>``: the block's bars under a one-line title of what it
    holds."""
    if b.name == "kingrel":             # 90 weights: a grid of heatmaps, not bars
        return kingrel_figure(data, b)
    if b.name == "handcount":           # offsets: drawn as the value of each piece in hand
        return handcount_figure(data, b)
    title = block_title(b.name)[0]
    # Wide enough for the title on one line (about 0.56 em a character at 10 points).
    width = max(6.4, 2.4 + 0.42 * len(b.keys), 1.2 + len(title) * 10 * 0.56 / 72)
    fig = F.new_figure(width, 4.9, dpi=120)
    ax = fig.subplots()
    F.draw_block(ax, data, b, title=title)
    fig.suptitle(f"{F.headline(data, fig)}\n{F.wrap(F.block_caption(data, b), F.chars(fig))}")
    return fig
