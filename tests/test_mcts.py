"""PUCT MCTS (search.mcts.driver): forced wins found and proven, terminal proofs, tree reuse,
custom evaluators (used, and changing the result), options, legal complete games, and a
small PyTorch network as the evaluator (skipped without torch)."""

from __future__ import annotations

import math
import threading

import chess
import numpy as np
import pytest

from search.mcts.driver import MCTS, value_to_cp
from search.mcts.prior import HeuristicPrior
from variants import Position

from helpers_search import VARIANTS, new_board
from helpers_tiers import costly_in_full_tier

# (variant, FEN, plies to the forced win, every winning first move): the forced wins of
# tests/test_search.py (checked there by brute force with python-chess) of up to 4 plies.
FORCED_WINS = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, {"a1a8"}),
    ("chess", "6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1", 1, {"h6f7"}),
    ("chess", "kr6/p7/8/8/8/8/8/1R2Q1K1 w - - 0 1", 3, {"e1e4"}),
    ("chess", "7k/8/5K2/8/8/8/8/R7 w - - 0 1", 3, {"f6f7", "f6g6"}),
    ("crazyhouse", "6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1", 1, {"N@f7"}),
    ("crazyhouse", "6k1/5p1p/6p1/8/8/8/8/6K1[QB] w - - 0 1", 3, {"B@f6", "B@h6"}),
    ("atomic", "4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", 1, {"d1d7"}),
    ("atomic", "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2", 3, {"f3e5", "f3g5"}),
    ("atomic", "2KB4/8/6p1/7k/8/5Np1/8/8 w - - 0 1", 3, {"f3e5"}),
    ("suicide", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
    ("suicide", "7R/1p6/8/5p2/8/8/5N2/8 w - - 0 1", 4, {"f2g4"}),
    ("giveaway", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
    ("giveaway", "8/p7/8/8/8/8/8/1nBK4 w - - 0 1", 4, {"c1a3"}),
    ("antichess", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
]
IDS = [f"{v}-{p}plies-{i}" for i, (v, _, p, _) in enumerate(FORCED_WINS)]


def _assert_proven_win(variant, fen, r, plies):
    assert r.proven == "win" and r.value == 1.0
    assert r.playouts < 30000                  # the proof ended the search
    board = new_board(variant, fen)
    us = board.turn
    for uci in r.pv:                           # the PV is legal and ends the game, won
        board.push_uci(uci)
    assert board.outcome() is not None and board.outcome().winner == us
    assert len(r.pv) >= plies and r.mate == (len(r.pv) + 1) // 2


# The search stops at the first proof of the root and plays the shortest win proven by
# then; which win is proven first depends on the prior. With the traditional values
# the shortest is proven first in all of these (pinned, so that shipping new default
# weights does not change what this test checks).
@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=IDS)
def test_finds_and_proves_short_forced_wins(variant, fen, plies, moves):
    r = MCTS(variant, weights="traditional").search(fen, playouts=30000)
    assert r.move in moves, (r.move, r.visits)
    assert r.mate == (plies + 1) // 2          # the shortest win is played
    _assert_proven_win(variant, fen, r, plies)


@pytest.mark.parametrize("variant,fen,plies,moves", FORCED_WINS, ids=IDS)
def test_proves_a_win_with_the_default_weights(variant, fen, plies, moves):
    # Any proven win, perhaps a longer one (suicide's learnt values prove f2e4, a win
    # in 4 moves, before f2g4, a win in 2, in 7R/1p6/8/5p2/8/8/5N2/8).
    r = MCTS(variant).search(fen, playouts=30000)
    _assert_proven_win(variant, fen, r, plies)


def test_batched_search_with_virtual_loss_finds_the_win():
    variant, fen, plies, moves = FORCED_WINS[3]
    r = MCTS(variant, batch_size=8).search(fen, playouts=30000)
    assert r.move in moves and r.proven == "win" and r.mate == (plies + 1) // 2


def test_a_sacrifice_needs_a_deeper_prior():
    """Mate in 2 by a queen sacrifice (1. Qd8+ Bxd8 2. Re8#): the depth-0 prior gives
    the sacrifice almost nothing and, with unvisited moves at Q = -1, the search does not
    try it; a prior that searches two plies after each move (the reply and the mate)
    sees it."""
    fen = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"
    assert MCTS("chess").search(fen, playouts=2000).move != "d5d8"
    r = MCTS("chess", prior_depth=2).search(fen, playouts=2000)
    assert r.move == "d5d8" and r.proven == "win" and r.mate == 2


def test_proven_loss():
    # Black to move: 1... Kb8 2. Rh8# or 1... a2 2. Rh8#.
    fen = "k7/8/1K6/8/8/p7/8/7R b - - 0 1"
    r = MCTS("chess").search(fen, playouts=30000)
    assert r.proven == "loss" and r.value == -1.0 and r.mate == -1
    assert r.move in ("a8b8", "a3a2") and r.playouts < 30000


@pytest.mark.parametrize("variant,fen,value", [
    ("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", -1.0),
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0.0),
    ("suicide", "8/8/8/8/8/8/8/k7 w - - 0 1", 1.0),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", -1.0),
])
def test_terminal_root(variant, fen, value):
    r = MCTS(variant).search(fen, playouts=10)
    assert r.move is None and r.pv == [] and r.value == value
    assert r.proven == {1.0: "win", -1.0: "loss", 0.0: "draw"}[value]


