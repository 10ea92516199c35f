"""Bad input raises the package's own exceptions (all subclasses of VariantError, itself
a ValueError) with a message naming what is wrong -- never a python-chess, numpy or
numba error, and never a crash."""

from __future__ import annotations

import warnings

import chess
import chess.variant
import pytest

import variants
from variants import (
    IllegalMoveError,
    ImpossiblePositionError,
    InvalidFenError,
    Position,
    UnknownVariantError,
    VariantError,
    board_class,
)

import helpers_rules as H

# (variant, FEN, words the message must contain besides the FEN itself)
MALFORMED_FENS = [
    ("chess", "", ["empty"]),
    ("chess", "not a fen", ["turn"]),
    ("chess", "8/8/8/8/8/8/8 w - - 0 1", ["8 rows"]),
    ("chess", "9/8/8/8/8/8/8/4K2k w - - 0 1", ["position part"]),
    ("chess", "4k4/8/8/8/8/8/8/4K3 w - - 0 1", ["position part"]),
    ("chess", "4x3/8/8/8/8/8/8/4K2k w - - 0 1", ["invalid character"]),
    ("chess", "4k3/8/8/8/8/8/8/44 w - - 0 1", ["digits"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3~ w - - 0 1", ["~"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", ["turn"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w XYZ - 0 1", ["castling"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", ["en passant"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - a b", ["half-move"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", ["negative"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 x", ["fullmove"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", ["more parts"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", ["position part"]),  # pocket outside crazyhouse
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", []),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1", ["position part"]),
    ("crazyhouse", "4k3/8/8/8/8/8/8[Q] w - - 0 1", ["rows"]),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1 1", ["more parts"]),
    ("suicide", "8/8/8/8/8/8/8/8/8 w - - 0 1", ["rows"]),
    ("antichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1 z", ["more parts"]),
]

# Positions that cannot be played, refused whatever the options: (variant, FEN, words the
# message must name: python-chess status flag names or the package's own problems).
UNPLAYABLE = [
    ("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", ["too_many_kings"]),
    ("chess", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", ["opposite_check"]),  # side not to move in check
    ("chess", "8/8/8/8/8/8/8/8 w - - 0 1", ["no_white_king", "no_black_king", "empty"]),
    ("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", ["no_white_king"]),
    ("chess", "4k3/8/8/8/8/8/8/8 b - - 0 1", ["no_white_king"]),
    ("chess", "8/8/8/3Pk3/8/8/8/4K3 w - e6 0 1", ["en passant on e6 would capture a king"]),
    ("crazyhouse", "4k3/8/8/8/8/8/8/3KK3[Q] w - - 0 1", ["too_many_kings"]),
    ("crazyhouse", "4k3/8/8/8/8/8/4R3/4K3[] w - - 0 1", ["opposite_check"]),
    ("crazyhouse", "8/5K2/7q/6kP/3r4/8/8/8[Q] w - g6 0 1", ["would capture a king"]),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[QQQQQQQQQQQQQQQQQQQQqqqqqqqqqqqqqqqqq] w - - 0 1",
     ["more than 36 pieces"]),
    ("atomic", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", ["too_many_kings"]),
    ("atomic", "8/8/8/8/8/8/8/4K3 w - - 0 1", ["no_black_king"]),
    ("giveaway", "8/8/8/8/8/8/8/8 w - - 0 1", ["empty"]),
    ("suicide", "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQ3/8/8/7q w - - 0 1", ["more than 36 pieces"]),
]

# Positions python-chess's status() calls impossible but plays: accepted with a warning
# (refused with strict=True). (variant, FEN, status flag names the warning names.)
IMPOSSIBLE = [
    ("chess", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", ["impossible_check"]),
    ("chess", "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1", ["impossible_check"]),
    ("chess", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", ["impossible_check"]),
    ("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ["pawns_on_backrank"]),
    ("chess", "p3k3/8/8/8/8/8/8/4K3 b - - 0 1", ["pawns_on_backrank"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 b - e3 0 1", ["invalid_ep_square"]),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", ["bad_castling_rights"]),
    ("chess", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", ["too_many_black_pawns"]),
    ("chess", "4k3/8/8/2Pq4/8/8/8/4K3 w - d6 0 1", ["invalid_ep_square"]),   # e.p. takes a queen
    ("chess", "k7/8/8/8/8/2bn4/8/2r1K1r1 w - - 0 1", ["too_many_checkers", "impossible_check"]),
    ("crazyhouse", "4k3/8/8/8/8/8/8/P3K3[Nn] w - - 0 1", ["pawns_on_backrank"]),
    ("atomic", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ["pawns_on_backrank"]),
    ("suicide", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ["pawns_on_backrank"]),
    ("antichess", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", ["invalid_ep_square"]),
]


def test_error_hierarchy():
    for exc in (UnknownVariantError, InvalidFenError, ImpossiblePositionError, IllegalMoveError):
        assert issubclass(exc, VariantError)
    assert issubclass(VariantError, ValueError)
    assert variants.VariantError is VariantError


@pytest.mark.parametrize("variant,fen,words", MALFORMED_FENS)
def test_malformed_fen(variant, fen, words):
    with pytest.raises(ValueError):
        board_class(variant)(fen)  # python-chess rejects it too
    with pytest.raises(InvalidFenError) as info:
        Position.from_fen(fen, variant)
    msg = str(info.value)
    assert repr(fen) in msg and variant in msg
    for word in words:
        assert word in msg, msg
    # every entry point that takes a FEN
    with pytest.raises(InvalidFenError):
        Position.from_fen(fen, variant, validate=False)
    with pytest.raises(InvalidFenError):
        variants.perft(variant, fen, 1)
    with pytest.raises(InvalidFenError):
        variants.divide(variant, fen, 1)


@pytest.mark.parametrize("fen", [123, 4.5, ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"]])
def test_non_string_fen(fen):
    """A FEN that is not text at all is bad input too (python-chess raises
    AttributeError/TypeError here; the package should say InvalidFenError)."""
    with pytest.raises(InvalidFenError):
        Position.from_fen(fen, "chess")


@pytest.mark.parametrize("variant,fen,words", UNPLAYABLE)
def test_unplayable_position(variant, fen, words):
    board_class(variant)(fen)  # python-chess parses it...
    for strict in (False, True):
        with pytest.raises(ImpossiblePositionError) as info:
            Position.from_fen(fen, variant, strict=strict)
        msg = str(info.value)
        assert repr(fen) in msg and variant in msg
        for word in words:
            assert word in msg, msg
    with pytest.raises(ImpossiblePositionError):
        variants.perft(variant, fen, 2)
    with pytest.raises(ImpossiblePositionError):
        variants.divide(variant, fen, 1)


@pytest.mark.parametrize("variant,fen,flags", IMPOSSIBLE)
def test_impossible_position_accepted_with_warning(variant, fen, flags):
    board = board_class(variant)(fen)
    assert not board.is_valid()        # python-chess calls it invalid, and plays it
    with pytest.warns(variants.ImpossiblePositionWarning) as record:
        pos = Position.from_fen(fen, variant)
    msg = str(record[0].message)
    assert repr(fen) in msg and variant in msg
    for flag in flags:
        assert flag in msg and flag in pos.problems, (msg, pos.problems)
    assert pos.warning == msg
    assert pos.fen() == board.fen()
    assert sorted(pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert variants.perft(variant, fen, 2, warn=False) == H.pc_perft(board, 2)
        assert Position.from_fen(fen, variant, warn=False).problems == pos.problems
        assert Position.from_fen(fen, variant, validate=False).problems == ()
    # strict: today's refusal, naming the flags
    for call in (lambda: Position.from_fen(fen, variant, strict=True),
                 lambda: variants.perft(variant, fen, 1, strict=True),
                 lambda: variants.divide(variant, fen, 1, strict=True)):
        with pytest.raises(ImpossiblePositionError) as info:
            call()
        for flag in flags:
            assert flag in str(info.value)


def test_valid_position_has_no_problems():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pos = Position.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", strict=True)
    assert pos.problems == () and pos.warning == ""
    assert Position.start("crazyhouse").problems == ()


def test_impossible_position_accepted_without_validation():
    """validate=False skips the status check but still writes python-chess's FEN."""
    fen = "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"
    assert Position.from_fen(fen, validate=False).fen() == chess.Board(fen).fen()


@pytest.mark.parametrize("name", ["shogi", "xiangqi", "seirawan", "", "chess960", "placement", None, 3])
def test_unknown_variant(name):
    for call in (lambda: Position.start(name),
                 lambda: Position.from_fen(None, name),
                 lambda: Position.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", name),
                 lambda: variants.perft(name, None, 1),
                 lambda: variants.divide(name, None, 1),
                 lambda: board_class(name),
                 lambda: variants.starting_fen(name),
                 lambda: variants.canonical_variant(name)):
        with pytest.raises(UnknownVariantError) as info:
            call()
        msg = str(info.value)
        assert repr(name) in msg and "chess, crazyhouse" in msg, msg


@pytest.mark.parametrize("alias,canonical", [("standard", "chess"), ("Chess", "chess"), ("ZH", "crazyhouse"),
                                             ("house", "crazyhouse"), ("anti", "antichess"), (" Atomic ", "atomic")])
def test_variant_aliases(alias, canonical):
    assert variants.canonical_variant(alias) == canonical
    assert Position.start(alias).fen() == board_class(canonical)().fen()


class _Bughouse(chess.variant.CrazyhouseBoard):
    """A board class tdleaf has no rules for (a subclass is not its parent's variant)."""


class _Losers(chess.Board):
    """Another."""


def test_unsupported_board_class():
    for board in (_Bughouse(), _Losers()):
        with pytest.raises(UnknownVariantError) as info:
            Position.from_board(board)
        assert type(board).__name__ in str(info.value)


ILLEGAL_MOVES = [
    ("chess", None, "e2e5"),
    ("chess", None, "e1g1"),
    ("chess", None, "N@f3"),           # drop outside crazyhouse
    ("chess", None, "0000"),           # null move
    ("chess", None, "e7e5"),           # the other side's move
    ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8"),   # promotion piece missing
    ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k"),  # king promotion outside suicide
    ("chess", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1d2"),  # into check (still attacked)
    ("crazyhouse", None, "N@f3"),      # empty pocket
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@e8"),  # pawn on the back rank
    ("crazyhouse", "4k3/8/8/8/4r3/8/8/4K3[N] w - - 0 1", "N@a3"),  # does not block the check
    ("suicide", "8/8/8/3p4/4P3/8/8/8 w - - 0 1", "e4e5"),          # capture is compulsory
    ("giveaway", "8/8/8/3p4/4P3/8/8/8 w - - 0 1", "e4e5"),
    ("antichess", None, "e1g1"),
    ("atomic", "8/8/8/8/8/5k2/6q1/K7 w - - 0 1", "a1b2"),          # king moving into check
    ("atomic", "8/8/8/8/8/3k4/3p4/3QK3 w - - 0 1", "e1d2"),        # kings cannot capture
    ("atomic", "4k3/8/8/8/8/8/3pp3/3RK3 w - - 0 1", "d1d2"),       # explodes own king
]

MALFORMED_MOVES = ["", "e2", "e2e", "e9e4", "i2i4", "xyz", "e2e4qq", "e7e8Q", "E2E4", "P@", "@e4",
                   "Z@e4", "e2-e4", "Nf3", None, 42]


@pytest.mark.parametrize("variant,fen,uci", ILLEGAL_MOVES)
def test_illegal_move(variant, fen, uci):
    board = board_class(variant)() if fen is None else board_class(variant)(fen)
    assert chess.Move.from_uci(uci) not in board.legal_moves  # python-chess agrees
    pos = Position.from_fen(fen, variant)
    before = pos.fen()
    with pytest.raises(IllegalMoveError) as info:
        pos.push_uci(uci)
    msg = str(info.value)
    assert "illegal" in msg and repr(uci) in msg and before in msg, msg
    assert pos.fen() == before and pos.move_stack == []  # nothing was played
    with pytest.raises(IllegalMoveError):
        pos.parse_uci(uci)


@pytest.mark.parametrize("uci", MALFORMED_MOVES)
@pytest.mark.parametrize("variant", ["chess", "crazyhouse"])
def test_malformed_move(variant, uci):
    pos = Position.start(variant)
    before = pos.fen()
    with pytest.raises(IllegalMoveError) as info:
        pos.push_uci(uci)
    msg = str(info.value)
    assert "malformed" in msg and repr(uci) in msg, msg
    assert pos.fen() == before and pos.move_stack == []


def test_king_takes_rook_castling_spelling_is_accepted():
    """python-chess also accepts e1h1 for O-O; the position must play it as e1g1."""
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    pos = Position.from_fen(fen)
    board = chess.Board(fen)
    pos.push_uci("e1h1")
    board.push_uci("e1h1")
    assert pos.fen() == board.fen() and pos.move_stack == ["e1g1"]


def test_bad_perft_depth():
    with pytest.raises(ValueError):
        variants.perft("chess", None, -1)
    with pytest.raises(ValueError):
        variants.divide("chess", None, 0)


def test_pop_without_history():
    with pytest.raises(IndexError):
        Position.start("chess").pop()
