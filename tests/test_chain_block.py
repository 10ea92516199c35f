"""The ``chains`` block: capture chains in suicide, giveaway and antichess.

Per side and piece type, the captures its pieces can make and its pieces the enemy can
take; whether it has a capture, and whether it is to move with one; White's minus
Black's (search.evaluation.blocks.chains). Oracles: python-chess boards built from FENs by
python-chess, and python-chess's own legal moves, never the compiled code.
"""

from __future__ import annotations

import chess
import numpy as np
import pytest

from search import Engine
from search.evaluate import feature_vector
from search.evaluation.blocks.chains import BLOCK as CHAINS_BLOCK
from search.evaluation.blocks.chains import FORCED, TAKEN, TEMPO, chains_features
from search.evaluation.blocks.chains import KEYS as CHAINS_KEYS
from search.layout import BASE_SIZE, BLOCKS, Weights, WeightsError, feature_layout
from tests.helpers_search import (
    assert_scores_are_w_dot_x,
    new_board,
    random_positions,
    random_weight_vector,
)
from variants import VARIANTS, Position, spec

LOSING = ("suicide", "giveaway", "antichess")

#: Hand-made positions (suicide), the features worked out by hand (absent keys: 0).
HAND_MADE: list[tuple[str, dict[str, float]]] = [
    # The white king takes d2; the pawn d2 attacks e1 (and the empty c1).
    ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
     {"capture.K": 1, "capture.P": -1, "taken.K": 1, "taken.P": -1, "tempo": 1}),
    # The bishop h5 attacks f3 (through g4); White, to move, has no capture. The h4 pawn
    # does not reach a6 and the a5 pawn not h3 (no wrap across the board's edge); the
    # rook h3 is shut in by its own pieces.
    ("8/8/n7/p6b/7P/5N1R/8/8 w - - 0 1", {"capture.B": -1, "taken.N": 1, "forced": -1}),
    # The same with Black to move: Black's capture is now forced.
    ("8/8/n7/p6b/7P/5N1R/8/8 b - - 0 1",
     {"capture.B": -1, "taken.N": 1, "forced": -1, "tempo": -1}),
    # Queen d4 and rook d8 attack each other along the d-file.
    ("3r4/8/8/8/3Q4/8/8/8 w - - 0 1",
     {"capture.Q": 1, "capture.R": -1, "taken.Q": 1, "taken.R": -1, "tempo": 1}),
    # The knight c3 takes b5 and d5 (two captures), the pawn e4 takes d5 and d5 takes e4:
    # d5, attacked twice, is one black pawn taken; b5 is the other.
    ("8/8/8/1p1p4/4P3/2N5/8/8 b - - 0 1", {"capture.N": 2, "taken.P": -1, "tempo": -1}),
    # The bishop b2 stops at f6 (not g7, behind it); the knight d3 attacks b2.
    ("8/6r1/5p2/8/8/3n4/1B6/8 b - - 0 1",
     {"capture.B": 1, "capture.N": -1, "taken.B": 1, "taken.P": -1, "tempo": -1}),
    # Pawn b7 takes a8 and c8, a capture each however many promotions python-chess lists;
    # the rook h1 takes h5; the king c6 takes b7. One pawn taken on each side.
    ("r1n5/1P6/2k5/7p/8/8/8/7R w - - 0 1",
     {"capture.P": 2, "capture.R": 1, "capture.K": -1, "taken.R": -1, "taken.N": -1,
      "tempo": 1}),
]


def _expected(values: dict[str, float]) -> np.ndarray:
    assert set(values) <= set(CHAINS_KEYS)
    return np.array([float(values.get(k, 0)) for k in CHAINS_KEYS])


