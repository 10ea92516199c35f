"""Move generation for every variant: pseudo-legal moves, then legal ones.

One generator serves every variant; the variant code switches drops, compulsory
captures, king promotion, explosions, the games that end on the board (hill, third
check, race, horde) and racing kings' ban on checks. Legality is judged by pins and checks where
that is exact, and by playing the move (:mod:`.make`) where it is not (en passant,
atomic captures). Each rule mirrors python-chess 1.11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (
    BB_BACKRANKS,
    BB_RANK_1,
    BB_RANK_8,
    BETWEEN,
    EMPTY,
    KING_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    bishop_attacks,
    lsb,
    msb,
    rook_attacks,
)
from .board import (
    ATOMIC,
    BB_CENTER,
    BISHOP,
    CASTLING,
    CHECKS,
    CHESS,
    CRAZYHOUSE,
    EP,
    F_CASTLE,
    F_DROP,
    F_EP,
    F_UNCHECKED,
    GIVEAWAY,
    HASH,
    HORDE,
    KING,
    KNIGHT,
    KOTH,
    NOT_BACKRANKS,
    OCC,
    PAWN,
    POCKET,
    PROMOTED,
    QUEEN,
    RACING,
    ROOK,
    SQ,
    SUICIDE,
    THREECHECK,
    TURN,
    VARIANT,
    WHITE,
    Z_EP,
    attacked_for_king,
    attackers,
    checkers_mask,
    encode,
    is_variant_end,
    king_square,
    kings_connected,
    m_flags,
    m_from,
    m_piece,
    m_to,
    piece_attacks,
)
from .make import copy_make

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
        if attacked_for_king(bb, st, king_path | kb, occ ^ kb):
            continue
        if attacked_for_king(bb, st, SQ[king_to], occ ^ kb ^ rb ^ SQ[rook_to]):
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
def ep_square(bb, st):
    """The en passant square where a pawn of the side to move can capture (pseudo-legally,
    as python-chess's ``has_pseudo_legal_en_passant``), else -1."""
    return st[EP] if _ep_capturers(bb, st) else -1


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
    # Double pushes land on the 3rd/4th (6th/5th) rank, as in python-chess: a pawn on
    # its own back rank (an impossible position) may step two squares to the 3rd.
    if us == WHITE:
        single = (pawns << np.uint64(8)) & ~occ
        double = (single << np.uint64(8)) & ~occ & np.uint64(0xFFFF0000)
        delta = 8
    else:
        single = (pawns >> np.uint64(8)) & ~occ
        double = (single >> np.uint64(8)) & ~occ & np.uint64(0xFFFF00000000)
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
            m = mask & NOT_BACKRANKS if t == PAWN else mask
            while m:
                s = lsb(m)
                moves[n] = encode(s, s, t, F_DROP)
                n += 1
                m &= m - np.uint64(1)
    return n

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
def _pin_mask(bb, us, sq):
    """python-chess ``pin_mask(us, sq)``: the line ``sq`` may move on (all squares when
    it is not pinned to the non-promoted king)."""
    king = king_square(bb, us)
    if king < 0:
        return ~EMPTY
    occ = bb[OCC] | bb[OCC + 1]
    s = SQ[sq]
    rq = bb[ROOK - 1] | bb[QUEEN - 1]
    bq = bb[BISHOP - 1] | bb[QUEEN - 1]
    snipers = ((rook_attacks(king, EMPTY) & rq) | (bishop_attacks(king, EMPTY) & bq)) & bb[OCC + 1 - us]
    while snipers:
        sniper = lsb(snipers)
        snipers &= snipers - np.uint64(1)
        if BETWEEN[king, sniper] & (occ | s) == s:
            return LINE[king, sniper]
    return ~EMPTY


@njit(cache=True)
def _ep_safe(bb, st, king, checkers, m):
    """Whether python-chess lets the en-passant capture ``m`` through, for the side to
    move with king ``king`` and ``checkers``: its evasion rule (only against a single
    checker, only when the capture lands between the king and a slider or takes the
    checker), its pin test on the capturer and its skewer test on the capture rank and
    the diagonals. These are python-chess's rules, not "the king is not attacked
    after the move": they differ in impossible positions (a non-pawn standing where the
    double-pushed pawn should be, checks no game can reach)."""
    us = st[TURN]
    ep = st[EP]
    frm = m_from(m)
    last_double = ep - 8 if us == WHITE else ep + 8
    if checkers:
        if checkers & (checkers - np.uint64(1)):
            return False
        checker = lsb(checkers)
        if not (SQ[ep] & (BETWEEN[king, checker] | checkers)) and last_double != checker:
            return False
    if not (_pin_mask(bb, us, frm) & SQ[ep]):
        return False
    occ = ((bb[OCC] | bb[OCC + 1]) & ~SQ[last_double] & ~SQ[frm]) | SQ[ep]
    theirs = bb[OCC + 1 - us]
    rank = BB_RANK_1 << np.uint64(8 * (king >> 3))
    if rook_attacks(king, occ) & rank & theirs & (bb[ROOK - 1] | bb[QUEEN - 1]):
        return False
    return not bishop_attacks(king, occ) & theirs & (bb[BISHOP - 1] | bb[QUEEN - 1])


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
    # En passant, judged as python-chess judges it (see _ep_safe).
    start = n
    n = gen_ep(bb, st, moves, n, ~EMPTY)
    k = start
    for i in range(start, n):
        if _ep_safe(bb, st, king, checkers, moves[i]):
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
def _drop_checks(bb, st, moves, n, sbb, sst):
    """Racing kings: keeps the moves that give no check (discovered ones included).

    A move is judged without playing it, from the attacks on their king after it: the
    moved piece's from its new square, and our sliders' through the square it left
    (only when that square is on a line from their king). That is exact when their king
    is not attacked already and there are no pawns, castling or drops, as in every
    position a game reaches; anything else is played and looked at, as python-chess's
    ``gives_check`` does."""
    us = st[TURN]
    ek = king_square(bb, 1 - us)
    occ = bb[OCC] | bb[OCC + 1]
    slow = ek < 0 or bb[PAWN - 1] != 0 or attackers(bb, us, ek, occ) != 0
    ours = bb[OCC + us]
    rq = (bb[ROOK - 1] | bb[QUEEN - 1]) & ours
    bq = (bb[BISHOP - 1] | bb[QUEEN - 1]) & ours
    k = 0
    for i in range(n):
        m = moves[i]
        frm = m_from(m)
        to = m_to(m)
        if slow or m_flags(m) & (F_CASTLE | F_DROP | F_EP) or m_piece(m):
            copy_make(bb, st, sbb, sst, m)
            check = checkers_mask(sbb, sst) != 0
        else:
            after = (occ & ~SQ[frm]) | SQ[to]
            check = (piece_attacks(st[frm], to, after) & SQ[ek]) != 0
            if not check and LINE[ek, frm]:     # the square left is on a line to their king
                left = ~SQ[frm]
                check = ((rook_attacks(ek, after) & rq & left)
                         | (bishop_attacks(ek, after) & bq & left)) != 0
        if not check:
            moves[k] = m
            k += 1
    return k


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
    if v == KOTH or v == THREECHECK or v == HORDE:
        return _gen_legal_standard(bb, st, moves, sbb, sst, False)
    if v == RACING:
        n = _gen_legal_standard(bb, st, moves, sbb, sst, False)
        return _drop_checks(bb, st, moves, n, sbb, sst)
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
                if st[POCKET + 6 * us + PAWN] and ~occ & NOT_BACKRANKS:
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
def near_goal(bb, st):
    """Whether the side to move may end the game with a quiet move: its king next to
    the hill (king of the hill) or to the 8th rank (racing kings), or one check short
    of the third (three-check)."""
    v = st[VARIANT]
    us = st[TURN]
    if v == THREECHECK:
        return st[CHECKS + us] == 1
    if v == KOTH or v == RACING:
        kings = bb[KING - 1] & bb[OCC + us]
        if not kings:
            return False
        goal = BB_CENTER if v == KOTH else BB_RANK_8
        return (KING_ATTACKS[msb(kings)] & goal & ~bb[OCC + us]) != 0
    return False


@njit(cache=True)
def made_goal(st, m, sst):
    """Whether move ``m``, played from ``st`` into ``sst``, reached the variant's goal: a
    king stepping onto the hill or the 8th rank (in racing kings Black may still draw by
    following: the move matters all the same), or the third check."""
    v = st[VARIANT]
    if v == THREECHECK:
        return sst[CHECKS + st[TURN]] <= 0
    if v == KOTH or v == RACING:
        goal = BB_CENTER if v == KOTH else BB_RANK_8
        return (m_flags(m) & F_DROP) == 0 and st[m_from(m)] == KING \
            and (SQ[m_to(m)] & goal) != 0
    return False


@njit(cache=True)
def quiet_goal(bb, st, m, sbb, sst):
    """Whether legal move ``m`` reaches the variant's goal (:func:`made_goal`); in
    three-check it is played into the scratch rows ``sbb``/``sst`` to count the check."""
    if st[VARIANT] == THREECHECK:
        copy_make(bb, st, sbb, sst, m)
    return made_goal(st, m, sst)


@njit(cache=True)
def gen_legal_tactical(bb, st, moves, sbb, sst):
    """The moves a quiescence search tries, cheaper than :func:`gen_legal` because
    quiet moves and drops are not generated: captures and promotions, plus, where a
    quiet move can end the game (:func:`near_goal`), the quiet moves that do
    (:func:`quiet_goal`: onto the hill or the 8th rank, the third check), which a
    capture-only search would miss. A side in check gets all its legal moves
    (evasions). Suicide and giveaway get :func:`gen_legal` (captures are compulsory
    there anyway). Atomic moves come with F_UNCHECKED: the caller must test them with
    :func:`child_is_legal`."""
    v = st[VARIANT]
    if v == SUICIDE or v == GIVEAWAY:
        return gen_legal(bb, st, moves, sbb, sst)
    goal = False
    if v == ATOMIC:
        if is_variant_end(bb, st):
            return 0
        raw = gen_pseudo(bb, st, moves, 0, ~EMPTY, bb[OCC + 1 - st[TURN]] | BB_BACKRANKS,
                         False, True, False)
    else:
        if v != CHESS and v != CRAZYHOUSE:
            if is_variant_end(bb, st):
                return 0
            goal = near_goal(bb, st)
        raw = _gen_legal_standard(bb, st, moves, sbb, sst, not goal)
        if v == RACING:
            raw = _drop_checks(bb, st, moves, raw, sbb, sst)
        if raw and checkers_mask(bb, st):
            return raw
    n = 0
    for i in range(raw):
        m = moves[i]
        if is_tactical(st, m) or (goal and quiet_goal(bb, st, m, sbb, sst)):
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
    if v == SUICIDE or v == GIVEAWAY:
        return True
    if v != ATOMIC:
        # python-chess is_into_check (racing kings too: its generate_legal_ep is the
        # standard one, which does not ask whether the capture gives check): the non-promoted king, its evasion and safety rules.
        king = king_square(bb, us)
        if king < 0:
            return True
        checkers = attackers(bb, 1 - us, king, bb[OCC] | bb[OCC + 1])
        while caps:
            m = encode(lsb(caps), ep, 0, F_EP)
            caps &= caps - np.uint64(1)
            if _ep_safe(bb, st, king, checkers, m):
                return True
        return False
    while caps:   # atomic: tried one by one (no move buffer to allocate)
        frm = lsb(caps)
        caps &= caps - np.uint64(1)
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
