"""The linear evaluation (search.evaluate) and weight files / value sets (search.layout).

Along seeded random games in every variant, for every legal move of every position:
the incremental update equals the from-scratch evaluation, the evaluation is the dot
product of the weights with the feature vector, and both equal a reference evaluation
recomputed from python-chess's board (helpers_search.oracle_eval). Weights are random
(material, pockets and piece-square tables) or the hand-made value sets.
"""

from __future__ import annotations

import json
import random

import chess
import numpy as np
import pytest

from search import LAYOUT, N_FEATURES, VALUE_SETS, Engine, Weights, WeightsError
from search.evaluate import evaluate, evaluate_delta, feature_vector, sparse_features
from search.layout import HAND, MATERIAL, PSQ, load_weights, value_set, weights_from_json
from variants import Position, core, move_to_uci

from helpers_search import (
    ANTI,
    VARIANTS,
    new_board,
    oracle_eval,
    oracle_features,
    random_positions,
    random_weight_vector,
)
from helpers_tiers import report_variants_in_fast_tier

EXACT = 1e-9

# The value sets of the paper digest: which variants each one covers.
DIGEST_SETS = {
    "traditional": VARIANTS,
    "sunsetter": ("chess", "crazyhouse"),
    "sjeng": ("crazyhouse", "suicide"),
}


def test_layout_offsets():
    assert (MATERIAL, HAND, PSQ, N_FEATURES) == (0, 6, 12, 12 + 6 * 64)
    assert LAYOUT.size == N_FEATURES == len(LAYOUT.names)
    assert LAYOUT.names[MATERIAL + 1] == "material.N" and LAYOUT.names[HAND + 4] == "hand.Q"
    assert LAYOUT.names[PSQ + 64 * 5 + 63] == "psq.K.63"


# --------------------------------------------------------------------------------------
# Incremental = full = w . features = python-chess reference, along random games
# --------------------------------------------------------------------------------------


def _game_weights(variant: str, game: int) -> np.ndarray:
    """Game 0, 1: random weights incl. piece-square tables; 2+: the hand-made sets in turn."""
    if game < 2:
        return random_weight_vector(np.random.default_rng(1000 * game + VARIANTS.index(variant)))
    names = [n for n in VALUE_SETS if variant in DIGEST_SETS.get(n, ()) or n == "traditional"]
    return value_set(names[(game - 2) % len(names)], variant).w


def _kind(board: chess.Board, move: chess.Move) -> set[str]:
    kinds = set()
    if move.drop:
        kinds.add("drop")
    elif board.is_en_passant(move):
        kinds.add("ep")
    elif board.is_castling(move):
        kinds.add("castle")
    elif board.is_capture(move):
        kinds.add("capture")
        if isinstance(board, chess.variant.CrazyhouseBoard) and board.promoted & chess.BB_SQUARES[move.to_square]:
            kinds.add("capture-promoted")
    if move.promotion:
        kinds.add("promotion")
        if move.promotion == chess.KING:
            kinds.add("king-promotion")
    return kinds


