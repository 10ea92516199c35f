# Issue 63: two held-out node rungs in crazyhouse (between the fitted ones), measured the
# same way, 64 games each, not saved: they test the fit of rating against log2(nodes)
# that runs/ladders/crazyhouse-nodes feeds (check.py compares them).
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' \
  --nodes 256,4096 --games 64 --workers 2 \
  --out runs/ladders/crazyhouse-nodes-holdout --no-progress "$@"
