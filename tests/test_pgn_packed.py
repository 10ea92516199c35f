"""A match's games compressed (``.pgn.gz``, :mod:`tdleaf.play.pgn`): one gzip member an
append, read member by member, a torn last member cut off as a torn last game is, and a
match written and resumed into one with no other change."""

from __future__ import annotations

import gzip

import pytest

from tdleaf.play.gamefiles import gzip_member, read_members
from tdleaf.play.match import MatchConfig, PlayerConfig, run_match
from tdleaf.play.pgn import append_game, parse_games, read_games

GAME = """[Event "tdleaf match"]
[Site "?"]
[Date "2026.12.01"]
[Round "{round}"]
[White "{white}"]
[Black "{black}"]
[Result "{result}"]
[PlyCount "2"]
[TimeControl "-"]
[Termination "adjudication"]

1. e4 {{+0.10/3 0.010s}} e5 {{-0.05/3 0.020s}} {{adjudicated}} {result}

"""


def game(round_: int, result: str = "1-0") -> str:
    white, black = ("A", "B") if round_ % 2 else ("B", "A")
    return GAME.format(round=round_, white=white, black=black, result=result)


def test_each_append_is_one_member_and_the_file_is_one_pgn(tmp_path):
    path = tmp_path / "m.pgn.gz"
    append_game(path, game(1))
    append_game(path, game(2, "1/2-1/2") + game(3, "0-1"))      # a batch: one member
    assert read_members(path) == [game(1), game(2, "1/2-1/2") + game(3, "0-1")]
    assert gzip.decompress(path.read_bytes()).decode() == game(1) + game(2, "1/2-1/2") + game(3, "0-1")
    games = read_games(path)
    assert [(g.round, g.result, g.plies) for g in games] == [(1, "1-0", 2), (2, "1/2-1/2", 2),
                                                             (3, "0-1", 2)]
    plain = tmp_path / "m.pgn"
    plain.write_text(game(1) + game(2, "1/2-1/2") + game(3, "0-1"))
    assert games == read_games(plain)
    assert parse_games(read_members(path)[1]) == games[1:]


def test_the_same_games_make_the_same_bytes(tmp_path):
    a, b = tmp_path / "a.pgn.gz", tmp_path / "b.pgn.gz"
    for path in (a, b):
        append_game(path, game(1))
    assert a.read_bytes() == b.read_bytes() == gzip_member(game(1).encode())


@pytest.mark.parametrize("cut", [1, 10, -9, -1])
def test_a_torn_last_member_is_cut_off_with_repair(tmp_path, cut):
    """A crash in mid-write leaves part of the last member: it is not read, and
    ``repair`` cuts it off so that the next append follows the whole members."""
    path = tmp_path / "t.pgn.gz"
    append_game(path, game(1))
    whole = path.read_bytes()
    torn = gzip_member((game(2) + game(3)).encode())
    path.write_bytes(whole + torn[:cut % len(torn)])
    assert [g.round for g in read_games(path)] == [1]
    assert len(read_members(path)) == 1
    assert path.read_bytes() != whole                    # read without repair: left as it is
    assert [g.round for g in read_games(path, repair=True)] == [1]
    assert path.read_bytes() == whole
    append_game(path, game(2))
    assert [g.round for g in read_games(path)] == [1, 2]


def test_read_members_repairs_too(tmp_path):
    path = tmp_path / "r.pgn.gz"
    append_game(path, game(1))
    whole = path.read_bytes()
    path.write_bytes(whole + b"\x1f\x8b\x08")
    assert read_members(path, repair=True) == [game(1)]
    assert path.read_bytes() == whole


def test_a_member_that_does_not_hold_whole_games_ends_the_games(tmp_path):
    """A member whose text ends in a torn game (written so by hand: an append writes
    whole games) ends what is read, and with ``repair`` is cut off with what follows."""
    path = tmp_path / "h.pgn.gz"
    append_game(path, game(1))
    whole = path.read_bytes()
    append_game(path, game(2)[:-30])
    append_game(path, game(3))
    assert [g.round for g in read_games(path)] == [1]
    read_games(path, repair=True)
    assert path.read_bytes() == whole


def test_missing_and_empty_files(tmp_path):
    assert read_games(tmp_path / "none.pgn.gz") == [] and read_members(tmp_path / "none.pgn.gz") == []
    empty = tmp_path / "empty.pgn.gz"
    empty.write_bytes(b"")
    assert read_games(empty, repair=True) == [] and read_members(empty) == []


def test_a_match_is_written_and_resumed_compressed(tmp_path):
    """``run_match`` into a ``.pgn.gz``: a game a member; killed with a torn member, the
    match resumes (the torn member cut off) and plays only the games missing."""
    pgn = tmp_path / "m.pgn.gz"
    cfg = MatchConfig("atomic", PlayerConfig("traditional", {"depth": 1}),
                      PlayerConfig("ones", {"depth": 1}), games=2, random_plies=4, pgn=str(pgn))
    first = run_match(cfg)
    assert len(read_members(pgn)) == 2 and [g.round for g in read_games(pgn)] == [1, 2]
    played = pgn.read_bytes()
    pgn.write_bytes(played + played[:25])                  # a crash in mid-append
    more = MatchConfig("atomic", cfg.a, cfg.b, games=4, random_plies=4, pgn=str(pgn))
    resumed = run_match(more, resume=True)
    assert pgn.read_bytes().startswith(played)
    assert [g.round for g in read_games(pgn)] == [1, 2, 3, 4] and len(read_members(pgn)) == 4
    assert resumed.games == 4
    assert [(o.index, o.result) for o in resumed.outcomes[:2]] == \
        [(o.index, o.result) for o in first.outcomes]
    again = run_match(more, resume=True)                   # complete: nothing played
    assert again.games == 4 and len(read_members(pgn)) == 4


def test_a_stored_match_is_summarized_from_its_compressed_file(tmp_path):
    from tdleaf.play.match import stored_summary

    pgn = tmp_path / "s.pgn.gz"
    for r in (1, 2):
        append_game(pgn, game(r))
    summary = stored_summary(MatchConfig("chess", PlayerConfig("a"), PlayerConfig("b"),
                                         games=2, pgn=str(pgn)))
    assert summary is not None and summary.games == 2
    assert (summary.wins, summary.losses) == (1, 1)


def test_the_command_writes_resumes_and_summarizes_a_compressed_match(tmp_path, capsys):
    from tdleaf.cli import main

    pgn = tmp_path / "c.pgn.gz"
    args = ["match", "traditional", "ones", "--variant", "atomic", "--depth", "1",
            "--random-plies", "4", "--pgn", str(pgn), "--no-progress"]
    assert main([*args, "--games", "2"]) == 0
    assert main([*args, "--games", "4", "--resume"]) == 0
    assert [g.round for g in read_games(pgn)] == [1, 2, 3, 4] and len(read_members(pgn)) == 4
    capsys.readouterr()
    assert main([*args, "--games", "4", "--summary"]) == 0
    assert ": 4 games" in capsys.readouterr().out


def test_openings_and_positions_read_a_compressed_file(tmp_path):
    from tdleaf.play.gamefiles import pgn_positions
    from tdleaf.play.openings import read_openings

    pgn = tmp_path / "o.pgn.gz"
    append_game(pgn, game(1))
    append_game(pgn, game(2))
    assert [list(o.moves) for o in read_openings(pgn, "chess")] == [["e2e4", "e7e5"]] * 2
    positions = list(pgn_positions(pgn, "chess"))
    assert len(positions) == 6 and positions[1][0] == {"game": 1, "ply": 1, "played": "e7e5"}
