# Issue 64: every endgame table of suicide and of giveaway/antichess (2-3 pieces,
# retrograde analysis), built and saved by the warm-up; CPU time from /usr/bin/time.
# (The 2026-12-02 run named the folder with TDLEAF_TABLES=scratch/endgame/tables, since
# replaced by the per-user data folder; the tables and their cost are the same.)
TDLEAF_DATA=scratch/endgame/data /usr/bin/time -o runs/pns/tables-build/time.txt \
  tdleaf warmup --tables > runs/pns/tables-build/warmup.log
python runs/pns/tables-build/stats.py scratch/endgame/data/endgame   # -> summary.json (the 2026-12-02 run: scratch/endgame/tables)
