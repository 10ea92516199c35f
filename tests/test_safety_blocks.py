"""The king-safety blocks: ``safety`` (every variant) and ``drops``
(crazyhouse), defined in search/safety_blocks.py's docstring.

Oracle: the blocks' definitions on python-chess boards (``safety_features``,
``drops_features``: attackers and drops tried on the board), on boards built by
python-chess from the FENs themselves and on the position's arrays (the references);
and hand-counted features of hand-built positions. Never the compiled code.
"""

from __future__ import annotations

import chess
import chess.variant
import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate_layout, feature_vector
from search.evaluation.blocks.drops import KEYS as DROPS_KEYS
from search.evaluation.blocks.drops import drops_features
from search.evaluation.blocks.safety import KEYS as SAFETY_KEYS
from search.evaluation.blocks.safety import safety_features
from search.layout import (
    BLOCKS,
    FeatureLayout,
    Weights,
    WeightsError,
    feature_layout,
    has_pockets,
)
from tests.helpers_search import new_board, random_positions
from variants import VARIANTS, Position

from helpers_tiers import report_variants_in_fast_tier


def _names(variant: str) -> list[str]:
    """The king-safety blocks that apply in a variant."""
    return ["safety", "drops"] if has_pockets(variant) else ["safety"]


def _layout(variant: str) -> FeatureLayout:
    return feature_layout(variant, "+".join(["psq", *_names(variant)]))


def _oracle(name: str, board: chess.Board) -> np.ndarray:
    if name == "safety":
        return safety_features(board)
    assert isinstance(board, chess.variant.CrazyhouseBoard)
    return drops_features(board)


def test_the_blocks_are_registered_with_their_kernels():
    assert BLOCKS["safety"].keys == SAFETY_KEYS and len(SAFETY_KEYS) == 9
    assert BLOCKS["drops"].keys == DROPS_KEYS and len(DROPS_KEYS) == 6
    assert BLOCKS["safety"].code > 0 and BLOCKS["drops"].code > 0
    assert [v for v in VARIANTS if BLOCKS["safety"].misfit(v) is None] == list(VARIANTS)
    assert [v for v in VARIANTS if BLOCKS["drops"].misfit(v) is None] == ["crazyhouse"]
    layout = feature_layout("crazyhouse", "psq+safety+drops")
    assert layout.names[-15:] == ([f"safety.{k}" for k in SAFETY_KEYS]
                                  + [f"drops.{k}" for k in DROPS_KEYS])


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_kernels_equal_the_references_and_the_evaluation_is_w_dot_x(variant):
    """(a) On seeded random positions the compiled features equal the references (on
    the arrays) and the definitions on python-chess's own board of the FEN; the
    evaluation with the blocks is w . x for random weights."""
    layout = _layout(variant)
    rng = np.random.default_rng(31)
    used = layout.mask(layout.block_names)
    w = np.zeros(layout.size)
    w[used] = rng.uniform(-0.5, 0.5, int(used.sum()))
    seen = {n: np.zeros(BLOCKS[n].size) for n in _names(variant)}
    facing = np.zeros(6)           # per type: positions where it could attack a king
    in_hand = 0
    for fen in random_positions(variant, "safety", 30, lo=2, hi=120):
        pos = Position.from_fen(fen, variant)
        board = new_board(variant, fen)
        x = feature_vector(pos.bb, pos.st, layout)
        for name in _names(variant):
            got = x[layout.span(name)].tolist()
            reference = BLOCKS[name].reference
            assert reference is not None
            assert got == reference(pos.bb, pos.st).tolist(), (name, fen)
            assert got == _oracle(name, board).tolist(), (name, fen)
            seen[name] += np.array(got) != 0
        assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(
            float(w @ x), abs=1e-9), fen
        for color in chess.COLORS:
            if board.king(color) is not None:
                facing += [bool(board.pieces_mask(t, not color)) for t in chess.PIECE_TYPES]
        if isinstance(board, chess.variant.CrazyhouseBoard):
            in_hand += any(len(p) for p in board.pockets)
    # Each enemy type that was often there attacked a zone somewhere, but the king:
    # attacked.K cancels between the kings unless a side has more than one (antichess,
    # hand-built below). Defended and the shield too, where there are pawns.
    often = [t for t in range(5) if facing[t] >= 5]
    assert often and seen["safety"][often].all(), (facing, seen)
    assert seen["safety"][6] and (seen["safety"][7] or not new_board(variant).pawns), seen
    if variant == "horde":
        assert seen["safety"][[7, 8]].all()       # Black's shield alone: White has no king
    if has_pockets(variant):
        assert in_hand >= 10 and seen["drops"][[0, 1, 5]].all(), (in_hand, seen["drops"])


