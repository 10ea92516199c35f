"""TDLeaf(lambda) learning by self-play: the update and temporal coherence (:mod:`.td`),
one recorded self-play game (:mod:`.selfplay`), run folders with checkpoints and
summaries (:mod:`.runs`), and where the runs are played (:mod:`.jobs`)."""
