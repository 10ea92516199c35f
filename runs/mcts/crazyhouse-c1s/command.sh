# Issue 62 (c) the MCTS with the shipped network against Sjeng 11.2, 1 s a move; SPRT(0, 70) (70 Elo: a 60% score) or 200 games. Openings of 8 random plies, both colours. The same
# command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default xboard:sjeng --games 200 --movetime 1 --sprt=0,70 -o A.search=mcts -o A.net=shipped -o A.name=net-mcts --variant crazyhouse --random-plies 8 --seed 62 --workers 2 --pgn runs/mcts/crazyhouse-c1s/games.pgn --json runs/mcts/crazyhouse-c1s/summary.json --no-progress
