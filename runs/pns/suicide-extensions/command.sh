# Issue 64, item 5: the two extensions that each passed their SPRT, together (the
# only-move and the forced-capture extension: search flags 67583), against suicide's
# selective set before them (66047, given explicitly: the default is now the former);
# the default values on both sides, 0.1 s a move, one game at a time, on a quiet machine
# (the other core playing another match). Openings: 8 random plies, both colours.
# SPRT elo0 0, elo1 20 (alpha = beta = 0.05), at most 600 games.
# The same command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default default --variant suicide --movetime 0.1 --games 600 --random-plies 8 \
  --seed 64 --sprt 0,20 -o A.flags=67583 -o A.name=extensions -o B.flags=66047 \
  -o B.name=before --workers 1 --pgn runs/pns/suicide-extensions/games.pgn \
  --json runs/pns/suicide-extensions/summary.json --no-progress
