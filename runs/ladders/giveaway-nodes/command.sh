# Issue 63: giveaway's node rungs, 128 games each, saved into the candidate ladder. The same command carries on.
tdleaf ladder --remeasure --variant giveaway --depths '' --movetimes '' --nodes 32,128,512,2048,8192,32768,131072 --games 128 --workers 2 --out runs/ladders/giveaway-nodes --save runs/strength/ladder.json --note 'giveaway'"'"'s node rungs (issue 63), two games at a time' --no-progress
