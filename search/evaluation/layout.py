"""Feature layouts: which blocks a weight vector holds, where, and the named feature sets.

A layout is a sequence of named blocks (:mod:`search.evaluation.registry`); it is built
per variant from a named feature set (:data:`FEATURE_SETS`, ``--features`` of ``tdleaf
learn``) and written, versioned, into ``weights.json``::

    "layout": {"name": "psq", "version": 2, "blocks": ["material", "hand", "psq"]}

The classic blocks keep their fixed offsets (:mod:`search.evaluation.classic`); every
other block is appended after the last of them, where the compiled code finds it through
:attr:`FeatureLayout.table`. A file without a ``"layout"`` field is the classic layout,
version 1: all three classic blocks in every variant, exactly as files were written
before layouts were versioned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from variants import canonical_variant, spec

from .block import Block
from .classic import (
    BASE_SIZE,
    CLASSIC_BLOCKS,
    COLOUR_BLOCKS,
    HAND_BLOCK,
    MATERIAL_BLOCK,
    PSQ_BLOCK,
    separate_colours,
)
from .errors import WeightsError
from .registry import BLOCKS, leaf_blocks

#: The newest layout version this code reads and writes (1: files without "layout").
LAYOUT_VERSION = 2
#: In a feature set: the variant's goal block (``spec.Variant.goal_block``, the features
#: of its own way to win: ``checks``, ``hill``, ``race``), where it has one.
GOAL = "goal"
#: The columns of :attr:`FeatureLayout.table`: kernel code, offset, size, attack extent.
TABLE_COLUMNS = 4

#: Named feature sets: the blocks a layout holds and those learning changes (hand only
#: where the variant has pockets). ``tdleaf learn --features NAME``, or ``NAME+block+...``
#: to add registered blocks (held and learnt).
FEATURE_SETS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # The tables are in every classic layout: the evaluation reads them (zero, or from
    # --init weights) even where only material is learnt.
    # Black's own blocks are held (and learnt as White's are) only where the colours
    # have separate values: feature_layout leaves them out elsewhere.
    "material": (CLASSIC_BLOCKS + COLOUR_BLOCKS, ("material", "hand", "material_black")),
    "psq": (CLASSIC_BLOCKS + COLOUR_BLOCKS + (GOAL,), CLASSIC_BLOCKS + COLOUR_BLOCKS + (GOAL,)),
}


#: The feature set of every block: ``psq`` and each registered leaf block (with a
#: compiled kernel) that fits the variant (:func:`expand_features`).
ALL = "all"


def extra_blocks(variant: str) -> list[str]:
    """The registered leaf blocks with a compiled kernel that fit ``variant`` and are
    not already in its ``psq`` set (its goal block is), in registration order."""
    held, _ = _feature_set("psq", variant)
    return [b.name for b in leaf_blocks() if b.code and not b.misfit(variant)
            and b.name not in held]


def expand_features(features: str, variant: str) -> str:
    """A feature-set name with :data:`ALL` spelt out for ``variant``
    (``psq+mobility+...``); any other name as it is."""
    if str(features) != ALL:
        return str(features)
    return "+".join(["psq", *extra_blocks(variant)])


def _feature_set(features: str, variant: str) -> tuple[list[str], list[str]]:
    """(blocks held, blocks learnt) of a feature-set name such as ``psq+safety`` in a
    variant (:data:`GOAL` replaced by its goal block, or dropped; :data:`ALL` spelt
    out)."""
    base, *extra = expand_features(features, variant).split("+")
    if base not in FEATURE_SETS:
        raise WeightsError(f"unknown feature set {base!r}; expected one of: "
                           f"{', '.join(FEATURE_SETS)} (then +block for added blocks), "
                           f"or {ALL}")
    goal = spec.get(variant).goal_block
    held, learnt = ([b for b in names if b != GOAL] + ([goal] if goal and GOAL in names else [])
                    for names in FEATURE_SETS[base])
    in_set = list(held)
    for name in extra:
        if name not in BLOCKS or BLOCKS[name].evaluation != "leaf":
            known = [b.name for b in leaf_blocks()]
            raise WeightsError(f"unknown feature block {name!r} in {features!r}; added blocks: "
                               f"{', '.join(known) or 'none yet'}")
        misfit = BLOCKS[name].misfit(variant)
        if misfit:
            raise WeightsError(f"--features {features}: {misfit}")
        if name in in_set:
            raise WeightsError(f"block {name!r} is already in the {base!r} set of "
                               f"{canonical_variant(variant)} (its goal block)")
        if name in held:
            raise WeightsError(f"block {name!r} named twice in {features!r}")
        held.append(name)
        learnt.append(name)
    return held, learnt


def feature_layout(variant: str, features: str = "psq") -> FeatureLayout:
    """The layout (version :data:`LAYOUT_VERSION`) of a feature set in a variant: in
    ``psq``, the variant's goal block too (``spec.Variant.goal_block``)."""
    held, _ = _feature_set(features, variant)
    return FeatureLayout(features, LAYOUT_VERSION,
                         tuple(BLOCKS[b] for b in held if not BLOCKS[b].misfit(variant)))


def learnt_blocks(variant: str, features: str) -> tuple[str, ...]:
    """The blocks of a feature set that learning changes, in a variant."""
    _, learnt = _feature_set(features, variant)
    layout = feature_layout(variant, features)
    return tuple(b for b in learnt if layout.has(b))