def test_a_game_over_with_moves_left_still_gets_a_move():
    # K+N v K: python-chess calls the game drawn (insufficient material); a front end
    # may still ask for a move.
    fen = "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1"
    r = MCTS("chess").search(fen, playouts=10)
    assert r.proven == "draw" and r.value == 0.0
    assert chess.Move.from_uci(r.move) in chess.Board(fen).legal_moves


def test_repetitions_in_the_tree_and_the_draw_value():
    # After 1. Nf3 Nf6 2. Ng1, 2... Ng8 repeats the start position: a draw in the tree,
    # worth draw_value to Black, who steers into it. Material-only weights, so that the
    # prior gives the knight's retreat its share of playouts (learnt tables rate g8 so
    # low that 300 playouts may never try it).
    board = chess.Board()
    for u in ("g1f3", "g8f6", "f3g1"):
        board.push_uci(u)
    keen = MCTS("chess", weights="traditional", draw_value=0.9).search(board, playouts=300)
    assert keen.move == "f6g8" and keen.value == pytest.approx(0.9)
    averse = MCTS("chess", weights="traditional", draw_value=-0.9).search(board, playouts=300)
    assert averse.move != "f6g8" and averse.q["f6g8"] == pytest.approx(-0.9)
    # The same position without its history repeats nothing.
    plain = MCTS("chess", weights="traditional", draw_value=0.9).search(board.fen(), playouts=300)
    assert plain.q["f6g8"] != pytest.approx(0.9)


def test_draw_by_stalemate_is_proven_and_avoided():
    # Qg6?? and Qf7?? stalemate; many other moves win easily. A stalemating move is a
    # proven draw and never chosen while anything else is left.
    fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"
    r = MCTS("chess").search(fen, playouts=3000)
    board = chess.Board(fen)
    board.push_uci(r.move)
    assert not board.is_stalemate()


def test_tree_reuse_keeps_the_subtree():
    mcts = MCTS("crazyhouse")
    board = new_board("crazyhouse")
    r = mcts.search(board, playouts=400)
    t = mcts.tree

    def children(node):
        """(uci, child node) of every edge of ``node`` that has a child."""
        rng = t.edge_range(node)
        return [(mcts._uci(e), int(t.child[e])) for e in range(rng.start, rng.stop)
                if t.child[e] >= 0]

    child = dict(children(mcts.root))[r.move]
    kept = int(t.visits[child])
    assert kept == r.visits[r.move] > 0
    mcts.advance(r.move)
    assert mcts.root == child and t.visits[mcts.root] == kept
    # The reply is expanded under the kept tree; the front ends' way: a board with the
    # moves played (its moves extend the last search's) is found in the tree.
    reply_move, reply = max(children(mcts.root), key=lambda c: t.visits[c[1]])
    board.push_uci(r.move)
    board.push_uci(reply_move)
    before = int(t.visits[reply])
    r2 = mcts.search(board, playouts=100)
    assert mcts.root == reply
    assert r2.nodes == before + r2.playouts
    # Or the same position given by FEN alone (found among children/grandchildren).
    grand_move, grand = children(mcts.root)[0]
    board.push_uci(grand_move)
    v = int(mcts.tree.visits[grand])
    r3 = mcts.search(board.fen(), playouts=50)
    assert mcts.root == grand and r3.nodes == v + r3.playouts
    # A different game starts a new tree.
    mcts.search(new_board("crazyhouse"), playouts=10)
    assert mcts.tree.visits[mcts.root] == 10 and mcts.tree_size > 1
    mcts.new_game()
    assert mcts.root is None


