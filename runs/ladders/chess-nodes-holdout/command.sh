# Issue 63: chess's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant chess --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --out runs/ladders/chess-nodes-holdout --save scratch/holdout-chess.json --no-progress
