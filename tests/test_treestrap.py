"""RootStrap and TreeStrap (tdleaf/learn/bootstrap.py) and the node collection in the
search they learn from (search.alphabeta.negamax._collect, search.alphabeta.collect.Collected).

- On a tiny tree (K+P vs K, depth 2, the plain search; every leaf a stand-pat), the
  collected nodes equal a slow python-chess minimax: which nodes count, their exact
  values and bounds, their features; the one-sided losses and the update equal a slow
  per-node computation.
- Collecting never changes the search (tests/test_search.py pins the search without it).
- The reservoir sample is a subset of the full collection and deterministic.
- `tdleaf learn --method treestrap-ab`: reproducible on one worker, kill -9 + --resume
  gives the same weights, and a short run from random weights learns chess's material
  order.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import chess
import numpy as np
import pytest

from search import Engine
from search.alphabeta.collect import EXACT, LOWER, UPPER, Collected
from search.alphabeta.negamax import MATE, MATE_BOUND
from search.evaluate import evaluate_layout, feature_vector
from search.layout import Weights, feature_layout
from tdleaf.bench.positions import positions
from tdleaf.cli import main
from tdleaf.learn.bootstrap import (
    MATE_CLIP,
    Bootstrap,
    bootstrap_change,
    change_by_kind,
    node_targets,
)
from tdleaf.learn.config import LearnConfig
from tdleaf.learn.td import TemporalCoherence
from tests.helpers_learn import checkout_env, kill_after_4_games, learn_command
from variants import Position
from variants.position import move_to_uci

# -- the tiny tree ----------------------------------------------------------------------

#: White: Kd3, Pe2; Black: Kb5. No capture, check or promotion within two plies, so every
#: leaf of a depth-2 search is its static evaluation (quiescence stands pat).
TINY = "8/8/8/1k6/8/3K4/4P3/8 w - - 0 1"


def _tiny_weights(seed: int = 4) -> Weights:
    layout = feature_layout("chess", "psq")
    rng = np.random.default_rng(seed)
    return Weights("chess", rng.normal(scale=0.3, size=layout.size), {}, layout=layout)


def _features(board: chess.Board, layout) -> np.ndarray:
    p = Position.from_fen(board.fen(), "chess")
    return feature_vector(p.bb, p.st, layout)


def _tiny_search(collect: int = 4096):
    weights = _tiny_weights()
    e = Engine("chess", weights, hash_mb=1, search="plain", collect=collect)
    r = e.search(TINY, depth=2)
    n = len(list(chess.Board(TINY).legal_moves))
    order = [move_to_uci(int(m)) for m in e.moves[0, :n]]   # the root's searched order
    return weights, r, order


def _by_features(c: Collected, size: int) -> list[tuple[int, bytes, int, float]]:
    """(ply, features, kind, value) of every collected node."""
    X = c.dense(size)
    return [(int(c.ply[i]), X[i].tobytes(), int(c.kind[i]), float(c.value[i]))
            for i in range(len(c))]


def test_tiny_tree_collects_what_a_slow_minimax_establishes():
    weights, r, order = _tiny_search()
    layout = weights.layout
    w = weights.w
    board = chess.Board(TINY)
    assert sorted(order) == sorted(m.uci() for m in board.legal_moves)

    # The reference: exact depth-2 minimax values (White's view) from python-chess.
    child_value, child_x, leaf_values = {}, {}, {}
    for uci in order:
        child = board.copy()
        child.push_uci(uci)
        assert not child.is_check()
        leaves = []
        for reply in child.legal_moves:
            leaf = child.copy()
            leaf.push(reply)
            assert not leaf.is_check() and not any(leaf.generate_legal_captures())
            leaves.append(float(w @ _features(leaf, layout)))
        child_value[uci] = min(leaves)
        leaf_values[uci] = leaves
        child_x[uci] = _features(child, layout)
    root_value = max(child_value.values())

    # What the PVS root loop must record, child by child in its searched order.
    expected: list[tuple[int, bytes, int, float | None]] = []
    alpha = -math.inf
    for i, uci in enumerate(order):
        key = child_x[uci].tobytes()
        v = child_value[uci]
        if i == 0:                                   # full window: exact
            expected.append((1, key, EXACT, v))
            alpha = v
        elif v <= alpha:                             # Black fails high on the null window
            expected.append((1, key, UPPER, None))   # bound: the first reply <= alpha
        else:                                        # Black fails low, then the re-search
            expected += [(1, key, LOWER, v), (1, key, EXACT, v)]
            alpha = v
    expected.append((0, _features(board, layout).tobytes(), EXACT, root_value))

    c = r.collected
    assert c is not None and c.overflow == 0
    got = _by_features(c, layout.size)
    assert c.seen == len(got) - 1                     # nothing sampled away
    assert sorted((p, k, kind) for p, k, kind, _ in got) == \
        sorted((p, k, kind) for p, k, kind, _ in expected)
    assert any(kind == UPPER for _, _, kind, _ in expected)   # the tree exercises all kinds
    assert any(kind == LOWER for _, _, kind, _ in expected)
    values: dict[tuple[int, bytes, int], list[float]] = {}
    for p, k, kind, v in got:
        values.setdefault((p, k, kind), []).append(v)
    for p, k, kind, v in expected:
        found = values[(p, k, kind)]
        if v is not None:
            assert found == [pytest.approx(v, abs=1e-12)] * len(found)
            continue
        uci = next(u for u in order if child_x[u].tobytes() == k)
        (b,) = found            # a fail-soft bound: the value of one reply, >= the minimax
        assert child_value[uci] - 1e-12 <= b <= root_value + 1e-12
        assert min(abs(b - leaf) for leaf in leaf_values[uci]) < 1e-12
    # The root is the last row, and its value is the search's score.
    assert c.ply[-1] == 0 and c.kind[-1] == EXACT and c.value[-1] == pytest.approx(r.score)
    assert set(c.depth[c.ply == 1]) == {1} and c.depth[-1] == 2


def _slow_change(c: Collected, w: np.ndarray, method: str, omega: float, clip: float,
                 size: int) -> tuple[np.ndarray, float, int]:
    """The update written out node by node from the definitions."""
    X = c.dense(size)
    change, losses = np.zeros(size), []
    for i in range(len(c)):
        kind, v = int(c.kind[i]), max(-clip, min(clip, float(c.value[i])))
        if method == "rootstrap" and c.ply[i] != 0:
            continue
        if method == "treestrap" and kind != EXACT:
            continue
        h = float(w @ X[i])
        p = 1.0 / (1.0 + math.exp(-omega * h))
        t = 1.0 / (1.0 + math.exp(-omega * v))
        if kind == EXACT:
            d = t - p
        elif kind == LOWER:            # pulls up only below the bound
            d = t - p if h < v else 0.0
        else:                          # UPPER: pulls down only above it
            d = t - p if h > v else 0.0
        losses.append(0.5 * d * d)
        change += omega * p * (1.0 - p) * d * X[i]
    n = len(losses)
    return change / n, float(np.mean(losses)), n


@pytest.mark.parametrize("method", ["treestrap-ab", "treestrap", "rootstrap"])
def test_tiny_tree_update_equals_a_slow_computation(method):
    weights, r, _ = _tiny_search()
    c = r.collected
    w, size, omega = weights.w, weights.layout.size, 0.5
    change, loss, n = bootstrap_change(c, w, method, omega)
    ref, ref_loss, ref_n = _slow_change(c, w, method, omega, MATE_CLIP, size)
    assert n == ref_n > 0
    np.testing.assert_allclose(change, ref, rtol=1e-10, atol=1e-15)
    assert loss == pytest.approx(ref_loss, rel=1e-10)
    assert np.abs(change).max() > 1e-6
    # One learner step: alpha times the temporal-coherence rates (all 1 at first, then
    # from the history), on the learned weights only.
    mask = np.zeros(size, bool)
    mask[:100] = True
    tc = TemporalCoherence(size)
    tc.record(np.where(np.arange(size) % 2 == 0, 0.5, -0.5))
    tc.record(np.full(size, 0.25))
    rates = tc.rates()
    w1 = w.copy()
    step = Bootstrap(method, w1, tc, mask, alpha=2.0, omega=omega).update(c)
    np.testing.assert_allclose(step, np.where(mask, 2.0 * rates * ref, 0.0), rtol=1e-10,
                               atol=1e-15)
    np.testing.assert_array_equal(w1, w + step)
    assert np.all(w1[~mask] == w[~mask])


#: Captures on both sides, small quiescence trees (13,343 nodes below depth 2).
QFEN = "4k3/2p5/3p4/1n2p3/3P4/2N2B2/4P3/4K3 w - - 0 1"


def _slow_quiescence(board: chess.Board, w: np.ndarray, layout, alpha: float, beta: float,
                     qply: int = 0) -> float:
    """The plain search's quiescence in python-chess (side to move's view): in check every
    evasion, else the stand-pat and the captures and promotions; no pruning; 16 plies."""
    h = float(w @ _features(board, layout))
    stand = h if board.turn == chess.WHITE else -h
    if qply >= 16:
        return stand
    if board.is_check():
        moves, best = list(board.legal_moves), -math.inf
        if not moves:
            return -MATE        # mated (the search counts plies; no test row is a mate)
    else:
        if stand >= beta:
            return stand
        best, alpha = stand, max(alpha, stand)
        moves = [m for m in board.legal_moves if board.is_capture(m) or m.promotion]
    for m in moves:
        board.push(m)
        score = -_slow_quiescence(board, w, layout, -beta, -alpha, qply + 1)
        board.pop()
        if score > best:
            best = score
            alpha = max(alpha, score)
            if score >= beta:
                break
    return best


def _q_moves(board: chess.Board) -> list[chess.Move]:
    """The moves the plain search's quiescence tries (as _slow_quiescence)."""
    if board.is_check():
        return list(board.legal_moves)
    return [m for m in board.legal_moves if board.is_capture(m) or m.promotion]


