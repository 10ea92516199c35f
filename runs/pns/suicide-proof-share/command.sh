# Issue 64: the proof-number search's share of a timed move (variants.spec proof_share
# 0.25) against none, suicide, the default values on both sides, 0.1 s a move, one game
# at a time on a quiet machine (the other core idle or light). Openings: 8 random plies,
# both colours. SPRT elo0 0, elo1 20 (alpha = beta = 0.05), at most 600 games.
# The same command with --resume carries on.
tdleaf match default default --variant suicide --movetime 0.1 --games 600 --random-plies 8 \
  --seed 64 --sprt 0,20 -o A.name=proof -o B.proof=0 -o B.name=no-proof \
  --pgn runs/pns/suicide-proof-share/games.pgn --json runs/pns/suicide-proof-share/summary.json \
  --no-progress
