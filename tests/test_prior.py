"""The heuristic prior (search.mcts.prior): distributions over exactly python-chess's legal
moves, values in [-1, 1] with the right sign, exact terminal values, scores equal to the
engine's own, the batch form, the fitted temperatures and the `tdleaf prior` command."""

from __future__ import annotations

import json
import math

import chess
import numpy as np
import pytest

from search import Engine
from search.alphabeta.negamax import MATE, MATE_BOUND
from search.mcts.prior import DEFAULT_QLIMIT, HeuristicPrior, fitted_temperature, prior, prior_batch
from tdleaf.cli import main

from helpers_engines import require_engine
from helpers_search import VARIANTS, few_labelled, new_board, random_positions
from helpers_tiers import costly_in_full_tier, report_variants_in_fast_tier

N_RANDOM = 40


def legal_ucis(board: chess.Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse",)))
def test_policy_is_a_distribution_over_the_legal_moves(variant):
    fens = random_positions(variant, "prior", N_RANDOM, 2, 80)
    results = prior_batch(variant, fens)
    assert len(results) == len(fens)
    for fen, (policy, value) in zip(fens, results):
        board = new_board(variant, fen)
        assert set(policy) == legal_ucis(board), fen
        probs = np.array(list(policy.values()))
        assert (probs >= 0).all() and abs(probs.sum() - 1.0) < 1e-9, fen
        assert -1.0 <= value <= 1.0
        # The batch gives what one call gives.
        single_policy, single_value = prior(variant, fen)
        assert single_value == value
        assert single_policy == policy


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
@pytest.mark.parametrize("depth", [0, 1])
def test_best_score_is_the_engines_score(variant, depth):
    """The best move's score is what the alpha-beta engine finds one ply deeper (same
    weights, quiescence limit, no noise): the prior runs the engine's own search."""
    ev = HeuristicPrior(variant, "traditional", depth)
    fens = random_positions(variant, "prior-engine", 15, 2, 60)
    arr, _pos = ev.batch(fens)
    engine = Engine(variant, "traditional", hash_mb=1, qlimit=DEFAULT_QLIMIT, search="plain")
    checked = 0
    for i, fen in enumerate(fens):
        k = int(arr.n[i])
        best = float(arr.scores[i, :k].max())
        # Moves that end the game by insufficient material are exact draws for the
        # prior (python-chess's outcome) but evaluated by the engine's quiescence.
        board = new_board(variant, fen)
        if any(_insufficient_after(board, m) for m in board.legal_moves):
            continue
        engine.new_game()
        r = engine.search(fen, depth=depth + 1)
        assert best == pytest.approx(r.score, abs=1e-9), (fen, best, r.score)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant,features", [("kingofthehill", "psq"), ("3check", "psq"),
                                               ("racingkings", "psq"), ("chess", "psq+mobility")])
def test_the_prior_scores_leaf_blocks_as_the_engine_does(variant, features):
    """With a layout's leaf blocks (each variant's goal block, mobility), the best move's
    score at depth 0 is still the engine's one ply deeper: the prior's search scores the
    leaf blocks too (and they matter: without them the scores differ)."""
    from search.layout import Weights, feature_layout

    layout = feature_layout(variant, features)
    rng = np.random.default_rng(7)
    w = np.zeros(layout.size)
    w[:6] = (1.0, 3.0, 3.0, 5.0, 9.0, 0.0)
    for b in layout.blocks:
        if b.evaluation == "leaf":
            w[layout.span(b.name)] = rng.normal(0.0, 0.5, b.size)
    weights = Weights(variant, w, {}, layout=layout)
    classic = weights.copy()
    for b in layout.blocks:
        if b.evaluation == "leaf":
            classic.w[layout.span(b.name)] = 0.0
    fens = random_positions(variant, "prior-leaf", 12, 2, 60)
    arr, _pos = HeuristicPrior(variant, weights, 0).batch(fens)
    arr0, _ = HeuristicPrior(variant, classic, 0).batch(fens)
    engine = Engine(variant, weights, hash_mb=1, qlimit=DEFAULT_QLIMIT, search="plain")
    checked = 0
    for i, fen in enumerate(fens):
        k = int(arr.n[i])
        board = new_board(variant, fen)
        if any(_insufficient_after(board, m) for m in board.legal_moves):
            continue
        engine.new_game()
        r = engine.search(fen, depth=1)
        assert float(arr.scores[i, :k].max()) == pytest.approx(r.score, abs=1e-9), fen
        checked += 1
    assert checked >= 8
    assert not np.allclose(arr.scores[:, 0], arr0.scores[:, 0])


