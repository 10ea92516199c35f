"""Rules of chess and its variants (crazyhouse, suicide, giveaway/antichess, atomic,
king of the hill, three-check, racing kings, horde), compiled with numba and exact to
python-chess 1.11.

>>> from variants import Position, perft
>>> perft("atomic", None, 2)
400

Importing the package is cheap: the names that need the compiled rules (``Position``,
``perft``, ...) load them on first use (PEP 562), so :mod:`variants.spec` and
:mod:`variants.errors` import without numba, NumPy or python-chess. numba's cache
stamps (:mod:`variants.jitcache`) are installed by :mod:`variants.bits`, which every
compiled module imports before it defines a function.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    IllegalMoveError,
    ImpossiblePositionError,
    ImpossiblePositionWarning,
    InvalidFenError,
    TdleafError,
    UnknownVariantError,
    VariantError,
)
from .spec import VARIANTS, canonical_variant

if TYPE_CHECKING:
    from .lines import random_line
    from .position import (
        Position,
        board_class,
        divide,
        move_to_uci,
        perft,
        position_problems,
        starting_fen,
        variant_code,
    )

#: Names loaded on first use, and the module of each.
_LAZY = {
    "Position": "position", "perft": "position", "divide": "position",
    "board_class": "position", "starting_fen": "position", "variant_code": "position",
    "move_to_uci": "position", "position_problems": "position", "random_line": "lines",
}

__all__ = [
    "VARIANTS",
    "IllegalMoveError",
    "ImpossiblePositionError",
    "ImpossiblePositionWarning",
    "InvalidFenError",
    "Position",
    "TdleafError",
    "UnknownVariantError",
    "VariantError",
    "board_class",
    "canonical_variant",
    "divide",
    "move_to_uci",
    "perft",
    "position_problems",
    "random_line",
    "starting_fen",
    "variant_code",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value        # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
