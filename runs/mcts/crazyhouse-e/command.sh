# Issue 62 (e) the MCTS with the shipped network on the UCI_Elo ladder, 200 and 800 playouts a move, 32 games a rung. The same command with --resume carries on.
tdleaf ladder --variant crazyhouse --search mcts --net shipped --depths '' --nodes 200,800 --movetimes '' --games 32 --workers 2 --out runs/mcts/crazyhouse-e --no-progress
