"""How the alpha-beta search's state is grouped.

The compiled search is one recursive function (:func:`search.alphabeta.negamax`) and
the helpers it calls; every argument of the recursion is passed at every node, so the
state travels in a few named tuples of arrays (numba passes a tuple's members as it
would separate arguments: grouping costs nothing at run time) plus the control vector:

``Rows`` (:data:`ROWS`): one row per ply, copy-make (row ``ply + 1`` is the child):
    ``bbs``, ``sts`` (the position arrays of :mod:`variants.board`), ``evals`` (the
    classic evaluation of each row, kept up to date move by move; its tail holds the
    collected nodes, :mod:`search.alphabeta.negamax`), ``moves`` and ``scores`` (each ply's moves
    and their ordering scores).
``Memory``: what the search learns as it goes and keeps from node to node (and, for the
    table, from search to search): the transposition table ``tt`` (one array of
    :data:`TT_ENTRY` records: a probe reads one entry, not five arrays), the ``killers``
    per ply and the ``history`` of quiet moves.
``Line``: the line being searched: the triangular principal variation ``pv``,
    ``pvlen``, and ``keys``, the position keys of the game so far and of the line (for
    repetitions).
``Eval``: what a node's evaluation reads: the weight vector ``w``, the layout's leaf
    blocks ``table`` (:attr:`search.evaluation.layout.FeatureLayout.table`; None without
    any: the search is then compiled without their code) and the evaluation ``noise``.
``ctl``: the int64 control vector (:data:`search.alphabeta.negamax.N_CTL` entries): counters,
    limits, the selective techniques in use and the stop flag, which another thread may
    set while the search runs without the GIL.

The search's own scalars (``ply``, ``depth``, ``alpha``, ``beta``, whether the node is
on the principal variation) come first in each function. No function of search/ takes
more than 12 parameters (``tests/test_layout.py`` holds it): later work keeps to these
groups, adding a member to a group rather than a parameter to the recursion.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

#: One row per ply (copy-make).
Rows = namedtuple("Rows", ["bbs", "sts", "evals", "moves", "scores"])
#: The transposition table, killers and history.
Memory = namedtuple("Memory", ["tt", "killers", "history"])
#: An entry of the transposition table (packed: 27 bytes): the position's key, its best
#: move (-1: none), its score (mates as distance from the node), the depth searched and
#: whether the score is exact or a bound (search.alphabeta.negamax's TT_* flags; 0: empty).
TT_ENTRY = np.dtype([("key", np.uint64), ("move", np.int64), ("score", np.float64),
                     ("depth", np.int16), ("flag", np.int8)])
#: The line being searched: principal variation and position keys.
Line = namedtuple("Line", ["pv", "pvlen", "keys"])
#: What the evaluation of a node reads.
Eval = namedtuple("Eval", ["w", "table", "noise"])
