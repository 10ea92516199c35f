"""The ``handcount`` block (crazyhouse): offsets on the hand values for the 2nd, the 3rd
and each further piece of a type in hand. Oracle: python-chess's pockets."""

from __future__ import annotations

import chess
import chess.variant
import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate_layout, feature_vector
from search.evaluation.blocks.handcount import BLOCK as HANDCOUNT_BLOCK
from search.evaluation.blocks.handcount import KEYS as HANDCOUNT_KEYS
from search.layout import BLOCKS, Weights, WeightsError, feature_layout
from tests.helpers_search import random_positions
from variants import Position


def _oracle(board: chess.variant.CrazyhouseBoard) -> np.ndarray:
    out = np.zeros(len(HANDCOUNT_KEYS))
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        for t in range(1, 6):
            n = board.pockets[color].count(t)
            i = 3 * (t - 1)
            out[i] += sign * (n >= 2)
            out[i + 1] += sign * (n >= 3)
            out[i + 2] += sign * max(0, n - 3)
    return out


def test_hand_built_pockets():
    layout = feature_layout("crazyhouse", "psq+handcount")
    span = layout.span("handcount")
    # White: 4 knights, 1 queen; Black: 2 pawns, 3 bishops.
    pos = Position.from_fen("r3k3/8/8/8/8/8/8/4K2R[NNNNQppbbb] w - - 0 1", "crazyhouse")
    x = dict(zip(HANDCOUNT_KEYS, feature_vector(pos.bb, pos.st, layout)[span]))
    assert {k: v for k, v in x.items() if v} == {"N2": 1, "N3": 1, "N4+": 1, "P2": -1,
                                                 "B2": -1, "B3": -1}


def test_the_kernel_equals_python_chess_on_random_games():
    layout = feature_layout("crazyhouse", "psq+handcount")
    span = layout.span("handcount")
    rng = np.random.default_rng(4)
    w = rng.uniform(-0.3, 0.3, layout.size)
    seen = np.zeros(len(HANDCOUNT_KEYS))
    for fen in random_positions("crazyhouse", "handcount", 60, lo=40, hi=200):
        board = chess.variant.CrazyhouseBoard(fen)
        pos = Position.from_fen(fen, "crazyhouse")
        x = feature_vector(pos.bb, pos.st, layout)
        assert x[span].tolist() == _oracle(board).tolist(), fen
        assert HANDCOUNT_BLOCK.reference(pos.bb, pos.st).tolist() == _oracle(board).tolist()
        assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(float(w @ x))
        seen += x[span] != 0
    assert all(seen[k::3].sum() > 0 for k in range(3)), seen   # 2nd, 3rd, 4th+ all seen


def test_only_where_there_are_pockets_and_the_engine_plays_it():
    assert BLOCKS["handcount"] is HANDCOUNT_BLOCK
    with pytest.raises(WeightsError, match="'handcount' needs pieces in hand"):
        feature_layout("chess", "psq+handcount")
    layout = feature_layout("crazyhouse", "psq+handcount")
    w = np.zeros(layout.size)
    w[layout.span("handcount")] = 0.2
    r = Engine("crazyhouse", Weights("crazyhouse", w, {}, layout=layout), hash_mb=1).search(
        "r3k3/8/8/8/8/8/8/4K2R[NNNNQppbbb] w - - 0 1", depth=3)
    assert r.move is not None
    assert chess.Move.from_uci(r.move) in chess.variant.CrazyhouseBoard(
        "r3k3/8/8/8/8/8/8/4K2R[NNNNQppbbb] w - - 0 1").legal_moves
