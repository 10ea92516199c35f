"""The ``kingrel`` leaf block: pieces within 3 squares of each king, by type,
own or enemy king, Chebyshev distance and direction (ahead, level, behind in the frame
of the piece's owner), White's minus Black's.

Oracle: python-chess boards built from FENs by python-chess itself (the block's
reference, :func:`search.evaluation.blocks.kingrel.kingrel_features`), and entries worked out by
hand; the compiled kernel reads the arrays of the project's FEN loader.
"""

from __future__ import annotations

import chess
import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate_layout, feature_vector
from search.evaluation.blocks.kingrel import BLOCK as KINGREL_BLOCK
from search.evaluation.blocks.kingrel import KEYS as KINGREL_KEYS
from search.evaluation.blocks.kingrel import kingrel_features
from search.layout import BASE_SIZE, BLOCKS, HAND, Weights, feature_layout, has_pockets
from tests.helpers_search import new_board, random_positions, random_weight_vector
from variants import VARIANTS, Position, spec

from helpers_tiers import report_variants_in_fast_tier

#: Hand-made positions, per variant, with every non-zero entry worked out by hand.
HAND_MADE: list[tuple[str, str, dict[str, float]]] = [
    # White: Ke1, Pe2 (1 up), Nc3 (2 up, 2 left), Rh1 (3 right). Black: Ke8, qd8 (next
    # to it), pg6 (2 down: ahead for Black). Near the other king: Be6 (2 below e8:
    # behind for White), nb3 (2 above e1: behind for Black), Qb8 (3 left of e8).
    ("chess", "1Q1qk3/8/4B1p1/8/8/1nN5/4P3/4K2R w K - 0 1",
     {"own.P.1.ahead": 1, "own.N.2.ahead": 1, "own.R.3.level": 1, "own.Q.1.level": -1,
      "own.P.2.ahead": -1, "enemy.B.2.behind": 1, "enemy.N.3.behind": -1,
      "enemy.Q.3.level": 1}),
    # Kc3, Rc5 (2 above c3; 3 from f3, 2 above it); kf3, bg2 (1 below f3), ne5 (2 above
    # f3 and 2 above c3: counted for both kings). Chess: Black's frame is upside down.
    ("chess", "8/8/8/2R1n3/8/2K2k2/6b1/8 w - - 0 1",
     {"own.R.2.ahead": 1, "enemy.R.3.ahead": 1, "own.B.1.ahead": -1, "own.N.2.behind": -1,
      "enemy.N.2.behind": -1}),
    # The same pieces in racing kings: both sides race up the board, Black's frame is
    # White's.
    ("racingkings", "8/8/8/2R1n3/8/2K2k2/6b1/8 w - - 0 1",
     {"own.R.2.ahead": 1, "enemy.R.3.ahead": 1, "own.B.1.behind": -1, "own.N.2.ahead": -1,
      "enemy.N.2.ahead": -1}),
    # Horde: White has no king, so no own entries for White and no enemy ones for Black.
    ("horde", "4k3/5p2/3P4/8/8/8/PPPP4/8 b - - 0 1",
     {"enemy.P.2.behind": 1, "own.P.1.ahead": -1}),
    # A queen next to the enemy king: above it, then level with it (3 from its own).
    ("chess", "8/8/8/4Q3/4k3/8/8/4K3 b - - 0 1", {"enemy.Q.1.ahead": 1}),
    ("chess", "8/8/8/8/3Qk3/8/8/4K3 b - - 0 1", {"enemy.Q.1.level": 1, "own.Q.3.ahead": 1}),
    # Crazyhouse: a promoted queen (~) counts as a queen; pieces in hand do not count.
    ("crazyhouse", "4k3/4Q~3/4K3/8/8/8/8/8[Nn] b - - 0 1",
     {"enemy.Q.1.behind": 1, "own.Q.1.ahead": 1}),
]


def _expected(values: dict[str, float]) -> list[float]:
    assert set(values) <= set(KINGREL_KEYS), set(values) - set(KINGREL_KEYS)
    return [float(values.get(k, 0.0)) for k in KINGREL_KEYS]


