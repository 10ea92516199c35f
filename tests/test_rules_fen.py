"""FEN in and out, ``to_board()``, ``from_board()`` and ``Position.key`` against
python-chess.

``Position.from_fen(f, v).fen()`` must equal ``board_class(v)(f).fen()`` character for
character: X-FEN crazyhouse pockets (``[QNqp]`` and the lichess ``/QNqp`` form) and
promoted marks (``~``), en-passant squares that are or are not legal (python-chess only
writes legal ones), castling rights in Shredder/X-FEN spellings and rights that
python-chess cleans, missing or odd clock fields.
"""

from __future__ import annotations

import functools
import random

import chess
import chess.variant
import pytest

from variants import VARIANTS, ImpossiblePositionError, Position, board_class

import helpers_rules as H

# Extra FENs per variant (all valid for python-chess), on top of the perft positions.
EXTRA_FENS = {
    "chess": [
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",              # ep square, nobody can capture
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",             # ep legal
        "8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 w - c6 0 2",      # ep pinned along the rank
        "8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 b - e3 0 1",      # ep exposes the king (rook b4)
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",          # Shredder castling letters
        "r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1",
        "r3k2r/8/8/8/8/8/8/RR2K2R w KQkq - 0 1",          # two rooks on one side
        "r3k2r/8/8/8/8/8/8/RR2K2R w Ak - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K -",                    # clocks missing
        "4k3/8/8/8/8/8/8/4K2R w K - 0 0",                # fullmove 0 becomes 1
        "4k3/8/8/8/8/8/8/4K2R w K - 149 300",
        "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1",               # a promoted mark in a chess FEN
    ],
    "crazyhouse": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",           # no pocket
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",          # empty /pocket
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/QNqp w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[qpNQ] w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNqp] b KQkq - 3 4",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq -",
        "4k3/8/8/8/8/8/8/4K3[PPPPPPPPpppppppp] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[QQRRBBNNPPqqrrbbnnpp] w - - 0 1",
        "r2qk2r/pP~3ppp/8/8/8/8/3p4/R3K2R[NNbb] w KQkq - 0 1",
        "4k3/1Q~R~B~N~3/8/8/8/1q~r~b~n~3/8/4K3[Pp] b - - 7 30",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3",      # ep legal
        "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR[] w KQkq d6 0 2",      # ep not legal
        "r3k2r/8/8/8/8/8/8/R3K2R[] w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4K3[] w - - 160 100",            # clocks run, no 50-move rule
    ],
    "atomic": [
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2",
        "8/8/8/3k4/3Pp3/8/8/4K3 b - d3 0 1",
        "8/8/8/8/3kK3/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/6k1/R3K2R w KQ - 0 1",                # castle next to the enemy king
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K -",
    ],
    "anti": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - e6 0 2",
        "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w - d6 0 3",
        "8/8/8/8/8/8/8/B6b w - - 0 1",
        "K7/8/8/8/8/8/8/6kk w - - 0 1",
        "8/1P6/8/8/8/8/8/8 w - - 0 1",
        "4K~3/8/8/8/8/8/8/4k~3 w - - 0 1",                 # promoted kings (e7e8k)
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "8/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/R1K~1K2R w KQkq - 0 1",         # promoted king next to the real one
    ],
}

EXTRA_FENS.update({
    "kingofthehill": [
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "8/8/8/3K4/8/8/8/4k3 b - - 0 1",                 # on the hill: game over
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    ],
    "3check": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # no check field
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+1 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+2",  # lichess: given
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0+3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0+0 0 1",  # both done: draw
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5+7 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 1+1 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 3+3",                # clocks missing
    ],
    "racingkings": [
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        "7K/k7/8/8/8/8/8/8 b - - 0 1",
        "k6K/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -",
    ],
    "horde": [
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        "4k3/8/8/8/8/8/8/P7 w - - 0 1",
        "4k3/8/8/8/1pP5/8/8/8 b - c3 0 2",               # ep after a second-rank step
        "4k3/8/8/8/8/8/8/8 w - - 0 1",                   # the horde is gone
        "4k3/8/8/8/8/8/8/8 b - - 0 1",
    ],
})

#: FENs python-chess parses but calls invalid: from_fen(validate=False) must still write
#: them back exactly as python-chess does (castling rights cleaned, bad ep dropped).
UNVALIDATED_FENS = {
    "chess": [
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    ],
    "crazyhouse": [
        "4k3/8/8/8/8/8/8/4K3[Qq] w KQkq - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R[] w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3[] b - e3 0 1",
    ],
    "atomic": [
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Kk - 0 1",
    ],
    "kingofthehill": ["4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 b - e3 0 1"],
    "3check": ["4k3/8/8/8/8/8/8/4K3 w KQkq - 1+2 0 1", "4k3/8/8/8/8/8/8/4K3 b - e3 0+0 0 1"],
    "racingkings": ["8/8/8/8/8/8/k1r4K/8 w - - 0 1", "k6K/8/8/8/8/8/8/8 b - - 0 1",
                    "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w KQ - 0 1"],
    "horde": ["4k3/8/8/8/8/8/PPPPPPPP/p7 w KQkq - 0 1", "4k3/8/8/8/8/8/8/P7 b - e3 0 1"],
    "anti": [
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "8/8/8/8/8/8/8/R6R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1",
    ],
}


