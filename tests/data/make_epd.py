"""Regenerate the perft_<variant>.epd and perft_<variant>_impossible.epd suites: expected
counts from python-chess (the oracle).

    python tests/data/make_epd.py [VARIANT ...]
"""

import sys
from pathlib import Path

import chess
import chess.variant

from tdleaf.bench.perft import python_chess_perft as perft

BOARDS = {"chess": chess.Board, "crazyhouse": chess.variant.CrazyhouseBoard,
          "suicide": chess.variant.SuicideBoard, "giveaway": chess.variant.GiveawayBoard,
          "antichess": chess.variant.AntichessBoard, "atomic": chess.variant.AtomicBoard,
          "kingofthehill": chess.variant.KingOfTheHillBoard,
          "3check": chess.variant.ThreeCheckBoard,
          "racingkings": chess.variant.RacingKingsBoard, "horde": chess.variant.HordeBoard}
#: Where a suite's first positions come from, when they are published ones.
SOURCES = {
    v: f"the first positions are python-chess's examples/perft/{v}.perft (python-chess "
       "source distribution); the others are seeded random-game positions"
    for v in ("3check", "racingkings", "horde")}
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
    "kingofthehill": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
        "8/8/8/8/3K4/8/8/4k3 b - - 0 1",  # white king on the hill: game over
        "8/8/8/2k5/8/2K5/8/8 w - - 0 1",  # both kings one step from the hill
        "8/8/8/2k5/8/2K1r3/8/8 w - - 0 1",  # the hill guarded
        "r4bnr/5k2/1pp2P1p/p1p1P3/6b1/N7/PPPP3P/R1B2KNR b - - 2 19",
        "rnb1k2r/pp1p3p/6pB/8/8/p2P1Pb1/P6P/1R1K1BNR b - - 0 17",
        "1nB1kbnr/4pp1p/1p1p4/2pP4/5Pp1/2N1P3/rPP3PP/1qBQK2R w Kk - 2 13",
        "rnbq1k1r/2p4p/p2p4/3p4/2P1n3/1P2Q3/1B2PPPP/1R1K1BR1 w - - 2 16",
        "r1b1k1n1/2pp4/ppn5/4p1Q1/PP2P3/R3P2p/5P1P/2N1KB1R w K - 2 19",
        "rnb1kb1r/ppp1pppp/8/3Q4/8/2N1PB2/PPP2PPq/R1B1K1NR w KQkq - 0 7",
        "1nb5/1p4p1/4k3/3p4/6p1/2PPB3/6P1/1N1K1B1R w - - 0 27",
    ],
    "3check": [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # no check field: 3+3
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +2+1",  # lichess form
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0+2 0 2",  # game over
        "1r2kbnr/pBp2p1p/P2p2p1/2n2b2/RP6/2NP4/2PKPN1q/3Q3R w k - 3+2 1 17",
        "r1bqkbnr/2ppp3/1p3p1p/p7/3PP3/N2B4/PPP2PPP/R2QK1NR w KQkq - 3+2 0 9",
        "rnb1kbnr/1p1p1ppp/8/p1p1P3/7q/3P4/PPP1PKPP/RNBQ1BNR w kq - 3+2 2 5",
        "rnqk1b1r/1p2pp1p/p5pn/1B6/PB1P4/1pp1PPPb/3N3P/1R1QK1NR w K - 2+3 4 16",
        "rnb1kbnr/1p1ppNpp/2q5/p4P1Q/8/1PN5/P2P1PPP/R1B1KB1R w KQ - 1+3 3 10",
        "r2qkbn1/2p2pp1/2npp2r/P6p/8/B1P1PPP1/3P3P/RN2KBNR b KQq - 1+3 0 12",
        "rnbk1bnr/pppp1pp1/4p2p/8/6PR/3P1P2/PPP1P3/RNBQKBN1 b Q - 3+2 0 5",
    ],
    "racingkings": [
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1",
        "8/8/1rk4K/8/8/8/2bnNBR1/qrbnNBRQ b - - 0 1",
        "8/1r6/8/8/1R6/8/k3N1BK/1nb3R1 b - - 1 11",
        "8/r7/8/8/8/5N1Q/3n3K/k4B1R b - - 5 16",
        "6R1/1r6/8/6Q1/8/8/k3N3/6K1 b - - 2 17",
        "5q2/8/8/6R1/4n3/1k6/2r1N2K/1r1n3Q w - - 1 8",
        "6R1/8/8/7N/8/k2B4/8/6K1 w - - 1 20",
        "8/6R1/8/8/4R3/8/k4n1K/1rb1NB1Q b - - 0 9",
        "2B5/6b1/8/8/2n5/8/5K2/1k6 w - - 1 18",
        "7K/k7/8/8/8/8/8/8 b - - 0 1",  # white arrived: black can still draw
        "7K/k7/8/8/8/8/8/1R6 b - - 0 1",  # ... on a8 only
        "6K1/8/8/8/8/8/1k6/8 b - - 0 1",  # black cannot follow: game over
    ],
    "horde": [
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1",
        "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1",
        "rn1qkbnr/p1p1pppp/8/4P1PP/P1PP1PP1/PPPPPPPP/P2PPPPP/PPPPPPPP b kq - 0 8",
        "2r5/pk6/b7/6PP/1PP3P1/2PP2PP/PPPPPPPP/PPPPP1PP w - - 1 23",
        "2bqkb1r/Q1p1n2p/4pp2/2p3P1/PPP1PPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w k - 0 8",
        "4k2r/8/4p3/PP2P2p/1n2P2P/P2P1PPP/1PPPPP1P/PP1PPPPP w - - 1 24",
        "2r2knr/p1P4p/2P5/P3P1Pb/4PPPP/PPPPPP2/PP1PPP1P/PPPPnPPP b - - 0 18",
        "1n2qk1r/2pP1ppp/2p4P/2P1P1P1/1b1PP1PP/4P1P1/1rPPPPPP/P1PPPPPP w - - 0 20",
        "rn2k1n1/1pp3p1/4P2r/PP2P1p1/PP1P1PPP/PP4PP/1PPP1PqP/PPPPPPPP b q - 0 16",
        "4k3/8/8/8/8/8/8/P1P5 w - - 0 1",  # double steps from the first rank
        "4k3/8/8/8/8/8/8/8 b - - 0 1",  # the horde is gone
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
_KING_IMPOSSIBLE = [
    "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
    "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1",
    "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
    "4k3/8/8/8/8/8/8/P3K2p w - - 0 1",
    "r3k2r/8/8/4Pp2/8/8/8/R3K2R w KQkq d6 0 1",
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
    "kingofthehill": _KING_IMPOSSIBLE,
    "3check": [f.replace(" 0 1", " 2+1 0 1") for f in _KING_IMPOSSIBLE],
    "racingkings": [
        "8/8/8/8/8/8/k1r4K/8 w - - 0 1",  # checks
        "8/8/8/8/8/8/k5RK/8 b - - 0 1",
        "8/8/8/8/8/8/krrr3K/8 w - - 0 1",
        "8/8/8/8/8/2p5/k6K/8 w - - 0 1",  # material no race starts with
        "8/8/8/8/8/8/kNNN3K/8 w - - 0 1",
        "8/8/8/8/8/8/k6K/3QQ3 w - - 0 1",
        "8/8/8/4P3/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        "8/8/8/8/8/8/kbbb3K/8 b - - 0 1",
        "k6K/8/8/8/8/8/8/8 b - - 0 1",  # the race is over
    ],
    "horde": [
        "4k3/8/8/8/8/8/PPPPPPPP/p7 w - - 0 1",
        "P3k3/8/8/8/8/8/PPPPPPPP/8 b - - 0 1",
        "4k3/8/8/2P1p3/8/8/PPP5/8 w - d6 0 1",
        "4k3/pppppppp/p7/8/8/8/PPPPPPPP/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w KQkq - 0 1",
        "4k3/8/8/8/2pP4/8/8/PPPP4 b - e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPp w kq - 0 1",
        "4k3/3P1P2/3N4/8/8/8/PPP5/8 b - - 0 1",
    ],
}


def _suite(variant: str, fens: list[str], valid: bool) -> str:
    kind = "perft suite" if valid else "perft suite of impossible (status() != VALID) positions"
    lines = [f"# {variant} {kind}; expected counts from python-chess {chess.__version__}",
             "# (regenerate with tests/data/make_epd.py)"]
    if valid and variant in SOURCES:
        lines.append(f"# {SOURCES[variant]}")
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


def main(names: list[str]) -> None:
    """Regenerate the suites of ``names`` (every variant's when empty)."""
    here = Path(__file__).parent
    for variant, fens in SUITES.items():
        if not names or variant in names:
            (here / f"perft_{variant}.epd").write_text(_suite(variant, fens, True))
    for variant, fens in IMPOSSIBLE_SUITES.items():
        if not names or variant in names:
            (here / f"perft_{variant}_impossible.epd").write_text(_suite(variant, fens, False))


if __name__ == "__main__":
    main(sys.argv[1:])
