"""The report's numbers, for drawing beside ours (``--compare-paper``).

Droste & Fürnkranz, *Learning of Piece Values for Chess Variants* (TUD-KE-2008-07), as
summarised in the project's paper digest and read from the report's tables: each
variant in its own normalisation (chess and crazyhouse bishop = 3, atomic knight = 2.5,
suicide rook = -5). Giveaway and antichess have no numbers of their own; they are
compared with suicide's.

``LEARNT``: the material-only experiment (10 runs x 2,000 games, depth 5), column
"Piece Val." / "Piece-Value" / "Piece Values" of Tables 5.1, 6.1, 7.1, 8.1.
``PSQ_AVERAGE``: the piece-square experiment (20 runs x 10,000 games), tables averaged
with the visit frequencies, column "Avg. P-Sq." / "Piece-Square Values"; crazyhouse's
pieces in hand there are the hand weights learnt beside the tables.
``PSQ_MIN_MAX``: the captions "Min/Max: a/b" of Figures 5.2, 6.3, 7.2, 8.3.
``PAWN_ONE``: Table 9.1, the best-performing sets, normalised to a pawn of (-)1.
"""

from __future__ import annotations

from search.evaluation.value_sets import REPORT_HAND, REPORT_LEARNT
from variants.spec import get as _variant

REPORT = ("Droste & F\u00fcrnkranz 2008, Learning of Piece Values for Chess Variants "
          "(TUD-KE-2008-07)")

#: Tables 5.1, 6.1, 7.1, 8.1: the values the value set ``report`` plays, the king where
#: it is valued (suicide), crazyhouse's pieces in hand marked "@hand".
LEARNT: dict[str, dict[str, float]] = {
    v: {**{p: x for p, x in values.items() if p != "K" or _variant(v).losing},
        **{f"{p}@hand": x for p, x in REPORT_HAND.get(v, {}).items()}}
    for v, values in REPORT_LEARNT.items()}

PSQ_AVERAGE: dict[str, dict[str, float]] = {
    "chess": {"P": 1.05, "N": 2.82, "B": 3.00, "R": 4.51, "Q": 9.38},
    "crazyhouse": {"P": 1.26, "N": 2.54, "B": 3.00, "R": 3.02, "Q": 4.83,
                   "P@hand": 1.03, "N@hand": 2.48, "B@hand": 2.38, "R@hand": 2.96,
                   "Q@hand": 4.47},
    "suicide": {"P": -2.89, "N": -3.44, "B": -3.68, "R": -5.00, "Q": -3.92, "K": -2.81},
    "atomic": {"P": 1.95, "N": 2.50, "B": 2.66, "R": 5.19, "Q": 13.98},
}

PSQ_MIN_MAX: dict[str, dict[str, tuple[float, float]]] = {
    "chess": {"P": (0.92, 2.86), "N": (2.61, 3.13), "B": (2.83, 3.12), "R": (4.41, 4.90),
              "Q": (9.10, 9.55), "K": (0.60, 0.85)},
    "crazyhouse": {"P": (0.66, 2.14), "N": (1.53, 3.97), "B": (2.38, 3.87), "R": (2.30, 4.80),
                   "Q": (4.38, 6.91), "K": (-0.97, 4.25)},
    "suicide": {"P": (-3.76, -2.45), "N": (-4.09, -2.99), "B": (-4.13, -1.64),
                "R": (-5.43, -3.07), "Q": (-4.20, -1.64), "K": (-3.15, -2.66)},
    "atomic": {"P": (0.54, 6.81), "N": (1.74, 5.67), "B": (2.07, 3.33), "R": (4.48, 7.73),
               "Q": (13.25, 22.90), "K": (-2.50, 5.54)},
}

PAWN_ONE: dict[str, dict[str, float]] = {
    "chess": {"P": 1.0, "N": 2.7, "B": 2.9, "R": 4.3, "Q": 8.9},
    "crazyhouse": {"P": 1.0, "N": 2.0, "B": 2.4, "R": 2.4, "Q": 3.8},
    "suicide": {"P": -1.0, "N": -1.4, "B": -1.9, "R": -2.1, "Q": -2.0, "K": -1.3},
    "atomic": {"P": 1.0, "N": 0.9, "B": 0.0, "R": 2.2, "Q": 8.5},
}

_SAME_AS = {"giveaway": "suicide", "antichess": "suicide"}


def paper_variant(variant: str) -> str:
    """The report's variant whose numbers stand for ``variant``."""
    return _SAME_AS.get(variant, variant)


def values(variant: str, features: str) -> tuple[str, dict[str, float]]:
    """``(label, values)``: the report's numbers comparable with a run of ``features``
    (material runs: the learnt values; psq runs: the table averages)."""
    v = paper_variant(variant)
    suffix = "" if v == variant else f", {v}"
    if features == "psq":
        return f"report: table average{suffix}", PSQ_AVERAGE.get(v, {})
    return f"report: learnt{suffix}", LEARNT.get(v, {})


def min_max(variant: str) -> dict[str, tuple[float, float]]:
    return PSQ_MIN_MAX.get(paper_variant(variant), {})
