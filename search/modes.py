"""The engine's search modes, as data: the front ends offer them before the compiled
search is loaded, so this module imports nothing heavy."""

from __future__ import annotations

#: Alpha-beta search modes: ``selective`` (null move, reductions, pruning: the default
#: for play) and ``plain`` (the full-width alpha-beta with quiescence of the report).
SEARCH_MODES: tuple[str, ...] = ("selective", "plain")
#: What a player may ask for: the alpha-beta modes, or ``mcts`` (PUCT over the
#: heuristic prior, :mod:`search.mcts`).
SEARCHES: tuple[str, ...] = SEARCH_MODES + ("mcts",)
#: An MCTS guided by a network evaluates its leaves a batch at a time (CrazyAra: 8-16
#: with a virtual loss of 3).
NET_BATCH = 8