def test_a_full_tree_keeps_only_the_new_roots_subtree():
    """Past half its arrays, a tree moving on to a new root copies that root's subtree
    (visits, priors, proofs and the transposition cache with it) and drops the rest."""
    from search.mcts.driver import UNIFORM
    m = MCTS("chess", UNIFORM)
    r = m.search(None, playouts=3000)
    old = m.tree
    assert old.size[0] * 2 > len(old.first)
    child = int(old.child[old.edge_range(m.root)][list(r.visits).index(r.move)])
    visits, size = int(old.visits[child]), m.tree_size
    rng = old.edge_range(child)
    before = (old.N[rng].copy(), old.P[rng].copy())
    m.advance(r.move)
    t = m.tree
    assert t is not old and m.root == 0 and t.visits[0] == visits
    assert int(t.size[0]) == m.tree_size < size
    assert np.array_equal(t.N[t.edge_range(0)], before[0])
    assert np.array_equal(t.P[t.edge_range(0)], before[1])
    assert all(t.key[n] in t.cache for n in range(int(t.size[0])) if t.flags[n] & 1)
    r2 = m.search(None, playouts=500)
    board = chess.Board()
    board.push_uci(r.move)
    assert r2.nodes == visits + 500 and chess.Move.from_uci(r2.move) in board.legal_moves


def test_a_network_sees_the_roots_repetitions():
    """The planes a network gets say how often a leaf occurred before (the game's
    history and the path): the start position after Nf3 Nf6 Ng1 Ng8 is there once."""
    from search.mcts import encoding as enc
    from search.mcts.network import Network

    seen = []

    class Session:
        def run(self, _names, feed):
            seen.append(feed["planes"].copy())
            n = len(feed["planes"])
            return np.zeros((n, enc.POLICY_SIZE), np.float32), np.zeros(n, np.float32)

    net = Network(None, {"variant": "chess"}, "", "test", Session())  # type: ignore[arg-type]
    board = chess.Board()
    for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
        board.push_uci(u)
    MCTS("chess", net, batch_size=4).search(board, playouts=20)
    root = seen[0][0]
    assert root[enc.P_REPEATED].all() and not root[enc.P_REPEATED + 1].any()
    assert not any(x[enc.P_REPEATED].any() for batch in seen[1:] for x in batch)


def test_transpositions_share_an_evaluation():
    """Two move orders to one position: the second node takes the first's priors and
    value without an evaluator call."""
    calls = []

    def evaluator(positions):
        calls.extend(p.fen() for p in positions)
        return [{m: 1.0 for m in p.legal_moves()} for p in positions], [0.0] * len(positions)

    r = MCTS("chess", evaluator, q_init="parent").search(None, playouts=3000)
    assert r.playouts == 3000 and len(calls) < r.playouts
    boards = [" ".join(f.split()[:4]) for f in calls]
    assert len(boards) == len(set(boards))        # no position evaluated twice


