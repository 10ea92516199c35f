# Issue 63: atomic's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant atomic --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 17000 --out runs/ladders/atomic-nodes-holdout2 --save scratch/holdout2-atomic.json --no-progress
# Then: atomic's second held-out rungs, joined to the rungs served nearest, 256 games each, saved into runs/strength/ladder.json.
tdleaf ladder --remeasure --variant atomic --depths '' --movetimes '' --nodes 64,1024 --games 256 --workers 2 --resign-moves 0 --engine-nodes 17000 --out runs/ladders/atomic-nodes-holdout2 --save runs/strength/ladder.json --note 'atomic'"'"'s second held-out rungs, joined to the rungs served nearest (issue 63)' --no-progress
