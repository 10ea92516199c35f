"""What a proof search proves goes into the alpha-beta search's transposition table
(``Engine.proofs_to_tt``, ``search.solve.pns.store_proved``, issue 97): a search too
shallow to see a proved win or loss reports it as the mate it is, under the search's
own keys; a stored verdict never makes the search report a wrong result (seeded random
suicide positions, against brute force, the proof search and a deeper plain search);
off, a timed move writes nothing."""

from __future__ import annotations

import random

import chess
import pytest

from search.alphabeta import negamax as ab
from search.alphabeta.engine import Engine, Limits
from search.solve.pns import PROVED, ProofSearch
from tests.helpers_search import forces_win, new_board
from variants import Position

#: Black's lone king to move in suicide: g4h5 loses by force in 16 plies
#: (tests/test_pns.py), far beyond a depth-3 search.
CHECKED = "8/3K1P1K/8/1B6/1N4k1/8/1PK5/R7 b - - 6 36"
#: The brute force's horizon, in plies.
PLIES = 5


def _after(fen: str, move: str) -> Position:
    pos = Position.from_fen(fen, "suicide")
    pos.push_uci(move)
    return pos


def _plies(score: float) -> int:
    """The length in plies of a mate score's win or loss."""
    return round(ab.MATE - abs(score))


def test_a_proved_loss_reaches_a_shallow_search():
    """At depth 3 alpha-beta sees nothing after g4h5; once the proof of White's win
    after it is in the table, the same search reports the loss in 17 plies (mate -9,
    what the proof check reports), its PV cut where the proof takes over."""
    engine = Engine("suicide", hash_mb=1)
    only = Limits(depth=3, searchmoves=["g4h5"])
    assert engine.search(CHECKED, limits=only).mate is None
    engine.new_game()
    after = _after(CHECKED, "g4h5")
    proof = ProofSearch(1 << 12).solve(after, tt=engine.tt)
    assert proof.status == PROVED and proof.plies == 16 and proof.stored > 1
    entry = engine.tt[after.key % len(engine.tt)]          # the search's own key
    assert entry["key"] == after.key and entry["depth"] == ab.PROOF_DEPTH
    assert (entry["score"], entry["flag"]) == (ab.MATE - 16, ab.TT_LOWER)
    r = engine.search(CHECKED, limits=only)
    assert (r.move, r.score, r.mate) == ("g4h5", -(ab.MATE - 17), -9)
    assert r.pv == ["g4h5"]


def test_a_proved_win_reaches_a_shallow_search():
    """White to move after g4h5 wins in 16 plies: a depth-2 search sees no mate, and
    with the proof in the table reports one, by a move the proof proves, of the length
    the proof gives that move (the stored loser's nodes are upper bounds)."""
    after = _after(CHECKED, "g4h5")
    engine = Engine("suicide", hash_mb=1)
    assert engine.search(after, depth=2).mate is None
    engine.new_game()
    proof = ProofSearch(1 << 12).solve(after, tt=engine.tt)
    r = engine.search(after, depth=2)
    status, plies = proof.moves[r.move]
    assert status == PROVED and r.score == ab.MATE - (plies + 1) and r.mate == 8


def test_no_proof_the_fifty_move_rule_could_touch_is_stored():
    """The table's key has no halfmove clock and the search calls 100 plies without a
    capture or pawn move a draw: a proof whose line could reach it is not stored (the
    same position at clock 90 is proved, its 16-ply win is not written)."""
    late = _after(CHECKED.replace(" 6 36", " 90 36"), "g4h5")
    engine = Engine("suicide", hash_mb=1)
    proof = ProofSearch(1 << 12).solve(late, tt=engine.tt)
    assert proof.status == PROVED
    assert engine.tt[late.key % len(engine.tt)]["key"] != late.key
    assert proof.stored < ProofSearch(1 << 12).solve(
        _after(CHECKED, "g4h5"), tt=Engine("suicide", hash_mb=1).tt).stored


def sparse_positions(seed: int, n: int) -> list[str]:
    """``n`` valid suicide positions of 4-8 pieces, no castling, neither over nor drawn."""
    rng = random.Random(f"proofs-to-tt:{seed}")
    out: list[str] = []
    while len(out) < n:
        board = new_board("suicide")
        board.clear()
        for _ in range(rng.randint(4, 8)):
            piece = chess.Piece(rng.choice(chess.PIECE_TYPES), rng.choice(chess.COLORS))
            board.set_piece_at(rng.choice(chess.SQUARES), piece)
        board.turn = rng.choice(chess.COLORS)
        board.castling_rights = 0
        if (board.is_valid() and board.outcome() is None and any(board.legal_moves)
                and not board.is_insufficient_material()):
            out.append(board.fen())
    return out


