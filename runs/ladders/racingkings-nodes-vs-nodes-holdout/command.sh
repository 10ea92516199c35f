# Issue 63: racingkings's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant racingkings --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 24000 --out runs/ladders/racingkings-nodes-vs-nodes-holdout --save scratch/holdout-racingkings.json --no-progress
