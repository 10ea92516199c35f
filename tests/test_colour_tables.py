"""How the evaluation's tables mirror between the colours, as each variant's spec says:
by rank in most variants, by file in racing kings (its start is mirrored
left-right), and separate values per colour in horde (Black's own ``material_black`` and
``psq_black`` blocks).

The reference (tests/helpers_search.py: ``oracle_features``, ``oracle_eval``) is written
from python-chess's board and the spec's ``mirror``, apart from search.layout and
search.evaluate: a black piece on d1 reads White's e1 in racing kings, its own
``psq_black`` entry of d8 in horde. Seeded random positions and games; python-chess
1.11.2 is the oracle.
"""

from __future__ import annotations

import json
import random

import chess
import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate, evaluate_delta, feature_vector, sparse_features
from search.layout import (
    BASE_SIZE,
    COLOUR_SIZE,
    LAYOUT,
    MATERIAL_BLACK,
    PSQ,
    PSQ_BLACK,
    Weights,
    WeightsError,
    black_view,
    feature_layout,
    load_weights,
    value_set,
    weights_from_json,
)
from variants import Position, core, move_to_uci, spec

from helpers_search import new_board, oracle_eval, oracle_features, random_positions

EXACT = 1e-9
#: Chess is the control: its tables mirror by rank, as every variant's did before.
MIRRORED = ("horde", "racingkings", "chess")


def _weights(variant: str, seed: int) -> np.ndarray:
    """Random material and tables for both colours (Black's own where the colours differ)."""
    rng = np.random.default_rng(seed)
    layout = feature_layout(variant, "material")
    w = np.where(layout.mask(layout.block_names), rng.normal(0.0, 0.3, layout.size), 0.0)
    w[:6] = rng.uniform(-10, 10, 6)
    if layout.has("material_black"):
        w[MATERIAL_BLACK:MATERIAL_BLACK + 6] = rng.uniform(-10, 10, 6)
    return w


def test_offsets_and_the_compiled_table_follow_the_spec():
    assert (MATERIAL_BLACK, PSQ_BLACK, COLOUR_SIZE) == (396, 402, 786)
    assert black_view("chess") == (0, 12, 56) and black_view("crazyhouse") == (0, 12, 56)
    assert black_view("racingkings") == (0, 12, 7)
    assert black_view("horde") == (396, 402, 56)
    from search.kernels.base import BLACK_VIEW as _BLACK
    for name in spec.VARIANTS:
        assert tuple(_BLACK[spec.get(name).code]) == black_view(name), name
    # The figures keep their own copy of the offsets (plots imports nothing of search).
    from plots import runfolder
    assert (runfolder.MATERIAL_BLACK, runfolder.PSQ_BLACK, runfolder.COLOUR_SIZE) == \
        (MATERIAL_BLACK, PSQ_BLACK, COLOUR_SIZE)


@pytest.mark.parametrize("variant", MIRRORED)
def test_evaluation_equals_the_reference_on_random_positions(variant):
    """evaluate == python-chess reference == w . features (dense and sparse)."""
    for i, fen in enumerate(random_positions(variant, "colour-tables", 40, 2, 80)):
        w = _weights(variant, i)
        board = new_board(variant, fen)
        pos = Position.from_board(board, variant)
        e = evaluate(pos.bb, pos.st, w)
        x = feature_vector(pos.bb, pos.st)
        np.testing.assert_array_equal(x, oracle_features(board), err_msg=fen)
        assert e == pytest.approx(oracle_eval(board, w), abs=EXACT), fen
        assert e == pytest.approx(float(w @ x), abs=EXACT), fen
        idx, vals = sparse_features(pos.bb, pos.st)
        assert e == pytest.approx(float(w[idx] @ vals), abs=EXACT), fen
        layout = feature_layout(variant, "material")
        assert feature_vector(pos.bb, pos.st, layout).tolist() == x.tolist()


