"""The proof-number search (search.solve.pns) against python-chess: on seeded random sparse
positions of the variants whose goal is to lose every piece (and of atomic), every
forced win a brute-force search finds within a few plies is proved, every proof is a
forced win of at most its length, and every disproof has no short forced win."""

from __future__ import annotations

import random

import chess
import pytest

from search.solve.pns import DISPROVED, OPEN, PROVED, ProofSearch
from tests.helpers_search import forces_win, new_board, shortest_win
from variants import Position

PLIES = 5          # the brute force's horizon
CAPACITY = 1 << 18


def sparse_positions(variant: str, seed: int, n: int) -> list[str]:
    """``n`` valid positions of ``variant`` with 2-5 pieces and no castling rights,
    neither over nor drawn."""
    rng = random.Random(f"pns:{variant}:{seed}")
    out: list[str] = []
    while len(out) < n:
        board = new_board(variant)
        board.clear()
        for _ in range(rng.randint(2, 5)):
            piece = chess.Piece(rng.choice(chess.PIECE_TYPES), rng.choice(chess.COLORS))
            board.set_piece_at(rng.choice(chess.SQUARES), piece)
        board.turn = rng.choice(chess.COLORS)
        board.castling_rights = 0
        if (board.is_valid() and board.outcome() is None and any(board.legal_moves)
                and not board.is_insufficient_material()):
            out.append(board.fen())
    return out


@pytest.fixture(scope="module")
def search():
    return ProofSearch(CAPACITY)


@pytest.mark.parametrize("variant, capacity", [
    pytest.param("suicide", CAPACITY, marks=pytest.mark.slow), ("giveaway", CAPACITY),
    pytest.param("antichess", CAPACITY, marks=pytest.mark.slow),
    pytest.param("atomic", 1 << 15, marks=pytest.mark.slow)])
def test_proofs_agree_with_brute_force(variant, capacity):
    search = ProofSearch(capacity)
    seen = {PROVED: 0, DISPROVED: 0}
    for fen in sparse_positions(variant, 1, 40):
        pos = Position.from_fen(fen, variant)
        r = search.solve(pos)
        shortest = shortest_win(fen, variant, PLIES)
        if shortest is not None:
            assert r.status == PROVED and r.plies >= shortest, (fen, shortest, r)
        if r.status == PROVED:
            seen[PROVED] += 1
            assert r.best in r.moves and r.moves[r.best] == (PROVED, r.plies - 1), (fen, r)
            if r.plies <= PLIES + 2:
                board = new_board(variant, fen)
                assert forces_win(board, variant, chess.Move.from_uci(r.best), r.plies), (fen, r)
        elif r.status == DISPROVED:
            seen[DISPROVED] += 1
            assert shortest is None, (fen, shortest, r)
        else:
            assert r.status == OPEN and r.nodes > capacity // 2, (fen, r)
    assert seen[PROVED] >= 5 and seen[DISPROVED] >= 1, seen


@pytest.mark.parametrize("variant", [pytest.param("suicide", marks=pytest.mark.slow), "antichess"])
def test_the_other_side_s_wins_are_the_mover_s_losses(variant, search):
    """``target='other'``: the opponent's forced wins; a root move proved for the other
    side loses by force (brute force: the opponent then wins within the proof's length)."""
    checked = 0
    for fen in sparse_positions(variant, 2, 40):
        pos = Position.from_fen(fen, variant)
        mine, theirs = search.solve(pos), search.solve(pos, target="other")
        assert not (mine.status == PROVED and theirs.status == PROVED), fen
        for uci, (status, plies) in theirs.moves.items():
            if status == PROVED and plies <= PLIES:
                board = new_board(variant, fen)
                mover = board.turn
                board.push_uci(uci)
                if plies == 0:                       # the move ends the game
                    assert board.outcome().winner is (not mover), (fen, uci)
                else:
                    assert shortest_win(board.fen(), variant, plies) is not None, (fen, uci)
                checked += 1
    assert checked >= 5


def test_stalemate_rules_of_each_variant(search):
    """White's king move stalemates Black, who has more pieces: in suicide the side with
    fewer pieces wins (White), in giveaway and antichess the stalemated side (Black)."""
    fen = "8/8/p7/p7/p1p5/P1P5/8/4K3 w - - 0 1"
    for variant, winner, target in (("suicide", chess.WHITE, "mover"),
                                    ("giveaway", chess.BLACK, "other"),
                                    ("antichess", chess.BLACK, "other")):
        board = new_board(variant, fen)
        board.push_uci("e1d1")
        assert board.outcome() is not None and board.outcome().winner is winner
        r = search.solve(Position.from_fen(fen, variant), target=target)
        assert r.moves["e1d1"] == (PROVED, 0), (variant, r.moves)


def test_proved_wins_are_kept_for_the_next_search_and_bad_input_is_refused():
    search = ProofSearch(CAPACITY)
    fen = next(f for f in sparse_positions("antichess", 3, 40)
               if (shortest_win(f, "antichess", PLIES) or 0) >= 3)
    first = search.solve(Position.from_fen(fen, "antichess"))
    again = search.solve(Position.from_fen(fen, "antichess"))
    assert first.status == again.status == PROVED and first.best == again.best
    assert again.nodes < first.nodes, (first.nodes, again.nodes)   # the table's wins
    with pytest.raises(ValueError, match="target"):
        search.solve(Position.start("suicide"), target="white")
    r = search.solve(Position.start("antichess"), seconds=0.05)
    assert r.status == OPEN and r.best is None and len(r.moves) == 20


