"""Sjeng 11.2's suicide evaluation as tdleaf weights (layout ``psq+sjeng``): its numbers
(seval.c, eval.c) in its own units and sign, and :func:`sjeng_weights`, which puts them
on the material, the tables and the ``sjeng`` block
(:mod:`search.evaluation.blocks.sjeng`, which defines the features). It builds
``runs/blocks/sjeng/suicide-sjeng-own-sign.json``."""

from __future__ import annotations

from typing import Any

from .block import PIECES
from .layout import feature_layout
from .weights import Weights, weights_from_json

#: What each feature is worth to Sjeng (its sign: + is good for the side counted).
SJENG_TERMS: dict[str, float] = {
    "reach.N": 4, "reach.B": 4, "reach.R": 4, "reach.Q": 4, "reach.K": 4, "push": 8,
    "offer": -30, "backward": -8, "isolated": -12, "backward.open": -5,
    "isolated.open": -8, "doubled": -15, "passed": 30, "passed.rank": 3,
    "passed.connected": 6, "outside": 4, "outside.rank": 2, "island": -20}
#: Its suicide material (eval.c): every piece counts for its owner.
SJENG_MATERIAL: dict[str, float] = {"P": 15, "N": 150, "B": 0, "R": 150, "Q": 50, "K": 500}
#: Its centre table for every piece but the king, ranks 1-4 from the a-file (ranks 5-8
#: mirror them); the king gets half of it, rounded down.
SJENG_CENTRE = ((-20, -10, -10, -10, -10, -10, -10, -20),
                (-10, 0, 3, 5, 5, 3, 0, -10),
                (-10, 2, 15, 15, 15, 15, 2, -10),
                (-10, 7, 15, 25, 25, 15, 7, -10))
#: Sjeng's units per pawn of ours: its rook (150) is the report's suicide rook (5).
SJENG_SCALE = 30.0


def _centre(sq: int) -> int:
    r = sq // 8
    return SJENG_CENTRE[min(r, 7 - r)][sq % 8]


def sjeng_weights(variant: str = "suicide") -> Weights:
    """Sjeng 11.2's suicide evaluation as weights of ``psq+sjeng``, with Sjeng's own sign
    (every piece counts for its owner: the opposite of the value set ``sjeng``, which is
    Sjeng's material times -1, as the report used it) and its numbers over
    :data:`SJENG_SCALE`: material, its centre table in every piece's ``psq`` (the king's
    halved), this block's terms. Its opposite-bishops scaling is not in it."""
    layout = feature_layout(variant, "psq+sjeng")
    material = {p: SJENG_MATERIAL[p] / SJENG_SCALE for p in PIECES}
    psq = {p: [(_centre(sq) >> (p == "K")) / SJENG_SCALE for sq in range(64)] for p in PIECES}
    data: dict[str, Any] = {
        "variant": variant, "layout": layout.to_json(), "material": material, "psq": psq,
        "sjeng": {k: x / SJENG_SCALE for k, x in SJENG_TERMS.items()},
        "meta": {"source": "Sjeng 11.2's suicide evaluation (seval.c suicide_mid_eval, "
                           "eval.c suicide_material), its own sign (pieces count for their "
                           "owner; the value set 'sjeng' is its material times -1), its "
                           "units / 30 (rook 150 = 5); its opposite-bishops scaling left "
                           "out",
                 "built_by": "search.evaluation.sjeng_set.sjeng_weights"}}
    w = weights_from_json(data, variant, source="sjeng_weights")
    w.source = "Sjeng 11.2's suicide evaluation, its own sign"
    return w
