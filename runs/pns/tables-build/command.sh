# Issue 64: every endgame table of suicide and of giveaway/antichess (2-3 pieces,
# retrograde analysis), built and saved by the warm-up; CPU time from /usr/bin/time.
TDLEAF_TABLES=scratch/endgame/tables /usr/bin/time -o runs/pns/tables-build/time.txt \
  tdleaf warmup --tables > runs/pns/tables-build/warmup.log
