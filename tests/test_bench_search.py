"""`tdleaf bench search`: the report's structure on a quick run, the python-chess
baseline searcher and the position set. No timing is asserted: the machine may be busy."""

from __future__ import annotations

import json

import chess
import pytest

import variants
from tdleaf.bench.positions import KINDS, POSITIONS, SEARCH_VARIANTS, positions
from tdleaf.bench.python_chess_search import PythonChessSearch
from tdleaf.cli import main

from helpers_engines import require_engine


@pytest.mark.slow
def test_quick_json_report(capsys):
    code = main(["bench", "search", "--quick", "--no-engines", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)  # one JSON object and nothing else on stdout
    assert report["benchmark"] == "search"
    assert report["settings"]["depth"] == 2 and report["settings"]["quick"] is True
    assert report["engines"]["sjeng"] is None and report["engines"]["fairy_stockfish"] is None
    assert [v["variant"] for v in report["variants"]] == list(SEARCH_VARIANTS)
    for v in report["variants"]:
        assert len(v["positions"]) == 2
        for row in v["positions"]:
            assert row["fen"] in {p.fen for p in positions(v["variant"])}
            assert row["kind"] in KINDS
            for key in ("tdleaf_depth", "tdleaf_time", "python_chess"):
                run = row[key]
                assert run["nodes"] > 0 and run["seconds"] > 0, (v["variant"], row["name"], key)
            assert row["tdleaf_depth"]["depth"] == 2
            board = variants.board_class(v["variant"])(row["fen"])
            for key in ("tdleaf_depth", "tdleaf_time", "python_chess"):
                assert chess.Move.from_uci(row[key]["move"]) in board.legal_moves
            assert row["sjeng"] is None and row["fairy_stockfish"] is None
        summary = v["summary"]
        for key in ("tdleaf_depth", "tdleaf_time", "python_chess"):
            total = summary[key]
            assert total["nodes"] == sum(r[key]["nodes"] for r in v["positions"])
            assert total["nps"] > 0
        assert summary["sjeng"] is None and summary["fairy_stockfish"] is None
        assert summary["ratios"]["tdleaf_over_python_chess"] > 0
        assert summary["ratios"]["tdleaf_over_sjeng"] is None
    memory = report["memory"]
    assert memory is not None, report["warnings"]
    assert memory["vmrss_mb"] > 0 and memory["vmhwm_mb"] >= memory["vmrss_mb"]
    assert chess.Move.from_uci(memory["bestmove"])


def test_quick_tables(capsys):
    code = main(["bench", "search", "--quick", "--no-engines", "--no-memory",
                 "--variant", "crazyhouse"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert out.startswith("crazyhouse") and "all (total)" in out and "summary" in out
    assert "external engines not run" in out


def test_unknown_variant_is_a_usage_error(capsys):
    assert main(["bench", "search", "--variant", "shogi", "--no-engines"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("variant", list(POSITIONS) + ["antichess"])
def test_positions_are_valid(variant):
    ps = positions(variant)
    assert len(ps) >= 10
    assert {p.kind for p in ps} == set(KINDS)
    assert len({p.name for p in ps}) == len(ps)
    for p in ps:
        board = variants.board_class(variant)(p.fen)
        assert board.is_valid(), (p.name, board.status())
        assert not board.is_game_over(), p.name
        assert board.fen() == p.fen, p.name
        if variant == "suicide":
            assert not board.castling_rights, p.name  # Fairy-Stockfish's suicide has none


@pytest.mark.parametrize("variant,fen,best", [
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),           # back-rank mate
    ("chess", "4k3/8/8/3q4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),               # win the queen
    ("crazyhouse", "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1",
     "R@a8 R@b8 R@c8 R@d8 R@e8"),                                         # mate by a drop
    ("giveaway", "8/8/8/8/8/8/8/R6r w - - 0 1", "a1h1"),                   # the capture is forced
    ("atomic", "4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7"),                # the blast kills
])
def test_python_chess_search_finds_simple_moves(variant, fen, best):
    board = variants.board_class(variant)(fen)
    result = PythonChessSearch.for_variant(variant).search(board, 60.0, max_depth=2)
    assert result["depth"] == 2 and result["nodes"] > 0
    assert result["move"] in best.split()


def test_quick_report_against_the_real_sjeng(capsys):
    """Sjeng in crazyhouse goes through tdleaf.play.engines (pockets, a fraction of a
    second as a clock): it answers every position with a legal move and its nodes."""
    require_engine("sjeng")
    code = main(["bench", "search", "--quick", "--no-memory", "--json", "--variant",
                 "crazyhouse", "--fairy-stockfish", "/nonexistent/fairy-stockfish"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert "Sjeng" in report["engines"]["sjeng"] and not report["warnings"]
    for row in report["variants"][0]["positions"]:
        board = variants.board_class("crazyhouse")(row["fen"])
        assert chess.Move.from_uci(row["sjeng"]["move"]) in board.legal_moves
        assert row["sjeng"]["nodes"] > 0
