# Issue 63: racingkings's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant racingkings --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 24000 --out runs/ladders/racingkings-nodes-vs-nodes-holdout2 --save scratch/holdout2-racingkings.json --no-progress
