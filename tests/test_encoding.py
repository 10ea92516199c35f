"""The network's encoding (search.mcts.encoding) against python-chess, on seeded random games
of every variant: every legal move has its own policy index, which maps back to it, and
the input planes are those a reference built from python-chess's board gives."""

from __future__ import annotations

import random

import chess
import chess.variant
import numpy as np
import pytest

from search.mcts import encoding as enc
from variants import Position
from variants.spec import VARIANTS
from variants.spec import get as spec

from helpers_rules import KINGPROMO, REPEAT, TACTICAL, UNIFORM, new_board, pick
from helpers_tiers import costly_in_full_tier, report_variants_in_fast_tier

GAMES = 3          # per variant and move preference
EVERY = (2, 6)     # plies between two sampled positions


def _view(sq: int, turn: bool) -> tuple[int, int]:
    """(rank, file) of a square in the side to move's view (flipped for Black)."""
    v = sq if turn == chess.WHITE else sq ^ 56
    return v >> 3, v & 7


def reference_planes(b: chess.Board, variant: str) -> np.ndarray:
    """The planes of the module's docstring, from python-chess's board alone."""
    out = np.zeros((enc.N_PLANES, 8, 8), dtype=np.float32)
    us, them = b.turn, not b.turn
    for k, colour in enumerate((us, them)):
        for t in range(1, 7):
            for sq in b.pieces(t, colour):
                out[(enc.P_OURS, enc.P_THEIRS)[k] + t - 1][_view(sq, us)] = 1
        if isinstance(b, chess.variant.CrazyhouseBoard):
            for t in range(1, 6):
                out[enc.P_POCKETS + 5 * k + t - 1] = b.pockets[colour].count(t) / 16.0
            for sq in chess.SquareSet(b.promoted & b.occupied_co[colour]):
                out[enc.P_PROMOTED + k][_view(sq, us)] = 1
        if b.has_kingside_castling_rights(colour):
            out[enc.P_CASTLING + 2 * k] = 1
        if b.has_queenside_castling_rights(colour):
            out[enc.P_CASTLING + 2 * k + 1] = 1
        if isinstance(b, chess.variant.ThreeCheckBoard) and b.remaining_checks[colour] in (1, 2):
            out[enc.P_CHECKS + 2 * k + b.remaining_checks[colour] - 1] = 1
    if b.is_repetition(2):
        out[enc.P_REPEATED] = 1
    if b.is_repetition(3):
        out[enc.P_REPEATED + 1] = 1
    if b.ep_square is not None and b.has_pseudo_legal_en_passant():
        out[enc.P_EP][_view(b.ep_square, us)] = 1
    out[enc.P_COLOUR] = float(us == chess.WHITE)
    out[enc.P_MOVE_NUMBER] = b.fullmove_number / 500.0
    out[enc.P_HALFMOVE] = b.halfmove_clock / 100.0
    out[enc.P_RULES + spec(variant).code] = 1
    return out


#: A line that ends with an en passant capture to play, where the variant allows it.
EP_LINE = ("e2e4", "h7h6", "e4e5", "d7d5")


def _games(variant: str):
    """(python-chess board, Position) pairs along seeded random games, the Position
    made by playing the same moves (so that it knows its repetitions), and at the end of
    :data:`EP_LINE`."""
    b, pos = new_board(variant), Position.start(variant)
    for uci in EP_LINE:
        if chess.Move.from_uci(uci) not in b.legal_moves:
            break
        b.push_uci(uci)
        pos.push_uci(uci)
    else:
        yield b, pos
    for prefs in (UNIFORM, TACTICAL, REPEAT, KINGPROMO):
        for g in range(GAMES):
            rng = random.Random(f"{variant}-{g}-{len(prefs)}")
            b, pos = new_board(variant), Position.start(variant)
            gap = rng.randint(*EVERY)
            for ply in range(160):
                if b.is_game_over():
                    break
                if ply % gap == 0 or b.has_pseudo_legal_en_passant():
                    yield b, pos
                    gap = rng.randint(*EVERY)
                m = pick(b, rng, prefs)
                b.push(m)
                pos.push_uci(m.uci())


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse", "chess", "racingkings")))
def test_every_legal_move_has_its_own_index_which_maps_back(variant):
    seen = 0
    for b, pos in _games(variant):
        moves, idx = enc.legal_indices(pos)
        assert sorted(moves) == sorted(m.uci() for m in b.legal_moves), b.fen()
        assert len(set(idx.tolist())) == len(idx), (b.fen(), moves, idx)
        assert ((idx >= 0) & (idx < enc.POLICY_SIZE)).all()
        for uci, i in zip(moves, idx):
            assert enc.index_to_move(pos, int(i)) == uci
            assert enc.move_to_index(pos, uci) == i
        seen += len(moves)
    assert seen > 200


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_the_planes_reproduce_the_position(variant):
    found = np.zeros(enc.N_PLANES, dtype=bool)
    for b, pos in _games(variant):
        got = enc.planes(pos)
        want = reference_planes(b, variant)
        bad = [enc.PLANES[p] for p in range(enc.N_PLANES) if not np.array_equal(got[p], want[p])]
        assert not bad, (b.fen(), bad)
        found |= got.reshape(enc.N_PLANES, -1).any(axis=1)
    # The games reached what the variant has: pieces of both sides, castling where it
    # starts with rights, a repeated position, its rules' plane.
    wanted = ["our kings" if variant == "racingkings" else "our pawns", "their rooks",
              "repeated once", "move number / 500", f"rules {spec(variant).code}"]
    if new_board(variant).castling_rights:
        wanted.append("our king's side castling")
    if variant != "racingkings":
        wanted.append("en passant square")
    if isinstance(new_board(variant), chess.variant.ThreeCheckBoard):
        wanted += ["we have two checks to give", "they have one check to give"]
    for name in wanted:
        assert found[enc.PLANES.index(name)], (variant, name)
    if spec(variant).pockets:
        assert found[enc.P_POCKETS:enc.P_POCKETS + 10].any() and found[enc.P_PROMOTED]


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_the_mirror_left_to_right_is_the_mirrored_position(variant):
    """Without castling rights, the position mirrored left to right (python-chess's
    flip_horizontal) has the planes mirrored, and each legal move's mirror has the
    index MIRROR_INDEX gives; a batch knows which positions mirror."""
    seen = 0
    for b, pos in _games(variant):
        x = enc.planes(pos)
        assert enc.mirrorable(x[None])[0] == (not b.castling_rights), b.fen()
        if b.castling_rights:
            continue
        mb = b.transform(chess.flip_horizontal)
        mpos = Position.from_board(mb, variant)
        rep = slice(enc.P_REPEATED, enc.P_REPEATED + 2)      # the copy has no history
        got, want = enc.planes(mpos), x[:, :, ::-1]
        got[rep], want[rep] = 0, 0
        assert np.array_equal(got, want), b.fen()
        moves, idx = enc.legal_indices(pos)
        mmoves, midx = enc.legal_indices(mpos)
        mirrored = {m: i for m, i in zip(mmoves, midx.tolist())}
        for uci, i in zip(moves, idx.tolist()):
            m = chess.Move.from_uci(uci)
            flip = chess.Move(m.from_square ^ 7, m.to_square ^ 7, m.promotion, m.drop)
            assert enc.MIRROR_INDEX[i] == mirrored[flip.uci()], (b.fen(), uci)
        seen += len(moves)
    assert seen > 100


