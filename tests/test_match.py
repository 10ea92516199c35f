"""Matches (tdleaf/play/): statistics against known values, short matches between
internal players in every variant, games against the real Sjeng, Fairy-Stockfish and
the wasm Fairy-Stockfish, deliberately broken engines, and a killed match that resumes.

External engines are skipped only where they are not installed and
TDLEAF_REQUIRE_ENGINES is not set (.ci/run sets it, so CI fails instead of skipping):
tests/helpers_engines.py decides.
"""

from __future__ import annotations

import io
import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.engine
import chess.pgn
import chess.variant
import numpy as np
import pytest

from tdleaf.backend import Backend
from tdleaf.cli import main
from tdleaf.cli.tools import exclusive
from tdleaf.play import engines, stats
from tdleaf.play.game import Adjudication, Clock, play_game
from tdleaf.play.match import (
    GameOutcome,
    MatchConfig,
    MatchError,
    MatchPool,
    PlayerConfig,
    Summary,
    run_match,
)
from tdleaf.play.openings import OpeningError, random_opening, read_openings
from tdleaf.play.pgn import read_games
from tdleaf.play.players import (
    ExternalPlayer,
    InternalPlayer,
    MoveAnswer,
    MoveLimits,
    Player,
    PlayerError,
    make_player,
)
from variants import board_class
from variants.position import Position

from helpers_engines import Descendants, engine_path, require_engine, still_running
from helpers_tiers import report_variants_in_fast_tier

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "engines" / "broken_uci.py"
DISPUTING = HERE / "engines" / "disputing_xboard.py"
VARIANTS = ("chess", "crazyhouse", "suicide", "giveaway", "antichess", "atomic")


# --------------------------------------------------------------------------------------
# Statistics against published figures
# --------------------------------------------------------------------------------------

def test_elo_of_a_score():
    assert stats.score_to_elo(0.5) == 0.0
    assert stats.score_to_elo(0.75) == pytest.approx(190.848, abs=1e-3)
    assert stats.score_to_elo(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert stats.elo_to_score(stats.score_to_elo(0.6)) == pytest.approx(0.6)
    assert stats.score_to_elo(1.0) == math.inf and stats.score_to_elo(0.0) == -math.inf


def test_cutechess_summary_line():
    """cutechess-cli printed, for 3225 wins, 3068 losses, 3707 draws, elo0=0 elo1=5:
    'Elo difference: 5.5 +/- 5.4, LOS: 97.6 %' and 'SPRT: llr 1.94'."""
    est = stats.elo_trinomial(3225, 3068, 3707)
    assert est.score == pytest.approx(0.50785)
    assert round(est.elo, 1) == 5.5
    assert round(est.margin, 1) == 5.4
    assert round(100 * stats.los(3225, 3068), 1) == 97.6
    assert stats.gsprt_llr([3225, 3068, 3707], 0.0, 5.0) == pytest.approx(1.94, abs=0.01)


def test_fishtest_pentanomial_llr():
    """A fishtest-style statistics page: pairs [13, 37, 50, 25, 3], H0 score 0.5,
    H1 logistic Elo 2.716: 'Logistic (exact) -0.53772', Elo -43.6578."""
    pairs = [13, 37, 50, 25, 3]
    assert stats.elo_pentanomial(pairs).elo == pytest.approx(-43.6578, abs=1e-3)
    assert stats.gsprt_llr(pairs, 0.0, 2.716) == pytest.approx(-0.53772, abs=2e-3)


def test_pentanomial_interval_by_hand():
    pairs = [13, 37, 50, 25, 3]
    n = sum(pairs)
    xs = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * x for c, x in zip(pairs, xs)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(pairs, xs)) / n
    assert var == pytest.approx(0.05762, abs=1e-5)            # the page's "Variance"
    half = 1.959964 * math.sqrt(var / n)
    est = stats.elo_pentanomial(pairs)
    assert est.low == pytest.approx(stats.score_to_elo(mean - half), abs=1e-6)
    assert est.high == pytest.approx(stats.score_to_elo(mean + half), abs=1e-6)


def test_the_reports_sign_test():
    """Suicide, learnt vs traditional: 1018 won, 934 lost: 'a p-value of 6%'."""
    assert round(stats.sign_test_p(1018, 934), 2) == 0.06
    assert stats.sign_test_p(0, 0) == 1.0
    assert stats.sign_test_p(10, 0) == pytest.approx(2 * 0.5 ** 10)


def test_sprt_bounds_and_decisions():
    s = stats.Sprt.parse("0,5")
    assert (s.alpha, s.beta) == (0.05, 0.05)
    assert s.lower == pytest.approx(-2.944, abs=1e-3) and s.upper == pytest.approx(2.944, abs=1e-3)
    assert s.decision(3.0) == "H1" and s.decision(-3.0) == "H0" and s.decision(0.0) is None
    assert stats.Sprt.parse("-3,1,0.1,0.2").beta == 0.2
    for bad in ("5", "5,0", "a,b", "0,5,0.6,0.05"):
        with pytest.raises(ValueError):
            stats.Sprt.parse(bad)
    # More wins push the LLR up, more losses down.
    assert stats.gsprt_llr([60, 40, 100], 0, 10) > 0 > stats.gsprt_llr([40, 60, 100], 0, 10)


def _pair_probs(elo: float, draw: float) -> np.ndarray:
    """Pentanomial probabilities of a pair of independent games at ``elo``."""
    win = stats.elo_to_score(elo) - draw / 2
    game = np.array([1 - win - draw, draw, win])          # scores 0, 1/2, 1
    return np.convolve(game, game)


@pytest.mark.parametrize("truth, draw, wrong", [(100, 0.35, "H1"), (300, 0.2, "H0")])
def test_wide_sprt_keeps_its_error_rate_when_it_stops_after_few_pairs(truth, draw, wrong):
    """An SPRT with wide bounds, such as (100, 300), often decides after a handful of game
    pairs; simulated at either hypothesis it must still be wrong at most about alpha
    (0.05) of the time, or its early decisions would mean nothing."""
    test, rng, errors, runs = stats.Sprt(100, 300), np.random.default_rng(7), 0, 300
    p = _pair_probs(truth, draw)
    for _ in range(runs):
        counts = np.zeros(5, dtype=int)
        decision = None
        while decision is None and counts.sum() < 400:
            counts[rng.choice(5, p=p)] += 1
            decision = test.decision(test.llr(counts))
        errors += decision == wrong
    assert errors / runs <= 0.08


