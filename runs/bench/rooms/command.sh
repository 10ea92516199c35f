# The move into rooms, held to the same results and speed (README.md here). Base: 4227e9b9,
# the last commit before the move, in a git worktree; run from the repository root.
git worktree add ../before-rooms 4227e9b9
(cd ../before-rooms && PYTHONPATH=$PWD python "$OLDPWD/runs/bench/rooms/pins.py" /tmp/before.json)
PYTHONPATH=$PWD python runs/bench/rooms/pins.py /tmp/after.json
cmp /tmp/before.json /tmp/after.json && gzip -c /tmp/before.json > runs/bench/rooms/before.json.gz \
    && gzip -c /tmp/after.json > runs/bench/rooms/after.json.gz
# ABAB: 2026-12-07 19:34-19:58 UTC, nothing else running.
BEFORE=../before-rooms AFTER=. OUT=runs/bench/rooms/abab N=5 runs/bench/search-abab/abab.sh
gzip runs/bench/rooms/abab/*.json
python3 runs/bench/search-abab/summary.py runs/bench/rooms/abab > runs/bench/rooms/abab/summary.txt
# In one process: the base's search with this checkout's variants/ (the benchmark needs the
# rules shared; they differ by the error base class and comments), a throwaway branch.
(cd ../before-rooms && git checkout -b rooms-base-shim && git checkout main -- variants \
    && git commit -qm "shim: 4227e9b9's search with the rooms' variants/")
tdleaf bench speedup --base rooms-base-shim --rounds 5 --json > runs/bench/rooms/speedup.json
tdleaf bench speedup --base rooms-base-shim --variant chess suicide atomic --rounds 20 --json \
    > runs/bench/rooms/speedup-20.json
gzip runs/bench/rooms/speedup*.json
# The method's bias and noise: the base against itself, from the base's worktree (its own
# tdleaf bench speedup), the same settings.
(cd ../before-rooms && PYTHONPATH=$PWD tdleaf bench speedup --base rooms-base-shim \
    --variant chess suicide atomic --rounds 20 --json) > runs/bench/rooms/speedup-base-self-20.json
gzip runs/bench/rooms/speedup-base-self-20.json
