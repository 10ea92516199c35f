"""``tdleaf bench selective``: both ways of measuring the techniques run end to end on
tiny matches and write the table (the Elo figures themselves are measured, not tested)."""

from __future__ import annotations

import json

import chess
import pytest

from search.alphabeta import negamax as ab
from search.alphabeta.engine import F_ASPIRATION, SELECTIVE_OFF, SELECTIVE_ON, search_flags
from tdleaf.bench.selective import applies, bench_positions, format_report, run, techniques


def _tiny(tmp_path, ablate: bool, only: list[str] | None = None) -> dict:
    return run("suicide", tmp_path / ("ablate" if ablate else "add"), movetime=0.005, max_games=2,
               sprt="0,15", workers=1, resume=False, random_plies=4, ablate=ablate, only=only,
               progress=lambda text: None)


@pytest.mark.slow
def test_adding_techniques_one_at_a_time(tmp_path):
    report = _tiny(tmp_path, ablate=False)
    names = [r["technique"] for r in report["rows"]]
    assert names == ["plain (full width)"] + [n for n, _ in techniques() if applies(n, "suicide")]
    assert names[1:] == ["aspiration windows", "late-move reductions", "bounded suicide quiescence",
                         "only-move extension", "forced-capture extension",
                         "forcing move ordering", "offers never reduced"]
    base = 0
    for row, (name, bit) in zip(report["rows"][1:], [t for t in techniques() if applies(t[0], "suicide")]):
        assert row["games"] == 2 and row["wins"] + row["losses"] + row["draws"] == 2
        assert row["base_flags"] == base and row["flags"] == base | bit
        if row["kept"]:
            base = row["flags"]
    assert report["final_flags"] == base
    assert json.loads((tmp_path / "add" / "report.json").read_text())["mode"] == "add"
    assert "added to the version above" in format_report(report)


@pytest.mark.slow
def test_ablation_takes_each_technique_out_of_the_full_set(tmp_path):
    """Two of the techniques (each row is two games and a search to depth 5: the test
    above plays all of them)."""
    only = ["late-move reductions", "forcing move ordering"]
    report = _tiny(tmp_path, ablate=True, only=only)
    full = (search_flags("selective") | ab.F_ONLY_MOVE | ab.F_FORCED_EXT | ab.F_FORCING_ORDER
            | ab.F_KEEP_OFFERS)
    assert report["rows"][0]["flags"] == full
    assert [r["technique"] for r in report["rows"][1:]] == only
    left_out = 0
    for row in report["rows"][1:]:
        bit = dict(techniques())[row["technique"]]
        assert row["flags"] == full and row["base_flags"] == full & ~bit
        left_out |= 0 if row["kept"] else bit
    assert report["final_flags"] == full & ~left_out
    assert (tmp_path / "ablate" / "suicide-without-late-move-reductions.pgn").exists()
    assert "taken out of the full set" in format_report(report)


def test_search_flags_per_variant(monkeypatch):
    full = ab.SELECTIVE | F_ASPIRATION
    assert search_flags("plain", "chess") == 0
    assert search_flags("selective") == full
    monkeypatch.setitem(SELECTIVE_OFF, "crazyhouse", ab.F_LMR)
    assert search_flags("selective", "crazyhouse") == full & ~ab.F_LMR
    assert search_flags("selective", "giveaway") == full      # nothing taken out there
    # suicide adds the extensions measured to help it (variants.spec selective_on)
    assert search_flags("selective", "suicide") == full | ab.F_ONLY_MOVE | ab.F_FORCED_EXT
    from search import Engine
    assert Engine("crazyhouse", "traditional", hash_mb=1).flags == full & ~ab.F_LMR
    assert Engine("crazyhouse", "traditional", hash_mb=1, search="plain").flags == 0
    monkeypatch.setitem(SELECTIVE_ON, "giveaway", ab.F_ONLY_MOVE)   # added where measured
    assert search_flags("selective", "giveaway") == full | ab.F_ONLY_MOVE


@pytest.mark.slow
def test_only_the_named_techniques(tmp_path, capsys):
    from tdleaf.cli import main
    report = run("suicide", tmp_path / "one", movetime=0.005, max_games=2, sprt="0,15", workers=1,
                 resume=False, random_plies=4, ablate=True, only=["late-move reductions"],
                 progress=lambda text: None)
    assert [r["technique"] for r in report["rows"][1:]] == ["late-move reductions"]
    assert main(["bench", "selective", "--variant", "suicide", "--technique", "nosuch",
                 "--out", str(tmp_path / "two")]) == 2
    assert "unknown technique 'nosuch'" in capsys.readouterr().err


@pytest.mark.parametrize("bit", [ab.F_ONLY_MOVE, ab.F_FORCED_EXT], ids=["only-move", "forced-ext"])
def test_the_extensions_search_forced_lines_deeper(bit):
    """``only-move`` (a node's one legal move) and ``forced-ext`` (compulsory captures, at
    most two) cost no depth, so forced capture lines are followed further, for more
    nodes. Off unless a variant's selective_on adds them (suicide's does; giveaway's not)."""
    from search import Engine
    from tdleaf.bench.selective import bench_positions
    base = search_flags("selective", "giveaway")
    assert base & bit == 0 and Engine("giveaway", hash_mb=1).flags == base
    assert search_flags("selective", "suicide") & bit
    fen = bench_positions("suicide")[2]
    plain = Engine("suicide", "traditional", hash_mb=1, flags=base).search(fen, depth=3)
    extended = Engine("suicide", "traditional", hash_mb=1, flags=base | bit).search(fen, depth=3)
    assert extended.seldepth > plain.seldepth and extended.nodes > plain.nodes


