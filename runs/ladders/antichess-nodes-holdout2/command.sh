# Issue 63: antichess's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant antichess --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --out runs/ladders/antichess-nodes-holdout2 --save scratch/holdout2-antichess.json --no-progress
