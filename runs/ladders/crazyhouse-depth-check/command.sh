# Issue 63: crazyhouse's depth-4 and depth-2 rungs measured again the same day as its node
# rungs, the same way (32 games each, two at a time), not saved: do the shipped depth
# rungs (2026-11-29) and today's node rungs rate alike?
tdleaf ladder --remeasure --variant crazyhouse --depths 2,4 --movetimes '' --nodes '' \
  --games 32 --workers 2 --out runs/ladders/crazyhouse-depth-check --no-progress "$@"
