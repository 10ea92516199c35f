"""The alpha-beta engine (search.Engine): forced wins, score/PV/leaf consistency.

Oracle: python-chess 1.11.2. Every forced win below was found and is re-verified here by
brute force over python-chess boards (helpers_search.shortest_win / winning_moves), so
the expected answers are certain; the engine must find a winning move, report the exact
mate distance, and agree with itself from the loser's side and on the colour-flipped
position. On seeded random positions the PV must be legal, its leaf must be the position
the PV reaches, and the score must be that leaf's evaluation (or its terminal value).
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import numpy as np
import pytest

from search import Engine, Weights, value_set
from search.alphabeta.engine import Limits

from helpers_search import (
    MATE,
    VARIANTS,
    mate_moves,
    new_board,
    oracle_eval,
    oracle_features,
    random_positions,
    random_weight_vector,
    shortest_win,
    winning_moves,
)
from helpers_tiers import report_variants_in_fast_tier

MATE_BOUND = MATE - 1000
TOL = 1e-6

# (variant, FEN, plies to the win, every winning first move) -- hand-checked with the
# brute-force solver in helpers_search (which the tests below run again).
FORCED_WINS = [
    # chess: mate in 1
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, {"a1a8"}),
    ("chess", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1, {"a8a1"}),
    ("chess", "6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1", 1, {"h6f7"}),
    ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, {"f3f7"}),
    # chess: mate in 2 (a sacrifice; a quiet queen move) and mate in 3 (K+R v K)
    ("chess", "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 3, {"d5d8"}),
    ("chess", "kr6/p7/8/8/8/8/8/1R2Q1K1 w - - 0 1", 3, {"e1e4"}),
    ("chess", "7k/8/5K2/8/8/8/8/R7 w - - 0 1", 3, {"f6f7", "f6g6"}),
    ("chess", "8/k7/8/3K4/7R/8/8/8 w - - 0 1", 5, {"d5c6"}),
    ("chess", "8/6R1/8/8/1K6/8/k7/8 w - - 0 1", 5, {"b4c3"}),
    # crazyhouse: drop mates
    ("crazyhouse", "6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1", 1, {"N@f7"}),
    ("crazyhouse", "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1", 1,
     {"R@a8", "R@b8", "R@c8", "R@d8", "R@e8"}),
    ("crazyhouse", "6k1/5p1p/6p1/8/8/8/8/6K1[QB] w - - 0 1", 3, {"B@f6", "B@h6"}),
    # atomic: exploding the king
    ("atomic", "4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", 1, {"d1d7"}),
    ("atomic", "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2", 3, {"f3e5", "f3g5"}),
    ("atomic", "2KB4/8/6p1/7k/8/5Np1/8/8 w - - 0 1", 3, {"f3e5"}),
    ("atomic", "8/8/7K/N7/8/4p3/2pB4/3k4 w - - 0 1", 3, {"a5c4"}),
    # suicide / giveaway / antichess: giving everything away wins
    ("suicide", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
    ("suicide", "7R/1p6/8/5p2/8/8/5N2/8 w - - 0 1", 4, {"f2g4"}),
    ("suicide", "8/7p/8/8/6R1/4N3/5p2/8 w - - 0 1", 4, {"g4g6"}),
    ("giveaway", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
    ("giveaway", "8/p7/8/8/8/8/8/1nBK4 w - - 0 1", 4, {"c1a3"}),
    ("antichess", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
]
WIN_IDS = [f"{v}-{p}plies-{i}" for i, (v, _, p, _) in enumerate(FORCED_WINS)]


def mirror_uci(uci: str) -> str:
    """A UCI move on the colour-flipped (vertically mirrored) board."""
    m = chess.Move.from_uci(uci)
    to = chess.square_mirror(m.to_square)
    if m.drop:
        return chess.Move(to, to, drop=m.drop).uci()
    return chess.Move(chess.square_mirror(m.from_square), to, promotion=m.promotion).uci()


def play_pv(variant: str, fen: str, pv: list[str]) -> chess.Board:
    """Replay a PV on a python-chess board, asserting every move is legal."""
    board = new_board(variant, fen)
    for i, uci in enumerate(pv):
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, f"PV move {i} {uci} illegal in {board.fen()} (PV {pv})"
        board.push(move)
    return board


MODE = "plain"


@pytest.fixture(autouse=True, params=["plain", "selective"])
def mode(request):
    """Every test runs with both search modes (search.alphabeta.modes.SEARCH_MODES)."""
    global MODE
    MODE = request.param
    yield request.param
    MODE = "plain"


def full_width_only(reason: str) -> None:
    if MODE != "plain":
        pytest.skip(f"holds for the full-width search only: {reason}")


def search(variant, fen, depth, weights="traditional", nodes=None, **kw):
    kw.setdefault("search", MODE)
    return Engine(variant, weights, hash_mb=2, **kw).search(fen, depth=depth, nodes=nodes)


def expected_win_score(plies: int) -> float:
    return MATE - plies


# --------------------------------------------------------------------------------------
# Forced wins with known answers
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=WIN_IDS)
def test_known_answer_is_right(variant, fen, plies, moves):
    """The expected answers themselves, re-derived by brute force with python-chess."""
    assert shortest_win(fen, variant, plies) == plies
    assert winning_moves(fen, variant, plies) == moves


@pytest.mark.parametrize("extra", [0, 2], ids=["depth=plies", "depth=plies+2"])
@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=WIN_IDS)
def test_search_finds_forced_win(variant, fen, plies, moves, extra):
    """A full-width search as deep as the win (quiescence sees the final position) finds
    a winning move and the exact distance; the PV plays the win out. The selective
    search gets two plies more (reductions and pruning near the leaves may hide a win
    exactly at the horizon, a sacrifice for instance)."""
    r = search(variant, fen, plies + extra + (2 if MODE == "selective" else 0))
    assert r.move in moves, f"{r.move} does not win in {plies} plies (winning: {sorted(moves)}; PV {r.pv})"
    assert r.score == expected_win_score(plies), (r.score, r.pv)
    assert r.mate == mate_moves(plies)
    assert r.pv[0] == r.move and len(r.pv) == plies, r.pv
    board = play_pv(variant, fen, r.pv)
    root_turn = new_board(variant, fen).turn
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == root_turn, (r.pv, outcome)
    assert r.leaf_terminal and r.leaf_fen == board.fen()
    assert r.leaf_score == (MATE if root_turn == chess.WHITE else -MATE)


@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=WIN_IDS)
def test_loser_side_sees_mirrored_mate(variant, fen, plies, moves):
    """After the winning move the side to move is lost in plies-1: the same mate, negated."""
    board = new_board(variant, fen)
    board.push_uci(min(moves))
    r = search(variant, board.fen(), max(1, plies - 1) + (2 if MODE == "selective" else 0))
    assert r.score == -expected_win_score(plies - 1), (r.score, r.pv)
    assert r.mate == -(plies // 2)
    if plies == 1:
        assert r.move is None and r.pv == [] and r.leaf_terminal
    else:
        assert r.move in {m.uci() for m in board.legal_moves}
        assert len(r.pv) == plies - 1
        leaf = play_pv(variant, board.fen(), r.pv)
        assert leaf.outcome() is not None and leaf.outcome().winner == (not board.turn)


@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=WIN_IDS)
def test_colour_flipped_win(variant, fen, plies, moves):
    """The vertically mirrored, colour-swapped position is the same win for the other colour."""
    flipped = new_board(variant, fen).mirror()
    r = search(variant, flipped.fen(), plies + 1 + (2 if MODE == "selective" else 0))
    assert r.score == expected_win_score(plies)
    assert r.mate == mate_moves(plies)
    assert r.move in {mirror_uci(m) for m in moves}
    assert r.leaf_score == (MATE if flipped.turn == chess.WHITE else -MATE)


# --------------------------------------------------------------------------------------
# Positions without legal moves
# --------------------------------------------------------------------------------------

TERMINAL = [
    ("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", -MATE),
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0.0),
    ("crazyhouse", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3", -MATE),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", -MATE),
    ("suicide", "8/8/8/8/8/8/8/k7 w - - 0 1", MATE),
    ("suicide", "8/8/8/8/p7/P7/8/8 w - - 0 1", 0.0),
    ("suicide", "8/8/8/8/p7/P7/8/k7 w - - 0 1", MATE),        # stalemated with fewer pieces
    ("giveaway", "8/8/8/8/p7/P7/8/k7 w - - 0 1", MATE),       # stalemated: wins
    ("antichess", "8/8/8/8/8/8/8/K7 b - - 0 1", MATE),
]


@pytest.mark.parametrize("variant,fen,score", TERMINAL)
def test_terminal_root(variant, fen, score):
    board = new_board(variant, fen)
    assert not any(board.legal_moves)
    outcome = board.outcome()
    assert outcome is not None
    oracle = 0.0 if outcome.winner is None else (MATE if outcome.winner == board.turn else -MATE)
    assert oracle == score, "table disagrees with python-chess"
    r = search(variant, fen, 3)
    assert r.move is None and r.pv == []
    assert r.score == score
    assert r.mate == (None if score == 0 else 0)
    assert r.leaf_terminal and r.leaf_fen == board.fen()
    assert r.leaf_score == (score if board.turn == chess.WHITE else -score)


# --------------------------------------------------------------------------------------
# Seeded random positions: PV legal, leaf = PV end, score = leaf value
# --------------------------------------------------------------------------------------

N_RANDOM = 30
#: Quiescence can explode on random positions (hundreds of thousands of nodes at depth 1);
#: a node cap keeps the run short. A capped search reports its last complete iteration,
#: which must be just as consistent.
NODE_CAP = 100_000


def _weights(variant: str, kind: str, seed: int) -> Weights:
    if kind == "traditional":
        return value_set("traditional", variant)
    rng = np.random.default_rng(seed)
    return Weights(variant, random_weight_vector(rng), {"test": "random"})


def leaf_value(variant: str, leaf: chess.Board, plies: int, w: np.ndarray) -> tuple[bool, float]:
    """(terminal, value from White's view at ply distance ``plies``) of a PV leaf, by the
    oracle: a position without legal moves is worth its result, a position that repeats
    one earlier on the line is a draw (the search scores a repetition so), else the
    evaluation."""
    if leaf.is_repetition(2):
        return True, 0.0
    if any(leaf.legal_moves):
        return False, oracle_eval(leaf, w)
    outcome = leaf.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return True, 0.0
    return True, (MATE - plies) * (1 if outcome.winner == chess.WHITE else -1)


def check_consistent(variant: str, fen: str, r, w: np.ndarray, depth: int) -> None:
    """PV legal, leaf = where the PV ends, score = that leaf's value (see leaf_value).

    A leaf that python-chess calls insufficient material may be scored either way (as a
    draw, leaf_terminal with leaf_score 0, or by its evaluation), but score and
    leaf_score must agree."""
    root = new_board(variant, fen)
    legal = {m.uci() for m in root.legal_moves}
    assert r.move in legal, f"{r.move} illegal in {fen}"
    assert r.pv and r.pv[0] == r.move
    assert r.depth == depth or (r.mate is not None and abs(r.mate) <= r.depth) or (
        1 <= r.depth < depth and r.nodes >= NODE_CAP)
    leaf = play_pv(variant, fen, r.pv)
    assert r.leaf_fen == leaf.fen(), f"leaf_fen differs from the PV's end in {fen} (PV {r.pv})"
    assert r.leaf_position is not None and r.leaf_position.fen() == leaf.fen()
    np.testing.assert_array_equal(r.leaf_features, oracle_features(leaf))
    terminal, value = leaf_value(variant, leaf, len(r.pv), w)
    sign = 1 if root.turn == chess.WHITE else -1
    ctx = f"{variant} {fen} depth {depth}: PV {r.pv} leaf {leaf.fen()}"
    if not terminal and leaf.is_insufficient_material() and r.leaf_terminal:
        terminal, value = True, 0.0                 # scored as the draw it is
    assert r.leaf_terminal == terminal, ctx
    if terminal:
        white_view = 0.0 if value == 0 else np.sign(value) * MATE
        assert r.leaf_score == white_view, ctx
    else:
        assert r.leaf_score == pytest.approx(value, abs=TOL), ctx
    assert r.score == pytest.approx(sign * value, abs=TOL), \
        f"score {r.score} is not the PV leaf's value {sign * value}: {ctx}"
    if r.mate is not None:
        assert terminal and abs(r.score) > MATE_BOUND


@pytest.mark.parametrize("weights", ["traditional", "random"])
@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_pv_leaf_and_score_consistent(variant, weights):
    """N_RANDOM positions per variant and weight kind, depths 1-3 (1-5 for the selective
    search, whose null moves and reductions start at depth 3; a 50-move draw cannot
    occur in such shallow searches of history-free positions)."""
    fens = random_positions(variant, "pv-leaf", N_RANDOM)
    for i, fen in enumerate(fens):
        wts = _weights(variant, weights, i)
        depth = 1 + i % (5 if MODE == "selective" else 3)
        r = search(variant, fen, depth, wts, nodes=NODE_CAP)
        check_consistent(variant, fen, r, wts.w, depth)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_score_agrees_with_child_search(variant):
    """Searching the position after the best move, one ply shallower, from the other side
    gives the negated score (one ply further from a mate)."""
    full_width_only("reductions and pruning depend on the window and the move order, so "
                    "the child searched on its own is not the subtree of the parent")
    fens = random_positions(variant, "child", 15)
    checked = 0
    for i, fen in enumerate(fens):
        depth = 2 + i % 2
        r = search(variant, fen, depth, nodes=NODE_CAP)
        board = new_board(variant, fen)
        board.push_uci(r.move)
        if board.is_insufficient_material() or r.depth < depth:
            continue   # the child search's root does not apply the draw rule; capped
        child = search(variant, board.fen(), depth - 1, nodes=NODE_CAP)
        if child.depth < depth - 1:
            continue
        if abs(r.score) > MATE_BOUND:
            assert child.score == -np.sign(r.score) * (abs(r.score) + 1), (fen, r.pv, child.pv)
        else:
            assert child.score == pytest.approx(-r.score, abs=TOL), (fen, r.pv, child.pv)
        checked += 1
    assert checked >= 8, checked


@pytest.mark.parametrize("weights", ["traditional", "random"])
@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_colour_flip_gives_same_score(variant, weights):
    """The evaluation is colour-symmetric for any weights (Black's squares are mirrored),
    so the mirrored position is worth the same to its side to move: the score agrees and
    the leaf score (White's view) is negated."""
    full_width_only("move order follows the square numbering, which mirroring changes, "
                    "and reductions depend on move order")
    fens = random_positions(variant, "mirror", 15)
    checked = 0
    for i, fen in enumerate(fens):
        wts = _weights(variant, weights, 100 + i)
        depth = 1 + i % 3
        r = search(variant, fen, depth, wts, nodes=NODE_CAP)
        flipped = new_board(variant, fen).mirror()
        m = search(variant, flipped.fen(), depth, wts, nodes=NODE_CAP)
        if r.depth < depth or m.depth < depth:
            continue
        checked += 1
        assert m.score == pytest.approx(r.score, abs=TOL), (fen, r.pv, m.pv)
        assert m.leaf_score == pytest.approx(-r.leaf_score, abs=TOL), (fen, r.pv, m.pv)
    assert checked >= 8, checked


LEAF_RULES = [
    # Qxc7 stalemates Black: the PV leaf has no legal moves and is worth 0.
    ("stalemate", "chess", "k7/p1r5/P7/8/8/8/8/2Q4K w - - 0 1", 1),
    # Kxd2 leaves K+B v K: a draw by insufficient material.
    ("insufficient", "chess", "8/8/8/4k3/8/8/3n4/3BK3 w - - 0 1", 2),
    ("insufficient-deeper", "chess", "8/8/8/4k3/8/8/3n4/3BK3 w - - 0 1", 3),
]


@pytest.mark.parametrize("label,variant,fen,depth", LEAF_RULES, ids=[x[0] for x in LEAF_RULES])
def test_quiescence_leaf_rules(label, variant, fen, depth):
    """Shallow searches whose best line ends in a stalemate or a dead draw: the score
    must still be the value of the PV's leaf."""
    for weights in ("traditional", "random"):
        wts = _weights(variant, weights, 5)
        r = search(variant, fen, depth, wts)
        check_consistent(variant, fen, r, wts.w, depth)


def test_interrupted_first_iteration_is_consistent():
    """A node limit smaller than depth 1 needs (quiescence of compulsory captures in this
    antichess position takes ~470k nodes at depth 1): whatever the engine returns must
    still be a legal PV whose leaf value is the score."""
    fen = "rnbqkbn1/pppp1pp1/8/4P3/8/8/PPP1PP1R/RNBQKBN1 b - - 0 5"
    engine = Engine("antichess", "traditional", hash_mb=2)
    engine.search(None, depth=3)            # leaves scores of another position behind
    for nodes in (1024, 3000):
        r = engine.search(fen, depth=3, nodes=nodes)
        root = new_board("antichess", fen)
        assert r.move in {m.uci() for m in root.legal_moves}
        leaf = play_pv("antichess", fen, r.pv)
        _terminal, value = leaf_value("antichess", leaf, len(r.pv), engine.w)
        assert r.score == pytest.approx(-value, abs=TOL), \
            f"nodes={nodes}: score {r.score} but the PV {r.pv} leads to {-value} (depth {r.depth})"


# --------------------------------------------------------------------------------------
# Learning options, limits, inputs
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_noise_and_random_ties(variant):
    """Noise changes the score but never the rules: the PV stays legal, its leaf is where
    the PV ends, leaf_score is the noise-free evaluation; results repeat for one seed.
    Random ties (without noise) keep the score equal to the leaf's value."""
    w = value_set("traditional", variant).w
    for i, fen in enumerate(random_positions(variant, "noise", 8)):
        a = Engine(variant, "traditional", hash_mb=2, noise=0.05, seed=i).search(fen, depth=2, nodes=NODE_CAP)
        b = Engine(variant, "traditional", hash_mb=2, noise=0.05, seed=i).search(fen, depth=2, nodes=NODE_CAP)
        assert (a.move, a.score, a.pv) == (b.move, b.score, b.pv)
        leaf = play_pv(variant, fen, a.pv)
        assert a.leaf_fen == leaf.fen()
        if any(leaf.legal_moves):
            assert a.leaf_score == pytest.approx(oracle_eval(leaf, w), abs=TOL)
        t = Engine(variant, "traditional", hash_mb=2, random_ties=True, seed=i).search(
            fen, depth=2, nodes=NODE_CAP)
        check_consistent(variant, fen, t, w, 2)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_node_and_time_limits_return_legal_moves(variant):
    for i, fen in enumerate(random_positions(variant, "limits", 4)):
        legal = {m.uci() for m in new_board(variant, fen).legal_moves}
        engine = Engine(variant, hash_mb=2)
        r = engine.search(fen, nodes=500 + 1000 * i)
        assert r.move in legal and r.pv[0] == r.move
        play_pv(variant, fen, r.pv)
        r = engine.search(fen, movetime=0.02)
        assert r.move in legal
        play_pv(variant, fen, r.pv)


def test_a_node_limit_stops_where_it_says_even_below_1024():
    """A node limit is checked at every node: UCI_Elo's weakest rungs (tens or hundreds
    of nodes) search that many, not the next multiple of 1024. The first iteration
    always completes."""
    fen = random_positions("crazyhouse", "limits", 1)[0]
    engine = Engine("crazyhouse", hash_mb=2)
    one = engine.search(fen, depth=1).nodes
    for limit in (40, 200, 700, 3000):
        engine.new_game()
        r = engine.search(fen, nodes=limit)
        assert r.nodes <= max(limit, one) + 1, (limit, r.nodes)
    engine.new_game()
    assert engine.search(fen, nodes=200).depth < engine.search(fen, nodes=3000).depth


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_board_position_and_fen_inputs_agree(variant):
    """A python-chess board (history replayed) and its FEN give the same search when no
    repetition is reachable; the default depth applies when no limit is given."""
    fen = random_positions(variant, "inputs", 1)[0]
    board = new_board(variant, fen)
    a = Engine(variant, hash_mb=2, depth=2).search(board)
    b = Engine(variant, hash_mb=2, depth=2).search(fen)
    assert (a.move, a.score, a.pv, a.depth) == (b.move, b.score, b.pv, 2)
    start = Engine(variant, hash_mb=2, depth=1).search(None)
    assert start.move in {m.uci() for m in new_board(variant).legal_moves}


def test_engine_rejects_mismatched_inputs():
    with pytest.raises(ValueError):
        Engine("chess", value_set("traditional", "suicide"))
    with pytest.raises(ValueError):
        Engine("chess", hash_mb=1).search(new_board("atomic"))
    # giveaway and antichess share rules and weights
    Engine("antichess", value_set("traditional", "giveaway"), hash_mb=1)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_fixed_node_searches_are_deterministic(variant):
    """The same position, weights and node limit give the same search, move for move,
    in either mode (nothing depends on the clock or on an earlier search's state)."""
    for i, fen in enumerate(random_positions(variant, "nodes", 4)):
        runs = [search(variant, fen, None, nodes=3000 + 2000 * i) for _ in range(2)]
        a, b = runs
        assert (a.move, a.pv, a.score, a.depth, a.nodes) == (b.move, b.pv, b.score, b.depth, b.nodes)


# --------------------------------------------------------------------------------------
# MultiPV, search moves, mate limits, pondering (what `tdleaf uci` offers GUIs)
# --------------------------------------------------------------------------------------


def multipv_search(variant, fen, depth, k, weights="traditional", **limits):
    return Engine(variant, weights, hash_mb=2, search=MODE).search(
        fen, limits=Limits(depth=depth, multipv=k, nodes=NODE_CAP, **limits))


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_multipv_lines_are_the_best_moves_with_exact_scores(variant):
    """Line k is the k-th best root move with its exact score: each line's score equals
    an independent search of that move alone (searchmoves, fresh engine), and the lines'
    scores are the best k of all those single-move scores. Every line is consistent: a
    legal PV whose leaf is worth the line's score."""
    full_width_only("a move searched alone prunes and reduces differently from the same "
                    "move among the others (move order, windows, the table)")
    checked = 0
    for i, fen in enumerate(random_positions(variant, "multipv", 6)):
        depth = 1 + i % 3
        wts = _weights(variant, "random" if i % 2 else "traditional", 300 + i)
        r = multipv_search(variant, fen, depth, 3, wts)
        if r.depth < depth:
            continue                                # node cap hit
        legal = [m.uci() for m in new_board(variant, fen).legal_moves]
        assert len(r.lines) == min(3, len(legal)) and r.lines[0] is r
        assert [line.multipv for line in r.lines] == list(range(1, len(r.lines) + 1))
        assert len({line.move for line in r.lines}) == len(r.lines)
        single = {m: Engine(variant, wts, hash_mb=2, search=MODE).search(
            fen, limits=Limits(depth=depth, searchmoves=[m], nodes=NODE_CAP)) for m in legal}
        if any(s.depth < depth for s in single.values()):
            continue
        best = sorted((s.score for s in single.values()), reverse=True)
        for k, line in enumerate(r.lines):
            assert line.score == pytest.approx(single[line.move].score, abs=TOL), (fen, k, line.pv)
            assert line.score == pytest.approx(best[k], abs=TOL), (fen, k, line.pv)
            check_consistent(variant, fen, line, wts.w, depth)
        checked += 1
    assert checked >= 4, checked


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_multipv_one_is_the_plain_search(variant):
    """MultiPV=1 and no search moves searches exactly as before: same nodes, move, score
    and PV as a plain search, and a one-line result."""
    for i, fen in enumerate(random_positions(variant, "multipv-one", 3)):
        a = search(variant, fen, 3, nodes=NODE_CAP)
        b = multipv_search(variant, fen, 3, 1)
        assert (a.nodes, a.move, a.score, a.pv) == (b.nodes, b.move, b.score, b.pv)
        assert b.lines == [b]


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_searchmoves_restrict_the_root(variant):
    for i, fen in enumerate(random_positions(variant, "searchmoves", 4)):
        legal = sorted(m.uci() for m in new_board(variant, fen).legal_moves)
        some = legal[i % len(legal):][:2]
        r = Engine(variant, hash_mb=2, search=MODE).search(fen, limits=Limits(depth=2, searchmoves=some,
                                                                 multipv=5, nodes=NODE_CAP))
        assert r.move in some and {line.move for line in r.lines} == set(some)
        play_pv(variant, fen, r.pv)
    engine = Engine(variant, hash_mb=2)
    with pytest.raises(ValueError):
        engine.search(None, limits=Limits(depth=1, searchmoves=["a1a1"]))
    with pytest.raises(ValueError):
        engine.search(None, limits=Limits(depth=1, searchmoves=[]))


@pytest.mark.parametrize("variant,fen,plies,winners", FORCED_WINS, ids=WIN_IDS)
def test_mate_limit_finds_the_win(variant, fen, plies, winners):
    """A mate limit alone searches until a win in that many moves is found (at most
    2 * N plies): the move is a winning one and the reported distance is exact."""
    n = mate_moves(plies)
    r = Engine(variant, hash_mb=4, search=MODE).search(fen, limits=Limits(mate=n))
    assert r.move in winners and r.mate == n and r.depth <= 2 * n + (2 if MODE == "selective" else 0)


def test_mate_limit_without_a_mate_returns_a_move():
    r = Engine("chess", hash_mb=2, search=MODE).search(None, limits=Limits(mate=1))
    assert r.move in {m.uci() for m in chess.Board().legal_moves}
    assert r.mate is None and r.depth == (4 if MODE == "selective" else 2)


def test_ponder_waits_for_ponderhit():
    """A pondering search has no time limit until ponderhit; then its clock budget
    (0.05 s here) ends it. Every wait is bounded."""
    import threading
    engine = Engine("chess", hash_mb=2)
    engine.search(None, depth=1)
    box = {}
    lim = Limits(wtime=1.5, btime=1.5, movestogo=30, ponder=True)
    t = threading.Thread(target=lambda: box.setdefault("r", engine.search(None, limits=lim)),
                         daemon=True)
    t.start()
    t.join(1.0)                      # well past the 0.05 s budget: still pondering
    pondering = t.is_alive()
    engine.ponderhit()
    t.join(60)
    if t.is_alive():
        engine.stop()
        t.join(60)
        pytest.fail("the search did not end after ponderhit")
    assert pondering, "the pondering search ended by itself (time limit applied while pondering)"
    assert box["r"].move in {m.uci() for m in chess.Board().legal_moves}


def test_classic_layouts_search_as_before_the_leaf_blocks():
    """Without leaf blocks (the classic layouts) the search is the one before the leaf
    blocks reached it: the same move, score, PV and node count on fixed positions of each
    variant (tdleaf.bench.positions, every third, four a variant), with the traditional
    values and the shipped tables (learnt-psq), selective depth 4 and plain depth 3.
    Pinned in tests/data/search_pinned.json from git 134f226's search with
    ``Engine(variant, weights, hash_mb=4, search=mode).search(fen, depth)`` after
    ``new_game()``; a pin with ``flags`` holds the technique bits of a variant's set
    changed since on purpose (the extensions of suicide and antichess, issue 64)."""
    pins = json.loads((Path(__file__).parent / "data" / "search_pinned.json").read_text())
    assert {p["variant"] for p in pins} == set(VARIANTS)
    engines: dict[tuple[str, str, str], Engine] = {}
    for p in pins:
        key = (p["variant"], p["weights"], p["search"])
        if key not in engines:
            engines[key] = Engine(p["variant"], p["weights"], hash_mb=4, search=p["search"],
                                  flags=p.get("flags"))
        e = engines[key]
        assert not e.table.size                 # a classic layout: no leaf rows
        e.new_game()
        r = e.search(p["fen"], depth=p["depth"])
        assert (r.move, r.score, r.nodes, " ".join(r.pv)) == \
            (p["move"], p["score"], p["nodes"], p["pv"]), p


# A move that ends the game in the four lichess variants is a win one ply deep, whatever
# the values: the search reads the variant's own result (the hill, the third check, the
# race), not a draw for lack of moves.
VARIANT_WINS = [
    ("kingofthehill", "8/8/8/8/8/3K4/8/k7 w - - 0 1", {"d3d4", "d3e4"}),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", {"a1a8"}),
    ("racingkings", "8/1K6/8/8/8/8/8/7k w - - 0 1", {"b7a8", "b7b8", "b7c8"}),
]


@pytest.mark.parametrize("variant,fen,wins", VARIANT_WINS, ids=[v for v, _, _ in VARIANT_WINS])
@pytest.mark.parametrize("mode", ["selective", "plain"])
def test_a_move_that_wins_the_variant_is_found(variant, fen, wins, mode):
    r = Engine(variant, "traditional", hash_mb=1, search=mode).search(fen, depth=1)
    assert r.move in wins and r.mate == 1


# The reply that ends the game is quiet (a king step, a check): quiescence must try it,
# or a one-ply search stands pat behind it. (variant, FEN, White's saving moves; none:
# every move loses.)
QUIET_ENDS = [
    ("kingofthehill", "8/8/2k5/8/8/8/8/7K w - - 0 1", set()),
    ("kingofthehill", "8/8/2k5/8/7R/8/8/7K w - - 0 1", {"h4h5", "h4d4"}),
    ("3check", "4k3/8/8/8/8/8/q7/7K w - - 3+1 0 1", set()),
    ("racingkings", "8/6k1/8/8/8/8/8/K7 w - - 0 1", set()),
]


@pytest.mark.parametrize("variant,fen,saving", QUIET_ENDS,
                         ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(QUIET_ENDS)])
@pytest.mark.parametrize("mode", ["selective", "plain"])
def test_quiescence_sees_quiet_moves_that_end_the_game(variant, fen, saving, mode):
    board = new_board(variant, fen)
    assert not board.is_game_over()
    r = Engine(variant, "traditional", hash_mb=1, search=mode).search(fen, depth=1)
    if saving:
        assert r.move in saving and abs(r.score) < MATE_BOUND
    else:
        assert r.score < -MATE_BOUND, (r.move, r.score)


@pytest.mark.parametrize("mode", ["selective", "plain"])
def test_a_game_the_hill_has_ended_is_lost_for_the_side_to_move(mode):
    r = Engine("kingofthehill", "traditional", hash_mb=1, search=mode).search(
        "8/8/8/8/4K3/8/8/k7 b - - 0 1", depth=3)
    assert r.move is None and r.score < -1000


def test_an_evaluation_plays_the_spec_margins_unless_it_carries_its_own():
    from search.alphabeta.engine import search_margins
    from search.layout import WeightsError, value_set
    from variants import spec
    for name in spec.VARIANTS:
        v = spec.get(name)
        m = search_margins(name, value_set("traditional", name))
        assert m == {"futility_margin": v.futility_margin, "razor_margin": v.razor_margin,
                     "aspiration": v.aspiration}
    w = value_set("traditional", "crazyhouse")
    w.meta["search_margins"] = {"razor_margin": 5.25}
    assert search_margins("crazyhouse", w)["razor_margin"] == 5.25
    futility = search_margins("crazyhouse", w)["futility_margin"]
    assert futility == spec.get("crazyhouse").futility_margin
    for bad in ({"razor": 1.0}, {"razor_margin": -1}, {"aspiration": "wide"}, [1.0]):
        w.meta["search_margins"] = bad
        with pytest.raises(WeightsError, match="search_margins"):
            Engine("crazyhouse", w)


def test_the_search_prunes_with_the_evaluations_margins():
    """Margins too wide to ever prune search the tree of the search without the three
    prunings: the compiled search reads the margins it is given, not the spec's."""
    from search.alphabeta import negamax as ab
    from search.alphabeta.engine import search_flags
    from search.layout import value_set
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    w = value_set("traditional", "crazyhouse")
    plain = Engine("crazyhouse", w, hash_mb=1).search(fen, depth=5).nodes
    w.meta["search_margins"] = {"futility_margin": 1e5, "razor_margin": 1e5}
    wide = Engine("crazyhouse", w, hash_mb=1)
    flags = search_flags("selective", "crazyhouse") & ~(
        ab.F_FUTILITY | ab.F_REVERSE_FUTILITY | ab.F_RAZOR)
    without = Engine("crazyhouse", value_set("traditional", "crazyhouse"), hash_mb=1,
                     flags=flags)
    assert wide.search(fen, depth=5).nodes == without.search(fen, depth=5).nodes != plain
    assert wide.ctl[ab.C_FUTILITY] == 10**8 and wide.ctl[ab.C_RAZOR] == 10**8

#: The measurement of test_load_compiled_touches_the_whole_transposition_table, in a
#: fresh process: one that ran other tests may hold freed memory still resident (the
#: allocator keeps large freed blocks after raising its mmap threshold), which a new
#: table could reuse without faulting a page in.
_RESIDENT = """
import os, sys
from pathlib import Path
from search import Engine

def resident():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")

Engine("chess", "traditional", hash_mb=64).load_compiled()   # the code, once: not measured
fresh = Engine("chess", "traditional", hash_mb=64)
before = resident()
fresh.load_compiled()
print((resident() - before) / fresh.tt.nbytes)
"""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads Linux's /proc")
def test_load_compiled_touches_the_whole_transposition_table():
    """A fresh table's pages are not yet in memory, and the first search faulting them in
    took a tenth of a second at 64 MB: enough to cut the first move at 0.1 s to depth 2
    where later moves reach the UCI_Elo rung's depth 4. load_compiled, called before any
    move is timed, touches them all (measured in a fresh process: :data:`_RESIDENT`)."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _RESIDENT], capture_output=True, text=True,
                         check=True, timeout=600)
    assert float(out.stdout.split()[-1]) >= 0.9
