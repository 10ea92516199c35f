"""The ``checks`` block, three-check only (its goal block, in its ``psq`` set): the checks
already given, by count; feature k (k = 1, 2) = [White has given at least k checks] -
[Black has]."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board

if TYPE_CHECKING:
    import chess.variant


def checks_features(board: chess.variant.ThreeCheckBoard) -> np.ndarray:
    """``checks`` of a python-chess board: feature k (k = 1, 2) = [White has given at
    least k checks] - [Black has]; checks given = 3 - ``board.remaining_checks[colour]``."""
    import chess

    out = np.zeros(2)
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        given = 3 - board.remaining_checks[color]
        for k in (1, 2):
            out[k - 1] += sign * (given >= k)
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    board = python_chess_board(bb, st, chess.variant.ThreeCheckBoard)
    assert isinstance(board, chess.variant.ThreeCheckBoard)
    return checks_features(board)


BLOCK = Block(
    "checks", ("1", "2"), code=2, reference=_reference, win_condition="third-check",
    key_kind="count",
    doc="3check only, in its psq set: at least 1 and at least 2 checks given, White "
        "minus Black",
    title="checks: checks given (at least 1, at least 2), White minus Black",
    axis="checks given, at least")