def _chains(fen: str, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """The block's features by the compiled kernel and by the reference, on the arrays."""
    pos = Position.from_fen(fen, variant)
    layout = feature_layout(variant, "psq+chains")
    assert CHAINS_BLOCK.reference is not None
    return (feature_vector(pos.bb, pos.st, layout)[layout.span("chains")],
            CHAINS_BLOCK.reference(pos.bb, pos.st))


def test_the_block_is_registered_for_the_losing_variants_only():
    assert BLOCKS["chains"] is CHAINS_BLOCK and CHAINS_BLOCK.code > 0
    assert CHAINS_BLOCK.size == 14 and CHAINS_KEYS[TAKEN] == "taken.P"
    assert (CHAINS_KEYS[FORCED], CHAINS_KEYS[TEMPO]) == ("forced", "tempo")
    assert [v for v in VARIANTS if CHAINS_BLOCK.misfit(v) is None] == list(LOSING)
    layout = feature_layout("suicide", "psq+chains")
    assert layout.names[layout.span("chains")] == [f"chains.{k}" for k in CHAINS_KEYS]
    assert layout.table.tolist() == [[CHAINS_BLOCK.code, BASE_SIZE, 14, 0]]


def test_chess_refuses_the_block_with_the_reason():
    with pytest.raises(WeightsError, match=r"^--features psq\+chains: block 'chains' is for "
                       r"suicide, giveaway, antichess only \(rule 'losing'\), not chess$"):
        feature_layout("chess", "psq+chains")
    assert all(CHAINS_BLOCK.misfit(v) for v in VARIANTS if not spec.get(v).losing)


@pytest.mark.parametrize("variant", LOSING)
def test_the_kernel_equals_the_reference_on_random_positions(variant):
    """(a) Kernel == reference (arrays) == python-chess's board from the FEN; every key
    is non-zero somewhere; the evaluation with random weights is w . x."""
    layout = feature_layout(variant, "psq+chains")
    span = layout.span("chains")
    rng = np.random.default_rng(31)
    w = np.zeros(layout.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[6:12] = 0.0                                      # no pockets
    w[span] = rng.uniform(-1, 1, 14)
    seen = np.zeros(14)
    for fen in random_positions(variant, "chains", 70, lo=2, hi=70):
        kernel, reference = _chains(fen, variant)
        want = chains_features(new_board(variant, fen))
        assert kernel.tolist() == want.tolist(), fen
        assert reference.tolist() == want.tolist(), fen
        assert_scores_are_w_dot_x(Position.from_fen(fen, variant), layout, w)
        seen += want != 0
    missing = [k for k, n in zip(CHAINS_KEYS, seen) if not n]
    assert not missing, f"never non-zero: {missing}"


@pytest.mark.parametrize("mirrored", [False, True], ids=["as-is", "colours-swapped"])
def test_hand_made_positions(mirrored):
    """(b) Hand-worked values; with the colours swapped (python-chess's ``mirror``) every
    value changes sign, so each key is seen for both colours."""
    signs = np.zeros((14, 2))     # positive, negative
    for fen, values in HAND_MADE:
        want = _expected(values)
        if mirrored:
            fen, want = chess.variant.SuicideBoard(fen).mirror().fen(), -want
        kernel, reference = _chains(fen, "suicide")
        assert chains_features(new_board("suicide", fen)).tolist() == want.tolist(), fen
        assert kernel.tolist() == want.tolist(), fen
        assert reference.tolist() == want.tolist(), fen
        signs[:, 0] += want > 0
        signs[:, 1] += want < 0
    # Every key is non-zero here, with the opposite sign in the other run.
    missing = [k for k, n in zip(CHAINS_KEYS, signs.sum(axis=1)) if not n]
    assert not missing, f"never non-zero: {missing}"


def _legal_captures(board: chess.Board) -> list[chess.Move]:
    """python-chess's legal captures of the side to move, en passant left out, one per
    from-to pair (a promotion is listed once per piece it can become)."""
    seen = {}
    for m in board.legal_moves:
        if board.is_capture(m) and not board.is_en_passant(m):
            seen[m.from_square, m.to_square] = m
    return list(seen.values())


def _type(board: chess.Board, sq: chess.Square) -> int:
    t = board.piece_type_at(sq)
    assert t is not None
    return t


@pytest.mark.parametrize("variant", LOSING)
def test_the_counts_agree_with_python_chess_legal_moves(variant):
    """(c) White to move: White's captures per type (the block's ``capture.*`` plus
    Black's, counted on the same board with Black to move) are python-chess's legal
    captures by that type; ``taken.*`` are the distinct squares those captures land on;
    ``forced`` and ``tempo`` say whether any legal move of White (Black) is a capture."""
    checked = with_captures = 0
    fens = random_positions(variant, "chains-legal", 40, lo=2, hi=70)
    for fen in [*fens, *(f for f, _ in HAND_MADE)]:
        board = new_board(variant, fen)
        board.ep_square = None
        board.turn = chess.WHITE
        by = {}
        for color in (chess.WHITE, chess.BLACK):
            b = board.copy(stack=False)
            b.turn = color
            captures = _legal_captures(b)
            any_capture = any(b.is_capture(m) for m in b.legal_moves)
            n = np.zeros(6)
            hit = np.zeros(6)
            for m in captures:
                n[_type(board, m.from_square) - 1] += 1
            for sq in {m.to_square for m in captures}:
                hit[_type(board, sq) - 1] += 1
            by[color] = n, hit, any_capture
        x, _ = _chains(board.fen(), variant)
        (nw, hw, aw), (nb, hb, ab) = by[chess.WHITE], by[chess.BLACK]
        # White's captures alone: the block's capture.* plus Black's (from legal moves).
        assert float(x[:6].sum() + nb.sum()) == len(_legal_captures(board)), board.fen()
        assert x[:6].tolist() == (nw - nb).tolist(), board.fen()
        assert x[TAKEN:TAKEN + 6].tolist() == (hb - hw).tolist(), board.fen()
        assert x[FORCED] == int(aw) - int(ab), board.fen()
        assert x[TEMPO] == int(aw), board.fen()
        checked += 1
        with_captures += aw and ab
    assert checked == len(fens) + len(HAND_MADE) and with_captures >= 5


def test_a_short_search_with_the_block_plays_a_legal_move():
    """(e) Depth 3 in suicide with random tables and chain weights: a legal move, and
    the PV leaf's chain features are the block's definition."""
    layout = feature_layout("suicide", "psq+chains")
    rng = np.random.default_rng(3)
    w = np.zeros(layout.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[6:12] = 0.0
    w[layout.span("chains")] = rng.uniform(-0.5, 0.5, 14)
    engine = Engine("suicide", Weights("suicide", w, {}, layout=layout), hash_mb=2)
    leaves = 0
    for fen in random_positions("suicide", "chains-search", 2, lo=6, hi=20):
        board = new_board("suicide", fen)
        r = engine.search(fen, depth=3)
        assert r.move is not None
        assert chess.Move.from_uci(r.move) in board.legal_moves, (fen, r.move)
        if not r.leaf_terminal and r.leaf_position is not None:
            assert r.leaf_features[layout.span("chains")].tolist() == \
                chains_features(r.leaf_position.to_board()).tolist()
            assert r.leaf_score == pytest.approx(float(w @ r.leaf_features), abs=1e-9)
            leaves += 1
    assert leaves >= 1
