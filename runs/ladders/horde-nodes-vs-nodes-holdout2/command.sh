# Issue 63: horde's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant horde --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 27000 --out runs/ladders/horde-nodes-vs-nodes-holdout2 --save scratch/holdout2-horde.json --no-progress
