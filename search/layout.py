"""Feature layout, weight files and the built-in value sets.

An evaluation is one weight vector plus the :class:`FeatureLayout` that names its
entries. A layout is a sequence of named :class:`Block` s (``material``, ``hand``,
``psq``, and whatever later blocks :func:`register_block` adds); it is built per variant
from a named feature set (:data:`FEATURE_SETS`, ``--features`` of ``tdleaf learn``) and
written, versioned, into ``weights.json``::

    "layout": {"name": "psq", "version": 2, "blocks": ["material", "hand", "psq"]}

The classic blocks keep fixed offsets (material 0..5, hand 6..11, psq 12..395) in every
layout, so that the compiled evaluation reads them as constants; a variant without
pockets leaves the hand entries unused (zero). A variant whose sides differ (spec
``mirror == "colour"``: horde) also holds Black's own values, at fixed offsets too:
``material_black`` 396..401 and ``psq_black`` 402..785. Every other block is appended
after the last of these, where the compiled code finds it through
:attr:`FeatureLayout.table`. A file without a ``"layout"`` field is the classic layout,
version 1: all three classic blocks in every variant, exactly as files were written
before layouts were versioned.

Weights are from White's point of view and in pawns: a white knight adds
``material.N``, a black one subtracts it. Piece-square entries are indexed a1 = 0 ...
h8 = 63 for White; a black piece reads the entry of its square mirrored as the
variant's spec says (:func:`black_view`): by rank (``sq ^ 56``, most variants), by file
(``sq ^ 7``, racing kings, whose start is mirrored left-right) or, with separate values
per colour, its own ``psq_black`` entry ``sq ^ 56`` (for either colour, entries 0..7
are then its own back rank).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from variants import canonical_variant, spec

from . import shipped

PIECES = "PNBRQK"
HAND_PIECES = "PNBRQ"

# Offsets of the classic blocks in every weight vector (fixed: numba code uses them).
MATERIAL = 0      # 6 entries, P..K
HAND = 6          # 6 entries, P..Q (+1 unused so that type t maps to HAND + t - 1)
PSQ = 12          # 6 x 64 entries
BASE_SIZE = PSQ + 6 * 64
#: The size of the classic layout (every layout has at least these entries).
N_FEATURES = BASE_SIZE
# Black's own blocks where the colours have separate values (spec mirror "colour"):
MATERIAL_BLACK = BASE_SIZE          # 6 entries, P..K
PSQ_BLACK = MATERIAL_BLACK + 6      # 6 x 64 entries, Black's view (its piece on sq: sq ^ 56)
COLOUR_SIZE = PSQ_BLACK + 6 * 64    # where the leaf blocks start in those variants
#: How a black piece's square maps onto the table it reads, per spec mirror.
SQUARE_XOR = {"rank": 56, "file": 7, "colour": 56}

#: The newest layout version this code reads and writes (1: files without "layout").
LAYOUT_VERSION = 2


class WeightsError(ValueError):
    """A weights file or value-set name that cannot be used."""


def _number(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise WeightsError(f"{where} must be a finite number, got {x!r}")
    return float(x)


def has_pockets(variant: str) -> bool:
    """Whether a variant keeps pieces in hand (the ``hand`` block applies)."""
    return spec.get(variant).pockets


def separate_colours(variant: str) -> bool:
    """Whether a variant values Black's pieces apart from White's (spec mirror
    ``"colour"``: horde), so that its layouts hold ``material_black`` and ``psq_black``."""
    return spec.get(variant).mirror == "colour"


def black_view(variant: str) -> tuple[int, int, int]:
    """Where Black's pieces read their weights in a variant: ``(material offset, table
    offset, square xor)``. A black piece of type ``t`` (1..6) on ``sq`` is worth
    ``-(w[m + t - 1] + w[p + 64 * (t - 1) + (sq ^ x)])``, a white one
    ``w[MATERIAL + t - 1] + w[PSQ + 64 * (t - 1) + sq]``."""
    mirror = spec.get(variant).mirror
    if mirror == "colour":
        return MATERIAL_BLACK, PSQ_BLACK, SQUARE_XOR[mirror]
    return MATERIAL, PSQ, SQUARE_XOR[mirror]


def incremental_size(variant: str) -> int:
    """Where the leaf blocks start in a variant's layouts: after the classic blocks and,
    with separate values per colour, after Black's."""
    return COLOUR_SIZE if separate_colours(variant) else BASE_SIZE