@pytest.mark.parametrize("variant", ["horde", "racingkings"])
def test_incremental_equals_full_along_random_games(variant):
    """Every legal move of every position of seeded random games: evaluate(parent) +
    evaluate_delta == evaluate(child) == the python-chess reference."""
    rng = random.Random(f"colour-delta:{variant}")
    cbb = np.zeros(core.NBB, dtype=np.uint64)
    cst = np.zeros(core.NST, dtype=np.int64)
    positions = children = promotions = 0
    for game in range(4):
        w = _weights(variant, 100 + game)
        board = new_board(variant)
        for _ in range(160):
            if board.outcome() is not None:
                break
            pos = Position.from_board(board, variant)
            e = evaluate(pos.bb, pos.st, w)
            assert e == pytest.approx(oracle_eval(board, w), abs=EXACT), board.fen()
            positions += 1
            for code in pos.legal_move_codes():
                core.copy_make(pos.bb, pos.st, cbb, cst, code)
                full = evaluate(cbb, cst, w)
                move = chess.Move.from_uci(move_to_uci(int(code)))
                promotions += bool(move.promotion)
                assert full == pytest.approx(e + evaluate_delta(pos.bb, pos.st, cbb, cst, w),
                                             abs=EXACT), f"{board.fen()} {move}"
                board.push(move)
                assert full == pytest.approx(oracle_eval(board, w), abs=EXACT)
                board.pop()
                children += 1
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
    assert positions >= 200 and children >= 5 * positions, (positions, children)
    if variant == "horde":
        assert promotions, "the random games never reached a promotion"


def test_racing_kings_black_reads_whites_table_mirrored_left_right():
    """At the start (mirrored left-right) any White tables balance, material or not."""
    w = _weights("racingkings", 7)
    pos = Position.start("racingkings")
    assert evaluate(pos.bb, pos.st, w) == pytest.approx(0.0, abs=EXACT)
    assert not feature_vector(pos.bb, pos.st).any()
    # By rank (the rule before the spec was read) the start would not balance.
    board = new_board("racingkings")
    by_rank = sum((1 if p.color else -1) * w[12 + 64 * (p.piece_type - 1)
                                             + (sq if p.color else chess.square_mirror(sq))]
                  for sq, p in board.piece_map().items())
    assert abs(by_rank) > 1e-3


def test_horde_value_sets_give_both_colours_the_same_values():
    for name in ("traditional", "ones"):
        w = value_set(name, "horde")
        assert w.layout.has("material_black") and w.w.size == COLOUR_SIZE
        assert w.w[MATERIAL_BLACK:MATERIAL_BLACK + 6].tolist() == w.w[:6].tolist()
        assert load_weights(name, "horde").w.tolist() == w.w.tolist()
    # White's 36 pawns against 8 pawns, 2 knights, bishops and rooks and a queen.
    pos = Position.start("horde")
    traditional = value_set("traditional", "horde").w
    assert evaluate(pos.bb, pos.st, traditional) == pytest.approx(36 - (8 + 6 + 6 + 10 + 9))
    Engine("horde", "traditional", hash_mb=1).search(None, depth=2)
    # Elsewhere the value sets keep the classic layout, exactly as before.
    for v in ("chess", "racingkings", "crazyhouse"):
        assert value_set("traditional", v).layout == LAYOUT


def test_horde_weights_round_trip(tmp_path):
    layout = feature_layout("horde", "psq")
    assert layout.block_names == ["material", "psq", "material_black", "psq_black"]
    assert layout.offsets["material_black"] == 396 and layout.offsets["psq_black"] == 402
    w = _weights("horde", 3)
    weights = Weights("horde", w, {"test": 1}, layout=layout)
    path = tmp_path / "weights.json"
    weights.save(path)
    data = json.loads(path.read_text())
    assert data["layout"]["blocks"] == layout.block_names
    assert data["material_black"]["Q"] == w[MATERIAL_BLACK + 4]
    assert data["psq_black"]["P"] == w[PSQ_BLACK:PSQ_BLACK + 64].tolist()
    back = load_weights(path, "horde")
    assert back.layout == layout and back.w.tobytes() == w.tobytes()
    engine = Engine("horde", str(path), hash_mb=1)
    assert engine.w.tobytes() == w.tobytes()
    fen = random_positions("horde", "round-trip", 1)[0]
    pos = Position.from_fen(fen, "horde")
    assert evaluate(pos.bb, pos.st, engine.w) == \
        pytest.approx(oracle_eval(new_board("horde", fen), w), abs=EXACT)
    assert engine.search(fen, depth=2).move


