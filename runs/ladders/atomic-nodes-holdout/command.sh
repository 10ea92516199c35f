# Issue 63: atomic's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant atomic --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 17000 --out runs/ladders/atomic-nodes-holdout --save scratch/holdout-atomic.json --no-progress
# Then: atomic's held-out node rungs, 256 games each, saved into runs/strength/ladder.json, where they join the curve.
tdleaf ladder --remeasure --variant atomic --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 17000 --out runs/ladders/atomic-nodes-holdout --save runs/strength/ladder.json --note 'atomic'"'"'s first held-out rungs, joined to the curve (issue 63)' --no-progress