REQUIRED_KINDS = {
    "chess": {"capture", "castle", "promotion", "ep"},
    "crazyhouse": {"capture", "castle", "promotion", "drop", "capture-promoted"},
    "suicide": {"capture", "promotion", "king-promotion"},
    "giveaway": {"capture", "promotion", "king-promotion"},
    "antichess": {"capture", "promotion", "king-promotion"},
    "atomic": {"capture", "castle", "promotion"},
}
GAMES = 4
MAX_PLIES = 220
_PROMO_CASTLE = "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1"
_EP = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
_ANTI_PROMO = "1n6/P1P5/8/8/8/8/5p1p/6N1 w - - 0 1"
#: Where the games of each variant start (None: the start position), so that every kind
#: of move (castling, en passant, promotions, drops, explosions) is met.
STARTS = {
    "chess": [None, None, _PROMO_CASTLE, _EP],
    "crazyhouse": [None, "r3k2r/1P6/8/8/3pP3/8/6p1/R3K2R[QNbp] b KQkq e3 0 1",
                   "4k3/8/8/8/8/8/8/r2Q~K3[] b - - 0 1", None],
    "suicide": [None, None, _ANTI_PROMO, None],
    "giveaway": [None, None, _ANTI_PROMO, None],
    "antichess": [None, None, _ANTI_PROMO, None],
    "atomic": [None, None, _PROMO_CASTLE, _EP],
}
DROPS_PER_POSITION = 8
MIN_POSITIONS = 400


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_incremental_equals_full_along_random_games(variant):
    """Every non-drop legal move (and a sample of drops) of every position of GAMES
    seeded random games: evaluate(child) == evaluate(parent) + evaluate_delta(parent,
    child) == reference(child), evaluate == w . feature_vector == reference."""
    rng = random.Random(f"eval:{variant}")
    seen: set[str] = set()
    positions = children = 0
    cbb = np.zeros(core.NBB, dtype=np.uint64)
    cst = np.zeros(core.NST, dtype=np.int64)
    game = 0
    while game < len(STARTS[variant]) or positions < MIN_POSITIONS:
        start = STARTS[variant][game] if game < len(STARTS[variant]) else None
        w = _game_weights(variant, game)
        game += 1
        board = new_board(variant, start)
        for _ in range(MAX_PLIES):
            if board.outcome() is not None:
                break
            pos = Position.from_board(board, variant)
            e = evaluate(pos.bb, pos.st, w)
            x = feature_vector(pos.bb, pos.st)
            np.testing.assert_array_equal(x, oracle_features(board), err_msg=board.fen())
            assert e == pytest.approx(float(w @ x), abs=EXACT), board.fen()
            assert e == pytest.approx(oracle_eval(board, w), abs=EXACT), board.fen()
            idx, vals = sparse_features(pos.bb, pos.st)
            assert e == pytest.approx(float(w[idx] @ vals), abs=EXACT)
            positions += 1
            codes = [int(c) for c in pos.legal_move_codes()]
            drops = [c for c in codes if "@" in move_to_uci(c)]
            if len(drops) > DROPS_PER_POSITION:
                keep = set(rng.sample(drops, DROPS_PER_POSITION))
                codes = [c for c in codes if "@" not in move_to_uci(c) or c in keep]
            for code in codes:
                core.copy_make(pos.bb, pos.st, cbb, cst, code)
                full = evaluate(cbb, cst, w)
                delta = evaluate_delta(pos.bb, pos.st, cbb, cst, w)
                move = chess.Move.from_uci(move_to_uci(code))
                seen |= _kind(board, move)
                assert full == pytest.approx(e + delta, abs=EXACT), f"{board.fen()} {move}"
                board.push(move)
                assert full == pytest.approx(oracle_eval(board, w), abs=EXACT), \
                    f"{board.fen()} after {move}"
                board.pop()
                children += 1
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            # Favour captures and pawn moves a little so that games reach promotions.
            special = [m for m in moves if not m.drop and (
                board.is_capture(m) or board.piece_type_at(m.from_square) == chess.PAWN)]
            board.push(rng.choice(special if special and rng.random() < 0.5 else moves))
    missing = REQUIRED_KINDS[variant] - seen
    assert not missing, f"random games never exercised: {missing}"
    assert children >= 8 * positions, (positions, children)
    print(f"{variant}: {game} games, {positions} positions, {children} moves")


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_evaluation_is_colour_symmetric(variant):
    """Black's piece-square entries are White's mirrored, so flipping the board and the
    colours (pockets included) negates the evaluation for any weights."""
    rng = np.random.default_rng(7)
    for fen in random_positions(variant, "eval-mirror", 25):
        w = random_weight_vector(rng)
        board = new_board(variant, fen)
        a = Position.from_board(board, variant)
        b = Position.from_board(board.mirror(), variant)
        assert evaluate(b.bb, b.st, w) == pytest.approx(-evaluate(a.bb, a.st, w), abs=EXACT)
        np.testing.assert_array_equal(feature_vector(b.bb, b.st), -feature_vector(a.bb, a.st))


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_start_position_is_balanced(variant):
    pos = Position.start(variant)
    for name in VALUE_SETS:
        try:
            w = value_set(name, variant).w
        except WeightsError:
            continue
        assert evaluate(pos.bb, pos.st, w) == pytest.approx(0.0, abs=EXACT)
    assert not feature_vector(pos.bb, pos.st)[:12].any()


# --------------------------------------------------------------------------------------
# Value sets
# --------------------------------------------------------------------------------------


def _material(w: Weights) -> tuple[float, ...]:
    return tuple(float(x) for x in w.w[MATERIAL:MATERIAL + 6])


