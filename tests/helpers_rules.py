"""Shared, seeded generators and python-chess reference functions for the rules tests.

python-chess (1.11.2) is the oracle: every expected value in the rules tests is computed
here from python-chess boards, never from :mod:`variants`.

Everything is deterministic: generators take a ``random.Random`` seeded with a string
(string seeds are hashed with SHA-512, so they do not depend on PYTHONHASHSEED) and
results are cached per process with :func:`functools.lru_cache`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable

import chess
import chess.variant

from tdleaf.bench.perft import python_chess_perft
from variants import board_class

ANTI = ("suicide", "giveaway", "antichess")
#: The variants whose games end on the board as well as by mate (lichess's four added
#: last).
NEW = ("kingofthehill", "3check", "racingkings", "horde")

# --------------------------------------------------------------------------------------
# python-chess reference
# --------------------------------------------------------------------------------------


#: Plain recursive perft on a python-chess board (bulk count at the last ply).
pc_perft = python_chess_perft


def pc_divide(board: chess.Board, depth: int) -> dict[str, int]:
    out = {}
    for move in list(board.legal_moves):
        board.push(move)
        out[move.uci()] = pc_perft(board, depth - 1)
        board.pop()
    return out


def pc_moves(board: chess.Board) -> list[str]:
    return sorted(m.uci() for m in board.legal_moves)


def new_board(variant: str, fen: str | None = None) -> chess.Board:
    cls = board_class(variant)
    return cls() if fen is None else cls(fen)


# --------------------------------------------------------------------------------------
# Biased move choice
# --------------------------------------------------------------------------------------

Pred = Callable[[chess.Board, chess.Move], bool]


def is_capture(b: chess.Board, m: chess.Move) -> bool:
    return not m.drop and b.is_capture(m)


def is_promotion(b: chess.Board, m: chess.Move) -> bool:
    return bool(m.promotion)


def is_drop(b: chess.Board, m: chess.Move) -> bool:
    return bool(m.drop)


def is_check_move(b: chess.Board, m: chess.Move) -> bool:
    return b.gives_check(m)


def is_quiet(b: chess.Board, m: chess.Move) -> bool:
    """Neither capture nor pawn move nor drop: keeps the halfmove clock running."""
    return not m.drop and not b.is_zeroing(m)


def is_undo(b: chess.Board, m: chess.Move) -> bool:
    """Takes back the mover's own previous move (makes repetitions likely)."""
    if len(b.move_stack) < 2 or m.promotion or m.drop:
        return False
    prev = b.move_stack[-2]
    return m.from_square == prev.to_square and m.to_square == prev.from_square


def is_castling(b: chess.Board, m: chess.Move) -> bool:
    return b.is_castling(m)


def is_king_promotion(b: chess.Board, m: chess.Move) -> bool:
    return m.promotion == chess.KING


def is_ep(b: chess.Board, m: chess.Move) -> bool:
    return b.is_en_passant(m)


UNIFORM: tuple = ()
TACTICAL = ((0.35, is_promotion), (0.3, is_capture), (0.3, is_check_move), (0.3, is_drop),
            (0.5, is_castling), (0.8, is_ep))
DROPPY = ((0.3, is_check_move), (0.5, is_drop), (0.2, is_capture))
QUIET = ((0.97, is_quiet),)
REPEAT = ((0.85, is_undo), (0.9, is_quiet))
KINGPROMO = ((0.6, is_king_promotion), (0.3, is_promotion), (0.5, is_castling))


def pick(board: chess.Board, rng: random.Random, prefs: Iterable = UNIFORM,
         moves: list[chess.Move] | None = None) -> chess.Move | None:
    """A random legal move; each (p, predicate) in ``prefs`` is tried in turn with
    probability p and, if some legal move satisfies it, one of those is chosen."""
    if moves is None:
        moves = list(board.legal_moves)
    if not moves:
        return None
    for p, pred in prefs:
        if rng.random() < p:
            cands = [m for m in moves if pred(board, m)]
            if cands:
                return rng.choice(cands)
    return rng.choice(moves)


def walk(board: chess.Board, rng: random.Random, plies: int, prefs=UNIFORM) -> chess.Board:
    """Play up to ``plies`` biased random moves on ``board`` (in place) and return it."""
    for _ in range(plies):
        if board.is_game_over():
            break
        m = pick(board, rng, prefs)
        if m is None:
            break
        board.push(m)
    return board


def sample_game(variant: str, rng: random.Random, prefs=UNIFORM, fen: str | None = None,
                every: tuple[int, int] = (4, 9), limit: int = 30,
                max_plies: int = 400) -> list[str]:
    """FENs sampled every few plies along one seeded random game."""
    board = new_board(variant, fen)
    out: list[str] = []
    gap = rng.randint(*every)
    for ply in range(max_plies):
        if board.is_game_over():
            break
        if ply and ply % gap == 0:
            out.append(board.fen())
            gap = rng.randint(*every)
            if len(out) >= limit:
                break
        board.push(pick(board, rng, prefs))
    return out


# --------------------------------------------------------------------------------------
# Building positions square by square
# --------------------------------------------------------------------------------------

ALL = chess.BB_ALL
NOT_BACK = ~chess.BB_BACKRANKS & chess.BB_ALL
SYMBOLS = "PNBRQ"


def near(sq: int, radius: int) -> int:
    """Squares within king distance ``radius`` of ``sq`` (``sq`` excluded)."""
    mask = 0
    for s in chess.SQUARES:
        if 0 < chess.square_distance(s, sq) <= radius:
            mask |= chess.BB_SQUARES[s]
    return mask


def empty_board(variant: str) -> chess.Board:
    b = board_class(variant)(None)
    b.clear()
    return b


def put(b: chess.Board, rng: random.Random, symbol: str, mask: int = ALL,
        promoted: bool = False) -> int | None:
    """Put a piece on a random empty square of ``mask`` (pawns never on back ranks)."""
    piece = chess.Piece.from_symbol(symbol)
    if piece.piece_type == chess.PAWN:
        mask &= NOT_BACK
    squares = list(chess.scan_forward(mask & ~b.occupied & ALL))
    if not squares:
        return None
    sq = rng.choice(squares)
    b.set_piece_at(sq, piece, promoted=promoted)
    return sq


def put_at(b: chess.Board, square: str | int, symbol: str, promoted: bool = False) -> None:
    sq = chess.parse_square(square) if isinstance(square, str) else square
    b.set_piece_at(sq, chess.Piece.from_symbol(symbol), promoted=promoted)


