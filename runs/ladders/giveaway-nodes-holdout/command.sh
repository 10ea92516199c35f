# Issue 63: giveaway's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant giveaway --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --out runs/ladders/giveaway-nodes-holdout --save scratch/holdout-giveaway.json --no-progress