def _quiescence_values(board: chess.Board, w: np.ndarray, layout, out: dict, qply: int = 0,
                       ) -> None:
    """Every node of the quiescence tree below ``board`` (no cutoffs), by its features:
    its full-window quiescence value, White's view (positions with the same features
    pool their values)."""
    v = _slow_quiescence(board, w, layout, -math.inf, math.inf, qply)
    out.setdefault(_features(board, layout).tobytes(), set()).add(
        v if board.turn == chess.WHITE else -v)
    if qply < 16:
        for m in _q_moves(board):
            board.push(m)
            _quiescence_values(board, w, layout, out, qply + 1)
            board.pop()


@pytest.mark.slow
def test_quiescence_nodes_are_collected_on_request():
    """With collect_quiescence, the quiescence nodes whose moves changed their value are
    recorded too (depth <= 0), each value consistent with python-chess's own quiescence
    of that position at a full window: equal for an exact value, beyond it for a bound.
    The search and its interior nodes are those without the option."""
    weights = _tiny_weights(7)
    layout, w = weights.layout, weights.w
    runs = {}
    for q in (False, True):
        e = Engine("chess", weights, hash_mb=1, search="plain", collect=100_000,
                   collect_quiescence=q)
        runs[q] = e.search(QFEN, depth=2)
    plain, with_q = runs[False], runs[True]
    assert (plain.move, plain.score, plain.nodes) == (with_q.move, with_q.score, with_q.nodes)
    assert plain.collected is not None and with_q.collected is not None
    c = with_q.collected
    interior = c.depth > 0
    assert sorted(_by_features(plain.collected, layout.size)) == sorted(
        r for r, keep in zip(_by_features(c, layout.size), interior) if keep)
    assert (plain.collected.depth > 0).all()
    # Every quiescence node of the depth-2 tree, from python-chess.
    truth: dict[bytes, set[float]] = {}
    board = chess.Board(QFEN)
    for m in list(board.legal_moves):
        board.push(m)
        for reply in list(board.legal_moves):
            board.push(reply)
            _quiescence_values(board, w, layout, truth)
            board.pop()
        board.pop()
    X = c.dense(layout.size)
    kinds = []
    for i in np.flatnonzero(~interior):
        values = truth[X[i].tobytes()]              # a node of the tree, by its features
        v, kind = float(c.value[i]), int(c.kind[i])
        kinds.append(kind)
        assert v != pytest.approx(float(w @ X[i]), abs=1e-12)        # moves changed it
        assert all(abs(t) < MATE_BOUND for t in values)
        if kind == EXACT:
            assert any(t == pytest.approx(v, abs=1e-9) for t in values)
        elif kind == LOWER:
            assert any(t >= v - 1e-9 for t in values)
        else:
            assert any(t <= v + 1e-9 for t in values)
    assert len(kinds) >= 5


