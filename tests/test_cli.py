"""The `tdleaf` command line: perft, EPD suites, errors and `bench perft`.

Expected counts come from python-chess (the oracle), either computed here or stored in
tests/data/perft_<variant>.epd (see tests/data/make_epd.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import variants
from tdleaf.bench.perft import python_chess_perft
from tdleaf.cli import main

from helpers_engines import require_engine

DATA = Path(__file__).parent / "data"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ZH_DROPS = "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def oracle(variant: str, fen: str | None, depth: int) -> int:
    board = variants.board_class(variant)(fen) if fen else variants.board_class(variant)()
    return python_chess_perft(board, depth)


@pytest.mark.parametrize("variant,fen,depth", [
    ("chess", None, 3), ("chess", KIWIPETE, 2), ("crazyhouse", ZH_DROPS, 2),
    ("atomic", None, 3), ("antichess", None, 3),
])
def test_perft_counts_match_python_chess(capsys, variant, fen, depth):
    argv = ["perft", "--variant", variant, "--depth", str(depth)] + (["--fen", fen] if fen else [])
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert int(lines["nodes"]) == oracle(variant, fen, depth)
    assert set(lines) == {"nodes", "seconds", "nodes/s"}


def test_divide_sums_to_total(capsys):
    code, out, _ = run(capsys, "perft", "--fen", KIWIPETE, "--depth", "2", "--divide")
    assert code == 0
    body, summary = out.split("\n\n")
    moves = [line.split(": ") for line in body.splitlines()]
    assert [m for m, _ in moves] == sorted(m for m, _ in moves)
    total = dict(line.split(": ") for line in summary.splitlines())
    assert sum(int(c) for _, c in moves) == int(total["nodes"]) == 2039
    assert int(total["moves"]) == len(moves) == 48


def test_divide_json_matches_python_chess(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "crazyhouse", "--fen", ZH_DROPS,
                       "--depth", "2", "--divide", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"variant", "fen", "depth", "nodes", "seconds", "nodes_per_second",
                         "divide"}
    board = variants.board_class("crazyhouse")(ZH_DROPS)
    assert set(data["divide"]) == {m.uci() for m in board.legal_moves}
    assert sum(data["divide"].values()) == data["nodes"] == oracle("crazyhouse", ZH_DROPS, 2)


def test_perft_json_schema(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "zh", "--depth", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["variant"] == "crazyhouse"
    assert data["fen"] == variants.starting_fen("crazyhouse")
    assert (data["depth"], data["nodes"]) == (2, 400)
    assert isinstance(data["seconds"], float) and "divide" not in data


@pytest.mark.parametrize("variant", variants.VARIANTS)
def test_epd_suite_passes(capsys, variant):
    path = DATA / f"perft_{variant}.epd"
    code, out, err = run(capsys, "perft", "--variant", variant, "--epd", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"positions", "passed", "failed", "nodes", "seconds"} <= set(data)
    assert data["failed"] == 0 and data["passed"] == len(data["positions"]) >= 10
    for p in data["positions"]:
        assert set(p) == {"fen", "depth", "expected", "nodes", "ok", "seconds"}
        assert p["ok"] and p["nodes"] == p["expected"]
    assert data["nodes"] == sum(p["nodes"] for p in data["positions"])


@pytest.mark.parametrize("variant", variants.VARIANTS)
def test_epd_suite_of_impossible_positions_passes(capsys, variant):
    """Positions python-chess's status() calls impossible but plays: counted as
    python-chess counts them, one warning per position naming the problem; --strict
    refuses the suite (exit 2) at the first one."""
    path = DATA / f"perft_{variant}_impossible.epd"
    code, out, err = run(capsys, "perft", "--variant", variant, "--epd", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["failed"] == 0 and data["passed"] == len(data["positions"]) >= 8
    fens = [line.split(" ;")[0] for line in path.read_text().splitlines()
            if line and not line.startswith("#")]
    warnings = err.splitlines()
    assert len(warnings) == len(fens)
    for fen, line in zip(fens, warnings):
        assert line.startswith(f"tdleaf: warning: {path}:") and repr(fen) in line
        board = variants.board_class(variant)(fen)
        for flag in variants.position_problems(board)[1]:
            assert flag in line
    code, out, err = run(capsys, "perft", "--variant", variant, "--epd", str(path), "--strict")
    assert code == 2 and out == ""
    assert err.startswith("tdleaf: error: ") and repr(fens[0]) in err


@pytest.mark.parametrize("fen,flag,nodes", [
    ("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", "impossible_check", 2854),
    ("2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1", "impossible_check", 1217),
    ("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "impossible_check", 711),
    ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "bad_castling_rights", None),
])
def test_perft_impossible_position_warns(capsys, fen, flag, nodes):
    code, out, err = run(capsys, "perft", "--fen", fen, "--depth", "3")
    assert code == 0
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert int(lines["nodes"]) == (nodes or oracle("chess", fen, 3)) == oracle("chess", fen, 3)
    assert len(err.splitlines()) == 1 and err.startswith("tdleaf: warning: ")
    assert flag in err and repr(fen) in err
    code, out, err = run(capsys, "perft", "--fen", fen, "--depth", "2", "--divide", "--json")
    assert code == 0 and json.loads(out)["nodes"] == oracle("chess", fen, 2)


def test_epd_depth_cap_and_text_output(capsys):
    path = DATA / "perft_chess.epd"
    code, out, _ = run(capsys, "perft", "--epd", str(path), "--depth", "1")
    assert code == 0
    lines = out.splitlines()
    assert all(line.startswith("ok") and " D1 " in line for line in lines[:-1])
    assert lines[-1].startswith(f"passed {len(lines) - 1}, failed 0")


def test_epd_wrong_count_fails(capsys, tmp_path):
    epd = tmp_path / "wrong.epd"
    epd.write_text("# a comment\n\n"
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n")
    code, out, _ = run(capsys, "perft", "--epd", str(epd), "--json")
    assert code == 1
    data = json.loads(out)
    assert (data["passed"], data["failed"]) == (1, 1)
    bad = [p for p in data["positions"] if not p["ok"]]
    assert len(bad) == 1 and bad[0]["depth"] == 2 and bad[0]["nodes"] == 400
    assert bad[0]["expected"] == 401 and bad[0]["ok"] is False
    code, out, _ = run(capsys, "perft", "--epd", str(epd))
    assert code == 1 and "FAIL" in out


@pytest.mark.parametrize("argv", [
    ["perft", "--fen", "not a fen", "--depth", "1"],
    ["perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "1"],  # no kings
    ["perft", "--fen", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "--depth", "1"],  # opposite check
    ["perft", "--strict", "--fen", "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "--depth", "1"],  # bad castling
    ["perft", "--strict", "--fen", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", "--depth", "1"],
    ["perft", "--variant", "shogi", "--depth", "1"],
    ["perft", "--depth", "-1"],
    ["perft", "--depth", "two"],
    ["perft"],
    ["perft", "--divide", "--depth", "0"],
    ["perft", "--epd", "/nonexistent/suite.epd"],
    ["bench", "perft", "--variant", "shogi", "--quick"],
])
def test_errors_are_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("tdleaf: error: ")


@pytest.mark.parametrize("text,message", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", "no ';D"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 twenty\n", "expected ';D"),
    ("xyz ;D1 20\n", "expected an EPD position"),
    ("xyz w - - ;D1 20\n", "invalid chess FEN"),
    ("# only a comment\n", "no positions"),
])
def test_malformed_epd_exit_2(capsys, tmp_path, text, message):
    epd = tmp_path / "bad.epd"
    epd.write_text(text)
    code, out, err = run(capsys, "perft", "--epd", str(epd))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err and f"{epd}:" in err


def test_subprocess_error_has_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "tdleaf", "perft", "--fen", "8/8/8 w", "--depth", "1"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("tdleaf: error: invalid chess FEN")
    assert len(proc.stderr.splitlines()) == 1 and proc.stdout == ""


def test_subprocess_perft():
    proc = subprocess.run([sys.executable, "-m", "tdleaf", "perft", "--variant", "atomic",
                           "--depth", "2", "--json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["nodes"] == 400


def test_help_and_missing_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "perft" in capsys.readouterr().out
    code, out, _ = run(capsys)
    assert code == 2 and "usage: tdleaf" in out


def test_bench_perft_quick_agrees_with_python_chess(capsys):
    code, out, err = run(capsys, "bench", "perft", "--json", "--no-engines", "--quick")
    assert code == 0, err
    report = json.loads(out)
    assert report["agree"] is True and report["fairy_stockfish"] is None
    assert [v["variant"] for v in report["variants"]] == list(variants.VARIANTS)
    for v in report["variants"]:
        assert v["agree"] and v["positions"]
        for p in v["positions"]:
            assert p["agree_python_chess"] is True and p["fairy_stockfish"] is None
            assert p["tdleaf_at_python_chess_depth"] == p["python_chess"]["nodes"]
            assert p["tdleaf"]["nodes"] == p["python_chess"]["nodes"]  # same depth in --quick
        rates = v["nodes_per_second"]
        assert rates["tdleaf"] > 0 and rates["python_chess"] > 0
        assert rates["tdleaf_over_python_chess"] > 0


def test_bench_perft_quick_agrees_with_fairy_stockfish(capsys):
    require_engine("fairy-stockfish")
    code, out, err = run(capsys, "bench", "perft", "--json", "--quick",
                         "--variant", "chess", "crazyhouse", "giveaway")
    assert code == 0, err
    report = json.loads(out)
    assert report["fairy_stockfish"] and report["agree"] is True
    for v in report["variants"]:
        for p in v["positions"]:
            assert p["agree_fairy_stockfish"] is True
            assert p["fairy_stockfish"]["nodes"] == p["tdleaf"]["nodes"]


def test_ladder_help_names_every_variant_with_a_reference_engine(capsys):
    """The help's engine list comes from the variant spec, so a new variant is in it."""
    from variants.spec import SPECS

    with pytest.raises(SystemExit) as exc:
        main(["ladder", "--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    rated = [name for name, v in SPECS.items() if v.engines]
    assert {"horde", "racingkings", "suicide", "atomic"} <= set(rated)
    for name in rated:
        assert f" {name}," in text or f" {name} " in text, name
    assert "Sjeng 11.2 (sjeng): crazyhouse, suicide" in text
