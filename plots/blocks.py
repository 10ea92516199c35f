"""The leaf blocks a run learnt (``hill``, ``checks``, ``race``, ``mobility``, ...: every
block of :mod:`search.evaluation.registry` after the classic ones), as data for their
figures (:mod:`plots.blockfigures`, one bar chart each, ``block-<name>``).

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

import numpy as np

from search.evaluation.registry import BLOCKS
from variants.normalise import mean_then_normalise

from .runfolder import RunData
from .values import Finals, _index, _run_vectors, value_keys

#: The bars of a block whose keys are not pieces.
BAR_COLOUR = "#4c72b0"


def block_title(name: str) -> tuple[str, str]:
    """``(title, x label)`` of a leaf block: its description's (``Block.title``,
    ``Block.axis``), or a plain one for a block this version does not know."""
    block = BLOCKS.get(name)
    if block is None or not block.title:
        return f"{name}: the learnt weights of the leaf block", "entry"
    return block.title, block.axis


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


