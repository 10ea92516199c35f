"""Tournaments (tdleaf/play/tournament.py, `tdleaf tournament`): the plans' pairings, the
report's numbers beside ours, a short round robin through the command line with its
tables, and resuming it to more games."""

from __future__ import annotations

import csv
import json

import pytest

from tdleaf.cli import main
from tdleaf.cli.tools import exclusive
from tdleaf.play.match import MatchConfig, PlayerConfig, run_match
from tdleaf.play.tournament import (
    PAPER,
    Pairing,
    Row,
    TournamentError,
    markdown_table,
    plan_pairings,
)


def test_round_robin_and_gauntlet_pairings():
    rr = plan_pairings("roundrobin", "suicide", ["a", "b", "c", "d"])
    assert [(p.a, p.b) for p in rr] == [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"),
                                       ("b", "d"), ("c", "d")]
    g = plan_pairings("gauntlet", "suicide", ["a", "b", "c"])
    assert [(p.a, p.b) for p in g] == [("a", "b"), ("a", "c")]
    assert all(p.paper is None for p in rr + g)
    for plan, players in (("roundrobin", ["a"]), ("gauntlet", ["a", "a"]), ("swiss", ["a", "b"])):
        with pytest.raises(TournamentError):
            plan_pairings(plan, "suicide", players)


def test_paper_pairings_are_the_reports():
    names = {n: f"spec-{n}" for n in ("traditional", "original", "sjeng", "losers",
                                      "sjeng-engine", "learnt", "psq", "avg-psq", "report",
                                      "stockfish")}
    new_four = ("kingofthehill", "3check", "racingkings", "horde")
    for variant, rows in PAPER.items():
        if variant in new_four:
            continue
        pairings = plan_pairings("paper", variant, [], names)
        assert [p.label for p in pairings] == [r[0] for r in rows]
        for p in pairings:
            assert p.a.startswith("spec-") and p.b.startswith("spec-")
            if variant in ("giveaway", "antichess") or p.b == "spec-report":
                assert p.paper is None           # the report has no numbers for them
            else:
                assert sum(p.paper) == 2000      # 2,000 games a pairing
        # ours against the report's own learnt values: where it learnt some; lichess's
        # losing variants end on the multi-variant Stockfish's values instead
        assert (pairings[-1].b == "spec-report") == (variant not in ("giveaway", "antichess"))
        assert (pairings[-1].b == "spec-stockfish") == (variant in ("giveaway", "antichess"))
    crazyhouse = plan_pairings("paper", "crazyhouse", [], names)
    assert crazyhouse[0].paper == (1352, 646, 2)     # table 6.2: learnt vs. traditional
    # Lichess's other four: learnt against traditional and the multi-variant Stockfish's
    # values, then the tables (no report numbers).
    for variant in new_four:
        pairings = plan_pairings("paper", variant, [], names)
        assert [(p.a, p.b) for p in pairings] == [
            ("spec-learnt", "spec-traditional"), ("spec-learnt", "spec-stockfish"),
            ("spec-learnt", "spec-avg-psq"), ("spec-psq", "spec-learnt")]
        assert all(p.paper is None for p in pairings)


def test_table_has_the_reports_columns_only_for_its_pairings(tmp_path):
    cfg = MatchConfig("atomic", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig("ones", {"depth": 1}), games=2, pgn=str(tmp_path / "m.pgn"))
    summary = run_match(cfg)
    ours = markdown_table([Row(Pairing("traditional vs. ones", "traditional", "ones"), summary)], cfg)
    assert "report:" not in ours and "| traditional vs. ones |" in ours
    theirs = markdown_table([Row(Pairing("learnt vs. traditional", "traditional", "ones",
                                         (1231, 753, 16)), summary)], cfg)
    header = next(line for line in theirs.splitlines() if line.startswith("| configuration"))
    assert "report: won" in header
    assert "| 1231 | 753 | 16 | 61.95% |" in theirs