def random_piece(rng: random.Random, color: bool | None = None, pawns: bool = True,
                 weights=(3, 2, 2, 2, 1)) -> str:
    kinds = SYMBOLS if pawns else SYMBOLS[1:]
    w = weights if pawns else weights[1:]
    sym = rng.choices(kinds, weights=w)[0]
    if color is None:
        color = rng.random() < 0.5
    return sym if color else sym.lower()


def finish(b: chess.Board, turn: bool | None = None, rng: random.Random | None = None,
           castling: int | None = None) -> chess.Board | None:
    """Set turn/castling, renormalise through the FEN and keep the board only if
    python-chess calls it valid."""
    if turn is None:
        turn = rng.random() < 0.5 if rng else chess.WHITE
    b.turn = turn
    b.castling_rights = castling if castling is not None else chess.BB_EMPTY
    b.castling_rights = b.clean_castling_rights()
    fen = b.fen()
    try:
        nb = type(b)(fen)
    except ValueError:
        return None
    return nb if nb.is_valid() else None


def kings(b: chess.Board, rng: random.Random, min_dist: int = 2, max_dist: int = 8,
          wmask: int = ALL) -> tuple[int, int]:
    while True:
        wk = rng.choice(list(chess.scan_forward(wmask & ~b.occupied)))
        cands = [s for s in chess.SQUARES if not b.piece_at(s) and s != wk
                 and min_dist <= chess.square_distance(s, wk) <= max_dist]
        if cands:
            bk = rng.choice(cands)
            put_at(b, wk, "K")
            put_at(b, bk, "k")
            return wk, bk


def put_checker(b: chess.Board, rng: random.Random, king_sq: int, color: bool,
                min_dist: int = 2) -> bool:
    """Put a piece of ``color`` giving a distant (blockable) check to ``king_sq``."""
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    rng.shuffle(dirs)
    for df, dr in dirs:
        f, r = chess.square_file(king_sq), chess.square_rank(king_sq)
        path = []
        while True:
            f += df
            r += dr
            if not (0 <= f < 8 and 0 <= r < 8):
                break
            sq = chess.square(f, r)
            if b.piece_at(sq):
                break
            path.append(sq)
        if len(path) < min_dist:
            continue
        sq = rng.choice(path[min_dist - 1:])
        kind = "R" if df == 0 or dr == 0 else "B"
        if rng.random() < 0.4:
            kind = "Q"
        put_at(b, sq, kind if color else kind.lower())
        return True
    return False


# --------------------------------------------------------------------------------------
# Known positions
# --------------------------------------------------------------------------------------

#: Standard perft suite (chessprogramming wiki) and Martin Sedlak's tricky positions.
CHESS_EPD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    # en-passant pins and skewers (the 8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 family)
    "8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 w - c6 0 2",
    "8/8/3p4/KPp4r/1R3p1k/4P3/6P1/8 w - c6 0 2",
    "8/8/3p4/1Pp4r/1K3p2/6k1/4P1P1/1R6 w - c6 0 3",
    "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
    "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
]

#: Crazyhouse positions (X-FEN), several from lichess / Fairy-Stockfish test suites.
CRAZYHOUSE_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
    "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] b - - 0 1",
    "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
    "r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR[Qq] w KQkq - 0 4",
    "r4rk1/ppp2ppp/2n5/3q4/3P4/2P5/P4PPP/R1BQ1RK1[BNNPbbpp] b - - 0 15",
    "5k2/4P~3/8/8/8/8/8/4K3[Nn] w - - 0 1",
    "4k3/1Q~6/8/8/8/8/3p4/4K3[RBpp] b - - 0 1",
    "r2qk2r/pP~3ppp/8/8/8/8/3p4/R3K2R[NNbb] w KQkq - 0 1",
    "6rk/6pp/8/8/8/8/8/K7[Rr] w - - 0 1",
    "7k/6pp/8/8/8/8/PP6/K7[QRq] w - - 0 1",
    "4k3/8/8/8/4r3/8/8/4K3[QRBNP] w - - 0 1",
    "4k3/8/8/b7/8/8/8/4K2r[QRBNPp] w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R[Qq] w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 2",
    "2r1k2r/p1pq1ppp/1pnbpn2/3p4/3P4/1PNBPN2/P1PQ1PPP/2R1K2R[] w Kk - 0 10",
]

ATOMIC_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
    "8/8/8/8/3kK3/8/8/8 w - - 0 1",
    "8/8/8/4k3/4K3/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/3pr3/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/6k1/R3K2R w KQ - 0 1",
    "8/8/8/8/8/8/5k2/4K2R w K - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "5r2/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "8/8/8/8/1k6/8/8/R3K3 w Q - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "8/8/8/3k4/3Pp3/8/8/4K3 b - d3 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPPKPPP/RNBQ1BNR w kq - 2 3",
    "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "4k3/8/8/8/8/8/2q5/K7 w - - 0 1",
    "8/8/8/8/8/1k6/1q6/K7 w - - 0 1",
]

ANTI_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/1P6/8/8/8/8/1p6/8 w - - 0 1",
    "8/1P6/8/8/8/8/1p6/8 b - - 0 1",
    "8/8/8/8/8/8/6p1/7N b - - 0 1",
    "8/8/8/4p3/4P3/8/8/8 w - - 0 1",
    "8/8/8/4p3/4P3/8/8/8 b - - 0 1",
    "8/p7/8/P7/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/2p5/2P5/8 w - - 0 1",
    "8/8/8/8/8/2b5/1P6/8 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/8/8/8/8/5q2/8/4K2R w K - 0 1",
    "8/8/8/2k5/8/8/3K4/8 w - - 0 1",
    "K7/8/8/8/8/8/8/6kk w - - 0 1",
    "8/8/8/8/8/8/8/B6b w - - 0 1",
    "8/8/8/8/8/8/8/B5b1 w - - 0 1",
    "8/8/8/8/8/8/8/N6n w - - 0 1",
    "8/8/8/8/8/8/8/N5n1 b - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - e6 0 2",
    "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w - d6 0 3",
]


# --------------------------------------------------------------------------------------
# Recipes: random positions rich in each variant's special cases
# --------------------------------------------------------------------------------------

def _maybe_mirror(b: chess.Board | None, rng: random.Random) -> chess.Board | None:
    if b is not None and rng.random() < 0.5:
        m = b.mirror()
        return m if m.is_valid() else None
    return b