#: Hand-built positions and their features counted by hand (absent keys: 0).
HAND_BUILT = [
    # White Kg1: zone f1 g1 h1 f2 g2 h2. Black attacks f2 (pawn e3, rook f6 down the
    # file, queen a2 along the 2nd rank) and g2 (knight e1, bishop d5 via e4 f3): P N B R
    # Q 1 each. White's knight g4 defends f2 and h2, rook f1 f2 (2); shield f2 g2 (1st
    # rank ahead), g3 h3 (2nd). Black Kg8: the queen h5 attacks h7 h8 (Q 2); rook f6 and
    # bishop d5 defend f7 (1); shield f7, g6 (the rook on f6 is no pawn).
    ("chess", "6k1/5p2/5rp1/3b3Q/6N1/4p1PP/q4PP1/4nRK1 b - - 0 1",
     {"attacked.P": 1, "attacked.N": 1, "attacked.B": 1, "attacked.R": 1,
      "attacked.Q": 1 - 2, "defended": 2 - 1, "shield1": 2 - 1, "shield2": 2 - 1}),
    # Kings in corners: Kh1's shield g2 h2 (files g, h only), none two ranks ahead (h4
    # is three); Ka8's a7, then b6 (c6 is two files away).
    ("chess", "k7/p7/1pp5/8/7P/8/6PP/7K w - - 0 1", {"shield1": 2 - 1, "shield2": 0 - 1}),
    # Two white kings: the king is the highest (h8); the one on d2 is a piece that
    # attacks c2 c3 d3 of Black's zone around c3.
    ("antichess", "7K/8/8/8/8/2k5/3K4/8 w - - 0 1", {"attacked.K": -3}),
    # Horde: White has no king. Black Ke8: pawn c6 attacks d7; the queen defends d7 and
    # e7; shield d7, then e6.
    ("horde", "3qk3/3p4/2P1p3/8/8/8/8/PPPPPPPP b - - 0 1",
     {"attacked.P": -1, "defended": -2, "shield1": -1, "shield2": -1}),
]

#: Crazyhouse drops, counted by hand.
HAND_BUILT_DROPS = [
    # White Ka1 (pawn a2, knight c3) against Black's P N B R Q in hand: pawn on b2;
    # knight b3 c2; bishop b2 (c3 blocks); rook b1..h1 (a2 blocks); queen 1 + 7;
    # exposure 5 pieces x b2 (b1 is covered by the knight, a2 taken). Black Kh8 against
    # White's queen: g7 f6 e5 d4 (c3 blocks) + h7..h1 + g8..a8 = 18; exposure 1 x 3.
    ("7k/8/8/8/8/2N5/P7/K7[Qpnbrq] w - - 0 1",
     {"check.P": 1, "check.N": 2, "check.B": 1, "check.R": 7, "check.Q": 8 - 18,
      "exposure": 5 - 3}),
    # Pawn drops never on the back ranks: Kg7's checking squares f8 h8 do not count;
    # exposure 2 pawns x 8 empty neighbours. Black has nothing to fear (White's hand is
    # empty), though its b2 king has 8 open neighbours too.
    ("8/6K1/8/8/8/8/1k6/8[pp] w - - 0 1", {"exposure": 16}),
]


def _check_hand_built(variant: str, fen: str, name: str, expected: dict[str, int]) -> None:
    keys = BLOCKS[name].keys
    assert set(expected) <= set(keys)
    want = [float(expected.get(k, 0)) for k in keys]
    layout = feature_layout(variant, f"psq+{name}")
    pos = Position.from_fen(fen, variant)
    assert feature_vector(pos.bb, pos.st, layout)[layout.span(name)].tolist() == want
    assert _oracle(name, new_board(variant, fen)).tolist() == want


@pytest.mark.parametrize(("variant", "fen", "expected"), HAND_BUILT)
def test_hand_built_safety(variant, fen, expected):
    """(b) Each safety key on positions counted by hand."""
    _check_hand_built(variant, fen, "safety", expected)


@pytest.mark.parametrize(("fen", "expected"), HAND_BUILT_DROPS)
def test_hand_built_drops(fen, expected):
    """(b) A drop check per piece type, the pawn's back ranks, and exposure."""
    _check_hand_built("crazyhouse", fen, "drops", expected)


def test_a_promoted_king_is_not_the_king():
    """After a7a8=K in antichess, White's king is still e1 (the highest king that is not
    promoted, python-chess's ``king()``): the new king on a8 attacks a7 b7 of Black's
    zone around b6 (-2). Were a8 the king, its zone would be attacked as much (0)."""
    pos = Position.from_fen("8/P7/1k6/8/8/8/8/4K3 w - - 0 1", "antichess")
    pos.push_uci("a7a8k")
    board = pos.to_board()
    assert board.promoted == chess.BB_A8
    layout = feature_layout("antichess", "psq+safety")
    want = [0.0] * 5 + [-2.0, 0.0, 0.0, 0.0]
    assert feature_vector(pos.bb, pos.st, layout)[layout.span("safety")].tolist() == want
    assert safety_features(board).tolist() == want
    reference = BLOCKS["safety"].reference
    assert reference is not None and reference(pos.bb, pos.st).tolist() == want


@pytest.mark.parametrize("variant", [v for v in VARIANTS if not has_pockets(v)])
def test_drops_is_refused_without_pieces_in_hand(variant):
    """(c) ``psq+drops`` outside crazyhouse: one clear message."""
    with pytest.raises(WeightsError, match=f"block 'drops' needs pieces in hand, which "
                                           f"{variant} has not"):
        feature_layout(variant, "psq+drops")


@pytest.mark.parametrize("variant", ["chess", "crazyhouse", "horde"])
def test_a_search_with_the_safety_block_plays_a_legal_move(variant):
    """(d) A depth-3 search with random psq+safety (+drops) weights."""
    layout = _layout(variant)
    rng = np.random.default_rng(7)
    w = np.zeros(layout.size)
    used = layout.mask(layout.block_names)
    w[used] = rng.uniform(-0.3, 0.3, int(used.sum()))
    w[5] = 0.0
    engine = Engine(variant, Weights(variant, w, {}, layout=layout), hash_mb=2)
    fen = random_positions(variant, "safety-search", 1, lo=10, hi=20)[0]
    r = engine.search(fen, depth=3)
    assert r.move is not None and chess.Move.from_uci(r.move) in new_board(variant, fen).legal_moves
    assert r.leaf_features.size == layout.size
