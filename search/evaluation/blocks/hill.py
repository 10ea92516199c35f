"""The ``hill`` block, king of the hill only (its goal block, in its ``psq`` set): the
king's Chebyshev distance to the hill (d4, e4, d5, e5), one-hot d = 1, 2, 3, White's
minus Black's (d = 0 ends the game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board

if TYPE_CHECKING:
    import chess


def hill_features(board: chess.Board) -> np.ndarray:
    """``hill`` of a python-chess board: one-hot d = 1, 2, 3 of the king's Chebyshev
    distance (``chess.square_distance``) to the nearest hill square, White's minus
    Black's."""
    import chess

    out = np.zeros(3)
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        if king is None:
            continue
        d = min(chess.square_distance(king, h) for h in (chess.D4, chess.E4, chess.D5, chess.E5))
        if d:
            out[d - 1] += sign
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    return hill_features(python_chess_board(bb, st, chess.variant.KingOfTheHillBoard))


BLOCK = Block(
    "hill", ("1", "2", "3"), code=3, reference=_reference,
    win_condition="king-on-hill", key_kind="distance",
    doc="kingofthehill only, in its psq set: the king's distance to the hill, 1-3, "
        "White minus Black",
    title="hill: the king's distance to the hill, White minus Black",
    axis="king steps to the nearest of d4, e4, d5, e5")
