"""Fixed benchmark positions per variant: openings, middlegames, endgames and positions
from real games, for ``tdleaf bench search`` and any later benchmark that needs a
stable, labelled position set.

Each position has a ``name``, a ``kind`` (``opening``, ``middlegame`` or ``endgame``), a
FEN that python-chess 1.11.2 accepts as valid for the variant (``board.is_valid()``, and
the game is not over) and a ``source`` saying where it comes from:

- ``standard``: the start position;
- ``line: ...``: reached by the given plausible opening line from the start position;
- ``perft suite``: from tests/data/perft_<variant>.epd and ``tdleaf bench perft`` (the
  chess ones are the Chess Programming Wiki perft positions);
- ``game: ...``: a position from a real game, with the game and the ply. "lichess" games
  are human games (the crazyhouse one and the two antichess ones ship with python-chess
  as test data), "engine game" positions come from games between Fairy-Stockfish 11.1
  (0.2 s a move) and Sjeng 11.2 (1 s a move), or Fairy-Stockfish against itself, played
  on this machine once to make the set;
- ``python-chess test``/``pychess test``: positions those libraries test their rules on,
  taken from real games;
- ``hand-made``: a composed textbook position.

The suicide positions have no castling rights on purpose: Fairy-Stockfish's suicide
forbids castling while python-chess's ``SuicideBoard`` allows it, and the benchmark wants
the engines to search the same game. Crazyhouse positions have no promoted pieces
(``~``), which Sjeng's ``setboard`` cannot express.
"""

from __future__ import annotations

from dataclasses import dataclass

from variants.spec import RULE_FAMILIES, SPECS, rules_family

KINDS = ("opening", "middlegame", "endgame")


@dataclass(frozen=True)
class BenchPosition:
    """One labelled benchmark position."""

    name: str
    kind: str
    fen: str
    source: str


def _p(name: str, kind: str, fen: str, source: str) -> BenchPosition:
    assert kind in KINDS, kind
    return BenchPosition(name, kind, fen, source)


_ZH_GAME = ("game: lichess crazyhouse, knightvuillaume - JannLee, 2017-04-25 "
            "(https://lichess.org/R4GSdrpV)")
_ANTI_GAME_1 = "game: lichess antichess game 1 of python-chess data/pgn/antichess-programfox.pgn"
_ANTI_GAME_2 = "game: lichess antichess game 2 of python-chess data/pgn/antichess-programfox.pgn"

