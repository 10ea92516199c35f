"""The built-in material value sets (``traditional``, ``sunsetter``, ``sjeng``, ...), in
pawns, from the paper digest and the engines they name."""

from __future__ import annotations

from typing import Any

from variants import canonical_variant, spec

from .block import HAND_PIECES, PIECES
from .classic import has_pockets, separate_colours
from .errors import WeightsError
from .layout import feature_layout
from .weights import Weights, weights_from_json

#: The report's own learnt material values (its Tables 5.1, 6.1, 7.1, 8.1), in its
#: normalisation: the value set ``report``, to play ours against them, and what
#: ``plots.paper`` draws beside ours.
REPORT_LEARNT: dict[str, dict[str, float]] = {
    "chess": {"P": 1.20, "N": 2.43, "B": 3.0, "R": 4.35, "Q": 9.48, "K": 0.0},
    "crazyhouse": {"P": 1.34, "N": 2.35, "B": 3.0, "R": 3.14, "Q": 6.04, "K": 0.0},
    "suicide": {"P": -2.36, "N": -3.22, "B": -4.41, "R": -5.0, "Q": -4.79, "K": -2.98},
    "atomic": {"P": 2.91, "N": 2.50, "B": -0.77, "R": 6.37, "Q": 24.77, "K": 0.0},
}
#: Its crazyhouse pieces in hand (Table 6.1).
REPORT_HAND: dict[str, dict[str, float]] = {
    "crazyhouse": {"P": 1.49, "N": 2.96, "B": 2.81, "R": 3.53, "Q": 5.63}}

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
    "report": REPORT_LEARNT,
}
#: Pieces in hand where a set values them apart from the pieces on the board (else the same).
_HAND_SETS = {"report": REPORT_HAND}
VALUE_SETS = tuple(_SETS)


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

