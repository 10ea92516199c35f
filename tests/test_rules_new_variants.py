"""The rules of lichess's four variants added last (king of the hill, three-check, racing
kings, horde), beyond what the shared rules tests compare: python-chess's published perft
positions to their full depth, each variant's own rules on positions built for them,
horde's insufficient material on seeded random positions, and a cross-check with Debian's
Fairy-Stockfish 11.1. python-chess 1.11.2 is the oracle; where Fairy-Stockfish disagrees
with it, python-chess wins (and the test says why they differ).
"""

from __future__ import annotations

import collections
import random
import subprocess

import chess
import chess.variant
import pytest

import variants
from variants import (
    VARIANTS,
    ImpossiblePositionError,
    ImpossiblePositionWarning,
    InvalidFenError,
    Position,
)
from variants.spec import get as spec_of

import helpers_rules as H
from helpers_engines import engine_path

NEW = H.NEW


def registered(*names: str):
    """Parametrize over those of ``names`` that the spec registers (a variant still in
    the spec's draft list is exposed by nothing, and not tested here)."""
    return pytest.mark.parametrize("variant", [n for n in names if n in VARIANTS])


#: python-chess's examples/perft/{3check,racingkings,horde}.perft (its source
#: distribution, at niklasf/python-chess 9c24454): position and published counts.
PUBLISHED = [
    ("3check", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1",
     {1: 48, 2: 2039, 3: 97848}),
    ("3check", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1", {1: 26, 2: 562, 3: 13410}),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -",
     {1: 21, 2: 421, 3: 11264, 4: 296242, 5: 9472927}),
    ("racingkings", "4brn1/2K2k2/8/8/8/8/8/8 w - -",
     {1: 6, 2: 33, 3: 178, 4: 3151, 5: 12981, 6: 265932}),
    ("racingkings", "8/8/1rk4K/8/8/8/2bnNBR1/qrbnNBRQ b - -",
     {1: 36, 2: 697, 3: 26592, 4: 661533}),
    ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -",
     {1: 8, 2: 128, 3: 1274, 4: 23310}),
    ("horde", "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - -",
     {1: 30, 2: 241, 3: 6633, 4: 56539}),
    ("horde", "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - -",
     {1: 13, 2: 172, 3: 2205, 4: 33781}),
]


@pytest.mark.parametrize("variant,fen,counts", [p for p in PUBLISHED if p[0] in VARIANTS])
def test_python_chess_published_perft(variant, fen, counts):
    for depth, nodes in counts.items():
        assert variants.perft(variant, fen, depth) == nodes, (fen, depth)


# -- king of the hill ---------------------------------------------------------------------

@registered("kingofthehill")
def test_king_on_the_hill(variant):
    # White's king on e4 with white to move: white has won; black's on the hill: lost.
    for fen, term, winner in [("8/8/8/8/4K3/8/8/k7 w - - 0 1", "VARIANT_WIN", True),
                              ("8/8/8/8/4k3/8/8/K7 w - - 0 1", "VARIANT_LOSS", False),
                              ("8/8/8/3k4/8/8/8/4K3 b - - 0 1", "VARIANT_WIN", False)]:
        pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
        assert pos.outcome() == board.outcome() == chess.Outcome(chess.Termination[term], winner)
        assert pos.legal_moves() == []
    # A quiet king step onto the hill ends the game at once.
    pos = Position.from_fen("8/8/8/8/8/3K4/8/k7 w - - 0 1", variant)
    pos.push_uci("d3d4")
    assert pos.outcome() == chess.Outcome(chess.Termination.VARIANT_LOSS, True)
    assert pos.legal_moves() == [] and not pos.has_insufficient_material(False)


# -- three-check --------------------------------------------------------------------------

