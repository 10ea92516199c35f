"""The endgame tables (search.solve.endgame) against python-chess and the proof-number search.

On seeded random positions of a few materials in suicide and giveaway (antichess shares
giveaway's tables): every value is what python-chess's moves and outcomes make of its
children's values (a finished game's result, a child's table value, one ply more
where an en passant capture opens), with the exact distance; over all positions that
local agreement forces every value to be right (a won position at true distance d has
a child lost at d - 1, and so on down). The proof-number search proves the wins and
the losses it is given the time for, never in fewer plies than the table's distance.
"""

from __future__ import annotations

import random

import chess
import pytest

from search.solve import endgame
from search.solve.endgame import (
    DRAW,
    Probe,
    TableError,
    all_materials,
    decode,
    material_key,
    material_name,
    tables,
)
from search.solve.pns import DISPROVED, OPEN, PROVED, ProofSearch
from tests.helpers_search import new_board
from variants import Position

from helpers_tiers import costly_in_full_tier


@pytest.fixture(autouse=True, scope="module")
def _fresh_tables():
    """The tables this module builds are the process's: forget them after it, so that
    other modules' timed suicide searches do not meet them."""
    yield
    endgame._TABLES.clear()


# Materials as piece kinds (colour * 6 + type - 1): KQ v k, N v p, R v b b, P v k.
MATERIALS = [[5, 4, 11], [1, 6], [3, 8, 8], [0, 11]]


def _negate(c: int) -> int:
    return -c + 1 if c < 0 else (-(c + 1) if c > 0 else 0)


def _best(values: list[int]) -> int:
    wins = [v for v in values if v > 0]
    if wins:
        return min(wins)
    if DRAW in values:
        return DRAW
    return min(values)                     # the slowest loss: the most negative value


def _board_value(board: chess.Board, variant: str, depth: int = 1) -> int:
    """A position's value for its mover from python-chess: its outcome, else the table
    (one ply of search where an en passant capture is open)."""
    out = board.outcome()
    if out is not None:
        return DRAW if out.winner is None else (1 if out.winner == board.turn else -1)
    v = tables(variant).value(Position.from_fen(board.fen(), variant))
    if v is not None:
        return v
    assert depth > 0 and board.has_legal_en_passant(), board.fen()
    return _best([_child_value(board, m, variant, depth - 1) for m in list(board.legal_moves)])


def _child_value(board: chess.Board, move: chess.Move, variant: str, depth: int) -> int:
    board.push(move)
    try:
        return _negate(_board_value(board, variant, depth))
    finally:
        board.pop()


def random_positions(variant: str, kinds: list[int], n: int, seed: int) -> list[str]:
    rng = random.Random(f"endgame:{variant}:{seed}:{kinds}")
    out: list[str] = []
    while len(out) < n:
        board = new_board(variant)
        board.clear()
        for k in kinds:
            while True:
                sq = rng.choice(chess.SQUARES)
                if board.piece_at(sq) is None and not (k % 6 == 0 and chess.square_rank(sq) in (0, 7)):
                    break
            board.set_piece_at(sq, chess.Piece(k % 6 + 1, k < 6))
        board.turn = rng.choice(chess.COLORS)
        board.castling_rights = 0
        if board.is_valid():
            out.append(board.fen())
    return out


@pytest.mark.parametrize("variant", costly_in_full_tier(["suicide", "giveaway"], ["giveaway"]))
def test_every_value_is_what_python_chess_makes_of_its_children(variant):
    seen = {1: 0, 0: 0, -1: 0}
    for kinds in MATERIALS:
        for fen in random_positions(variant, kinds, 60, 0):
            board = new_board(variant, fen)
            v = tables(variant).value(Position.from_fen(fen, variant))
            assert v is not None, fen
            out = board.outcome()
            if out is None:
                expected = _best([_child_value(board, m, variant, 1) for m in list(board.legal_moves)])
            else:
                expected = _board_value(board, variant)
            assert v == expected, (fen, decode(v), decode(expected))
            seen[decode(v).result] += 1
    assert min(seen.values()) > 5, seen          # wins, draws and losses all checked


def test_the_proof_search_agrees():
    """Wins are proved for the mover, losses for the other side, never shorter than
    the table's distance; draws are never proved either way."""
    variant = "suicide"
    table = tables(variant)
    search = ProofSearch(1 << 18)
    counts = {1: 0, 0: 0, -1: 0}
    for fen in random_positions(variant, [5, 4, 11], 80, 1):
        pos = Position.from_fen(fen, variant)
        p = table.probe(pos)
        assert p is not None
        if p.result == 0:
            for target in ("mover", "other"):
                assert search.solve(pos, target=target, seconds=0.3).status != PROVED, fen
        else:
            r = search.solve(pos, target="mover" if p.result > 0 else "other", seconds=2.0)
            if r.status == PROVED:
                assert r.plies >= p.plies, (fen, p, r.plies)
            assert r.status != DISPROVED, (fen, p)
        counts[p.result] += 1
    assert min(counts.values()) > 5, counts


