# Issue 63: giveaway's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant giveaway --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 22000 --out runs/ladders/giveaway-nodes-vs-nodes-holdout2 --save scratch/holdout2-giveaway.json --no-progress
