"""``tdleaf bench selective``: both ways of measuring the techniques run end to end on
tiny matches and write the table (the Elo figures themselves are measured, not tested)."""

from __future__ import annotations

import json

import pytest

from search.alphabeta import negamax as ab
from search.alphabeta.engine import F_ASPIRATION, SELECTIVE_OFF, SELECTIVE_ON, search_flags
from tdleaf.bench.selective import applies, format_report, run, techniques


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
                         "forcing move ordering"]
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
    full = search_flags("selective") | ab.F_ONLY_MOVE | ab.F_FORCED_EXT | ab.F_FORCING_ORDER
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
