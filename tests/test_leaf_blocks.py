"""Leaf blocks in the search and in learning, shown with the ``mobility`` block.

A leaf block (search.layout.Block, evaluation "leaf") is computed from the whole
position wherever the search evaluates a node, and added to the incremental classic
blocks. ``mobility``: per piece type, the squares its pieces attack outside their own
side's pieces, White's minus Black's. Oracle: python-chess (``BaseBoard.attacks``, legal
moves), never the compiled code.
"""

from __future__ import annotations

import csv
import json
import subprocess

import chess
import numpy as np
import pytest

from search import Engine
from search.evaluate import evaluate_layout, feature_vector
from search.evaluation.blocks.mobility import BLOCK as MOBILITY_BLOCK
from search.layout import (
    BASE_SIZE,
    BLOCKS,
    HAND,
    Weights,
    expand_features,
    feature_layout,
    has_pockets,
    load_weights,
)
from tdleaf.cli import main
from tdleaf.learn.summary import summary_lines
from tests.helpers_learn import checkout_env, kill_after_4_games, learn_command
from tests.helpers_search import new_board, oracle_eval, random_positions, random_weight_vector
from tests.test_learn import JOB, JOB_GAMES, _assert_same_job
from variants import VARIANTS, Position

from helpers_tiers import report_variants_in_fast_tier

MOB = slice(BASE_SIZE, BASE_SIZE + 6)


def mobility_oracle(board: chess.BaseBoard) -> np.ndarray:
    """The mobility block from a python-chess board."""
    out = np.zeros(6)
    for sq, piece in board.piece_map().items():
        n = len(board.attacks(sq) & ~chess.SquareSet(board.occupied_co[piece.color]))
        out[piece.piece_type - 1] += n if piece.color == chess.WHITE else -n
    return out