def r_random(variant: str, rng: random.Random, lo: int = 4, hi: int = 14,
             promo_rank: float = 0.3) -> chess.Board | None:
    """Kings and a random crowd of pieces; sometimes pawns ready to promote."""
    b = empty_board(variant)
    kings(b, rng)
    for _ in range(rng.randint(lo, hi)):
        put(b, rng, random_piece(rng))
    if rng.random() < promo_rank:
        for _ in range(rng.randint(1, 3)):
            put(b, rng, "P", chess.BB_RANK_7)
            put(b, rng, "p", chess.BB_RANK_2)
    return finish(b, rng=rng)


def r_castling(variant: str, rng: random.Random, attackers: tuple[int, int] = (1, 5),
               enemy_king_near: float = 0.0) -> chess.Board | None:
    """Kings and rooks on their start squares with castling rights; random pieces that
    may attack the squares the king passes."""
    b = empty_board(variant)
    put_at(b, "e1", "K")
    rights = 0
    for sq in ("a1", "h1"):
        if rng.random() < 0.8:
            put_at(b, sq, "R")
            rights |= chess.BB_SQUARES[chess.parse_square(sq)]
    if rng.random() < enemy_king_near:
        put(b, rng, "k", chess.BB_RANK_2 | chess.BB_RANK_3)
        if b.king(chess.BLACK) is None:
            return None
    else:
        put_at(b, "e8", "k")
        for sq in ("a8", "h8"):
            if rng.random() < 0.7:
                put_at(b, sq, "r")
                rights |= chess.BB_SQUARES[chess.parse_square(sq)]
    for _ in range(rng.randint(*attackers)):
        sym = rng.choice("rbqnp" if rng.random() < 0.7 else "RBQNP")
        # off the back ranks, except that black pieces may also stand on the 8th
        mask = chess.BB_ALL & ~chess.BB_BACKRANKS
        if sym.islower() and sym != "p":
            mask |= chess.BB_RANK_8
        put(b, rng, sym, mask)
    b = finish(b, turn=rng.random() < 0.75, castling=rights)
    return _maybe_mirror(b, rng)


def r_promotion(variant: str, rng: random.Random) -> chess.Board | None:
    b = empty_board(variant)
    kings(b, rng, wmask=~chess.BB_RANK_8 & chess.BB_ALL)
    for _ in range(rng.randint(1, 3)):
        put(b, rng, "P", chess.BB_RANK_7)
    for _ in range(rng.randint(0, 2)):
        put(b, rng, "p", chess.BB_RANK_2)
    for _ in range(rng.randint(1, 4)):
        put(b, rng, random_piece(rng, pawns=False), chess.BB_RANK_8 | chess.BB_RANK_1)
    for _ in range(rng.randint(0, 4)):
        put(b, rng, random_piece(rng))
    return _maybe_mirror(finish(b, turn=chess.WHITE), rng)


def _ray(sq: int, df: int, dr: int) -> list[int]:
    out = []
    f, r = chess.square_file(sq) + df, chess.square_rank(sq) + dr
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(chess.square(f, r))
        f, r = f + df, r + dr
    return out


def _free(b: chess.Board, squares: list[int]) -> list[int]:
    return [s for s in squares if not b.piece_at(s)]


def r_en_passant(variant: str, rng: random.Random, king_radius: int = 8) -> chess.Board | None:
    """White has just double-pushed next to a black pawn: black to move with an ep
    square. The black king is often pinned against the capture: on the 4th rank with a
    white rook/queen behind the two pawns (the 8/8/3p4/KPp4r/1R2Pp1k family), or on a
    diagonal through the capturing pawn; or the pushed pawn gives check."""
    b = empty_board(variant)
    f = rng.randrange(8)
    pawn_sq = chess.square(f, 1)
    put_at(b, pawn_sq, "P")
    sides = [x for x in (f - 1, f + 1) if 0 <= x < 8]
    capturers = rng.sample(sides, rng.randint(1, len(sides)))
    for x in capturers:
        put_at(b, chess.square(x, 3), "p")
    # keep the pawn's path free while the other pieces are placed
    b.set_piece_at(chess.square(f, 2), chess.Piece(chess.PAWN, chess.WHITE))
    b.set_piece_at(chess.square(f, 3), chess.Piece(chess.PAWN, chess.WHITE))
    mode = rng.random()
    x = capturers[0]
    if mode < 0.35:     # horizontal pin / skewer on the 4th rank
        lo, hi = min(f, x), max(f, x)
        left = [chess.square(i, 3) for i in range(lo)]
        right = [chess.square(i, 3) for i in range(hi + 1, 8)]
        if rng.random() < 0.5:
            left, right = right, left
        if not left or not right:
            return None
        free_left, free_right = _free(b, left), _free(b, right)
        if not free_left or not free_right:
            return None
        put_at(b, rng.choice(free_left), "k")
        put_at(b, rng.choice(free_right), rng.choice("RQ"))
        put(b, rng, "K", near(b.king(chess.BLACK), king_radius) & ~chess.BB_RANK_4)
    elif mode < 0.55:   # the capturing pawn is pinned on a diagonal
        cap = chess.square(x, 3)
        df, dr = rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
        one, other = _free(b, _ray(cap, df, dr)), _free(b, _ray(cap, -df, -dr))
        if not one or not other:
            return None
        put_at(b, rng.choice(one), "k")
        put_at(b, rng.choice(other), rng.choice("BQ"))
        put(b, rng, "K", near(b.king(chess.BLACK), king_radius))
    elif mode < 0.75:   # the pushed pawn gives check
        put(b, rng, "k", chess.BB_RANK_5 & (chess.BB_FILES[max(f - 1, 0)] | chess.BB_FILES[min(f + 1, 7)]))
        put(b, rng, "K", chess.BB_RANK_1 | chess.BB_RANK_2)
    else:
        put(b, rng, "k", chess.BB_ALL)
        put(b, rng, rng.choice("BQ"), chess.BB_ALL)
        put(b, rng, "K", near(b.king(chess.BLACK) or 0, king_radius))
    if b.king(chess.WHITE) is None or b.king(chess.BLACK) is None:
        return None
    for _ in range(rng.randint(0, 5)):
        put(b, rng, random_piece(rng))
    b.remove_piece_at(chess.square(f, 2))
    b.remove_piece_at(chess.square(f, 3))
    b = finish(b, turn=chess.WHITE)
    if b is None:
        return None
    move = chess.Move(pawn_sq, chess.square(f, 3))
    if move not in b.legal_moves:
        return None
    b.push(move)
    b = type(b)(b.fen(en_passant="xfen"))  # forget the stack, keep the ep square
    return _maybe_mirror(b if b.is_valid() else None, rng)


