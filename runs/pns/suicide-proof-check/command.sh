# Issue 64: the proof check of the chosen move (a player's proof_check 0.3: the share of
# a timed move kept, after alpha-beta, to prove the position after its move for the
# opponent) against none, suicide, the default values on both sides, 0.1 s a move, one
# game at a time (the other core running another timed job, one game or search at a
# time). Openings: 8 random plies, both colours. SPRT elo0 0, elo1 20 (alpha = beta =
# 0.05), at most 600 games. The same command with --resume carries on.
tdleaf match default default --variant suicide --movetime 0.1 --games 600 --random-plies 8 \
  --seed 65 --sprt 0,20 -o A.proof_check=0.3 -o A.name=check -o B.name=no-check \
  --pgn runs/pns/suicide-proof-check/games.pgn --json runs/pns/suicide-proof-check/summary.json \
  --no-progress "$@"