def _wins(fen: str, move: str, plies: int) -> bool:
    """Whether ``move`` forces a win within ``plies`` plies: brute force within
    :data:`PLIES`, else a win a fresh proof search proves after it."""
    board = new_board("suicide", fen)
    if plies <= PLIES:
        return forces_win(board, "suicide", chess.Move.from_uci(move), plies)
    # A fresh proof's line may be longer than the stored one: only the win is checked.
    return ProofSearch(1 << 16).solve(_after(fen, move), target="other").status == PROVED


def _check(fen: str, score: float, move: str) -> None:
    """A mate score is right: a win is forced by ``move`` within its length (brute force)
    or proved by a fresh proof search, a loss is the opponent's proved win after every
    move."""
    if score > ab.MATE_BOUND:
        assert _wins(fen, move, _plies(score)), (fen, move, score)
    elif score < -ab.MATE_BOUND:
        for m in new_board("suicide", fen).legal_moves:
            after = _after(fen, m.uci())
            assert ProofSearch(1 << 16).solve(after).status == PROVED, (fen, m, score)


@pytest.mark.slow
def test_stored_verdicts_never_make_the_search_wrong():
    """On seeded random suicide positions, both sides' proofs (the root's, as
    ``at_root`` asks them) go into the table and a depth-1 search follows: a proved win
    of the mover is reported as a win no longer than the proof, a proved loss as the
    loss; every mate the search reports is borne out (brute force, or a fresh proof
    search), and a deeper plain search never says the opposite."""
    seen = {"won": 0, "lost": 0, "new": 0}
    for fen in sparse_positions(1, 30):
        pos = Position.from_fen(fen, "suicide")
        engine = Engine("suicide", hash_mb=64)
        shallow = engine.search(fen, depth=1, leaf=False)
        search = ProofSearch(1 << 14)
        mine = search.solve(pos, tt=engine.tt)
        theirs = search.solve(pos, target="other", tt=engine.tt)
        r = engine.search(fen, depth=1, leaf=False)
        if mine.status == PROVED:
            seen["won"] += 1
            assert ab.MATE - mine.plies <= r.score, (fen, mine, r.score)
        if theirs.status == PROVED:
            seen["lost"] += 1
            assert r.score == -(ab.MATE - theirs.plies), (fen, theirs, r.score)
        if abs(r.score) > ab.MATE_BOUND >= abs(shallow.score):
            seen["new"] += 1
        _check(fen, r.score, r.move)
        deep = Engine("suicide", hash_mb=1).search(fen, depth=4, leaf=False)
        assert not (abs(deep.score) > ab.MATE_BOUND and abs(r.score) > ab.MATE_BOUND
                    and (deep.score > 0) != (r.score > 0)), (fen, deep.score, r.score)
    assert seen["won"] >= 3 and seen["lost"] >= 1 and seen["new"] >= 3, seen


def test_a_timed_move_writes_proofs_only_when_asked():
    """Off (the default), the proof check of a timed move writes nothing into the table;
    on, what it proves is there and the move is the same (g4h5 chosen, refuted, played as
    the mate against itself it is, as tests/test_pns.py has it); the table is kept, so a
    depth-3 search afterwards sees that mate."""
    limits = Limits(movetime=0.05, searchmoves=["g4h5"])
    for on in (False, True):
        engine = Engine("suicide", hash_mb=1)
        assert engine.proofs_to_tt is False
        engine.proofs_to_tt = on
        engine.proof_check = 0.9          # alpha-beta too short to see the mate itself
        r = engine.search(CHECKED, limits=limits)
        assert (r.move, r.refuted, r.mate) == ("g4h5", ["g4h5"], -9)
        assert bool((engine.tt["depth"] == ab.PROOF_DEPTH).any()) is on
        r = engine.search(CHECKED, limits=Limits(depth=3, searchmoves=["g4h5"]))
        assert (r.mate == -9) is on


def test_a_match_player_sets_proofs_to_tt():
    """``proofs_to_tt`` (a match player's setting, to measure it) reaches the engine."""
    from tdleaf.play.players import PlayerError, make_player

    for value, on in ((None, False), ("1", True), ("0", False)):
        player = make_player("default", {"hash": 1} if value is None
                             else {"proofs_to_tt": value, "hash": 1})
        player.start("suicide")
        assert player.engine is not None and player.engine.proofs_to_tt is on
    with pytest.raises(PlayerError, match="proofs_to_tt must be 1 or 0"):
        make_player("default", {"proofs_to_tt": "maybe"})