def material_evaluator(sign: float = 1.0):
    """A real evaluator: uniform policy, value tanh(material / 3) for the side to move
    (1/3/3/5/9, pieces in hand count), or its negation with ``sign=-1``."""
    values = np.array([1.0, 3.0, 3.0, 5.0, 9.0, 0.0])
    calls = []

    def evaluate(positions: list[Position]):
        calls.append(len(positions))
        policies, out = [], []
        for p in positions:
            s = 0.0
            for t in range(6):
                s += values[t] * (int(p.bb[t] & p.bb[6]).bit_count()
                                  - int(p.bb[t] & p.bb[7]).bit_count())
            if p.variant == "crazyhouse":
                for t in range(1, 6):
                    s += values[t - 1] * (p.st[68 + t] - p.st[74 + t])
            s = s if p.turn else -s
            policies.append({m: 1.0 for m in p.legal_moves()})
            out.append(sign * math.tanh(s / 3.0))
        return policies, out

    evaluate.calls = calls  # type: ignore[attr-defined]
    return evaluate


def test_custom_evaluator_is_used_and_changes_the_result():
    # White can take a hanging queen (e4d5) or not.
    fen = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"
    greedy = material_evaluator(1.0)
    r = MCTS("chess", greedy).search(fen, playouts=300)
    assert r.move == "e4d5" and r.value > 0.3        # up a pawn: tanh(1/3)
    # one evaluation per playout, except those ending in a finished game
    assert r.playouts / 2 < sum(greedy.calls) <= r.playouts
    assert all(abs(p - 1 / len(r.prior)) < 1e-12 for p in r.prior.values())   # its policy
    generous = material_evaluator(-1.0)
    r2 = MCTS("chess", generous).search(fen, playouts=300)
    assert r2.move != "e4d5" and len(generous.calls) > 0


def test_evaluator_policy_as_array_and_batching():
    seen = []

    def evaluator(positions):
        seen.append(len(positions))
        pols = []
        for p in positions:
            moves = p.legal_moves()
            pols.append([2.0 if m == "g1f3" else 1.0 for m in moves])   # aligned with legal_moves()
        return pols, [0.0] * len(positions)

    r = MCTS("chess", evaluator, batch_size=4).search(None, playouts=200)
    assert max(seen) > 1 and r.playouts == 200 and sum(seen) <= 200
    assert r.prior["g1f3"] == pytest.approx(2 / 21)
    with pytest.raises(ValueError):
        MCTS("chess", lambda ps: ([[1.0]] * len(ps), [0.0] * len(ps))).search(None, playouts=2)


@pytest.mark.slow
def test_options_noise_temperature_stop_callback():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    a = MCTS("chess", dirichlet_epsilon=0.25, seed=1).search(fen, playouts=300)
    b = MCTS("chess", dirichlet_epsilon=0.25, seed=1).search(fen, playouts=300)
    c = MCTS("chess", dirichlet_epsilon=0.25, seed=2).search(fen, playouts=300)
    assert a.visits == b.visits and a.visits != c.visits      # seeded noise
    clean = HeuristicPrior("chess")([Position.from_fen(fen)])[0][0]
    assert np.allclose(list(a.prior.values()), clean)          # noise only while searching
    m = MCTS("chess", seed=3)
    r = m.search(fen, playouts=300, temperature=1.0)
    assert r.visits[r.move] > 0
    assert MCTS("chess", move_selection="visits").search(fen, playouts=200).move
    # First-play urgency from the parent's value explores more of a flat prior.
    zh = "r1bqkbnr/1pp2pp1/p6p/1N1pP3/8/1P6/P1P1PPPP/R2QKBNR[NPb] w KQkq - 0 8"   # 98 moves
    tried = [sum(1 for n in MCTS("crazyhouse", q_init=q).search(zh, playouts=200).visits.values()
                 if n > 0) for q in (-1.0, "parent")]
    assert tried[1] > 2 * tried[0]
    with pytest.raises(ValueError):
        MCTS("chess", q_init="zero")
    infos = []
    m = MCTS("chess")
    ev = threading.Event()
    timer = threading.Timer(0.5, ev.set)
    timer.start()
    r = m.search(fen, movetime=60, stop=ev, callback=infos.append, info_interval=0.1)
    timer.cancel()
    assert r.time < 30 and infos and all(i.move for i in infos)
    r = m.search(fen, nodes=r.nodes + 50)
    assert r.playouts == 50
    from search.alphabeta.engine import Limits
    r = m.search(fen, limits=Limits(wtime=3.0, btime=3.0, nodes=20))     # new playouts
    assert r.playouts == 20 and r.uci_info().startswith("depth ") and " nodes 20 " in r.uci_info()
    r = MCTS("chess", tree_limit=100).search(fen, playouts=1000)
    assert r.playouts == r.nodes == 100
    r = MCTS("chess").search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", limits=Limits(movetime=5.0))
    assert r.move == "a1a8" and " score mate 1 " in r.uci_info() and r.time < 5.0


