# Issue 64's baseline: the engine as it was before the issue (suicide's default values,
# its selective set 66047, no proof search or proof check, no endgame tables: an empty data folder)
# against Sjeng 11.2 in suicide at 1 s a move, 200 games, the openings of the earlier
# matches (8 random plies, seed 5, both colours), one at a time (the other core kept for other work).
# The same command with --resume carries on (gunzip -k games.pgn.gz first).
TDLEAF_DATA=$(mktemp -d) tdleaf match default xboard:sjeng --variant suicide --games 200 \
  --movetime 1 --random-plies 8 --seed 5 --workers 1 -o A.flags=66047 -o A.proof=0 -o A.proof_check=0 \
  -o A.name=before-64 --pgn runs/pns/sjeng-baseline/games.pgn \
  --json runs/pns/sjeng-baseline/summary.json --no-progress "$@"
# Its summary.json is the file's summary with the rules disputes set apart (Sjeng refusing
# a legal castling), written by the same command with `--summary` (gunzip -k first).
