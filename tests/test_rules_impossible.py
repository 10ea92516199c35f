"""Positions python-chess's ``status()`` calls impossible but still plays.

The package accepts them (with a warning) and must then generate exactly python-chess's
moves, although such positions break invariants a move generator may lean on: three or
four checkers, checks along lines no move can open, en-passant squares behind which no
pawn stands (python-chess's e.p. capture then takes whatever does), pawns on their back
rank (which python-chess lets step two squares, to the third rank), castling rights
without the rook. Seeded generators build many of them per variant; the legal moves
and FENs are compared with python-chess at the root and one ply below (and so every
perft count to depth 2). python-chess's own published perft positions of this kind
(examples/perft/tricky.perft) are checked against their published counts.
"""

from __future__ import annotations

import random
import warnings

import chess
import chess.variant
import pytest

import variants
from variants import VARIANTS, Position, board_class, position_problems

import helpers_rules as H
from helpers_tiers import costly_in_full_tier

#: python-chess examples/perft/tricky.perft, "impossible checker alignment" (and its e.p.
#: neighbours): every one has status IMPOSSIBLE_CHECK. (id, FEN, {depth: nodes}).
PUBLISHED = [
    ("align-diag-1", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", {1: 4, 2: 125, 3: 2854}),
    ("align-diag-2", "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1", {1: 3, 2: 81, 3: 1217}),
    ("align-horizontal", "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1", {1: 2, 2: 56, 3: 1030}),
    ("align-ep", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", {1: 6, 2: 121, 3: 711}),
    ("align-ep-pinned", "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", {1: 5, 2: 100, 3: 555}),
    ("ep-unrelated-check", "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
     {1: 2, 2: 92, 3: 2528}),
]

#: Positions per variant and generator (three generators).
COUNT = {"chess": 160, "crazyhouse": 120, "atomic": 120, "suicide": 80, "giveaway": 60,
         "antichess": 60, "kingofthehill": 60, "3check": 60, "racingkings": 60, "horde": 60}
#: Floors on the special cases the generated positions must contain (per variant, both
#: generators together), so that a change to the generators cannot drop one silently.
MIN_FEATURES = {
    "chess": {"checkers>=3": 15, "impossible_check": 40, "ep_odd_capture": 15,
              "ep_non_pawn": 8, "backrank_double_push": 15},
    "crazyhouse": {"checkers>=3": 10, "impossible_check": 30, "ep_odd_capture": 10,
                   "backrank_double_push": 10},
    "atomic": {"ep_odd_capture": 10, "ep_non_pawn": 5, "backrank_double_push": 15},
    "suicide": {"ep_odd_capture": 10, "backrank_double_push": 10},
}
MIN_FEATURES["giveaway"] = MIN_FEATURES["antichess"] = {"ep_odd_capture": 5,
                                                        "backrank_double_push": 5}
MIN_FEATURES.update({
    "kingofthehill": {"impossible_check": 10, "ep_odd_capture": 5, "backrank_double_push": 5},
    "3check": {"impossible_check": 10, "ep_odd_capture": 5, "backrank_double_push": 5},
    # racing kings: every position in check is impossible there (race_check)
    "racingkings": {"impossible_check": 10, "backrank_double_push": 5},
    "horde": {"ep_odd_capture": 5, "backrank_double_push": 5},
})


def _finish(b: chess.Board, rng: random.Random, ep: int | None) -> str:
    fen = b.fen(en_passant="xfen").split(" ")
    if ep is not None:
        fen[3] = chess.square_name(ep)
    if rng.random() < 0.3:
        fen[2] = "".join(c for c in "KQkq" if rng.random() < 0.5) or "-"
    return " ".join(fen)


def _add_checkers(b: chess.Board, rng: random.Random, turn: bool, count: int, avoid: int = 0) -> None:
    """Up to ``count`` pieces of the side not to move attacking the king to move."""
    king = b.king(turn)
    if king is None:
        return
    for _ in range(count):
        for _ in range(30):
            sq = rng.randrange(64)
            if b.piece_at(sq) or chess.BB_SQUARES[sq] & avoid:
                continue
            b.set_piece_at(sq, chess.Piece(rng.choice([1, 2, 3, 4, 5]), not turn))
            if b.attackers_mask(not turn, king) & chess.BB_SQUARES[sq]:
                break
            b.remove_piece_at(sq)


def _scatter(b: chess.Board, rng: random.Random, n: int, avoid: int = 0) -> None:
    for _ in range(n):
        sq = rng.randrange(64)
        if b.piece_at(sq) or chess.BB_SQUARES[sq] & avoid:
            continue
        sym = rng.choice("PPPNBRQ")   # pawns anywhere, back ranks included
        b.set_piece_at(sq, chess.Piece.from_symbol(sym if rng.random() < 0.5 else sym.lower()))


def _kings(b: chess.Board, rng: random.Random, variant: str, avoid: int = 0) -> None:
    for color in chess.COLORS:
        if b.kings & b.occupied_co[color] or (variant in H.ANTI and rng.random() < 0.3):
            continue
        if variant == "horde" and color == chess.WHITE:   # the horde has no king
            continue
        free = [s for s in chess.SQUARES if not b.piece_at(s) and not chess.BB_SQUARES[s] & avoid]
        b.set_piece_at(rng.choice(free), chess.Piece(chess.KING, color))


def _pockets(b: chess.Board, rng: random.Random) -> None:
    if isinstance(b, chess.variant.CrazyhouseBoard):
        for color in chess.COLORS:
            for _ in range(rng.randint(0, 3)):
                b.pockets[color].add(rng.randint(1, 5))


def random_impossible(variant: str, rng: random.Random) -> str:
    """Kings, then up to four checkers of the king to move, then anything anywhere; an
    e.p. square on the right rank half the time; random castling rights."""
    b = board_class(variant)(None)
    b.clear()
    _kings(b, rng, variant)
    turn = rng.random() < 0.5
    _add_checkers(b, rng, turn, rng.choice([0, 1, 2, 2, 3, 3, 4]))
    _scatter(b, rng, rng.randint(0, 14))
    _pockets(b, rng)
    b.turn = turn
    ep = None
    if rng.random() < 0.5:
        ep = chess.square(rng.randrange(8), 5 if turn else 2)
    return _finish(b, rng, ep)


def odd_en_passant(variant: str, rng: random.Random) -> str:
    """A pawn that may capture e.p., with anything (or nothing) on the square of the pawn
    that should just have double-pushed, and checks around."""
    b = board_class(variant)(None)
    b.clear()
    turn = rng.random() < 0.5
    rank = 4 if turn else 3
    f = rng.randrange(8)
    g = f + rng.choice([-1, 1])
    g = g if 0 <= g < 8 else 2 * f - g
    b.set_piece_at(chess.square(f, rank), chess.Piece(chess.PAWN, turn))
    ep = chess.square(g, 5 if turn else 2)
    behind = rng.choice(["", "p", "p", "n", "q", "r", "P", "N", "B"])
    if behind:
        piece = chess.Piece.from_symbol(behind)
        b.set_piece_at(chess.square(g, rank), chess.Piece(piece.piece_type, piece.color != turn))
    avoid = chess.BB_SQUARES[ep]
    _kings(b, rng, variant, avoid)
    _add_checkers(b, rng, turn, rng.choice([0, 1, 1, 2, 3]), avoid)
    _scatter(b, rng, rng.randint(0, 8), avoid)
    _pockets(b, rng)
    b.turn = turn
    return _finish(b, rng, ep)


def backrank_pawns(variant: str, rng: random.Random) -> str:
    """Pawns on their own back rank (python-chess lets them step one or two squares) and
    on the far one, kings, a few pieces."""
    b = board_class(variant)(None)
    b.clear()
    for color in chess.COLORS:
        own = 0 if color == chess.WHITE else 7
        for f in rng.sample(range(8), rng.randint(1, 3)):
            b.set_piece_at(chess.square(f, own), chess.Piece(chess.PAWN, color))
        if rng.random() < 0.3:
            b.set_piece_at(chess.square(rng.randrange(8), 7 - own), chess.Piece(chess.PAWN, color))
    _kings(b, rng, variant)
    turn = rng.random() < 0.5
    _add_checkers(b, rng, turn, rng.choice([0, 0, 1, 2]))
    _scatter(b, rng, rng.randint(0, 8))
    _pockets(b, rng)
    b.turn = turn
    return _finish(b, rng, None)


def features(board: chess.Board) -> set[str]:
    out = set()
    status = board.status()
    if chess.popcount(board.checkers_mask()) >= 3:
        out.add("checkers>=3")
    if status & chess.STATUS_IMPOSSIBLE_CHECK:
        out.add("impossible_check")
    if board.ep_square and board._valid_ep_square() is None:
        for m in board.legal_moves:
            if board.is_en_passant(m):
                out.add("ep_odd_capture")
                behind = board.ep_square + (-8 if board.turn == chess.WHITE else 8)
                if not board.pawns & board.occupied_co[not board.turn] & chess.BB_SQUARES[behind]:
                    out.add("ep_non_pawn")
    for m in board.legal_moves:
        if (board.pawns & chess.BB_SQUARES[m.from_square] and chess.square_rank(m.from_square) in (0, 7)
                and abs(m.to_square - m.from_square) == 16):
            out.add("backrank_double_push")
    return out


def compare(variant: str, fen: str) -> list[str]:
    """Differences from python-chess: legal moves and FEN at the root and below every
    root move."""
    board = board_class(variant)(fen)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", variants.ImpossiblePositionWarning)
        pos = Position.from_fen(fen, variant)
    problems = []

    def check(path: list[str]) -> list[str]:
        theirs = sorted(m.uci() for m in board.legal_moves)
        ours = sorted(pos.legal_moves())
        if ours != theirs:
            problems.append(f"after {path}: extra {sorted(set(ours) - set(theirs))}, "
                            f"missing {sorted(set(theirs) - set(ours))}")
        if pos.fen() != board.fen():
            problems.append(f"after {path}: fen {pos.fen()!r} != {board.fen()!r}")
        return theirs

    for m in check([]):
        board.push_uci(m)
        pos.push_uci(m)
        check([m])
        board.pop()
        pos.pop()
    return problems


def generated(variant: str) -> list[str]:
    rng = random.Random(f"impossible-{variant}")
    out: list[str] = []
    for make in (random_impossible, odd_en_passant, backrank_pawns):
        n = 0
        while n < COUNT[variant]:
            fen = make(variant, rng)
            try:
                board = board_class(variant)(fen)
            except ValueError:
                continue
            unplayable, impossible = position_problems(board)
            if unplayable or not impossible:
                continue
            out.append(fen)
            n += 1
    return out


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse", "atomic")))
def test_generated_impossible_positions(variant):
    fens = generated(variant)
    seen: dict[str, int] = {}
    failures = []
    for fen in fens:
        for f in features(board_class(variant)(fen)):
            seen[f] = seen.get(f, 0) + 1
        problems = compare(variant, fen)
        if problems:
            failures.append(f"{variant} {fen!r}:\n    " + "\n    ".join(problems[:3]))
    assert not failures, f"{len(failures)} of {len(fens)} differ:\n" + "\n".join(failures[:5])
    for name, floor in MIN_FEATURES[variant].items():
        assert seen.get(name, 0) >= floor, (name, seen)


@pytest.mark.parametrize("name,fen,counts", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_python_chess_published_positions(name, fen, counts):
    board = chess.Board(fen)
    assert board.status() & chess.STATUS_IMPOSSIBLE_CHECK
    with pytest.warns(variants.ImpossiblePositionWarning, match="impossible_check"):
        pos = Position.from_fen(fen)
    assert pos.problems == ("impossible_check",)
    for depth, nodes in counts.items():
        assert variants.perft("chess", fen, depth, warn=False) == nodes
        assert H.pc_perft(board, depth) == nodes
    split = variants.divide("chess", fen, 2, warn=False)
    assert split == H.pc_divide(board, 2)
    # The same positions in crazyhouse (empty pockets): python-chess's counts too.
    zh = chess.variant.CrazyhouseBoard(fen.replace(" ", "[] ", 1))
    assert variants.perft("crazyhouse", zh.fen(), 3, warn=False) == H.pc_perft(zh, 3)


def test_engine_searches_impossible_positions():
    """The search plays them too: legal moves, and a PV python-chess can replay."""
    from search import Engine
    for variant, fen in [("chess", PUBLISHED[0][1]), ("chess", PUBLISHED[3][1]),
                         ("chess", "k7/8/8/8/8/2bn4/8/2r1K1r1 w - - 0 1"),
                         ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPKPPP w kq - 0 1"),
                         ("antichess", "8/8/8/3Pn3/8/8/8/p6P w - e6 0 1")]:
        board = board_class(variant)(fen)
        result = Engine(variant, hash_mb=1).search(board, depth=3)
        assert chess.Move.from_uci(result.move) in board.legal_moves
        for uci in result.pv:
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves, (fen, result.pv)
            board.push(move)
