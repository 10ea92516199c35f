# Issue 63: 3check's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant 3check --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 51000 --out runs/ladders/3check-nodes-vs-nodes-holdout --save scratch/holdout-3check.json --no-progress