def test_stands_in_for_the_engine_in_the_front_ends_search_thread():
    """search.protocol.session.BackgroundSearch drives an Engine with clear_stop(), search(position,
    limits=..., info=...) and stop(): an MCTS answers the same calls (the UCI front end
    formats its result with result.mate / result.score and result.pv)."""
    from search.alphabeta.engine import Limits
    from search.protocol.session import BackgroundSearch

    mcts = MCTS("atomic")
    bg = BackgroundSearch()
    out = []
    pos = Position.start("atomic")
    bg.start(mcts, pos, Limits(infinite=True), out.append, lambda r, e: out.append((r, e)))
    threading.Event().wait(0.5)
    bg.wait(mcts, stop=True)
    result, exc = out[-1]
    assert exc is None and result.move in pos.legal_moves() and result.playouts > 10
    assert isinstance(result.score, float) and result.pv[0] == result.move
    bg.start(mcts, pos, Limits(nodes=30), out.append, lambda r, e: out.append((r, e)))
    bg.wait()
    assert out[-1][0].playouts == 30 and out[-1][0].nodes > 30  # the tree was kept


@pytest.mark.slow
def test_crazyaras_u_divisor_schedule_and_check_enhancement():
    """The schedule (u_min_divisor) explores unvisited moves more early on; the check
    enhancement lifts a checking move's small prior by half the largest."""
    zh = "r1bqkbnr/1pp2pp1/p6p/1N1pP3/8/1P6/P1P1PPPP/R2QKBNR[NPb] w KQkq - 0 8"
    tried = [sum(1 for n in MCTS("crazyhouse", **kw).search(zh, playouts=300).visits.values()
                 if n > 0) for kw in ({}, {"u_min_divisor": 0.25, "u_divisor": 0.25})]
    assert tried[1] > tried[0]
    plain = MCTS("crazyhouse", weights="traditional").search(zh, playouts=2).prior
    checked = MCTS("crazyhouse", weights="traditional", check_factor=0.5).search(zh, playouts=2).prior
    board = new_board("crazyhouse", zh)
    checks = [m for m in plain if board.gives_check(chess.Move.from_uci(m))]
    low = [m for m in checks if plain[m] < 0.1]
    assert low and all(checked[m] > plain[m] for m in low)
    assert sum(checked.values()) == pytest.approx(1.0)
    quiet = [m for m in plain if m not in checks]
    assert all(checked[m] < plain[m] for m in quiet)


