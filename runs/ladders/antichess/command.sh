# Issue 64: antichess's own strength ladder (until now it used giveaway's): antichess's
# default (its values, selective set and proof check; the endgame tables built) at depths
# 1-6 and at 0.1 s and 1 s a move, against Fairy-Stockfish 11.1's antichess at 0.1 s a
# move and UCI_LimitStrength settings chosen near each rung, 32 games a rung, two at a
# time on a quiet machine; saved into the shipped ladder (search/data/ladder.json).
# The same command with --resume carries on.
tdleaf ladder --remeasure --variant antichess --depths 1,2,3,4,5,6 --movetimes 0.1,1 \
  --games 32 --workers 2 --out runs/ladders/antichess --save search/data/ladder.json \
  --note "antichess's own ladder (issue 64), a quiet 2-CPU machine, two games at a time" \
  --no-progress "$@"