def test_the_change_split_by_kind_of_target_adds_up():
    """change_by_kind: per kind of target, its nodes' share of N * change; the exact
    share is TreeStrap(minimax)'s whole change, and the bound shares are zero there."""
    weights, r, _ = _tiny_search()
    c, w, omega = r.collected, weights.w, 0.5
    change, _, n = bootstrap_change(c, w, "treestrap-ab", omega)
    parts = change_by_kind(c, w, "treestrap-ab", omega)
    np.testing.assert_allclose(sum(parts.values()), n * change, rtol=1e-10, atol=1e-15)
    assert np.abs(parts["lower"]).max() + np.abs(parts["upper"]).max() > 0   # bounds count
    minimax, _, n_exact = bootstrap_change(c, w, "treestrap", omega)
    exact = change_by_kind(c, w, "treestrap", omega)
    np.testing.assert_allclose(exact["exact"], n_exact * minimax, rtol=1e-10, atol=1e-15)
    assert not exact["lower"].any() and not exact["upper"].any()


def test_one_sided_losses_and_the_mate_clip():
    """Bounds pull one way only, satisfied bounds give nothing; mate scores are clipped
    to +-MATE_CLIP pawns before they become targets (and a clipped bound stays one)."""
    def one(value: float, kind: int) -> Collected:
        return Collected(np.array([[0]]), np.array([[1.0]]), np.array([value]),
                         np.array([kind], np.int8), np.array([1]), np.array([2]))

    w = np.array([1.0])                     # H = 1 pawn
    assert bootstrap_change(one(3.0, LOWER), w, "treestrap-ab", 0.5)[0][0] > 0
    assert bootstrap_change(one(0.5, LOWER), w, "treestrap-ab", 0.5)[2] == 1
    assert bootstrap_change(one(0.5, LOWER), w, "treestrap-ab", 0.5)[0][0] == 0.0
    assert bootstrap_change(one(0.5, UPPER), w, "treestrap-ab", 0.5)[0][0] < 0
    assert bootstrap_change(one(3.0, UPPER), w, "treestrap-ab", 0.5)[0][0] == 0.0
    assert bootstrap_change(one(3.0, LOWER), w, "treestrap", 0.5)[2] == 0   # no exact node
    mate = 100000.0 - 3
    for kind, lo, hi in ((EXACT, MATE_CLIP, MATE_CLIP), (LOWER, MATE_CLIP, math.inf),
                         (UPPER, -math.inf, MATE_CLIP)):
        _, tlo, thi = node_targets(one(mate, kind), "treestrap-ab")
        assert (tlo[0], thi[0]) == (lo, hi)
    _, tlo, thi = node_targets(one(-mate, LOWER), "treestrap-ab", clip=5.0)
    assert (tlo[0], thi[0]) == (-5.0, math.inf)


