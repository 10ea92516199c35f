"""Making a move on the arrays, exactly as python-chess ``push`` does."""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import BB_RANK_1, BB_RANK_8, KING_ATTACKS, lsb
from .board import (
    ATOMIC,
    BLACK,
    CASTLING,
    CHECKS,
    CRAZYHOUSE,
    EP,
    F_CASTLE,
    F_DROP,
    FULLMOVE,
    HALFMOVE,
    HASH,
    KING,
    OCC,
    PAWN,
    POCKET,
    PROMOTED,
    ROOK,
    SQ,
    THREECHECK,
    TURN,
    VARIANT,
    WHITE,
    Z_SIDE,
    checkers_mask,
    m_flags,
    m_from,
    m_piece,
    m_to,
    put_piece,
    remove_piece,
    set_castling,
    set_checks,
    set_pocket,
)

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
    if v == THREECHECK and checkers_mask(bb, st):
        set_checks(bb, st, us, st[CHECKS + us] - 1)


@njit(cache=True)
def copy_make(bb, st, nbb, nst, m):
    nbb[:] = bb
    nst[:] = st
    apply_move(nbb, nst, m)


@njit(cache=True)
def make_null(bb, st, nbb, nst):
    """The position after a null move (the side to move passes), for a search's null-move
    pruning: no legal move of any variant, but the same hash scheme, so the child is a
    position like any other (its en passant right, if any, is gone)."""
    nbb[:] = bb
    nst[:] = st
    us = st[TURN]
    nst[EP] = -1
    nst[HALFMOVE] += 1
    if us == BLACK:
        nst[FULLMOVE] += 1
    nst[TURN] = 1 - us
    nbb[HASH] ^= Z_SIDE
