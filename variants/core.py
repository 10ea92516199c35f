"""The rules in numba: position arrays, move generation, make, hashing, outcomes, perft.

A position is two flat arrays, so that a search can keep one row per ply and copy-make:

* ``bb`` (``uint64[NBB]``): bitboards by piece type (``bb[t - 1]`` for t = 1..6, pawn
  to king, both colours), colour occupancy ``bb[OCC + c]`` (0 = white, 1 = black), the
  promoted-piece mask, castling rights as a mask of rook squares (python-chess's
  convention) and the Zobrist hash.
* ``st`` (``int64[NST]``): a mailbox of piece types (0 = empty), side to move, en
  passant square, clocks, pockets and the variant code.

One generator serves every variant; the variant code switches drops, compulsory
captures, king promotion, explosions and the outcome rules. Each rule mirrors
python-chess 1.11 (``chess.Board`` and ``chess.variant``), including its corner cases,
because python-chess is the oracle the tests compare against.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (BB_BACKRANKS, BB_DARK, BB_LIGHT, BB_RANK_1, BB_RANK_8, BETWEEN, EMPTY,
                   KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS, bishop_attacks, lsb, msb,
                   popcount, rook_attacks)
from .nrt import unmanaged

# Variant codes. Antichess plays by the giveaway rules (it differs only in its start).
CHESS, CRAZYHOUSE, SUICIDE, GIVEAWAY, ATOMIC = 0, 1, 2, 3, 4

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1

# bb layout
OCC = 6          # bb[OCC + colour]
PROMOTED = 8
CASTLING = 9
HASH = 10
NBB = 12

# st layout
TURN = 64
EP = 65
HALFMOVE = 66
FULLMOVE = 67
POCKET = 68      # st[POCKET + 6 * colour + type], type 1..5
VARIANT = 80
NST = 82

# Move encoding: from | to << 6 | piece << 12 | flags << 16. ``piece`` is the promotion
# type, or the dropped type for drops (then from == to).
F_DROP, F_CASTLE, F_EP = 1, 2, 4
# Set by gen_legal(..., lazy=True) on moves whose legality is left to the caller, who
# plays them anyway and then asks child_is_legal (atomic captures, king moves, ...).
F_UNCHECKED = 8
MAX_MOVES = 1024

# Outcome codes (mapped onto chess.Termination by the Python layer).
T_NONE, T_CHECKMATE, T_STALEMATE, T_INSUFFICIENT, T_SEVENTYFIVE = 0, 1, 2, 3, 4
T_FIVEFOLD, T_FIFTY, T_THREEFOLD = 5, 6, 7
T_VARIANT_WIN, T_VARIANT_LOSS, T_VARIANT_DRAW = 8, 9, 10

SQ = np.array([1 << s for s in range(64)], dtype=np.uint64)
_NOT_BACKRANKS = ~BB_BACKRANKS

# Zobrist keys, fixed seed so that hashes are stable across runs and machines.
_rng = np.random.default_rng(20080707)
Z_PIECE = _rng.integers(0, 2**63, size=(2, 7, 64), dtype=np.uint64) << np.uint64(1) | _rng.integers(0, 2, size=(2, 7, 64), dtype=np.uint64)
Z_SIDE = np.uint64(_rng.integers(0, 2**63, dtype=np.uint64)) << np.uint64(1)
Z_CASTLE = _rng.integers(0, 2**63, size=64, dtype=np.uint64) << np.uint64(1)
Z_EP = _rng.integers(0, 2**63, size=8, dtype=np.uint64) << np.uint64(1)
Z_POCKET = _rng.integers(0, 2**63, size=(2, 7, 65), dtype=np.uint64) << np.uint64(1)
Z_POCKET[:, :, 0] = 0
Z_PROMO = _rng.integers(0, 2**63, size=64, dtype=np.uint64) << np.uint64(1)


@njit(cache=True)
def encode(frm, to, piece, flags):
    return np.int64(frm | (to << 6) | (piece << 12) | (flags << 16))


@njit(cache=True)
def m_from(m):
    return m & 63


@njit(cache=True)
def m_to(m):
    return (m >> 6) & 63


@njit(cache=True)
def m_piece(m):
    return (m >> 12) & 7


@njit(cache=True)
def m_flags(m):
    return m >> 16


# ---------------------------------------------------------------------------------------
# Board editing (keeps bitboards, mailbox, promoted mask and hash in step)
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def put_piece(bb, st, sq, t, c, promoted):
    b = SQ[sq]
    bb[t - 1] |= b
    bb[OCC + c] |= b
    st[sq] = t
    h = Z_PIECE[c, t, sq]
    if promoted:
        bb[PROMOTED] |= b
        if st[VARIANT] == CRAZYHOUSE:
            h ^= Z_PROMO[sq]
    bb[HASH] ^= h


@njit(cache=True)
def remove_piece(bb, st, sq):
    """Remove whatever stands on ``sq``; returns its type (0 when empty)."""
    t = st[sq]
    if t == 0:
        return 0
    b = SQ[sq]
    c = WHITE if bb[OCC] & b else BLACK
    bb[t - 1] ^= b
    bb[OCC + c] ^= b
    st[sq] = 0
    h = Z_PIECE[c, t, sq]
    if bb[PROMOTED] & b:
        bb[PROMOTED] ^= b
        if st[VARIANT] == CRAZYHOUSE:
            h ^= Z_PROMO[sq]
    bb[HASH] ^= h
    return t


@njit(cache=True)
def set_pocket(bb, st, c, t, count):
    idx = POCKET + 6 * c + t
    bb[HASH] ^= Z_POCKET[c, t, st[idx]] ^ Z_POCKET[c, t, count]
    st[idx] = count


@njit(cache=True)
def set_castling(bb, rights):
    changed = bb[CASTLING] ^ rights
    while changed:
        s = lsb(changed)
        bb[HASH] ^= Z_CASTLE[s]
        changed &= changed - np.uint64(1)
    bb[CASTLING] = rights


@njit(cache=True)
def compute_hash(bb, st):
    """Zobrist hash from scratch (the incremental one must always equal it)."""
    h = np.uint64(0)
    zh = st[VARIANT] == CRAZYHOUSE
    for sq in range(64):
        t = st[sq]
        if t:
            c = WHITE if bb[OCC] & SQ[sq] else BLACK
            h ^= Z_PIECE[c, t, sq]
            if zh and bb[PROMOTED] & SQ[sq]:
                h ^= Z_PROMO[sq]
    r = bb[CASTLING]
    while r:
        h ^= Z_CASTLE[lsb(r)]
        r &= r - np.uint64(1)
    for c in range(2):
        for t in range(1, 6):
            h ^= Z_POCKET[c, t, st[POCKET + 6 * c + t]]
    if st[TURN] == BLACK:
        h ^= Z_SIDE
    return h


# ---------------------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def attackers(bb, color, sq, occ):
    """Pieces of ``color`` attacking ``sq``, sliders blocked by ``occ``."""
    a = (KNIGHT_ATTACKS[sq] & bb[KNIGHT - 1]) | (KING_ATTACKS[sq] & bb[KING - 1])
    a |= PAWN_ATTACKS[1 - color, sq] & bb[PAWN - 1]
    a |= rook_attacks(sq, occ) & (bb[ROOK - 1] | bb[QUEEN - 1])
    a |= bishop_attacks(sq, occ) & (bb[BISHOP - 1] | bb[QUEEN - 1])
    return a & bb[OCC + color]


@njit(cache=True)
def piece_attacks(t, sq, occ):
    if t == KNIGHT:
        return KNIGHT_ATTACKS[sq]
    if t == BISHOP:
        return bishop_attacks(sq, occ)
    if t == ROOK:
        return rook_attacks(sq, occ)
    if t == QUEEN:
        return rook_attacks(sq, occ) | bishop_attacks(sq, occ)
    return KING_ATTACKS[sq]


@njit(cache=True)
def king_square(bb, c):
    """python-chess ``king()``: the highest non-promoted king of ``c``, or -1."""
    k = bb[KING - 1] & bb[OCC + c] & ~bb[PROMOTED]
    return msb(k) if k else -1


@njit(cache=True)
def kings_connected(bb):
    wk = bb[KING - 1] & bb[OCC]
    bk = bb[KING - 1] & bb[OCC + 1]
    while wk:
        if KING_ATTACKS[lsb(wk)] & bk:
            return True
        wk &= wk - np.uint64(1)
    return False


@njit(cache=True)
def is_variant_end(bb, st):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return bb[OCC] == 0 or bb[OCC + 1] == 0
    if v == ATOMIC:
        k = bb[KING - 1]
        return (k & bb[OCC]) == 0 or (k & bb[OCC + 1]) == 0
    return False


@njit(cache=True)
def checkers_mask(bb, st):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return EMPTY
    if v == ATOMIC and kings_connected(bb):
        return EMPTY
    us = st[TURN]
    k = king_square(bb, us)
    if k < 0:
        return EMPTY
    return attackers(bb, 1 - us, k, bb[OCC] | bb[OCC + 1])


@njit(cache=True)
def _attacked_for_king(bb, st, path, occ):
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return False
    them = 1 - st[TURN]
    if v == ATOMIC:
        # Squares next to the enemy king are safe: it cannot capture there.
        ek = bb[KING - 1] & bb[OCC + them]
        while ek:
            path &= ~KING_ATTACKS[lsb(ek)]
            ek &= ek - np.uint64(1)
    while path:
        if attackers(bb, them, lsb(path), occ):
            return True
        path &= path - np.uint64(1)
    return False


# ---------------------------------------------------------------------------------------
# Pseudo-legal generation
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _add_pawn_move(moves, n, frm, to, king_promo):
    if to >= 56 or to < 8:
        if king_promo:
            moves[n] = encode(frm, to, KING, 0)
            n += 1
        for p in range(QUEEN, PAWN, -1):
            moves[n] = encode(frm, to, p, 0)
            n += 1
    else:
        moves[n] = encode(frm, to, 0, 0)
        n += 1
    return n


@njit(cache=True)
def gen_castling(bb, st, moves, n, to_mask):
    if is_variant_end(bb, st):
        return n
    us = st[TURN]
    backrank = BB_RANK_1 if us == WHITE else BB_RANK_8
    kb = bb[OCC + us] & bb[KING - 1] & ~bb[PROMOTED] & backrank
    if not kb:
        return n
    king = lsb(kb)
    kb = SQ[king]
    occ = bb[OCC] | bb[OCC + 1]
    base = 0 if us == WHITE else 56
    cands = bb[CASTLING] & backrank & to_mask
    while cands:
        rook = lsb(cands)
        cands &= cands - np.uint64(1)
        rb = SQ[rook]
        a_side = rook < king
        king_to = base + (2 if a_side else 6)
        rook_to = base + (3 if a_side else 5)
        king_path = BETWEEN[king, king_to]
        rook_path = BETWEEN[rook, rook_to]
        if (occ ^ kb ^ rb) & (king_path | rook_path | SQ[king_to] | SQ[rook_to]):
            continue
        if _attacked_for_king(bb, st, king_path | kb, occ ^ kb):
            continue
        if _attacked_for_king(bb, st, SQ[king_to], occ ^ kb ^ rb ^ SQ[rook_to]):
            continue
        moves[n] = encode(king, king_to, 0, F_CASTLE)
        n += 1
    return n


@njit(cache=True)
def _ep_capturers(bb, st):
    """Our pawns that can capture en passant (pseudo-legally)."""
    ep = st[EP]
    if ep <= 0 or SQ[ep] & (bb[OCC] | bb[OCC + 1]):
        return EMPTY
    us = st[TURN]
    rank = BB_RANK_1 << np.uint64(32 if us == WHITE else 24)
    return bb[PAWN - 1] & bb[OCC + us] & PAWN_ATTACKS[1 - us, ep] & rank


@njit(cache=True)
def gen_ep(bb, st, moves, n, from_mask):
    ep = st[EP]
    caps = _ep_capturers(bb, st) & from_mask
    while caps:
        moves[n] = encode(lsb(caps), ep, 0, F_EP)
        n += 1
        caps &= caps - np.uint64(1)
    return n


@njit(cache=True)
def gen_pseudo(bb, st, moves, n, from_mask, to_mask, castling, ep, king_promo):
    """python-chess ``generate_pseudo_legal_moves`` (+ king promotions when asked)."""
    us = st[TURN]
    ours = bb[OCC + us]
    occ = bb[OCC] | bb[OCC + 1]
    pieces = ours & ~bb[PAWN - 1] & from_mask
    while pieces:
        frm = lsb(pieces)
        pieces &= pieces - np.uint64(1)
        targets = piece_attacks(st[frm], frm, occ) & ~ours & to_mask
        while targets:
            moves[n] = encode(frm, lsb(targets), 0, 0)
            n += 1
            targets &= targets - np.uint64(1)
    if castling and from_mask & bb[KING - 1]:
        n = gen_castling(bb, st, moves, n, to_mask)
    pawns = bb[PAWN - 1] & ours & from_mask
    if not pawns:
        return n
    theirs = bb[OCC + 1 - us]
    p = pawns
    while p:
        frm = lsb(p)
        p &= p - np.uint64(1)
        targets = PAWN_ATTACKS[us, frm] & theirs & to_mask
        while targets:
            n = _add_pawn_move(moves, n, frm, lsb(targets), king_promo)
            targets &= targets - np.uint64(1)
    if us == WHITE:
        single = (pawns << np.uint64(8)) & ~occ
        double = (single << np.uint64(8)) & ~occ & np.uint64(0xFF000000)
        delta = 8
    else:
        single = (pawns >> np.uint64(8)) & ~occ
        double = (single >> np.uint64(8)) & ~occ & np.uint64(0xFF00000000)
        delta = -8
    single &= to_mask
    double &= to_mask
    while single:
        to = lsb(single)
        single &= single - np.uint64(1)
        n = _add_pawn_move(moves, n, to - delta, to, king_promo)
    while double:
        to = lsb(double)
        double &= double - np.uint64(1)
        moves[n] = encode(to - 2 * delta, to, 0, 0)
        n += 1
    if ep and st[EP] > 0 and SQ[st[EP]] & to_mask:
        n = gen_ep(bb, st, moves, n, from_mask)
    return n


@njit(cache=True)
def gen_drops(bb, st, moves, n, mask):
    us = st[TURN]
    mask &= ~(bb[OCC] | bb[OCC + 1])
    for t in range(PAWN, KING):
        if st[POCKET + 6 * us + t] > 0:
            m = mask & _NOT_BACKRANKS if t == PAWN else mask
            while m:
                s = lsb(m)
                moves[n] = encode(s, s, t, F_DROP)
                n += 1
                m &= m - np.uint64(1)
    return n


# ---------------------------------------------------------------------------------------
# Make
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def apply_move(bb, st, m):
    """Play a (pseudo-)legal move in place, exactly as python-chess ``push`` does."""
    us = st[TURN]
    v = st[VARIANT]
    ep_old = st[EP]
    st[EP] = -1
    st[HALFMOVE] += 1
    if us == BLACK:
        st[FULLMOVE] += 1
    frm = m_from(m)
    to = m_to(m)
    piece = m_piece(m)
    flags = m_flags(m)

    if flags & F_DROP:
        put_piece(bb, st, to, piece, us, False)
        set_pocket(bb, st, us, piece, st[POCKET + 6 * us + piece] - 1)
        st[TURN] = 1 - us
        bb[HASH] ^= Z_SIDE
        return

    from_bb = SQ[frm]
    to_bb = SQ[to]
    them = 1 - us
    touched = from_bb | to_bb
    if touched & bb[PAWN - 1] or touched & bb[OCC + them]:
        st[HALFMOVE] = 0

    promoted = (bb[PROMOTED] & from_bb) != 0
    pt = remove_piece(bb, st, frm)
    capture_sq = to
    captured = st[to]
    rights = bb[CASTLING]
    if flags & F_CASTLE:
        # python-chess moves the king onto its rook internally: clear that right too.
        rook_sq = (frm & 56) + (0 if to < frm else 7)
        rights &= ~SQ[rook_sq] & ~from_bb
    else:
        rights &= ~to_bb & ~from_bb
    if pt == KING and not promoted:
        rights &= ~(BB_RANK_1 if us == WHITE else BB_RANK_8)
    elif captured == KING and not (bb[PROMOTED] & to_bb):
        if us == WHITE and to >= 56:
            rights &= ~BB_RANK_8
        elif us == BLACK and to < 8:
            rights &= ~BB_RANK_1

    if pt == PAWN:
        diff = to - frm
        if diff == 16 and (frm >> 3) == 1:
            st[EP] = frm + 8
        elif diff == -16 and (frm >> 3) == 6:
            st[EP] = frm - 8
        elif to == ep_old and (diff == 7 or diff == 9 or diff == -7 or diff == -9) and captured == 0:
            capture_sq = ep_old - 8 if us == WHITE else ep_old + 8
            captured = remove_piece(bb, st, capture_sq)

    if piece:
        promoted = True
        pt = piece

    if flags & F_CASTLE:
        rook_sq = (frm & 56) + (0 if to < frm else 7)
        remove_piece(bb, st, rook_sq)
        a_side = to < frm
        put_piece(bb, st, to, KING, us, False)
        put_piece(bb, st, (frm & 56) + (3 if a_side else 5), ROOK, us, False)
    else:
        was_promoted = (bb[PROMOTED] & to_bb) != 0
        if st[to]:
            remove_piece(bb, st, to)
        put_piece(bb, st, to, pt, us, promoted)
        if captured:
            if v == CRAZYHOUSE:
                t = PAWN if was_promoted else captured
                set_pocket(bb, st, us, t, st[POCKET + 6 * us + t] + 1)
            elif v == ATOMIC:
                radius = KING_ATTACKS[to] & ~bb[PAWN - 1]
                rights &= ~radius
                unpromoted_kings = radius & bb[KING - 1] & ~bb[PROMOTED]
                if unpromoted_kings & bb[OCC]:
                    rights &= ~BB_RANK_1
                if unpromoted_kings & bb[OCC + 1]:
                    rights &= ~BB_RANK_8
                remove_piece(bb, st, to)
                radius &= bb[OCC] | bb[OCC + 1]
                while radius:
                    remove_piece(bb, st, lsb(radius))
                    radius &= radius - np.uint64(1)

    set_castling(bb, rights)
    st[TURN] = them
    bb[HASH] ^= Z_SIDE


@njit(cache=True)
def copy_make(bb, st, nbb, nst, m):
    nbb[:] = bb
    nst[:] = st
    apply_move(nbb, nst, m)


# ---------------------------------------------------------------------------------------
# Legal generation
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _slider_blockers(bb, king, us):
    them = 1 - us
    occ = bb[OCC] | bb[OCC + 1]
    rq = bb[ROOK - 1] | bb[QUEEN - 1]
    bq = bb[BISHOP - 1] | bb[QUEEN - 1]
    snipers = ((rook_attacks(king, EMPTY) & rq) | (bishop_attacks(king, EMPTY) & bq)) & bb[OCC + them]
    blockers = EMPTY
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - np.uint64(1)
        b = BETWEEN[king, s] & occ
        if b and not (b & (b - np.uint64(1))):
            blockers |= b
    return blockers & bb[OCC + us]


@njit(cache=True)
def _standard_ep_legal(bb, st, m, sbb, sst):
    copy_make(bb, st, sbb, sst, m)
    us = st[TURN]
    k = king_square(sbb, us)
    return k < 0 or not attackers(sbb, 1 - us, k, sbb[OCC] | sbb[OCC + 1])


@njit(cache=True)
def _atomic_legal(bb, st, m, sbb, sst):
    """python-chess AtomicBoard.is_legal on a pseudo-legal move (push and look)."""
    copy_make(bb, st, sbb, sst, m)
    return child_is_legal(sbb, st[TURN])


@njit(cache=True)
def child_is_legal(sbb, us):
    """Whether the atomic position ``sbb``, just reached by a pseudo-legal move of
    ``us``, is legal (python-chess AtomicBoard.is_legal, after the push)."""
    kings = sbb[KING - 1]
    if not kings:
        return False
    if not kings & sbb[OCC + us]:
        return False
    if not kings & sbb[OCC + 1 - us]:
        return True
    if kings_connected(sbb):
        return True
    k = king_square(sbb, us)
    return k < 0 or not attackers(sbb, 1 - us, k, sbb[OCC] | sbb[OCC + 1])


@njit(cache=True)
def _gen_legal_standard(bb, st, moves, sbb, sst, tactical):
    """Legal moves of chess and crazyhouse. With ``tactical`` and not in check, only
    moves that may capture or promote are generated (no castling, no drops)."""
    us = st[TURN]
    them = 1 - us
    occ = bb[OCC] | bb[OCC + 1]
    zh = st[VARIANT] == CRAZYHOUSE
    kmask = bb[KING - 1] & bb[OCC + us]
    if not kmask:
        n = gen_pseudo(bb, st, moves, 0, ~EMPTY, ~EMPTY, True, True, False)
        if zh:
            n = gen_drops(bb, st, moves, n, ~EMPTY)
        return n
    king = msb(kmask)
    kb = SQ[king]
    checkers = attackers(bb, them, king, occ)
    pinned = _slider_blockers(bb, king, us)
    n = 0
    if not checkers:
        to_mask = (bb[OCC + them] | BB_BACKRANKS) if tactical else ~EMPTY
        raw = gen_pseudo(bb, st, moves, 0, ~EMPTY, to_mask, not tactical, False, False)
        for i in range(raw):
            m = moves[i]
            frm = m_from(m)
            to = m_to(m)
            if frm == king:
                if not (m_flags(m) & F_CASTLE) and attackers(bb, them, to, occ ^ kb):
                    continue
            elif pinned & SQ[frm] and not (LINE[king, frm] & SQ[to]):
                continue
            moves[n] = m
            n += 1
        drop_mask = ~EMPTY
    else:
        targets = KING_ATTACKS[king] & ~bb[OCC + us]
        while targets:
            to = lsb(targets)
            targets &= targets - np.uint64(1)
            if not attackers(bb, them, to, occ ^ kb):
                moves[n] = encode(king, to, 0, 0)
                n += 1
        drop_mask = EMPTY
        if not (checkers & (checkers - np.uint64(1))):
            checker = lsb(checkers)
            drop_mask = BETWEEN[king, checker]
            start = n
            n = gen_pseudo(bb, st, moves, n, bb[OCC + us] & ~bb[KING - 1],
                           drop_mask | checkers, False, False, False)
            k = start
            for i in range(start, n):
                m = moves[i]
                frm = m_from(m)
                if pinned & SQ[frm] and not (LINE[king, frm] & SQ[m_to(m)]):
                    continue
                moves[k] = m
                k += 1
            n = k
    # En passant: rare, so test it by playing it.
    start = n
    n = gen_ep(bb, st, moves, n, ~EMPTY)
    k = start
    for i in range(start, n):
        if _standard_ep_legal(bb, st, moves[i], sbb, sst):
            moves[k] = moves[i]
            k += 1
    n = k
    if zh and not (tactical and not checkers):
        if bb[PROMOTED] & kmask:
            # python-chess drops against the non-promoted king only (legal_drop_squares).
            drop_mask = ~EMPTY
            k0 = king_square(bb, us)
            if k0 >= 0:
                c0 = attackers(bb, them, k0, occ)
                if c0:
                    drop_mask = BETWEEN[k0, lsb(c0)] if not (c0 & (c0 - np.uint64(1))) else EMPTY
        n = gen_drops(bb, st, moves, n, drop_mask)
    return n


@njit(cache=True)
def gen_legal(bb, st, moves, sbb, sst):
    """Fill ``moves`` with the legal moves; returns their number.

    ``sbb``/``sst`` are scratch rows (shape of ``bb``/``st``) used to try moves.
    """
    return gen_moves(bb, st, moves, sbb, sst, False)


@njit(cache=True)
def gen_moves(bb, st, moves, sbb, sst, lazy):
    """:func:`gen_legal`; with ``lazy``, atomic moves that need playing to be judged
    are kept with the F_UNCHECKED flag instead (a search plays them anyway)."""
    v = st[VARIANT]
    if v == CHESS or v == CRAZYHOUSE:
        return _gen_legal_standard(bb, st, moves, sbb, sst, False)
    if is_variant_end(bb, st):
        return 0
    us = st[TURN]
    if v == ATOMIC:
        raw = gen_pseudo(bb, st, moves, 0, ~EMPTY, ~EMPTY, True, True, False)
        # A quiet move of a piece other than the king explodes nothing and keeps the
        # kings as they are: it is legal unless it breaks a pin (and the kings are not
        # connected) or we are in check. Everything else is played and looked at.
        king = king_square(bb, us)
        occ = bb[OCC] | bb[OCC + 1]
        connected = kings_connected(bb)
        fast = king >= 0 and (connected or not attackers(bb, 1 - us, king, occ))
        pinned = EMPTY if (connected or not fast) else _slider_blockers(bb, king, us)
        n = 0
        for i in range(raw):
            m = moves[i]
            frm = m_from(m)
            to = m_to(m)
            if fast and frm != king and st[to] == 0 and not (m_flags(m) & (F_EP | F_CASTLE)):
                legal = not (pinned & SQ[frm]) or (LINE[king, frm] & SQ[to]) != 0
            elif lazy:
                m |= F_UNCHECKED << 16
                legal = True
            else:
                legal = _atomic_legal(bb, st, m, sbb, sst)
            if legal:
                moves[n] = m
                n += 1
        return n
    # Suicide and giveaway: captures are compulsory.
    theirs = bb[OCC + 1 - us]
    n = gen_pseudo(bb, st, moves, 0, ~EMPTY, theirs, False, False, True)
    n = gen_ep(bb, st, moves, n, ~EMPTY)
    if n:
        return n
    return gen_pseudo(bb, st, moves, 0, ~EMPTY, ~theirs, True, False, True)


@njit(cache=True)
def has_legal_move(bb, st, moves, sbb, sst):
    """Whether the side to move has a legal move; in chess and crazyhouse out of check
    this usually answers without generating the moves (quick exits on the king, a
    drop, or any unpinned piece that can move)."""
    v = st[VARIANT]
    us = st[TURN]
    them = 1 - us
    kmask = bb[KING - 1] & bb[OCC + us]
    if (v == CHESS or v == CRAZYHOUSE) and kmask:
        occ = bb[OCC] | bb[OCC + 1]
        king = msb(kmask)
        if not attackers(bb, them, king, occ):
            ours = bb[OCC + us]
            if v == CRAZYHOUSE:
                for t in range(KNIGHT, KING):
                    if st[POCKET + 6 * us + t] and ~occ:
                        return True
                if st[POCKET + 6 * us + PAWN] and ~occ & _NOT_BACKRANKS:
                    return True
            kb = SQ[king]
            targets = KING_ATTACKS[king] & ~ours
            while targets:
                if not attackers(bb, them, lsb(targets), occ ^ kb):
                    return True
                targets &= targets - np.uint64(1)
            free = ours & ~kmask & ~_slider_blockers(bb, king, us)
            pieces = free & ~bb[PAWN - 1]
            while pieces:
                frm = lsb(pieces)
                if piece_attacks(st[frm], frm, occ) & ~ours:
                    return True
                pieces &= pieces - np.uint64(1)
            pawns = free & bb[PAWN - 1]
            push = ((pawns << np.uint64(8)) if us == WHITE else (pawns >> np.uint64(8))) & ~occ
            if push:
                return True
    return gen_legal(bb, st, moves, sbb, sst) > 0


@njit(cache=True)
def is_tactical(st, m):
    """Captures (en passant included) and promotions."""
    flags = m_flags(m)
    if flags & F_DROP:
        return False
    return st[m_to(m)] != 0 or (flags & F_EP) != 0 or m_piece(m) != 0


@njit(cache=True)
def gen_legal_tactical(bb, st, moves, sbb, sst):
    """The captures and promotions (for quiescence search), cheaper than
    :func:`gen_legal` because quiet moves and drops are not generated. In chess and
    crazyhouse, a side in check gets all its legal moves (evasions). Suicide and
    giveaway get :func:`gen_legal` (captures are compulsory there anyway). Atomic moves
    come with F_UNCHECKED: the caller must test them with :func:`child_is_legal`."""
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return gen_legal(bb, st, moves, sbb, sst)
    if v == ATOMIC:
        if is_variant_end(bb, st):
            return 0
        raw = gen_pseudo(bb, st, moves, 0, ~EMPTY, bb[OCC + 1 - st[TURN]] | BB_BACKRANKS,
                         False, True, False)
    else:
        raw = _gen_legal_standard(bb, st, moves, sbb, sst, True)
        if raw and checkers_mask(bb, st):
            return raw
    n = 0
    for i in range(raw):
        m = moves[i]
        if is_tactical(st, m):
            if v == ATOMIC:
                m |= F_UNCHECKED << 16   # judged by the caller after playing it
            moves[n] = m
            n += 1
    return n


@njit(cache=True)
def has_legal_ep(bb, st, sbb, sst):
    """python-chess ``has_legal_en_passant`` (decides the FEN's ep field and the key)."""
    caps = _ep_capturers(bb, st)
    if not caps or is_variant_end(bb, st):
        return False
    ep = st[EP]
    v = st[VARIANT]
    us = st[TURN]
    while caps:   # tried one by one: no move buffer to allocate
        frm = lsb(caps)
        caps &= caps - np.uint64(1)
        if v == SUICIDE or v == GIVEAWAY:
            return True
        copy_make(bb, st, sbb, sst, encode(frm, ep, 0, F_EP))
        if v == ATOMIC and kings_connected(sbb):
            return True
        k = king_square(sbb, us)
        if k < 0 or not attackers(sbb, 1 - us, k, sbb[OCC] | sbb[OCC + 1]):
            return True
    return False


@njit(cache=True)
def position_key(bb, st, sbb, sst):
    """The repetition key: python-chess's transposition key as a 64-bit hash."""
    h = bb[HASH]
    if has_legal_ep(bb, st, sbb, sst):
        h ^= Z_EP[st[EP] & 7]
    return h


# ---------------------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _insufficient_standard(bb, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    if ours & (bb[PAWN - 1] | bb[ROOK - 1] | bb[QUEEN - 1]):
        return False
    if ours & bb[KNIGHT - 1]:
        return popcount(ours) <= 2 and not (theirs & ~bb[KING - 1] & ~bb[QUEEN - 1])
    if ours & bb[BISHOP - 1]:
        b = bb[BISHOP - 1]
        same = (not (b & BB_DARK)) or (not (b & BB_LIGHT))
        return same and not bb[PAWN - 1] and not bb[KNIGHT - 1]
    return True


@njit(cache=True)
def _insufficient_crazyhouse(bb, st):
    occ = bb[OCC] | bb[OCC + 1]
    total = popcount(occ)
    for c in range(2):
        for t in range(1, 6):
            total += st[POCKET + 6 * c + t]
    if total > 3 or bb[PROMOTED] or bb[PAWN - 1] or bb[ROOK - 1] or bb[QUEEN - 1]:
        return False
    for c in range(2):
        if st[POCKET + 6 * c + PAWN] or st[POCKET + 6 * c + ROOK] or st[POCKET + 6 * c + QUEEN]:
            return False
    return True


@njit(cache=True)
def _insufficient_suicide(bb, st, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    occ = ours | theirs
    if not ours:
        return False
    if not theirs:
        return True
    if occ == bb[BISHOP - 1]:
        we_light = (ours & BB_LIGHT) != 0
        we_dark = (ours & BB_DARK) != 0
        they_all_dark = not (theirs & BB_LIGHT)
        they_all_light = not (theirs & BB_DARK)
        return (we_light and they_all_dark) or (we_dark and they_all_light)
    if occ == bb[KNIGHT - 1] and popcount(bb[KNIGHT - 1]) == 2:
        x = (c == WHITE) ^ ((bb[OCC] & BB_LIGHT) != 0) ^ ((bb[OCC + 1] & BB_DARK) != 0)
        return (st[TURN] == WHITE) == x
    return False


@njit(cache=True)
def _insufficient_atomic(bb, c):
    ours = bb[OCC + c]
    theirs = bb[OCC + 1 - c]
    kings = bb[KING - 1]
    occ = ours | theirs
    if not (theirs & kings):
        return False
    if not (ours & ~kings):
        return True
    if theirs & ~kings:
        if occ == bb[BISHOP - 1] | kings:
            b = bb[BISHOP - 1]
            if not (b & bb[OCC] & BB_DARK):
                return not (b & bb[OCC + 1] & BB_LIGHT)
            if not (b & bb[OCC] & BB_LIGHT):
                return not (b & bb[OCC + 1] & BB_DARK)
        return False
    if bb[QUEEN - 1] or bb[PAWN - 1]:
        return False
    if popcount(bb[KNIGHT - 1] | bb[BISHOP - 1] | bb[ROOK - 1]) == 1:
        return True
    if occ == bb[KNIGHT - 1] | kings:
        return popcount(bb[KNIGHT - 1]) <= 2
    return False


@njit(cache=True)
def is_insufficient_material(bb, st):
    v = st[VARIANT]
    if v == CRAZYHOUSE:
        return _insufficient_crazyhouse(bb, st)
    for c in range(2):
        if v == SUICIDE or v == GIVEAWAY:
            r = _insufficient_suicide(bb, st, c)
        elif v == ATOMIC:
            r = _insufficient_atomic(bb, c)
        else:
            r = _insufficient_standard(bb, c)
        if not r:
            return False
    return True


@njit(cache=True)
def outcome_code(bb, st, moves, sbb, sst):
    """python-chess ``outcome()`` without repetition: (termination, winner or -1)."""
    v = st[VARIANT]
    us = st[TURN]
    them = 1 - us
    n = gen_legal(bb, st, moves, sbb, sst)
    if v == SUICIDE or v == GIVEAWAY:
        if not bb[OCC + us]:
            return T_VARIANT_WIN, us
        stalemate = n == 0 and bb[OCC + them] != 0
        if stalemate:
            if v == GIVEAWAY:
                return T_VARIANT_WIN, us
            balance = popcount(bb[OCC + us]) - popcount(bb[OCC + them])
            if balance > 0:
                return T_VARIANT_LOSS, them
            if balance < 0:
                return T_VARIANT_WIN, us
            return T_VARIANT_DRAW, -1
    elif v == ATOMIC:
        kings = bb[KING - 1]
        if kings:
            if not kings & bb[OCC + us]:
                return T_VARIANT_LOSS, them
            if not kings & bb[OCC + them]:
                return T_VARIANT_WIN, us
    if n == 0 and checkers_mask(bb, st):
        return T_CHECKMATE, them
    if is_insufficient_material(bb, st):
        return T_INSUFFICIENT, -1
    if n == 0:
        return T_STALEMATE, -1
    if v != CRAZYHOUSE and st[HALFMOVE] >= 150:
        return T_SEVENTYFIVE, -1
    return T_NONE, -1


# ---------------------------------------------------------------------------------------
# Perft
# ---------------------------------------------------------------------------------------

@njit(cache=True)
def _perft(bbs, sts, moves, depth):
    """Leaves below row 0, depth >= 1. Iterative: numba's cache cannot load recursion."""
    bbs, sts, moves = unmanaged(bbs), unmanaged(sts), unmanaged(moves)
    n0 = gen_legal(bbs[0], sts[0], moves[0], bbs[1], sts[1])
    if depth == 1:
        return np.int64(n0)
    nmoves = np.zeros(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    nmoves[0] = n0
    total = np.int64(0)
    ply = 0
    while ply >= 0:
        if idx[ply] >= nmoves[ply]:
            ply -= 1
            continue
        m = moves[ply, idx[ply]]
        idx[ply] += 1
        child = ply + 1
        copy_make(bbs[ply], sts[ply], bbs[child], sts[child], m)
        if child == depth - 1:
            total += gen_legal(bbs[child], sts[child], moves[child], bbs[child + 1], sts[child + 1])
        else:
            ply = child
            nmoves[ply] = gen_legal(bbs[ply], sts[ply], moves[ply], bbs[ply + 1], sts[ply + 1])
            idx[ply] = 0
    return total


@njit(cache=True)
def perft_divide(bb, st, depth):
    """Leaf counts below each legal root move (bulk counting at depth 1)."""
    bbs = np.zeros((depth + 2, NBB), dtype=np.uint64)
    sts = np.zeros((depth + 2, NST), dtype=np.int64)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    bbs[0] = bb
    sts[0] = st
    n = gen_legal(bbs[0], sts[0], moves[0], bbs[1], sts[1])
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if depth > 1:
            copy_make(bbs[0], sts[0], bbs[1], sts[1], moves[0, i])
            counts[i] = _perft(bbs[1:], sts[1:], moves[1:], depth - 1)
        else:
            counts[i] = 1
    return moves[0, :n].copy(), counts


@njit(cache=True)
def perft(bb, st, depth):
    if depth <= 0:
        return np.int64(1)
    bbs = np.zeros((depth + 2, NBB), dtype=np.uint64)
    sts = np.zeros((depth + 2, NST), dtype=np.int64)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    bbs[0] = bb
    sts[0] = st
    return _perft(bbs, sts, moves, depth)