@dataclass(frozen=True)
class FeatureLayout:
    """Names and offsets of every weight; ``names[i]`` labels ``w[i]``.

    The default is the classic layout (version 1). Entries of a classic block the layout
    lacks (the hand in chess) are unused, named ``-.<i>``, and stay zero."""

    name: str = "classic"
    version: int = 1
    blocks: tuple[Block, ...] = (MATERIAL_BLOCK, HAND_BLOCK, PSQ_BLOCK)
    offsets: dict[str, int] = field(init=False, compare=False, repr=False)
    size: int = field(init=False, compare=False, repr=False)
    #: Where the leaf blocks start: after the last incremental block (at least BASE_SIZE).
    leaf_start: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        offsets: dict[str, int] = {}
        end = max([BASE_SIZE] + [b.offset + b.size for b in self.blocks if b.offset is not None])
        object.__setattr__(self, "leaf_start", end)
        for b in self.blocks:
            if b.name in offsets:
                raise WeightsError(f"block {b.name!r} twice in layout {self.name!r}")
            if b.offset is not None:
                offsets[b.name] = b.offset
            else:
                offsets[b.name] = end
                end += b.size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "size", end)

    def has(self, name: str) -> bool:
        return name in self.offsets

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(f"no block {name!r} in layout {self.name!r} "
                       f"(blocks: {', '.join(self.block_names)})")

    def span(self, name: str) -> slice:
        """Where a block's entries lie in the weight vector."""
        b = self.block(name)
        return slice(self.offsets[name], self.offsets[name] + b.size)

    @property
    def block_names(self) -> list[str]:
        return [b.name for b in self.blocks]

    @property
    def names(self) -> list[str]:
        out = [f"-.{i}" for i in range(self.size)]
        for b in self.blocks:
            at = self.offsets[b.name]
            for i, e in enumerate(b.entries):
                out[at + i] = f"{b.name}.{e}"
        return out

    def mask(self, names: Iterable[str]) -> np.ndarray:
        """Boolean mask of the used entries of the given blocks (padding excluded)."""
        m = np.zeros(self.size, dtype=bool)
        for n in names:
            b = self.block(n)
            at = self.offsets[n]
            m[at:at + b.size - b.padding] = True
        return m

    @property
    def table(self) -> np.ndarray:
        """The leaf blocks for compiled code: int64 rows of :data:`TABLE_COLUMNS` (kernel
        code, offset, size, the attack maps it reads: ``Block.extent``)."""
        rows = [(b.code, self.offsets[b.name], b.size, b.extent) for b in self.blocks
                if b.evaluation == "leaf"]
        return np.array(rows, dtype=np.int64).reshape(-1, TABLE_COLUMNS)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "blocks": self.block_names}


#: The classic layout: version 1, what a ``weights.json`` without "layout" holds.
#: The classic layout: version 1, what a ``weights.json`` without "layout" holds.
LAYOUT = FeatureLayout()


def layout_from_json(data: Any, variant: str, source: str = "weights") -> FeatureLayout:
    """The layout a ``weights.json`` names in its ``"layout"`` field (None: classic)."""
    if data is None:
        return _needs_colours(LAYOUT, variant, source)
    if not isinstance(data, dict):
        raise WeightsError(f"{source}: 'layout' must be an object")
    for key in data:
        if key not in ("name", "version", "blocks"):
            raise WeightsError(f"{source}: unknown field {key!r} in 'layout'")
    version, name, blocks = data.get("version"), data.get("name", "classic"), data.get("blocks")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise WeightsError(f"{source}: layout version must be a positive integer, got {version!r}")
    if version > LAYOUT_VERSION:
        raise WeightsError(f"{source}: layout version {version} is newer than this tdleaf "
                           f"reads (up to {LAYOUT_VERSION}): upgrade tdleaf to use it")
    if not isinstance(name, str):
        raise WeightsError(f"{source}: layout name must be a string, got {name!r}")
    if not isinstance(blocks, list) or not all(isinstance(b, str) for b in blocks):
        raise WeightsError(f"{source}: layout blocks must be a list of block names")
    if version == 1:
        if blocks != list(CLASSIC_BLOCKS):
            raise WeightsError(f"{source}: layout version 1 has the blocks "
                               f"{', '.join(CLASSIC_BLOCKS)}, not {', '.join(blocks)}")
        return _needs_colours(LAYOUT, variant, source)
    unknown = [b for b in blocks if b not in BLOCKS]
    if unknown:
        raise WeightsError(f"{source}: layout {name!r} has block(s) this tdleaf does not know: "
                           f"{', '.join(unknown)} (known: {', '.join(BLOCKS)}); written by "
                           "a newer version?")
    for b in blocks:
        misfit = BLOCKS[b].misfit(variant)
        if misfit:
            raise WeightsError(f"{source}: {misfit}")
    try:
        layout = FeatureLayout(name, version, tuple(BLOCKS[b] for b in blocks))
    except WeightsError as exc:
        raise WeightsError(f"{source}: {exc}") from None
    return _needs_colours(layout, variant, source)


def missing_colours(layout: FeatureLayout, variant: str) -> str | None:
    """Why ``layout`` cannot hold a variant's weights for want of Black's own blocks
    (None when it can): a variant with separate values per colour needs them, since the
    compiled evaluation reads Black's values there."""
    missing = [b for b in COLOUR_BLOCKS if not layout.has(b)]
    if not missing or not separate_colours(variant):
        return None
    return (f"{canonical_variant(variant)} values Black's pieces apart from White's: its "
            f"weights need the block(s) {', '.join(missing)}, which layout {layout.name!r} "
            f"(version {layout.version}) lacks")


def _needs_colours(layout: FeatureLayout, variant: str, source: str) -> FeatureLayout:
    why = missing_colours(layout, variant)
    if why:
        raise WeightsError(f"{source}: {why}")
    return layout


