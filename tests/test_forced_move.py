"""A timed move with one legal move is played at once (``Engine.forced_at_once``, off by
default), its time left on the clock; a fixed-depth or node search is searched as asked;
a proved win at the root is played without any alpha-beta search. Nothing here times a
search: the assertions are on depths, nodes and what ran."""

from __future__ import annotations

import pytest

from search import Engine
from search.alphabeta import negamax as ab
from search.alphabeta import shortcuts
from search.alphabeta.clock import time_plan
from search.alphabeta.engine import Limits
from variants import Position

from helpers_search import new_board

# (variant, FEN, its only legal move): a compulsory capture in suicide and giveaway, the
# one way out of check in chess.
FORCED = [
    ("suicide", "4k3/8/8/8/8/8/p7/R7 w - - 0 1", "a1a2"),
    ("giveaway", "4k3/pp6/8/8/8/8/p7/R6K w - - 0 1", "a1a2"),
    ("chess", "k7/8/8/8/8/8/6PP/r5K1 w - - 0 1", "g1f2"),
]


@pytest.mark.parametrize("variant,fen,only", FORCED, ids=[v for v, _, _ in FORCED])
def test_a_forced_move_is_played_at_once(variant, fen, only):
    """Under a move time or a clock the only move comes from a depth-1 search (a score
    and a PV for the front end); a fixed-depth search is the same with the switch on or
    off."""
    assert [m.uci() for m in new_board(variant, fen).legal_moves] == [only]
    engine = Engine(variant, "traditional", hash_mb=1)
    assert not engine.forced_at_once                       # off by default
    fixed = engine.search(fen, depth=4)
    engine.forced_at_once = True
    engine.new_game()
    again = engine.search(fen, depth=4)
    assert (again.move, again.score, again.pv, again.nodes, again.depth) == (
        fixed.move, fixed.score, fixed.pv, fixed.nodes, fixed.depth)
    for limits in (Limits(movetime=1.0), Limits(wtime=60.0, btime=60.0, winc=1.0, binc=1.0)):
        engine.new_game()
        seen: list = []
        r = engine.search(fen, limits=limits, info=seen.append)
        assert (r.move, r.pv[0], r.depth) == (only, only, 1), r
        assert r.nodes < fixed.nodes and seen[-1] is r     # the front end hears of it
        assert engine._proof is None                       # no proof search either


def test_only_a_timed_search_of_the_whole_root_is_cut_short():
    """Fixed depths, node counts, infinite and pondering searches, MultiPV, mate searches
    and a front end's search moves are searched as asked; so is a root with two moves,
    and everything while the switch is off."""
    engine = Engine("suicide", "traditional", hash_mb=1)
    engine.forced_at_once = True
    forced = Position.from_fen(FORCED[0][1], "suicide")
    two = Position.from_fen("4k3/8/8/8/8/8/pRp5/8 w - - 0 1", "suicide")    # b2a2, b2c2

    def cut(pos: Position, limits: Limits) -> bool:
        return shortcuts.forced_move(engine, pos, limits, time_plan(limits, pos))

    assert cut(forced, Limits(movetime=1.0)) and cut(forced, Limits(wtime=5.0, btime=5.0))
    assert len(two.legal_move_codes()) == 2 and not cut(two, Limits(movetime=1.0))
    for limits in (Limits(depth=3), Limits(nodes=1000), Limits(depth=3, movetime=1.0),
                   Limits(nodes=1000, movetime=1.0), Limits(infinite=True),
                   Limits(movetime=1.0, ponder=True), Limits(movetime=1.0, multipv=2),
                   Limits(movetime=1.0, mate=2), Limits(movetime=1.0, searchmoves=["a1a2"])):
        assert not cut(forced, limits), limits
    engine.forced_at_once = False
    assert not cut(forced, Limits(movetime=1.0))


def test_a_proved_win_at_the_root_is_played_at_once(monkeypatch):
    """With a proof share, a win the proof search proves before alpha-beta is the move:
    neither the alpha-beta search nor the proof check of its move runs (4 pieces: no
    endgame table answers first)."""
    engine = Engine("suicide", "traditional", hash_mb=1)
    engine.proof_share, engine.own_book = 0.5, False

    def never(*args, **kwargs):
        raise AssertionError("ran after a proved win")

    monkeypatch.setattr(engine, "_deepen", never)
    monkeypatch.setattr(shortcuts, "check_move", never)
    r = engine.search("8/6pp/8/8/8/8/1p6/R7 w - - 0 1", movetime=1.0)
    assert (r.move, r.mate, r.pv[0], len(r.pv), r.refuted) == ("a1c1", 1, "a1c1", 2, [])
    assert engine.ctl[ab.C_NODES] == 0 and r.nodes > 0      # the proof search's nodes only


def test_a_match_player_sets_forced_at_once():
    """``forced_at_once`` (a match player's setting, to measure it) reaches the engine."""
    from tdleaf.play.players import PlayerError, make_player

    for value, on in (("1", True), ("0", False), (None, False)):
        player = make_player("default", {"hash": 1} if value is None
                             else {"forced_at_once": value, "hash": 1})
        player.start("suicide")
        assert player.engine is not None and player.engine.forced_at_once is on
    with pytest.raises(PlayerError):
        make_player("default", {"forced_at_once": "maybe"})