@dataclass(frozen=True)
class Block:
    """A named group of weights, stored in ``weights.json`` under its name.

    Its entries are ``keys`` (one number each) or, when ``width`` > 1, rows of ``width``
    numbers (``{"P": [64 numbers]}``), then ``padding`` unused entries (never saved).

    How it is evaluated: ``"incremental"`` blocks are the classic ones (and Black's own
    where the colours differ), at a fixed ``offset``, evaluated by
    :func:`search.evaluate.evaluate` and updated move by move;
    ``"leaf"`` blocks are appended after them and computed from the whole position:
    ``code`` names their compiled kernel in :mod:`search.evaluate` (0: none), and
    ``reference(bb, st)`` (the position's arrays -> its ``size`` features, White's view,
    pure Python) serves a block without a kernel and is the definition that tests hold
    the kernel to."""

    name: str
    keys: tuple[str, ...]
    width: int = 1
    padding: int = 0
    evaluation: str = "leaf"
    offset: int | None = None
    code: int = 0
    pockets: bool = False           # only in variants with pieces in hand
    colours: bool = False           # only in variants with separate values per colour
    #: Only in variants won this way (one of their ``spec.Variant.win_conditions``).
    win_condition: str | None = None
    #: Only in variants with this rule flag of ``spec.Variant`` set (``"explosions"``,
    #: ``"losing"``).
    rule: str | None = None
    reference: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = field(
        default=None, compare=False)
    key_kind: str = "entry"         # what a key is, for error messages ("piece")
    doc: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return f"Block({self.name!r}, {self.size} entries, {self.evaluation})"

    @property
    def size(self) -> int:
        return len(self.keys) * self.width + self.padding

    def misfit(self, variant: str) -> str | None:
        """Why the block has no place in a variant's layout (None: it has one)."""
        v = spec.get(variant)
        if self.pockets and not v.pockets:
            return f"block {self.name!r} needs pieces in hand, which {v.name} has not"
        if self.colours and v.mirror != "colour":
            own = [u.name for u in spec.SPECS.values() if u.mirror == "colour"]
            return (f"block {self.name!r} holds Black's own values, which only a variant "
                    f"with separate values per colour has ({', '.join(own)}); {v.name} "
                    f"mirrors its tables between the colours by {v.mirror}")
        if self.win_condition is not None and self.win_condition not in v.win_conditions:
            won = [u.name for u in spec.SPECS.values() if self.win_condition in u.win_conditions]
            return (f"block {self.name!r} is for {', '.join(won)} only (win condition "
                    f"{self.win_condition!r}), not {v.name}")
        if self.rule is not None and not getattr(v, self.rule):
            ruled = [u.name for u in spec.SPECS.values() if getattr(u, self.rule)]
            return (f"block {self.name!r} is for {', '.join(ruled)} only (rule "
                    f"{self.rule!r}), not {v.name}")
        return None

    @property
    def entries(self) -> list[str]:
        """The name of each entry within the block (``P``, ``K.63``; ``-`` unused)."""
        if self.width == 1:
            out = list(self.keys)
        else:
            out = [f"{k}.{i}" for k in self.keys for i in range(self.width)]
        return out + ["-"] * self.padding

    def to_json(self, values: np.ndarray) -> dict[str, Any]:
        if self.width == 1:
            return {k: float(values[i]) for i, k in enumerate(self.keys)}
        return {k: [float(x) for x in values[self.width * i:self.width * (i + 1)]]
                for i, k in enumerate(self.keys)}

    def from_json(self, part: Any, source: str) -> np.ndarray:
        """The block's entries from its part of a ``weights.json`` (absent keys are 0)."""
        out = np.zeros(self.size, dtype=np.float64)
        if part is None:
            return out
        if not isinstance(part, dict):
            raise WeightsError(f"{source}: {self.name!r} must be an object")
        for k, x in part.items():
            if k not in self.keys:
                raise WeightsError(f"{source}: unknown {self.key_kind} {k!r} in {self.name!r}")
            i = self.keys.index(k)
            if self.width == 1:
                out[i] = _number(x, f"{source}: {self.name}.{k}")
                continue
            if not isinstance(x, list) or len(x) != self.width:
                raise WeightsError(f"{source}: {self.name}.{k} must be a list of "
                                   f"{self.width} numbers")
            for j, y in enumerate(x):
                out[self.width * i + j] = _number(y, f"{source}: {self.name}.{k}[{j}]")
        return out


