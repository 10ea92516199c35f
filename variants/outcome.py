"""How a game ends: insufficient material per variant and python-chess's ``outcome()``
(without repetitions, which need the game's history)."""

from __future__ import annotations

from numba import njit

from .bits import BB_DARK, BB_LIGHT, BB_RANK_8, popcount
from .board import (
    ATOMIC,
    BB_CENTER,
    BISHOP,
    CHECKS,
    CHESS,
    CRAZYHOUSE,
    GIVEAWAY,
    HALFMOVE,
    HORDE,
    KING,
    KNIGHT,
    KOTH,
    OCC,
    PAWN,
    POCKET,
    PROMOTED,
    QUEEN,
    RACING,
    ROOK,
    SUICIDE,
    T_CHECKMATE,
    T_INSUFFICIENT,
    T_NONE,
    T_SEVENTYFIVE,
    T_STALEMATE,
    T_VARIANT_DRAW,
    T_VARIANT_LOSS,
    T_VARIANT_WIN,
    THREECHECK,
    TURN,
    VARIANT,
    WHITE,
    checkers_mask,
    is_variant_end,
)
from .movegen import gen_legal
from .rules import HALFMOVE_RULE

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
def _horde_lone(queens, rooks, bishops, knights, horde_bishop_co, p_pawns, p_bishops,
                p_knights, p_rooks, p_darkb, p_lightb, p_num):
    """python-chess HordeBoard.has_insufficient_material(WHITE) for a lone white piece
    other than a pawn (horde_num == 1)."""
    p_opp = p_darkb if horde_bishop_co == WHITE else p_lightb
    if p_num == 1:
        return True
    if queens == 1:
        return not (p_pawns >= 1 or p_rooks >= 1 or p_lightb >= 2 or p_darkb >= 2)
    if rooks == 1:
        return not (p_pawns >= 2 or (p_rooks >= 1 and p_pawns >= 1)
                    or (p_rooks >= 1 and p_knights >= 1) or (p_pawns >= 1 and p_knights >= 1))
    if bishops == 1:
        return not (p_opp >= 2 or (p_opp >= 1 and p_pawns >= 1) or p_pawns >= 2)
    if knights == 1:
        return not (
            p_num >= 4 and (
                p_knights >= 2 or p_pawns >= 2
                or (p_rooks >= 1 and p_knights >= 1) or (p_rooks >= 1 and p_bishops >= 1)
                or (p_knights >= 1 and p_bishops >= 1) or (p_rooks >= 1 and p_pawns >= 1)
                or (p_knights >= 1 and p_pawns >= 1) or (p_bishops >= 1 and p_pawns >= 1)
                or (p_lightb >= 1 and p_darkb >= 1 and p_pawns >= 1))
            and (p_num - p_darkb >= 3 if p_darkb >= 2 else True)
            and (p_num - p_lightb >= 3 if p_lightb >= 2 else True))
    return True


