# Issue 62 (a) before the win check: the MCTS with the shipped network against the MCTS over
# the heuristic prior, 200 new playouts a move each; stopped after 56 of 100 games when the
# win check (search.mcts.tree.find_wins, on by default under a network since) was measured, and
# summarised with --games 56 --resume. Openings of 8 random plies, both colours. Played by
# commit 1d33d4e; with today's code the network side needs -o A.win_check=0.
tdleaf match default default --games 100 -o A.search=mcts -o A.net=shipped -o A.name=net-mcts -o B.search=mcts -o B.name=prior-mcts -o A.playouts=200 -o B.playouts=200 --variant crazyhouse --random-plies 8 --seed 62 --workers 2 --pgn runs/mcts/crazyhouse-a200/games.pgn --json runs/mcts/crazyhouse-a200/summary.json --no-progress