def test_round_robin_through_the_command_line_and_resume(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tournament", "--variant", "suicide", "--plan", "roundrobin", "--players",
            "traditional", "sjeng", "losers", "--games", "2", "--depth", "1",
            "-o", "2.random_ties=1", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    table = (out / "table.md").read_text()
    assert "report:" not in table
    # A player's own setting is named with the results it produced.
    assert "Players' own settings: sjeng random_ties=1." in table
    rows = list(csv.DictReader((out / "table.csv").open()))
    assert [r["configuration"] for r in rows] == ["traditional vs. sjeng", "traditional vs. losers",
                                                 "sjeng vs. losers"]
    assert all(int(r["won"]) + int(r["lost"]) + int(r["draw"]) == 2 for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert [r["games"] for r in summary["rows"]] == [2, 2, 2]
    assert summary["settings"]["sjeng"] == {"random_ties": "1"}
    # Every pairing gives each side's mean time per move, in JSON, CSV and the table.
    for row, line in zip(summary["rows"], rows):
        times = row["time_per_move"]
        assert times["a"] > 0 and times["b"] > 0 and row["moves"]["a"] > 0
        assert float(line["a_seconds_per_move"]) == pytest.approx(times["a"])
        assert f"| {times['a']:.2f}, {times['b']:.2f} |" in table
    assert "| s/move A, B |" in table
    # The standings give every player its points over its 4 games (6 points in all).
    standings = [line for line in table.splitlines() if line.count("|") == 5
                 and line.split("|")[1].strip() in ("traditional", "sjeng", "losers")]
    assert len(standings) == 3
    assert sum(float(line.split("|")[2]) for line in standings) == 6
    assert all(line.split("|")[3].strip() == "4" for line in standings)
    capsys.readouterr()
    # The same folder again is refused without --resume; with it, carried on to 4 games.
    assert main(argv) == 2
    assert "--resume" in capsys.readouterr().err
    more = argv[:argv.index("--games") + 1] + ["4"] + argv[argv.index("--games") + 2:]
    # Not while another tournament is writing the folder.
    with exclusive(out, "tournament"):
        assert main(more + ["--resume"]) == 2
    assert "in use by another tdleaf tournament" in capsys.readouterr().err
    assert main(more + ["--resume"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [r["games"] for r in summary["rows"]] == [4, 4, 4]


def test_some_pairings_now_and_the_whole_plan_later(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tournament", "--variant", "suicide", "--plan", "gauntlet", "--players",
            "traditional", "sjeng", "losers", "--games", "2", "--depth", "1", "--out", str(out),
            "--no-progress"]
    assert main(argv + ["--pairings", "3"]) == 2
    assert "--pairings 3: the gauntlet plan has 2 pairing(s)" in capsys.readouterr().err
    assert main(argv + ["--pairings", "2"]) == 0
    # The pairing keeps its number in the plan; the first is not played.
    assert sorted(p.name for p in out.glob("*.pgn")) == ["02-traditional-vs-losers.pgn"]
    summary = json.loads((out / "summary.json").read_text())
    assert [r["configuration"] for r in summary["rows"]] == ["traditional vs. losers"]
    before = (out / "02-traditional-vs-losers.pgn").read_text()
    assert main(argv + ["--resume"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [r["configuration"] for r in summary["rows"]] == ["traditional vs. sjeng",
                                                            "traditional vs. losers"]
    # The whole plan carried on from the pairing played before: its games were kept.
    assert (out / "02-traditional-vs-losers.pgn").read_text() == before
    assert [r["games"] for r in summary["rows"]] == [2, 2]
    # Another part of the plan played later keeps the rows of the parts played before.
    (out / "01-traditional-vs-sjeng.pgn").unlink()
    assert main(argv + ["--pairings", "1", "--resume"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [(r["configuration"], r["games"], r["a"], r["b"]) for r in summary["rows"]] == [
        ("traditional vs. sjeng", 2, "traditional", "sjeng"),
        ("traditional vs. losers", 2, "traditional", "losers")]
    assert "traditional vs. losers" in (out / "table.md").read_text()
