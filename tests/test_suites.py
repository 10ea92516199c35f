"""``tdleaf bench suites``: the suites built from a real game against Sjeng, their
positions judged again by the proof search, and the solving run end to end."""

from __future__ import annotations

import json

import pytest

from tdleaf.bench import suites
from tdleaf.cli import main

from helpers_engines import require_engine

# Round 2 of runs/blocks/equal-time/suicide-set-vs-sjeng.pgn: Sjeng won, tdleaf had Black.
GAME = """[Event "tdleaf match"]
[Round "2"]
[White "Sjeng 11.2"]
[Black "psq-chains"]
[Result "1-0"]
[Variant "Suicide"]

1. f4 e6 2. b4 Bxb4 3. Kf2 Bxd2 4. Nxd2 f5 5. g4 fxg4 6. f5 exf5 7. Bh3 gxh3
8. Nxh3 f4 9. Nxf4 Qh4 10. Rg1 Qxh2 11. Rxg7 Qxf2 12. Rxg8 Rxg8 13. Ng2 Rxg2
14. Bb2 Qxe2 15. Qxe2 Rxe2 16. Rb1 Rxd2 17. Ra1 Rxc2 18. Rf1 Rxb2 19. Rg1 Rxa2
20. Ra1 Rxa1# 1-0
"""
CHECKS = suites.Checks(proof_nodes=1 << 17, fsf_depth=8)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    require_engine("fairy-stockfish")
    folder = tmp_path_factory.mktemp("suites")
    pgn = folder / "games.pgn"
    pgn.write_text(GAME)
    counts = suites.build(pgn, "suicide", folder / "out", CHECKS)
    return folder, counts


def test_a_lost_game_gives_a_defence_and_a_win(built):
    folder, counts = built
    assert counts == {"wins": 1, "defence": 1}
    from tdleaf.play.epd import read_epd
    ops = read_epd(folder / "out" / "wins.epd")[0].ops
    assert int(ops["fsfdepth"]) <= CHECKS.fsf_depth and int(ops["plies"]) > 0
    (win,) = suites.read_suite(folder / "out" / "wins.epd", "suicide")
    (defence,) = suites.read_suite(folder / "out" / "defence.epd", "suicide")
    # The earliest position Sjeng had won follows the move that lost it.
    d_ply, w_ply = (int(p["id"].split()[-1]) for p in (defence, win))
    assert w_ply == d_ply + 1 and win["id"].startswith("game 1 ")
    assert suites._after(defence["fen"], defence["played"], "suicide") == win["fen"]
    judge = suites.Judge("suicide", CHECKS)
    try:
        proved, _plies, best = judge.proved(win["fen"])
        assert proved and best == win["best"]
        assert not judge.proved(defence["fen"], "other")[0]     # not lost before the move
        assert suites._verdict(judge, "wins", win["fen"], best[0], win["played"])
        assert not suites._verdict(judge, "defence", defence["fen"], defence["played"],
                                   defence["played"])
    finally:
        judge.close()


def test_building_resumes_from_its_journal(built):
    folder, _ = built
    with pytest.raises(FileExistsError):
        suites.build(folder / "games.pgn", "suicide", folder / "out", CHECKS)
    before = (folder / "out" / "build.jsonl").read_text()
    assert suites.build(folder / "games.pgn", "suicide", folder / "out", CHECKS,
                        resume=True) == {"wins": 1, "defence": 1}
    assert (folder / "out" / "build.jsonl").read_text() == before     # nothing done again


def test_solving_writes_rates_and_nodes(built, capsys):
    folder, _ = built
    out = folder / "out"
    assert main(["bench", "suites", "--out", str(out), "--movetime", "0.02",
                 "--proof-nodes", str(1 << 17), "--fsf-depth", "8", "--json",
                 "--report", str(folder / "before.json"), "--flags", "66047",
                 "--proof-check", "0.3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["flags"] == 66047 and (folder / "before.json").exists()
    assert report["proof_check"] == 0.3 and report["endgame_tables"] >= 0
    assert [(s["suite"], s["positions"]) for s in report["summary"]] == [("wins", 1),
                                                                        ("defence", 1)]
    for s in report["summary"]:
        assert s["solved"] in (0, 1) and s["interval"][0] <= s["rate"] <= s["interval"][1]
        assert s["nodes_per_position"] > 0
    assert json.loads((folder / "before.json").read_text())["positions"][0]["move"]


def test_bad_requests_are_refused(tmp_path, capsys):
    (tmp_path / "other.pgn").write_text(GAME.replace("Sjeng 11.2", "someone"))
    assert main(["bench", "suites", "--out", str(tmp_path / "a"), "--build",
                 str(tmp_path / "other.pgn")]) == 2
    assert "no game between tdleaf and an opponent named *sjeng*" in capsys.readouterr().err
    assert main(["bench", "suites", "--out", str(tmp_path / "b"), "--build",
                 str(tmp_path / "missing.pgn")]) == 2
    assert "cannot read PGN file" in capsys.readouterr().err
    assert main(["bench", "suites", "--out", str(tmp_path)]) == 2
    assert "nothing to do" in capsys.readouterr().err
    assert main(["bench", "suites", "--variant", "chess", "--out", str(tmp_path),
                 "--movetime", "0.1"]) == 2
    assert "not chess" in capsys.readouterr().err


def test_the_opening_is_not_the_engines(tmp_path):
    """Positions come after the move a match's PGN comments ``book``: the random
    opening's moves were no engine's choice."""
    import io

    import chess.pgn

    from tdleaf.play.gamefiles import book_plies
    booked = GAME.replace("10. Rg1 Qxh2", "10. Rg1 {book} Qxh2")
    assert book_plies(chess.pgn.read_game(io.StringIO(booked))) == 19
    assert book_plies(chess.pgn.read_game(io.StringIO(GAME))) == 0
    require_engine("fairy-stockfish")
    (tmp_path / "games.pgn").write_text(booked)
    # tdleaf's losing move (ply 17) was before: the game gives no defence position, and
    # the win starts at Sjeng's first move after the opening.
    assert suites.build(tmp_path / "games.pgn", "suicide", tmp_path / "out", CHECKS) == {
        "wins": 1, "defence": 0}
    (win,) = suites.read_suite(tmp_path / "out" / "wins.epd", "suicide")
    assert win["id"] == "game 1 ply 20"