@registered("3check")
def test_three_check_fen_forms(variant):
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    for fen, checks in [(f"{start} 0 1", (3, 3)), (f"{start} 2+1 0 1", (2, 1)),
                        (f"{start} 0 1 +1+2", (2, 1)), (f"{start} 5+0 0 1", (5, 0))]:
        pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
        assert (pos.remaining_checks(True), pos.remaining_checks(False)) == checks
        assert pos.fen() == board.fen() and pos.outcome() == board.outcome()
    for bad in (f"{start} x+1 0 1", f"{start} 0 1 +1+x", f"{start} 3+ 0 1"):
        with pytest.raises(ValueError):
            H.new_board(variant, bad)
        with pytest.raises(InvalidFenError):
            Position.from_fen(bad, variant)


@registered("3check")
def test_third_check_ends_the_game(variant):
    fen = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2"
    pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
    pos.push_uci("d1h5")
    board.push_uci("d1h5")
    assert pos.remaining_checks(True) == 0 == board.remaining_checks[chess.WHITE]
    assert pos.fen() == board.fen() and pos.fen().split()[4] == "0+3"
    assert pos.outcome() == board.outcome() == chess.Outcome(chess.Termination.VARIANT_LOSS, True)
    assert pos.legal_moves() == [] == list(board.legal_moves)
    pos.pop()
    assert pos.remaining_checks(True) == 1


@registered("3check")
def test_three_check_key_includes_the_counters(variant):
    base = "4k3/8/8/8/8/8/8/4K2R w K - {} 0 1"
    keys, tkeys = set(), set()
    for checks in ("3+3", "2+3", "3+2", "1+1", "0+0", "-1+3"):
        keys.add(Position.from_fen(base.format(checks), variant, validate=False).key)
        tkeys.add(H.new_board(variant, base.format(checks))._transposition_key())
    assert len(keys) == len(tkeys) == 6
    # and the counters floored at 0 in the FEN, as python-chess writes them
    assert Position.from_fen(base.format("-1+3"), variant).fen() == \
        H.new_board(variant, base.format("-1+3")).fen()


@registered("3check")
def test_three_check_insufficient_material(variant):
    for fen in ("4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", "4k3/8/8/8/8/8/8/3NK3 w - - 3+3 0 1",
                "4k3/8/8/8/8/8/8/2B1K3 w - - 3+3 0 1", "4k1b1/8/8/8/8/8/8/2B1K3 w - - 3+3 0 1"):
        pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
        assert pos.outcome() == board.outcome()
        for color in chess.COLORS:
            assert pos.has_insufficient_material(color) == board.has_insufficient_material(color)


# -- racing kings -------------------------------------------------------------------------

@registered("racingkings")
def test_racing_kings_refuses_checks(variant):
    # The knight on c2 shields a2 from the rook: every knight move discovers check.
    fen = "8/8/8/8/8/8/k1N1R2K/8 w - - 0 1"
    pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
    assert sorted(pos.legal_moves()) == H.pc_moves(board)
    assert not [m for m in pos.legal_moves() if m.startswith("c2")]
    assert not any(board.gives_check(m) for m in board.legal_moves)
    refused = {m.uci() for m in chess.Board.generate_legal_moves(board)} - set(pos.legal_moves())
    assert {"c2a1", "c2a3", "c2b4", "c2d4", "c2e1", "c2e3"} <= refused


@registered("racingkings")
def test_racing_kings_black_may_draw(variant):
    fen = "7K/k7/8/8/8/8/8/8 b - - 0 1"   # white has arrived; black, to move, may follow
    pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
    assert pos.outcome() is None and board.outcome() is None
    assert sorted(pos.legal_moves()) == H.pc_moves(board)
    for move, winner in (("a7a8", None), ("a7b8", None), ("a7b7", True), ("a7a6", True)):
        pos.push_uci(move)
        board.push_uci(move)
        assert pos.outcome() == board.outcome(), move
        assert pos.outcome() is not None and pos.outcome().winner is winner, move
        pos.pop()
        board.pop()
    # Black cannot follow (the queen guards a8 and b7, the rook b8): over at once.
    fen = "7K/k7/2Q5/8/8/8/8/1R6 b - - 0 1"
    pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
    assert pos.outcome() == board.outcome() == chess.Outcome(chess.Termination.VARIANT_LOSS, True)
    assert pos.legal_moves() == [] == H.pc_moves(board)


