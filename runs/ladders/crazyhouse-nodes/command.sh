# Issue 63: crazyhouse's node rungs, a factor of 4 apart from 32 to 32,768 nodes (its depth
# rungs 1-6 take about 26 to 22,000 nodes), against Fairy-Stockfish 11.1 at 0.1 s a move
# and the UCI_LimitStrength settings chosen near each rung, 32 games a rung, two at a
# time. --save wrote them into search/data/ladder.json, but they are not shipped: beside
# the depth rungs measured on 2026-11-29 they made no coherent ladder (RESULTS.md, issue
# 63). The rungs below 1024 nodes were measured again (--resume) after the fix of the
# node limit, which had searched 1024 nodes for them.
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' \
  --nodes 32,128,512,2048,8192,32768 --games 32 --workers 2 \
  --out runs/ladders/crazyhouse-nodes --save search/data/ladder.json \
  --note "crazyhouse's node rungs (issue 63), two games at a time" --no-progress "$@"
