"""The goal blocks: one leaf block per variant's own way to win.

``checks`` (three-check: checks given, at least 1 and 2), ``hill`` (king of the hill: the
king's distance to the hill, 1-3) and ``race`` (racing kings: the king's rank 1-7 and its
free path to the 8th rank), each White's minus Black's. Oracle: python-chess boards
built from FENs by python-chess itself, never the compiled code; the compiled kernels
read the arrays of the project's FEN loader.
"""

from __future__ import annotations

import json
import subprocess
import sys

import chess
import chess.variant
import numpy as np
import pytest

from search import Engine
from search.evaluate import feature_vector, leaf_features
from search.evaluation.blocks.checks import checks_features
from search.evaluation.blocks.hill import hill_features
from search.evaluation.blocks.race import KEYS as RACE_KEYS
from search.evaluation.blocks.race import race_features
from search.kernels.hill import hill_distance
from search.layout import (
    BASE_SIZE,
    BLOCKS,
    FEATURE_SETS,
    LAYOUT_VERSION,
    Weights,
    WeightsError,
    feature_layout,
    learnt_blocks,
    load_weights,
    weights_from_json,
)
from tdleaf.cli import main
from tests.helpers_search import assert_scores_are_w_dot_x, new_board, random_positions
from variants import Position, spec

#: variant -> (goal block, its features of a python-chess board).
GOALS = {"3check": ("checks", checks_features), "kingofthehill": ("hill", hill_features),
         "racingkings": ("race", race_features)}
#: Hand-made positions with the features worked out by hand (race: keys -> value).
HAND_MADE = {
    "3check": [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+2 0 1", {"2": 1.0}),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+1 0 1", {"1": -1.0, "2": -1.0}),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+0", {"1": 1.0}),
    ],
    "kingofthehill": [
        ("8/8/8/8/2K5/8/8/7k w - - 0 1", {"1": 1.0, "3": -1.0}),      # c4: 1; h1: 3
        ("k7/8/8/8/8/8/1K6/8 b - - 0 1", {"2": 1.0, "3": -1.0}),      # b2: 2; a8: 3
    ],
    "racingkings": [
        # White: a1, rank 1, 7 steps. Black: h3, rank 3, 5 steps.
        ("8/8/8/8/8/7k/8/K7 w - - 0 1", {"rank1": 1.0, "path7": 1.0, "rank3": -1.0,
                                         "path5": -1.0}),
        ("8/8/8/K7/8/8/8/7k b - - 0 1", {"rank5": 1.0, "path3": 1.0, "rank1": -1.0,
                                         "path7": -1.0}),
        # The black rook sweeps a2-g2 and its king guards h2: White's king is shut in.
        ("8/8/8/8/8/6k1/7r/K7 w - - 0 1", {"rank1": 1.0, "blocked": 1.0, "rank3": -1.0,
                                           "path5": -1.0}),
        # White: g7, one step. Black: a1, walled in by its own rooks on a2 and b2, needs
        # a step along the 1st rank first: 8 steps, counted as 7 ("7 or more").
        ("8/6K1/8/8/8/8/rr6/k7 w - - 0 1", {"rank7": 1.0, "path1": 1.0, "rank1": -1.0,
                                            "path7": -1.0}),
    ],
}


def _expected(variant: str, values: dict[str, float]) -> list[float]:
    block = BLOCKS[GOALS[variant][0]]
    return [values.get(k, 0.0) for k in block.keys]


def _block_span(variant: str) -> slice:
    return feature_layout(variant, "psq").span(GOALS[variant][0])


def test_the_spec_names_each_goal_block_and_its_win_condition():
    goals = {v.name: v.goal_block for v in spec.SPECS.values() if v.goal_block}
    assert goals == {v: g for v, (g, _) in GOALS.items()}
    for variant, name in goals.items():
        block = BLOCKS[name]
        assert block.evaluation == "leaf" and block.code > 0 and block.reference is not None
        assert block.win_condition in spec.get(variant).win_conditions
        # The only variant with that win condition: one variant per goal block.
        assert [v for v in spec.VARIANTS if block.misfit(v) is None] == [variant]
    assert BLOCKS["race"].keys == RACE_KEYS and len(RACE_KEYS) == 15
    assert BLOCKS["checks"].keys == ("1", "2") and BLOCKS["hill"].keys == ("1", "2", "3")


