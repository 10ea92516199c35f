# Issue 63: two held-out node rungs in crazyhouse (between the fitted ones of
# runs/ladders/crazyhouse-nodes), measured the same way, not saved: they test the line
# of rating against log2(nodes) through the fitted rungs. 64 games each on 2026-12-03
# 13:47-14:12 UTC (check.py compared them then), carried on to 128 each at 17:30-17:37
# UTC by runs/strength/plan.py, whose check of the candidate ladder's line wrote
# check.json. The same command carries on (--remeasure resumes).
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' \
  --nodes 256,4096 --games 128 --workers 2 --out runs/ladders/crazyhouse-nodes-holdout \
  --save scratch/holdout-crazyhouse.json --no-progress
# Then: crazyhouse's held-out node rungs, 256 games each, not saved.
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --out runs/ladders/crazyhouse-nodes-holdout --save scratch/holdout-crazyhouse.json --no-progress