MATERIAL_BLOCK = Block("material", tuple(PIECES), evaluation="incremental", offset=MATERIAL,
                       key_kind="piece", doc="the value of each piece on the board")
HAND_BLOCK = Block("hand", tuple(HAND_PIECES), padding=1, evaluation="incremental",
                   offset=HAND, pockets=True, key_kind="piece",
                   doc="the value of each piece in hand")
PSQ_BLOCK = Block("psq", tuple(PIECES), width=64, evaluation="incremental", offset=PSQ,
                  key_kind="piece", doc="piece-square tables (a1 = 0 ... h8 = 63, White's view)")
CLASSIC_BLOCKS = ("material", "hand", "psq")
#: In a feature set: the variant's goal block (``spec.Variant.goal_block``, the features
#: of its own way to win: ``checks``, ``hill``, ``race``), where it has one.
GOAL = "goal"
MATERIAL_BLACK_BLOCK = Block(
    "material_black", tuple(PIECES), evaluation="incremental", offset=MATERIAL_BLACK,
    colours=True, key_kind="piece",
    doc="the value of each black piece on the board, where the colours differ (horde)")
PSQ_BLACK_BLOCK = Block(
    "psq_black", tuple(PIECES), width=64, evaluation="incremental", offset=PSQ_BLACK,
    colours=True, key_kind="piece",
    doc="Black's own piece-square tables, where the colours differ (horde), Black's view: "
        "its piece on square sq (a1 = 0 ... h8 = 63) reads entry sq ^ 56")
#: Black's own blocks: in every layout of a variant with separate values per colour
#: (:func:`separate_colours`), in none of the others.
COLOUR_BLOCKS = ("material_black", "psq_black")

#: Every block this version knows, by name (:func:`register_block` adds more).
BLOCKS: dict[str, Block] = {b.name: b for b in (MATERIAL_BLOCK, HAND_BLOCK, PSQ_BLOCK,
                                                  MATERIAL_BLACK_BLOCK, PSQ_BLACK_BLOCK)}


def register_block(block: Block) -> Block:
    """Add a leaf block to :data:`BLOCKS`, so that feature sets and weights files can
    name it. Its entries go after the incremental blocks (the classic ones, and Black's
    own where the colours differ), in the order a layout lists it."""
    if not block.name.isidentifier() or block.name in ("variant", "meta", "layout", GOAL):
        raise ValueError(f"bad block name {block.name!r}")
    if block.name in BLOCKS:
        raise ValueError(f"a block named {block.name!r} is already registered")
    if block.evaluation != "leaf" or block.offset is not None:
        raise ValueError(f"block {block.name!r}: only leaf blocks, appended after the "
                         "classic ones, can be added")
    if block.size < 1:
        raise ValueError(f"block {block.name!r} has no entries")
    BLOCKS[block.name] = block
    return block


#: Kernel codes of the leaf blocks that have a compiled kernel (search.evaluate's
#: ``_block_kernel`` dispatches on them; 0: none).
MOBILITY_CODE = 1
#: The goal blocks' (search.goal_blocks; kernels in search.goal_kernels).
CHECKS_CODE, HILL_CODE, RACE_CODE = 2, 3, 4
#: Issue 31's blocks (references beside their registration, kernels in the matching
#: ``*_kernels`` module): search.hand_blocks, .kingrel_blocks, .safety_blocks (safety and
#: drops), .atomic_blocks, .chain_blocks.
HANDCOUNT_CODE, KINGREL_CODE, SAFETY_CODE, DROPS_CODE, ATOMIC_CODE, CHAINS_CODE = range(5, 11)


def _mobility_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """The ``mobility`` block by python-chess: per piece type, the squares each piece
    attacks (``chess.BaseBoard.attacks``) outside its own side's pieces, White's minus
    Black's. The definition the compiled kernel is held to."""
    import chess

    from variants import core

    board = chess.BaseBoard.empty()
    white = int(bb[core.OCC])
    for sq in range(64):
        if st[sq]:
            board.set_piece_at(sq, chess.Piece(int(st[sq]), bool(white >> sq & 1)))
    out = np.zeros(len(PIECES))
    for sq, piece in board.piece_map().items():
        n = len(board.attacks(sq) & ~chess.SquareSet(board.occupied_co[piece.color]))
        out[piece.piece_type - 1] += n if piece.color == chess.WHITE else -n
    return out