def r_double_check(variant: str, rng: random.Random) -> chess.Board | None:
    """White to move can give a discovered double check (a piece steps off the line of a
    slider and checks itself); the position after that move is returned (black in
    double check) unless the recipe degenerates to a single check."""
    b = empty_board(variant)
    bk = rng.choice(chess.SQUARES)
    put_at(b, bk, "k")
    df, dr = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)])
    line = []
    f, r = chess.square_file(bk) + df, chess.square_rank(bk) + dr
    while 0 <= f < 8 and 0 <= r < 8:
        line.append(chess.square(f, r))
        f, r = f + df, r + dr
    if len(line) < 3:
        return None
    i = rng.randint(1, len(line) - 2)
    j = rng.randint(i + 1, len(line) - 1)
    slider = rng.choice("RQ" if df == 0 or dr == 0 else "BQ")
    put_at(b, line[i], rng.choice("NBRP" if line[i] & 0o70 not in (0, 0o70) else "NBR"))
    put_at(b, line[j], slider)
    put(b, rng, "K", ~near(bk, 1) & chess.BB_ALL)
    for _ in range(rng.randint(0, 8)):
        put(b, rng, random_piece(rng))
    b = finish(b, turn=chess.WHITE)
    if b is None:
        return None
    doubles = []
    for m in b.legal_moves:
        if m.from_square == line[i]:
            b.push(m)
            if chess.popcount(b.checkers_mask()) >= 2:
                doubles.append(m)
            b.pop()
    if not doubles:
        return None
    b.push(rng.choice(doubles))
    nb = type(b)(b.fen())
    return nb if nb.is_valid() else None


def r_back_rank(variant: str, rng: random.Random) -> chess.Board | None:
    """A king on its back rank behind its own pawns and heavy pieces of the opponent
    around: back-rank mates (and near-mates) in one."""
    b = empty_board(variant)
    kf = rng.randrange(8)
    put_at(b, chess.square(kf, 7), "k")
    for x in range(max(kf - 1, 0), min(kf + 1, 7) + 1):
        if rng.random() < 0.85:
            put_at(b, chess.square(x, 6), "p")
    for _ in range(rng.randint(1, 2)):
        put(b, rng, rng.choice("RQR"), chess.BB_ALL & ~chess.BB_RANK_8 & ~chess.BB_RANK_7)
    put(b, rng, "K", chess.BB_RANK_1 | chess.BB_RANK_2)
    for _ in range(rng.randint(0, 4)):
        put(b, rng, random_piece(rng), chess.BB_ALL & ~chess.BB_RANK_8)
    return _maybe_mirror(finish(b, turn=chess.WHITE), rng)


# crazyhouse -----------------------------------------------------------------------------

def _fill_pockets(b: chess.variant.CrazyhouseBoard, rng: random.Random, full: bool) -> None:
    for color in chess.COLORS:
        if full or rng.random() < 0.5:
            for pt in range(1, 6):
                for _ in range(rng.randint(1, 2) if full else rng.randint(0, 1)):
                    b.pockets[color].add(pt)
        else:
            for _ in range(rng.randint(0, 3)):
                b.pockets[color].add(rng.randint(1, 5))


def _zh_fits(b: chess.variant.CrazyhouseBoard) -> bool:
    pieces = chess.popcount(b.occupied) + len(b.pockets[0]) + len(b.pockets[1])
    pawns = chess.popcount(b.pawns) + b.pockets[0].count(1) + b.pockets[1].count(1)
    return pieces <= 32 and pawns <= 16


def r_zh(rng: random.Random, full: bool = False, promoted: float = 0.4,
         lo: int = 3, hi: int = 12) -> chess.Board | None:
    """Crazyhouse: random pieces (some promoted, marked ``~``), pawns on the 7th, pockets."""
    b = empty_board("crazyhouse")
    kings(b, rng)
    for _ in range(rng.randint(lo, hi)):
        sym = random_piece(rng)
        put(b, rng, sym, promoted=sym.upper() != "P" and rng.random() < promoted)
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 2)):
            put(b, rng, "P", chess.BB_RANK_7)
            put(b, rng, "p", chess.BB_RANK_2)
    _fill_pockets(b, rng, full)
    if not _zh_fits(b):
        return None
    return finish(b, rng=rng)


def r_zh_in_check(rng: random.Random) -> chess.Board | None:
    """Side to move in a blockable (or double) check with pieces in hand."""
    b = empty_board("crazyhouse")
    kings(b, rng, min_dist=3)
    turn = rng.random() < 0.5
    for _ in range(rng.randint(2, 8)):
        sym = random_piece(rng)
        put(b, rng, sym, promoted=sym.upper() != "P" and rng.random() < 0.3)
    if not put_checker(b, rng, b.king(turn), not turn, min_dist=2):
        return None
    if rng.random() < 0.2:
        put(b, rng, "N" if not turn else "n", chess.BB_KNIGHT_ATTACKS[b.king(turn)])
    _fill_pockets(b, rng, full=rng.random() < 0.6)
    if not _zh_fits(b):
        return None
    return finish(b, turn=turn)


def r_zh_drop_mate(rng: random.Random) -> chess.Board | None:
    """A king on its back rank behind its own pawns and an opponent holding a rook or
    queen: dropping on the back rank mates (unless something covers it)."""
    b = empty_board("crazyhouse")
    kf = rng.randrange(8)
    put_at(b, chess.square(kf, 7), "k")
    for x in range(max(kf - 1, 0), min(kf + 1, 7) + 1):
        if rng.random() < 0.9:
            put_at(b, chess.square(x, 6), "p")
    put(b, rng, "K", chess.BB_RANK_1 | chess.BB_RANK_2)
    for _ in range(rng.randint(0, 4)):
        put(b, rng, random_piece(rng), chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4)
    for sym in rng.sample("QRRNB", rng.randint(1, 3)):
        b.pockets[chess.WHITE].add(chess.Piece.from_symbol(sym).piece_type)
    for _ in range(rng.randint(0, 2)):
        b.pockets[chess.BLACK].add(rng.randint(1, 5))
    return _maybe_mirror(finish(b, turn=chess.WHITE), rng)


# atomic ---------------------------------------------------------------------------------

