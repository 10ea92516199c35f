"""The ``kingrel`` block, every variant: where the pieces stand relative to the two kings,
in a compact form that self-play can fill (full tables per king square would be
thousands of weights; the crazyhouse tables of 10,000 games already leave entries with
under 100 visits).

90 weights: piece type (P, N, B, R, Q) x king (``own``, ``enemy``) x Chebyshev distance
to that king (1, 2, 3; further: no feature) x direction (``ahead``, ``level``,
``behind``), keys ``own.N.1.ahead`` ... ``enemy.Q.3.behind``. The direction is the sign
of the piece's rank minus the king's rank, in the frame of the piece's owner: up the
board is ahead for White, and for Black where the variant mirrors its tables by rank (or
keeps separate tables per colour); where it mirrors them by file (racing kings, both
sides race up the board), up is ahead for Black too. A white piece adds +1 to its
entry, a black one -1 (White's minus Black's). A missing king (horde's White) has no
entries.

Decisions where the above leaves room:

* A piece within 3 squares of both kings counts twice: once to its own king, once to
  the enemy's.
* "The king" of a side is python-chess's ``Board.king``, the rules'
  ``variants.board.king_square``: its highest-square king not made by promotion. Only
  the giveaway family can promote to a king; a second king counts as a piece of neither
  kind (kings are not among the types), and a side whose only king was promoted has no
  king here, as horde's White.

The reference here, on python-chess, defines the features; the compiled kernel is in
:mod:`search.kernels.kingrel`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import Block, python_chess_board, variant_of

if TYPE_CHECKING:
    import chess

#: The pieces a king's entries count (kings are none of them).
TYPES = "PNBRQ"
WAYS = ("ahead", "level", "behind")
KEYS = tuple(f"{king}.{p}.{d}.{way}" for king in ("own", "enemy") for p in TYPES
             for d in (1, 2, 3) for way in WAYS)
_INDEX = {k: i for i, k in enumerate(KEYS)}
#: Entries per piece type (3 distances x 3 directions) and per king (the kernel's strides).
PER_TYPE = 3 * len(WAYS)
PER_KING = len(TYPES) * PER_TYPE


def kingrel_features(board: chess.BaseBoard, mirror: str) -> np.ndarray:
    """``kingrel`` of a python-chess board, whose variant mirrors Black's tables by
    ``mirror`` (``variants.spec.Variant.mirror``: ``"rank"``, ``"file"``, ``"colour"``):
    per piece other than a king and per king (``board.king``) within Chebyshev distance
    3 of it (``chess.square_distance``), +1 (white piece) or -1 (black piece) on
    ``own|enemy.<piece>.<distance>.<ahead|level|behind>``."""
    import chess

    if mirror not in ("rank", "file", "colour"):
        raise ValueError(f"unknown mirror {mirror!r}; expected rank, file or colour")
    out = np.zeros(len(KEYS))
    for king_color in (chess.WHITE, chess.BLACK):
        king = board.king(king_color)
        if king is None:
            continue
        for sq, piece in board.piece_map().items():
            d = chess.square_distance(sq, king)
            if piece.piece_type == chess.KING or d > 3:
                continue
            up = chess.square_rank(sq) - chess.square_rank(king)
            if piece.color == chess.BLACK and mirror != "file":
                up = -up            # Black's frame: down the board is ahead
            way = "ahead" if up > 0 else "level" if up == 0 else "behind"
            rel = "own" if piece.color == king_color else "enemy"
            key = f"{rel}.{piece.symbol().upper()}.{d}.{way}"
            out[_INDEX[key]] += 1.0 if piece.color == chess.WHITE else -1.0
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    import chess

    board = python_chess_board(bb, st, chess.Board, promoted=True)
    return kingrel_features(board, variant_of(st).mirror)


BLOCK = Block(
    "kingrel", KEYS, code=6, reference=_reference, key_kind="key",
    doc="pieces by type within 3 squares of their own and the enemy king, by distance and "
        "direction, White minus Black",
    title="kingrel: pieces near their own and the enemy king, by distance and direction, "
          "White minus Black",
    axis="king, piece, distance, direction")
