"""The ``sjeng`` block: the terms of Sjeng 11.2's suicide evaluation (``seval.c``,
``suicide_mid_eval``) beyond its material and its centre table, for the losing variants
(suicide, giveaway, antichess). Issue 97: suicide is our weakest variant against Sjeng;
this block lets its terms be played, with its own numbers (:func:`search.evaluation.sjeng_set.sjeng_weights`), before
they are learnt.

18 features, each counted for a side ``c`` (``e`` the enemy) and taken White's minus
Black's. Ranks are the side's own, 1..8 from its first rank (Black's rank 7 is its 2nd);
the "adjacent files" of the a- and h-file are one file each.

Mobility, on empty squares only (Sjeng counts no capture):

- ``reach.N`` ... ``reach.K``: per piece type, the empty squares each of ``c``'s pieces
  attacks (sliders stop at the first piece; a queen is a rook and a bishop);
- ``push``: ``c``'s pawns whose square ahead is empty.

Offers (Sjeng's "saccers"): ``e`` can give ``c``'s pawn a piece that ``e`` does not get
back:

- ``offer``: ``c``'s pawns such that no ``e`` pawn attacks either square the pawn attacks
  (its capture squares on the board), and on one of those squares ``t`` either exactly
  one ``e`` piece attacks ``t`` (it can go there, and nothing of ``e`` guards it; what
  stands on ``t`` is not looked at), or no ``e`` piece attacks ``t``, ``t`` is empty and
  an ``e`` pawn can push onto it (one step, or two from its 2nd rank over an empty
  square).

Pawn structure, per pawn of ``c`` on file ``f`` and rank ``r``:

- ``backward``: ``r`` < 7 and no own pawn on an adjacent file stands on rank ``r`` or
  behind it;
- ``isolated``: backward, and no own pawn on either adjacent file;
- ``backward.open``, ``isolated.open``: the same, with no ``e`` pawn on file ``f``;
- ``doubled``: the other own pawns on file ``f`` (a file of ``n`` pawns adds
  ``n (n - 1)``);
- ``passed``: no ``e`` pawn on file ``f`` (behind it either), ``r`` >= 2, and no ``e`` pawn
  on an adjacent file stands ahead of rank ``r``;
- ``passed.rank``: ``r - 2`` for each passed pawn;
- ``passed.connected``: passed pawns that are not ``isolated`` (Sjeng's "connected
  passed pawn": an own pawn on an adjacent file, or the 7th rank);
- ``outside``, ``outside.rank``: passed pawns on the a- or h-file, and their ``r - 2``;
- ``island``: pawns with no own pawn on the file toward the a-file (for both colours;
  every a-file pawn).

Where Sjeng's code and these words part (each a slip of its code rather than a term; the
issue's "as Sjeng defines it" is read as what the code means):

- It reads the capture squares of an a- or h-file pawn off the board's frame (its
  ``is_attacked`` finds "attackers" of a frame square); here only squares on the board.
- It tries the squares in turn and judges only the first it finds offered (an enemy pawn
  push, whichever square it reaches, is judged on the left one); here any square.
- A pushed pawn is "undefended" in its code while at most one other enemy piece guards
  ``t`` (it counts attackers, the pusher not among them); here while none does. It does
  not look whether the push is possible; here it must be.
- Its attacker count stops at an adjacent king (or pawn) in a direction group, and 11.2's
  two-square push test lacks parentheses (fixed upstream after 11.2); here every
  attacker counts, and the push is a push.

Not carried: its material (``material``) and centre table (``psq``), which the classic
blocks hold (:func:`search.evaluation.sjeng_set.sjeng_weights` puts Sjeng's numbers there), and its scaling of the
whole score by pieces / 32 with bishops of opposite colours, which no weighted sum
expresses.

The reference here, on python-chess, defines the features; the compiled kernel is in
:mod:`search.kernels.sjeng`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board

if TYPE_CHECKING:
    import chess

KEYS = ("reach.N", "reach.B", "reach.R", "reach.Q", "reach.K", "push", "offer",
        "backward", "isolated", "backward.open", "isolated.open", "doubled",
        "passed", "passed.rank", "passed.connected", "outside", "outside.rank", "island")

#: Offsets within the block (the kernel's): ``reach.N`` .. ``reach.K`` from REACH.
(REACH, PUSH, OFFER, BACKWARD, ISOLATED, BACKWARD_OPEN, ISOLATED_OPEN, DOUBLED, PASSED,
 PASSED_RANK, PASSED_CONNECTED, OUTSIDE, OUTSIDE_RANK, ISLAND) = (
    KEYS.index(k) for k in ("reach.N", "push", "offer", "backward", "isolated",
                            "backward.open", "isolated.open", "doubled", "passed",
                            "passed.rank", "passed.connected", "outside", "outside.rank",
                            "island"))

def _pawn_structure(board: chess.Board, color: bool) -> np.ndarray:
    """The pawn-structure features of ``color``'s pawns (its count, no sign), Sjeng's way:
    per file the rearmost own pawn (rank 7 for none) and the enemy pawn nearest the own
    side (rank 2 for none), in the side's own ranks; files -1 and 8 are empty."""
    import chess

    def rank(sq: int) -> int:       # 1..8 from the side's own first rank
        r = chess.square_rank(sq)
        return r + 1 if color == chess.WHITE else 8 - r

    own: dict[int, list[int]] = {f: [] for f in range(-1, 9)}
    enemy: dict[int, list[int]] = {f: [] for f in range(-1, 9)}
    for sq in board.pieces(chess.PAWN, color):
        own[chess.square_file(sq)].append(rank(sq))
    for sq in board.pieces(chess.PAWN, not color):
        enemy[chess.square_file(sq)].append(rank(sq))
    back = {f: min([7, *own[f]]) for f in own}
    enemy_back = {f: max([2, *enemy[f]]) for f in enemy}
    out = np.zeros(len(KEYS))
    for sq in board.pieces(chess.PAWN, color):
        f, r = chess.square_file(sq), rank(sq)
        backward = back[f - 1] > r and back[f + 1] > r
        isolated = backward and not own[f - 1] and not own[f + 1]
        opened = not enemy[f]
        out[BACKWARD] += backward
        out[ISOLATED] += isolated
        out[BACKWARD_OPEN] += backward and opened
        out[ISOLATED_OPEN] += isolated and opened
        out[DOUBLED] += len(own[f]) - 1
        if opened and r >= enemy_back[f - 1] and r >= enemy_back[f + 1]:
            out[PASSED] += 1
            out[PASSED_RANK] += r - 2
            out[PASSED_CONNECTED] += not isolated
            if f in (0, 7):
                out[OUTSIDE] += 1
                out[OUTSIDE_RANK] += r - 2
        out[ISLAND] += not own[f - 1]
    return out