def r_atomic_near(rng: random.Random) -> chess.Board | None:
    """Kings close together (sometimes touching) with pieces crowding around them, so
    that captures explode next to kings."""
    b = empty_board("atomic")
    wk, bk = kings(b, rng, min_dist=1 if rng.random() < 0.3 else 2, max_dist=3)
    zone = near(wk, 2) | near(bk, 2)
    for _ in range(rng.randint(3, 10)):
        put(b, rng, random_piece(rng), zone)
    for _ in range(rng.randint(0, 4)):
        put(b, rng, random_piece(rng))
    return finish(b, rng=rng)


# suicide / giveaway / antichess ---------------------------------------------------------

def r_anti(variant: str, rng: random.Random, lo: int = 2, hi: int = 12) -> chess.Board | None:
    """Antichess-like: any number of kings (or none), pawns about to promote."""
    b = empty_board(variant)
    for _ in range(rng.randint(lo, hi)):
        sym = rng.choices("PNBRQK", weights=(4, 2, 2, 2, 1, 1))[0]
        put(b, rng, sym if rng.random() < 0.5 else sym.lower())
    if rng.random() < 0.4:
        put(b, rng, "P", chess.BB_RANK_7)
        put(b, rng, "p", chess.BB_RANK_2)
    if not b.occupied_co[chess.WHITE] or not b.occupied_co[chess.BLACK]:
        return None
    return finish(b, rng=rng)


def r_anti_castling(variant: str, rng: random.Random) -> chess.Board | None:
    """Suicide-family castling with the king's path attacked by distant sliders that
    cannot be captured (so castling is not pre-empted by a compulsory capture)."""
    b = empty_board(variant)
    put_at(b, "e1", "K")
    put_at(b, "a1", "R")
    put_at(b, "h1", "R")
    put_at(b, "e8", "k")
    for _ in range(rng.randint(1, 2)):
        f = rng.choice([2, 3, 5, 6])
        put(b, rng, rng.choice("rq"), chess.BB_FILES[f] & (chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6))
    for _ in range(rng.randint(0, 2)):
        put(b, rng, random_piece(rng, color=chess.BLACK), chess.BB_RANK_7 | chess.BB_RANK_8)
    b = finish(b, turn=chess.WHITE, castling=chess.BB_A1 | chess.BB_H1)
    return _maybe_mirror(b, rng)


def r_anti_blocked(variant: str, rng: random.Random) -> chess.Board | None:
    """Few pieces, blocked pawns: stalemates (decided by material) are near."""
    b = empty_board(variant)
    for _ in range(rng.randint(1, 2)):
        f, r = rng.randrange(8), rng.randrange(1, 6)
        if b.piece_at(chess.square(f, r)) or b.piece_at(chess.square(f, r + 1)):
            continue
        put_at(b, chess.square(f, r), "P")
        put_at(b, chess.square(f, r + 1), "p")
    for _ in range(rng.randint(0, 2)):
        put(b, rng, random_piece(rng, weights=(1, 2, 2, 2, 1)))
    if not b.occupied_co[chess.WHITE] or not b.occupied_co[chess.BLACK]:
        return None
    return finish(b, rng=rng)


def _checks(b: chess.Board | None, rng: random.Random) -> chess.Board | None:
    """Three-check: random remaining checks (1 to 3 a side, now and then 0: game over)."""
    if b is None:
        return None
    b = chess.variant.ThreeCheckBoard(b.fen())
    b.remaining_checks = [rng.choice([1, 1, 2, 3, 0]), rng.choice([1, 1, 2, 3])]
    return b


def r_koth(rng: random.Random) -> chess.Board | None:
    """King of the hill: kings one or two steps from the hill, pieces that guard it."""
    b = empty_board("kingofthehill")
    ring = near(chess.D4, 2) | near(chess.E5, 2)
    ring &= ~(chess.BB_D4 | chess.BB_E4 | chess.BB_D5 | chess.BB_E5)
    kings(b, rng, wmask=ring)
    for _ in range(rng.randint(1, 10)):
        put(b, rng, random_piece(rng))
    return finish(b, rng=rng)


#: Each side's pieces in racing kings (no pawns, kings aside).
RACE_PIECES = "QRRBBNN"


def r_race(rng: random.Random) -> chess.Board | None:
    """Racing kings: kings anywhere (often near the 8th rank), some of the race's pieces;
    only check-free positions are valid."""
    b = empty_board("racingkings")
    wmask = chess.BB_RANK_6 | chess.BB_RANK_7 if rng.random() < 0.5 else ALL & ~chess.BB_RANK_8
    if rng.random() < 0.3:
        wmask = chess.BB_RANK_8
    kings(b, rng, wmask=wmask)
    if b.kings & chess.BB_RANK_8 & b.occupied_co[chess.BLACK] and b.kings & chess.BB_RANK_8 & b.occupied_co[chess.WHITE]:
        return None
    for color in chess.COLORS:
        for sym in rng.sample(RACE_PIECES, rng.randint(0, 7)):
            put(b, rng, sym if color else sym.lower())
    turn = chess.BLACK if b.kings & chess.BB_RANK_8 & b.occupied_co[chess.WHITE] and rng.random() < 0.8 \
        else rng.random() < 0.5
    return finish(b, turn)


def r_horde(rng: random.Random, lo: int = 1, hi: int = 24) -> chess.Board | None:
    """Horde: white pawns (first rank included) and now and then a promoted piece; a
    black king with some pieces and pawns."""
    b = empty_board("horde")
    put(b, rng, "k", chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7 | chess.BB_RANK_8)
    for _ in range(rng.randint(lo, hi)):
        sq = put(b, rng, "P", ALL & ~chess.BB_RANK_8 | chess.BB_RANK_1) if rng.random() < 0.3 \
            else put(b, rng, "P", ALL & ~chess.BB_RANK_8)
        if sq is None:
            break
    if rng.random() < 0.3:
        put(b, rng, random_piece(rng, chess.WHITE, pawns=False))
    for _ in range(rng.randint(0, 8)):
        put(b, rng, random_piece(rng, chess.BLACK))
    castling = chess.BB_A8 | chess.BB_H8 if rng.random() < 0.2 else None
    if castling:
        b.remove_piece_at(chess.E8)
        b.remove_piece_at(b.king(chess.BLACK)) if b.king(chess.BLACK) is not None else None
        put_at(b, "e8", "k")
        put_at(b, "a8", "r")
        put_at(b, "h8", "r")
    return finish(b, rng=rng, castling=castling)