# --------------------------------------------------------------------------------------
# Openings
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_random_openings_are_seeded_and_legal(variant):
    a = random_opening(variant, 8, 3)
    assert a == random_opening(variant, 8, 3)
    assert a != random_opening(variant, 8, 4)
    board = board_class(variant)(a.fen)
    for mv in a.moves:
        board.push_uci(mv)              # python-chess raises on an illegal move
    assert len(a.moves) == 8 and board.outcome() is None


def test_openings_files(tmp_path):
    epd = tmp_path / "o.epd"
    epd.write_text("# two positions\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;c0 \"e4\"\n\n"
                   "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n")
    ops = read_openings(epd, "chess")
    assert [o.fen.split()[1] for o in ops] == ["b", "w"]
    pgn = tmp_path / "o.pgn"
    pgn.write_text('[Variant "Atomic"]\n\n1. e4 e5 2. Nf3 *\n\n[Variant "Atomic"]\n\n1. d4 *\n')
    ops = read_openings(pgn, "atomic")
    assert [o.moves for o in ops] == [("e2e4", "e7e5", "g1f3"), ("d2d4",)]
    with pytest.raises(OpeningError, match="game 1 is Atomic, not crazyhouse"):
        read_openings(pgn, "crazyhouse")
    bad = tmp_path / "bad.epd"
    bad.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen at all\n")
    with pytest.raises(OpeningError, match="bad.epd:2"):
        read_openings(bad, "chess")
    with pytest.raises(OpeningError, match="cannot read"):
        read_openings(tmp_path / "missing.epd", "chess")


# --------------------------------------------------------------------------------------
# Matches between internal players
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_short_match_between_internal_players(variant, tmp_path):
    pgn = tmp_path / "m.pgn"
    cfg = MatchConfig(variant, PlayerConfig("traditional", {"depth": 2}),
                      PlayerConfig("ones", {"depth": 1}), games=4, random_plies=4, pgn=str(pgn))
    summary = run_match(cfg)
    assert summary.games == 4 and summary.wins + summary.losses + summary.draws == 4
    games = []
    with open(pgn) as fh:
        while (g := chess.pgn.read_game(fh)) is not None:
            games.append(g)
    assert len(games) == 4
    for i, g in enumerate(games):
        assert not g.errors
        board = g.end().board()        # python-chess replays every move (legality)
        assert g.headers["Round"] == str(i + 1)
        assert g.headers["White"] == ("traditional" if i % 2 == 0 else "ones")
        if variant != "chess":
            assert type(board) is board_class(variant) or variant == "antichess"
        result = g.headers["Result"]
        assert result in ("1-0", "0-1", "1/2-1/2")
        outcome = board.outcome(claim_draw=True)
        if g.headers["Termination"] == "normal" and outcome is not None:
            assert outcome.result() == result
    # A pair shares its opening: the first book moves agree.
    first = [g.mainline_moves() for g in games[:2]]
    assert [m.uci() for m in list(first[0])[:4]] == [m.uci() for m in list(first[1])[:4]]
    data = summary.to_json()
    for key in ("games", "wins", "losses", "draws", "score", "elo", "elo_ci", "los",
                "sign_test_p", "illegal_moves", "crashes", "timeouts"):
        assert key in data


def _moves_and_results(pgn: Path) -> list[tuple[list[str], str]]:
    out = []
    with open(pgn) as fh:
        while (g := chess.pgn.read_game(fh)) is not None:
            out.append(([m.uci() for m in g.mainline_moves()], g.headers["Result"]))
    return out


def test_fixed_depth_matches_are_reproducible(tmp_path):
    runs = []
    for k in range(2):
        cfg = MatchConfig("atomic", PlayerConfig("traditional", {"depth": 2}),
                          PlayerConfig("ones", {"depth": 2}), games=4, seed=7,
                          pgn=str(tmp_path / f"{k}.pgn"))
        run_match(cfg)
        runs.append(_moves_and_results(tmp_path / f"{k}.pgn"))
    assert runs[0] == runs[1] and len(runs[0]) == 4


