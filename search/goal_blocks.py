"""The goal blocks: leaf feature blocks for each variant's own way to win, besides
checkmate (issue 30, step 4).

* ``checks`` (three-check): the checks already given, by count;
* ``hill`` (king of the hill): the king's distance to the hill (d4, e4, d5, e5);
* ``race`` (racing kings): the king's rank and its free path to the 8th rank.

Each is linear and colour-symmetric like material (White's feature minus Black's, so
that one weight serves both sides), held only in its variant (:attr:`Block.win_condition`)
and in that variant's ``psq`` feature set (``variants.spec.Variant.goal_block``). The
compiled kernels are in :mod:`search.goal_kernels`; the references here, pure Python on
python-chess, define the features and are what the tests hold the kernels to.

Imported at the end of :mod:`search.layout`, which registers them; python-chess and the
rules' constants are imported only when a reference runs, so that importing the layout
stays free of numba and python-chess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .layout import CHECKS_CODE, HILL_CODE, RACE_CODE, Block, register_block

if TYPE_CHECKING:
    import chess
    import chess.variant

#: The ``race`` block's keys: the king's rank, the steps of its free path (7: seven or
#: more), or no free path.
RACE_KEYS = (*(f"rank{r}" for r in range(1, 8)), *(f"path{d}" for d in range(1, 8)),
             "blocked")


def python_chess_board(bb: np.ndarray, st: np.ndarray, cls: type[chess.Board]) -> chess.Board:
    """A python-chess board of class ``cls`` with the pieces, side to move and (in
    three-check) remaining checks of the position's arrays."""
    import chess
    import chess.variant

    from variants import core

    board = cls.empty()
    white = int(bb[core.OCC])
    for sq in range(64):
        if st[sq]:
            board.set_piece_at(sq, chess.Piece(int(st[sq]), bool(white >> sq & 1)))
    board.turn = bool(st[core.TURN] == core.WHITE)
    if isinstance(board, chess.variant.ThreeCheckBoard):
        board.remaining_checks[chess.WHITE] = int(st[core.CHECKS])
        board.remaining_checks[chess.BLACK] = int(st[core.CHECKS + 1])
    return board


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
    White's minus Black's; both kings race to the 8th rank, so ranks are not mirrored."""
    import chess

    out = np.zeros(len(RACE_KEYS))
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        if king is None:
            continue
        rank = chess.square_rank(king) + 1
        if rank < 8:
            out[RACE_KEYS.index(f"rank{rank}")] += sign
        steps = _free_path(board, color, king)
        if steps is None:
            out[RACE_KEYS.index("blocked")] += sign
        elif steps:
            out[RACE_KEYS.index(f"path{min(steps, 7)}")] += sign
    return out


def _checks_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    board = python_chess_board(bb, st, chess.variant.ThreeCheckBoard)
    assert isinstance(board, chess.variant.ThreeCheckBoard)
    return checks_features(board)


def _hill_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    return hill_features(python_chess_board(bb, st, chess.variant.KingOfTheHillBoard))


def _race_reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess.variant

    return race_features(python_chess_board(bb, st, chess.variant.RacingKingsBoard))


CHECKS_BLOCK = register_block(Block(
    "checks", ("1", "2"), code=CHECKS_CODE, reference=_checks_reference,
    win_condition="third-check", key_kind="count",
    doc="3check only, in its psq set: at least 1 and at least 2 checks given, White "
        "minus Black"))
HILL_BLOCK = register_block(Block(
    "hill", ("1", "2", "3"), code=HILL_CODE, reference=_hill_reference,
    win_condition="king-on-hill", key_kind="distance",
    doc="kingofthehill only, in its psq set: the king's distance to the hill, 1-3, "
        "White minus Black"))
RACE_BLOCK = register_block(Block(
    "race", RACE_KEYS, code=RACE_CODE, reference=_race_reference,
    win_condition="king-on-8th-rank", key_kind="key",
    doc="racingkings only, in its psq set: the king's rank 1-7 and its free path to the 8th rank "
        "(1-7 steps or blocked), White minus Black"))