def _horde_pawn_pair(rng: random.Random) -> chess.Board | None:
    """Horde: a white pawn on the first rank next to a black pawn's file, so that its
    double step (which sets no en-passant square) meets possible captures."""
    b = empty_board("horde")
    f = rng.randrange(1, 7)
    put_at(b, chess.square(f, 0), "P")
    put_at(b, chess.square(f + rng.choice([-1, 1]), 2), "p")
    put_at(b, chess.square(rng.randrange(8), 1), "P")
    put_at(b, chess.square(f + rng.choice([-1, 1]), 3), "p")
    put(b, rng, "k", chess.BB_RANK_7 | chess.BB_RANK_8)
    for _ in range(rng.randint(0, 6)):
        put(b, rng, "P")
    return finish(b, chess.WHITE)


def _read_epd(variant: str) -> list[str]:
    """The FENs of tests/data/perft_<variant>.epd."""
    from pathlib import Path

    from tdleaf.play.epd import read_epd

    return [e.fen for e in read_epd(Path(__file__).parent / "data" / f"perft_{variant}.epd")]


# --------------------------------------------------------------------------------------
# Perft position sets
# --------------------------------------------------------------------------------------

PERFT_TARGET = 180


def _collect(out: dict[str, None], variant: str, board: chess.Board | None) -> None:
    if board is None:
        return
    fen = board.fen(en_passant="xfen")  # keep pseudo-legal but illegal ep squares
    if fen in out:
        return
    b = new_board(variant, fen)
    if b.is_valid():
        out[fen] = None


RECIPE_SCALE = 1.5


def _from_recipe(out, variant, rng, recipe, count, walk_prefs=TACTICAL, walks=1, tries=800):
    count = round(count * RECIPE_SCALE)
    made = 0
    for _ in range(tries):
        if made >= count:
            break
        b = recipe()
        if b is None or b.is_game_over():
            continue
        _collect(out, variant, b)
        made += 1
        for _ in range(walks):
            w = walk(b.copy(stack=False), rng, rng.randint(1, 4), walk_prefs)
            if w.move_stack:
                _collect(out, variant, w)


@functools.cache
def perft_positions(variant: str) -> tuple[str, ...]:
    """Seeded FENs for the perft comparison: random and biased games from the start
    position plus positions built to exercise the variant's special rules."""
    rng = random.Random(f"perft-positions-{variant}")
    out: dict[str, None] = {}
    base = {"chess": CHESS_EPD, "crazyhouse": CRAZYHOUSE_FENS, "atomic": ATOMIC_FENS}.get(
        variant, _read_epd(variant) if variant in NEW else ANTI_FENS)
    for fen in base:
        _collect(out, variant, new_board(variant, fen))
    for fen in sample_game(variant, rng, UNIFORM, limit=15):
        _collect(out, variant, new_board(variant, fen))
    for fen in sample_game(variant, rng, TACTICAL, limit=15):
        _collect(out, variant, new_board(variant, fen))
    for fen in sample_game(variant, rng, DROPPY if variant == "crazyhouse" else TACTICAL,
                           every=(2, 5), limit=10):
        _collect(out, variant, new_board(variant, fen))

    if variant == "chess":
        _from_recipe(out, variant, rng, lambda: r_castling(variant, rng), 14)
        _from_recipe(out, variant, rng, lambda: r_en_passant(variant, rng), 16, walks=0)
        _from_recipe(out, variant, rng, lambda: r_promotion(variant, rng), 12)
        _from_recipe(out, variant, rng, lambda: r_double_check(variant, rng), 12, walks=0)
        _from_recipe(out, variant, rng, lambda: r_random(variant, rng), 12)
        _from_recipe(out, variant, rng, lambda: r_back_rank(variant, rng), 10, walks=0)
    elif variant == "crazyhouse":
        _from_recipe(out, variant, rng, lambda: r_zh(rng, full=True), 14, DROPPY)
        _from_recipe(out, variant, rng, lambda: r_zh(rng, full=False), 14, TACTICAL)
        _from_recipe(out, variant, rng, lambda: r_zh_in_check(rng), 14, DROPPY)
        _from_recipe(out, variant, rng, lambda: r_zh_drop_mate(rng), 8, DROPPY, walks=0)
        _from_recipe(out, variant, rng, lambda: r_castling(variant, rng), 6, walks=0)
        _from_recipe(out, variant, rng, lambda: r_en_passant(variant, rng), 6, walks=0)
    elif variant == "atomic":
        _from_recipe(out, variant, rng, lambda: r_atomic_near(rng), 26)
        _from_recipe(out, variant, rng, lambda: r_castling(variant, rng, enemy_king_near=0.6), 16,
                     walks=0)
        _from_recipe(out, variant, rng, lambda: r_en_passant(variant, rng, king_radius=3), 12, walks=0)
        _from_recipe(out, variant, rng, lambda: r_promotion(variant, rng), 6)
        _from_recipe(out, variant, rng, lambda: r_back_rank(variant, rng), 6, walks=0)
    elif variant == "kingofthehill":
        _from_recipe(out, variant, rng, lambda: r_koth(rng), 24)
        _from_recipe(out, variant, rng, lambda: r_castling(variant, rng), 10)
        _from_recipe(out, variant, rng, lambda: r_en_passant(variant, rng), 10, walks=0)
        _from_recipe(out, variant, rng, lambda: r_promotion(variant, rng), 8)
        _from_recipe(out, variant, rng, lambda: r_double_check(variant, rng), 8, walks=0)
    elif variant == "3check":
        _from_recipe(out, variant, rng, lambda: _checks(r_random(variant, rng), rng), 20)
        _from_recipe(out, variant, rng, lambda: _checks(r_castling(variant, rng), rng), 10)
        _from_recipe(out, variant, rng, lambda: _checks(r_en_passant(variant, rng), rng), 10,
                     walks=0)
        _from_recipe(out, variant, rng, lambda: _checks(r_promotion(variant, rng), rng), 8)
        _from_recipe(out, variant, rng, lambda: _checks(r_double_check(variant, rng), rng), 8,
                     walks=0)
    elif variant == "racingkings":
        _from_recipe(out, variant, rng, lambda: r_race(rng), 60)
    elif variant == "horde":
        _from_recipe(out, variant, rng, lambda: r_horde(rng), 30)
        _from_recipe(out, variant, rng, lambda: r_horde(rng, 1, 4), 16)
        _from_recipe(out, variant, rng, lambda: _horde_pawn_pair(rng), 12)
    else:
        _from_recipe(out, variant, rng, lambda: r_anti(variant, rng, 6, 16), 16, TACTICAL)
        _from_recipe(out, variant, rng, lambda: r_anti(variant, rng, 2, 5), 14, KINGPROMO)
        _from_recipe(out, variant, rng, lambda: r_anti_blocked(variant, rng), 14, UNIFORM)
        _from_recipe(out, variant, rng, lambda: r_castling(variant, rng, (0, 2)), 10, KINGPROMO)
        _from_recipe(out, variant, rng, lambda: r_anti_castling(variant, rng), 8, KINGPROMO)
        _from_recipe(out, variant, rng, lambda: r_promotion(variant, rng), 10, KINGPROMO)
        _from_recipe(out, variant, rng, lambda: r_en_passant(variant, rng), 6, walks=0)
    # Top up with more seeded game samples until the target is reached.
    extra = 0
    while len(out) < PERFT_TARGET and extra < 50:
        extra += 1
        for fen in sample_game(variant, rng, TACTICAL if extra % 2 else UNIFORM, limit=10):
            _collect(out, variant, new_board(variant, fen))
    return tuple(out)


