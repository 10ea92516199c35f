#!/usr/bin/env bash
# ABAB: `tdleaf bench search --no-engines --json` in a checkout of the code before
# (BEFORE, a git worktree) and in this one (AFTER), interleaved, N times each; the JSON
# reports go to OUT as before-I.json and after-I.json. Run on a quiet machine.
#   BEFORE=/path/to/worktree AFTER=/path/to/checkout OUT=folder N=5 ./abab.sh
set -u
N=${N:-5}
mkdir -p "$OUT"
for i in $(seq 1 "$N"); do
  (cd "$BEFORE" && PYTHONPATH=$PWD tdleaf bench search --no-engines --json > "$OUT/before-$i.json")
  (cd "$AFTER" && PYTHONPATH=$PWD tdleaf bench search --no-engines --json > "$OUT/after-$i.json")
  echo "pair $i done $(date -u +%H:%M:%S)"
done
