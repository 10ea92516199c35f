"""The ``handcount`` block, crazyhouse: pieces in hand valued by how many are in hand.

The ``hand`` block gives each piece in hand one value whatever the count; the report
(section 6.1) asks whether the 2nd knight in hand is worth what the 1st is. This block
adds, per piece type ``p`` (P, N, B, R, Q), offsets for the 2nd, the 3rd, and each one
from the 4th on: features ``p2 = [n >= 2]``, ``p3 = [n >= 3]``, ``p4+ = max(0, n - 3)``
for ``n`` pieces of that type in a side's hand, White's minus Black's. The k-th piece in
hand is then worth ``hand.p`` plus the offsets up to k.
"""

from __future__ import annotations

import numpy as np

from ..block import HAND_PIECES, Block

#: Offsets per piece type: the 2nd, the 3rd, and each from the 4th on.
COUNTS = ("2", "3", "4+")
KEYS = tuple(f"{p}{k}" for p in HAND_PIECES for k in COUNTS)
#: Entries per piece type (the kernel's stride).
PER_TYPE = len(COUNTS)


def handcount_features(white: dict[str, int], black: dict[str, int]) -> np.ndarray:
    """``handcount`` of two pockets (piece letter -> count in hand)."""
    out = np.zeros(len(KEYS))
    for pocket, sign in ((white, 1.0), (black, -1.0)):
        for i, p in enumerate(HAND_PIECES):
            n = pocket.get(p, 0)
            out[PER_TYPE * i:PER_TYPE * (i + 1)] += sign * np.array(
                [n >= 2, n >= 3, max(0, n - 3)], dtype=float)
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """From the position's pockets (the tests hold it to python-chess's)."""
    from variants import core

    pockets = [{p: int(st[core.POCKET + 6 * c + t]) for t, p in enumerate(HAND_PIECES, 1)}
               for c in (0, 1)]
    return handcount_features(*pockets)


BLOCK = Block(
    "handcount", KEYS, code=5, reference=_reference, pockets=True, key_kind="count",
    doc="crazyhouse: offsets on the hand values for the 2nd, 3rd and each further piece "
        "of a type in hand, White minus Black",
    title="handcount: offsets on the hand value for the 2nd, 3rd and each further piece "
          "of a type in hand, White minus Black",
    axis="piece type and count")
