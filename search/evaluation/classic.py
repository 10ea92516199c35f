"""The classic blocks: material, pieces in hand and piece-square tables, at fixed offsets.

The classic blocks keep their offsets in every layout (material 0..5, hand 6..11, psq
12..395), so that the compiled evaluation (:mod:`search.kernels.classic`) reads them as
constants and updates them move by move; a variant without pockets leaves the hand
entries unused (zero). A variant whose sides differ (spec ``mirror == "colour"``: horde)
also holds Black's own values, at fixed offsets too: ``material_black`` 396..401 and
``psq_black`` 402..785. Leaf blocks are appended after the last of these.

Weights are from White's point of view and in pawns: a white knight adds
``material.N``, a black one subtracts it. Piece-square entries are indexed a1 = 0 ...
h8 = 63 for White; a black piece reads the entry of its square mirrored as the
variant's spec says (:func:`black_view`): by rank (``sq ^ 56``, most variants), by file
(``sq ^ 7``, racing kings, whose start is mirrored left-right) or, with separate values
per colour, its own ``psq_black`` entry ``sq ^ 56`` (for either colour, entries 0..7
are then its own back rank).
"""

from __future__ import annotations

from variants import spec

from .block import HAND_PIECES, PIECES, Block

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

MATERIAL_BLOCK = Block("material", tuple(PIECES), evaluation="incremental", offset=MATERIAL,
                       key_kind="piece", doc="the value of each piece on the board")
HAND_BLOCK = Block("hand", tuple(HAND_PIECES), padding=1, evaluation="incremental",
                   offset=HAND, pockets=True, key_kind="piece",
                   doc="the value of each piece in hand")
PSQ_BLOCK = Block("psq", tuple(PIECES), width=64, evaluation="incremental", offset=PSQ,
                  key_kind="piece", doc="piece-square tables (a1 = 0 ... h8 = 63, White's view)")
MATERIAL_BLACK_BLOCK = Block(
    "material_black", tuple(PIECES), evaluation="incremental", offset=MATERIAL_BLACK,
    colours=True, key_kind="piece",
    doc="the value of each black piece on the board, where the colours differ (horde)")
PSQ_BLACK_BLOCK = Block(
    "psq_black", tuple(PIECES), width=64, evaluation="incremental", offset=PSQ_BLACK,
    colours=True, key_kind="piece",
    doc="Black's own piece-square tables, where the colours differ (horde), Black's view: "
        "its piece on square sq (a1 = 0 ... h8 = 63) reads entry sq ^ 56")

#: The classic blocks, in their offsets' order.
CLASSIC = (MATERIAL_BLOCK, HAND_BLOCK, PSQ_BLOCK, MATERIAL_BLACK_BLOCK, PSQ_BLACK_BLOCK)
CLASSIC_BLOCKS = ("material", "hand", "psq")
#: Black's own blocks: in every layout of a variant with separate values per colour
#: (:func:`separate_colours`), in none of the others.
COLOUR_BLOCKS = ("material_black", "psq_black")


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
