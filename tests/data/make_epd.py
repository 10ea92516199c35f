"""Regenerate the perft_<variant>.epd and perft_<variant>_impossible.epd suites: expected
counts from python-chess (the oracle).

    python tests/data/make_epd.py
"""

from pathlib import Path

import chess
import chess.variant

from tdleaf.bench.perft import python_chess_perft as perft

BOARDS = {"chess": chess.Board, "crazyhouse": chess.variant.CrazyhouseBoard,
          "suicide": chess.variant.SuicideBoard, "giveaway": chess.variant.GiveawayBoard,
          "antichess": chess.variant.AntichessBoard, "atomic": chess.variant.AtomicBoard}
MAX_NODES = 400_000  # deepest depth kept is the last one under this many leaves

SUITES = {
    "chess": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # en passant would expose the king
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  # promotions
    ],
    "crazyhouse": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
        "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
        "r1bq2nr/pppp1kpp/4b3/4n3/3QP3/8/PPP2PPP/RNB2RK1[BPPnp] b - - 2 8",
    ],
    "suicide": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rn1q1b1r/p1pk1ppp/5n2/8/3P4/6K1/PPP2P1P/RNBQ3R b - - 0 9",
        "rnb2bnr/pp1pqkpp/8/8/4P1P1/5N2/PPPP1K1P/RNBQ3R w - - 1 8",
        "rnbqk2r/ppp1bppp/3ppn2/8/8/1P2PN2/P1PPBPPP/RNBQK2R w KQkq - 0 5",  # castling
        "8/1p6/8/8/8/8/P7/8 w - - 0 1",
        "8/P7/8/8/8/8/7p/8 w - - 0 1",  # promotion to king
    ],
    "giveaway": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqk2r/ppp1bppp/3ppn2/8/8/1P2PN2/P1PPBPPP/RNBQK2R w KQkq - 0 5",
        "rnbqk2r/pppp1ppp/5n2/4p3/2P5/P1P5/1P2PPPP/R1BQKBNR w KQkq - 1 5",
        "8/2p5/8/8/8/8/P7/8 w - - 0 1",
        "8/P7/8/8/8/8/7p/8 w - - 0 1",
    ],
    "antichess": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "r2qkbnr/p1pn1ppp/8/8/3P4/5P2/PPP2P1P/RNBQK2R b - - 0 7",
        "1nbqk1nr/3pp1bp/p4p2/p1p5/2P1PP2/1P4P1/P2P3P/RN1QK1NR w - - 0 9",
        "8/1p6/8/8/8/8/P7/8 w - - 0 1",
        "8/P7/8/8/8/8/7p/8 w - - 0 1",
    ],
    "atomic": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1",
        "rnb1kbnr/pp4pp/5p2/q2pp3/8/2N1P3/PPPP1PPP/R1BQK2R b KQkq - 2 6",
        "rnb1k2r/pp3ppp/4pn2/q2p4/1b6/2N1P3/PPPP1PPP/R1BQ1RK1 b kq - 4 7",
        "8/8/8/3k4/4K3/8/8/R6r w - - 0 1",  # connected kings
    ],
}


#: Positions python-chess's status() calls impossible but plays (and so does tdleaf,
#: with a warning): perft_<variant>_impossible.epd. The chess ones are python-chess's
#: own (examples/perft/tricky.perft: "impossible checker alignment"); the others carry
#: the same problems into each variant (pawns on the back rank step two squares to the
#: third rank, en-passant squares without a double push take what stands behind them).
_ANTI_IMPOSSIBLE = [
    "8/8/8/3Pn3/8/8/8/p6P w - e6 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP w - - 0 1",
    "8/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/8 w - - 0 1",
    "4k3/8/8/8/2pP4/8/8/4K3 b - e3 0 1",
]
IMPOSSIBLE_SUITES = {
    "chess": [
        "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
        "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1",
        "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1",
        "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
        "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
        "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
    ],
    "crazyhouse": [
        "3R4/8/q4k2/2B5/1NK5/3b4/8/8[Nn] w - - 0 1",
        "8/8/8/1k6/3Pp3/8/8/4KQ2[Pq] b - d3 0 1",
        "2Nq4/2K5/1b6/8/7R/3k4/7P/8[] w - - 0 1",
        "4k3/8/8/8/8/8/8/P3K2p[Nn] w - - 0 1",
        "r3k2r/8/8/4Pp2/8/8/8/R3K2R[Bb] w KQkq d6 0 1",
    ],
    "atomic": [
        "4k3/8/8/3Pn3/8/8/8/4K3 w - e6 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPKPPP w kq - 0 1",
        "r3k2r/pppppppp/pppppppp/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    ],
    "suicide": _ANTI_IMPOSSIBLE,
    "giveaway": _ANTI_IMPOSSIBLE,
    "antichess": _ANTI_IMPOSSIBLE,
}


def _suite(variant: str, fens: list[str], valid: bool) -> str:
    kind = "perft suite" if valid else "perft suite of impossible (status() != VALID) positions"
    lines = [f"# {variant} {kind}; expected counts from python-chess {chess.__version__}",
             "# (regenerate with tests/data/make_epd.py)"]
    for fen in fens:
        board = BOARDS[variant](fen)
        if valid:
            assert board.is_valid(), (variant, fen, board.status())
        else:
            from variants import position_problems
            unplayable, impossible = position_problems(board)
            assert impossible and not unplayable, (variant, fen, unplayable, impossible)
        fields = []
        for depth in (1, 2, 3):
            n = perft(board, depth)
            if depth > 1 and n > MAX_NODES:
                break
            fields.append(f";D{depth} {n}")
        lines.append(f"{fen} {' '.join(fields)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    here = Path(__file__).parent
    for variant, fens in SUITES.items():
        (here / f"perft_{variant}.epd").write_text(_suite(variant, fens, True))
    for variant, fens in IMPOSSIBLE_SUITES.items():
        (here / f"perft_{variant}_impossible.epd").write_text(_suite(variant, fens, False))


if __name__ == "__main__":
    main()