def test_forcing_order_puts_offered_pieces_first():
    """``forcing-order``: where captures are compulsory, a quiet move that leaves its piece
    where the opponent can take it is tried before the other quiet moves."""
    import numpy as np

    from variants import Position
    # White has no capture; the knight on b1 offers itself on a3 and c3 (the pawns on b4
    # and d4 take there), the king's moves offer nothing.
    pos = Position.from_fen("4k3/8/8/8/1p1p4/8/8/1N2K3 w - - 0 1", "suicide")
    moves = pos.legal_move_codes()
    n = len(moves)
    scores = np.zeros(n, dtype=np.int64)
    ab.order_offers(pos.bb, pos.st, moves, n, scores)
    names = pos.legal_moves()       # the same generation, the same order
    assert {u for u, s in zip(names, scores) if s > 0} == {"b1a3", "b1c3"}


#: Forced wins where captures are compulsory (variant, FEN, plies, every winning first
#: move; the losing family's of tests/test_search.py).
LOSING_WINS = [
    ("suicide", "8/8/8/8/8/1p6/8/R7 w - - 0 1", 2, {"a1a2"}),
    ("suicide", "7R/1p6/8/5p2/8/8/5N2/8 w - - 0 1", 4, {"f2g4"}),
    ("suicide", "8/7p/8/8/6R1/4N3/5p2/8 w - - 0 1", 4, {"g4g6"}),
    ("giveaway", "8/p7/8/8/8/8/8/1nBK4 w - - 0 1", 4, {"c1a3"}),
]


@pytest.mark.parametrize("variant,fen,plies,moves", LOSING_WINS)
def test_keeping_offers_finds_the_same_forced_wins(variant, fen, plies, moves):
    """``keep-offers`` on top of every compulsory-capture technique: the winning move,
    its exact distance, and a PV that python-chess plays out to the win."""
    from search import Engine

    from helpers_search import MATE, new_board
    flags = (search_flags("selective", variant) | ab.F_ONLY_MOVE | ab.F_FORCED_EXT
             | ab.F_FORCING_ORDER | ab.F_KEEP_OFFERS)
    r = Engine(variant, "traditional", hash_mb=2, flags=flags).search(fen, depth=plies + 2)
    assert r.move in moves and r.score == MATE - plies and len(r.pv) == plies, r.pv
    board = new_board(variant, fen)
    for move in r.pv:
        board.push_uci(move)
    assert board.outcome() is not None and board.outcome().winner == new_board(variant, fen).turn


def test_keeping_offers_widens_only_the_compulsory_capture_search():
    """``keep-offers`` (off in every variant until measured): where captures are
    compulsory a quiet move that offers a piece is never reduced, so a fixed-depth
    search is wider (32,583 nodes to depth 5 here, 19,965 without) and still plays legal moves;
    in chess, atomic and crazyhouse the bit changes nothing."""
    from search import Engine
    from search.alphabeta.engine import TECHNIQUE_BITS, technique_bits
    from variants.spec import VARIANTS

    from helpers_search import new_board
    bit = ab.F_KEEP_OFFERS
    assert TECHNIQUE_BITS["keep-offers"] == technique_bits(["keep-offers"]) == bit
    assert bit & ab.TECHNIQUES and not bit & ab.SELECTIVE
    assert all(not search_flags("selective", v) & bit for v in VARIANTS)
    for variant, fen, grows in (
            ("suicide", "rnbq1b2/p1pk1p2/4p2n/6p1/8/N3P1P1/PPPP1P2/R1B1K1N1 w - - 0 9", True),
            ("suicide", bench_positions("suicide")[0], True),
            ("chess", bench_positions("chess")[1], False),
            ("atomic", bench_positions("atomic")[2], False),
            ("crazyhouse", bench_positions("crazyhouse")[3], False)):
        base = search_flags("selective", variant)
        off = Engine(variant, "traditional", hash_mb=8, flags=base).search(fen, depth=5)
        on = Engine(variant, "traditional", hash_mb=8, flags=base | bit).search(fen, depth=5)
        if grows:
            assert on.nodes > off.nodes, (variant, fen, on.nodes, off.nodes)
        else:
            assert (on.move, on.score, on.pv, on.nodes) == (off.move, off.score, off.pv,
                                                           off.nodes)
        board = new_board(variant, fen)
        for move in on.pv:
            assert chess.Move.from_uci(move) in board.legal_moves, (fen, on.pv)
            board.push_uci(move)


def test_offers_piece_is_what_forcing_order_finds():
    """The one test of an offer behind ``forcing-order`` and ``keep-offers``."""
    from variants import Position
    pos = Position.from_fen("4k3/8/8/8/1p1p4/8/8/1N2K3 w - - 0 1", "suicide")
    offers = {u for u, m in zip(pos.legal_moves(), pos.legal_move_codes())
              if ab.offers_piece(pos.bb, pos.st, m)}
    assert offers == {"b1a3", "b1c3"}
