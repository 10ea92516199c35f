"""The opening book the proof search builds (search.solve.book, ``tdleaf book``), and the
engine that consults it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import chess
import pytest

from search.alphabeta.engine import Engine
from search.shipped import package_data_dir
from search.solve import book as bk
from search.solve.pns import PROVED, ProofSearch
from tdleaf.backend import Backend
from tdleaf.play.book import build, records_path
from variants import Position, board_class

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def user_books(tmp_path, monkeypatch):
    """A per-user data folder of the test's own, the books' cache cleared around it."""
    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path))
    bk.shipped_book.cache_clear()
    yield tmp_path
    bk.shipped_book.cache_clear()


def _at(variant: str, line: list[str]) -> Position:
    pos = Position.start(variant)
    for m in line:
        pos.push_uci(m)
    return pos


def _play_out(variant: str, fen: str, pv: list[str]) -> chess.Board:
    board = board_class(variant)(fen)
    for m in pv:
        assert chess.Move.from_uci(m) in board.legal_moves, (fen, pv, m)
        board.push_uci(m)
    return board


def _check_win(variant: str, key: str, move: str) -> None:
    """The book's win ``move`` in ``key`` proved again and its line played out by
    python-chess, to a won end for the book's side or to a position of at most 3 pieces
    (scored from the endgame tables); a line that stops at a win its table of proved
    wins knew is proved on from there."""
    pos = Position.from_fen(key + " 0 1", variant)
    mover = pos.turn
    pos.push_uci(move)
    for _ in range(20):
        target = "mover" if pos.turn == mover else "other"
        found = ProofSearch(1 << 20).solve(pos, target=target)
        assert found.status == PROVED and found.pv, (key, move, pos.fen())
        board = _play_out(variant, pos.fen(), found.pv)
        outcome = board.outcome()
        if outcome is not None:
            assert outcome.winner == mover, (key, move, found.pv)
            return
        if len(board.piece_map()) <= 3:
            return
        for m in found.pv:
            pos.push_uci(m)
    raise AssertionError(f"{key} {move}: no end after 20 proofs")


def test_the_positions_are_each_reachable_position_once():
    lines = bk.positions("suicide", 2)
    assert lines[0] == [] and sum(len(line) == 1 for line in lines) == 20
    keys = {bk.book_key(_at("suicide", line)) for line in lines}
    assert len(keys) == len(lines) == 421                 # no transposition within 2 plies
    assert bk.positions("antichess", 0) == [[]]


@pytest.mark.slow
def test_a_build_proves_wins_that_python_chess_confirms_and_resumes_after_a_kill(tmp_path):
    out = tmp_path / "suicide.json"
    book = build("suicide", 1, 20_000, out, Backend("local", 1), command="test")
    assert book.positions == 21 and read_ok(out) == book.to_json()
    wins = {k: e for k, e in book.entries.items() if e.wins}
    assert wins, "1.d3, 1.d4 and 1.e4 lose by force in a few thousand nodes"
    # Black's wins after them, carried back: the three moves lose at the start.
    start = book.probe(Position.start("suicide"))
    assert start is not None and {"d2d3", "d2d4", "e2e4"} <= set(start.losses)
    for move, plies in start.losses.items():
        after = _at("suicide", [move])
        assert book.probe(after).best_win()[1] == plies
    for key, entry in wins.items():
        _check_win("suicide", key, entry.best_win()[0])
    # A killed build: its last records lost, one cut short; the same command resumes.
    records = records_path(out)
    lines = records.read_text().splitlines()
    records.write_text("\n".join(lines[:8]) + "\n" + lines[8][:20])
    again = build("suicide", 1, 20_000, out, Backend("local", 1), command="test")
    assert again.entries == book.entries
    assert len([t for t in records.read_text().splitlines() if t.endswith("}")]) == 22
    with pytest.raises(bk.BookError, match="another build"):
        build("suicide", 1, 30_000, out, Backend("local", 1))


def read_ok(path: Path) -> dict:
    return json.loads(path.read_text())


def test_the_engine_plays_the_books_win_and_never_a_move_it_refutes(user_books):
    start = Position.start("suicide")
    after_e4 = _at("suicide", ["e2e4"])
    legal = start.legal_moves()
    entries = {bk.book_key(after_e4): bk.Entry(wins={"b7b5": 31, "g7g5": 41}),
               bk.book_key(start): bk.Entry(losses={m: 30 for m in legal if m != "g1h3"})}
    bk.Book("suicide", 1, 1000, entries, 21).save(user_books / bk.relpath("suicide"))
    engine = Engine("suicide", hash_mb=1)
    r = engine.search(after_e4, movetime=0.05)
    assert (r.move, r.mate, r.pv) == ("b7b5", 16, ["b7b5"])
    assert engine.search(start, movetime=0.05).move == "g1h3"
    # A fixed depth (learning, the pinned searches, UCI_Elo's levels) never asks it.
    assert engine.search(after_e4, depth=2).mate is None
    # Without the book: the search's own move.
    engine.own_book = False
    assert engine.search(after_e4, movetime=0.05).mate is None
    # Every move refuted: the search chooses among all of them.
    lost = {bk.book_key(start): bk.Entry(losses={m: 30 for m in legal})}
    bk.Book("suicide", 1, 1000, lost, 21).save(user_books / bk.relpath("suicide"))
    bk.shipped_book.cache_clear()
    assert Engine("suicide", hash_mb=1).search(start, movetime=0.05).move in legal


def test_a_corrupt_book_is_named_and_the_engine_plays_without_it(user_books):
    path = user_books / bk.relpath("suicide")
    path.parent.mkdir(parents=True)
    path.write_text("{not a book")
    with pytest.raises(bk.BookError, match="not a readable book"):
        bk.read_book(path)
    engine = Engine("suicide", hash_mb=1)
    with pytest.warns(UserWarning, match="not a readable book"):
        engine.load_compiled()
    assert not engine.own_book
    assert engine.search(Position.start("suicide"), movetime=0.02).move
    engine.own_book = True                  # turned on again (OwnBook): said, and off
    with pytest.warns(UserWarning, match="not a readable book"):
        assert engine.search(Position.start("suicide"), movetime=0.02).move
    assert not engine.own_book
    assert Engine("chess", hash_mb=1).own_book is False      # no book in chess


@pytest.mark.parametrize("variant", ["suicide", "antichess"])
def test_the_shipped_book_holds_proofs_python_chess_confirms(variant):
    path = package_data_dir() / bk.relpath(variant)
    book = bk.read_book(path)
    assert book.variant == variant and book.command.startswith("tdleaf book")
    reachable = {bk.book_key(_at(variant, line)) for line in bk.positions(variant, book.plies)}
    for key, entry in book.entries.items():
        assert key in reachable
        legal = set(Position.from_fen(key + " 0 1", variant).legal_moves())
        assert set(entry.wins) <= legal and set(entry.losses) <= legal
        assert not set(entry.wins) & set(entry.losses)
    # The cheapest proofs of its records, proved again and played out.
    with gzip.open(ROOT / f"runs/pns/book/{variant}.json.records.jsonl.gz", "rt") as fh:
        rows = [json.loads(t) for t in list(fh)[1:]]
    assert len(rows) == book.positions
    cheap = sorted((r for r in rows if r["wins"]), key=lambda r: r["nodes"])[:3]
    for r in cheap:
        _check_win(variant, r["key"], book.entries[r["key"]].best_win()[0])
    cheap = sorted((r for r in rows if r["losses"]), key=lambda r: r["nodes"])[:3]
    for r in cheap:
        move = min(r["losses"], key=r["losses"].get)
        pos = Position.from_fen(r["key"] + " 0 1", variant)
        pos.push_uci(move)
        key = " ".join(pos.fen().split()[:4])
        best = ProofSearch(1 << 20).solve(pos)
        assert best.status == PROVED, (r["key"], move)
        _check_win(variant, key, best.best)


def test_uci_own_book(user_books):
    import io

    from search.protocol.uci import UciEngine

    bk.Book("suicide", 1, 1000, {bk.book_key(_at("suicide", ["e2e4"])): bk.Entry(
        wins={"b7b5": 31})}, 21).save(user_books / bk.relpath("suicide"))

    def session(*lines: str) -> list[str]:
        out = io.StringIO()
        script = "\n".join(["uci", "setoption name UCI_Variant value suicide", *lines,
                            "position startpos moves e2e4", "go movetime 50", "quit"])
        UciEngine(io.StringIO(script + "\n"), out).run()
        return out.getvalue().splitlines()

    on = session()
    assert "option name OwnBook type check default true" in on
    assert "bestmove b7b5" in on and any(" score mate 16 " in line for line in on)
    off = session("setoption name OwnBook value false")
    assert not any(" score mate 16 " in line for line in off)
    bad = session("setoption name OwnBook value maybe")
    assert any(line.startswith("info string error") for line in bad)
