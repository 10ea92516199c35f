"""Alpha-beta: the compiled search (plain and selective, with quiescence, the
transposition table and move ordering: :mod:`.negamax`), its state groups, static
exchange evaluation, and the :class:`~search.alphabeta.engine.Engine` that deepens it
iteratively, with the move clock, the root shortcuts and the collection of nodes for
the learners beside it."""
