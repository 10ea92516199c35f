# Issue 64's engine against Sjeng 11.2: tdleaf's suicide default as the issue leaves it
# (the selective set with the only-move and forced-capture extensions, 67583; the proof
# check of the chosen move, 0.3; the endgame tables of up to 3 pieces, built first by
# `tdleaf warmup --tables` into the per-user data folder) in suicide at 1 s a move, 200
# games, the baseline's openings (8 random plies, seed 5, both colours), one game per
# core. The same command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default xboard:sjeng --variant suicide --games 200 \
  --movetime 1 --random-plies 8 --seed 5 --workers 1 -o A.name=after-64 \
  --pgn runs/pns/sjeng-after/games.pgn --json runs/pns/sjeng-after/summary.json \
  --no-progress "$@"
# Its summary.json is the file's summary with the rules disputes set apart (Sjeng refusing
# a legal castling), written by the same command with `--summary` (gunzip -k first).