@pytest.mark.parametrize("variant", spec.VARIANTS)
def test_psq_holds_and_learns_the_goal_block_and_material_does_not(variant):
    goal = spec.get(variant).goal_block
    psq, material = feature_layout(variant, "psq"), feature_layout(variant, "material")
    leaf = [b.name for b in psq.blocks if b.evaluation == "leaf"]
    assert leaf == ([goal] if goal else [])
    assert (goal in learnt_blocks(variant, "psq")) == bool(goal)
    assert not any(b.evaluation == "leaf" for b in material.blocks)
    if goal:
        block = BLOCKS[goal]
        assert psq.table.tolist() == [[block.code, psq.leaf_start, block.size, 0]]
        assert psq.size == psq.leaf_start + block.size
        assert psq.names[psq.span(goal)] == [f"{goal}.{k}" for k in block.keys]
        # Material and the goal: the goal block is added and learnt.
        both = feature_layout(variant, f"material+{goal}")
        assert both.has(goal) and learnt_blocks(variant, f"material+{goal}")[-1] == goal


@pytest.mark.parametrize("variant", list(GOALS))
def test_kernels_equal_the_references_and_python_chess(variant):
    """The compiled features equal the block's reference (on the arrays) and its
    definition on python-chess's own board, on seeded random positions and hand-made
    ones; every entry is non-zero somewhere; the evaluation is w . x."""
    name, oracle = GOALS[variant]
    block, layout, span = BLOCKS[name], feature_layout(variant, "psq"), _block_span(variant)
    assert block.reference is not None
    rng = np.random.default_rng(30)
    w = np.zeros(layout.size)
    w[layout.mask(layout.block_names)] = rng.uniform(-1, 1, int(layout.mask(layout.block_names).sum()))
    w[5] = 0.0                                                  # the king's material
    fens = random_positions(variant, "goal-blocks", 60, lo=2, hi=90)
    seen = np.zeros(block.size)
    for fen, values in [*((f, None) for f in fens), *HAND_MADE[variant]]:
        board = new_board(variant, fen)
        pos = Position.from_fen(fen, variant)
        x = feature_vector(pos.bb, pos.st, layout)
        want = oracle(board)
        assert x[span].tolist() == want.tolist(), fen
        assert block.reference(pos.bb, pos.st).tolist() == want.tolist(), fen
        if values is not None:
            assert want.tolist() == _expected(variant, values), fen
        assert_scores_are_w_dot_x(pos, layout, w)
        seen += want != 0
    missing = [k for k, n in zip(block.keys, seen) if not n]
    assert not missing, f"never non-zero: {missing}"


def test_hill_distance_on_every_square():
    hill = (chess.D4, chess.E4, chess.D5, chess.E5)
    for sq in chess.SQUARES:
        assert hill_distance(sq) == min(chess.square_distance(sq, h) for h in hill), sq


def test_the_race_kernel_sees_through_the_king_as_its_reference_does():
    """On positions where a king is in check (chess, random play), the race kernel and
    its reference agree: both take the king off the board for the enemy's sliders."""
    table = np.array([[BLOCKS["race"].code, 0, 15, BLOCKS["race"].extent]], dtype=np.int64)
    checked = 0
    for fen in random_positions("chess", "goal-race-checks", 200, lo=10, hi=80):
        board = chess.Board(fen)
        if not board.is_check():
            continue
        pos = Position.from_fen(fen, "chess")
        out = np.zeros(15)
        leaf_features(pos.bb, pos.st, table, out)
        assert out.tolist() == BLOCKS["race"].reference(pos.bb, pos.st).tolist(), fen
        checked += 1
    assert checked >= 5


# -- refusals ------------------------------------------------------------------------------

@pytest.mark.parametrize("features", ["psq+hill", "material+race", "psq+checks"])
def test_a_goal_block_outside_its_variant_is_refused(features):
    name = features.split("+")[1]
    owner = next(v for v, (g, _) in GOALS.items() if g == name)
    with pytest.raises(WeightsError, match=f"block '{name}' is for {owner} only.*not chess"):
        feature_layout("chess", features)
    with pytest.raises(WeightsError, match=f"'{name}' is already in the 'psq' set of {owner}"):
        feature_layout(owner, f"psq+{name}")


def test_learn_refuses_a_foreign_goal_block_and_its_help_lists_the_blocks(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, size in (("checks", 2), ("hill", 3), ("race", 15)):
        assert f"{name} ({size} weights" in text
    code = main(["learn", "--no-progress", "--no-plot", "--variant", "chess", "--features",
                 "psq+hill", "--out", str(tmp_path / "bad")])
    err = capsys.readouterr().err
    assert code == 2 and "'hill' is for kingofthehill only" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "bad" / "config.json").exists()