@njit(cache=True)
def _insufficient_horde_white(bb):
    """python-chess HordeBoard.has_insufficient_material(WHITE), rule for rule (see
    github.com/stevepapazis/horde-insufficient-material-tests for their derivation)."""
    white = bb[OCC]
    queens = popcount(white & bb[QUEEN - 1])
    pawns = popcount(white & bb[PAWN - 1])
    rooks = popcount(white & bb[ROOK - 1])
    bishops = popcount(white & bb[BISHOP - 1])
    knights = popcount(white & bb[KNIGHT - 1])
    darkb = popcount(BB_DARK & white & bb[BISHOP - 1])
    lightb = popcount(BB_LIGHT & white & bb[BISHOP - 1])
    horde_bishop_co = WHITE if lightb >= 1 else 1 - WHITE
    horde_num = pawns + knights + rooks + queens + min(darkb, 2) + min(lightb, 2)
    black = bb[OCC + 1]
    p_pawns = popcount(black & bb[PAWN - 1])
    p_bishops = popcount(black & bb[BISHOP - 1])
    p_knights = popcount(black & bb[KNIGHT - 1])
    p_rooks = popcount(black & bb[ROOK - 1])
    p_queens = popcount(black & bb[QUEEN - 1])
    p_darkb = popcount(BB_DARK & black & bb[BISHOP - 1])
    p_lightb = popcount(BB_LIGHT & black & bb[BISHOP - 1])
    p_num = popcount(black)
    p_opp = p_darkb if horde_bishop_co == WHITE else p_lightb
    p_same = p_lightb if horde_bishop_co == WHITE else p_darkb
    white_pair = lightb >= 1 and darkb >= 1
    if horde_num == 0:
        return True
    if horde_num >= 4:
        return False
    if (pawns >= 1 or queens >= 1) and horde_num >= 2:
        return False
    # A rook and a bishop against a lone king is the only insufficient pair with a rook.
    if rooks >= 1 and horde_num >= 2 and not (
            horde_num == 2 and rooks == 1 and bishops == 1 and p_num - p_same == 1):
        return False
    if horde_num == 1:
        if pawns == 1 and p_num != 1:
            # python-chess promotes the pawn to a queen and to a knight and asks again.
            return (_horde_lone(1, 0, 0, 0, horde_bishop_co, p_pawns, p_bishops,
                                p_knights, p_rooks, p_darkb, p_lightb, p_num)
                    and _horde_lone(0, 0, 0, 1, horde_bishop_co, p_pawns, p_bishops,
                                    p_knights, p_rooks, p_darkb, p_lightb, p_num))
        return _horde_lone(queens, rooks, bishops, knights, horde_bishop_co, p_pawns,
                           p_bishops, p_knights, p_rooks, p_darkb, p_lightb, p_num)
    if horde_num == 2:
        if p_num == 1:
            return True
        if knights == 2:
            return not (p_pawns + p_bishops + p_knights >= 1)
        if white_pair:
            return not (p_pawns >= 1 or p_bishops >= 1
                        or (p_knights >= 1 and p_rooks + p_queens >= 1))
        if bishops >= 1 and knights >= 1:
            return not (p_pawns >= 1 or p_opp >= 1 or p_num - p_same >= 3)
        return not ((p_pawns >= 1 and p_opp >= 1) or (p_pawns >= 1 and p_knights >= 1)
                    or (p_opp >= 1 and p_knights >= 1) or p_opp >= 2 or p_knights >= 2
                    or p_pawns >= 2)
    if horde_num == 3:
        if (knights == 2 and bishops == 1) or knights == 3 or white_pair:
            return False
        return p_num == 1
    return True


@njit(cache=True)
def has_insufficient_material(bb, st, c):
    """python-chess ``has_insufficient_material(c)`` (crazyhouse: the whole board's)."""
    v = st[VARIANT]
    if v == CRAZYHOUSE:
        return _insufficient_crazyhouse(bb, st)
    if v == SUICIDE or v == GIVEAWAY:
        return _insufficient_suicide(bb, st, c)
    if v == ATOMIC:
        return _insufficient_atomic(bb, c)
    if v == KOTH or v == RACING:
        return False
    if v == THREECHECK:
        return not (bb[OCC + c] & ~bb[KING - 1])   # any piece but the king can check
    if v == HORDE:
        # The side with the king can always win by capturing the horde.
        return c == WHITE and _insufficient_horde_white(bb)
    return _insufficient_standard(bb, c)


@njit(cache=True)
def is_insufficient_material(bb, st):
    for c in range(2):
        if not has_insufficient_material(bb, st, c):
            return False
    return True