@pytest.mark.parametrize("name,variant", [(n, v) for n, vs in DIGEST_SETS.items() for v in vs])
def test_digest_value_sets_exist(name, variant):
    w = value_set(name, variant)
    assert w.variant == variant and w.w.shape == (N_FEATURES,)
    assert w.meta.get("value_set") == name
    assert not w.w[PSQ:].any(), "value sets are material only"
    pieces = _material(w)
    if variant in ANTI:
        assert all(x <= 0 for x in pieces), pieces      # losing pieces is good
    else:
        assert pieces[5] == 0 and all(x > 0 for x in pieces[:5]), pieces
        assert pieces[0] < pieces[1] and pieces[3] < pieces[4], pieces
    hand = tuple(w.w[HAND:HAND + 5])
    if variant == "crazyhouse":
        assert hand == pieces[:5], "pieces in hand are worth their material value"
    else:
        assert not any(hand)
    assert load_weights(name, variant).w.tolist() == w.w.tolist()


def test_traditional_values():
    assert _material(value_set("traditional", "chess")) == (1, 3, 3, 5, 9, 0)
    for v in ("crazyhouse", "atomic"):
        assert _material(value_set("traditional", v)) == (1, 3, 3, 5, 9, 0)
    for v in ANTI:
        assert _material(value_set("traditional", v)) == (-1, -3, -3, -5, -9, -2)


def test_stockfish_set_is_the_multivariant_stockfish_values():
    """Multi-variant Stockfish (ddugovic, src/types.h at 8a59ec98): the mean of midgame
    and endgame, scaled by the spec's rule; horde's Black shares White's scale."""
    koth = _material(value_set("stockfish", "kingofthehill"))
    assert koth == (0.672, 2.676, 3.0, 4.066, 8.386, 0)       # (180.5, 719, 806, ...) / 806 * 3
    assert _material(value_set("stockfish", "3check"))[2] == 3.0
    assert _material(value_set("stockfish", "racingkings"))[0] == 0.0     # no pawns there
    horde = value_set("stockfish", "horde")
    assert _material(horde)[0] == 1.0
    assert horde.w[horde.layout.span("material_black")].tolist() == list(_material(horde))
    # Every variant: chess's and antichess's (the king learnt there, Stockfish's "Anti").
    assert _material(value_set("stockfish", "chess"))[:3] == (0.576, 2.819, 3.0)  # 167, 817.5, 870
    anti = _material(value_set("stockfish", "antichess"))
    assert anti[3] == -5.0 and anti[5] == round(75 / -208 * -5, 3)   # K: (-23 + 173) / 2
    assert anti == _material(value_set("stockfish", "suicide"))


def test_report_set_is_the_reports_tables():
    """The report's learnt values, in its normalisations (bishop 3, rook -5, knight 2.5)."""
    assert _material(value_set("report", "chess"))[2] == 3
    assert _material(value_set("report", "suicide"))[3] == -5
    assert _material(value_set("report", "atomic"))[1:3] == (2.5, -0.77)
    zh = value_set("report", "crazyhouse")
    hand = tuple(round(float(x), 2) for x in zh.w[HAND:HAND + 5])
    assert hand == (1.49, 2.96, 2.81, 3.53, 5.63)          # in hand, apart from the board's
    assert _material(zh)[:5] == (1.34, 2.35, 3.0, 3.14, 6.04)
    assert load_weights("report", "crazyhouse").w.tolist() == zh.w.tolist()
    with pytest.raises(WeightsError, match="no values for giveaway"):
        value_set("report", "giveaway")


def test_report_set_matches_the_figures_copy():
    """plots.paper.LEARNT, which the figures draw beside ours, is the value set's: every
    number of it (pieces in hand included) is the one the set plays."""
    from plots.paper import LEARNT
    for variant, values in LEARNT.items():
        w = value_set("report", variant)
        for key, value in values.items():
            piece, _, hand = key.partition("@")
            i = (HAND if hand else MATERIAL) + "PNBRQK".index(piece)
            assert w.w[i] == pytest.approx(value), (variant, key)


@pytest.mark.parametrize("name,variant", [("sunsetter", "suicide"), ("sunsetter", "atomic"),
                                          ("sjeng", "chess"), ("sjeng", "atomic")])
def test_value_set_not_defined_for_variant(name, variant):
    with pytest.raises(WeightsError, match=rf"{name}.*no values for {variant}"):
        value_set(name, variant)


def test_unknown_value_set_and_variant():
    with pytest.raises(WeightsError, match="unknown value set 'nosuch'.*traditional"):
        value_set("nosuch", "chess")
    with pytest.raises(WeightsError, match="no weights file or value set named 'nosuch'"):
        load_weights("nosuch", "chess")
    with pytest.raises(ValueError, match="unknown variant"):
        value_set("traditional", "bughouse")


