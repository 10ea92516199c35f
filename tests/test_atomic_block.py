"""The ``atomic`` block: explosion threats in atomic chess.

Per side: capture squares whose blast would explode the enemy king (``king``) or reach an
enemy queen (``queen``), own pawns and pieces next to the own king (``adjacent.*``),
White's minus Black's; and the kings touching, for the side to move (``touching``).
Oracle: python-chess's AtomicBoard (its pieces, attacks and legal moves), never the
compiled code.
"""

from __future__ import annotations

import chess
import chess.variant
import numpy as np
import pytest

from search import Engine
from search.evaluate import feature_vector
from search.evaluation.blocks.atomic import BLOCK as ATOMIC_BLOCK
from search.evaluation.blocks.atomic import KEYS as ATOMIC_KEYS
from search.evaluation.blocks.atomic import atomic_features, explosion_captures
from search.layout import BASE_SIZE, BLOCKS, HAND, Weights, WeightsError, feature_layout
from tests.helpers_search import assert_scores_are_w_dot_x, random_positions, random_weight_vector
from variants import Position

LAYOUT = feature_layout("atomic", "psq+atomic")
SPAN = LAYOUT.span("atomic")


def fens() -> tuple[str, ...]:
    """Seeded random atomic positions: enough that every feature is non-zero somewhere
    (made when a test first asks, not at import: python-chess's atomic random play takes
    seconds, which every worker would pay while collecting)."""
    return random_positions("atomic", "atomic-block", 200, lo=2, hi=90)


def _kernel(fen: str) -> np.ndarray:
    pos = Position.from_fen(fen, "atomic")
    return feature_vector(pos.bb, pos.st, LAYOUT)[SPAN]


def test_the_block_is_registered_for_atomic_only():
    assert BLOCKS["atomic"] is ATOMIC_BLOCK and ATOMIC_BLOCK.keys == ATOMIC_KEYS
    assert LAYOUT.names[SPAN] == [f"atomic.{k}" for k in ATOMIC_KEYS]
    assert LAYOUT.table.tolist() == [[ATOMIC_BLOCK.code, LAYOUT.leaf_start, 5, 2]]
    # (d) Elsewhere: refused, with the reason.
    why = r"block 'atomic' is for atomic only \(rule 'explosions'\), not chess"
    with pytest.raises(WeightsError, match=rf"^--features psq\+atomic: {why}$"):
        feature_layout("chess", "psq+atomic")


def test_the_kernel_equals_the_reference_and_the_evaluation_is_w_dot_x():
    """(a) Kernel == python-chess reference on seeded random positions, every feature
    non-zero somewhere; the colour-mirrored position has the opposite features; the
    evaluation with random weights is w . x."""
    rng = np.random.default_rng(31)
    w = np.zeros(LAYOUT.size)
    w[:BASE_SIZE] = random_weight_vector(rng, 0.3)
    w[HAND:HAND + 6] = 0.0                   # no pockets in atomic
    w[SPAN] = rng.uniform(-0.5, 0.5, 5)
    seen = np.zeros(5)
    for fen in fens():
        pos = Position.from_fen(fen, "atomic")
        x = feature_vector(pos.bb, pos.st, LAYOUT)
        board = chess.variant.AtomicBoard(fen)
        want = atomic_features(board)
        assert x[SPAN].tolist() == want.tolist(), fen
        assert ATOMIC_BLOCK.reference is not None
        assert ATOMIC_BLOCK.reference(pos.bb, pos.st).tolist() == want.tolist(), fen
        assert _kernel(board.mirror().fen()).tolist() == (-want).tolist(), fen
        assert_scores_are_w_dot_x(pos, LAYOUT, w)
        seen += want != 0
    missing = [k for k, n in zip(ATOMIC_KEYS, seen) if not n]
    assert not missing, f"never non-zero: {missing}"


