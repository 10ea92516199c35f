# Issue 62 (a), atomic: the MCTS guided by the shipped network against the MCTS over the
# heuristic prior, both at 800 new playouts a move, 100 games (50 openings of 8 random
# plies, both colours). Equal playouts: not a timed match. The same command with
# --resume carries on.
tdleaf match default default --variant atomic --games 100 --random-plies 8 --seed 62 \
  -o A.search=mcts -o A.playouts=800 -o A.net=shipped -o A.name=net-mcts \
  -o B.search=mcts -o B.playouts=800 -o B.name=prior-mcts \
  --pgn runs/mcts/atomic-a800/games.pgn --json runs/mcts/atomic-a800/summary.json --no-progress
