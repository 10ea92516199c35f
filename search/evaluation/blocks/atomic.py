"""The ``atomic`` block: explosion threats, atomic chess only.

A capture explodes the capturing piece, the captured one and every piece but pawns on
the squares next to the capture square; a king in the blast loses the game, and a
capture whose blast would reach the capturer's own king is illegal (so kings that touch
cannot be exploded by captures next to both). For each side ``c`` (the capturer; ``e``
the enemy), counting captures as the squares of enemy pieces that ``c`` attacks with a
piece other than its king (sliders blocked by the board as it stands, en passant left
out), capture squares next to ``c``'s own king left out:

- ``king``: such capture squares next to ``e``'s king (the capture explodes it);
- ``queen``: such capture squares on or next to one of ``e``'s queens;
- ``adjacent.pawn``, ``adjacent.piece``: ``c``'s own pawns, and own pieces other than
  pawns and the king, next to ``c``'s own king (what an enemy capture can detonate);
- ``touching``: the kings touch, counted for the side to move only (+1 for White to
  move, -1 for Black), a tempo term: in a linear evaluation a symmetric feature would
  cancel.

White's minus Black's (but ``touching``, as said). The reference here, on python-chess,
defines the features; the compiled kernel is in :mod:`search.kernels.atomic`.

Decisions where the words above leave room: the enemy *king*'s square is not a capture
square (a king is never captured: attacking it is check), so a check next to an enemy
queen does not count in ``queen``; each square counts once, however many pieces attack
it or queens it touches; a side without a king (a game already over) has no
``adjacent`` pieces, no threats on its king, and no capture square left out for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board

if TYPE_CHECKING:
    import chess

KEYS = ("king", "queen", "adjacent.pawn", "adjacent.piece", "touching")
#: Offsets the kernel reads.
KING_THREATS, QUEEN_THREATS, ADJACENT_PAWN, ADJACENT_PIECE, TOUCHING = (
    KEYS.index(k) for k in KEYS)


def explosion_captures(board: chess.Board, color: chess.Color) -> chess.SquareSet:
    """The capture squares of ``color`` as the ``atomic`` block counts them: enemy pieces
    but the king that a piece of ``color`` other than its king attacks, less the squares
    next to ``color``'s own king (captures there would explode it)."""
    import chess

    attacked = 0
    for sq in chess.SquareSet(board.occupied_co[color] & ~board.kings):
        attacked |= int(board.attacks(sq))
    captures = attacked & board.occupied_co[not color] & ~board.kings
    king = board.king(color)
    if king is not None:
        captures &= ~chess.BB_KING_ATTACKS[king]
    return chess.SquareSet(captures)


def atomic_features(board: chess.Board) -> np.ndarray:
    """``atomic`` of a python-chess board (keys :data:`KEYS`)."""
    import chess

    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1.0), (chess.BLACK, -1.0)):
        captures = int(explosion_captures(board, color))
        enemy_king = board.king(not color)
        if enemy_king is not None:
            out[KING_THREATS] += sign * chess.popcount(captures & chess.BB_KING_ATTACKS[enemy_king])
        near_queens = 0
        for q in chess.SquareSet(board.queens & board.occupied_co[not color]):
            near_queens |= chess.BB_SQUARES[q] | chess.BB_KING_ATTACKS[q]
        out[QUEEN_THREATS] += sign * chess.popcount(captures & near_queens)
        king = board.king(color)
        if king is not None:
            near = chess.BB_KING_ATTACKS[king] & board.occupied_co[color]
            out[ADJACENT_PAWN] += sign * chess.popcount(near & board.pawns)
            out[ADJACENT_PIECE] += sign * chess.popcount(near & ~board.pawns & ~board.kings)
    white, black = board.king(chess.WHITE), board.king(chess.BLACK)
    if white is not None and black is not None and chess.square_distance(white, black) == 1:
        out[TOUCHING] = 1.0 if board.turn == chess.WHITE else -1.0
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    return atomic_features(python_chess_board(bb, st, chess.variant.AtomicBoard))


BLOCK = Block(
    "atomic", KEYS, code=9, attacks="board", reference=_reference, rule="explosions",
    key_kind="key",
    doc="atomic only: captures that would explode the enemy king or a queen, pieces next "
        "to the own king, kings touching (side to move); White minus Black",
    title="atomic: captures exploding the enemy king or a queen, pieces next to the own "
          "king, kings touching; White minus Black")