@pytest.mark.parametrize("variant", list(GOALS))
def test_weights_json_round_trip_and_a_goal_block_in_another_variant(variant, tmp_path):
    name = GOALS[variant][0]
    layout = feature_layout(variant, "psq")
    rng = np.random.default_rng(len(variant))
    w = np.where(layout.mask(layout.block_names), rng.uniform(-1, 1, layout.size), 0.0)
    path = tmp_path / "weights.json"
    Weights(variant, w, {"test": 1}, layout=layout).save(path)
    data = json.loads(path.read_text())
    assert data["layout"]["blocks"][-1] == name
    assert list(data[name]) == list(BLOCKS[name].keys)
    back = load_weights(path, variant)
    assert back.layout == layout and back.w.tobytes() == w.tobytes()
    assert Engine(variant, str(path), hash_mb=1).table.tolist() == layout.table.tolist()
    # The same file claimed for chess (or another goal's variant): refused, with the reason.
    for other in ("chess", *(v for v in GOALS if v != variant)):
        with pytest.raises(WeightsError, match=f"block '{name}' is for {variant} only.*not {other}"):
            weights_from_json({**data, "variant": other}, other, source="w.json")


# -- search and learning -------------------------------------------------------------------

@pytest.mark.parametrize("variant", list(GOALS))
def test_the_search_with_the_goal_block_plays_a_legal_game(variant):
    """Self-play at depth 2 with random tables and goal weights: every move is legal on
    python-chess's board, and each searched leaf's goal features and score are the
    block's definition and w . x."""
    name, oracle = GOALS[variant]
    layout, span = feature_layout(variant, "psq"), _block_span(variant)
    rng = np.random.default_rng(7)
    w = np.zeros(layout.size)
    w[:6] = [1, 3, 3, 5, 9, 0]
    w[span] = rng.uniform(0.2, 1.0, BLOCKS[name].size) * np.sign(rng.uniform(-1, 1, BLOCKS[name].size))
    engine = Engine(variant, Weights(variant, w, {}, layout=layout), hash_mb=2)
    board = new_board(variant)
    leaves = 0
    for _ in range(60):
        if board.is_game_over():
            break
        r = engine.search(board, depth=2)
        move = chess.Move.from_uci(r.move)
        assert move in board.legal_moves, (board.fen(), r.move)
        if not r.leaf_terminal and r.leaf_position is not None:
            assert r.leaf_features[span].tolist() == oracle(r.leaf_position.to_board()).tolist()
            assert r.leaf_score == pytest.approx(float(w @ r.leaf_features), abs=1e-9)
            leaves += 1
        board.push(move)
    assert leaves >= 5


@pytest.mark.parametrize("variant", list(GOALS))
def test_a_tiny_learning_job_writes_the_goal_block(variant, tmp_path, capsys):
    name = GOALS[variant][0]
    out = tmp_path / "job"
    code = main(["learn", "--no-progress", "--no-plot", "--variant", variant, "--features",
                 "psq", "--runs", "1", "--games", "2", "--depth", "1", "--seed", "1",
                 "--workers", "1", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "weights.json").read_text())
    assert data["layout"] == {"name": "psq", "version": LAYOUT_VERSION,
                              "blocks": feature_layout(variant, "psq").block_names}
    assert list(data[name]) == list(BLOCKS[name].keys)
    w = load_weights(out, variant)
    assert w.layout == feature_layout(variant, "psq")
    assert w.w[_block_span(variant)].tolist() == list(data[name].values())
    if variant != "3check":     # a check is not sure to happen in two depth-1 games
        assert any(data[name].values()), data[name]
    # The figures' reader sees the goal block beside the tables.
    import plots
    run = plots.load_run(out)
    assert run.features == "psq" and run.blocks == [name]
    assert f"piece-square tables + {name}" in run.title()


def test_importing_the_layout_stays_light_and_either_module_can_come_first():
    code = ("import sys, search.layout as l; "
            "assert {'checks', 'hill', 'race'} <= set(l.BLOCKS); "
            "assert not {'numba', 'chess'} & set(sys.modules), sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    code = ("import search.kernels.dispatch; "
            "import search.evaluation.registry as r; assert 'race' in r.BLOCKS")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_feature_sets_are_named_as_before():
    assert list(FEATURE_SETS) == ["material", "psq"]
    assert feature_layout("chess", "psq").size == BASE_SIZE
