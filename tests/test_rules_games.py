"""Seeded random games played on a :class:`variants.Position` and a python-chess board
side by side, to the end of the game.

At every ply: the legal move sets, ``fen()``, ``is_check()``, ``outcome()`` (and, on a
stride, ``outcome(claim_draw=True)``) must be equal, and ``Position.key`` equality must
coincide with python-chess ``_transposition_key()`` equality among the positions of the
game. At the end, ``to_board()`` must equal the python-chess board and popping every
move must walk back through the same FENs and keys.

Games start from each variant's start position (uniform, tactical and take-back biased
play) and from sparse endgames where quiet or take-back play reaches the 75-move rule
and fivefold repetition (and the fifty-move / threefold claims on the way).
"""

from __future__ import annotations

import collections
import functools
import random
from dataclasses import dataclass, field

import chess
import pytest

from variants import VARIANTS, Position, move_to_uci

import helpers_rules as H
from helpers_tiers import costly_in_full_tier, sampled_in_fast_tier

MAX_PLIES = 4000  # safety net only: every test game must end by the rules before this

T = chess.Termination


@dataclass
class GameRecord:
    variant: str
    name: str
    start: str
    moves: list[str] = field(default_factory=list)
    termination: chess.Outcome | None = None
    claimed: set = field(default_factory=set)
    mismatch: str | None = None
    positions: int = 0
    repeated_positions: int = 0
    claim_checks: int = 0

    def where(self) -> str:
        return (f"{self.variant} game {self.name!r} from {self.start!r} after "
                f"{len(self.moves)} plies (moves: {' '.join(self.moves[-12:])})")


@functools.cache
def play(variant: str, spec: tuple) -> GameRecord:
    name, fen, style, stride = spec
    board = H.new_board(variant, fen)
    pos = Position.from_fen(fen, variant) if fen else Position.start(variant)
    rec = GameRecord(variant, name, board.fen())
    rng = random.Random(f"game-{variant}-{name}")
    prefs = H.STYLES[style]
    tkey_to_key: dict = {}
    key_to_tkey: dict = {}
    keys: list[int] = []
    fens: list[str] = []

    def fail(msg: str) -> GameRecord:
        rec.mismatch = f"{msg}\n  in {rec.where()}\n  python-chess fen: {board.fen()}"
        return rec

    for ply in range(MAX_PLIES):
        rec.positions += 1
        fen_b, fen_p = board.fen(), pos.fen()
        if fen_p != fen_b:
            return fail(f"fen differs: Position {fen_p!r} != python-chess {fen_b!r}")
        legal = list(board.legal_moves)
        ours = pos.legal_moves()
        if sorted(ours) != sorted(m.uci() for m in legal):
            theirs = {m.uci() for m in legal}
            return fail(f"legal moves differ: only Position {sorted(set(ours) - theirs)}, "
                        f"only python-chess {sorted(theirs - set(ours))}, "
                        f"duplicates {len(ours) - len(set(ours))}")
        if pos.is_check() != board.is_check():
            return fail(f"is_check differs: Position {pos.is_check()} != {board.is_check()}")
        out_b, out_p = board.outcome(), pos.outcome()
        if out_p != out_b:
            return fail(f"outcome() differs: Position {out_p} != python-chess {out_b}")
        tkey, key = board._transposition_key(), pos.key
        if tkey_to_key.setdefault(tkey, key) != key or key_to_tkey.setdefault(key, tkey) != tkey:
            return fail("Position.key equality disagrees with python-chess "
                        "_transposition_key() equality within the game")
        if ply % stride == 0 or out_b is not None:
            rec.claim_checks += 1
            claim_b, claim_p = board.outcome(claim_draw=True), pos.outcome(claim_draw=True)
            if claim_p != claim_b:
                return fail(f"outcome(claim_draw=True) differs: Position {claim_p} != "
                            f"python-chess {claim_b}")
            if claim_b is not None and claim_b.termination in (T.FIFTY_MOVES, T.THREEFOLD_REPETITION):
                rec.claimed.add(claim_b.termination)
        keys.append(key)
        fens.append(fen_b)
        if out_b is not None:
            rec.termination = out_b
            break
        move = H.pick(board, rng, prefs, legal)
        board.push(move)
        pos.push_uci(move.uci())
        rec.moves.append(move.uci())
    else:
        return fail(f"game did not end within {MAX_PLIES} plies")
    rec.repeated_positions = len(keys) - len(set(keys))

    # The whole game, rebuilt by python-chess from the Position.
    rebuilt = pos.to_board()
    if rebuilt != board or [m.uci() for m in rebuilt.move_stack] != rec.moves \
            or rebuilt.fen() != board.fen() or type(rebuilt) is not type(board):
        return fail(f"to_board() differs: {rebuilt.fen()!r} vs {board.fen()!r}")
    if pos.move_stack != rec.moves:
        return fail("Position.move_stack differs from the moves played")
    # Take every move back.
    for i in range(len(rec.moves) - 1, -1, -1):
        undone = pos.pop()
        board.pop()
        if undone != rec.moves[i] or pos.fen() != fens[i] or pos.key != keys[i]:
            return fail(f"pop() back to ply {i} gives {undone!r}, {pos.fen()!r} "
                        f"(expected {rec.moves[i]!r}, {fens[i]!r}) or a different key")
    return rec


GAME_CASES = [(v, spec) for v in VARIANTS for spec in H.game_specs(v)]


@pytest.mark.parametrize("variant,spec", sampled_in_fast_tier(GAME_CASES, 3),
                         ids=[f"{v}-{s[0]}" for v, s in GAME_CASES])
def test_game_matches_python_chess(variant, spec):
    rec = play(variant, spec)
    assert rec.mismatch is None, rec.mismatch
    assert rec.termination is not None