def _black_blocks_in(variant: str) -> dict:
    data = value_set("traditional", "horde").to_json()
    data["variant"] = variant
    return data


@pytest.mark.parametrize("variant,mirror", [("chess", "rank"), ("racingkings", "file"),
                                            ("atomic", "rank")])
def test_black_blocks_are_refused_where_the_colours_share_their_values(tmp_path, variant,
                                                                      mirror):
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(_black_blocks_in(variant)))
    with pytest.raises(WeightsError) as info:
        load_weights(path, variant)
    text = str(info.value)
    assert str(path) in text and "material_black" in text and "\n" not in text
    assert f"mirrors its tables between the colours by {mirror}" in text
    with pytest.raises(WeightsError, match="unknown feature block 'psq_black'"):
        feature_layout(variant, "psq+psq_black")      # not a block one adds: held or not
    with pytest.raises(WeightsError, match="Black's own values"):
        Weights(variant, np.zeros(COLOUR_SIZE), {}, layout=feature_layout("horde", "psq"))


def test_horde_weights_without_blacks_blocks_are_refused(tmp_path):
    """A horde file in the classic layout, or naming only White's blocks, would leave the
    compiled evaluation without Black's values."""
    classic = {"variant": "horde", "material": {"P": 1.0, "B": 3.0}}
    v2 = {"variant": "horde", "layout": {"name": "psq", "version": 2,
                                         "blocks": ["material", "psq"]}}
    for data in (classic, v2):
        path = tmp_path / "weights.json"
        path.write_text(json.dumps(data))
        with pytest.raises(WeightsError, match=r"horde values Black's pieces apart from "
                                               r"White's: its weights need the block\(s\) "
                                               "material_black, psq_black"):
            load_weights(path, "horde")
    with pytest.raises(WeightsError, match="material_black, psq_black"):
        Weights("horde", np.zeros(BASE_SIZE), {})
    # The compiled code refuses a vector too short for Black's blocks (no reading past it).
    pos = Position.start("horde")
    with pytest.raises(ValueError, match="lack"):
        evaluate(pos.bb, pos.st, np.zeros(BASE_SIZE))
    with pytest.raises(ValueError, match="shorter"):
        from search.evaluate import features
        features(pos.bb, pos.st, np.zeros(BASE_SIZE))


def test_weights_files_of_shared_tables_keep_their_layout():
    """Chess-like layouts are unchanged: no Black block, leaf blocks right after 396."""
    for v in ("chess", "crazyhouse", "racingkings", "suicide", "atomic"):
        for f in ("material", "psq"):
            layout = feature_layout(v, f)
            assert not layout.has("material_black") and layout.leaf_start == BASE_SIZE
    assert LAYOUT.size == BASE_SIZE == LAYOUT.leaf_start


def test_visits_land_on_the_entries_each_colour_reads():
    from tdleaf.learn.selfplay import count_visits
    # Racing kings: Black's start is White's mirrored left-right, so each White square
    # is visited twice and no other.
    pos = Position.start("racingkings")
    visits = np.zeros((6, 64), dtype=np.int64)
    count_visits(pos, visits)
    white = np.zeros((6, 64), dtype=np.int64)
    for sq, p in new_board("racingkings").piece_map().items():
        if p.color:
            white[p.piece_type - 1, sq] += 1
    assert (visits == 2 * white).all()
    # Horde: Black's pieces go to its own counts, in Black's view (its pawns on rank 2).
    pos = Position.start("horde")
    visits, black = np.zeros((6, 64), dtype=np.int64), np.zeros((6, 64), dtype=np.int64)
    count_visits(pos, visits, black)
    assert visits[0].sum() == 36 and visits[1:].sum() == 0
    assert black[0, 8:16].tolist() == [1] * 8 and black[0].sum() == 8
    assert black[5, chess.E1] == 1 and black[4, chess.D1] == 1


