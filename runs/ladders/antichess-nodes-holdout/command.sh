# Issue 63: antichess's held-out node rungs, 256 games each, not saved. The same command carries on.
tdleaf ladder --remeasure --variant antichess --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --out runs/ladders/antichess-nodes-holdout --save scratch/holdout-antichess.json --no-progress
# Then: antichess's held-out node rungs, 256 games each, saved into runs/strength/ladder.json, where they join the curve.
tdleaf ladder --remeasure --variant antichess --depths '' --movetimes '' --nodes 256,4096 --games 256 --workers 2 --resign-moves 0 --out runs/ladders/antichess-nodes-holdout --save runs/strength/ladder.json --note 'antichess'"'"'s first held-out rungs, joined to the curve (issue 63)' --no-progress
