"""core.has_legal_move (the search's quick stalemate test) agrees with python-chess."""

import random

import numpy as np
import pytest

from variants import VARIANTS, Position, board_class, core

from helpers_tiers import costly_in_full_tier


def _positions(variant, n_games, seed):
    rng = random.Random(seed)
    for _ in range(n_games):
        board = board_class(variant)()
        while not board.is_game_over():
            yield board.fen()
            moves = list(board.legal_moves)
            # Prefer captures so that games reach sparse endings (and stalemates).
            caps = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(caps if caps and rng.random() < 0.7 else moves))
        yield board.fen()


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse", "horde", "chess", "racingkings")))
def test_has_legal_move_matches_python_chess(variant):
    buf = np.zeros(core.MAX_MOVES, np.int64)
    sbb, sst = np.zeros(core.NBB, np.uint64), np.zeros(core.NST, np.int64)
    checked = without = 0
    for fen in _positions(variant, 25, 7):
        pos = Position.from_fen(fen, variant)
        expected = any(board_class(variant)(fen).legal_moves)
        assert bool(core.has_legal_move(pos.bb, pos.st, buf, sbb, sst)) == expected, fen
        checked += 1
        without += not expected
    assert checked > 500 and without > 0