def family(variant: str) -> str:
    return "anti" if variant in H.ANTI else variant


@functools.cache
def corpus(variant: str) -> tuple[str, ...]:
    return tuple(H.perft_positions(variant)) + tuple(EXTRA_FENS[family(variant)])


def check_round_trip(variant: str, fen: str, validate: bool = True) -> None:
    board = board_class(variant)(fen)
    pos = Position.from_fen(fen, variant, validate=validate)
    assert pos.fen() == board.fen(), f"{variant} {fen!r}: fen() {pos.fen()!r} != {board.fen()!r}"
    assert pos.variant == variant
    rebuilt = pos.to_board()
    assert type(rebuilt) is type(board)
    assert rebuilt.fen() == board.fen()
    if validate:
        assert rebuilt == board, f"{variant} {fen!r}: to_board() != python-chess board"
        assert rebuilt._transposition_key() == board._transposition_key()
        assert not rebuilt.move_stack


@pytest.mark.parametrize("variant", VARIANTS)
def test_fen_round_trip(variant):
    fens = corpus(variant)
    assert len(fens) >= 100
    for fen in fens:
        check_round_trip(variant, fen)


@pytest.mark.parametrize("variant,fen", [(v, f) for v in VARIANTS for f in EXTRA_FENS[family(v)]])
def test_fen_round_trip_special_forms(variant, fen):
    assert board_class(variant)(fen).is_valid()
    check_round_trip(variant, fen)