#: (b) Hand-made positions: per key, (White's count, Black's count), worked out by hand
#: (``touching``: its value). Keys left out are zero for both.
HAND_MADE = [
    # White Bb5 and Qd1 take d7 (once), next to Black's king e8 and queen e7. Black's
    # queen checks e1: the king is no capture square, so the white queen beside it does
    # not count. Next to Ke1: Qd1; next to ke8: pd7, qe7.
    ("4k3/3pq3/8/1B6/8/8/P7/3QK2R w - - 0 1",
     {"king": (1, 0), "queen": (1, 0), "adjacent.pawn": (0, 1), "adjacent.piece": (1, 1)}),
    # Captures next to both kings are left out: Ba2xd5 and Rf8xf5 (each next to the
    # capturer's own king). Nb8xd7 explodes ke6; Rf8xb8 is a capture next to nothing.
    ("1N3r2/3p4/4k3/3n1N2/4K3/8/B7/8 w - - 0 1",
     {"king": (1, 0), "adjacent.pawn": (0, 1), "adjacent.piece": (1, 1)}),
    # Touching kings d4, e5, White to move. White's Bxd5 and Rxe4 (the latter also next
    # to Black's queen) are next to its own king: left out; Qxa5 counts in nothing.
    # Black's Bxc3 takes the queen next to White's king; qxe1 counts in nothing.
    ("8/8/8/b2pk3/3Kq3/1BQ5/5n2/4R3 w - - 0 1",
     {"king": (0, 1), "queen": (0, 1), "adjacent.pawn": (0, 1), "adjacent.piece": (1, 1),
      "touching": 1}),
    # The same, Black to move.
    ("8/8/8/b2pk3/3Kq3/1BQ5/5n2/4R3 b - - 0 1",
     {"king": (0, 1), "queen": (0, 1), "adjacent.pawn": (0, 1), "adjacent.piece": (1, 1),
      "touching": -1}),
    # Each square once: e7 is attacked by both knights and next to both queens; with
    # d8 and f8 (the queens themselves), 3 squares. No king is near anything.
    ("k2q1q2/4p3/2N3N1/8/8/8/8/1K6 b - - 0 1", {"queen": (3, 0)}),
]


def _hand_value(values: dict[str, tuple[int, int] | int], key: str) -> float:
    v = values.get(key, 0 if key == "touching" else (0, 0))
    return float(v if isinstance(v, int) else v[0] - v[1])


@pytest.mark.parametrize("fen, values", HAND_MADE)
def test_hand_made_positions_and_their_mirrors(fen, values):
    """(b) The worked-out values, and the negated ones with the colours swapped."""
    want = [_hand_value(values, k) for k in ATOMIC_KEYS]
    board = chess.variant.AtomicBoard(fen)
    assert board.is_valid(), fen
    assert atomic_features(board).tolist() == want
    assert _kernel(fen).tolist() == want
    assert _kernel(board.mirror().fen()).tolist() == [-v for v in want]


def _winning_captures(board: chess.variant.AtomicBoard) -> set[int]:
    """Squares of the mover's legal captures (en passant aside) that win at once: after
    the push, python-chess's ``is_variant_loss`` says the side then to move has lost its
    king."""
    squares = set()
    for move in board.legal_moves:
        if board.is_capture(move) and not board.is_en_passant(move):
            board.push(move)
            if board.is_variant_loss():
                squares.add(move.to_square)
            board.pop()
    return squares


@pytest.mark.slow
def test_king_counts_exactly_the_legal_captures_that_win_at_once():
    """(c) Against python-chess's rules, on the seeded positions: for the side to move,
    the squares counted for ``king`` (explosion_captures next to the enemy king) are
    exactly the to-squares of its legal non-en-passant captures that win at once. There
    is no exception to allow for: python-chess holds a capture that explodes the enemy
    king and not the own one legal even in check or from a pinned piece. Where the side
    to move is not in check, its turn is also handed to the other side (a legal
    position too), and the kernel's ``king`` is White's number of such squares minus
    Black's, counted from python-chess's legal moves alone."""
    counted = both = 0
    for fen in fens():
        board = chess.variant.AtomicBoard(fen)
        mover, enemy_king = board.turn, board.king(not board.turn)
        assert enemy_king is not None
        wins = _winning_captures(board)
        assert wins == set(explosion_captures(board, mover)
                           & chess.BB_KING_ATTACKS[enemy_king]), fen
        counted += bool(wins)
        if board.is_check():
            continue
        other = board.copy(stack=False)
        other.turn, other.ep_square = not board.turn, None
        assert other.is_valid(), fen
        n = {mover: len(wins), not mover: len(_winning_captures(other))}
        assert _kernel(fen)[0] == n[chess.WHITE] - n[chess.BLACK], fen
        both += n[chess.WHITE] != n[chess.BLACK]
    assert counted >= 10 and both >= 10, (counted, both)


@pytest.mark.slow
def test_an_atomic_search_with_the_block_plays_a_legal_move():
    """(e) Engine with psq+atomic weights, depth 3, from the start and two random
    positions: a legal move each time; the PV's leaf (where the game goes on) has the
    block's features."""
    w = np.zeros(LAYOUT.size)
    w[:6] = [1, 3, 3, 5, 9, 0]
    w[SPAN] = [0.5, 0.3, -0.05, -0.1, 0.1]
    engine = Engine("atomic", Weights("atomic", w, {}, layout=LAYOUT), hash_mb=2)
    leaves = 0
    for fen in (chess.STARTING_FEN, *fens()[:2]):
        r = engine.search(fen, depth=3)
        assert r.move is not None
        assert chess.Move.from_uci(r.move) in chess.variant.AtomicBoard(fen).legal_moves, fen
        if r.leaf_position is not None and not r.leaf_terminal:
            assert r.leaf_features[SPAN].tolist() == atomic_features(
                r.leaf_position.to_board()).tolist()
            leaves += 1
    assert leaves >= 1
