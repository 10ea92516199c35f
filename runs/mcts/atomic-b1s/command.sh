# Issue 62 (b) in atomic: the MCTS with atomic's shipped network against tdleaf's alpha-beta default, 1 s a move; SPRT(-100, -50) or 200 games. Openings of 8 random plies, both colours. The same
# command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default default --games 200 --movetime 1 --sprt=-100,-50 -o A.search=mcts -o A.net=shipped -o A.name=net-mcts -o B.name=alpha-beta --variant atomic --random-plies 8 --seed 62 --workers 1 --pgn runs/mcts/atomic-b1s/games.pgn --json runs/mcts/atomic-b1s/summary.json --no-progress
