# Issue 64, item 6: the two suites of suicide positions from real games against Sjeng 11.2
# (runs/blocks/equal-time/suicide-set-vs-sjeng.pgn: 200 games at 1 s a move, tdleaf's tables +
# chains), each position checked by the proof search (at most 2^19 nodes a check) and
# by Fairy-Stockfish 11.1 (depth 18 or 10 million nodes). The checks are fixed work: the
# suites do not depend on the machine's load. The same command with --resume carries on.
tdleaf bench suites --variant suicide --build runs/blocks/equal-time/suicide-set-vs-sjeng.pgn \
  --out runs/pns/suites/suicide

# Solving (timed searches: one at a time on a quiet core; the checks are fixed work):
# before, the engine as it was before issue 64's search changes (suicide's set 66047);
# after, today's default (66047 + the only-move and forced-capture extensions, 67583).
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 0.1 \
  --flags 66047 --report runs/pns/suites/suicide/solve-before-0.1.json
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 0.1 \
  --report runs/pns/suites/suicide/solve-after-0.1.json
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 1 \
  --report runs/pns/suites/suicide/solve-after-1.json
# The endgame tables must be built first (`tdleaf warmup --tables`): the engine plays
# them at the root and both proof searches (the engine's and the judge's) read them.
# The reports from 2026-12-03 on say how many tables the engine had.
# With the proof check of the chosen move (0.3 of each move kept for it; suicide's
# default since):
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 1 \
  --proof-check 0.3 --report runs/pns/suites/suicide/solve-check0.3-1.json
# 2026-12-03, with the tables (each run one position at a time on its own core): the
# search before the changes (its set 66047, no proof check; the tables as today,
# since the judge reads them too), and the default with a proof share at the root as well.
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 1 \
  --flags 66047 --proof-check 0 --report runs/pns/suites/suicide/solve-before-1.json
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 1 \
  --proof-share 0.25 --proof-check 0.3 --report runs/pns/suites/suicide/solve-share0.25-check0.3-1.json
# The default without the proof check, again with the tables (the run of 2026-12-02 above
# predates the reports' table count):
tdleaf bench suites --variant suicide --out runs/pns/suites/suicide --movetime 1 \
  --proof-check 0 --report runs/pns/suites/suicide/solve-after-nocheck-1.json