@registered("racingkings")
def test_racing_kings_check_is_impossible(variant):
    with pytest.warns(ImpossiblePositionWarning, match="race_check"):
        pos = Position.from_fen("8/8/8/8/8/8/k5RK/8 b - - 0 1", variant)
    assert sorted(pos.legal_moves()) == H.pc_moves(H.new_board(variant, pos.fen()))
    with pytest.raises(ImpossiblePositionError, match="race_check"):
        Position.from_fen("8/8/8/8/8/8/k5RK/8 b - - 0 1", variant, strict=True)


# -- horde --------------------------------------------------------------------------------

@registered("horde")
def test_horde_double_steps(variant):
    # From the first rank: two squares, and no en-passant square (b3 cannot take on a2).
    pos, board = (Position.from_fen("4k3/8/8/8/8/1p6/8/P7 w - - 0 1", variant),
                  H.new_board(variant, "4k3/8/8/8/8/1p6/8/P7 w - - 0 1"))
    pos.push_uci("a1a3")
    board.push_uci("a1a3")
    assert board.ep_square is None and pos.fen() == board.fen()
    assert sorted(pos.legal_moves()) == H.pc_moves(board) and "b3a2" not in pos.legal_moves()
    # From the second rank, as in chess: en passant.
    fen = "4k3/8/8/8/1p6/8/P7/8 w - - 0 1"
    pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
    pos.push_uci("a2a4")
    board.push_uci("a2a4")
    assert pos.fen() == board.fen() and "b4a3" in pos.legal_moves()


@registered("horde")
def test_horde_ends_when_a_side_has_nothing(variant):
    for fen, result in [("4k3/8/8/8/8/8/8/8 w - - 0 1", chess.Outcome(chess.Termination.VARIANT_LOSS, False)),
                        ("4k3/8/8/8/8/8/8/8 b - - 0 1", chess.Outcome(chess.Termination.VARIANT_WIN, False))]:
        pos, board = Position.from_fen(fen, variant), H.new_board(variant, fen)
        assert pos.outcome() == board.outcome() == result
        assert pos.legal_moves() == []
    # The last white pawn taken: black wins.
    pos = Position.from_fen("4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", variant)
    pos.push_uci("d2e1")
    assert pos.outcome() == chess.Outcome(chess.Termination.VARIANT_LOSS, False)


@registered("horde")
def test_horde_kings(variant):
    with pytest.raises(ImpossiblePositionError, match="too_many_kings"):
        Position.from_fen("4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", variant)
    with pytest.raises(ImpossiblePositionError, match="no_black_king"):
        Position.from_fen("8/8/8/8/8/8/PPPPPPPP/8 w - - 0 1", variant)
    assert Position.start(variant).problems == ()


def _sparse_horde(rng: random.Random) -> chess.variant.HordeBoard:
    """A black king, 0-4 white men (pawns and pieces, bishops of either colour) and 0-6
    black men: every branch of python-chess's horde material rule gets visited."""
    b = H.empty_board("horde")
    H.put(b, rng, "k")
    for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 2, 3, 3, 4])):
        H.put(b, rng, rng.choice("PPNBBBRQ"))
    for _ in range(rng.randint(0, 6)):
        H.put(b, rng, rng.choice("pppnbbrq"))
    b.turn = rng.random() < 0.5
    return b