@njit(cache=True)
def variant_result(bb, st):
    """python-chess is_variant_loss, is_variant_win and is_variant_draw of the variants
    whose games end on the board (hill, third check, race, horde): (termination, winner)
    or (T_NONE, -1). A search's terminal score for those variants."""
    v = st[VARIANT]
    us = st[TURN]
    them = 1 - us
    loss = win = draw = False
    if v == KOTH:
        loss = (bb[KING - 1] & bb[OCC + them] & BB_CENTER) != 0
        win = (bb[KING - 1] & bb[OCC + us] & BB_CENTER) != 0
    elif v == THREECHECK:
        ours, theirs = st[CHECKS + us], st[CHECKS + them]
        loss = theirs <= 0 < ours
        win = ours <= 0 < theirs
        draw = ours <= 0 and theirs <= 0
    elif v == RACING:
        goal = bb[KING - 1] & BB_RANK_8
        end = is_variant_end(bb, st)
        loss = end and not (goal & bb[OCC + us])
        win = end and (goal & bb[OCC + us]) != 0 and not (goal & bb[OCC + them])
        draw = (goal & bb[OCC]) != 0 and (goal & bb[OCC + 1]) != 0
    elif v == HORDE:
        occ = bb[OCC] | bb[OCC + 1]
        loss = occ != 0 and bb[OCC + us] == 0
        win = occ != 0 and bb[OCC + them] == 0
        draw = occ == 0
    if loss:
        return T_VARIANT_LOSS, them
    if win:
        return T_VARIANT_WIN, us
    if draw:
        return T_VARIANT_DRAW, -1
    return T_NONE, -1


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
    elif v != CHESS and v != CRAZYHOUSE:
        term, winner = variant_result(bb, st)
        if term != T_NONE:
            return term, winner
    if n == 0 and checkers_mask(bb, st):
        return T_CHECKMATE, them
    if is_insufficient_material(bb, st):
        return T_INSUFFICIENT, -1
    if n == 0:
        return T_STALEMATE, -1
    if halfmove_draw(st, 150):
        return T_SEVENTYFIVE, -1
    return T_NONE, -1


@njit(cache=True)
def terminal_result(bb, st):
    """The result for the side to move of a position without legal moves, or whose game
    its variant has ended on the board: 1 won, -1 lost, 0 drawn. What a search scores
    as a won or lost game (``MATE - ply``) or a draw."""
    v = st[VARIANT]
    us = st[TURN]
    them = 1 - us
    if v == SUICIDE or v == GIVEAWAY:
        own = bb[OCC + us]
        theirs = bb[OCC + them]
        if not own:
            return 1
        if not theirs:
            return 0
        if v == GIVEAWAY:
            return 1
        balance = popcount(own) - popcount(theirs)
        return -1 if balance > 0 else (1 if balance < 0 else 0)
    if v == ATOMIC:
        kings = bb[KING - 1]
        if kings:
            if not kings & bb[OCC + us]:
                return -1
            if not kings & bb[OCC + them]:
                return 1
    if v == KOTH or v == THREECHECK or v == RACING or v == HORDE:
        # The hill, the third check, the race or the horde may have ended the game.
        term, winner = variant_result(bb, st)
        if term == T_VARIANT_DRAW:
            return 0
        if term != T_NONE:
            return 1 if winner == us else -1
    if checkers_mask(bb, st):
        return -1
    return 0


@njit(cache=True)
def halfmove_draw(st, plies):
    """Whether the halfmove clock has reached ``plies`` (100: the 50-move rule, 150: the
    75-move rule) in a variant whose clock counts (not crazyhouse, as python-chess)."""
    return HALFMOVE_RULE[st[VARIANT]] and st[HALFMOVE] >= plies


@njit(cache=True)
def repetition(st, keys, idx, key, floor):
    """Whether the position ``key`` (at index ``idx`` of the history ``keys``) stood there
    before with the same side to move, at index ``floor`` or later and, where the
    halfmove clock counts, since the last capture or pawn move."""
    limit = floor
    if HALFMOVE_RULE[st[VARIANT]]:
        limit = max(limit, idx - st[HALFMOVE])
    j = idx - 2
    while j >= limit:
        if keys[j] == key:
            return True
        j -= 2
    return False


@njit(cache=True)
def rule_draw(st, keys, idx, key, floor):
    """A draw by rule as a search scores it: the 50-move rule, or a repetition (once:
    the position is then drawn by best play on both sides). ``keys``, ``idx``,
    ``key``, ``floor``: as :func:`repetition`."""
    return halfmove_draw(st, 100) or repetition(st, keys, idx, key, floor)