#: Mobility for every variant (issue 31): 6 weights, one per piece type.
MOBILITY_BLOCK = register_block(Block(
    "mobility", tuple(PIECES), code=MOBILITY_CODE, reference=_mobility_reference,
    key_kind="piece", doc="squares attacked outside the own pieces, per piece type, "
                          "White minus Black (computed at the leaves)"))


def block_help() -> str:
    """One line per registered leaf block (name, entries, what it holds), for --help."""
    return "; ".join(f"{b.name} ({b.size} weights: {b.doc})" for b in BLOCKS.values()
                     if b.evaluation == "leaf") or "none"


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
    return [b.name for b in BLOCKS.values() if b.evaluation == "leaf" and b.code
            and not b.misfit(variant) and b.name not in held]


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
            known = [b.name for b in BLOCKS.values() if b.evaluation == "leaf"]
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
        """The leaf blocks for compiled code: int64 rows (kernel code, offset, size)."""
        rows = [(b.code, self.offsets[b.name], b.size) for b in self.blocks
                if b.evaluation == "leaf"]
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "blocks": self.block_names}


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
    if not has_pockets(variant):
        misplaced = [b for b in blocks if BLOCKS[b].pockets]
        if misplaced:
            raise WeightsError(f"{source}: block(s) {', '.join(misplaced)} need pieces in "
                               f"hand, which {canonical_variant(variant)} has not")
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


# --- Built-in value sets (paper digest; in pawns) ------------------------------------

_TRADITIONAL = {"P": 1.0, "N": 3.0, "B": 3.0, "R": 5.0, "Q": 9.0, "K": 0.0}

#: The multi-variant Stockfish's tuned piece values (midgame, endgame), in its internal
#: units, from src/types.h of github.com/ddugovic/Stockfish at 8a59ec98 (2024-07-03;
#: its standard, "House", Atomic, "Anti" (its giveaway and suicide play by these too,
#: the king included), "Hill", THREECHECK, RACE and HORDE values). Racing kings has no
#: pawns.
_STOCKFISH_ANTI = {"P": (-108, -165), "N": (-155, 194), "B": (-270, 133), "R": (-472, 56),
                   "Q": (-114, -218), "K": (-23, 173)}
_STOCKFISH_MG_EG: dict[str, dict[str, tuple[int, int]]] = {
    "chess": {"P": (126, 208), "N": (781, 854), "B": (825, 915), "R": (1276, 1380),
              "Q": (2538, 2682)},
    "crazyhouse": {"P": (149, 206), "N": (447, 527), "B": (450, 521), "R": (619, 669),
                   "Q": (878, 965)},
    "atomic": {"P": (235, 346), "N": (434, 668), "B": (564, 728), "R": (789, 1058),
               "Q": (1437, 1927)},
    "suicide": _STOCKFISH_ANTI, "giveaway": _STOCKFISH_ANTI, "antichess": _STOCKFISH_ANTI,
    "kingofthehill": {"P": (136, 225), "N": (657, 781), "B": (763, 849), "R": (1010, 1175),
                      "Q": (2104, 2402)},
    "3check": {"P": (111, 205), "N": (565, 736), "B": (633, 729), "R": (1032, 1426),
               "Q": (1914, 2303)},
    "racingkings": {"N": (777, 881), "B": (1025, 1070), "R": (1272, 1847), "Q": (1674, 2280)},
    "horde": {"P": (321, 326), "N": (888, 991), "B": (743, 1114), "R": (948, 1230),
              "Q": (2736, 2554)},
}


def _stockfish_values(variant: str) -> dict[str, float]:
    """One value per piece from :data:`_STOCKFISH_MG_EG`: the mean of the midgame and
    endgame values (our evaluation has no game phase), scaled by the spec's rule (White's
    piece where the colours differ: both colours share the one scale, as in Stockfish).
    The king is 0 where it never leaves the board (horde's king value is a constant
    there); in the losing variants it has Stockfish's value."""
    mg_eg = _STOCKFISH_MG_EG[variant]
    piece, target = spec.get(variant).normalisation()
    scale = target / (sum(mg_eg[piece]) / 2)
    return {p: round(sum(mg_eg[p]) / 2 * scale, 3) if p in mg_eg else 0.0 for p in PIECES}