def _insufficient_after(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_insufficient_material()
    finally:
        board.pop()


def test_softmax_and_values():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3"
    ev = HeuristicPrior("chess", "traditional", 0, temperature=0.7)
    arr, _ = ev.batch([fen])
    k = int(arr.n[0])
    s, p = arr.scores[0, :k], arr.probs[0, :k]
    i, j = int(np.argmax(s)), int(np.argmin(s))
    assert p[i] / p[j] == pytest.approx(math.exp((s[i] - s[j]) / 0.7))
    best = s.max()
    _, v = prior("chess", fen, "traditional", value="squash")
    assert v == pytest.approx(math.tanh(0.25 * best))
    _, v = prior("chess", fen, "traditional", value="crazyara")
    assert v == pytest.approx(math.copysign(1 - 1.2 ** (-abs(best)), best) if best else 0.0)
    uniform = HeuristicPrior("chess", "traditional", policy="uniform")
    pol, vals = uniform([uniform.positions([fen])[0]])
    assert np.allclose(pol[0], 1.0 / k) and vals[0] == pytest.approx(math.tanh(0.25 * best))


WON_LOST = [
    # (variant, FEN, sign of the side to move's value)
    ("chess", "4k3/8/8/8/8/8/PPP5/QQQ1K3 w - - 0 1", 1),
    ("chess", "4k3/8/8/8/8/8/PPP5/QQQ1K3 b - - 0 1", -1),
    ("crazyhouse", "4k3/8/8/8/8/8/PPP5/4K3[QQQRR] w - - 0 1", 1),
    ("crazyhouse", "4k3/8/8/8/8/8/PPP5/4K3[QQQRR] b - - 0 1", -1),
    ("atomic", "4k3/8/8/8/8/8/PPP5/QQQ1K3 w - - 0 1", 1),
    ("atomic", "4k3/8/8/8/8/8/PPP5/RRR1K3 b - - 0 1", -1),
    # the losing games: having (many) more pieces is bad
    ("suicide", "7k/8/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1", 1),
    ("suicide", "7k/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", -1),
    ("giveaway", "7k/8/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1", 1),
    ("antichess", "7k/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", -1),
]


@pytest.mark.parametrize("variant,fen,sign", WON_LOST)
def test_value_sign_in_won_and_lost_positions(variant, fen, sign):
    for mode in ("squash", "crazyara"):
        _, v = prior(variant, fen, "traditional", value=mode)
        assert sign * v > 0.5, (mode, v)


TERMINAL = [
    ("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", -1.0),   # mated
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0.0),                                 # stalemate
    ("chess", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", 0.0),                                  # K v K
    ("crazyhouse", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3", -1.0),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", -1.0),       # no king
    ("suicide", "8/8/8/8/8/8/8/k7 w - - 0 1", 1.0),                                   # no pieces: won
    ("suicide", "8/8/8/8/p7/P7/8/k7 w - - 0 1", 1.0),        # stalemated with fewer pieces
    ("giveaway", "8/8/8/8/p7/P7/8/k7 w - - 0 1", 1.0),
    ("antichess", "8/8/8/8/8/8/8/K7 b - - 0 1", 1.0),
]


@pytest.mark.parametrize("variant,fen,value", TERMINAL)
def test_terminal_positions_are_exact(variant, fen, value):
    board = new_board(variant, fen)
    outcome = board.outcome()
    assert outcome is not None
    oracle = 0.0 if outcome.winner is None else (1.0 if outcome.winner == board.turn else -1.0)
    assert oracle == value
    policy, v = prior(variant, fen)
    assert policy == {} and v == value
    # the same through a board that carries the game (fivefold repetition)
    if variant == "chess" and value == 0.0:
        return
    b = new_board("chess")
    for _ in range(4):
        for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
            b.push_uci(u)
    assert b.is_fivefold_repetition()
    assert prior("chess", b) == ({}, 0.0)


def test_mate_in_one_dominates_the_policy():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    policy, v = prior("chess", fen)
    assert max(policy, key=policy.get) == "f3f7" and policy["f3f7"] > 0.99 and v == 1.0
    ev = HeuristicPrior("chess")
    arr, _ = ev.batch([fen])
    assert arr.move_scores(0)["f3f7"] == MATE - 1
    assert all(abs(s) < MATE_BOUND for m, s in arr.move_scores(0).items() if m != "f3f7")


def test_drops_are_written_as_in_python_chess():
    fen = "6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1"
    policy, v = prior("crazyhouse", fen)
    assert "N@f7" in policy and max(policy, key=policy.get) == "N@f7" and v == 1.0


def test_fitted_temperatures_are_stored():
    for variant in ("chess", "crazyhouse", "suicide", "giveaway", "antichess", "atomic"):
        for depth in (0, 1):
            t = fitted_temperature(variant, None, depth)
            assert t is not None and 0.01 < t < 100, (variant, depth, t)
        assert HeuristicPrior(variant).temperature_source == "fitted"
    # learned weights carry their own in meta (weights.json stays loadable without it)
    from search.layout import value_set
    w = value_set("traditional", "chess")
    w.meta["prior_temperature"] = {"0": 0.123}
    assert fitted_temperature("chess", w, 0) == 0.123
    del w.meta["value_set"]
    assert fitted_temperature("chess", w, 1) is None
    assert HeuristicPrior("chess", w, 1).temperature == 1.0


def test_cli_one_position(capsys):
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    assert main(["prior", "--variant", "chess", "--fen", fen, "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["fen"] == fen and rec["value"] == 1.0 and not rec["terminal"]
    assert set(rec["policy"]) == legal_ucis(chess.Board(fen))
    assert rec["scores"]["f3f7"] == "win in 1 plies"
    assert main(["prior", "--variant", "zh", "--top", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    # crazyhouse plays its learnt weights by default: the value is that of the best move (g1f3 > 0)
    assert len(lines) == 6 and lines[1].startswith("value: ")
    assert 0.0 < float(lines[1].split()[1]) < 0.5


def test_cli_epd_and_pgn(tmp_path, capsys):
    epd = tmp_path / "x.epd"
    epd.write_text("# two positions\n"
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;id \"e4\"\n"
                   "8/8/8/8/8/8/8/k7 w - - 0 1\n")
    assert main(["prior", "--variant", "suicide", "--epd", str(epd)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["line"] for x in lines] == [2, 3]
    assert len(lines[0]["policy"]) == 20 and lines[1]["terminal"] and lines[1]["value"] == 1.0
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Event "t"]\n[Variant "Atomic"]\n\n1. Nf3 a6 2. Ng5 a5 3. Nxf7 *\n')
    out = tmp_path / "o.jsonl"
    assert main(["prior", "--variant", "atomic", "--pgn", str(pgn), "--every", "5",
                 "--out", str(out)]) == 0
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["ply"], r["played"]) for r in recs] == [(0, "g1f3"), (5, None)]
    assert recs[1]["terminal"] and recs[1]["value"] == -1.0 and recs[1]["policy"] == {}
    assert main(["prior", "--variant", "chess", "--pgn", str(pgn)]) == 2


@pytest.mark.slow
def test_bench_prior_beats_the_baselines():
    """`tdleaf bench prior` on the committed labelled positions (atomic: the cheapest):
    the prior agrees with Fairy-Stockfish more often than the uniform policy and the
    capture/check heuristic, and gives its moves a higher likelihood."""
    from tdleaf.bench.prior import bench_prior, format_report

    report = bench_prior(["atomic"], [0], mcts=False)
    (r,) = report["results"]
    assert r["positions"] == 2000 and r["temperature_used"] == fitted_temperature("atomic", None, 0)
    p, u, c = r["prior"], r["uniform"], r["capture_check"]
    assert p["top1"] > c["top1"] > u["top1"] and p["top3"] > c["top3"] > u["top3"]
    assert p["loglik"] > c["loglik"] > u["loglik"]
    for cal in r["value"].values():
        assert 0 < cal["brier"] < 0.25 and sum(b["n"] for b in cal["bins"]) == 2000
    assert "| atomic | 0 | 2000 |" in format_report(report)


def test_bench_prior_saves_the_temperature_into_weights_json(tmp_path, capsys, monkeypatch):
    from search.layout import load_weights, value_set

    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path / "data"))      # 300 positions, for time
    few_labelled(tmp_path / "data", "atomic", 300)

    w = value_set("traditional", "atomic")        # atomic's positions: the cheapest
    del w.meta["value_set"]                        # as learnt weights: no value set
    path = tmp_path / "weights.json"
    w.save(path)
    assert main(["bench", "prior", "--variant", "atomic", "--depth", "0", "--weights",
                 str(tmp_path), "--save", "--no-mcts"]) == 0
    assert "| atomic | 0 | 300 |" in capsys.readouterr().out
    saved = load_weights(path, "atomic")
    t = saved.meta["prior_temperature"]["0"]
    assert 0.1 < t < 20 and fitted_temperature("atomic", saved, 0) == t
    assert HeuristicPrior("atomic", str(path)).temperature == t


def test_labelled_positions_from_engine_games():
    from tdleaf.play.labels import engine_command, make_positions, read_labelled, write_epd

    require_engine("fairy-stockfish")           # the label engine of suicide
    assert engine_command("suicide") is not None
    rows = make_positions("suicide", 3, seed=7, label_depth=4)
    assert len(rows) == 3
    for row in rows:
        board = new_board("suicide", row.fen)
        assert not board.castling_rights           # Fairy-Stockfish's suicide has none
        assert chess.Move.from_uci(row.bm) in board.legal_moves and row.result in (0, 0.5, 1)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        write_epd(rows, f"{d}/x.epd", "header")
        assert read_labelled(f"{d}/x.epd") == rows


def test_the_win_logit_is_fitted_with_the_temperature():
    """One position where the prior sees a win the label did not play sets a temperature
    fitted alone (the label about 100 logits down); fitted with a win logit, the
    temperature stays near that of the other positions and the likelihood is better."""
    from search.mcts.prior import WIN_LOGIT, logit_score, logits_of
    from tdleaf.net.prior_quality import _nll, fit_prior, fit_temperature

    assert logit_score(MATE - 3) >= WIN_LOGIT > abs(logit_score(500.0)) == WIN_LOGIT - 1
    assert logit_score(MATE - 3, 6.0) > logit_score(MATE - 5, 6.0) > 6.0 > logit_score(9.0, 6.0) == 5.0
    rng = np.random.default_rng(0)
    scores = [rng.normal(0.0, 1.0, 20) for _ in range(200)]
    targets = [int(np.argmax(x + rng.gumbel(size=20) * 0.5)) for x in scores]  # T near 0.5
    clean = fit_temperature([logits_of(x) for x in scores], targets)
    assert 0.3 < clean < 0.8
    assert fit_prior(scores, targets)[0] == pytest.approx(clean, rel=0.05)   # no win: T alone
    won = np.array([MATE - 3, 0.5, 0.0])               # the label (1) is not the win
    with_win = scores + [won] * 3
    labels = targets + [1] * 3
    alone = fit_temperature([logits_of(x) for x in with_win], labels)
    t, w = fit_prior(with_win, labels)
    assert alone > 3 * clean and abs(t - clean) < abs(alone - clean) and w < 50
    assert _nll([logits_of(x, w) for x in with_win], labels, t) < \
        _nll([logits_of(x) for x in with_win], labels, alone)


def test_a_stored_win_logit_is_used():
    from search.layout import value_set
    from search.mcts.prior import WIN_LOGIT, fitted_win_logit

    w = value_set("traditional", "chess")
    assert fitted_win_logit("chess", w, 0) is None
    assert HeuristicPrior("chess", w).win_logit == WIN_LOGIT
    w.meta["prior_temperature"] = {"0": 0.5}
    w.meta["prior_win_logit"] = {"0": 4.0}
    ev = HeuristicPrior("chess", w)
    assert (ev.temperature, ev.win_logit) == (0.5, 4.0)
    # mate in one: with W = 4 the mating move keeps less of the policy than with W = 100
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    low = ev.batch([fen])[0].policy(0)["a1a8"]
    high = HeuristicPrior("chess", w, temperature=0.5, win_logit=WIN_LOGIT).batch([fen])[0].policy(0)["a1a8"]
    assert 0.5 < low < high and high > 0.999
    with pytest.raises(ValueError, match="win_logit must be >= 2"):
        HeuristicPrior("chess", w, win_logit=1.0)
