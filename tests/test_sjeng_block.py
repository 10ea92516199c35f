"""The ``sjeng`` block: Sjeng 11.2's suicide terms (mobility on empty squares, free pawn
pushes, offered pawns, pawn structure) in suicide, giveaway and antichess, and
``sjeng_weights``, Sjeng's own numbers on them (search.evaluation.sjeng_set).

Oracles: hand-worked positions, and the Sjeng engine's own ``eval`` (where it is
installed), never the compiled code.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import chess
import chess.variant
import numpy as np
import pytest

from search import Engine
from search.evaluate import feature_vector
from search.evaluation.blocks.sjeng import BLOCK as SJENG_BLOCK
from search.evaluation.blocks.sjeng import KEYS, sjeng_features
from search.evaluation.sjeng_set import SJENG_MATERIAL, SJENG_SCALE, SJENG_TERMS, sjeng_weights
from search.layout import (
    BASE_SIZE,
    BLOCKS,
    Weights,
    WeightsError,
    feature_layout,
    load_weights,
    value_set,
)
from tests.helpers_engines import engine_path
from tests.helpers_search import (
    assert_scores_are_w_dot_x,
    new_board,
    oracle_eval,
    random_positions,
    random_weight_vector,
)
from variants import VARIANTS, Position, spec

LOSING = ("suicide", "giveaway", "antichess")
ROOT = Path(__file__).resolve().parent.parent
#: The weights file sjeng_weights wrote (runs/blocks/sjeng/README.md).
WEIGHTS_FILE = ROOT / "runs" / "blocks" / "sjeng" / "suicide-sjeng-own-sign.json"

#: Hand-made positions, the features worked out by hand (absent keys: 0).
HAND_MADE: list[tuple[str, dict[str, float]]] = [
    # The knight d4 reaches 7 empty squares (c2 is White's) and alone attacks b3, a
    # square the pawn c2 attacks: an offer. c2 is backward (no pawn beside it), isolated,
    # on a file without black pawns, passed on its 2nd rank, with no pawn on the b-file.
    ("8/8/8/8/3n4/8/2P5/8 w - - 0 1",
     {"reach.N": -7, "push": 1, "offer": 1, "backward": 1, "isolated": 1,
      "backward.open": 1, "isolated.open": 1, "passed": 1, "island": 1}),
    # Doubled a-pawns: a2 cannot push; both backward, isolated, passed on the a-file
    # (outside), ranks 2 and 3.
    ("8/8/8/8/8/P7/P7/8 w - - 0 1",
     {"push": 1, "backward": 2, "isolated": 2, "backward.open": 2, "isolated.open": 2,
      "doubled": 2, "passed": 2, "passed.rank": 1, "outside": 2, "outside.rank": 1,
      "island": 2}),
    # Connected passed pawns on the 5th rank: neither backward; one island (c5).
    ("8/8/8/2PP4/8/8/8/8 w - - 0 1",
     {"push": 2, "passed": 2, "passed.rank": 6, "passed.connected": 2, "island": 1}),
    # d7 can go to d5 in two steps (no black piece guards d5), which c4 attacks: an
    # offer. The rest cancels out: neither pawn is passed (each is ahead of the other).
    ("8/3p4/8/8/2P5/8/8/8 w - - 0 1", {"offer": 1}),
    # The same with d6 taken: no push, no offer.
    ("8/3p4/3N4/8/2P5/8/8/8 w - - 0 1", {"reach.N": 7, "push": 1}),
    # The rook b8 also guards b3: the knight's offer there is guarded.
    ("1r6/8/8/8/8/8/P7/2n5 w - - 0 1",
     {"reach.N": -3, "reach.R": -14, "push": 1, "backward": 1, "isolated": 1,
      "backward.open": 1, "isolated.open": 1, "passed": 1, "outside": 1, "island": 1}),
    # Without the rook it is not.
    ("8/8/8/8/8/8/P7/2n5 w - - 0 1",
     {"reach.N": -3, "offer": 1, "push": 1, "backward": 1, "isolated": 1,
      "backward.open": 1, "isolated.open": 1, "passed": 1, "outside": 1, "island": 1}),
    # The knight b6 alone attacks d5, but g6 guards f5, the pawn e4's other square: no
    # offer (and e4 guards f5 against g6's offers). Passed e4 (rank 4) and g6 (Black's
    # rank 3).
    ("8/8/1n4p1/8/4P3/8/8/8 w - - 0 1", {"reach.N": -6, "passed.rank": 1}),
    # Without g6 the offer stands.
    ("8/8/1n6/8/4P3/8/8/8 w - - 0 1",
     {"reach.N": -6, "offer": 1, "push": 1, "backward": 1, "isolated": 1,
      "backward.open": 1, "isolated.open": 1, "passed": 1, "passed.rank": 2, "island": 1}),
    # c3 is backward but not isolated (d4 beside it) nor open (c6); c6 is isolated. d4 is
    # offered c5 (c6 pushes) and c6 d5 (d4 pushes): they cancel.
    ("8/8/2p5/8/3P4/2P5/8/8 w - - 0 1", {"push": 1, "isolated": -1}),
    # Black's pawns on its 7th rank: never backward, passed (rank 7: 5 each), connected;
    # a2 is outside; one island.
    ("8/8/8/8/8/8/pp6/8 b - - 0 1",
     {"push": -2, "passed": -2, "passed.rank": -10, "passed.connected": -2, "outside": -1,
      "outside.rank": -5, "island": -1}),
    # Rook a1: a2-a8 and b1-d1; king e1: 5 squares; king h1: 3.
    ("8/8/8/8/8/8/8/R3K2k w - - 0 1", {"reach.R": 10, "reach.K": 2}),
    # Bishop b2: a1, c1, a3, c3 (d4 is taken); queen d4: 14 on its lines, 11 on its
    # diagonals (b2 is taken).
    ("8/8/8/8/3q4/8/1B6/8 w - - 0 1", {"reach.B": 4, "reach.Q": -25}),
]


def _expected(values: dict[str, float]) -> np.ndarray:
    assert set(values) <= set(KEYS)
    return np.array([float(values.get(k, 0)) for k in KEYS])


def _sjeng(fen: str, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """The block's features by the compiled kernel and by the reference, on the arrays."""
    pos = Position.from_fen(fen, variant)
    layout = feature_layout(variant, "psq+sjeng")
    assert SJENG_BLOCK.reference is not None
    return (feature_vector(pos.bb, pos.st, layout)[layout.span("sjeng")],
            SJENG_BLOCK.reference(pos.bb, pos.st))


