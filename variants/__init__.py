"""Rules of chess and its variants (crazyhouse, suicide, giveaway/antichess, atomic),
compiled with numba and exact to python-chess 1.11.

>>> from variants import Position, perft
>>> perft("atomic", None, 2)
400
"""

from . import jitcache  # noqa: F401  (first: before any function is compiled)
from .errors import (IllegalMoveError, ImpossiblePositionError, ImpossiblePositionWarning,
                     InvalidFenError, UnknownVariantError, VariantError)
from .position import (VARIANTS, Position, board_class, canonical_variant, divide,
                       move_to_uci, perft, position_problems, starting_fen, variant_code)
from .lines import random_line

__all__ = [
    "VARIANTS", "Position", "perft", "divide", "board_class", "canonical_variant",
    "starting_fen", "variant_code", "move_to_uci", "VariantError", "UnknownVariantError",
    "InvalidFenError", "ImpossiblePositionError", "IllegalMoveError",
    "ImpossiblePositionWarning", "position_problems", "random_line",
]