def test_a_mate_in_one_is_collected_as_a_mate_and_learnt_clipped():
    e = Engine("chess", "traditional", hash_mb=1, search="plain", collect=64)
    r = e.search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth=2)
    c = r.collected
    assert r.mate == 1 and c.ply[-1] == 0 and c.kind[-1] == EXACT
    assert c.value[-1] == pytest.approx(100000.0 - 1)
    keep, lo, hi = node_targets(c, "rootstrap")
    assert keep.sum() == 1 and lo[0] == hi[0] == MATE_CLIP


# -- collecting never changes the search ---------------------------------------------------

#: A middlegame position of each of four variants (the search benchmark's).
POSITIONS = [(v, next(p.fen for p in positions(v) if p.kind == "middlegame"))
             for v in ("chess", "atomic", "crazyhouse", "suicide")]


@pytest.mark.parametrize("variant,fen", POSITIONS, ids=[v for v, _ in POSITIONS])
@pytest.mark.parametrize("mode,depth", [("selective", 5), ("plain", 3)])
def test_collecting_does_not_change_the_search(variant, fen, mode, depth):
    results = []
    for collect in (0, 4096, 16):
        e = Engine(variant, "traditional", hash_mb=4, search=mode, collect=collect,
                   random_ties=True, noise=0.01, seed=11)
        r = e.search(fen, depth=depth)
        results.append((r.move, r.score, r.nodes, r.pv))
        assert (r.collected is None) == (collect == 0)
        if collect:
            c = r.collected
            assert len(c) > 1 and c.overflow == 0
            assert c.ply[-1] == 0 and c.kind[-1] == EXACT
            white = Position.from_fen(fen, variant).turn
            assert c.value[-1] == pytest.approx(r.score if white else -r.score)
            assert set(np.unique(c.kind)) <= {EXACT, LOWER, UPPER}
            assert np.all(c.depth >= 1)
            assert len(c) - 1 == min(collect, c.seen)
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("variant,features", [("chess", "psq+mobility"), ("horde", "psq"),
                                              ("crazyhouse", "psq"), ("kingofthehill", "psq")])