_LOSING = {"P": -1.0, "N": -3.0, "B": -3.0, "R": -5.0, "Q": -9.0, "K": -2.0}
_SETS: dict[str, dict[str, dict[str, float]]] = {
    # name -> variant -> material (hand = material where the variant has pockets)
    "traditional": {"chess": _TRADITIONAL, "crazyhouse": _TRADITIONAL, "atomic": _TRADITIONAL,
                    "suicide": _LOSING, "giveaway": _LOSING, "antichess": _LOSING,
                    **{v: _TRADITIONAL for v in spec.VARIANTS if not spec.get(v).losing}},
    "sunsetter": {
        "chess": {"P": 0.96, "N": 2.87, "B": 3.0, "R": 4.49, "Q": 8.60, "K": 0.0},
        "crazyhouse": {"P": 1.54, "N": 2.95, "B": 3.0, "R": 3.08, "Q": 6.00, "K": 0.0},
    },
    "sjeng": {
        "crazyhouse": {"P": 1.30, "N": 2.74, "B": 3.0, "R": 3.26, "Q": 5.87, "K": 0.0},
        # Sjeng's eval.c values multiplied by -1, as the report did.
        "suicide": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
        "giveaway": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
        "antichess": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
    },
    "losers": {
        v: {"P": -1.14, "N": -4.57, "B": -3.86, "R": -5.0, "Q": -5.71, "K": -14.29}
        for v in spec.with_flag("losing")
    },
    "ones": {v: {p: 1.0 for p in PIECES} for v in spec.VARIANTS},
    "stockfish": {v: _stockfish_values(v) for v in _STOCKFISH_MG_EG},
    # The report's own learnt material values (its Tables 5.1, 6.1, 7.1, 8.1), in its
    # normalisation: to play ours against them. The same numbers as plots.paper.LEARNT,
    # which the engine cannot import (plots pulls in matplotlib); a test keeps them equal.
    "report": {
        "chess": {"P": 1.20, "N": 2.43, "B": 3.0, "R": 4.35, "Q": 9.48, "K": 0.0},
        "crazyhouse": {"P": 1.34, "N": 2.35, "B": 3.0, "R": 3.14, "Q": 6.04, "K": 0.0},
        "suicide": {"P": -2.36, "N": -3.22, "B": -4.41, "R": -5.0, "Q": -4.79, "K": -2.98},
        "atomic": {"P": 2.91, "N": 2.50, "B": -0.77, "R": 6.37, "Q": 24.77, "K": 0.0},
    },
}
#: Pieces in hand where a set values them apart from the pieces on the board (else the same).
_HAND_SETS = {"report": {"crazyhouse": {"P": 1.49, "N": 2.96, "B": 2.81, "R": 3.53, "Q": 5.63}}}
VALUE_SETS = tuple(_SETS)