def test_black_sees_the_board_as_white_does():
    """The mirrored position from the other side: the same planes but the colour plane,
    the same index for the mirrored move."""
    w = Position.from_fen("r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 12", "chess")
    b = Position.from_fen("r3k2r/ppp2ppp/8/8/3Pp3/8/PPP2PPP/R3K2R b KQkq d3 0 12", "chess")
    pw, pb = enc.planes(w), enc.planes(b)
    differ = [enc.PLANES[p] for p in range(enc.N_PLANES) if not np.array_equal(pw[p], pb[p])]
    assert differ == ["White to move"]
    for mw, mb in (("e5d6", "e4d3"), ("e1g1", "e8g8"), ("e1c1", "e8c8"), ("a2a4", "a7a5")):
        assert enc.move_to_index(w, mw) == enc.move_to_index(b, mb)
    assert enc.describe_index(enc.move_to_index(w, "e1g1")) == "E 2 from e1"


def test_drops_promotions_and_bad_input():
    zh = Position.from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R[Nq] w KQkq - 0 20", "crazyhouse")
    assert enc.describe_index(enc.move_to_index(zh, "N@e4")) == "drop knight on e4"
    assert enc.describe_index(enc.move_to_index(zh, "b7a8q")) == \
        "promotion to queen, capture left from b7"
    assert enc.describe_index(enc.move_to_index(zh, "b7b8n")) == \
        "promotion to knight, straight from b7"
    anti = Position.from_fen("8/1P6/8/8/8/8/8/4k3 w - - 0 30", "antichess")
    assert enc.describe_index(enc.move_to_index(anti, "b7b8k")) == \
        "promotion to king, straight from b7"
    with pytest.raises(enc.EncodingError, match="not a legal move"):
        enc.move_to_index(zh, "e2e4")
    with pytest.raises(enc.EncodingError, match="no legal move"):
        enc.index_to_move(zh, (enc.M_DROP + 1) * 64 + 4)     # a knight dropped on our king
    with pytest.raises(enc.EncodingError, match="encoding version 0"):
        enc.check_version(0, "shard-0001.npz")
    enc.check_version(enc.ENCODING_VERSION, "a network")
    assert enc.describe_index(enc.POLICY_SIZE) == f"outside 0..{enc.POLICY_SIZE - 1}"


def test_the_layout_is_documented():
    """docs/network.md lists every input plane and every move plane by name."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "network.md").read_text()
    assert all(f"| {i} | {name} |" in text for i, name in enumerate(enc.PLANES))
    assert all(name in text for name in ("N 1", "NW 7", "knight +2+1", "drop queen",
                                         "promotion to king, capture right"))


def test_the_encoding_benchmark(capsys):
    from tdleaf.cli import main
    assert main(["bench", "encoding", "--variant", "atomic", "horde", "--rounds", "1",
                 "--json"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["variant"] for r in rows] == ["atomic", "horde"]
    for r in rows:
        assert r["positions"] == {"atomic": 2000, "horde": 400}[r["variant"]]
        assert all(v > 0 for v in r["positions_per_s"].values())
    assert main(["bench", "encoding", "--variant", "antichess"]) == 2
