"""The ``drops`` block, crazyhouse only: the danger that pieces in hand pose to each
side's own king, White's king minus Black's (a side without a king contributes
nothing). 6 weights:

- ``check.P`` ... ``check.Q``: where the enemy has at least one piece of that type in
  hand, the empty squares where dropping it would give check to the king (pawns: not on
  the first or last rank); else 0;
- ``exposure``: the enemy's pieces in hand (their count) times the empty squares a king
  on ``k`` attacks that no own piece other than the king attacks.

Decisions where the words above leave room: "its king" and "own piece other than the
king" as in :mod:`.safety`; "would give check": the dropped piece attacks ``k`` with the
board as it stands (whose turn it is and whether the drop would be legal play no part);
each square counts once whatever the number of such pieces in hand.

The reference here, on python-chess, defines the features; the compiled kernel is in
:mod:`search.kernels.drops`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import HAND_PIECES, Block, python_chess_board
from .safety import guarded

if TYPE_CHECKING:
    import chess.variant

KEYS = (*(f"check.{p}" for p in HAND_PIECES), "exposure")
#: Offset the kernel reads (``check.*`` are 0..4, by piece type).
EXPOSURE = KEYS.index("exposure")


def drops_features(board: chess.variant.CrazyhouseBoard) -> np.ndarray:
    """``drops`` of a python-chess crazyhouse board (its pieces and pockets), White's
    king minus Black's: each drop is tried on the board (put, its attacks read, taken
    back)."""
    import chess

    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1.0), (chess.BLACK, -1.0)):
        k = board.king(color)
        if k is None:
            continue
        pocket = board.pockets[not color]
        empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
        for t in range(chess.PAWN, chess.KING):
            if not pocket.count(t):
                continue
            for sq in empty:
                if t == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    continue
                board.set_piece_at(sq, chess.Piece(t, not color))
                out[t - 1] += sign * (k in board.attacks(sq))
                board.remove_piece_at(sq)
        open_squares = sum(board.piece_at(sq) is None and not guarded(board, color, sq)
                           for sq in chess.SquareSet(chess.BB_KING_ATTACKS[k]))
        out[EXPOSURE] += sign * len(pocket) * open_squares
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    from variants import core

    board = python_chess_board(bb, st, chess.variant.CrazyhouseBoard, promoted=True)
    assert isinstance(board, chess.variant.CrazyhouseBoard)
    for c, color in ((0, chess.WHITE), (1, chess.BLACK)):
        for t in range(chess.PAWN, chess.KING):
            for _ in range(int(st[core.POCKET + 6 * c + t])):
                board.pockets[color].add(t)
    return drops_features(board)


BLOCK = Block(
    "drops", KEYS, code=8, attacks="zones", reference=_reference, pockets=True,
    key_kind="key",
    doc="crazyhouse: drops of the enemy's pieces in hand that would check the king, and "
        "the enemy's pieces in hand times the king's undefended empty neighbours; White's "
        "king minus Black's",
    title="drops: checking drops of the enemy's pieces in hand, and its pieces in hand "
          "times the king's exposure; White's king minus Black's")