def test_match_cli_json_and_errors(tmp_path, capsys):
    pgn = tmp_path / "c.pgn"
    out = tmp_path / "s.json"
    assert main(["match", "traditional", "ones", "--variant", "crazyhouse", "--games", "2",
                 "--depth", "1", "--pgn", str(pgn), "--json", str(out), "--no-progress"]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 2 and data["a"] == "traditional"
    text = capsys.readouterr().out
    assert "Score of traditional vs ones" in text
    # One pair of games gives no pentanomial interval (it would have zero width).
    assert sum(data["pentanomial"]) == 1
    assert data["elo_pentanomial_ci"] is None and data["elo_pentanomial_note"] == "n/a (1 pair)"
    assert "over 1 pair: Elo n/a (1 pair)" in text
    # Each side's mean time per move, in JSON and text.
    assert data["moves"]["a"] > 0 and data["moves"]["b"] > 0
    assert data["time_per_move"]["a"] > 0 and data["time_per_move"]["b"] > 0
    assert "Time per move: traditional " in text and " s (" in text
    # The same file again without --resume is refused; bad input is a clear error.
    bad = [
        ["match", "traditional", "ones", "--pgn", str(pgn)],
        ["match", "nonsense", "ones", "--pgn", str(tmp_path / "x.pgn")],
        ["match", "traditional", "ones", "--variant", "shogi"],
        ["match", "traditional", "ones", "--option", "C.depth=3"],
        ["match", "traditional", "ones", "--option", "A.bogus=3", "--pgn", str(tmp_path / "y.pgn")],
        ["match", "traditional", "ones", "--option", "A.depth=-1", "--pgn", str(tmp_path / "z.pgn")],
        ["match", "traditional", "ones", "--sprt", "5,0"],
        ["match", "traditional", "ones", "--tc", "fast"],
        ["match", "traditional", "ones", "--resume"],
        ["match", "traditional", "uci:no-such-engine-here", "--pgn", str(tmp_path / "w.pgn")],
        ["match", str(tmp_path / "s.json"), "ones", "--pgn", str(tmp_path / "v.pgn")],
    ]
    for argv in bad:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "tdleaf: error:" in err, (argv, err)
    # A match that fails before its first game leaves no empty PGN behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.pgn", "s.json"]
    # A PGN that another match is writing is refused, and left as it was.
    before = pgn.read_bytes()
    with exclusive(pgn, "match"):
        assert main(["match", "traditional", "ones", "--variant", "crazyhouse", "--games", "4",
                     "--depth", "1", "--pgn", str(pgn), "--resume", "--no-progress"]) == 2
    assert "in use by another tdleaf match" in capsys.readouterr().err
    assert pgn.read_bytes() == before


def test_sprt_stops_a_one_sided_match(tmp_path):
    cfg = MatchConfig("suicide", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig("ones", {"depth": 1}), games=400,
                      sprt=stats.Sprt(0, 100), pgn=str(tmp_path / "s.pgn"))
    summary = run_match(cfg)
    assert summary.games < 400
    assert summary.decision == "H1" and summary.decided_at <= summary.games
    # The verdict names the likelier hypothesis, not a bound on the Elo.
    assert "H1 accepted (elo1 = 100 rather than 0)" in summary.report()


@pytest.mark.slow
def test_parallel_workers_play_every_game_once(tmp_path):
    """Two local workers play each game once, and the games of one process: a game's
    result depends on its index, not on the worker that played it."""
    games = {}
    for workers in (1, 2):
        pgn = tmp_path / f"p{workers}.pgn"
        cfg = MatchConfig("atomic", PlayerConfig("traditional", {"depth": 2}),
                          PlayerConfig("ones", {"depth": 2}), games=6,
                          backend=Backend(workers=workers), pgn=str(pgn))
        assert run_match(cfg).games == 6
        stored = read_games(pgn)
        assert sorted(g.round for g in stored) == [1, 2, 3, 4, 5, 6]
        games[workers] = {g.round: (g.result, g.plies) for g in stored}
    assert games[1] == games[2]


class _Scripted(Player):
    """A player with scripted scores, to check adjudication."""

    def __init__(self, name: str, score: float) -> None:
        self.name, self.limits, self.score = name, MoveLimits(), score
        self.inner = InternalPlayer("traditional", {"depth": 1})

    def start(self, variant: str) -> None:
        self.inner.start(variant)

    def play(self, pos, limits):
        answer = self.inner.play(pos, self.inner.limits)
        return MoveAnswer(answer.move, answer.seconds, score=self.score, depth=1)


def test_adjudication_rules():
    opening = random_opening("chess", 4, 1)
    white, black = _Scripted("w", 12.0), _Scripted("b", -12.0)
    for p in (white, black):
        p.start("chess")
    game = play_game(white, black, "chess", opening, adjudication=Adjudication(resign_moves=3))
    assert (game.result, game.termination) == ("1-0", "adjudication")
    assert len(game.plies) == 6                # three moves each
    # One-sided scores do not resign a game (two-sided rule): it runs to the ply limit
    # unless the rules end it first.
    neutral = _Scripted("b2", 0.0)
    neutral.start("chess")
    game = play_game(white, neutral, "chess", opening,
                     adjudication=Adjudication(resign_moves=3, max_plies=30))
    assert game.termination == "normal" or game.reason == "Draw by adjudication: move limit"
    quiet = _Scripted("q", 0.0)
    quiet.start("chess")
    game = play_game(quiet, quiet, "chess", opening,
                     adjudication=Adjudication(draw_moves=4, draw_from=0, draw_score=0.1))
    assert (game.result, game.reason) == ("1/2-1/2", "Draw by adjudication")
    assert len(game.plies) == 8
    game = play_game(white, black, "chess", opening, adjudication=Adjudication(max_plies=10))
    assert game.reason == "Draw by adjudication: move limit" and len(game.plies) == 6


def test_clock_parsing_and_time_forfeit():
    assert Clock.parse("60+1").base == 60 and Clock.parse("1:30+0.5").base == 90
    with pytest.raises(ValueError):
        Clock.parse("0+1")

    class Slow(Player):
        name, limits = "slow", MoveLimits()

        def play(self, pos, limits):
            return MoveAnswer(pos.legal_moves()[0], 0.5)

    fast = InternalPlayer("traditional", {"depth": 1})
    fast.start("chess")
    game = play_game(fast, Slow(), "chess", random_opening("chess", 2, 0),
                     clock=Clock(1.0, 0.0, margin=0.1))
    assert game.failure == "time forfeit" and game.result == "1-0"
    assert game.termination == "time forfeit"


# --------------------------------------------------------------------------------------
# Broken engines
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,failure", [("illegal", "illegal move"), ("die", "crash"),
                                          pytest.param("hang", "stall", marks=pytest.mark.slow),
                                          ("nomove", "no move")])
def test_broken_engine_loses_and_the_match_goes_on(mode, failure, tmp_path):
    pgn = tmp_path / f"{mode}.pgn"
    spec = f"uci:{sys.executable} {BROKEN} {mode} 2"
    cfg = MatchConfig("crazyhouse", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig(spec, {"timeout": 2}), games=4, pgn=str(pgn))
    summary = run_match(cfg)
    assert summary.games == 4
    assert summary.wins == 4                       # every game lost by the broken engine
    assert summary.failures(failure, of_a=False) == 4
    data = summary.to_json()
    key = {"illegal move": "illegal_moves", "crash": "crashes", "stall": "stalls",
           "no move": "no_moves"}[failure]
    assert data[key] == 4
    text = pgn.read_text()
    assert text.count(f'[Failure "{failure}"]') == 4
    assert len(read_games(pgn)) == 4


def test_a_disputed_move_is_reported_apart_and_not_scored(tmp_path):
    """An engine that refuses its opponent's legal move (Sjeng's castling in suicide)
    disputes the rules: the game ends "*", out of the score and of the pairs, and a
    resumed match neither replays nor counts it. Naming a move nobody played is the
    engine's own illegal move, a loss."""
    pgn = tmp_path / "d.pgn"
    cfg = MatchConfig("suicide", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig(f"xboard:{sys.executable} {DISPUTING} dispute 2", {}),
                      games=2, pgn=str(pgn))
    summary = run_match(cfg)
    assert summary.games == 0 and len(summary.outcomes) == 2
    assert summary.pentanomial() == [0] * 5
    data = summary.to_json()
    assert [d["game"] for d in data["disputes"]] == [1, 2]
    assert {d["refused_by"] for d in data["disputes"]} == {"Disputer"}
    assert data["illegal_moves"] == 0 and data["failures_of_b"]["dispute"] == 2
    assert "Rules disputes, left out of the score: 2 (Disputer refused a legal move in " \
           "games 1, 2)" in summary.report()
    text = pgn.read_text()
    assert text.count('[Result "*"]') == 2 and text.count('[Termination "rules dispute"]') == 2
    stored = read_games(pgn)
    assert [(g.result, g.failure) for g in stored] == [("*", "dispute")] * 2
    resumed = run_match(MatchConfig("suicide", cfg.a, cfg.b, games=4, pgn=str(pgn)), resume=True)
    assert len(resumed.outcomes) == 4 and resumed.games == 0
    assert [g.round for g in read_games(pgn)] == [1, 2, 3, 4]

    cfg = MatchConfig("suicide", cfg.a,
                      PlayerConfig(f"xboard:{sys.executable} {DISPUTING} confused 2", {}),
                      games=2, pgn=str(tmp_path / "c.pgn"))
    summary = run_match(cfg)
    assert summary.wins == 2 and summary.failures("illegal move", of_a=False) == 2