POSITIONS: dict[str, tuple[BenchPosition, ...]] = {
    "chess": (
        _p("start", "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "standard"),
        _p("ruy-lopez-closed", "opening",
           "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9",
           "line: 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O "
           "9.h3"),
        _p("sicilian-najdorf", "opening",
           "rn1qkb1r/1p3ppp/p2pbn2/4p3/4P3/1NN1BP2/PPP3PP/R2QKB1R b KQkq - 0 8",
           "line: 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Be3 e5 7.Nb3 Be6 8.f3"),
        _p("qgd-orthodox", "opening",
           "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PP3PPP/2RQKB1R w K - 0 8",
           "line: 1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 6.Nf3 Nbd7 7.Rc1 c6"),
        _p("kiwipete", "middlegame",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "perft suite (CPW position 2)"),
        _p("cpw-pos4", "middlegame",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "perft suite (CPW position 4)"),
        _p("cpw-pos5", "middlegame", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "perft suite (CPW position 5)"),
        _p("cpw-pos6", "middlegame",
           "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
           "perft suite (CPW position 6)"),
        _p("opera-game", "middlegame",
           "3rkb1r/p2nqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/2KR3R w k - 3 13",
           "game: Morphy - Duke Karl / Count Isouard, Paris 1858, after 12...Rd8"),
        _p("immortal-game", "middlegame",
           "rnb1k1nr/p2p1ppp/8/1pbN1N1P/4PBP1/3P1Q2/PqP5/R4KR1 w kq - 0 18",
           "game: Anderssen - Kieseritzky, London 1851, after 17...Qxb2"),
        _p("evergreen-game", "middlegame",
           "1r2k2r/pbppnppp/1bn5/4P2q/Q3N3/B1PB1N2/P4PPP/R3R1K1 w k - 1 17",
           "game: Anderssen - Dufresne, Berlin 1852, after 16...Qh5"),
        _p("cpw-pos3", "endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "perft suite (CPW position 3)"),
        _p("lucena", "endgame", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
           "hand-made: the Lucena position"),
        _p("fine-70", "endgame", "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
           "hand-made: Lasker and Reichhelm 1901 (Fine's Basic Chess Endings no. 70)"),
    ),
    "crazyhouse": (
        _p("start", "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
           "standard"),
        _p("zh-italian", "opening",
           "r1bq1rk1/ppp2pp1/2np3p/2bNp3/2B1P3/3P1N2/PPP2PPP/R2Q1RK1[Nb] w - - 2 10",
           "line: 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.O-O Nf6 5.d3 d6 6.Nc3 O-O 7.Bg5 h6 8.Bxf6 "
           "Qxf6 9.Nd5 Qd8"),
        _p("zh-scandinavian", "opening",
           "r3kb1r/ppp2ppp/2n1pn2/q7/3P2b1/2N2N2/PPP1BPPP/R1BQ1RK1[Pp] w kq - 2 8",
           "line: 1.e4 d5 2.exd5 Qxd5 3.Nc3 Qa5 4.d4 Nf6 5.Nf3 Bg4 6.Be2 e6 7.O-O Nc6"),
        _p("zh-nimzowitsch", "opening",
           "r1bqkbnr/ppp2ppp/2np4/4P3/5P2/2N2N2/PPP3PP/R1BQKB1R[Pp] w KQkq - 0 8",
           "line: 1.e4 Nc6 2.Nc3 Nf6 3.d4 e5 4.dxe5 Nxe5 5.f4 Nc6 6.e5 Ng8 7.Nf3 d6"),
        _p("zh-perft-middlegame", "middlegame",
           "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
           "perft suite"),
        _p("fried-liver-drops", "middlegame",
           "r1bq2nr/pppp1kpp/4b3/4n3/3QP3/8/PPP2PPP/RNB2RK1[BPPnp] b - - 2 8", "perft suite"),
        _p("zh-pawns-in-pocket", "middlegame",
           "r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13",
           "python-chess test (test_pawns_in_pocket)"),
        _p("zh-lichess-ply18", "middlegame",
           "r2q1rk1/ppp1nppp/2nb2b1/3pp3/3P4/3BPNP1/PPP1NP1P/R1BQR1K1[] w - - 0 10",
           _ZH_GAME + ", after 9...e5"),
        _p("zh-lichess-ply33", "middlegame",
           "r2q1rk1/ppp1nppp/3b2b1/8/2B1pP2/4P1P1/PPP1N1KP/R1B1Q3[NNPrp] b - - 1 17",
           _ZH_GAME + ", after 17.Bc4"),
        _p("zh-engines-ply22", "middlegame",
           "r1bq2kr/pppp3p/2n1pP2/4P1p1/1b1P4/2NB4/PPP2KPP/R1BQ3R[nnp] w - - 2 12",
           "game: engine game Fairy-Stockfish - Sjeng, after ply 22"),
        _p("zh-engines-ply16", "middlegame",
           "r3kbnr/ppqbpppp/8/3P4/1n6/8/PPPPPPPP/R1BQKB1R[Nnp] w KQkq - 0 9",
           "game: engine game Sjeng - Fairy-Stockfish, after ply 16"),
        _p("zh-pocket-endgame", "endgame", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", "perft suite"),
    ),
    "suicide": (
        _p("start", "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
           "standard, without castling rights"),
        _p("su-e3-b5", "opening",
           "r1bqkbnr/p2ppppp/8/8/1n6/4P2N/PPPP1PPP/RNBQK2R w - - 2 5",
           "line: 1.e3 b5 2.Bxb5 c6 3.Bxc6 Nxc6 4.Nh3 Nb4"),
        _p("su-g3-b6", "opening", "r2qkbnr/p1p1pppp/1pp5/8/8/6P1/PPPPPP1P/RNBQK1NR w - - 0 5",
           "line: 1.g3 b6 2.Bg2 Bb7 3.Bxb7 Nc6 4.Bxc6 dxc6"),
        _p("su-b3-e6", "opening", "rnb1k1nr/pppp1ppp/4p3/8/8/NP2P3/P1PP1PBP/R2QK1NR b - - 0 5",
           "line: 1.b3 e6 2.Ba3 Bxa3 3.Nxa3 Qg5 4.e3 Qxg2 5.Bxg2"),
        _p("kings-out", "middlegame", "rn1q1b1r/p1pk1ppp/5n2/8/3P4/6K1/PPP2P1P/RNBQ3R b - - 0 9",
           "perft suite"),
        _p("open-middlegame", "middlegame",
           "rnb2bnr/pp1pqkpp/8/8/4P1P1/5N2/PPPP1K1P/RNBQ3R w - - 1 8", "perft suite"),
        _p("su-lichess-ply15", "middlegame",
           "r1bqkb2/pppppp2/n7/6N1/8/1P6/P1PPPP2/RNBQK3 b - - 0 8",
           _ANTI_GAME_1 + ", after 8.Nxg5 (castling rights removed)"),
        _p("su-lichess-ply25", "middlegame", "r1bq1bk1/p1ppp3/1p6/8/8/P7/2QPPK2/RNB5 b - - 0 13",
           _ANTI_GAME_2 + ", after 13.Qxc2"),
        _p("su-engines-ply16", "middlegame",
           "rnbq1b2/p1pk1p2/4p2n/6p1/8/N3P1P1/PPPP1P2/R1B1K1N1 w - - 0 9",
           "game: engine game Fairy-Stockfish - Sjeng, after ply 16"),
        _p("su-engines-ply24", "middlegame",
           "2k3nr/p1pn1p1p/3p4/6P1/3P4/2P4P/PP2P3/RN2KB1R w - - 0 13",
           "game: engine game Sjeng - Fairy-Stockfish, after ply 24"),
        _p("su-engines-ply40", "middlegame",
           "1kr5/p1pn4/3p3n/7P/3P1p2/N1P5/PP2PK2/4RB1R w - - 5 21",
           "game: engine game Sjeng - Fairy-Stockfish, after ply 40"),
        _p("su-engines-ply56", "endgame", "1k5r/p1pn4/3p3n/3q3P/8/2P5/PPN1P3/8 w - - 0 29",
           "game: engine game Sjeng - Fairy-Stockfish, after ply 56"),
        _p("su-engines-ply60", "endgame", "1k5r/p1pn4/3p3n/8/8/PPP5/2N1q3/8 w - - 0 31",
           "game: engine game Sjeng - Fairy-Stockfish, after ply 60"),
    ),
    "giveaway": (
        _p("start", "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "standard"),
        _p("ga-e3-b5", "opening", "rn2kbnr/pbpqpppp/8/8/8/4P3/PPPP1PPP/RNBQK1NR w KQkq - 0 4",
           "line: 1.e3 b5 2.Bxb5 Bb7 3.Bxd7 Qxd7"),
        _p("ga-quiet-castling", "opening",
           "rnbqk2r/p1ppbppp/1p2pn2/8/8/1P2PN2/P1PPBPPP/RNBQK2R w KQkq - 0 5",
           "line: 1.e3 e6 2.Nf3 Nf6 3.Be2 Be7 4.b3 b6"),
        _p("castling", "opening", "rnbqk2r/ppp1bppp/3ppn2/8/8/1P2PN2/P1PPBPPP/RNBQK2R w KQkq - 0 5",
           "perft suite"),
        _p("forced-capture", "opening",
           "rnbqk2r/pppp1ppp/5n2/4p3/2P5/P1P5/1P2PPPP/R1BQKBNR w KQkq - 1 5", "perft suite"),
        _p("e3-b5-middlegame", "middlegame",
           "r2qkbnr/p1pn1ppp/8/8/3P4/5P2/PPP2P1P/RNBQK2R b - - 0 7", "perft suite (antichess)"),
        _p("ga-lichess-ply24", "middlegame", "r1b2b2/pp1ppk2/8/8/P7/1P6/3PPP2/RNq1K3 w Q - 0 13",
           _ANTI_GAME_1 + ", after 12...Qxc1"),
        _p("ga-engines-ply8", "middlegame",
           "rnbq1bnr/2pkppp1/7p/p7/6Q1/4P3/PPPP1PPP/RNB1K1NR w KQ - 0 5",
           "game: engine game Fairy-Stockfish self-play, after ply 8"),
        _p("ga-engines-ply16", "middlegame",
           "1nbq2nr/2pkpp2/7p/8/1p2P3/8/r1PP1PPP/bNB1K1NR w K - 0 9",
           "game: engine game Fairy-Stockfish self-play, after ply 16"),
        _p("ga-engines-ply24", "middlegame",
           "1nbq2n1/2pkpp2/7r/8/1p2P2P/3P4/6r1/bN1K2NR w - - 0 13",
           "game: engine game Fairy-Stockfish self-play, after ply 24"),
        _p("ga-lichess-ply36", "endgame", "r5k1/3b4/1p2p3/8/8/8/3NPK2/8 w - - 0 19",
           _ANTI_GAME_2 + ", after 18...Bxd7"),
        _p("ga-lichess-ply40", "endgame", "8/5k2/8/3p4/P6P/8/3PP3/4K3 w - - 0 21",
           _ANTI_GAME_1 + ", after 20...d5"),
    ),
    "atomic": (
        _p("start", "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "standard"),
        _p("at-f6-bd3", "opening",
           "r1bqkbnr/ppp3pp/2n1pp2/3p4/3P4/3BPN2/PPP2PPP/RNBQK2R w KQkq - 2 5",
           "line: 1.Nf3 f6 2.e3 d5 3.d4 e6 4.Bd3 Nc6"),
        _p("at-nh6-nf5", "opening",
           "rnbqkb1r/ppp1p1pp/5p2/3p1n2/3P4/3BPN2/PPP2PPP/RNBQK2R w KQkq - 3 5",
           "line: 1.Nf3 f6 2.e3 d5 3.d4 Nh6 4.Bd3 Nf5"),
        _p("at-nf3-f6-castled", "opening",
           "r1bqkb1r/ppp3pp/2n1pp1n/3p4/3P4/3BPN2/PPP2PPP/RNBQ1RK1 w kq - 4 6",
           "line: 1.Nf3 f6 2.d4 d5 3.e3 e6 4.Bd3 Nc6 5.O-O Nh6"),
        _p("at-nf7-c3", "middlegame",
           "r1bqkb1r/ppp2npp/2n1pp2/3p4/3P4/2PBPN2/PP3PPP/RNBQ1RK1 w kq - 1 7",
           "line: 1.Nf3 f6 2.d4 d5 3.e3 e6 4.Bd3 Nc6 5.O-O Nh6 6.c3 Nf7"),
        _p("at-ng5-fxg5", "opening", "rnbqkbnr/ppp1p1pp/8/3p4/8/4P3/PPPP1PPP/RNBQKB1R w KQkq - 0 4",
           "line: 1.Nf3 f6 2.e3 d5 3.Ng5 fxg5"),
        _p("at-slav", "opening",
           "rnbqkb1r/pp2pppp/2p2n2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R b KQkq - 3 4",
           "python-chess test (test_atomic_capture)"),
        _p("programfox-2", "middlegame", "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1",
           "perft suite"),
        _p("nxc6-middlegame", "middlegame",
           "rnb1kbnr/pp4pp/5p2/q2pp3/8/2N1P3/PPPP1PPP/R1BQK2R b KQkq - 2 6", "perft suite"),
        _p("castled", "middlegame",
           "rnb1k2r/pp3ppp/4pn2/q2p4/1b6/2N1P3/PPPP1PPP/R1BQ1RK1 b kq - 4 7", "perft suite"),
        _p("at-real-en-passant", "middlegame",
           "rn2kb1r/2p1p2p/p2q1pp1/1pPP4/Q7/4P3/PP3P1P/R3K3 w Qkq b6 0 11",
           "game: a real-world position from python-chess's tests (test_atomic_en_passant)"),
        _p("at-queen-raid", "middlegame",
           "r2nkbnr/pp1bpppp/2p5/1N6/3q4/8/PPPP1PPP/R1BQKB1R w KQkq - 0 1",
           "pychess test (atomic FEN1)"),
        _p("at-kings-touching", "endgame", "5b1r/1p5p/4ppp1/4Bn2/1PPP1PP1/4P2P/3k4/4K2R w K - 1 1",
           "python-chess test (test_atomic_castle_with_kings_touching)"),
        _p("at-rooks", "endgame", "8/8/8/3k4/4K3/8/8/R6r w - - 0 1", "perft suite"),
    ),
}



def positions(variant: str) -> tuple[BenchPosition, ...]:
    """The benchmark positions of ``variant`` (empty if it has none). A variant without
    a set that plays another's rules (antichess: giveaway's) reuses that set without
    castling rights (python-chess's antichess has none)."""
    family = rules_family(variant) if variant in SPECS else variant
    if variant not in POSITIONS and family in POSITIONS:
        return tuple(BenchPosition(p.name, p.kind, _no_castling(p.fen), p.source)
                     for p in POSITIONS[family])
    return POSITIONS.get(variant, ())


def _no_castling(fen: str) -> str:
    fields = fen.split(" ")
    fields[2] = "-"
    return " ".join(fields)


#: The variants ``tdleaf bench search`` runs by default, in order: every set of rules
#: that has benchmark positions (the four lichess variants added last have none yet).
SEARCH_VARIANTS: tuple[str, ...] = tuple(v for v in RULE_FAMILIES if positions(v))
