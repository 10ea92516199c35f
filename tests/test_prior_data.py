"""The labelled positions `tdleaf bench prior` ships (search/data/prior_<variant>.epd, made
by tdleaf.play.labels): one file per rule set, each position legal to python-chess
with a legal label move and a game result; positions of the four lichess variants added
last made afresh; `tdleaf bench prior` on them; and the Fairy-Stockfish quirk that making
racing kings' positions runs into."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import chess
import chess.engine
import chess.variant
import pytest

from search import shipped
from search.mcts.prior import fitted_temperature, fitted_win_logit
from tdleaf.play import labels as prior_data
from tdleaf.play.engines import EngineLog

from helpers_engines import engine_path, require_engine
from helpers_search import new_board
from helpers_tiers import costly_in_full_tier

NEW = ("kingofthehill", "3check", "racingkings", "horde")


@contextmanager
def engine_errors() -> Iterator[list[logging.LogRecord]]:
    """The errors python-chess's engine logger logs meanwhile."""
    errors: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append            # type: ignore[method-assign]
    logger = logging.getLogger("chess.engine")
    logger.addHandler(handler)
    try:
        yield errors
    finally:
        logger.removeHandler(handler)


def test_every_rule_set_has_labelled_positions():
    assert set(NEW) <= set(prior_data.VARIANTS) == set(prior_data.LABEL_DEPTH)
    for v in prior_data.VARIANTS:
        assert (shipped.package_data_dir() / prior_data.epd_name(v)).is_file(), v


@pytest.mark.parametrize("variant", costly_in_full_tier(prior_data.VARIANTS, ("crazyhouse", "atomic")))
def test_shipped_positions_are_legal_and_labelled(variant):
    """Each shipped position: a FEN python-chess reads and writes back unchanged, a game
    not over, the label move legal there, the result 0, 0.5 or 1 for the side to move."""
    path = shipped.package_data_dir() / prior_data.epd_name(variant)
    header = [line for line in path.read_text().splitlines() if line.startswith("#")]
    n = prior_data.POSITIONS.get(variant, prior_data.DEFAULT_POSITIONS)
    assert header[0].startswith(f"# {variant}: {n} positions")
    assert f"at depth {prior_data.LABEL_DEPTH[variant]}" in header[0]
    rows = prior_data.read_labelled(path)
    assert len(rows) == n
    for r in rows:
        board = new_board(variant, r.fen)
        assert board.fen() == r.fen and board.is_valid(), r.fen
        assert board.outcome(claim_draw=True) is None, r.fen
        assert chess.Move.from_uci(r.bm) in board.legal_moves, (r.fen, r.bm)
        assert r.result in (0.0, 0.5, 1.0) and r.game >= 1 and r.ply >= 2
    assert {0.0, 1.0} <= {r.result for r in rows}          # wins and losses (crazyhouse: no draw)


def test_three_check_positions_carry_their_counters():
    rows = prior_data.read_labelled(shipped.package_data_dir() / prior_data.epd_name("3check"))
    counters = {r.fen.split()[4] for r in rows}
    assert all(c[0] in "123" and c[1] == "+" and c[2] in "123" for c in counters)
    assert len(counters) > 3                # checks were given in these games


def test_labelled_positions_of_racing_kings():
    """Engine games to their end, labelled at a low depth, with nothing logged: Fairy-
    Stockfish's ponder moves after a won race are dropped (tdleaf.play.engines)."""
    require_engine("fairy-stockfish")
    with engine_errors() as errors:
        rows = prior_data.make_positions("racingkings", 4, seed=3, label_depth=4)
    assert len(rows) == 4 and not errors
    for r in rows:
        board = chess.variant.RacingKingsBoard(r.fen)
        assert chess.Move.from_uci(r.bm) in board.legal_moves and r.result in (0, 0.5, 1)


def test_engine_log_drops_fairy_stockfishs_ponder_after_a_won_race():
    """Black's king steps onto the 8th rank and wins; Fairy-Stockfish 11.1 names a white
    reply as its ponder move, which python-chess refuses with a logged error."""
    path = engine_path("fairy-stockfish")
    board = chess.variant.RacingKingsBoard("8/1k6/8/8/8/8/8/6K1 b - - 0 1")
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        for filtered in (False, True):
            with engine_errors() as errors:
                log = EngineLog().attach() if filtered else None
                try:
                    result = engine.play(board, chess.engine.Limit(depth=4), game=object())
                finally:
                    if log is not None:
                        log.detach()
            assert result.move in board.legal_moves and result.ponder is None
            board.push(result.move)
            assert board.is_variant_loss()          # white's: black's king is home first
            board.pop()
            messages = [str(e.msg) for e in errors]
            assert messages == ([] if filtered else ["Engine sent invalid ponder move"])


@pytest.mark.parametrize("variant", ["kingofthehill"])
def test_bench_prior_on_a_new_variant(variant):
    """The prior beats the uniform policy and the capture/check heuristic on the positions
    of a variant added last; without a stored temperature it is measured at the fitted one."""
    from tdleaf.bench.prior import bench_prior, format_report

    report = bench_prior([variant], [0], mcts=False)
    (r,) = report["results"]
    stored = fitted_temperature(variant, None, 0)
    assert r["temperature_stored"] == stored
    assert r["temperature_used"] == (r["temperature_mle"] if stored is None else stored)
    p, u, c = r["prior"], r["uniform"], r["capture_check"]
    assert p["top1"] > c["top1"] > u["top1"] and p["loglik"] > c["loglik"] > u["loglik"]
    assert "Fairy-Stockfish 11.1 (Debian) depth 10" == r["label"]
    assert f"| {variant} | 0 | 400 |" in format_report(report)
    from search.mcts.prior import MIN_WIN_LOGIT, WIN_LOGIT

    assert MIN_WIN_LOGIT <= r["win_logit_mle"] <= WIN_LOGIT
    assert r["win_logit_used"] == (r["win_logit_mle"] if stored is None else
                                   fitted_win_logit(variant, None, 0) or WIN_LOGIT)
    assert "| T fitted | W fitted | T used | W used |" in format_report(report)