def test_the_trivial_evaluator_and_the_benchmark(capsys):
    """UNIFORM runs inside the compiled playouts: it still proves a mate in one, and
    plays exactly the playouts asked; `tdleaf bench mcts` reports each evaluator against
    the alpha-beta's nodes/s."""
    import json

    from search.mcts.driver import UNIFORM
    from tdleaf.cli import main
    r = MCTS("chess", UNIFORM).search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", playouts=5000)
    assert r.move == "a1a8" and r.proven == "win"
    r = MCTS("crazyhouse", UNIFORM).search(None, playouts=700)
    assert r.playouts == 700 and sum(r.visits.values()) == 699
    assert all(abs(p - 1 / 20) < 1e-12 for p in r.prior.values())
    assert main(["bench", "mcts", "--variant", "atomic", "--positions", "2", "--playouts", "50",
                 "--rounds", "1", "--depth", "2", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    assert set(row["mcts"]) == {"uniform", "prior"} and row["alphabeta_nodes_per_s"] > 0
    assert all(x["playouts"] == 100 and x["us_per_playout"] > 0 for x in row["mcts"].values())


def test_value_to_cp_inverts_crazyara():
    for cp in (0, 50, 100, 350, 900, -120):
        v = math.copysign(1 - 1.2 ** (-abs(cp) / 100), cp)
        assert value_to_cp(v) == cp


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse",)))
def test_plays_complete_legal_games(variant):
    """MCTS against itself with tree reuse: every move legal for python-chess, up to the
    end of the game or 120 plies. (16 playouts a move: the heuristic prior of a
    crazyhouse position, many drops each searched, costs 10-20 ms.)"""
    board = new_board(variant)
    players = [MCTS(variant, seed=1), MCTS(variant, seed=2)]
    for ply in range(120):
        if board.outcome(claim_draw=True) is not None:
            break
        player = players[ply % 2]
        r = player.search(board, playouts=16, temperature=1.0 if ply < 6 else 0.0)
        move = chess.Move.from_uci(r.move)
        assert move in board.legal_moves, (board.fen(), r.move)
        board.push(move)
    assert board.ply() >= 2


def test_pytorch_network_plugs_in():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)

    class Net(torch.nn.Module):
        """12 piece planes -> from-square and to-square logits and a value."""

        def __init__(self):
            super().__init__()
            self.body = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(12 * 64, 64),
                                            torch.nn.ReLU())
            self.policy = torch.nn.Linear(64, 128)
            self.value = torch.nn.Linear(64, 1)

        def forward(self, x):
            h = self.body(x)
            return self.policy(h), torch.tanh(self.value(h)).squeeze(-1)

    net = Net().eval()

    def planes(p: Position) -> np.ndarray:
        bits = np.unpackbits(p.bb[:8].view(np.uint8), bitorder="little").reshape(8, 64)
        pieces = bits[:6].astype(np.float32)
        return np.concatenate([pieces * bits[6], pieces * bits[7]])

    def evaluate(positions):
        x = torch.from_numpy(np.stack([planes(p) for p in positions]))
        with torch.no_grad():
            logits, values = net(x)
        policies = []
        for p, lg in zip(positions, logits.numpy()):
            codes = p.legal_move_codes()
            z = lg[codes & 63] + lg[64 + ((codes >> 6) & 63)]
            policies.append(np.exp(z - z.max()))
        return policies, values.numpy()

    mcts = MCTS("crazyhouse", evaluate, batch_size=8)
    r = mcts.search(None, playouts=64)
    assert r.move in r.visits and sum(r.visits.values()) == r.playouts - 1 == 63
    assert not np.allclose(list(r.prior.values()), 1 / 20)   # the network's policy is used


@pytest.mark.parametrize("variant, fen, plies, wins",
                         [w for w in FORCED_WINS if w[2] == 1],
                         ids=[i for i, w in zip(IDS, FORCED_WINS) if w[2] == 1])
def test_win_check_finds_a_winning_move_the_policy_hides(variant, fen, plies, wins):
    """An evaluator that puts all its prior on one other move: with the first play
    urgency of -1 the winning move is never tried, unless ``win_check`` looks at every
    move of a new node; then the root is proven won at once (python-chess agrees)."""
    board = new_board(variant, fen)
    decoy = next(m.uci() for m in board.legal_moves if m.uci() not in wins)

    def hide(positions):
        return [{decoy: 1.0} for _ in positions], np.zeros(len(positions))

    blind = MCTS(variant, hide).search(fen, playouts=16)
    assert blind.move == decoy
    seen = MCTS(variant, hide, win_check=True).search(fen, playouts=16)
    assert seen.move in wins and seen.value == 1.0
    board.push_uci(seen.move)
    assert board.is_game_over() and board.outcome().winner == (not board.turn)


def test_load_compiled_leaves_no_trace():
    """What front ends and match players run before a clock: the searches that follow
    are those of a fresh tree."""
    warmed = MCTS("crazyhouse", weights="traditional", seed=3)
    warmed.load_compiled()
    assert warmed.root is None
    fresh = MCTS("crazyhouse", weights="traditional", seed=3)
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert warmed.search(fen, playouts=40).visits == fresh.search(fen, playouts=40).visits
