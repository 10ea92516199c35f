"""Static exchange evaluation with the variants' rules, in pawns of the traditional scale.

* Chess and crazyhouse: the classic swap on one square, the least valuable attacker
  first, sliders behind a capturer joining in (x-rays); a king may only capture last.
  In crazyhouse a captured piece also goes to the capturer's hand, so every capture is
  worth about twice its value: the sign of the exchange, which is all pruning and
  ordering ask, is the same, so the chess swap serves it.
* Atomic: a capture explodes the capturer, the victim and every non-pawn around the
  square, so there is no exchange: the value is the blast's balance, and exploding the
  enemy king wins (a large value) while exploding one's own loses.
* Suicide and giveaway: captures are compulsory and material is a burden; there is no
  meaningful exchange value (0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from variants import core
from variants.bits import KING_ATTACKS, bishop_attacks, lsb, rook_attacks

#: Traditional values by piece type (index 0 unused); the king only matters in atomic.
SEE_VALUE = np.array([0, 1, 3, 3, 5, 9, 100], dtype=np.int64)
KING_BLAST = 1000


@njit(cache=True)
def _least_valuable(bb, attackers, color):
    """(square, type) of ``color``'s least valuable piece in ``attackers``, or (-1, 0)."""
    mine = attackers & bb[core.OCC + color]
    if not mine:
        return -1, 0
    for t in range(core.PAWN, core.KING + 1):
        b = mine & bb[t - 1]
        if b:
            return lsb(b), t
    return -1, 0


@njit(cache=True)
def _all_attackers(bb, sq, occ):
    a = (KING_ATTACKS[sq] & bb[core.KING - 1])
    a |= core.attackers(bb, 0, sq, occ) | core.attackers(bb, 1, sq, occ)
    return a & occ


@njit(cache=True)
def atomic_blast(bb, st, m):
    """Material balance of an atomic capture for the mover: what explodes of theirs
    minus what explodes of ours (the capturer included); +-KING_BLAST for kings."""
    frm = core.m_from(m)
    to = core.m_to(m)
    us = st[core.TURN]
    ep = (core.m_flags(m) & core.F_EP) != 0
    victim = core.PAWN if ep else st[to]
    gain = SEE_VALUE[victim] - SEE_VALUE[st[frm]]
    blast = KING_ATTACKS[to] & ~bb[core.PAWN - 1] & ~core.SQ[frm]
    while blast:
        s = lsb(blast)
        blast &= blast - np.uint64(1)
        t = st[s]
        if t == 0:
            continue
        value = KING_BLAST if t == core.KING else SEE_VALUE[t]
        if bb[core.OCC + us] & core.SQ[s]:
            gain -= value
        else:
            gain += value
    if st[frm] == core.KING:
        gain -= KING_BLAST
    return gain


@njit(cache=True)
def see(bb, st, m):
    """The static exchange value of move ``m`` for the side to move (see the module)."""
    v = st[core.VARIANT]
    flags = core.m_flags(m)
    if flags & core.F_DROP:
        return np.int64(0)
    if core.LOSING[v]:
        return np.int64(0)
    if core.EXPLOSIONS[v]:
        if st[core.m_to(m)] == 0 and not (flags & core.F_EP):
            return np.int64(0)
        return atomic_blast(bb, st, m)
    frm = core.m_from(m)
    to = core.m_to(m)
    us = st[core.TURN]
    promo = core.m_piece(m)
    occ = (bb[core.OCC] | bb[core.OCC + 1]) ^ core.SQ[frm]
    if flags & core.F_EP:
        victim = core.PAWN
        occ ^= core.SQ[to - 8 if us == core.WHITE else to + 8]
    else:
        victim = st[to]
    if flags & core.F_CASTLE:
        return np.int64(0)
    gains = np.zeros(40, dtype=np.int64)
    gains[0] = SEE_VALUE[victim]
    on_square = st[frm]
    if promo:
        gains[0] += SEE_VALUE[promo] - SEE_VALUE[core.PAWN]
        on_square = promo
    attackers = _all_attackers(bb, to, occ)
    side = 1 - us
    d = 0
    while d < 38:
        sq, t = _least_valuable(bb, attackers, side)
        if sq < 0:
            break
        if t == core.KING and attackers & occ & bb[core.OCC + 1 - side]:
            break           # the king may not capture into a defended square
        d += 1
        gains[d] = SEE_VALUE[on_square] - gains[d - 1]
        on_square = t
        occ ^= core.SQ[sq]
        attackers &= ~core.SQ[sq]
        # Sliders behind the capturer join in.
        attackers |= (rook_attacks(to, occ) & (bb[core.ROOK - 1] | bb[core.QUEEN - 1])
                      | bishop_attacks(to, occ) & (bb[core.BISHOP - 1] | bb[core.QUEEN - 1])) & occ
        side = 1 - side
    while d > 0:
        gains[d - 1] = -max(-gains[d - 1], gains[d])
        d -= 1
    return gains[0]
