# Issue 62 (a) the MCTS with the shipped network against the MCTS over the heuristic prior, 800 playouts a move each, 100 games. Openings of 8 random plies, both colours. The same
# command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default default --games 100 -o A.search=mcts -o A.net=shipped -o A.name=net-mcts -o B.search=mcts -o B.name=prior-mcts -o A.playouts=800 -o B.playouts=800 --variant crazyhouse --random-plies 8 --seed 62 --workers 2 --pgn runs/mcts/crazyhouse-a800/games.pgn --json runs/mcts/crazyhouse-a800/summary.json --no-progress
