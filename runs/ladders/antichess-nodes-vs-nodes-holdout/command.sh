# Issue 63: antichess's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant antichess --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 29000 --out runs/ladders/antichess-nodes-vs-nodes-holdout --save scratch/holdout-antichess.json --no-progress