@pytest.mark.parametrize("variant,fen", [(v, f) for v in VARIANTS for f in UNVALIDATED_FENS[family(v)]])
def test_fen_round_trip_unvalidated(variant, fen):
    """python-chess cleans castling rights and drops impossible ep squares when writing."""
    assert not board_class(variant)(fen).is_valid()
    check_round_trip(variant, fen, validate=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position(variant):
    board = board_class(variant)()
    assert Position.start(variant).fen() == board.fen()
    assert Position.from_fen(None, variant).fen() == board.fen()
    assert Position.from_board(board).fen() == board.fen()


def test_ep_field_written_only_when_legal():
    """The three ep cases side by side (legal / pseudo-legal but pinned / no capturer)."""
    cases = {
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1": "e3",
        "8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 w - c6 0 2": "-",
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1": "-",
    }
    for fen, ep in cases.items():
        assert chess.Board(fen).fen().split()[3] == ep
        assert Position.from_fen(fen).fen().split()[3] == ep


@pytest.mark.parametrize("variant", VARIANTS)
def test_from_board_keeps_current_position(variant):
    """from_board() of python-chess boards carrying a move stack (biased random play)."""
    rng = random.Random(f"from-board-{variant}")
    done = 0
    for i in range(30):
        board = board_class(variant)()
        H.walk(board, rng, rng.randint(1, 60), H.TACTICAL if i % 2 else H.UNIFORM)
        pos = Position.from_board(board)
        assert pos.variant == variant
        assert pos.fen() == board.fen()
        assert sorted(pos.legal_moves()) == H.pc_moves(board)
        assert pos.outcome() == board.copy(stack=False).outcome()
        # from_board keeps only the current position: to_board() has no history
        assert pos.to_board() == board.copy(stack=False)
        done += 1
    assert done == 30


def mutations(variant: str, fen: str) -> list[str]:
    """Variations of ``fen``: clocks (same key), turn, ep and castling fields, pockets and
    promoted marks (crazyhouse). Only those python-chess calls valid are kept."""
    fields = fen.split()
    checks = fields.pop(4) if variant == "3check" else None
    board_part, turn, castling, ep, half, full = fields
    out = [
        f"{board_part} {turn} {castling} {ep} 7 40",
        " ".join([board_part, "b" if turn == "w" else "w", castling, "-", half, full]),
        f"{board_part} {turn} {castling} - {half} {full}",
    ]
    if castling != "-":
        for i in range(len(castling)):
            out.append(" ".join([board_part, turn, castling[:i] + castling[i + 1:] or "-", ep, half, full]))
    if variant == "crazyhouse":
        squares, pocket = board_part[:-1].split("[")
        out.append(" ".join([f"{squares}[{pocket}N]", turn, castling, ep, half, full]))
        out.append(" ".join([f"{squares}[{pocket}p]", turn, castling, ep, half, full]))
        if "~" in squares:
            out.append(" ".join([f"{squares.replace('~', '', 1)}[{pocket}]", turn, castling, ep, half, full]))
        else:
            for sym in "QRBNqrbn":
                if sym in squares:
                    out.append(" ".join([f"{squares.replace(sym, sym + '~', 1)}[{pocket}]", turn,
                                         castling, ep, half, full]))
                    break
    if checks is not None:   # the remaining checks are part of the key
        w, b = checks.split("+")
        out = [" ".join([*f.split()[:4], checks, *f.split()[4:]]) for f in out]
        out.append(" ".join([board_part, turn, castling, ep, f"{w}+{max(int(b) - 1, 1)}", half, full]))
        out.append(" ".join([board_part, turn, castling, ep, f"{max(int(w) - 1, 1)}+{b}", half, full]))
    valid = []
    for f in out:
        try:
            if board_class(variant)(f).is_valid():
                valid.append(f)
        except ValueError:
            pass
    return valid


@pytest.mark.parametrize("variant", VARIANTS)
def test_key_equality_matches_transposition_key(variant):
    """Over the perft positions and their mutations, Position.key values are equal
    exactly when python-chess's _transposition_key() values are."""
    fens = []
    for fen in H.perft_positions(variant):
        fens.append(fen)
        fens.extend(mutations(variant, fen))
    tkey_to_key: dict = {}
    key_to_tkey: dict = {}
    equal_pairs = 0
    for fen in fens:
        tkey = board_class(variant)(fen)._transposition_key()
        key = Position.from_fen(fen, variant).key
        if tkey in tkey_to_key:
            equal_pairs += 1
        assert tkey_to_key.setdefault(tkey, key) == key, (
            f"{variant} {fen!r}: same python-chess transposition key as an earlier FEN, different Position.key")
        assert key_to_tkey.setdefault(key, tkey) == tkey, (
            f"{variant} {fen!r}: same Position.key as an earlier FEN, different python-chess transposition key")
    assert len(fens) >= 400
    assert equal_pairs >= 100  # clock-only and illegal-ep mutations must collide


def test_key_examples():
    """Hand-picked cases of the key definition (python-chess decides which are equal)."""
    pairs = [
        ("chess", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 5 9"),
        ("chess", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"),
        ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        ("crazyhouse", "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", "4k3/8/8/8/8/8/8/Q3K3[] w - - 0 1"),
        ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[nN] w - - 3 2"),
        ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1"),
        ("suicide", "4K~3/8/8/8/8/8/8/4k3 w - - 0 1", "4K3/8/8/8/8/8/8/4k3 w - - 0 1"),
        ("atomic", "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2",
         "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"),
    ]
    for variant, a, b in pairs:
        same = board_class(variant)(a)._transposition_key() == board_class(variant)(b)._transposition_key()
        assert (Position.from_fen(a, variant).key == Position.from_fen(b, variant).key) == same, (variant, a, b)


# --------------------------------------------------------------------------------------
# FEN corner cases where python-chess 1.11.2 has peculiar but valid behaviour
# --------------------------------------------------------------------------------------

EDGE_FENS = [
    # crazyhouse: a promoted (~) king is not "the king" for drops: python-chess lets the
    # side in check drop anywhere
    ("crazyhouse", "4k3/8/8/8/4r3/8/8/4K~3[Q] w - - 0 1"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K~3[Q] w - - 0 1"),
    # suicide: several kings, promoted kings, no kings
    ("suicide", "K7/8/8/8/8/8/8/6kk w - - 0 1"),
    ("giveaway", "4K~3/8/8/8/8/8/8/8 w - - 0 1"),
    ("antichess", "8/8/8/8/8/8/8/RK~2K2R w KQ - 0 1"),
    # atomic: kings touching, nothing else
    ("atomic", "8/8/8/8/3kK3/8/8/8 b - - 0 1"),
]


@pytest.mark.parametrize("variant,fen", EDGE_FENS)
def test_edge_fens(variant, fen):
    board = board_class(variant)(fen)
    assert board.is_valid()
    pos = Position.from_fen(fen, variant)
    problems = []
    if pos.fen() != board.fen():
        problems.append(f"fen() {pos.fen()!r} != python-chess {board.fen()!r}")
    ours, theirs = pos.legal_moves(), H.pc_moves(board)
    if sorted(ours) != theirs:
        problems.append(f"legal moves: only ours {sorted(set(ours) - set(theirs))[:8]}, only "
                        f"python-chess {sorted(set(theirs) - set(ours))[:8]} ({len(ours)} vs {len(theirs)})")
    if pos.outcome() != board.outcome():
        problems.append(f"outcome() {pos.outcome()} != python-chess {board.outcome()}")
    if pos.is_check() != board.is_check():
        problems.append(f"is_check() {pos.is_check()} != python-chess {board.is_check()}")
    assert not problems, f"{variant} {fen!r}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",
                                 "4k3/8/8/8/8/8/8/4K3[kq] b - - 0 1",
                                 "4k3/8/8/8/8/8/8/4K3[Kn] w - - 0 1"])
def test_pocket_king_is_rejected(fen):
    """python-chess calls a king in hand valid, lists K@ drops it then refuses to push,
    and counts the king as material: self-contradictory, so the package refuses it."""
    assert chess.variant.CrazyhouseBoard(fen).is_valid()
    with pytest.raises(ImpossiblePositionError, match="king in a pocket"):
        Position.from_fen(fen, "crazyhouse")
