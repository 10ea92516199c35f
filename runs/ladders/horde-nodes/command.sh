# Issue 63: horde's node rungs, 128 games each, saved into the candidate ladder. The same command carries on.
tdleaf ladder --remeasure --variant horde --depths '' --movetimes '' --nodes 32,128,512,2048,8192,32768,131072 --games 128 --workers 2 --resign-moves 0 --out runs/ladders/horde-nodes --save runs/strength/ladder.json --note 'horde'"'"'s node rungs (issue 63), two games at a time' --no-progress
# Then: horde's node rungs, 256 games each, saved into the candidate ladder.
tdleaf ladder --remeasure --variant horde --depths '' --movetimes '' --nodes 32,128,512,2048,8192,32768,131072 --games 256 --workers 2 --resign-moves 0 --out runs/ladders/horde-nodes --save runs/strength/ladder.json --note 'horde'"'"'s node rungs (issue 63), two games at a time' --no-progress
