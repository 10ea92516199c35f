"""The engine's search modes, as data: the front ends offer them before the compiled
search is loaded, so this module imports nothing heavy."""

from __future__ import annotations

#: Alpha-beta search modes: ``selective`` (null move, reductions, pruning: the default
#: for play) and ``plain`` (the full-width alpha-beta with quiescence of the report).
SEARCH_MODES: tuple[str, ...] = ("selective", "plain")
#: What a player may ask for: the alpha-beta modes, or ``mcts`` (PUCT over the
#: heuristic prior, :mod:`search.mcts.driver`).
SEARCHES: tuple[str, ...] = SEARCH_MODES + ("mcts",)