def _kernel(variant: str, fen: str, validate: bool = True) -> np.ndarray:
    """The block's features by the compiled kernel (through the feature vector)."""
    layout = feature_layout(variant, "psq+kingrel")
    pos = Position.from_fen(fen, variant, validate=validate)
    return feature_vector(pos.bb, pos.st, layout)[layout.span("kingrel")]


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    """The block's reference, on the arrays of the project's FEN loader."""
    assert KINGREL_BLOCK.reference is not None
    return KINGREL_BLOCK.reference(bb, st)


def _oracle(board: chess.Board) -> np.ndarray:
    return kingrel_features(board, spec.by_uci(board.uci_variant or "chess").mirror)


def test_the_block_is_registered_with_its_kernel():
    assert BLOCKS["kingrel"] is KINGREL_BLOCK and KINGREL_BLOCK.code > 0
    assert KINGREL_BLOCK.size == 90 == len(set(KINGREL_KEYS))
    assert KINGREL_KEYS[:4] == ("own.P.1.ahead", "own.P.1.level", "own.P.1.behind",
                                "own.P.2.ahead")
    assert KINGREL_KEYS[-1] == "enemy.Q.3.behind"
    layout = feature_layout("chess", "psq+kingrel")
    assert layout.table.tolist() == [[KINGREL_BLOCK.code, BASE_SIZE, 90, 0]]
    with pytest.raises(ValueError, match="unknown mirror 'up'"):
        kingrel_features(chess.Board(), "up")


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_the_kernel_equals_the_reference_and_the_evaluation_is_w_dot_x(variant):
    """(a) On seeded random positions the kernel equals the reference (on python-chess's
    own board of the FEN and on the arrays), and the evaluation with the block is w . x."""
    layout = feature_layout(variant, "psq+kingrel")
    span = layout.span("kingrel")
    rng = np.random.default_rng(31)
    w = np.zeros(layout.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[HAND + 5] = 0.0
    if not has_pockets(variant):
        w[HAND:HAND + 6] = 0.0
    w[BASE_SIZE:layout.offsets["kingrel"]] = 0.0    # the goal block, if any: not this test's
    w[span] = rng.uniform(-0.5, 0.5, 90)
    signs = set()
    for fen in random_positions(variant, "kingrel", 30, lo=2, hi=120):
        pos = Position.from_fen(fen, variant)
        x = feature_vector(pos.bb, pos.st, layout)
        oracle = _oracle(new_board(variant, fen))
        assert x[span].tolist() == oracle.tolist(), fen
        assert _reference(pos.bb, pos.st).tolist() == oracle.tolist(), fen
        assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(
            float(w @ x), abs=1e-9)
        signs |= {(i < 45, bool(v > 0)) for i, v in enumerate(oracle) if v}
    # Own and enemy entries, for White's pieces and for Black's, were all seen (in horde,
    # White has no king: its pieces are near the enemy one only, Black's near their own).
    both = [(True, True), (True, False), (False, True), (False, False)]
    assert signs == (set(both[1:3]) if variant == "horde" else set(both))


@pytest.mark.slow
def test_every_entry_is_reached():
    """The positions of these tests reach all 90 entries (none is dead code)."""
    seen = np.zeros(90, dtype=bool)
    for variant in VARIANTS:
        for fen in random_positions(variant, "kingrel", 30, lo=2, hi=120):
            seen |= _oracle(new_board(variant, fen)) != 0
    for variant, fen, values in HAND_MADE:
        seen |= np.array(_expected(values)) != 0
    assert [k for k, s in zip(KINGREL_KEYS, seen) if not s] == []


@pytest.mark.parametrize(("variant", "fen", "values"), HAND_MADE,
                         ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(HAND_MADE)])
def test_hand_made_positions(variant, fen, values):
    """(b) Entries worked out by hand: the kernel and the reference agree with them."""
    expected = _expected(values)
    assert _oracle(new_board(variant, fen)).tolist() == expected
    assert _kernel(variant, fen).tolist() == expected