#: Terminations that the seeded games of each variant must reach (so that the outcome
#: comparisons above really cover them), and draw claims seen with claim_draw=True.
EXPECTED_ENDINGS = {
    "chess": {T.CHECKMATE, T.STALEMATE, T.INSUFFICIENT_MATERIAL, T.SEVENTYFIVE_MOVES,
              T.FIVEFOLD_REPETITION},
    "crazyhouse": {T.CHECKMATE, T.INSUFFICIENT_MATERIAL, T.FIVEFOLD_REPETITION},
    "suicide": {T.VARIANT_WIN, T.VARIANT_LOSS, T.VARIANT_DRAW, T.SEVENTYFIVE_MOVES,
                T.FIVEFOLD_REPETITION},
    "giveaway": {T.VARIANT_WIN, T.SEVENTYFIVE_MOVES, T.FIVEFOLD_REPETITION},
    "antichess": {T.VARIANT_WIN, T.SEVENTYFIVE_MOVES, T.FIVEFOLD_REPETITION},
    "atomic": {T.VARIANT_LOSS, T.CHECKMATE, T.STALEMATE, T.SEVENTYFIVE_MOVES,
               T.FIVEFOLD_REPETITION, T.INSUFFICIENT_MATERIAL},
}
EXPECTED_ENDINGS.update({
    # (a king reaches the hill on its own move: the game ends as the opponent's loss;
    # VARIANT_WIN, the side to move already on the hill, is a FEN's: test_rules_fen)
    "kingofthehill": {T.VARIANT_LOSS, T.CHECKMATE, T.SEVENTYFIVE_MOVES,
                      T.FIVEFOLD_REPETITION},
    "3check": {T.VARIANT_LOSS, T.CHECKMATE, T.INSUFFICIENT_MATERIAL, T.SEVENTYFIVE_MOVES,
               T.FIVEFOLD_REPETITION},
    "racingkings": {T.VARIANT_LOSS, T.VARIANT_DRAW, T.SEVENTYFIVE_MOVES,
                    T.FIVEFOLD_REPETITION},
    "horde": {T.VARIANT_LOSS, T.CHECKMATE, T.SEVENTYFIVE_MOVES, T.FIVEFOLD_REPETITION},
})
EXPECTED_CLAIMS = {v: {T.FIFTY_MOVES, T.THREEFOLD_REPETITION} for v in VARIANTS}
EXPECTED_CLAIMS["crazyhouse"] = {T.THREEFOLD_REPETITION}  # no fifty-move rule in crazyhouse


@pytest.mark.parametrize("variant", costly_in_full_tier(
    VARIANTS, ("crazyhouse", "racingkings", "chess", "atomic", "horde")))
def test_games_reach_every_ending(variant):
    records = [play(variant, spec) for spec in H.game_specs(variant)]
    assert all(r.mismatch is None for r in records), "see test_game_matches_python_chess"
    endings = collections.Counter(r.termination.termination for r in records)
    claimed = set().union(*(r.claimed for r in records))
    missing = EXPECTED_ENDINGS[variant] - set(endings)
    assert not missing, f"{variant}: no seeded game ended by {missing}; got {dict(endings)}"
    assert EXPECTED_CLAIMS[variant] <= claimed, f"{variant}: draw claims seen {claimed}"
    assert sum(r.repeated_positions for r in records) >= 20
    positions = sum(r.positions for r in records)
    assert positions >= 1500, f"{variant}: only {positions} positions compared"


def test_crazyhouse_has_no_fifty_move_rule():
    """Sanity of the oracle itself: the crazyhouse clock runs but never ends the game."""
    fen = "4k3/8/8/8/8/8/8/4K3[Nn] w - - 160 100"
    board = H.new_board("crazyhouse", fen)
    pos = Position.from_fen(fen, "crazyhouse")
    assert board.outcome(claim_draw=True) is None
    assert pos.outcome(claim_draw=True) == board.outcome(claim_draw=True)
    assert pos.fen() == board.fen()


@pytest.mark.parametrize("variant", costly_in_full_tier(
    VARIANTS, ("crazyhouse", "chess", "racingkings", "horde", "3check")))
def test_one_move_from_perft_positions(variant):
    """From every perft position, up to 80 seeded legal moves are played on both sides:
    the children must agree on fen(), outcome(), is_check() and pop() must restore the
    parent. Many children are terminal here (mates, explosions, stalemates decided by
    material, pieces all given away), which random games rarely reach."""
    rng = random.Random(f"children-{variant}")
    endings = collections.Counter()
    children = 0
    for fen in H.perft_positions(variant):
        board = H.new_board(variant, fen)
        pos = Position.from_fen(fen, variant)
        assert pos.outcome() == board.outcome(), fen
        assert pos.outcome(claim_draw=True) == board.outcome(claim_draw=True), fen
        codes = {move_to_uci(int(c)): int(c) for c in pos.legal_move_codes()}
        moves = list(board.legal_moves)
        assert sorted(codes) == sorted(m.uci() for m in moves), fen
        for move in rng.sample(moves, min(80, len(moves))):
            board.push(move)
            pos.push(codes[move.uci()])
            children += 1
            out = board.outcome()
            assert pos.fen() == board.fen(), f"{fen} + {move.uci()}"
            assert pos.outcome() == out, f"{fen} + {move.uci()}: {pos.outcome()} != {out}"
            assert pos.is_check() == board.is_check(), f"{fen} + {move.uci()}"
            if out is not None:
                endings[out.termination] += 1
            board.pop()
            assert pos.pop() == move.uci()
            assert pos.fen() == board.fen()
    assert children >= 2000
    assert sum(endings.values()) >= 20, dict(endings)
