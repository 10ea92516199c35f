# Issue 63: kingofthehill's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant kingofthehill --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --out runs/ladders/kingofthehill-nodes-holdout --save scratch/holdout-kingofthehill.json --no-progress
