"""A network's view of a position: input planes and the policy's move map, in numba.

The layout follows CrazyAra's multi-variant one (Czech's thesis, tables 4.1 and 4.2),
not its weights. Everything is seen from the side to move: the board is flipped for
Black (square ``s`` becomes ``s ^ 56``: ranks reversed, files kept), "ours" are the
side to move's pieces and "theirs" the other side's.

**Input**: :data:`N_PLANES` planes of 8 x 8 (``float32``, plane, rank, file), named by
:data:`PLANES`: our and their pieces (pawn to king), whether the position occurred once
and twice before, our and their pockets (count / 16, constant planes), our and their
promoted pieces (where pieces go to a pocket), the en passant square (where a pawn of ours can take), the colour of the side to move (1 for White:
horde and racing kings are not symmetric), the move number / 500, our and their
castling rights (king's and queen's side), the halfmove clock / 100, three-check's
remaining checks (one and two remaining, ours and theirs), and one plane per set of
rules (:data:`variants.rules.RULE_SETS`: suicide and giveaway apart, antichess with
giveaway), all ones for the position's rules.

**Policy**: :data:`POLICY_SIZE` = :data:`MOVE_PLANES` x 64 entries, entry ``plane * 64 +
square``: the move's origin square in the flipped view (its destination for a drop) and
its plane (:data:`MOVE_PLANE_NAMES`): 56 queen-like moves (8 directions x 1-7 squares;
castling is the king's move of two squares), 8 knight moves, 12 promotions (knight,
bishop, rook, queen x capture left, straight, capture right), 3 king promotions
(antichess and giveaway) and 5 drops (pawn to queen). Every legal move of a position
has its own index (``tests/test_encoding.py`` checks it against python-chess).

:data:`ENCODING_VERSION` stands in every data shard and network file that uses the
layout; :func:`check_version` refuses another.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import Position, core
from variants.errors import TdleafError
from variants.position import move_to_uci
from variants.rules import POCKETS, RULE_SETS

#: The layout's version: data, networks and manifests carry it; a change of any plane
#: or move plane is a new version.
ENCODING_VERSION = 1

_PIECES = ("pawn", "knight", "bishop", "rook", "queen", "king")
#: The input planes by name, in order.
PLANES: tuple[str, ...] = (
    *(f"our {p}s" for p in _PIECES), *(f"their {p}s" for p in _PIECES),
    "repeated once", "repeated twice",
    *(f"our {p}s in hand / 16" for p in _PIECES[:5]),
    *(f"their {p}s in hand / 16" for p in _PIECES[:5]),
    "our promoted pieces", "their promoted pieces", "en passant square",
    "White to move", "move number / 500",
    "our king's side castling", "our queen's side castling",
    "their king's side castling", "their queen's side castling",
    "halfmove clock / 100",
    "we have one check to give", "we have two checks to give",
    "they have one check to give", "they have two checks to give",
    *(f"rules {c}" for c in range(RULE_SETS)),
)
N_PLANES = len(PLANES)
P_OURS, P_THEIRS, P_REPEATED, P_POCKETS = 0, 6, 12, 14
P_PROMOTED, P_EP, P_COLOUR, P_MOVE_NUMBER, P_CASTLING, P_HALFMOVE = 24, 26, 27, 28, 29, 33
P_CHECKS, P_RULES = 34, 38
assert P_RULES + RULE_SETS == N_PLANES

#: The eight directions (rank step, file step) of the queen-like planes: N, NE, E, SE,
#: S, SW, W, NW in the side to move's view.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KNIGHT_STEPS = ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
_SIDES = ("capture left", "straight", "capture right")
#: The policy's move planes by name, in order.
MOVE_PLANE_NAMES: tuple[str, ...] = (
    *(f"{DIRECTION_NAMES[d]} {k}" for d in range(8) for k in range(1, 8)),
    *(f"knight {r:+d}{f:+d}" for r, f in KNIGHT_STEPS),
    *(f"promotion to {p}, {s}" for p in _PIECES[1:5] for s in _SIDES),
    *(f"promotion to king, {s}" for s in _SIDES),
    *(f"drop {p}" for p in _PIECES[:5]),
)
MOVE_PLANES = len(MOVE_PLANE_NAMES)
POLICY_SIZE = MOVE_PLANES * 64
M_KNIGHT, M_PROMOTION, M_KING_PROMOTION, M_DROP = 56, 64, 76, 79
assert M_DROP + 5 == MOVE_PLANES

# (rank step + 7) * 15 + (file step + 7) -> queen-like or knight plane, -1 elsewhere.
_STEP_PLANE = np.full(15 * 15, -1, dtype=np.int64)
for _d, (_dr, _df) in enumerate(DIRECTIONS):
    for _k in range(1, 8):
        _STEP_PLANE[(_dr * _k + 7) * 15 + _df * _k + 7] = _d * 7 + _k - 1
for _k, (_dr, _df) in enumerate(KNIGHT_STEPS):
    _STEP_PLANE[(_dr + 7) * 15 + _df + 7] = M_KNIGHT + _k



def _mirror_index() -> np.ndarray:
    """The policy index of each entry's move mirrored left to right (files a-h reversed):
    the square's file reversed, a step's file step negated (a promotion's capture left
    and right swapped), drops kept."""
    out = np.zeros(POLICY_SIZE, dtype=np.int64)
    for plane in range(MOVE_PLANES):
        if plane < M_KNIGHT:
            d, k = divmod(plane, 7)
            dr, df = DIRECTIONS[d]
            mirrored = DIRECTIONS.index((dr, -df)) * 7 + k
        elif plane < M_PROMOTION:
            dr, df = KNIGHT_STEPS[plane - M_KNIGHT]
            mirrored = M_KNIGHT + KNIGHT_STEPS.index((dr, -df))
        elif plane < M_DROP:
            base = M_PROMOTION if plane < M_KING_PROMOTION else M_KING_PROMOTION
            piece, side = divmod(plane - base, 3)
            mirrored = base + 3 * piece + 2 - side
        else:
            mirrored = plane
        for sq in range(64):
            out[plane * 64 + sq] = mirrored * 64 + (sq ^ 7)
    return out


#: A move's policy index in the position mirrored left to right (a symmetry of every
#: variant's rules once no castling right is left): training doubles its data with it.
MIRROR_INDEX = _mirror_index()


def mirrorable(x: np.ndarray) -> np.ndarray:
    """Which positions of a batch of planes ``(B, N_PLANES, 8, 8)`` mirror left to right
    into positions of the same rules: those without castling rights; their mirror is
    ``x[..., ::-1]`` with :data:`MIRROR_INDEX` for the moves."""
    return np.asarray(~x[:, P_CASTLING:P_CASTLING + 4, 0, 0].any(axis=1))


class EncodingError(TdleafError, ValueError):
    """Data or a network made with another encoding, or a move the position has not."""


def check_version(version: object, what: str) -> None:
    """Refuse ``what`` (a shard, a network file) made with another encoding version."""
    if version != ENCODING_VERSION:
        raise EncodingError(f"{what} uses encoding version {version!r}; this tdleaf reads "
                            f"version {ENCODING_VERSION} only (make it again)")


@njit(cache=True)
def _view(sq, turn):
    return sq ^ 56 if turn == 1 else sq


@njit(cache=True)
def _fill(out, p, value):
    for r in range(8):
        for f in range(8):
            out[p, r, f] = value


@njit(cache=True)
def _bits(out, p, b, turn):
    while b:
        sq = core.lsb(b)
        b &= b - np.uint64(1)
        v = _view(sq, turn)
        out[p, v >> 3, v & 7] = 1.0


@njit(cache=True)
def planes_into(bb, st, repetitions, out):
    """Write the :data:`N_PLANES` planes of the position ``(bb, st)`` into ``out``
    (``float32[N_PLANES, 8, 8]``); ``repetitions``: how often it occurred before."""
    out[:] = 0.0
    us = st[core.TURN]
    them = 1 - us
    for t in range(6):
        _bits(out, P_OURS + t, bb[t] & bb[core.OCC + us], us)
        _bits(out, P_THEIRS + t, bb[t] & bb[core.OCC + them], us)
    if repetitions >= 1:
        _fill(out, P_REPEATED, 1.0)
    if repetitions >= 2:
        _fill(out, P_REPEATED + 1, 1.0)
    for t in range(5):
        _fill(out, P_POCKETS + t, st[core.POCKET + 6 * us + t + 1] / 16.0)
        _fill(out, P_POCKETS + 5 + t, st[core.POCKET + 6 * them + t + 1] / 16.0)
    if POCKETS[st[core.VARIANT]]:      # a promoted piece matters only when it is captured
        _bits(out, P_PROMOTED, bb[core.PROMOTED] & bb[core.OCC + us], us)
        _bits(out, P_PROMOTED + 1, bb[core.PROMOTED] & bb[core.OCC + them], us)
    ep = core.ep_square(bb, st)
    if ep >= 0:
        v = _view(ep, us)
        out[P_EP, v >> 3, v & 7] = 1.0
    if us == 0:
        _fill(out, P_COLOUR, 1.0)
    _fill(out, P_MOVE_NUMBER, st[core.FULLMOVE] / 500.0)
    rooks = bb[core.CASTLING]
    for side in range(2):
        colour = us if side == 0 else them
        row = rooks & (np.uint64(0xFF) if colour == 0 else np.uint64(0xFF) << np.uint64(56))
        while row:
            sq = core.lsb(row)
            row &= row - np.uint64(1)
            # A rook on files e-h castles on the king's side (no chess960 here).
            _fill(out, P_CASTLING + 2 * side + (0 if (sq & 7) >= 4 else 1), 1.0)
    _fill(out, P_HALFMOVE, st[core.HALFMOVE] / 100.0)
    for side in range(2):
        left = st[core.CHECKS + (us if side == 0 else them)]
        if left == 1 or left == 2:
            _fill(out, P_CHECKS + 2 * side + left - 1, 1.0)
    _fill(out, P_RULES + st[core.VARIANT], 1.0)


@njit(cache=True)
def move_index(m, turn):
    """The policy index of the encoded move ``m`` played by ``turn`` (0 White, 1 Black)."""
    to = _view(core.m_to(m), turn)
    piece = core.m_piece(m)
    if core.m_flags(m) & core.F_DROP:
        return (M_DROP + piece - 1) * 64 + to
    frm = _view(core.m_from(m), turn)
    dr = (to >> 3) - (frm >> 3)
    df = (to & 7) - (frm & 7)
    if piece:
        if piece == core.KING:
            return (M_KING_PROMOTION + df + 1) * 64 + frm
        return (M_PROMOTION + 3 * (piece - core.KNIGHT) + df + 1) * 64 + frm
    return _STEP_PLANE[(dr + 7) * 15 + df + 7] * 64 + frm


@njit(cache=True)
def move_indices(moves, n, turn, out):
    """``out[i]`` = :func:`move_index` of ``moves[i]`` for the first ``n`` moves."""
    for i in range(n):
        out[i] = move_index(moves[i], turn)


@njit(cache=True)
def planes_batch(bbs, sts, reps, out):
    """:func:`planes_into` for each row of ``bbs``/``sts`` into ``out[i]``."""
    for i in range(bbs.shape[0]):
        planes_into(bbs[i], sts[i], reps[i], out[i])


@njit(cache=True)
def keys_batch(bbs, sts, out):
    """``out[i]``: the repetition key (:attr:`variants.Position.key`) of each row of
    ``bbs``/``sts``, e.g. to find stored positions again."""
    sbb = np.zeros(core.NBB, dtype=np.uint64)
    sst = np.zeros(core.NST, dtype=np.int64)
    for i in range(bbs.shape[0]):
        out[i] = core.position_key(bbs[i], sts[i], sbb, sst)


@njit(cache=True)
def legal_indices_batch(bbs, sts, moves, sbb, sst, out):
    """Generate each position's legal moves and their policy indices (``out[i, :n]``);
    returns the number of moves of each. ``moves``: scratch of ``core.MAX_MOVES``."""
    counts = np.zeros(bbs.shape[0], dtype=np.int64)
    for i in range(bbs.shape[0]):
        n = core.gen_legal(bbs[i], sts[i], moves, sbb, sst)
        move_indices(moves, n, sts[i][core.TURN], out[i])
        counts[i] = n
    return counts


@njit(cache=True)
def legal_moves_batch(bbs, sts, moves, sbb, sst):
    """Only the legal moves' generation of :func:`legal_indices_batch` (the benchmark's
    reference); returns the moves in all."""
    total = 0
    for i in range(bbs.shape[0]):
        total += core.gen_legal(bbs[i], sts[i], moves, sbb, sst)
    return total


# -- for people -------------------------------------------------------------------------------

def repetitions(pos: Position) -> int:
    """How often ``pos`` occurred before in its game (0, 1, or 2 and more)."""
    return min(2, pos.repetitions())


def planes(pos: Position) -> np.ndarray:
    """The input planes of ``pos``: ``float32[N_PLANES, 8, 8]``."""
    out = np.zeros((N_PLANES, 8, 8), dtype=np.float32)
    planes_into(pos.bb, pos.st, repetitions(pos), out)
    return out


def legal_indices(pos: Position) -> tuple[list[str], np.ndarray]:
    """The legal moves of ``pos`` (UCI) and their policy indices."""
    moves = pos.legal_move_codes()
    out = np.zeros(len(moves), dtype=np.int64)
    move_indices(moves, len(moves), int(pos.st[core.TURN]), out)
    return [move_to_uci(int(m)) for m in moves], out


def move_to_index(pos: Position, uci: str) -> int:
    """The policy index of the legal move ``uci`` of ``pos``."""
    moves, idx = legal_indices(pos)
    try:
        return int(idx[moves.index(uci)])
    except ValueError:
        raise EncodingError(f"{uci!r} is not a legal move of {pos.fen()}") from None


def index_to_move(pos: Position, index: int) -> str:
    """The legal move of ``pos`` (UCI) whose policy index is ``index``."""
    moves, idx = legal_indices(pos)
    hit = np.flatnonzero(idx == index)
    if not hit.size:
        raise EncodingError(f"no legal move of {pos.fen()} has policy index {index} "
                            f"({describe_index(index)})")
    return moves[int(hit[0])]


def describe_index(index: int) -> str:
    """``'N 2 from e1'``: a policy index's move plane and square, in the side to move's
    view."""
    if not 0 <= index < POLICY_SIZE:
        return f"outside 0..{POLICY_SIZE - 1}"
    plane, sq = divmod(int(index), 64)
    where = "on" if plane >= M_DROP else "from"
    return f"{MOVE_PLANE_NAMES[plane]} {where} {'abcdefgh'[sq & 7]}{sq // 8 + 1}"
