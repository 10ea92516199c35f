# Issue 63, item 4: the first search of a fresh `tdleaf uci` against the same search warm,
# UCI_Elo 1900 at 0.1 s a move, 8 positions each, through python-chess. before-*.json: the
# engine of commit 1d33d4e; after-*.json: with load_compiled touching the table's pages.
# Run with the machine otherwise idle (the background matches stopped with kill -STOP).
python runs/strength/first-move/probe.py crazyhouse 1900 8 runs/strength/first-move/after-crazyhouse.json
python runs/strength/first-move/probe.py chess 1900 8 runs/strength/first-move/after-chess.json
