# Issue 63: crazyhouse's node rungs, a factor of 4 apart from 32 to 131,072 nodes (its
# depth rungs 1-6 take about 26 to 22,000 nodes), against Fairy-Stockfish 11.1 at 0.1 s a
# move and the UCI_LimitStrength settings chosen near each rung, 32 games a rung, two at a
# time. The first six rungs were played on 2026-12-03 13:47-14:12 UTC with --save
# search/data/ladder.json (not shipped: beside the depth rungs they made no coherent
# ladder); those below 1024 nodes were measured again (--resume) after the fix of the
# node limit, which had searched 1024 nodes for them. The rung of 131,072 nodes was added
# at 17:27-17:30 UTC by runs/strength/plan.py, which saves into the candidate ladder
# runs/strength/ladder.json. The same command carries on (--remeasure resumes).
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' \
  --nodes 32,128,512,2048,8192,32768,131072 --games 32 --workers 2 \
  --out runs/ladders/crazyhouse-nodes --save runs/strength/ladder.json \
  --note "crazyhouse's node rungs (issue 63), two games at a time" --no-progress
# Then: crazyhouse's node rungs, 128 games each, saved into the candidate ladder.
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' --nodes 32,128,512,2048,8192,32768,131072 --games 128 --workers 2 --out runs/ladders/crazyhouse-nodes --save runs/strength/ladder.json --note 'crazyhouse'"'"'s node rungs (issue 63), two games at a time' --no-progress
