# Issue 63: crazyhouse's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant crazyhouse --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 37000 --out runs/ladders/crazyhouse-nodes-vs-nodes-holdout2 --save scratch/holdout2-crazyhouse.json --no-progress