def test_collected_features_are_the_layouts(variant, features):
    """In every layout (leaf blocks, Black's own blocks, pockets) a node's collected
    features are its feature vector (the root's, checked), whose w . x is the
    evaluation the search uses."""
    layout = feature_layout(variant, features)
    rng = np.random.default_rng(3)
    weights = Weights(variant, rng.normal(scale=0.2, size=layout.size), {}, layout=layout)
    e = Engine(variant, weights, hash_mb=4, collect=4096)
    fen = next(p.fen for p in positions(variant) if p.kind == "middlegame") \
        if variant in ("chess", "crazyhouse") else None
    pos = Position.from_fen(fen, variant)
    c = e.search(pos, depth=4).collected
    assert c.overflow == 0 and len(c) > 5
    X = c.dense(layout.size)
    np.testing.assert_array_equal(X[-1], feature_vector(pos.bb, pos.st, layout))
    h = evaluate_layout(pos.bb, pos.st, weights.w, layout.table)
    assert X[-1] @ weights.w == pytest.approx(h, abs=1e-9)


def test_the_reservoir_is_a_seeded_sample_of_the_whole_collection():
    fen = POSITIONS[0][1]

    def rows(collect: int, seed: int) -> tuple[list[tuple], int]:
        e = Engine("chess", "traditional", hash_mb=4, collect=collect, seed=seed)
        c = e.search(fen, depth=6).collected
        X = c.dense(e.weights.layout.size)
        return [(int(c.ply[i]), X[i].tobytes(), int(c.kind[i]), float(c.value[i]))
                for i in range(len(c))], c.seen

    full, seen = rows(100000, 1)
    assert len(full) == seen + 1 and seen > 100
    sample, seen_a = rows(50, 1)
    again, _ = rows(50, 1)
    other, _ = rows(50, 2)
    assert seen_a == seen and len(sample) == 51 and sample == again
    assert sample != other                     # another seed, another sample
    counts: dict[tuple, int] = {}
    for row in full:
        counts[row] = counts.get(row, 0) + 1
    for row in sample:                        # every sampled node is one of the search's
        assert counts.get(row, 0) > 0
        counts[row] -= 1
    assert sample[-1] == full[-1]              # the root is always kept


# -- `tdleaf learn --method ...` ----------------------------------------------------------

JOB_GAMES = 12
JOB = ["--variant", "suicide", "--depth", "2", "--games", str(JOB_GAMES), "--seed", "3",
       "--method", "treestrap-ab", "--runs", "1", "--workers", "1"]


def _checkpoint(job: Path) -> dict:
    return json.loads((job / "run-00" / "checkpoint.json").read_text())


@pytest.fixture(scope="module")
def reference_job(tmp_path_factory):
    out = tmp_path_factory.mktemp("treestrap") / "reference"
    assert main(["learn", "--no-progress", "--no-plot", *JOB, "--out", str(out)]) == 0
    return out


@pytest.mark.slow
def test_the_method_is_saved_and_old_folders_are_tdleaf(reference_job):
    cfg = json.loads((reference_job / "config.json").read_text())["learn"]
    assert cfg["method"] == "treestrap-ab" and cfg["coherence"] is True
    old = dict(cfg)
    del old["method"]
    assert LearnConfig.from_json(old).method == "tdleaf"
    with pytest.raises(ValueError, match="--method"):
        LearnConfig("chess", method="treestrap-minimax").validate()


