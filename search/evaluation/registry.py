"""The one registry of feature blocks: every block this version knows, in order.

Adding a block takes its description (a module in :mod:`search.evaluation.blocks`, with
a kernel number of its own), its kernel (a module in :mod:`search.kernels`, and its line
in :mod:`search.kernels.dispatch`) and one entry in :data:`LEAF` below. The feature sets
(``all``), ``--help``, the docs' table and the plots' titles follow from here.
"""

from __future__ import annotations

from variants import spec

from .block import Block
from .blocks import (
    atomic,
    chains,
    checks,
    drops,
    handcount,
    hill,
    kingrel,
    mobility,
    race,
    safety,
    sjeng,
)
from .classic import CLASSIC

#: The leaf blocks with a compiled kernel, in the order ``--features all`` adds them.
LEAF: tuple[Block, ...] = (
    mobility.BLOCK,
    atomic.BLOCK,
    chains.BLOCK,
    checks.BLOCK,
    hill.BLOCK,
    race.BLOCK,
    handcount.BLOCK,
    kingrel.BLOCK,
    safety.BLOCK,
    drops.BLOCK,
    sjeng.BLOCK,
)

#: Names a block may not take (the other top-level fields of ``weights.json``, and the
#: feature sets' goal marker).
RESERVED = ("variant", "meta", "layout", "goal")


def _by_name(blocks: tuple[Block, ...]) -> dict[str, Block]:
    """The blocks by name; each name and each kernel number once."""
    out: dict[str, Block] = {}
    for b in blocks:
        if b.name in out:
            raise ValueError(f"a block named {b.name!r} is registered twice")
        if b.code and any(x.code == b.code for x in out.values()):
            raise ValueError(f"block {b.name!r}: kernel number {b.code} is taken")
        out[b.name] = b
    return out


#: Every block this version knows, by name: the classic ones, then the leaf blocks
#: (:func:`register_block` adds more, without a kernel).
BLOCKS: dict[str, Block] = _by_name(CLASSIC + LEAF)


def register_block(block: Block) -> Block:
    """Add a leaf block without a compiled kernel (its reference computes it, outside the
    search) to :data:`BLOCKS`, so that feature sets and weights files can name it. Its
    entries go after the incremental blocks, in the order a layout lists it."""
    if not block.name.isidentifier() or block.name in RESERVED:
        raise ValueError(f"bad block name {block.name!r}")
    if block.name in BLOCKS:
        raise ValueError(f"a block named {block.name!r} is already registered")
    if block.evaluation != "leaf" or block.offset is not None:
        raise ValueError(f"block {block.name!r}: only leaf blocks, appended after the "
                         "classic ones, can be added")
    if block.code:
        raise ValueError(f"block {block.name!r}: a compiled kernel needs its place in "
                         "search.evaluation.registry.LEAF and search.kernels.dispatch")
    if block.size < 1:
        raise ValueError(f"block {block.name!r} has no entries")
    BLOCKS[block.name] = block
    return block


def leaf_blocks() -> list[Block]:
    """The registered leaf blocks, in order."""
    return [b for b in BLOCKS.values() if b.evaluation == "leaf"]


def block_help() -> str:
    """One line per registered leaf block (name, entries, what it holds), for --help."""
    return "; ".join(f"{b.name} ({b.size} weights: {b.doc})" for b in leaf_blocks()) or "none"


def block_table() -> str:
    """The leaf blocks as a Markdown table (name, weights, the variants it fits, what it holds): the docs' table."""
    rows = ["| block | weights | in | what it holds |", "|---|---|---|---|"]
    for b in leaf_blocks():
        fits = [v for v in spec.VARIANTS if not b.misfit(v)]
        where = "every variant" if len(fits) == len(spec.VARIANTS) else ", ".join(fits)
        rows.append(f"| `{b.name}` | {b.size} | {where} | {b.doc} |")
    return "\n".join(rows)