@dataclass
class Weights:
    """A weight vector with its variant, free-form metadata and layout.

    ``layout`` names every entry (:class:`FeatureLayout`; default: the classic layout,
    version 1); ``w.size == layout.size``. ``source`` says where the weights came from,
    for people (not saved by :meth:`to_json`): ``"value set traditional"``, ``"file:
    /path/weights.json"``, or a shipped reference set, ``"learnt-psq (package data:
    /.../weights.json)"`` (``user data`` when the per-user data folder overrides it; see
    :mod:`search.shipped`)."""

    variant: str
    w: np.ndarray
    meta: dict[str, Any]
    source: str | None = field(default=None, compare=False)
    layout: FeatureLayout = field(default=LAYOUT, compare=False)
    #: The ``weights.json`` they were read from (None: a value set, avg-psq, in memory).
    path: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if np.shape(self.w) != (self.layout.size,):
            raise WeightsError(f"{self.layout.name} layout has {self.layout.size} weights, "
                               f"got a vector of shape {np.shape(self.w)}")
        # The compiled evaluation reads Black's own blocks where the colours differ, and
        # only there: a layout without them (or with them elsewhere) cannot be played.
        why = missing_colours(self.layout, self.variant) or next(
            (m for b in self.layout.blocks if b.colours for m in [b.misfit(self.variant)] if m),
            None)
        if why:
            raise WeightsError(why)

    def copy(self) -> Weights:
        return Weights(self.variant, self.w.copy(), dict(self.meta), self.source, self.layout,
                       self.path)

    def in_layout(self, layout: FeatureLayout) -> Weights:
        """The same weights in another layout, block by block (blocks it lacks are 0).
        Raises WeightsError if a non-zero weight has no place in ``layout``."""
        if layout == self.layout:
            return self.copy()
        w = np.zeros(layout.size, dtype=np.float64)
        moved = np.zeros(self.w.size, dtype=bool)
        for b in self.layout.blocks:
            if layout.has(b.name):
                w[layout.span(b.name)] = self.w[self.layout.span(b.name)]
                moved[self.layout.span(b.name)] = True
        lost = np.flatnonzero(~moved & (self.w != 0))
        if lost.size:
            raise WeightsError(f"{self.source or 'weights'}: {self.layout.names[lost[0]]} is not "
                               f"zero and the {layout.name!r} layout has no place for it "
                               f"(blocks: {', '.join(layout.block_names)})")
        return Weights(self.variant, w, dict(self.meta), self.source, layout)

    def to_json(self) -> dict[str, Any]:
        """The ``weights.json`` content: every block by name (the classic layout without
        a ``"layout"`` field, as version 1 files are written). Raises WeightsError if an
        entry outside the layout's blocks is not zero (it would be lost)."""
        layout, w = self.layout, self.w
        used = layout.mask(layout.block_names)
        for b in layout.blocks:         # padding is not saved either
            used[layout.offsets[b.name]:layout.offsets[b.name] + b.size] = True
        lost = np.flatnonzero(~used & (w != 0))
        if lost.size:
            raise WeightsError(f"weights outside the {layout.name!r} layout's blocks are not "
                               f"zero (entry {int(lost[0])}): they would not be saved")
        out: dict[str, Any] = {"variant": self.variant}
        if layout.version > 1:
            out["layout"] = layout.to_json()
        for b in layout.blocks:
            out[b.name] = b.to_json(w[layout.span(b.name)])
        out["meta"] = self.meta
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``weights.json`` atomically (a crash leaves the old file intact)."""
        shipped.save_text("weights.json", json.dumps(self.to_json(), indent=1), path)


def weights_from_json(data: Any, variant: str | None = None, source: str = "weights") -> Weights:
    """Validate a parsed ``weights.json``; absent parts are zero. A file without a
    ``"layout"`` field is the classic layout (version 1); a layout of a newer version, or
    with a block this version does not know, is refused."""
    if not isinstance(data, dict):
        raise WeightsError(f"{source}: expected a JSON object")
    file_variant = data.get("variant")
    if file_variant is None and variant is None:
        raise WeightsError(f"{source}: no 'variant' field")
    named = file_variant if file_variant is not None else variant
    assert named is not None
    try:
        file_variant = canonical_variant(named)
    except ValueError as exc:
        raise WeightsError(f"{source}: {exc}") from None
    # Variants that share their rules share weights (antichess's are giveaway's).
    if variant is not None and not spec.same_rules(file_variant, canonical_variant(variant)):
        raise WeightsError(f"{source}: weights are for {file_variant}, not {canonical_variant(variant)}")
    layout = layout_from_json(data.get("layout"), file_variant, source)
    for key in data:
        if key in ("variant", "meta", "layout") or layout.has(key):
            continue
        if key in BLOCKS:
            raise WeightsError(f"{source}: block {key!r} is not in the file's layout "
                               f"{layout.name!r} (blocks: {', '.join(layout.block_names)})")
        raise WeightsError(f"{source}: unknown field {key!r}")
    w = np.zeros(layout.size, dtype=np.float64)
    for b in layout.blocks:
        w[layout.span(b.name)] = b.from_json(data.get(b.name) or {}, source)
    meta = data.get("meta", {}) or {}
    if not isinstance(meta, dict):
        raise WeightsError(f"{source}: 'meta' must be an object")
    return Weights(file_variant, w, meta, layout=layout)


def value_set(name: str, variant: str) -> Weights:
    """A built-in material value set (``traditional``, ``sunsetter``, ``sjeng``, ...)."""
    variant = canonical_variant(variant)
    if name not in _SETS:
        raise WeightsError(f"unknown value set {name!r}; expected one of: {', '.join(VALUE_SETS)}")
    if variant not in _SETS[name]:
        raise WeightsError(f"value set {name!r} has no values for {variant}; "
                           f"it covers {', '.join(_SETS[name])}")
    material = _SETS[name][variant]
    data: dict[str, Any] = {"variant": variant, "material": material, "meta": {"value_set": name}}
    if has_pockets(variant):
        hand = _HAND_SETS.get(name, {}).get(variant)
        data["hand"] = hand or {p: material[p] for p in HAND_PIECES}
    if separate_colours(variant):
        # The same values for both colours, in the layout that holds Black's own.
        data["layout"] = feature_layout(variant, "material").to_json()
        data["material_black"] = dict(material)
    w = weights_from_json(data, variant, source=f"value set {name!r}")
    w.source = f"value set {name}"
    return w


def load_weights(spec: str | os.PathLike[str], variant: str) -> Weights:
    """Weights from a file path, a result folder, a built-in value-set name or a
    reference set (``learnt``, ``learnt-<kind>`` such as ``learnt-psq``, ``avg-psq``)."""
    text = os.fspath(spec)
    if text in _SETS:
        return value_set(text, variant)
    if text in REFERENCE_SETS:
        return reference_weights(text, variant)
    path = Path(text)
    if path.is_dir():
        path = path / "weights.json"
    if not path.exists():
        raise WeightsError(f"no weights file or value set named {text!r} "
                           f"(value sets: {', '.join(VALUE_SETS + REFERENCE_SETS)})")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path}: corrupt weights file: {exc}") from None
    w = weights_from_json(data, variant, source=str(path))
    w.source = f"file: {path}"
    w.path = path
    return w


def _reference_sets() -> tuple[str, ...]:
    try:
        kinds = shipped.reference_kinds()
    except shipped.ShippedDataError:
        kinds = []
    return ("learnt",) + tuple(f"learnt-{k}" for k in kinds) + (shipped.AVERAGE,)


#: Names of the learnt reference weights (search/data/manifest.json): ``learnt`` is the
#: variant's default (:func:`default_weights_name`), ``learnt-<kind>`` one of its sets
#: (``learnt-material``, ``learnt-psq``, a set with feature blocks); ``avg-psq`` is
#: material only, each piece worth its table's visit-weighted average (the report's
#: "average p-sq" player).
REFERENCE_SETS = _reference_sets()


def _reference_entry(name: str, variant: str) -> dict[str, Any] | None:
    """The manifest entry behind a reference-set name (``learnt``: the set the default
    is made of), or None."""
    if name == "learnt":
        kind = None
    elif name == shipped.AVERAGE:
        kind = shipped.AVERAGED_KIND
    elif name.startswith("learnt-"):
        kind = name[len("learnt-"):]
    else:
        raise WeightsError(f"unknown reference set {name!r}; expected one of: "
                           f"{', '.join(REFERENCE_SETS)}")
    try:
        return shipped.reference_set(canonical_variant(variant), kind)
    except shipped.ShippedDataError as exc:
        raise WeightsError(str(exc)) from None


def reference_weights_path(variant: str, features: str | None = None) -> Path | None:
    """The shipped learnt ``weights.json`` of a variant, or None: the set its default is
    made of (``search/data/manifest.json``; the user data folder's copy first), or
    ``features`` ("psq", "material", ...) for one of them."""
    entry = _reference_entry(f"learnt-{features}" if features else "learnt", variant)
    return None if entry is None else shipped.find(entry["weights"])


def default_weights_name(variant: str) -> str:
    """The name of what :func:`default_weights` plays: ``learnt-<kind>`` of the
    variant's default reference set, ``avg-psq`` when the manifest's default is its
    tables' averages, else ``traditional``."""
    try:
        name = shipped.default_name(canonical_variant(variant))
    except shipped.ShippedDataError as exc:
        raise WeightsError(str(exc)) from None
    if name is None:
        return "traditional"
    return name if name == shipped.AVERAGE else f"learnt-{name}"


def reference_weights(name: str, variant: str) -> Weights:
    """A reference set by name (see :data:`REFERENCE_SETS`)."""
    variant = canonical_variant(variant)
    if name == "learnt" and (default := default_weights_name(variant)) != "traditional":
        name = default                 # what the default is: learnt-<kind> or avg-psq
    entry = _reference_entry(name, variant)
    path = None if entry is None else shipped.find(entry["weights"])
    if entry is None:
        raise WeightsError(f"{name}: no learnt reference weights ship for {variant} (none "
                           f"in search/data/manifest.json)")
    if path is None:
        raise WeightsError(f"{name}: the manifest names {entry['weights']} for {variant}, "
                           f"missing from {shipped.package_data_dir()}: a broken install")
    if name == shipped.AVERAGE:
        summary = shipped.find(entry.get("summary", ""))
        if summary is None:
            raise WeightsError(f"avg-psq: no summary.json ships for {variant}'s psq set")
        w = _average_psq(load_weights(path, variant), summary, variant)
        w.source = f"avg-psq ({shipped.describe(summary)})"
        return w
    w = load_weights(path, variant)
    w.source = f"learnt-{entry['kind']} ({shipped.describe(path)})"
    return w


def average_psq_weights(run_dir: str | os.PathLike[str], variant: str) -> Weights:
    """Material-only weights from a piece-square result folder: each piece worth the
    visit-weighted average of its table (``summary.json``'s ``psq_average``); pieces in
    hand keep the learnt hand values (tables are for pieces on the board only)."""
    folder = Path(run_dir)
    w = _average_psq(load_weights(folder, variant), folder / "summary.json", variant)
    w.source = f"avg-psq (file: {folder / 'summary.json'})"
    return w


def _average_psq(learnt: Weights, summary_path: Path, variant: str) -> Weights:
    colours = separate_colours(variant)
    values = []
    try:
        summary = json.loads(summary_path.read_text())
        # Black's own averages are in the summary's "black" part where the colours differ.
        for key, part in [("psq_average", summary)] + (
                [("black.psq_average", summary["black"])] if colours else []):
            averages = part["psq_average"]
            values.append({p: _number(averages[p], f"{key}.{p}") for p in PIECES})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{summary_path}: no usable psq_average ({exc})") from None
    if not spec.get(variant).losing:
        for material in values:
            material["K"] = 0.0    # kings are never traded: a constant, as in learning
    data: dict[str, Any] = {"variant": canonical_variant(variant), "material": values[0],
                            "meta": {"value_set": "avg-psq", "source": str(summary_path.parent)}}
    if colours:
        data["layout"] = feature_layout(variant, "material").to_json()
        data["material_black"] = values[1]
    else:
        data["hand"] = {p: float(learnt.w[HAND + i]) for i, p in enumerate(HAND_PIECES)}
    return weights_from_json(data, variant, source=f"avg-psq of {summary_path.parent}")


def default_weights(variant: str) -> Weights:
    """The default evaluation: the variant's default learnt reference set
    (search/data/manifest.json), else the traditional values. A set the manifest names
    but the installation lacks is an error, never a silent fall back to traditional."""
    if _reference_entry("learnt", variant) is not None:
        return reference_weights("learnt", variant)
    return value_set("traditional", variant)


def weights_or_default(weights: Weights | str | os.PathLike[str] | None, variant: str) -> Weights:
    """``weights`` as :class:`Weights`: as they are, loaded (:func:`load_weights`), or the
    variant's default for None."""
    if weights is None:
        return default_weights(variant)
    if isinstance(weights, Weights):
        return weights
    return load_weights(weights, variant)


def weights_file(w: Weights) -> Path | None:
    """The ``weights.json`` the weights were loaded from, or None for a value set,
    avg-psq or weights made in memory."""
    return w.path


def save_meta(w: Weights, updates: dict[str, Any]) -> Path | None:
    """Add ``updates`` to the meta of the ``weights.json`` that ``w`` was loaded from and
    write it: shipped weights (or the user's copy of them) to the user's copy in the
    per-user data folder, never into the installed package. The file written, or None for
    weights not loaded from a file."""
    path = weights_file(w)
    if path is None:
        return None
    found = shipped.origin(path)
    if found is not None:
        path = shipped.user_data_dir() / found[1]
    w.meta.update(updates)
    w.save(path)
    return path


def weights_digest(w: np.ndarray) -> str:
    """A short fingerprint of a weight vector: the first 12 hex digits of the SHA-256
    of its float64 values (little-endian), to tell two evaluations apart."""
    data = np.ascontiguousarray(w, dtype="<f8").tobytes()
    return hashlib.sha256(data).hexdigest()[:12]


# The goal blocks and issue 31's register themselves (last: they import this module).
from . import (  # noqa: F401
    atomic_blocks,
    chain_blocks,
    goal_blocks,
    hand_blocks,
    kingrel_blocks,
    safety_blocks,
)
