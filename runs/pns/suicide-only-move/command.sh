# Issue 64, item 5: the only-move extension, search flags 66559 (suicide's
# selective set, 66047, plus the technique's bit) against suicide's selective set; the
# default values on both sides, 0.1 s a move, one game at a time, on a quiet machine (the
# other core playing the same kind of match). Openings: 8 random plies, both colours.
# SPRT elo0 0, elo1 20 (alpha = beta = 0.05), at most 600 games.
# The same command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default default --variant suicide --movetime 0.1 --games 600 --random-plies 8 \
  --seed 64 --sprt 0,20 -o A.flags=66559 -o A.name=only-move -o B.name=selective \
  --workers 1 --pgn runs/pns/suicide-only-move/games.pgn --json runs/pns/suicide-only-move/summary.json --no-progress