def test_a_dispute_scored_as_an_illegal_move_reads_as_a_dispute(tmp_path, capsys):
    """Files written before disputes were set apart scored them as the refuser's illegal
    move: their reader sets a refusal of the opponent's last move apart all the same
    (game 126 of the Sjeng baseline, runs/pns/sjeng-baseline), and leaves other illegal
    moves as they were."""
    game = """[Event "tdleaf match"]
[Round "{round}"]
[White "Sjeng 11.2"]
[Black "before-64"]
[Result "0-1"]
[Variant "Suicide"]
[PlyCount "24"]
[Termination "rules infraction"]
[Failure "illegal move"]

1. g4 d6 2. f4 Bxg4 3. Kf2 Bxe2 4. Qxe2 b5 {{book}} 5. Qxb5 {{0.347s}} Na6
{{1.005s}} 6. Qxa6 {{0.328s}} g5 {{1.003s}} 7. Qxd6 {{0.337s}} Qxd6 {{1.002s}} 8. fxg5
{{0.001s}} Qxh2 {{1.001s}} 9. Rxh2 {{0.001s}} Bh6 {{1.004s}} 10. Rxh6 {{1.339s}} Nxh6
{{1.004s}} 11. gxh6 {{0.001s}} Rc8 {{1.002s}} 12. d3 {{1.329s}} O-O {{1.002s}}
{{White makes an illegal move (Illegal move: {named})}} 0-1

"""
    pgn = tmp_path / "old.pgn"
    # Rounds 1, 3, 5: Sjeng has White in each, as player A of a match.
    pgn.write_text(game.format(round=1, named="e8g8") + game.format(round=3, named="O-O")
                   + game.format(round=5, named="a1a1"))
    stored = read_games(pgn)
    assert [(g.result, g.failure) for g in stored] == [
        ("*", "dispute"), ("*", "dispute"), ("0-1", "illegal move")]
    assert stored[0].white_to_move      # Sjeng, White, refused Black's castling
    # The same summary from the command line, which plays nothing with --summary.
    assert main(["match", "xboard:sjeng", "default", "--variant", "suicide", "--pgn", str(pgn),
                 "--summary", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 1 and data["wins"] == 0 and data["illegal_moves"] == 1
    assert data["disputes"] == [{"game": 1, "refused_by": "Sjeng 11.2"},
                                {"game": 3, "refused_by": "Sjeng 11.2"}]


def test_a_working_script_engine_plays_whole_games(tmp_path):
    cfg = MatchConfig("atomic", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig(f"uci:{sys.executable} {BROKEN} good", {}), games=2,
                      pgn=str(tmp_path / "g.pgn"), adjudication=Adjudication(max_plies=60))
    summary = run_match(cfg)
    assert summary.games == 2 and summary.to_json()["illegal_moves"] == 0


def test_a_uci_engine_is_ready_before_its_first_timed_move(tmp_path, monkeypatch):
    """A player waits for ``readyok`` when it starts, so that an engine's load (``tdleaf
    uci`` loads its compiled code after ``uciok``) is not on its first move's clock;
    an engine that never answers is not started."""
    log = tmp_path / "lines"
    player = make_player(f"uci:{sys.executable} {BROKEN} good 3 {log}")
    player.start("chess")
    try:
        lines = log.read_text().split()
        assert "isready" in lines and "go" not in lines
    finally:
        player.close()
    monkeypatch.setattr(engines, "READY_SECONDS", 1.0)
    with pytest.raises(PlayerError, match="not ready: TimeoutError"):
        make_player(f"uci:{sys.executable} {BROKEN} unready").start("chess")


def test_engine_that_does_not_play_the_variant_is_refused(tmp_path):
    cfg = MatchConfig("atomic", PlayerConfig("traditional", {}),
                      PlayerConfig(f"uci:{engine_path('fairy-stockfish')}", {}), games=2,
                      pgn=str(tmp_path / "a.pgn"))
    with pytest.raises(MatchError, match="does not play atomic"):
        run_match(cfg)


# --------------------------------------------------------------------------------------
# Real engines
# --------------------------------------------------------------------------------------

def _real_match(tmp_path, variant, spec, settings, games=2):
    cfg = MatchConfig(variant, PlayerConfig("traditional", {"depth": 2}),
                      PlayerConfig(spec, settings), games=games,
                      pgn=str(tmp_path / "r.pgn"), adjudication=Adjudication(max_plies=120))
    summary = run_match(cfg)
    assert summary.games == games
    data = summary.to_json()
    assert data["illegal_moves"] == data["crashes"] == data["stalls"] == 0
    for g in read_games(tmp_path / "r.pgn"):
        assert g.failure is None
    return summary


@pytest.mark.parametrize("variant", ["crazyhouse", "suicide"])
def test_games_against_sjeng(variant, tmp_path):
    engine_path("sjeng")
    _real_match(tmp_path, variant, "xboard:sjeng", {"depth": 2})


def _sjeng_answer(pos: Position, limits: MoveLimits) -> MoveAnswer:
    """The real Sjeng's answer to one position, as the referee sees it."""
    player = make_player("xboard:sjeng")
    try:
        player.start(pos.variant)
        player.new_game(1)
        return player.play(pos, limits)
    finally:
        player.close()


def test_sjengs_queen_from_a_captured_promoted_queen_is_refused():
    """Sjeng 11.2 counts a promoted queen it captures as a queen in hand (python-chess, the
    oracle, returns it as a pawn): seen twice in 200 games at 1 s a move. Every move
    reaches Sjeng as played, from the start position, so the bookkeeping is its own. The
    game goes on until Black (Sjeng) is in check with nothing but a drop on f7 to answer
    it: the rules allow P@f7, Sjeng's only move is Q@f7, which it plays at once (one
    legal move: no search), and the referee must call it illegal."""
    engine_path("sjeng")
    sans = ["Nh3", "b5", "f3", "b4", "Nc3", "h5", "f4", "c6", "Nb1", "d5", "g3", "h4", "d3", "hxg3", "hxg3", "Rxh3", "Bxh3", "Bxh3", "Rxh3", "B@a5", "@h7", "@g2", "Kf2", "Nh6", "h8=Q", "Ng4+", "Kf3", "Nd7", "B@g1", "N@g6", "Kxg4", "Nxh8", "Rxh8", "Qc8", "Kf3", "Bb6", "Bxb6", "f6", "B@g6+"]
    board = chess.variant.CrazyhouseBoard()
    pos = Position.from_fen(board.fen(), "crazyhouse")
    for san in sans:
        pos.push_uci(board.push_san(san).uci())
    assert str(board.pockets[chess.BLACK]) == "p"          # the queen came back as a pawn
    assert [board.san(m) for m in board.legal_moves] == ["@f7"]
    answer = _sjeng_answer(pos, MoveLimits(depth=6))
    assert answer.error == "illegal move" and "Q@f7" in answer.detail, answer


def test_sjengs_claim_of_its_own_loss_ends_its_turn_without_a_move():
    """Sjeng 11.2, to move where every move loses (suicide: each of its moves captures
    Black's last piece), claims "0-1" instead of moving: 24 of 200 games at 1 s a move
    ended so. It does so whenever its search reaches 3 plies (at 1 or 2 it plays; depth
    6 takes it milliseconds here). The referee scores it as a move not made (the claimer
    loses) and says why."""
    engine_path("sjeng")
    fen = "8/8/8/3R4/8/5p2/1PPPPK2/2BQ1B2 w - - 0 21"
    assert chess.variant.SuicideBoard(fen).legal_moves.count() == 2     # Kxf3, exf3
    answer = _sjeng_answer(Position.from_fen(fen, "suicide"), MoveLimits(depth=6))
    assert answer.error == "no move" and "claimed a result" in answer.detail, answer


@pytest.mark.parametrize("variant", ["chess", "crazyhouse", "giveaway"])
def test_games_against_fairy_stockfish(variant, tmp_path):
    engine_path("fairy-stockfish")
    _real_match(tmp_path, variant, "uci:fairy-stockfish", {"depth": 2, "Hash": 16})


def test_an_engines_settings_are_in_every_games_headers_and_the_summary(tmp_path, capsys):
    """The opponent's strength is on record with its games: its limits and options
    (UCI_LimitStrength, UCI_Elo, Threads) in each game's WhiteSettings or BlackSettings
    tag and in the match summary, text and JSON; a resumed match with other settings is
    another match, and is refused."""
    engine_path("fairy-stockfish")
    pgn, js = tmp_path / "s.pgn", tmp_path / "s.json"
    argv = ["match", "traditional", "uci:fairy-stockfish", "--variant", "chess", "--games", "2",
            "--max-plies", "30", "--no-progress", "--pgn", str(pgn), "-o", "A.depth=1",
            "-o", "B.movetime=0.05", "-o", "B.uci_limitstrength=true", "-o", "B.UCI_Elo=2200",
            "-o", "B.Threads=1"]
    assert main([*argv, "--json", str(js)]) == 0
    text = capsys.readouterr().out
    engine = "movetime=0.05 UCI_LimitStrength=true UCI_Elo=2200 Threads=1"
    assert "Settings: traditional: depth=1; " in text and engine in text
    assert json.loads(js.read_text())["settings"] == {"a": "depth=1", "b": engine}
    games = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert games is not None and games.headers["BlackSettings"] == engine
    assert games.headers["WhiteSettings"] == "depth=1"
    stored = read_games(pgn)
    assert [(g.white_settings, g.black_settings) for g in stored] == \
        [("depth=1", engine), (engine, "depth=1")]
    assert main([*argv[:-2], "-o", "B.Threads=2", "--games", "4", "--resume"]) == 2
    assert "played with movetime=0.05" in capsys.readouterr().err


def _series_match(tmp_path: Path, k: int, options: dict,
                  backend: Backend | None = None) -> MatchConfig:
    """Match ``k`` of a series against Fairy-Stockfish at ``options`` (a ladder's batch)."""
    return MatchConfig("chess", PlayerConfig("traditional", {"depth": 1, "name": "tdleaf d1"}),
                       PlayerConfig("uci:fairy-stockfish", {"depth": 1, **options,
                                                            "name": f"fsf {k}"}),
                       games=2, adjudication=Adjudication(max_plies=16),
                       backend=backend or Backend(), pgn=str(tmp_path / f"{k}.pgn"))


def test_a_pool_plays_a_series_of_matches_against_one_engine_retuned(tmp_path):
    """The matches of a MatchPool (a ladder's batches) keep their players: the engine
    started once takes each match's options on the way (the UCI_Elo the engine holds,
    the name and settings each PGN records), and one started afresh where a match leaves
    out an option set before, which UCI cannot unset."""
    engine_path("fairy-stockfish")
    with MatchPool(Backend()) as pool:
        run_match(_series_match(tmp_path, 1, {"UCI_LimitStrength": True, "UCI_Elo": 1400}),
                  pool=pool)
        side = pool.seat.side
        assert side is not None
        first = side.b.process.pid
        summary = run_match(_series_match(tmp_path, 2, {"UCI_LimitStrength": True,
                                                        "UCI_Elo": 2000}), pool=pool)
        assert side.b.process.pid == first
        assert side.b.engine.protocol.config["UCI_Elo"] == 2000
        assert summary.b == "fsf 2"
        assert {(g.white, g.black_settings) for g in read_games(tmp_path / "2.pgn")} == \
            {("tdleaf d1", "depth=1 UCI_LimitStrength=true UCI_Elo=2000"),
             ("fsf 2", "depth=1")}
        run_match(_series_match(tmp_path, 3, {"Skill Level": 3}), pool=pool)
        assert pool.seat.side is side and side.b.process.pid != first
        config = side.b.engine.protocol.config
        assert (config["UCI_LimitStrength"], config["Skill Level"]) == (False, 3)
    assert pool.seat.side is None


def test_a_retuned_engine_plays_at_its_new_setting():
    """Fairy-Stockfish at full strength (one thread, a node limit) plays the same moves
    as a fresh one; retuned to UCI_Elo 1350 without a restart, it plays weaker ones
    (its skill picks another move in most of these positions: 2 to 7 of 20 agreed)."""
    engine_path("fairy-stockfish")
    positions = []
    for seed in range(20):
        opening = random_opening("chess", 10, 1000 + seed)
        pos = Position.from_fen(opening.fen, "chess")
        for move in opening.moves:
            pos.push_uci(move)
        positions.append(pos)

    def moves(player: ExternalPlayer) -> list[str | None]:
        out = []
        for k, pos in enumerate(positions):
            player.new_game(k)
            out.append(player.play(pos, MoveLimits(nodes=3000)).move)
        return out

    full = ExternalPlayer("uci:fairy-stockfish", {"Threads": 1})
    kept = ExternalPlayer("uci:fairy-stockfish", {"Threads": 1, "UCI_LimitStrength": False,
                                                  "UCI_Elo": 1350})
    try:
        full.start("chess")
        kept.start("chess")
        best = moves(full)
        assert moves(kept) == best
        pid = kept.process.pid
        assert kept.retune({"Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": 1350})
        assert kept.process.pid == pid
        assert sum(a == b for a, b in zip(moves(kept), best)) < 15
        assert not kept.retune({"Threads": 1})          # UCI cannot unset an option
    finally:
        full.close()
        kept.close()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_a_pools_workers_start_their_engines_once_for_a_series(tmp_path):
    """Three matches on two workers: one Fairy-Stockfish in each worker and one in this
    process (to check each match's players), not three a match."""
    engine_path("fairy-stockfish")
    backend = Backend(workers=2)
    with Descendants("fairy-stockfish") as ours, MatchPool(backend) as pool:
        for k, elo in enumerate((1400, 1700, 2000)):
            run_match(_series_match(tmp_path, k, {"UCI_LimitStrength": True, "UCI_Elo": elo},
                                    backend), pool=pool)
            played = {s for g in read_games(tmp_path / f"{k}.pgn")
                      for s in (g.white_settings, g.black_settings)}
            assert played == {"depth=1", f"depth=1 UCI_LimitStrength=true UCI_Elo={elo}"}
    assert len(ours.seen) == 3, ours.seen
    assert not still_running(ours.seen)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and setpriv")
def test_an_engine_dies_with_the_process_that_started_it():
    """A worker killed without closing its engines (kill -9, terminate) takes them along:
    left alone, Sjeng with its input closed spins at a fifth of a CPU for ever."""
    child = [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(120)"]
    assert engines.dies_with_parent(child)[-len(child):] == child
    # The parent exits only once the engine runs: setpriv sets the death signal before
    # it starts the engine, and a parent gone before that (a busy machine) is missed.
    # The engine's output goes to the parent's pipes, not ours, so a survivor cannot
    # hold subprocess.run up.
    script = ("import os, subprocess, sys; from tdleaf.play.engines import dies_with_parent; "
              f"p = subprocess.Popen(dies_with_parent({child!r}), stdout=subprocess.PIPE, "
              "stderr=subprocess.DEVNULL); p.stdout.readline(); print(p.pid, flush=True); "
              "os._exit(0)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    pid = int(out.stdout.split()[0])
    assert not still_running({pid}), "the engine outlived the process that started it"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_no_engine_outlives_a_parallel_match(tmp_path):
    """Only the Sjeng processes this match started count (those below this process
    while it runs), not any other Sjeng on the machine. (Crazyhouse, to 120 plies: in
    suicide Sjeng spends 3-9 s on a move at depth 2.)"""
    engine_path("sjeng")
    cfg = MatchConfig("crazyhouse", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig("xboard:sjeng", {"depth": 2}), games=4, backend=Backend(workers=2),
                      pgn=str(tmp_path / "p.pgn"), adjudication=Adjudication(max_plies=120))
    with Descendants("sjeng") as ours:
        assert run_match(cfg).games == 4
    # One Sjeng in each worker (the one started to check the specs may come and go
    # between two looks).
    assert len(ours.seen) >= 2, ours.seen
    assert not still_running(ours.seen)


@pytest.mark.slow
def test_games_against_the_wasm_fairy_stockfish_in_atomic(tmp_path):
    require_engine(engines.WASM_ALIAS)
    _real_match(tmp_path, "atomic", "uci:fairy-stockfish-wasm", {"depth": 2})


def test_player_specs():
    with pytest.raises(PlayerError):
        make_player("uci:")
    with pytest.raises(PlayerError, match="not found"):
        make_player("xboard:/no/such/engine")
    with pytest.raises(PlayerError, match="unknown player"):
        make_player("/no/such/weights.json")
    with pytest.raises(PlayerError, match="unknown setting"):
        make_player("traditional", {"Hash": 16})
    assert make_player("traditional", {"name": "T"}).name == "T"
    with pytest.raises(PlayerError, match="random_ties must be 1 or 0"):
        make_player("traditional", {"random_ties": "maybe"})
    with pytest.raises(PlayerError, match="not MCTS"):
        make_player("traditional", {"random_ties": "1", "search": "mcts"})


def test_mcts_players_take_the_u_divisor_schedule_and_check_enhancement():
    player = make_player("traditional", {"search": "mcts", "playouts": "8",
                                         "u_min_divisor": "0.25", "check_factor": "0.5"})
    player.start("crazyhouse")
    assert player.mcts.settings.u_min_divisor == 0.25
    assert player.mcts.settings.check_factor == 0.5
    plain = make_player("traditional", {"search": "mcts", "playouts": "8"})
    plain.start("crazyhouse")
    assert plain.mcts.settings.u_min_divisor is None and plain.mcts.settings.check_factor == 0
    with pytest.raises(PlayerError, match="add search=mcts"):
        make_player("traditional", {"check_factor": "0.5"})
    with pytest.raises(PlayerError, match="check_factor is a factor"):
        make_player("traditional", {"search": "mcts", "check_factor": "2"})
    with pytest.raises(PlayerError, match="u_min_divisor must be > 0"):
        make_player("traditional", {"search": "mcts", "u_min_divisor": "0"})


def test_random_ties_vary_a_players_moves_by_the_games_seed():
    # From the initial position every move of the traditional values scores 0 at depth 1:
    # with random_ties the game's seed picks among them (and the same seed the same
    # move), without it the player always takes the same one.
    start = Position.from_fen(None, "chess")

    def moves(settings: dict, seeds: range) -> list[str]:
        player = make_player("traditional", {"depth": 1, **settings})
        player.start("chess")
        out = []
        for seed in seeds:
            player.new_game(seed)
            out.append(player.play(start, player.limits).move)
        return out

    assert len(set(moves({}, range(12)))) == 1
    varied = moves({"random_ties": "1"}, range(12))
    assert len(set(varied)) > 3
    assert moves({"random_ties": "true"}, range(12)) == varied


# --------------------------------------------------------------------------------------
# Kill and resume
# --------------------------------------------------------------------------------------

def _cli() -> list[str]:
    return [sys.executable, "-m", "tdleaf"]


@pytest.mark.slow
def test_killed_match_leaves_a_valid_pgn_and_resumes(tmp_path):
    pgn = tmp_path / "k.pgn"
    argv = ["match", "traditional", "ones", "--variant", "atomic", "--depth", "3", "--pgn",
            str(pgn), "--no-progress"]
    proc = subprocess.Popen(_cli() + argv + ["--games", "400"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(read_games(pgn)) < 3 and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    before = read_games(pgn)
    assert 3 <= len(before) < 12
    with open(pgn) as fh:                        # python-chess reads every game
        n = 0
        while (g := chess.pgn.read_game(fh)) is not None:
            assert not g.errors
            n += 1
    assert n == len(before)
    # A torn last game (a crash in mid-write) is cut off on resume.
    with open(pgn, "a") as fh:
        fh.write('[Event "tdleaf match"]\n[Round "99"]\n\n1. e4 e5 2.')
    done = subprocess.run(_cli() + argv + ["--games", "12", "--resume"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    after = read_games(pgn)
    assert sorted(g.round for g in after) == list(range(1, 13))
    assert [g.round for g in after[:len(before)]] == [g.round for g in before]
    assert 'Round "99"' not in pgn.read_text()
    assert "Score of traditional vs ones" in done.stdout and " 12\n" in done.stdout
    # Resuming a complete match plays nothing more; a different match is refused.
    again = subprocess.run(_cli() + argv + ["--games", "12", "--resume"], capture_output=True,
                           text=True, cwd=tmp_path, timeout=600, check=False)
    assert again.returncode == 0 and len(read_games(pgn)) == 12
    other = subprocess.run(_cli() + ["match", "ones", "traditional", "--variant", "atomic",
                                     "--pgn", str(pgn), "--resume"], capture_output=True,
                           text=True, cwd=tmp_path, timeout=600, check=False)
    assert other.returncode == 2 and "not the same match" in other.stderr


@pytest.mark.parametrize("cp, mate", [(100003, 3), (-100002, -2), (999990, 5), (999994, 3),
                                      (-999993, -4), (250, None)])
def test_engine_mate_scores_in_both_xboard_conventions(cp, mate):
    """python-chess reads 100000 + n as mate in n; Sjeng posts 1000000 - plies to mate."""
    info = chess.engine._parse_xboard_post(f"6 {cp} 100 12345 e2e4", chess.Board())
    pawns, got = engines.xboard_score(info, chess.WHITE)
    assert got == mate
    assert pawns == (2.5 if mate is None else math.copysign(100.0, mate))


# --------------------------------------------------------------------------------------
# Summaries: intervals, times, errors
# --------------------------------------------------------------------------------------

def _summary(pair_points: list[float], timed: bool = False,
             times: tuple[float, float] = (0.5, 0.5)) -> Summary:
    """A summary of game pairs scoring ``pair_points`` for A (0, 0.5, ..., 2), each game
    with ten moves a side at ``times`` seconds a move."""
    s = Summary("A", "B", "chess", timed=timed)
    split = {0: (0, 0), 0.5: (0.5, 0), 1: (0.5, 0.5), 1.5: (1, 0.5), 2: (1, 1)}
    for k, points in enumerate(pair_points):
        for g, score in enumerate(split[points]):
            white = 1.0 if score == 1 else 0.0 if score == 0 else 0.5
            a_white = g == 0
            result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white if a_white else 1 - white]
            s.record(GameOutcome(2 * k + g, a_white, result, a_time=(10, 10 * times[0]),
                                 b_time=(10, 10 * times[1])))
    return s


def test_pentanomial_interval_needs_two_pairs_with_variance():
    one = _summary([2])
    assert one.pentanomial() == [0, 0, 0, 0, 1]
    data = one.to_json()
    assert data["elo_pentanomial"] is None and data["elo_pentanomial_ci"] is None
    assert data["elo_pentanomial_note"] == "n/a (1 pair)"
    assert "over 1 pair: Elo n/a (1 pair)" in one.report()
    same = _summary([1, 1, 1]).to_json()
    assert same["elo_pentanomial_ci"] is None
    assert same["elo_pentanomial_note"] == "n/a (every pair scored 1 of 2 points)"
    # Every game drawn: no trinomial interval either, and no "-0.0".
    report = _summary([1, 1, 1]).report()
    assert "every game drawn: no interval" in report and "-0.0" not in report
    assert _summary([1, 1, 1]).to_json()["elo_ci"] == [None, None]
    mixed = _summary([2, 1, 0.5])
    data = mixed.to_json()
    low, high = data["elo_pentanomial_ci"]
    assert data["elo_pentanomial_note"] is None and low < data["elo_pentanomial"] < high
    assert "over 3 pairs: Elo +" in mixed.report()


def test_time_per_move_and_the_unfair_time_warning():
    fair = _summary([1, 2], timed=True, times=(0.5, 0.6))
    assert fair.time_per_move() == pytest.approx((0.5, 0.6)) and fair.moves() == (40, 40)
    assert fair.time_warning() is None and fair.to_json()["warnings"] == []
    assert "Time per move: A 0.500 s (40 moves), B 0.600 s (40 moves)" in fair.report()
    unfair = _summary([1, 2], timed=True, times=(0.5, 6.5))
    warning = unfair.time_warning()
    assert warning is not None and warning.startswith("B took 6.5 s a move and A 0.5 s")
    assert unfair.to_json()["warnings"] == [warning]
    assert f"Warning: {warning}" in unfair.report()
    # A match limited by depth has no time to agree on.
    assert _summary([1], timed=False, times=(0.5, 6.5)).time_warning() is None


def test_a_match_is_timed_only_when_both_players_are_limited_by_time():
    def cfg(a: dict, b: dict, tc: str | None = None) -> MatchConfig:
        return MatchConfig("chess", PlayerConfig("traditional", a), PlayerConfig("ones", b), tc=tc)
    assert cfg({"movetime": 0.5}, {"movetime": 0.5}).timed
    assert not cfg({"movetime": 0.5}, {"depth": 3}).timed
    assert not cfg({"movetime": 0.5, "depth": 3}, {"movetime": 0.5}).timed
    assert cfg({"depth": 3}, {}, tc="10+0.1").timed


def test_a_resumed_match_reads_the_times_back_from_the_pgn(tmp_path):
    pgn = tmp_path / "t.pgn"
    cfg = MatchConfig("crazyhouse", PlayerConfig("traditional", {"depth": 2}),
                      PlayerConfig("ones", {"depth": 1}), games=2, pgn=str(pgn))
    played = run_match(cfg)
    resumed = run_match(cfg, resume=True)       # nothing left to play: all from the PGN
    assert resumed.moves() == played.moves() and min(played.moves()) > 0
    assert resumed.time_per_move() == pytest.approx(played.time_per_move(), abs=1e-3)


def test_a_corrupt_weights_file_is_named_once(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text('{"values": [1, 2')
    assert main(["match", str(bad), "traditional", "--games", "2", "--depth", "1",
                 "--pgn", str(tmp_path / "m.pgn"), "--no-progress"]) == 2
    error = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(error) == 1 and "corrupt weights file" in error[0], error
    assert error[0].count(str(bad)) == 1, error


def test_sjengs_commands():
    """What Sjeng reads for what python-chess sends it: pockets split off the FEN, and a
    fraction of a second as a clock that allots it (st would read 0: no limit)."""
    fen = "r1b1kb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R"
    assert engines.sjeng_lines(f"setboard {fen}[QPn] w KQkq - 0 5") == [
        f"setboard {fen} w KQkq - 0 5", "holding [QP] [N]"]
    assert engines.sjeng_lines(f"setboard {fen.replace('B1P3', 'Q~1P3')}[] b - - 0 9") == [
        f"setboard {fen.replace('B1P3', 'Q1P3')} b - - 0 9", "holding [] []"]
    assert engines.sjeng_lines("setboard " + chess.STARTING_FEN) == ["setboard " + chess.STARTING_FEN]
    assert engines.sjeng_lines("st 2") == ["st 2"] == engines.sjeng_lines("st 2.0")
    # 100 moves in 130 s: Sjeng gives a move 13000 / 100 - 100 = 30 centiseconds.
    assert engines.sjeng_lines("st 0.3") == ["level 100 2:10 0", "time 1000"]
    assert engines.sjeng_lines("st 1.5") == ["level 100 4:10 0", "time 1000"]
    assert engines.sjeng_lines("sd 4") == ["sd 4"]


def test_sjengs_statistics_are_read_in_the_engine_module():
    """Sjeng prints its statistics outside the protocol (kept by EngineLog): the last
    Nodes and NPS lines count, and its proof-number search is recognised."""
    lines = ["Nodes: 100", "NPS: 5", "ply 3", "Nodes: 12345", "NPS: 67890"]
    assert engines.sjeng_statistics(lines) == {"nodes": 12345, "nps": 67890,
                                               "proof_number_search": False, "forced_win": False}
    solved = engines.sjeng_statistics(["Running proof number search...", "Forced win!"])
    assert solved == {"nodes": None, "nps": None, "proof_number_search": True, "forced_win": True}


def test_the_line_client_reads_an_engines_lines_as_they_come():
    """LineEngine, the raw client (go perft, tdleaf uci's start-up and memory): lines
    with the time they were read, a timeout and an exit as EngineError."""
    script = ("import sys\nfor line in sys.stdin:\n    print('echo ' + line.strip(), flush=True)\n"
              "    if line.strip() == 'quit': break\n")
    with engines.LineEngine([sys.executable, "-c", script], first_input=b"hello\n") as proc:
        assert proc.until(lambda s: s.startswith("echo hello"), 30) == ["echo hello"]
        proc.send("one")
        at, line = proc.read(time.perf_counter() + 30)
        assert line == "echo one" and at >= proc.started
        with pytest.raises(engines.EngineError, match="no answer"):
            proc.read(time.perf_counter() + 0.2)
        proc.send("quit")
        assert proc.read(time.perf_counter() + 30)[1] == "echo quit"
        with pytest.raises(engines.EngineError, match="exited"):
            proc.read(time.perf_counter() + 30)


@pytest.mark.slow
def test_sjeng_gets_the_move_time_it_is_asked_for(tmp_path):
    """At 0.3 s a move python-chess sends Sjeng 'st 0.3', which it read as no limit (6.5 s
    a move on its default clock). Now it says it allots itself 30 centiseconds, takes about
    that (a generous band: the machine may be busy) and the summary has both sides' times."""
    engine_path("sjeng")
    cfg = MatchConfig("crazyhouse", PlayerConfig("traditional", {"movetime": 0.3}),
                      PlayerConfig("xboard:sjeng", {"movetime": 0.3}), games=2,
                      pgn=str(tmp_path / "s.pgn"), adjudication=Adjudication(max_plies=28))
    with engines.EngineLog(keep=True) as log:     # Sjeng's own words
        summary = run_match(cfg)
    allotted = {line for line in log.lines if line.startswith("Time for move")}
    assert allotted == {"Time for move : 30"}, allotted
    data = summary.to_json()
    a, b = data["time_per_move"]["a"], data["time_per_move"]["b"]
    assert data["timed"] and data["moves"]["b"] >= 8
    assert 0.1 <= b <= 0.9, b
    assert a > 0
    assert f"Time per move: traditional {a:.3f} s" in summary.report()
    assert f"Sjeng 11.2 {b:.3f} s" in summary.report()


def test_wasm_fairy_stockfish_is_named_by_its_folder_or_its_uci_js(tmp_path, monkeypatch):
    """TDLEAF_FSF_WASM has one meaning, the npm package, given as its folder or its
    uci.js; pointing at anything else is an error, not a silent fall-back."""
    require_engine("node")
    package = tmp_path / engines.WASM_PACKAGE
    package.mkdir()
    (package / "uci.js").write_text("// stand-in\n")
    for value in (package, package / "uci.js"):
        monkeypatch.setenv(engines.WASM_ENV, str(value))
        command = engines.fairy_stockfish_wasm_command()
        assert command is not None and command[-1] == str(package / "uci.js")
        assert engines.resolve_command([engines.WASM_ALIAS])[-1] == str(package / "uci.js")
    monkeypatch.setenv(engines.WASM_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(engines.EngineNotFound, match="TDLEAF_FSF_WASM"):
        engines.fairy_stockfish_wasm_command()
    with pytest.raises(PlayerError, match="TDLEAF_FSF_WASM"):
        make_player("uci:fairy-stockfish-wasm")


def test_the_resign_rule_needs_both_sides_streaks_unbroken():
    """ResignRule (play_game's, and runs/strength/resign_rule.py's replays): a side
    loses once it has scored itself lost, and its opponent won, for N own moves in a
    row each; a move without a score breaks its mover's streak; N = 0 is off."""
    from tdleaf.play.game import ResignRule
    rule = ResignRule(2, 10.0)
    moves = [(chess.WHITE, 11.0), (chess.BLACK, -10.0), (chess.WHITE, None),
             (chess.BLACK, -12.0), (chess.WHITE, 10.5), (chess.BLACK, -30.0),
             (chess.WHITE, 11.0)]          # white's streak, broken, is two again only here
    assert [rule.loser(side, score) for side, score in moves] == [None] * 6 + [chess.BLACK]
    rule = ResignRule(2, 10.0)
    assert [rule.loser(side, score) for side, score in moves[:2] + [(chess.WHITE, 12.0)]] \
        == [None, None, None]                   # black's one move: not yet
    off = ResignRule(0, 10.0)
    assert all(off.loser(side, -99.0 if side else 99.0) is None
               for side in [chess.WHITE, chess.BLACK] * 4)


def test_a_scored_move_comment_reads_back():
    """tdleaf.play.pgn.scored_comment reads what the match writes after a move (the
    closing words python-chess joins after the last one included); a move without a
    score reads as None."""
    from tdleaf.play.pgn import scored_comment
    assert scored_comment("+0.35/5 0.120s") == (0.35, 5, 0.12)
    assert scored_comment("-M3/12 0.101s White mates") == (-1000.0, 12, 0.101)
    assert scored_comment("book") is None and scored_comment("0.120s") is None