def test_best_moves_keep_the_result_and_probes_mind_the_clock():
    variant = "giveaway"
    table = tables(variant)
    for fen in random_positions(variant, [5, 4, 11], 30, 2):
        pos = Position.from_fen(fen, variant)
        if pos.outcome() is not None:
            continue
        move, here = table.best_move(pos)
        pos.push_uci(move)
        after = table.probe(pos)
        if after is not None:                  # (None: an en passant capture opened)
            assert (after.result, after.plies) == (-here.result, max(here.plies - 1, 0)) \
                or (here.result == 0 and after.result == 0), (fen, move, here, after)
    # Ra1-c1 forces bxc1 and white has no piece left: won in 2 plies, unless the
    # 75-move rule comes first.
    won = Position.from_fen("8/8/8/8/8/8/1p6/R7 w - - 0 1", "suicide")
    assert tables("suicide").probe(won) == Probe(1, 2)
    assert tables("suicide").best_move(won) == ("a1c1", Probe(1, 2))
    late = Position.from_fen("8/8/8/8/8/8/1p6/R7 w - - 148 80", "suicide")
    assert tables("suicide").probe(late) is None
    assert table.probe(Position.start(variant)) is None          # too many pieces


def test_materials_and_refusals():
    assert len(all_materials(3)) == 288
    assert material_name(material_key([5, 4, 11])) == "KQvK"
    with pytest.raises(TableError, match="no endgame tables"):
        tables("chess")
    with pytest.raises(TableError, match="both sides"):
        tables("suicide").build(material_key([4, 5]))


def test_the_engine_plays_the_tables_move_once_its_table_is_built():
    from search.alphabeta.engine import Engine

    fen = "8/8/8/8/8/8/1p6/R7 w - - 0 1"
    engine = Engine("suicide", hash_mb=1)
    tables("suicide").build(material_key([3, 6]))           # R v p (and what follows)
    r = engine.search(Position.from_fen(fen, "suicide"), movetime=0.1)
    assert (r.move, r.mate, r.nodes, r.pv[0], len(r.pv)) == ("a1c1", 1, 0, "a1c1", 2)
    assert engine._proof is None                             # the tables answered
    # A fixed depth never asks them (the pinned searches stay as they were).
    assert Engine("suicide", hash_mb=1).search(Position.from_fen(fen, "suicide"), depth=2).nodes > 0


def test_saved_tables_load_and_a_corrupt_file_is_named(tmp_path, monkeypatch):
    from search.solve.endgame import TableError, Tables

    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path))
    built = tables("giveaway")
    built.build(material_key([4, 6]))                        # Q v p
    path = built.save()
    fresh = Tables("antichess")                              # antichess: giveaway's rules
    assert fresh.path == path and fresh.load() == len(built.tables)
    assert fresh.load() == 0                                 # read once a process
    pos = Position.from_fen("8/8/8/8/8/8/1p6/Q7 w - - 0 1", "antichess")
    assert fresh.probe(pos, build=False) == built.probe(pos)
    path.write_bytes(b"not a table")
    with pytest.raises(TableError, match="delete it"):
        Tables("giveaway").load()


@pytest.mark.slow
def test_the_proof_search_reads_the_tables_built():
    """With the 3-piece tables its captures lead to built, the proof-number search
    scores those children from them: the same answers as without, in fewer nodes."""
    variant = "suicide"
    fens = [f for f in random_positions(variant, [5, 4, 9, 7], 40, 3)
            if new_board(variant, f).outcome() is None][:12]
    plain = [ProofSearch(1 << 18).solve(Position.from_fen(f, variant), seconds=1.0)
             for f in fens]
    for f in fens:                             # the tables of every capture's material
        pos = Position.from_fen(f, variant)
        for m in pos.legal_moves():
            child = pos.copy()
            child.push_uci(m)
            tables(variant).value(child)
    read = [ProofSearch(1 << 18).solve(Position.from_fen(f, variant), seconds=1.0)
            for f in fens]
    for f, a, b in zip(fens, plain, read, strict=True):
        if OPEN not in (a.status, b.status):
            assert a.status == b.status, f
    assert sum(r.nodes for r in read) < sum(r.nodes for r in plain)
    assert sum(r.status != OPEN for r in read) >= sum(r.status != OPEN for r in plain)


def test_commands_say_when_the_tables_are_not_built(tmp_path, monkeypatch, capsys):
    """A match, ladder or suite in a losing variant says when its rules' tables are
    missing (an edit of their sources renames the file: the engine then searches those
    endgames, and a measurement must know it); other variants say nothing."""
    from tdleaf.cli.tools import say_if_no_tables

    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path))
    assert say_if_no_tables("suicide")
    assert "no endgame tables for suicide's rules" in capsys.readouterr().err
    assert not say_if_no_tables("crazyhouse")
    tables("antichess").save()                                # a file, even of no table
    assert not say_if_no_tables("antichess") and not say_if_no_tables("giveaway")
    assert capsys.readouterr().err == ""