def _weights(variant: str, rng: np.random.Generator, mobility: np.ndarray) -> Weights:
    """Random material and tables (and hand where there are pockets) + mobility weights."""
    layout = feature_layout(variant, "psq+mobility")
    w = np.zeros(layout.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[HAND + 5] = 0.0
    if not has_pockets(variant):
        w[HAND:HAND + 6] = 0.0
    w[layout.span("mobility")] = mobility      # after the variant's goal block, if any
    return Weights(variant, w, {}, layout=layout)


def test_the_block_is_registered_with_its_kernel():
    assert BLOCKS["mobility"] is MOBILITY_BLOCK and MOBILITY_BLOCK.code > 0
    layout = feature_layout("atomic", "psq+mobility")
    assert layout.names[MOB] == [f"mobility.{p}" for p in "PNBRQK"]
    assert layout.table.tolist() == [[MOBILITY_BLOCK.code, BASE_SIZE, 6, 2]]


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_compiled_features_equal_python_chess(variant):
    """(a) The kernel equals the block's reference and a python-chess oracle on seeded
    random positions, and the evaluation is w . x with the block on."""
    layout = feature_layout(variant, "psq+mobility")
    rng = np.random.default_rng(5)
    w = _weights(variant, rng, rng.uniform(-0.3, 0.3, 6)).w
    mob = layout.span("mobility")
    seen = np.zeros(6)
    for fen in random_positions(variant, "mobility", 12, lo=2, hi=80):
        board = new_board(variant, fen)
        pos = Position.from_fen(fen, variant)
        x = feature_vector(pos.bb, pos.st, layout)
        oracle = mobility_oracle(board)
        assert x[mob].tolist() == oracle.tolist(), fen
        assert MOBILITY_BLOCK.reference(pos.bb, pos.st).tolist() == oracle.tolist(), fen
        assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(
            float(w @ x), abs=1e-9)
        assert evaluate_layout(pos.bb, pos.st, w, layout.table) == pytest.approx(
            oracle_eval(board, w) + float(w[mob] @ oracle), abs=1e-9)
        seen += oracle != 0
    assert (seen[1:] > 0).all()      # every piece type's count was not zero somewhere


@pytest.mark.parametrize("mode", ["selective", pytest.param("plain", marks=pytest.mark.slow)])
def test_zero_block_weights_search_as_without_the_block(mode):
    """(b) With the block held and its weights zero, the search plays exactly as without
    it: the same move, score, PV and nodes."""
    rng = np.random.default_rng(11)
    for variant in VARIANTS:
        with_block = _weights(variant, rng, np.zeros(6))
        classic = with_block.in_layout(feature_layout(variant, "psq"))
        a = Engine(variant, with_block, hash_mb=2, search=mode)
        b = Engine(variant, classic, hash_mb=2, search=mode)
        assert a.table.shape[0] == b.table.shape[0] + 1    # b: the variant's goal block only
        for fen in random_positions(variant, "zero-block", 3):
            a.new_game()
            b.new_game()
            ra, rb = a.search(fen, depth=3), b.search(fen, depth=3)
            assert (ra.move, ra.score, ra.nodes, ra.pv) == (rb.move, rb.score, rb.nodes, rb.pv)
            assert ra.leaf_score == rb.leaf_score
            assert ra.leaf_features[:rb.leaf_features.size].tolist() == rb.leaf_features.tolist()


def _ref_eval(board: chess.Board, w: np.ndarray) -> float:
    """White's view, from python-chess: the classic oracle plus the mobility oracle."""
    return oracle_eval(board, w) + float(w[MOB] @ mobility_oracle(board))


def _ref_negamax(board: chess.Board, depth: int, w: np.ndarray) -> float:
    """Plain minimax over python-chess's legal moves (positions where no game ends)."""
    if depth == 0:
        e = _ref_eval(board, w)
        return e if board.turn == chess.WHITE else -e
    best = -np.inf
    for m in board.legal_moves:
        board.push(m)
        best = max(best, -_ref_negamax(board, depth - 1, w))
        board.pop()
    return best


def _quiet_tree(board: chess.Board, depth: int) -> bool:
    """No game ends within ``depth`` plies (and no draw rule can apply)."""
    if board.is_game_over() or len(board.piece_map()) <= 8 or board.halfmove_clock > 90:
        return False
    if depth == 0:
        return True
    for m in board.legal_moves:
        board.push(m)
        ok = _quiet_tree(board, depth - 1)
        board.pop()
        if not ok:
            return False
    return True


@pytest.mark.parametrize("variant", ["chess", "crazyhouse", "suicide", "atomic"])
def test_search_score_with_the_block_equals_a_python_chess_minimax(variant):
    """(c) With non-zero block weights, the full-width search without quiescence
    (``qlimit=0``) at depths 1 and 2 returns python-chess's minimax of the evaluation with
    the block; without the block the minimax differs (the test sees the block)."""
    rng = np.random.default_rng(3)
    weights = _weights(variant, rng, np.array([0.05, 0.11, -0.07, 0.09, 0.04, -0.13]))
    engine = Engine(variant, weights, hash_mb=1, search="plain", qlimit=0)
    without = weights.w.copy()
    without[MOB] = 0.0
    checked = differs = 0
    for fen in random_positions(variant, "leaf-minimax", 12, lo=6, hi=30):
        board = new_board(variant, fen)
        if not _quiet_tree(board, 2):
            continue
        for depth in (1, 2):
            engine.new_game()
            r = engine.search(fen, depth=depth)
            ref = _ref_negamax(board, depth, weights.w)
            assert r.score == pytest.approx(ref, abs=1e-9), (fen, depth)
            differs += abs(_ref_negamax(board, depth, without) - ref) > 1e-6
        # The PV's leaf: its features and score (what TDLeaf learns from) include the block.
        leaf = r.leaf_position
        assert leaf is not None and not r.leaf_terminal
        assert r.leaf_features[MOB].tolist() == mobility_oracle(leaf.to_board()).tolist()
        assert r.leaf_score == pytest.approx(float(weights.w @ r.leaf_features), abs=1e-9)
        assert r.leaf_score == pytest.approx(_ref_eval(leaf.to_board(), weights.w), abs=1e-9)
        checked += 1
        if checked == 3:
            break
    assert checked == 3 and differs >= 4


def test_a_block_without_a_kernel_is_refused_by_the_engine(scratch_blocks):
    from search.layout import Block, register_block
    register_block(Block("slow", ("a",), reference=lambda bb, st: np.zeros(1)))
    layout = feature_layout("chess", "psq+slow")
    with pytest.raises(ValueError, match="slow.*no compiled kernel"):
        Engine("chess", Weights("chess", np.zeros(layout.size), {}, layout=layout))


# -- learning ------------------------------------------------------------------------------

def test_the_gradient_with_the_block_matches_finite_differences_of_the_compiled_evaluation():
    """TDLeaf's gradient ``omega P (1 - P) x`` of the squashed evaluation, with the block
    on, equals finite differences of the compiled evaluation in every kind of weight."""
    from tdleaf.learn.td import Trajectory, gradients, squash
    variant, omega, h = "crazyhouse", 0.5, 1e-6
    rng = np.random.default_rng(8)
    weights = _weights(variant, rng, rng.uniform(-0.2, 0.2, 6))
    layout, w = weights.layout, weights.w
    positions = [Position.from_fen(f, variant) for f in random_positions(variant, "grad", 4)]
    X = np.array([feature_vector(p.bb, p.st, layout) for p in positions])
    traj = Trajectory(features=X, scores=X @ w, terminal=np.zeros(len(X), dtype=bool),
                      terminal_values=np.zeros(len(X)), result=0.5)
    g = gradients(traj, omega)
    checked = 0
    for t, pos in enumerate(positions):
        for i in [*range(BASE_SIZE, BASE_SIZE + 6), 1, HAND + 2, int(np.flatnonzero(X[t, 12:])[0]) + 12]:
            up, down = w.copy(), w.copy()
            up[i] += h
            down[i] -= h
            fd = (squash(evaluate_layout(pos.bb, pos.st, up, layout.table), omega)
                  - squash(evaluate_layout(pos.bb, pos.st, down, layout.table), omega)) / (2 * h)
            assert g[t, i] == pytest.approx(float(fd), rel=1e-5, abs=1e-9), (t, layout.names[i])
            checked += X[t, i] != 0
    assert checked >= 3 * len(positions)



def test_learn_help_lists_the_blocks_and_unknown_ones_are_refused(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    out = capsys.readouterr().out
    assert "psq+mobility" in " ".join(out.split()) and "mobility (6 weights" in " ".join(out.split())
    code = main(["learn", "--no-progress", "--no-plot", "--variant", "chess", "--features",
                 "psq+nosuch", "--out", str(tmp_path / "bad")])
    err = capsys.readouterr().err
    assert code == 2 and "unknown feature block 'nosuch'" in err and "mobility" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "bad" / "config.json").exists()


@pytest.mark.slow
def test_a_short_job_learns_the_block_and_its_weights_load_back(tmp_path, capsys):
    """(d) Two games with psq+mobility: weights.json names the block, its weights moved
    (their gradient is the leaf's feature values), the file loads and plays, and the
    job's figures are drawn."""
    out = tmp_path / "job"
    code = main(["learn", "--no-progress", "--variant", "atomic", "--features",
                 "psq+mobility", "--runs", "1", "--games", "2", "--depth", "1", "--seed", "1",
                 "--workers", "1", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "weights.json").read_text())
    assert data["layout"]["blocks"][-1] == "mobility" and set(data["mobility"]) == set("PNBRQK")
    assert any(v != 0.0 for v in data["mobility"].values())
    # The tables are learnt as with psq alone: their visit-weighted averages are summarised.
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["psq_average"]) == set("PNBRQK")
    # The block's entries in the summary: mean weights and visits (positions of the games
    # where the feature was not zero: every position but a lone-king one moves something).
    assert summary["blocks"]["mobility"] == data["mobility"]
    visits = summary["block_visits"]["mobility"]
    with open(out / "run-00" / "history.csv") as fh:
        positions = sum(int(row["plies"]) + 1 for row in csv.DictReader(fh))
    ck = json.loads((out / "run-00" / "checkpoint.json").read_text())
    assert ck["block_visits"] == [visits[p] for p in "PNBRQK"]
    assert all(0 <= v <= positions for v in visits.values()) and sum(visits.values()) > 0
    # The terminal names the block and how many of its weights were rarely non-zero.
    rare = sum(1 for v in visits.values() if v < 100)
    expected = (f"leaf block mobility: 6 weights (summary.json: blocks), {rare} of them "
                "non-zero in fewer than 100 positions (they learn little)")
    assert [line for line in summary_lines(summary) if "leaf block" in line] == [expected]
    w = load_weights(out, "atomic")
    assert w.layout == feature_layout("atomic", "psq+mobility")
    assert [w.w[BASE_SIZE + i] for i in range(6)] == [data["mobility"][p] for p in "PNBRQK"]
    r = Engine("atomic", w, hash_mb=1).search(None, depth=2)
    assert r.move is not None and r.leaf_features.size == w.layout.size
    # The figures of the job were drawn, the block's bars with them.
    import plots
    data = plots.load_run(out)
    assert data.features == "psq" and data.blocks == ["mobility"]
    assert "material + piece-square tables + mobility" in data.title()
    assert {"curves.png", "heatmaps.png", "report.md", "block-mobility.png"} <= \
        {p.name for p in (out / "figures").iterdir()}
    assert main(["plot", str(out), "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "heatmap-P.png").exists()


def test_learning_all_blocks_saves_them_spelt_out(tmp_path):
    out = tmp_path / "all"
    assert main(["learn", "--no-progress", "--no-plot", "--variant", "atomic", "--features",
                 "all", "--runs", "1", "--games", "1", "--depth", "1", "--out", str(out)]) == 0
    cfg = json.loads((out / "config.json").read_text())["learn"]
    spelt = expand_features("all", "atomic")
    assert cfg["features"] == spelt and "all" not in spelt
    assert json.loads((out / "weights.json").read_text())["layout"]["blocks"] == \
        feature_layout("atomic", spelt).block_names


def test_block_visits_count_the_positions_where_each_feature_is_not_zero():
    """A self-play game's ``block_visits``: per leaf-block entry, the positions of the
    game (the last included) where its feature is not zero, recounted by replaying the
    moves."""
    from tdleaf.learn.selfplay import play_game
    weights = _weights("crazyhouse", np.random.default_rng(2), np.full(6, 0.05))
    rec = play_game(Engine("crazyhouse", weights, hash_mb=1), "crazyhouse", 1, seed=3,
                    max_plies=40)
    layout = weights.layout
    pos = Position.from_fen(None, "crazyhouse")
    expected = np.zeros(layout.size - layout.leaf_start, dtype=np.int64)
    for mv in [*rec.moves, None]:
        expected += feature_vector(pos.bb, pos.st, layout)[layout.leaf_start:] != 0
        if mv is not None:
            pos.push_uci(mv)
    assert rec.block_visits is not None and rec.block_visits.tolist() == expected.tolist()
    assert expected.sum() > 0


@pytest.mark.slow
def test_resume_after_kill_with_the_block_equals_an_uninterrupted_run(tmp_path):
    """(e) kill -9 and --resume give the weights of an uninterrupted run (test_learn's
    job with psq+mobility)."""
    job = [*JOB, "--features", "psq+mobility", "--runs", "1", "--workers", "1"]
    reference = tmp_path / "reference"
    assert main(["learn", "--no-progress", "--no-plot", *job, "--out", str(reference)]) == 0
    ck_ref = json.loads((reference / "run-00" / "checkpoint.json").read_text())
    assert len(ck_ref["w"]) == BASE_SIZE + 6 and any(ck_ref["w"][BASE_SIZE:])
    out = tmp_path / "killed"
    ck_path = kill_after_4_games(job, out)
    assert 4 <= json.loads(ck_path.read_text())["games"] < JOB_GAMES
    proc2 = subprocess.run(learn_command("--resume", "--out", str(out)), env=checkout_env(),
                           capture_output=True, text=True, timeout=300, check=False)
    assert proc2.returncode == 0, proc2.stderr
    _assert_same_job(reference, out)
    assert json.loads((out / "weights.json").read_text()) == \
        json.loads((reference / "weights.json").read_text())


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_a_block_computes_the_same_features_whatever_blocks_share_its_attack_maps(variant):
    """The attack maps are computed once per node for every block of the layout
    (search.kernels.attacks), over the kings' zones or the whole board depending on
    the blocks: each block's features with all the variant's blocks equal its features
    alone, and the evaluation is still w . x."""
    from search.layout import extra_blocks

    names = extra_blocks(variant)
    everything = feature_layout(variant, "+".join(["psq", *names]))
    rng = np.random.default_rng(43)
    w = rng.uniform(-0.5, 0.5, everything.size)
    for fen in random_positions(variant, "shared-maps", 12, lo=2, hi=100):
        pos = Position.from_fen(fen, variant)
        x = feature_vector(pos.bb, pos.st, everything)
        for name in names:
            alone = feature_layout(variant, f"psq+{name}")
            got = x[everything.span(name)].tolist()
            assert got == feature_vector(pos.bb, pos.st, alone)[alone.span(name)].tolist(), \
                (name, fen)
        assert evaluate_layout(pos.bb, pos.st, w, everything.table) == pytest.approx(
            float(w @ x), abs=1e-9), fen



@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_every_registered_kernel_equals_its_reference(variant):
    """Walking the registry: each compiled leaf block that fits the variant computes, on
    seeded random positions, what its description's reference says (a block added to
    the registry is held to its reference here without a test of its own)."""
    from search.evaluation.registry import leaf_blocks

    blocks = [b for b in leaf_blocks() if b.code and b.misfit(variant) is None]
    assert blocks and all(b.reference is not None for b in blocks)
    held = feature_layout(variant, "psq").block_names
    layout = feature_layout(variant, "+".join(["psq", *(b.name for b in blocks
                                                        if b.name not in held)]))
    nonzero = {b.name: 0 for b in blocks}
    for fen in random_positions(variant, "registry", 4, lo=4, hi=90):
        pos = Position.from_fen(fen, variant)
        x = feature_vector(pos.bb, pos.st, layout)
        for b in blocks:
            assert b.reference is not None
            want = b.reference(pos.bb, pos.st)
            assert x[layout.span(b.name)].tolist() == want.tolist(), (b.name, fen)
            nonzero[b.name] += bool(want.any())
    assert any(nonzero.values()), nonzero
