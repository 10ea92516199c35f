"""The ``race`` block, racing kings only (its goal block, in its ``psq`` set): the king's
rank, one-hot 1..7, then its free path to the 8th rank, one-hot 1..7 (7: seven steps or
more) or ``blocked``, White's minus Black's (both kings race up the board, so ranks are
not mirrored)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board

if TYPE_CHECKING:
    import chess

#: The keys: the king's rank, the steps of its free path (7: seven or more), or no path.
KEYS = (*(f"rank{r}" for r in range(1, 8)), *(f"path{d}" for d in range(1, 8)), "blocked")
#: Offsets the kernel reads: the first path entry and the blocked one.
PATH = KEYS.index("path1")
BLOCKED = KEYS.index("blocked")


def _free_path(board: chess.Board, color: chess.Color, king: chess.Square) -> int | None:
    """Fewest king steps from ``king`` to the 8th rank through squares without a piece
    of ``color`` that the enemy does not attack, the king taken off the board for the
    enemy's sliders (as for a legal king move); None when no such path exists."""
    import chess

    occupied = board.occupied & ~chess.BB_SQUARES[king]
    free = {sq for sq in chess.SQUARES if board.color_at(sq) != color
            and not board.is_attacked_by(not color, sq, occupied)}
    frontier, seen, steps = {king}, {king}, 0
    while frontier:
        if any(chess.square_rank(sq) == 7 for sq in frontier):
            return steps
        frontier = {to for sq in frontier for to in chess.SquareSet(chess.BB_KING_ATTACKS[sq])
                    if to in free and to not in seen}
        seen |= frontier
        steps += 1
    return None


def race_features(board: chess.Board) -> np.ndarray:
    """``race`` of a python-chess board: the king's rank one-hot 1..7, then its free
    path (:func:`_free_path`) one-hot 1..7 (7: seven steps or more) or ``blocked``,
    White's minus Black's."""
    import chess

    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        if king is None:
            continue
        rank = chess.square_rank(king) + 1
        if rank < 8:
            out[KEYS.index(f"rank{rank}")] += sign
        steps = _free_path(board, color, king)
        if steps is None:
            out[BLOCKED] += sign
        elif steps:
            out[KEYS.index(f"path{min(steps, 7)}")] += sign
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    return race_features(python_chess_board(bb, st, chess.variant.RacingKingsBoard))


BLOCK = Block(
    "race", KEYS, code=4, reference=_reference, win_condition="king-on-8th-rank",
    key_kind="key",
    doc="racingkings only, in its psq set: the king's rank 1-7 and its free path to the "
        "8th rank (1-7 steps or blocked), White minus Black",
    title="race: the king's rank and its free path to the 8th rank, White minus Black",
    axis="the king's rank; steps of its free path (7: seven or more), or blocked")
