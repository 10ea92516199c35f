"""The ``mobility`` block, every variant: per piece type, the squares its pieces attack
outside their own side's pieces, White's minus Black's."""

from __future__ import annotations

import numpy as np

from ..block import PIECES, Block, python_chess_board


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """By python-chess: per piece type, the squares each piece attacks
    (``chess.BaseBoard.attacks``) outside its own side's pieces, White's minus Black's."""
    import chess

    board = python_chess_board(bb, st, chess.Board)
    out = np.zeros(len(PIECES))
    for sq, piece in board.piece_map().items():
        n = len(board.attacks(sq) & ~chess.SquareSet(board.occupied_co[piece.color]))
        out[piece.piece_type - 1] += n if piece.color == chess.WHITE else -n
    return out


BLOCK = Block(
    "mobility", tuple(PIECES), code=1, attacks="board", reference=_reference,
    key_kind="piece",
    doc="squares attacked outside the own pieces, per piece type, White minus Black "
        "(computed at the leaves)",
    title="mobility: squares attacked outside the own pieces, White minus Black",
    axis="piece type")
