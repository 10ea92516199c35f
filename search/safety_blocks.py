"""King-safety blocks (issue 31): ``safety`` (every variant) and ``drops`` (crazyhouse).

Both describe the danger to each side's own king: a side's features are computed around
its king, and the block's features are White's minus Black's (a side without a king, as
horde's White, contributes nothing). The zone of a king on ``k`` is ``k`` and the
squares a king on ``k`` attacks.

``safety`` (9 weights):

- ``attacked.P`` ... ``attacked.K``: zone squares attacked by at least one enemy piece of
  that type (sliders blocked by the pieces on the board as they stand);
- ``defended``: zone squares other than ``k`` attacked by at least one own piece other
  than the king;
- ``shield1``, ``shield2``: own pawns on the (up to three) squares of the files next to
  and of the king, one and two ranks ahead of it (ahead: up the board for White, down for
  Black).

``drops`` (6 weights, crazyhouse only):

- ``check.P`` ... ``check.Q``: where the enemy has at least one piece of that type in
  hand, the empty squares where dropping it would give check to the king (pawns: not on
  the first or last rank); else 0;
- ``exposure``: the enemy's pieces in hand (their count) times the empty squares a king
  on ``k`` attacks that no own piece other than the king attacks.

Decisions where the words above leave room:

- "its king" is python-chess's ``board.king(colour)`` with the position's promoted mask,
  i.e. :func:`variants.board.king_square`: the highest king of that colour that is not
  promoted. Other kings (antichess: promoted or extra ones) are ordinary pieces of type
  K: they count in the enemy's ``attacked.K``, and no zone is built around them.
- "own piece other than the king" means own pieces of types P to Q: no king of that
  colour ever defends (nor, in ``exposure``, covers) a square.
- "would give check": the dropped piece attacks ``k`` with the board as it stands (whose
  turn it is and whether the drop would be legal play no part); each square counts once
  whatever the number of such pieces in hand.

The references here, on python-chess, define the features; the compiled kernels are in
:mod:`search.safety_kernels`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .layout import DROPS_CODE, PIECES, SAFETY_CODE, Block, register_block

if TYPE_CHECKING:
    import chess
    import chess.variant

SAFETY_KEYS = (*(f"attacked.{p}" for p in PIECES), "defended", "shield1", "shield2")
DROPS_KEYS = (*(f"check.{p}" for p in "PNBRQ"), "exposure")


def _guarded(board: chess.BaseBoard, color: chess.Color, sq: chess.Square) -> bool:
    """Whether a piece of ``color`` other than a king attacks ``sq``."""
    import chess

    return any(board.piece_type_at(a) != chess.KING for a in board.attackers(color, sq))


def safety_features(board: chess.BaseBoard) -> np.ndarray:
    """``safety`` of a python-chess board (its ``king()``: set ``promoted`` where kings
    can be promoted), White's king minus Black's."""
    import chess

    out = np.zeros(len(SAFETY_KEYS))
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
        out[6] += sign * sum(_guarded(board, color, sq) for sq in ring)
        ahead = 1 if color == chess.WHITE else -1
        f, r = chess.square_file(k), chess.square_rank(k)
        for d, key in ((1, 7), (2, 8)):
            rank = r + ahead * d
            if not 0 <= rank <= 7:
                continue
            for file in range(max(f - 1, 0), min(f + 1, 7) + 1):
                if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.PAWN, color):
                    out[key] += sign
    return out


def drops_features(board: chess.variant.CrazyhouseBoard) -> np.ndarray:
    """``drops`` of a python-chess crazyhouse board (its pieces and pockets), White's
    king minus Black's: each drop is tried on the board (put, its attacks read, taken
    back)."""
    import chess

    out = np.zeros(len(DROPS_KEYS))
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
        open_squares = sum(board.piece_at(sq) is None and not _guarded(board, color, sq)
                           for sq in chess.SquareSet(chess.BB_KING_ATTACKS[k]))
        out[5] += sign * len(pocket) * open_squares
    return out


def _board(bb: np.ndarray, st: np.ndarray, cls: type[chess.Board]) -> chess.Board:
    """The position's python-chess board, with its promoted mask (for ``king()``)."""
    from variants import core

    from .goal_blocks import python_chess_board

    board = python_chess_board(bb, st, cls)
    board.promoted = int(bb[core.PROMOTED])
    return board


def _safety_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess

    return safety_features(_board(bb, st, chess.Board))


def _drops_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    from variants import core

    board = _board(bb, st, chess.variant.CrazyhouseBoard)
    assert isinstance(board, chess.variant.CrazyhouseBoard)
    for c, color in ((0, chess.WHITE), (1, chess.BLACK)):
        for t in range(chess.PAWN, chess.KING):
            for _ in range(int(st[core.POCKET + 6 * c + t])):
                board.pockets[color].add(t)
    return drops_features(board)


SAFETY_BLOCK = register_block(Block(
    "safety", SAFETY_KEYS, code=SAFETY_CODE, reference=_safety_reference, key_kind="key",
    doc="around each king: zone squares attacked by each enemy piece type, defended, "
        "pawn shield; White's king minus Black's"))
DROPS_BLOCK = register_block(Block(
    "drops", DROPS_KEYS, code=DROPS_CODE, reference=_drops_reference, pockets=True,
    key_kind="key",
    doc="crazyhouse: drops of the enemy's pieces in hand that would check the king, and "
        "the enemy's pieces in hand times the king's undefended empty neighbours; White's "
        "king minus Black's"))