# --------------------------------------------------------------------------------------
# Special-case detectors (python-chess only), used to prove the sets cover the rules
# --------------------------------------------------------------------------------------

def _path_attacked(b: chess.Board, move: chess.Move) -> bool:
    """Castling move whose king path is attacked by ordinary chess rules."""
    king = move.from_square
    rook_side = chess.square_file(move.to_square) > chess.square_file(king)
    target = chess.square(6 if rook_side else 2, chess.square_rank(king))
    path = chess.between(king, target) | chess.BB_SQUARES[target] | chess.BB_SQUARES[king]
    return any(b.attackers_mask(not b.turn, sq) for sq in chess.scan_forward(path))


def _castling_prevented(b: chess.Board, castles: list[chess.Move]) -> bool:
    """A castling right whose king-rook path is empty, yet castling is not legal."""
    king = b.king(b.turn)
    if king is None:
        return False
    sides = {chess.square_file(m.to_square) > chess.square_file(king) for m in castles}
    for rook in chess.scan_forward(b.clean_castling_rights() & b.occupied_co[b.turn]):
        if chess.between(king, rook) & b.occupied:
            continue
        if (chess.square_file(rook) > chess.square_file(king)) not in sides:
            return True
    return False


def features(variant: str, fen: str) -> set[str]:
    """Names of the special cases present in ``fen`` (decided with python-chess)."""
    b = new_board(variant, fen)
    legal = list(b.legal_moves)
    f: set[str] = set()
    if not legal:
        f.add("no_moves")
    if any(m.promotion for m in legal):
        f.add("promotion")
    if b.has_legal_en_passant():
        f.add("ep_legal")
    if b.ep_square is not None and not b.has_legal_en_passant() and any(
            b.is_en_passant(m) for m in b.generate_pseudo_legal_moves()):
        f.add("ep_illegal")
    castles = [m for m in legal if b.is_castling(m)]
    if castles:
        f.add("castling")
    if any(_path_attacked(b, m) for m in castles):
        f.add("castling_path_attacked")
    if variant in ("chess", "crazyhouse", "atomic", "kingofthehill", "3check", "horde"):
        if b.is_check():
            f.add("check")
        if chess.popcount(b.checkers_mask()) >= 2:
            f.add("double_check")
        if _castling_prevented(b, castles):
            f.add("castling_prevented")
        for m in legal:
            b.push(m)
            mate = b.is_checkmate()
            b.pop()
            if mate:
                f.add("mate_in_1")
                if m.drop:
                    f.add("drop_mate")
                break
    if variant == "crazyhouse":
        promoted = b.promoted & b.occupied
        if promoted:
            f.add("promoted_pieces")
        if any(not m.drop and chess.BB_SQUARES[m.to_square] & promoted for m in legal):
            f.add("capture_promoted")
        if any(all(p.count(pt) for pt in range(1, 6)) for p in b.pockets):
            f.add("full_pocket")
        drops = [m for m in legal if m.drop]
        if drops and any(b.gives_check(m) for m in drops):
            f.add("drop_check")
        if b.is_check() and len(b.pockets[b.turn]):
            f.add("check_with_pocket")
            if drops:
                f.add("blocking_drops")
    if variant == "atomic":
        if b._kings_connected():
            f.add("kings_adjacent")
        wins = 0
        for m in legal:
            if b.is_capture(m):
                b.push(m)
                if b.is_variant_loss():
                    wins += 1
                b.pop()
        if wins:
            f.add("capture_explodes_enemy_king")
        legal_set = set(legal)
        for m in b.generate_pseudo_legal_captures():
            if m in legal_set:
                continue
            b.push(m)
            own_gone = not (b.kings & b.occupied_co[not b.turn])
            b.pop()
            if own_gone:
                f.add("capture_explodes_own_king")
                break
        if any(b.is_capture(m) and near(m.to_square, 1) & b.kings for m in legal):
            f.add("capture_next_to_king")
    if variant in NEW:
        if b.is_check():
            f.add("check")
        for m in legal:
            b.push(m)
            end = b.is_variant_end()
            b.pop()
            if end:
                f.add("ends_in_1")
                break
    if variant == "racingkings":
        if set(chess.Board.generate_legal_moves(b)) - set(legal):
            f.add("checks_refused")
        if b.turn == chess.BLACK and b.kings & b.occupied_co[chess.WHITE] & chess.BB_RANK_8 \
                and legal:
            f.add("black_may_follow")
    if variant == "horde":
        if any(b.pawns & chess.BB_SQUARES[m.from_square] & chess.BB_RANK_1
               and m.to_square - m.from_square == 16 for m in legal):
            f.add("first_rank_double")
        if b.has_insufficient_material(chess.WHITE):
            f.add("horde_insufficient")
    if variant == "3check" and min(b.remaining_checks) == 1 and "ends_in_1" in f:
        f.add("third_check_in_1")
    if variant in ANTI:
        if any(b.is_capture(m) for m in legal) and any(
                not b.is_capture(m) for m in b.generate_pseudo_legal_moves()):
            f.add("forced_capture")
        if any(m.promotion == chess.KING for m in legal):
            f.add("king_promotion")
        if chess.popcount(b.occupied) <= 4:
            f.add("few_pieces")
        if not b.kings & b.occupied_co[b.turn]:
            f.add("no_king")
        for m in legal:
            b.push(m)
            stalemate = not b.is_variant_end() and not any(b.generate_legal_moves())
            b.pop()
            if stalemate:
                f.add("stalemate_in_1")
                break
    return f


# --------------------------------------------------------------------------------------
# Games: Position and python-chess side by side
# --------------------------------------------------------------------------------------