def test_a_promoted_king_is_no_king():
    """Antichess: a king made by promotion is not "the" king (python-chess's
    ``Board.king``), even on a higher square; the side's original king is."""
    board = new_board("antichess", "7K/8/8/8/8/4n3/b1p5/k7 b - - 0 1")
    board.push_uci("c2c1k")
    # Ba2 is 1 above a1 (behind, Black's frame); to c1 it would be 2, as Ne3 would.
    expected = _expected({"own.B.1.behind": -1})
    assert kingrel_features(board, "rank").tolist() == expected
    pos = Position.from_board(board)
    assert _reference(pos.bb, pos.st).tolist() == expected
    layout = feature_layout("antichess", "psq+kingrel")
    assert feature_vector(pos.bb, pos.st, layout)[layout.span("kingrel")].tolist() == expected


def _swap_colours(board: chess.Board) -> chess.Board:
    """The board with every piece's colour swapped (squares and side to move kept)."""
    out = board.copy(stack=False)
    out.clear_board()
    for sq, piece in board.piece_map().items():
        out.set_piece_at(sq, chess.Piece(piece.piece_type, not piece.color))
    return out


@pytest.mark.parametrize("variant", ["chess", "crazyhouse"])
def test_the_mirrored_position_negates_the_features(variant):
    """(c) Colours swapped and ranks mirrored (python-chess ``board.mirror()``): the
    whole feature vector, the block's included, is negated."""
    layout = feature_layout(variant, "psq+kingrel")
    nonzero = 0
    for fen in random_positions(variant, "kingrel-mirror", 10, lo=2, hi=120):
        mirrored = new_board(variant, fen).mirror()
        a, b = (Position.from_fen(f, variant) for f in (fen, mirrored.fen()))
        x, y = feature_vector(a.bb, a.st, layout), feature_vector(b.bb, b.st, layout)
        assert y.tolist() == (-x).tolist(), fen
        nonzero += int(np.count_nonzero(x[layout.span("kingrel")]))
    assert nonzero > 0


def test_racing_kings_mirrors_by_file():
    """(c) In racing kings the colours trade places left-right: colours swapped and
    files mirrored negate the block (the rank mirror does not)."""
    for fen in random_positions("racingkings", "kingrel-mirror", 10, lo=2, hi=60):
        board = new_board("racingkings", fen)
        x = _kernel("racingkings", fen)
        by_file = _swap_colours(board.transform(chess.flip_horizontal))
        assert _kernel("racingkings", by_file.fen(), validate=False).tolist() == (-x).tolist()
        assert _oracle(by_file).tolist() == (-x).tolist()
    board = new_board("racingkings", HAND_MADE[2][1])
    by_rank = board.mirror()
    assert _kernel("racingkings", by_rank.fen(), validate=False).tolist() != (
        -_kernel("racingkings", board.fen())).tolist()


@pytest.mark.parametrize("variant", ["chess", "crazyhouse"])
def test_a_search_with_the_block_returns_a_legal_move(variant):
    """(d) A depth-3 search with random tables and block weights plays a legal move, and
    its leaf's block features are the reference's."""
    layout = feature_layout(variant, "psq+kingrel")
    rng = np.random.default_rng(3)
    w = np.zeros(layout.size)
    w[:6] = [1, 3, 3, 5, 9, 0]
    w[layout.span("kingrel")] = rng.uniform(-0.3, 0.3, 90)
    engine = Engine(variant, Weights(variant, w, {}, layout=layout), hash_mb=2)
    for fen in random_positions(variant, "kingrel-search", 2, lo=8, hi=30):
        r = engine.search(fen, depth=3)
        board = new_board(variant, fen)
        assert r.move is not None, fen
        assert chess.Move.from_uci(r.move) in board.legal_moves, (fen, r.move)
        if not r.leaf_terminal and r.leaf_position is not None:
            leaf = r.leaf_position.to_board()
            assert r.leaf_features[layout.span("kingrel")].tolist() == _oracle(leaf).tolist()
            assert r.leaf_score == pytest.approx(float(w @ r.leaf_features), abs=1e-9)
