# Issue 64, item 5, in antichess: suicide's two extensions (the only-move and the
# forced-capture extension: search flags 67583) against antichess's selective set without
# them (66047, its default before); the default values and the proof check on both sides,
# 0.1 s a move, one game at a time. Openings: 4 random plies (as antichess's earlier
# matches: antichess is solved, 1.e3 wins, and longer random openings decide more games),
# both colours. SPRT elo0 0, elo1 20 (alpha = beta = 0.05), at most 600 games.
# Giveaway has the same search (and rules but for castling): it follows antichess's result.
# The same command with --resume carries on (gunzip -k games.pgn.gz first).
tdleaf match default default --variant antichess --movetime 0.1 --games 600 --random-plies 4 \
  --seed 64 --sprt 0,20 -o A.flags=67583 -o A.name=extensions -o B.flags=66047 \
  -o B.name=before --workers 1 --pgn runs/pns/antichess-extensions/games.pgn \
  --json runs/pns/antichess-extensions/summary.json --no-progress "$@"
