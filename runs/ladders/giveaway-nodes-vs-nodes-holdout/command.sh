# Issue 63: giveaway's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant giveaway --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 22000 --out runs/ladders/giveaway-nodes-vs-nodes-holdout --save scratch/holdout-giveaway.json --no-progress
# Then: giveaway's first held-out rungs, joined to the curve, 256 games each, saved into runs/strength/ladder.json.
tdleaf ladder --remeasure --variant giveaway --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --engine-nodes 22000 --out runs/ladders/giveaway-nodes-vs-nodes-holdout --save runs/strength/ladder.json --note 'giveaway'"'"'s first held-out rungs, joined to the curve (issue 63)' --no-progress