def test_the_block_is_registered_for_the_losing_variants_only():
    assert BLOCKS["sjeng"] is SJENG_BLOCK and SJENG_BLOCK.code > 0
    assert SJENG_BLOCK.size == 18 and set(SJENG_TERMS) == set(KEYS)
    assert [v for v in VARIANTS if SJENG_BLOCK.misfit(v) is None] == list(LOSING)
    layout = feature_layout("suicide", "psq+sjeng")
    assert layout.names[layout.span("sjeng")] == [f"sjeng.{k}" for k in KEYS]
    assert layout.table.tolist() == [[SJENG_BLOCK.code, BASE_SIZE, 18, 0]]
    with pytest.raises(WeightsError, match=r"block 'sjeng' is for suicide, giveaway, "
                       r"antichess only \(rule 'losing'\), not chess$"):
        feature_layout("chess", "psq+sjeng")
    assert all(SJENG_BLOCK.misfit(v) for v in VARIANTS if not spec.get(v).losing)


@pytest.mark.parametrize("variant", LOSING)
def test_the_kernel_equals_the_reference_on_random_positions(variant):
    """Kernel == reference (arrays) == python-chess's board from the FEN, on seeded
    random positions; every key is non-zero somewhere; the evaluation is w . x."""
    layout = feature_layout(variant, "psq+sjeng")
    span = layout.span("sjeng")
    rng = np.random.default_rng(97)
    w = np.zeros(layout.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[6:12] = 0.0                                      # no pockets
    w[span] = rng.uniform(-1, 1, len(KEYS))
    seen = np.zeros(len(KEYS))
    for fen in random_positions(variant, "sjeng", 120, lo=2, hi=90):
        kernel, reference = _sjeng(fen, variant)
        want = sjeng_features(new_board(variant, fen))
        assert kernel.tolist() == want.tolist(), fen
        assert reference.tolist() == want.tolist(), fen
        assert_scores_are_w_dot_x(Position.from_fen(fen, variant), layout, w)
        seen += want != 0
    missing = [k for k, n in zip(KEYS, seen) if not n]
    assert not missing, f"never non-zero: {missing}"


@pytest.mark.parametrize("mirrored", [False, True], ids=["as-is", "colours-swapped"])
def test_hand_made_positions(mirrored):
    """Hand-worked values; with the colours swapped (python-chess's ``mirror``) every
    value changes sign."""
    signs = np.zeros((len(KEYS), 2))
    for fen, values in HAND_MADE:
        want = _expected(values)
        if mirrored:
            fen, want = chess.variant.SuicideBoard(fen).mirror().fen(), -want
        kernel, reference = _sjeng(fen, "suicide")
        assert sjeng_features(new_board("suicide", fen)).tolist() == want.tolist(), fen
        assert kernel.tolist() == want.tolist(), fen
        assert reference.tolist() == want.tolist(), fen
        signs[:, 0] += want > 0
        signs[:, 1] += want < 0
    missing = [k for k, n in zip(KEYS, signs.sum(axis=1)) if not n]
    assert not missing, f"never non-zero: {missing}"


def test_sjengs_numbers_with_its_own_sign():
    """The weights put Sjeng's numbers over 30 on material, centre tables and the block,
    with Sjeng's sign: the value set ``sjeng`` (the report's, Sjeng's material times -1)
    is their material negated. The file in runs/blocks/sjeng is what they write."""
    w = sjeng_weights("suicide")
    layout = w.layout
    assert layout.name == "psq+sjeng" and w.variant == "suicide"
    material = dict(zip("PNBRQK", w.w[:6]))
    assert material == pytest.approx({p: x / 30 for p, x in SJENG_MATERIAL.items()})
    assert material["R"] == 5.0 and material["K"] == pytest.approx(50 / 3)
    flipped = value_set("sjeng", "suicide").w[:6]
    assert (-w.w[:6]).tolist() == pytest.approx(flipped.tolist(), abs=0.005)
    block = w.w[layout.span("sjeng")]
    assert block.tolist() == pytest.approx([SJENG_TERMS[k] / SJENG_SCALE for k in KEYS])
    assert block[KEYS.index("reach.N")] == pytest.approx(4 / 30)
    assert block[KEYS.index("offer")] == -1.0
    psq = w.w[layout.span("psq")].reshape(6, 64)
    d4, a1 = chess.D4, chess.A1
    assert psq[1, d4] == pytest.approx(25 / 30) and psq[5, d4] == pytest.approx(12 / 30)
    assert psq[0, a1] == pytest.approx(-20 / 30) and psq[5, a1] == pytest.approx(-10 / 30)
    for sq in range(64):        # the table is its own mirror: Black reads it as White
        assert psq[:, sq].tolist() == psq[:, sq ^ 56].tolist()
    assert json.loads(WEIGHTS_FILE.read_text()) == json.loads(json.dumps(w.to_json()))
    loaded = load_weights(str(WEIGHTS_FILE), "suicide")
    assert loaded.layout == layout and loaded.w.tolist() == w.w.tolist()


def _scaled_by_sjeng(board: chess.Board) -> bool:
    """Whether Sjeng scales the position's score by pieces / 32 (which no weights do):
    each side's bishops on squares of one colour, the two colours different (a side
    without bishops counts as on light squares), fewer than 32 pieces."""
    def colour(color: bool) -> int | None:
        dark = {(chess.square_rank(s) + chess.square_file(s)) % 2 == 0
                for s in board.pieces(chess.BISHOP, color)}
        return None if len(dark) > 1 else int(dark.pop()) if dark else 0
    white, black = colour(chess.WHITE), colour(chess.BLACK)
    return (white is not None and black is not None and white != black
            and len(board.piece_map()) < 32)


def test_the_weights_evaluate_as_the_sjeng_engine():
    """Sjeng's own ``eval`` (side to move's view, its units) of seeded random suicide
    positions equals the weights' evaluation times 30 (the classic blocks by the
    python-chess oracle, the block by its reference), where Sjeng does not scale the
    score: exactly in most positions, and elsewhere by whole offers (30 each), where its
    offer test and ours part (the block's docstring)."""
    command = engine_path("sjeng")
    w = sjeng_weights("suicide")
    span = w.layout.span("sjeng")
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(*lines: str) -> str:
        assert proc.stdin is not None and proc.stdout is not None
        for line in lines:
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        while True:
            out = proc.stdout.readline()
            assert out, "sjeng ended"
            if out.startswith("Eval:"):
                return out

    exact = checked = 0
    try:
        ask("xboard", "variant suicide", "force", "eval")
        for fen in random_positions("suicide", "sjeng-eval", 120, lo=2, hi=90):
            board = new_board("suicide", fen)
            if _scaled_by_sjeng(board):
                continue
            theirs = int(ask(f"setboard {fen}", "eval").split()[1])
            ours = (oracle_eval(board, w.w) + float(w.w[span] @ sjeng_features(board)))
            ours *= SJENG_SCALE if board.turn == chess.WHITE else -SJENG_SCALE
            off = (theirs - ours) / 30
            assert off == pytest.approx(round(off), abs=1e-6), (fen, theirs, ours)
            exact += round(off) == 0
            checked += 1
    finally:
        proc.communicate("quit\n", timeout=10)
    assert checked >= 60 and exact >= 0.75 * checked, (exact, checked)


def test_a_short_search_with_sjengs_weights_plays_a_legal_move():
    """Depth 3 in suicide with Sjeng's weights: a legal move, and the PV leaf's
    features are the block's definition."""
    w = sjeng_weights("suicide")
    layout = w.layout
    engine = Engine("suicide", w, hash_mb=2)
    leaves = 0
    for fen in random_positions("suicide", "sjeng-search", 3, lo=6, hi=20):
        board = new_board("suicide", fen)
        r = engine.search(fen, depth=3)
        assert r.move is not None
        assert chess.Move.from_uci(r.move) in board.legal_moves, (fen, r.move)
        if not r.leaf_terminal and r.leaf_position is not None:
            assert r.leaf_features[layout.span("sjeng")].tolist() == \
                sjeng_features(r.leaf_position.to_board()).tolist()
            assert r.leaf_score == pytest.approx(float(w.w @ r.leaf_features), abs=1e-9)
            leaves += 1
    assert leaves >= 1


def test_a_short_search_with_the_block_plays_a_legal_move():
    """Depth 3 in suicide with random tables and block weights: a legal move, and the
    PV leaf's features are the block's definition."""
    layout = feature_layout("suicide", "psq+sjeng")
    rng = np.random.default_rng(3)
    x = np.zeros(layout.size)
    x[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    x[6:12] = 0.0
    x[layout.span("sjeng")] = rng.uniform(-0.5, 0.5, len(KEYS))
    w = Weights("suicide", x, {}, layout=layout)
    engine = Engine("suicide", w, hash_mb=2)
    leaves = 0
    for fen in random_positions("suicide", "sjeng-search", 3, lo=6, hi=20):
        board = new_board("suicide", fen)
        r = engine.search(fen, depth=3)
        assert r.move is not None
        assert chess.Move.from_uci(r.move) in board.legal_moves, (fen, r.move)
        if not r.leaf_terminal and r.leaf_position is not None:
            assert r.leaf_features[layout.span("sjeng")].tolist() == \
                sjeng_features(r.leaf_position.to_board()).tolist()
            assert r.leaf_score == pytest.approx(float(w.w @ r.leaf_features), abs=1e-9)
            leaves += 1
    assert leaves >= 1