def test_learner_settings_from_the_command_line(tmp_path, capsys):
    """--nodes, --clip, --no-coherence and --quiescence-nodes reach config.json (and the learner: a tiny
    reservoir still learns); a resume with other settings is refused."""
    out = tmp_path / "settings"
    job = ["learn", "--no-progress", "--no-plot", "--variant", "atomic", "--depth", "1",
           "--games", "2", "--runs", "1", "--method", "treestrap-ab", "--out", str(out)]
    assert main([*job, "--nodes", "8", "--clip", "5", "--no-coherence",
                 "--quiescence-nodes"]) == 0
    cfg = json.loads((out / "config.json").read_text())["learn"]
    assert (cfg["nodes"], cfg["clip"], cfg["coherence"], cfg["quiescence_nodes"]) == \
        (8, 5.0, False, True)
    assert _checkpoint(out)["w"][:6] != [1.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    capsys.readouterr()
    assert main(["learn", "--resume", "--no-progress", "--out", str(out), "--nodes", "9"]) == 2
    assert "nodes=8" in capsys.readouterr().err
    assert main([*job[:-2], "--out", str(tmp_path / "bad"), "--nodes", "0"]) == 2
    assert "nodes must be >= 1" in capsys.readouterr().err
    tdleaf = [a if a != "treestrap-ab" else "tdleaf" for a in job[:-2]]
    assert main([*tdleaf, "--out", str(tmp_path / "bad"), "--quiescence-nodes"]) == 2
    assert "--quiescence-nodes is for the bootstrapping learners" in capsys.readouterr().err
    assert not (tmp_path / "bad" / "config.json").exists()


@pytest.mark.slow
def test_same_seed_one_worker_gives_the_same_weights(reference_job, tmp_path):
    out = tmp_path / "again"
    assert main(["learn", "--no-progress", "--no-plot", *JOB, "--out", str(out)]) == 0
    a, b = _checkpoint(reference_job), _checkpoint(out)
    assert a["games"] == b["games"] == JOB_GAMES
    assert a["w"] == b["w"] and a["tc_net"] == b["tc_net"] and a["tc_total"] == b["tc_total"]
    assert (reference_job / "run-00" / "games.pgn").read_bytes() == \
        (out / "run-00" / "games.pgn").read_bytes()
    assert a["w"][:6] != [1.0] * 6                  # it learnt something


@pytest.mark.slow
def test_resume_after_kill_gives_the_weights_of_an_uninterrupted_run(reference_job, tmp_path):
    out = tmp_path / "killed"
    ck_path = kill_after_4_games(JOB, out)
    done = json.loads(ck_path.read_text())["games"]
    assert 4 <= done < JOB_GAMES
    resumed = subprocess.run(learn_command("--resume", "--out", str(out)), env=checkout_env(),
                             capture_output=True, text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{done} games already played" in resumed.stdout
    a, b = _checkpoint(reference_job), _checkpoint(out)
    assert a["games"] == b["games"] == JOB_GAMES
    assert a["w"] == b["w"] and a["tc_net"] == b["tc_net"] and a["visits"] == b["visits"]
    assert json.loads((out / "weights.json").read_text()) == \
        json.loads((reference_job / "weights.json").read_text())


@pytest.mark.slow
def test_treestrap_from_random_weights_learns_the_order_of_the_pieces(tmp_path, capsys):
    """Chess, depth 2, 50 games x 2 runs, seed 0, from weights uniform in +-0.1 (about
    20 s on two cores): queen > rook > both minor pieces > pawn > 0 (it gave, raw,
    P 0.30, N 0.33, B 0.32, R 0.54, Q 0.63 in run 0; normalised so that B = 3, the
    mean of both runs was P 2.00, N 2.60, B 3.00, R 4.36, Q 4.52)."""
    out = tmp_path / "chess"
    code = main(["learn", "--no-progress", "--no-plot", "--variant", "chess", "--depth", "2",
                 "--games", "50", "--runs", "2", "--workers", "2", "--seed", "0",
                 "--method", "treestrap-ab", "--init", "random", "--out", str(out)])
    capsys.readouterr()
    assert code == 0
    first = json.loads((out / "config.json").read_text())["learn"]
    assert first["init"] == "random"
    v = json.loads((out / "weights.json").read_text())["material"]
    assert v["Q"] > v["R"] > max(v["N"], v["B"]) and min(v["N"], v["B"]) > v["P"] > 0, v
    assert v["K"] == 0.0
