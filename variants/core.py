"""The rules in numba, as one namespace: ``core.X`` for any constant or function of the
rules, which the search and the Python layer use.

The rules live in one module per concern, in the order they build on each other:
:mod:`.board` (array layout, move encoding, Zobrist keys, board editing, attacks),
:mod:`.make` (playing a move), :mod:`.movegen` (pseudo-legal and legal moves, repetition
keys), :mod:`.outcome` (how games end, the score of a finished game, draws by rule),
:mod:`.count` (perft), and :mod:`.rules`, the variants' rule flags by rules code. Each rule mirrors
python-chess 1.11 (``chess.Board`` and ``chess.variant``), including its corner cases,
because python-chess is the oracle the tests compare against.
"""

from .board import *
from .count import *
from .make import *
from .movegen import *
from .outcome import *
from .rules import *