@registered("horde")
def test_horde_insufficient_material_random(variant):
    rng = random.Random("horde-insufficient")
    seen: collections.Counter = collections.Counter()
    for _ in range(4000):
        board = _sparse_horde(rng)
        fen = board.fen()
        pos = Position.from_fen(fen, variant, validate=False)
        expected = board.has_insufficient_material(chess.WHITE)
        assert pos.has_insufficient_material(chess.WHITE) == expected, fen
        assert not pos.has_insufficient_material(chess.BLACK)
        assert pos.outcome() == board.outcome(), fen
        white = board.occupied_co[chess.WHITE]
        kinds = "".join(sorted(board.piece_at(s).symbol() for s in chess.scan_forward(white)))
        seen[(kinds, expected)] += 1
    # Both answers for lone pieces and pairs, not only the trivial cases.
    for kinds in ("B", "N", "Q", "R", "P", "BB", "BN", "NN", "BR"):
        assert seen[(kinds, True)] and seen[(kinds, False)], (kinds, seen)


# -- Fairy-Stockfish ----------------------------------------------------------------------

#: (variant, FEN, depth): positions where no game ends within depth - 1 plies, so that
#: Fairy-Stockfish's ``go perft`` (which goes on generating moves in a position whose
#: game is over) counts what python-chess counts.
FSF_POSITIONS = [
    ("kingofthehill", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kingofthehill", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("kingofthehill", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", 3),
    ("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", 4),
    ("3check", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3+3 0 1", 3),
    ("3check", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 2+2 0 1", 3),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 4),
    ("racingkings", "8/8/1rk4K/8/8/8/2bnNBR1/qrbnNBRQ b - - 0 1", 3),
    ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", 4),
    ("horde", "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1", 3),
    ("horde", "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1", 4),
]


def _fsf_perft(path: str, variant: str, fen: str, depth: int) -> int:
    commands = (f"uci\nsetoption name UCI_Variant value {spec_of(variant).uci_variant}\n"
                f"position fen {fen}\ngo perft {depth}\nquit\n")
    out = subprocess.run([path], input=commands, capture_output=True, text=True, check=True,
                         timeout=120).stdout
    lines = [line for line in out.splitlines() if line.startswith("Nodes searched:")]
    assert lines, out[-500:]
    return int(lines[-1].split(":")[1])


@pytest.mark.parametrize("variant,fen,depth", [p for p in FSF_POSITIONS if p[0] in VARIANTS])
def test_fairy_stockfish_agrees(variant, fen, depth):
    path = engine_path("fairy-stockfish")
    ours = variants.perft(variant, fen, depth)
    assert ours == H.pc_perft(H.new_board(variant, fen), depth)
    assert _fsf_perft(path, variant, fen, depth) == ours


@registered("racingkings")
def test_fairy_stockfish_counts_moves_after_the_race(variant):
    """python-chess's published 4brn1/2K2k2 (depth 5: 12,981) differs from Fairy-
    Stockfish 11.1's 13,560 because its perft goes on after black's king has reached the
    8th rank (4krn1/8/8/K7/b7/8/8/8 w: the game is over, python-chess generates nothing,
    Fairy-Stockfish four king moves). python-chess wins: the game is over there."""
    path = engine_path("fairy-stockfish")
    over = "4krn1/8/8/K7/b7/8/8/8 w - - 4 3"
    assert H.new_board(variant, over).is_game_over()
    assert Position.from_fen(over, variant).legal_moves() == []
    assert _fsf_perft(path, variant, over, 1) > 0
    fen = "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1"
    assert variants.perft(variant, fen, 5) == 12981 != _fsf_perft(path, variant, fen, 5)


# -- the spec -----------------------------------------------------------------------------

def test_spec_entries():
    """Names, codes and flags of the four, from python-chess's classes."""
    for name, cls in (("kingofthehill", chess.variant.KingOfTheHillBoard),
                      ("3check", chess.variant.ThreeCheckBoard),
                      ("racingkings", chess.variant.RacingKingsBoard),
                      ("horde", chess.variant.HordeBoard)):
        v = spec_of(name)
        assert v.board_class == f"chess.variant.{cls.__name__}"
        assert (v.uci_variant, v.xboard) == (cls.uci_variant, cls.xboard_variant)
        assert {a.lower() for a in cls.aliases} <= set(v.names)
        assert v.engines == ("uci:fairy-stockfish",)
        if name in VARIANTS:
            assert variants.board_class(name) is cls
            for alias in cls.aliases:
                assert variants.canonical_variant(alias) == name
    assert [spec_of(n).code for n in NEW] == [5, 6, 7, 8]
    assert [spec_of(n).mirror for n in NEW] == ["rank", "rank", "file", "colour"]
    assert [spec_of(n).lichess for n in NEW] == ["kingOfTheHill", "threeCheck", "racingKings",
                                                "horde"]


def test_new_variants_play_random_games():
    """Seeded random games of each registered variant, move by move beside python-chess
    (legal moves, FEN, outcome with claims, is_check), to the end."""
    for variant in (n for n in NEW if n in VARIANTS):
        rng = random.Random(f"new-games-{variant}")
        for _ in range(3):
            board, pos = H.new_board(variant), Position.start(variant)
            while True:
                assert pos.fen() == board.fen()
                assert pos.outcome(claim_draw=True) == board.outcome(claim_draw=True)
                assert pos.is_check() == board.is_check()
                if board.outcome() is not None:
                    break
                move = H.pick(board, rng, H.TACTICAL)
                assert move is not None
                assert sorted(pos.legal_moves()) == H.pc_moves(board)
                board.push(move)
                pos.push_uci(move.uci())


def _quiescence_oracle(board: chess.Board) -> set[str]:
    """What a quiescence node may try, by python-chess: every legal move in check; else
    the captures and promotions, plus the quiet moves that reach the variant's goal (a
    king onto the hill or the 8th rank, the third check)."""
    legal = list(board.legal_moves)
    if board.is_check():
        return {m.uci() for m in legal}
    out = set()
    for m in legal:
        if board.is_capture(m) or m.promotion:
            out.add(m.uci())
            continue
        king = board.piece_type_at(m.from_square) == chess.KING
        if isinstance(board, chess.variant.KingOfTheHillBoard):
            goal = king and m.to_square in (chess.D4, chess.E4, chess.D5, chess.E5)
        elif isinstance(board, chess.variant.RacingKingsBoard):
            goal = king and chess.square_rank(m.to_square) == 7
        elif isinstance(board, chess.variant.ThreeCheckBoard):
            goal = board.remaining_checks[board.turn] == 1 and board.gives_check(m)
        else:
            goal = False
        if goal:
            out.add(m.uci())
    return out


@pytest.mark.parametrize("variant", [n for n in NEW if n in VARIANTS])
def test_quiescence_moves_include_quiet_game_ends(variant):
    """core.gen_legal_tactical (the moves a quiescence node tries) on seeded random games,
    against python-chess: quiet moves that end the game are in, other quiet moves out."""
    import numpy as np

    from variants import core
    from variants.position import move_to_uci

    rng = random.Random(f"quiescence-moves-{variant}")
    moves = np.zeros(256, dtype=np.int64)
    seen_goal = 0
    for _ in range(12):
        board, pos = H.new_board(variant), Position.start(variant)
        while board.outcome() is None:
            sbb, sst = pos.bb.copy(), pos.st.copy()
            n = core.gen_legal_tactical(pos.bb, pos.st, moves, sbb, sst)
            got = {move_to_uci(int(m)) for m in moves[:n]}
            want = _quiescence_oracle(board)
            assert got == want, board.fen()
            seen_goal += any(not board.is_capture(chess.Move.from_uci(u))
                             and not chess.Move.from_uci(u).promotion for u in want) \
                and not board.is_check()
            move = H.pick(board, rng, H.TACTICAL)
            board.push(move)
            pos.push_uci(move.uci())
    if variant != "horde":
        assert seen_goal > 0        # the suite met quiet game ends