def _can_push_onto(board: chess.Board, color: bool, t: int) -> bool:
    """Whether a pawn of ``color`` can push onto the empty square ``t``."""
    import chess

    back = -8 if color == chess.WHITE else 8
    second = 1 if color == chess.WHITE else 6
    pawn = chess.Piece(chess.PAWN, color)
    one = t + back
    if not 0 <= one < 64:
        return False
    if board.piece_at(one) == pawn:
        return True
    two = one + back
    return (board.piece_at(one) is None and 0 <= two < 64
            and chess.square_rank(two) == second and board.piece_at(two) == pawn)


def _offers(board: chess.Board, color: bool) -> int:
    """``color``'s pawns to which the enemy can offer a piece it does not get back."""
    import chess

    enemy = not color
    n = 0
    for sq in board.pieces(chess.PAWN, color):
        targets = board.attacks(sq)
        if any(board.attackers(enemy, t) & board.pawns for t in targets):
            continue
        for t in targets:
            guards = len(board.attackers(enemy, t))
            if guards == 1 or (guards == 0 and board.piece_at(t) is None
                               and _can_push_onto(board, enemy, t)):
                n += 1
                break
    return n


def sjeng_features(board: chess.Board) -> np.ndarray:
    """``sjeng`` of a python-chess board (White's minus Black's): the module docstring's
    features, by ``board.attacks``, ``board.attackers`` and per-file pawn ranks."""
    import chess

    empty = chess.SquareSet(~board.occupied & chess.BB_ALL)
    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        side = np.zeros(len(KEYS))
        ahead = 8 if color == chess.WHITE else -8
        for sq in chess.SquareSet(board.occupied_co[color]):
            t = board.piece_type_at(sq)
            assert t is not None
            if t == chess.PAWN:
                side[PUSH] += 0 <= sq + ahead < 64 and board.piece_at(sq + ahead) is None
            else:
                side[REACH + t - 2] += len(board.attacks(sq) & empty)
        side[OFFER] = _offers(board, color)
        side += _pawn_structure(board, color)
        out += sign * side
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess

    return sjeng_features(python_chess_board(bb, st, chess.Board))


BLOCK = Block(
    "sjeng", KEYS, code=11, reference=_reference, rule="losing", key_kind="key",
    doc="suicide, giveaway, antichess: Sjeng 11.2's suicide terms: empty squares reached "
        "per piece type, free pawn pushes, pawns the enemy can offer an unguarded piece, "
        "backward, isolated, doubled, passed and outside passed pawns, pawn islands; "
        "White minus Black",
    title="sjeng: Sjeng's suicide terms (mobility, offers, pawn structure); White minus "
          "Black")
