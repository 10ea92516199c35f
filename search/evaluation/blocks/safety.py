"""The ``safety`` block, every variant: the danger to each side's own king.

A side's features are computed around its king, and the block's features are White's
minus Black's (a side without a king, as horde's White, contributes nothing). The zone
of a king on ``k`` is ``k`` and the squares a king on ``k`` attacks. 9 weights:

- ``attacked.P`` ... ``attacked.K``: zone squares attacked by at least one enemy piece of
  that type (sliders blocked by the pieces on the board as they stand);
- ``defended``: zone squares other than ``k`` attacked by at least one own piece other
  than the king;
- ``shield1``, ``shield2``: own pawns on the (up to three) squares of the files next to
  and of the king, one and two ranks ahead of it (ahead: up the board for White, down for
  Black).

Decisions where the words above leave room:

- "its king" is python-chess's ``board.king(colour)`` with the position's promoted mask,
  i.e. :func:`variants.board.king_square`: the highest king of that colour that is not
  promoted. Other kings (antichess: promoted or extra ones) are ordinary pieces of type
  K: they count in the enemy's ``attacked.K``, and no zone is built around them.
- "own piece other than the king" means own pieces of types P to Q: no king of that
  colour ever defends a square.

The reference here, on python-chess, defines the features; the compiled kernel is in
:mod:`search.kernels.safety`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import PIECES, Block, python_chess_board

if TYPE_CHECKING:
    import chess

KEYS = (*(f"attacked.{p}" for p in PIECES), "defended", "shield1", "shield2")
#: Offsets the kernel reads (``attacked.*`` are 0..5, by piece type).
DEFENDED = KEYS.index("defended")
SHIELD1 = KEYS.index("shield1")
SHIELD2 = KEYS.index("shield2")


def guarded(board: chess.BaseBoard, color: chess.Color, sq: chess.Square) -> bool:
    """Whether a piece of ``color`` other than a king attacks ``sq``."""
    import chess

    return any(board.piece_type_at(a) != chess.KING for a in board.attackers(color, sq))


def safety_features(board: chess.BaseBoard) -> np.ndarray:
    """``safety`` of a python-chess board (its ``king()``: set ``promoted`` where kings
    can be promoted), White's king minus Black's."""
    import chess

    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1.0), (chess.BLACK, -1.0)):
        k = board.king(color)
        if k is None:
            continue
        ring = chess.SquareSet(chess.BB_KING_ATTACKS[k])
        for sq in [k, *ring]:
            types = {board.piece_type_at(a) for a in board.attackers(not color, sq)}
            for t in types:
                assert t is not None
                out[t - 1] += sign
        out[DEFENDED] += sign * sum(guarded(board, color, sq) for sq in ring)
        ahead = 1 if color == chess.WHITE else -1
        f, r = chess.square_file(k), chess.square_rank(k)
        for d, key in ((1, SHIELD1), (2, SHIELD2)):
            rank = r + ahead * d
            if not 0 <= rank <= 7:
                continue
            for file in range(max(f - 1, 0), min(f + 1, 7) + 1):
                if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.PAWN, color):
                    out[key] += sign
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess

    return safety_features(python_chess_board(bb, st, chess.Board, promoted=True))


BLOCK = Block(
    "safety", KEYS, code=7, attacks="zones", reference=_reference, key_kind="key",
    doc="around each king: zone squares attacked by each enemy piece type, defended, "
        "pawn shield; White's king minus Black's",
    title="safety: around each king, squares attacked by each enemy piece type, "
          "defended, pawn shield; White's king minus Black's")
