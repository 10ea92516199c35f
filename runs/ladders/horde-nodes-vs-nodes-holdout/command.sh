# Issue 63: horde's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant horde --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 27000 --out runs/ladders/horde-nodes-vs-nodes-holdout --save scratch/holdout-horde.json --no-progress
# Then: horde's first held-out rungs, joined to the curve, 256 games each, saved into runs/strength/ladder.json.
tdleaf ladder --remeasure --variant horde --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 27000 --out runs/ladders/horde-nodes-vs-nodes-holdout --save runs/strength/ladder.json --note 'horde'"'"'s first held-out rungs, joined to the curve (issue 63)' --no-progress