#: Sparse endgames (per rules family) from which random play reaches the automatic
#: draws: quiet play -> 75-move rule, take-backs -> fivefold repetition. Several start
#: with a high halfmove clock so the rule triggers within a few dozen plies, or at 98/99
#: so that the fifty-move claim boundary is crossed.
ENDGAMES = {
    "chess": [
        "8/8/4k3/8/8/3K4/8/R6r w - - 0 1",
        "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 120 70",
        "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
        "8/8/8/4k3/8/8/3N4/4K1B1 w - - 98 60",
        "8/5k2/8/8/8/8/2R5/4K3 b - - 99 60",
        "7k/8/5KQ1/8/8/8/8/8 w - - 0 1",
    ],
    "crazyhouse": [
        "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1",
        "8/8/8/4k3/8/8/8/4K3[N] w - - 0 1",
        "4k3/4p3/8/8/8/8/4P3/4K3[] w - - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R[] w Kq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/6K1[Rr] b - - 140 80",
        "7k/8/8/8/8/8/8/K7[Qq] w - - 0 1",
    ],
    "atomic": [
        "8/8/4k3/8/8/3K4/8/R6r w - - 0 1",
        "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
        "8/8/2k5/8/8/5K2/8/N5n1 w - - 110 60",
        "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
        "8/5k2/8/8/8/8/2R5/4K3 b - - 98 60",
        "8/8/3k4/8/8/4K3/8/2B2b2 w - - 0 1",
    ],
    "kingofthehill": [
        "8/8/8/8/8/8/8/R3K1k1 w - - 0 1",
        "7k/8/8/8/8/8/8/K6R b - - 0 1",
        "k7/8/8/8/8/8/8/6NK w - - 110 60",
        "7k/8/8/8/8/8/8/K7 w - - 98 60",
        "k7/p7/P7/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/8/8/8/6BK b - - 140 80",
    ],
    "3check": [
        "8/8/4k3/8/8/3K4/8/R6r w - - 2+2 0 1",
        "8/8/4k3/8/8/3K4/8/8 w - - 1+1 0 1",
        "7k/8/8/8/8/8/8/K6N w - - 1+1 98 60",
        "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 3+3 120 70",
        "k7/8/1Q6/8/8/8/8/7K w - - 1+2 0 1",
        "8/5k2/8/8/8/8/2R5/4K3 b - - 2+1 99 60",
    ],
    "racingkings": [
        "8/8/8/8/8/8/k6K/8 w - - 0 1",
        "8/8/8/8/8/8/kr6/6RK w - - 0 1",
        "8/8/8/8/8/k7/7K/1n4N1 w - - 120 60",
        "8/8/8/8/8/8/kq6/6BK w - - 98 50",
        "8/8/8/8/8/kr6/6RK/8 b - - 0 1",
        "8/k6K/8/8/8/8/8/8 w - - 0 1",                   # a race: black may draw
        "8/1k4K1/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
    ],
    "horde": [
        "4k3/8/8/8/8/8/PPP5/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/P7 b - - 0 1",
        "k7/8/8/8/8/8/1P6/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B5 w - - 110 60",
        "4k3/2r5/8/8/8/8/8/4N3 w - - 98 60",
        "r3k3/8/8/8/8/PPP5/PPPP4/PPPP4 w q - 0 1",
        "4k3/pp6/8/8/PP6/8/8/8 w - - 0 1",
    ],
    "anti": [
        "8/8/8/p7/P7/8/8/b6B w - - 0 1",
        "8/8/8/p7/P7/8/8/b6B b - - 130 70",
        "8/8/8/8/8/2p5/2P5/8 w - - 0 1",
        "8/8/8/8/8/2p5/2P5/7N w - - 0 1",
        "8/1k6/8/8/8/8/6K1/8 w - - 0 1",
        "8/8/8/1p6/1P6/8/8/b5B1 w - - 98 50",
        "8/8/8/4n3/8/8/8/R6K w - - 0 1",
        "8/8/8/8/n7/P7/P7/8 w - - 0 1",
        "8/8/8/8/8/3p4/p2P4/N7 b - - 0 1",
    ],
}


def endgames(variant: str) -> list[str]:
    return ENDGAMES["anti" if variant in ANTI else variant]


@functools.cache
def game_specs(variant: str) -> tuple[tuple[str, str | None, str, int], ...]:
    """(name, start FEN or None, move style, claim-draw stride) of every test game."""
    rng = random.Random(f"game-specs-{variant}")
    specs = []
    # Suicide-family and atomic games are short: play more of them.
    n_uniform, n_tactical = {"chess": (10, 6), "crazyhouse": (8, 8), "atomic": (16, 10),
                             "kingofthehill": (12, 6), "3check": (12, 8),
                             "racingkings": (12, 6), "horde": (6, 4)}.get(variant, (30, 12))
    for i in range(n_uniform):
        specs.append((f"start-uniform-{i}", None, "uniform", 4))
    for i in range(n_tactical):
        specs.append((f"start-tactical-{i}", None, "tactical", 4))
    for i in range(2):
        specs.append((f"start-repeat-{i}", None, "repeat", 1))
    # Crazyhouse has no 75-move rule (pieces never leave the game): quiet play could go on
    # forever there, so its endgames are played with take-backs and tactics instead.
    styles = ("repeat",) if variant == "crazyhouse" else ("quiet", "repeat")
    for i, fen in enumerate(endgames(variant)):
        for style in styles:
            specs.append((f"endgame-{i}-{style}", fen, style, 1))
    # sparse random positions built for the variant, played out uniformly
    made = 0
    for _ in range(200):
        if made >= 4:
            break
        if variant in ANTI:
            b = r_anti_blocked(variant, rng) if made % 2 else r_anti(variant, rng, 3, 6)
        elif variant == "crazyhouse":
            b = r_zh(rng, full=made % 2 == 0, lo=1, hi=4)
        elif variant == "racingkings":
            b = r_race(rng)
        elif variant == "horde":
            b = r_horde(rng, 1, 3)
        elif variant == "3check":
            b = _checks(r_random(variant, rng, 1, 4), rng)
        else:
            b = r_random(variant, rng, 1, 4)
        if b is None:
            continue
        style = ("uniform" if made % 2 else "quiet") if variant != "crazyhouse" else "repeat"
        specs.append((f"random-{made}", b.fen(), style, 1))
        made += 1
    return tuple(specs)


STYLES = {"uniform": UNIFORM, "tactical": TACTICAL, "quiet": QUIET, "repeat": REPEAT}
