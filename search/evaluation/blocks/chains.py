"""The ``chains`` block: capture chains in the losing variants (suicide,
giveaway, antichess), where captures are compulsory.

The report's last experiment (section 9) beat its piece-square suicide player in about
90% of 2,000 games with a 14-weight evaluation that "recognised the potential of capture
chains"; it does not list the weights. These are ours, 14 of them, for each side ``c``
(``e`` the enemy), counting pseudo-legal captures (a piece attacking an enemy piece;
pawns by their capture squares, en passant left out):

- ``capture.P`` ... ``capture.K``: captures ``c``'s pieces of that type can make (each
  pair of capturing piece and captured piece once);
- ``taken.P`` ... ``taken.K``: ``c``'s pieces of that type that ``e`` attacks (can take);
- ``forced``: ``c`` has at least one capture (on its move it must capture);
- ``tempo``: ``c`` is the side to move and has a capture.

White's minus Black's. The reference here, on python-chess, defines the features; the
compiled kernel is in :mod:`search.kernels.chains`.

Decided where the words above leave room: a capture onto the last rank counts once,
whatever it promotes to; ``forced`` and ``tempo`` follow the counted captures, so a side
whose only capture is en passant has neither (though it must play it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..block import PIECES, Block, python_chess_board, variant_of

if TYPE_CHECKING:
    import chess

KEYS = (*(f"capture.{p}" for p in PIECES), *(f"taken.{p}" for p in PIECES),
               "forced", "tempo")


#: Offsets within the block: ``capture.P`` .. ``capture.K``, ``taken.P`` .. ``taken.K``,
#: then ``forced`` and ``tempo``.
TAKEN, FORCED, TEMPO = KEYS.index("taken.P"), KEYS.index("forced"), KEYS.index("tempo")


def chains_features(board: chess.Board) -> np.ndarray:
    """``chains`` of a python-chess board (White's minus Black's): per piece type the
    (capturer, captured) pairs of ``board.attacks`` onto enemy pieces, the own pieces the
    enemy attacks (``board.is_attacked_by``), a capture at all, and one for the side to
    move (``board.turn``)."""
    import chess

    out = np.zeros(len(KEYS))
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        enemy = chess.SquareSet(board.occupied_co[not color])
        captures = 0
        for sq in chess.SquareSet(board.occupied_co[color]):
            t = board.piece_type_at(sq)
            assert t is not None
            n = len(board.attacks(sq) & enemy)
            out[t - 1] += sign * n
            captures += n
            if board.is_attacked_by(not color, sq):
                out[TAKEN + t - 1] += sign
        if captures:
            out[FORCED] += sign
            if board.turn == color:
                out[TEMPO] += sign
    return out


def _reference(bb: np.ndarray, st: np.ndarray) -> np.ndarray:
    from variants import board_class

    cls = board_class(variant_of(st).name)
    return chains_features(python_chess_board(bb, st, cls))


BLOCK = Block(
    "chains", KEYS, code=10, reference=_reference, rule="losing", key_kind="key",
    doc="suicide, giveaway, antichess: captures each piece type can make, pieces of each "
        "type the enemy can take, a capture available, a capture forced now; White minus "
        "Black",
    title="chains: captures by piece type, pieces the enemy can take, captures available "
          "and forced; White minus Black")
