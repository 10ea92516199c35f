"""The rules as data for compiled code: each rule flag of :mod:`variants.spec` as an
array indexed by the rules code a position carries (``st[VARIANT]``).

numba freezes these arrays into the code it compiles, so ``MUST_CAPTURE[st[VARIANT]]``
costs one load; the search asks these flags, never a variant's code. Variants with the
same rules (giveaway and antichess) share a code, and so their flags.
"""

from __future__ import annotations

import numpy as np

from .spec import SPECS, by_code

_CODES = 1 + max(v.code for v in SPECS.values())


def _flag(name: str) -> np.ndarray:
    """The boolean flag (or property) ``name`` of :class:`variants.spec.Variant`, by code."""
    return np.array([bool(getattr(by_code(c), name)) for c in range(_CODES)], dtype=np.bool_)


#: Pieces in hand.
POCKETS = _flag("pockets")
#: Losing everything wins.
LOSING = _flag("losing")
#: Captures are compulsory.
MUST_CAPTURE = _flag("must_capture")
#: Captures explode.
EXPLOSIONS = _flag("explosions")
#: The halfmove clock counts (50- and 75-move rules; repetitions since the last
#: irreversible move).
HALFMOVE_RULE = _flag("halfmove_rule")
#: The selective search may extend checks.
CHECK_EXTENSIONS = _flag("check_extensions")
#: A game can end on the board by a rule of its own, not only by mate or stalemate.
ENDS_ON_BOARD = _flag("ends_on_board")

#: How many rules codes there are (one per set of rules: giveaway and antichess share
#: one); a network's input has one plane per code.
RULE_SETS = _CODES
