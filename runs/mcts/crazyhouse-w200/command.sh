# Issue 62 a check for moves that win at once (win_check) against none, the shipped network on both sides, 200 playouts a move, 100 games. Openings of 8 random plies, both colours. The same
# command with --resume carries on (gunzip -k games.pgn.gz first).
# Played before the win check became the default under a network: today B needs
# -o B.win_check=0 (runs/mcts/plan.py has it).
tdleaf match default default --games 100 -o A.search=mcts -o A.net=shipped -o A.name=net-mcts -o A.win_check=1 -o A.name=net-mcts-win -o B.search=mcts -o B.net=shipped -o B.name=net-mcts -o A.playouts=200 -o B.playouts=200 --variant crazyhouse --random-plies 8 --seed 62 --workers 1 --pgn runs/mcts/crazyhouse-w200/games.pgn --json runs/mcts/crazyhouse-w200/summary.json --no-progress