@pytest.mark.slow
def test_horde_learning_writes_both_colours(tmp_path):
    """A tiny job: Black's blocks are learnt, visited and summarised apart, normalised
    by Black's rule (bishop 3) while White's pawn is 1; then avg-psq and the figures."""
    from tdleaf.learn.config import LearnConfig, initial_weights, learn_mask
    from tdleaf.learn.runs import run_learning
    from tdleaf.learn.summary import summarise, summary_lines
    cfg = LearnConfig("horde", features="psq", games=1, runs=1, depth=1, max_plies=40).validate()
    w0 = initial_weights(cfg)
    assert w0.size == COLOUR_SIZE and w0[MATERIAL_BLACK:MATERIAL_BLACK + 6].tolist() == \
        [1, 1, 1, 1, 1, 0]
    mask = learn_mask(cfg)
    assert mask[MATERIAL_BLACK:MATERIAL_BLACK + 5].all() and not mask[MATERIAL_BLACK + 5]
    assert mask[PSQ_BLACK:].all() and mask[PSQ:BASE_SIZE].all()
    out = tmp_path / "job"
    out.mkdir()
    (out / "config.json").write_text(json.dumps({"learn": cfg.to_json()}))
    ck = run_learning(out, cfg.to_json(), 0)
    assert np.array(ck["visits_black"]).sum() > 0 and np.array(ck["visits"])[5].sum() == 0
    header = (out / "run-00" / "history.csv").read_text().splitlines()[0]
    assert header.endswith(",material_black.Q,material_black.K,cpu_seconds")
    summary = summarise(out, cfg)
    assert summary["normalisation"]["piece"] == "P" and summary["normalisation"]["value"] == 1
    black = summary["black"]
    assert (black["normalisation"]["piece"], black["normalisation"]["value"]) == ("B", 3.0)
    assert black["normalised"]["B=3"]["B"] == 3.0
    assert black["psq_average_normalised"]["B"] == 3.0
    assert np.array(black["visits"]).sum() == np.array(ck["visits_black"]).sum()
    data = json.loads((out / "weights.json").read_text())
    assert {"material_black", "psq_black"} <= set(data)
    lines = summary_lines(summary)
    assert lines[0].startswith("White's learnt values") and \
        any(x.startswith("Black's learnt values") and "B = 3" in x for x in lines)
    scaled = json.loads((out / "weights_normalised.json").read_text())
    assert scaled["material"]["P"] == 1.0 and scaled["material_black"]["B"] == 3.0
    from search.layout import average_psq_weights
    avg = average_psq_weights(out, "horde")
    assert avg.w[MATERIAL_BLACK + 2] == pytest.approx(black["psq_average"]["B"])
    assert avg.w[MATERIAL_BLACK + 5] == 0.0

    from plots import plot_run
    from plots.runfolder import black_values, load_run
    run = load_run(out)
    side = run.black_side()
    assert side.normalisation == ("B", 3.0) and run.normalisation == ("P", 1.0)
    full = np.array(ck["w"])
    # Black's tables on the board's own squares: its pawn on a7 reads its entry a2.
    assert black_values(full)[PSQ + chess.A7] == full[PSQ_BLACK + chess.A2]
    names = {p.name for p in plot_run(out)}
    assert {"heatmaps-black.png", "final-values-black.png", "curves-black.png",
            "heatmap-black-P.png"} <= names
    assert "Black's own values" in (out / "figures" / "report.md").read_text()
    with pytest.raises(ValueError, match="shares its values"):
        side.black_side()


def test_racing_kings_learning_keeps_one_set_of_values(tmp_path):
    from tdleaf.learn.config import LearnConfig
    from tdleaf.learn.runs import run_learning
    from tdleaf.learn.summary import summarise
    cfg = LearnConfig("racingkings", features="material", games=1, runs=1, depth=1,
                      max_plies=30).validate()
    out = tmp_path / "job"
    out.mkdir()
    ck = run_learning(out, cfg.to_json(), 0)
    assert "visits_black" not in ck and len(ck["w"]) == BASE_SIZE
    summary = summarise(out, cfg)
    assert "black" not in summary
    assert weights_from_json(json.loads((out / "weights.json").read_text()),
                             "racingkings").layout.block_names == ["material", "psq"]