def test_the_engine_plays_a_proved_win_and_avoids_a_proved_loss():
    """With a clock and a proof share, suicide's engine plays the proved win
    with its mate distance, and never a root move the proof search proves to lose;
    with a depth or node limit it does not run."""
    from search.alphabeta.engine import Engine
    from search.solve.pns import at_root

    engine = Engine("suicide", hash_mb=1)
    engine.proof_share = 0.25
    won = Position.from_fen("8/8/8/8/8/8/1p6/R7 w - - 0 1", "suicide")
    r = engine.search(won, movetime=0.2)
    assert (r.move, r.mate, r.pv) == ("a1c1", 1, ["a1c1", "b2c1k"]) and r.leaf_terminal
    checked = 0
    for fen in sparse_positions("suicide", 4, 120):
        pos = Position.from_fen(fen, "suicide")
        mine, lost = at_root(ProofSearch(1 << 16), pos, 0.2)
        if mine.status == PROVED or not lost or len(lost) == len(mine.moves):
            continue
        checked += 1
        assert engine.search(pos, movetime=0.1).move not in lost, (fen, lost)
        if checked == 5:
            break
    assert checked == 5
    fixed = Engine("suicide", hash_mb=1)
    fixed.proof_share = 0.25
    fixed.search(won, depth=2)
    fixed.search(won, depth=2, movetime=1.0)          # a depth cap too, as UCI_Elo's
    fixed.search(won, nodes=500, movetime=1.0)
    assert fixed._proof is None                       # no proof search ran


#: Black's lone king to move in suicide: g4h5 loses by force in 16 plies (the proof takes
#: some 50 nodes), g4f3 is not proved lost. From tdleaf's games against Sjeng (the
#: defence suite: tdleaf played g4h5 at 1 s a move).
CHECKED = "8/3K1P1K/8/1B6/1N4k1/8/1PK5/R7 b - - 6 36"


def test_the_proof_check_leaves_out_a_chosen_move_proved_to_lose():
    """With a proof check, the move alpha-beta chose is searched for the opponent: at
    depth 7 alpha-beta prefers g4h5 to g4f3, but with a clock and the check the engine
    plays g4f3 (reporting g4h5 refuted where it chose it first); when every allowed move
    is proved to lose it plays the longest loss as the mate it is, which python-chess's
    rules bear out; with a depth limit the check never runs."""
    from search.alphabeta.engine import Engine, Limits

    engine = Engine("suicide", hash_mb=1)
    pair = ["g4h5", "g4f3"]
    assert engine.search(CHECKED, limits=Limits(depth=7, searchmoves=pair)).move == "g4h5"
    engine.proof_check = 0.5
    r = engine.search(CHECKED, limits=Limits(depth=7, searchmoves=pair))
    assert (r.move, r.refuted, engine._proof) == ("g4h5", [], None)
    engine.new_game()
    r = engine.search(CHECKED, limits=Limits(movetime=0.05, searchmoves=pair))
    assert r.move == "g4f3" and r.refuted in ([], ["g4h5"]) and r.mate is None
    engine.proof_check = 0.9      # alpha-beta too short to see the mate itself
    seen: list = []
    r = engine.search(CHECKED, limits=Limits(movetime=0.05, searchmoves=["g4h5"]),
                      info=seen.append)
    assert (r.move, r.refuted, r.mate) == ("g4h5", ["g4h5"], -9)
    assert seen[-1] is r                          # the front end reports the mate
    after = Position.from_fen(CHECKED, "suicide")
    after.push_uci("g4h5")
    proof = ProofSearch(1 << 12).solve(after)
    assert proof.status == PROVED and proof.plies == len(proof.pv) == 16
    board = new_board("suicide", CHECKED)
    for move in ["g4h5"] + proof.pv:
        board.push_uci(move)
    assert board.is_variant_win() or board.is_variant_loss()
    assert board.outcome().winner == chess.WHITE


def test_a_match_player_sets_its_proof_share():
    """``proof`` (a match player's setting) sets the share, 0 turning the search off;
    a share outside [0, 1) is refused."""
    from search.alphabeta.engine import Engine
    from tdleaf.play.players import MoveLimits, PlayerError, make_player

    won = Position.from_fen("8/8/8/8/8/8/1p6/R7 w - - 0 1", "suicide")
    for share, runs in (("0", False), ("0.5", True)):
        player = make_player("default", {"proof": share, "hash": 1})
        player.start("suicide")
        assert player.engine.proof_share == float(share)
        player.play(won, MoveLimits(movetime=0.1))
        assert (player.engine._proof is not None) == runs
    assert make_player("default").settings == {} and Engine("suicide").proof_share == 0
    for bad in ("1", "-0.1", "half"):
        with pytest.raises(PlayerError, match="share of the move's time"):
            make_player("default", {"proof": bad})
        with pytest.raises(PlayerError, match="share of the move's time"):
            make_player("default", {"proof_check": bad})
    assert make_player("default", {"proof_check": "0.3"}).proof_check == 0.3