# --------------------------------------------------------------------------------------
# weights.json round trip and bad files
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_weights_round_trip(tmp_path, variant):
    rng = np.random.default_rng(VARIANTS.index(variant))
    w = Weights(variant, random_weight_vector(rng), {"run": "test", "games": 12, "lr": 0.5})
    w.w[HAND + 5] = 0.0              # the unused slot is not saved
    path = tmp_path / "run" / "weights.json"
    w.save(path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["weights.json"], "temp file left"
    for spec in (path, str(path), path.parent):
        back = load_weights(spec, variant)
        assert back.variant == variant and back.meta == w.meta
        assert back.w.tolist() == w.w.tolist()          # bit-exact through JSON
    again = weights_from_json(json.loads(path.read_text()), variant)
    assert again.w.tolist() == w.w.tolist()
    # Saving over an existing file replaces it.
    w2 = w.copy()
    w2.w[MATERIAL] += 1.0
    w2.save(path)
    assert load_weights(path, variant).w[MATERIAL] == w.w[MATERIAL] + 1.0
    engine = Engine(variant, str(path), hash_mb=1)
    assert engine.w.tolist() == w2.w.tolist()


def _valid(variant: str = "chess") -> dict:
    return value_set("traditional", variant).to_json()


BAD_FILES = [
    ("truncated", lambda: json.dumps(_valid())[:40], "corrupt weights file"),
    ("empty", lambda: "", "corrupt weights file"),
    ("binary", lambda: b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "corrupt weights file"),
    ("not an object", lambda: "[1, 2, 3]", "expected a JSON object"),
    ("unknown field", lambda: {**_valid(), "bias": 1.0}, "unknown field 'bias'"),
    ("unknown piece", lambda: {**_valid(), "material": {"X": 1.0}}, "unknown piece 'X'"),
    ("short psq", lambda: {**_valid(), "psq": {"N": [0.0] * 63}}, "psq.N must be a list of 64"),
    ("psq not a list", lambda: {**_valid(), "psq": {"N": 1.0}}, "psq.N must be a list of 64"),
    ("nan", lambda: json.dumps(_valid()).replace('"N": 3.0', '"N": NaN'), "finite number"),
    ("infinity", lambda: json.dumps(_valid()).replace('"N": 3.0', '"N": Infinity'), "finite number"),
    ("string value", lambda: {**_valid(), "material": {"N": "3"}}, "finite number"),
    ("bool value", lambda: {**_valid(), "material": {"N": True}}, "finite number"),
    ("material list", lambda: {**_valid(), "material": [1, 3]}, "'material' must be an object"),
    ("meta list", lambda: {**_valid(), "meta": [1]}, "'meta' must be an object"),
    ("unknown variant", lambda: {**_valid(), "variant": "bughouse"}, "unknown variant"),
    ("other variant", lambda: _valid("suicide"), "weights are for suicide, not chess"),
]


@pytest.mark.parametrize("label,content,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_weights_file_raises_clear_error(tmp_path, label, content, message):
    data = content()
    path = tmp_path / "weights.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data)
    else:
        path.write_text(json.dumps(data))
    with pytest.raises(WeightsError) as info:
        load_weights(path, "chess")
    text = str(info.value)
    assert message in text, text
    assert str(path) in text, f"the message should name the file: {text}"
    assert "\n" not in text.strip()
    with pytest.raises(WeightsError):
        Engine("chess", str(path), hash_mb=1)


def test_missing_weights_file(tmp_path):
    with pytest.raises(WeightsError, match="no weights file or value set named"):
        load_weights(tmp_path / "nope.json", "chess")
    with pytest.raises(WeightsError, match="no weights file"):
        load_weights(tmp_path, "chess")     # a run folder without weights.json


def test_partial_file_and_giveaway_alias(tmp_path):
    """Absent blocks are zero; a file without a variant takes the caller's; giveaway
    weights serve antichess (same rules)."""
    path = tmp_path / "weights.json"
    path.write_text(json.dumps({"material": {"Q": 8.5}}))
    w = load_weights(path, "atomic")
    assert w.variant == "atomic" and w.w[MATERIAL + 4] == 8.5 and np.count_nonzero(w.w) == 1
    Engine("antichess", value_set("sjeng", "giveaway"), hash_mb=1)
    Engine("giveaway", value_set("traditional", "antichess"), hash_mb=1)
