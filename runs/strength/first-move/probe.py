"""Issue 63, item 4: the first search of a fresh `tdleaf uci` process against the same
search once the process is warm, both at UCI_Elo with 0.1 s a move, as python-chess (and
so lichess-bot) drives it: no isready between the options and the first go.

    python runs/strength/first-move/probe.py VARIANT ELO N OUT.json

For each of N positions (8 random plies from seed 1000 + i): a new process, its first
search of the position; then, in that process, a search of another position and the
first position again (ucinewgame before each: a cold table every time). The depth and
nodes of the two searches of the first position should be the same.
"""
import json
import random
import shutil
import sys
import time

import chess
import chess.engine
import chess.variant

VARIANT, ELO, N, OUT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
CMD = [shutil.which("tdleaf") or "tdleaf", "uci"]
BOARD = chess.variant.find_variant(VARIANT)


def opening(seed: int) -> chess.Board:
    rng, board = random.Random(seed), BOARD()
    for _ in range(8):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def search(eng: chess.engine.SimpleEngine, board: chess.Board) -> dict:
    t0 = time.perf_counter()
    info = eng.analyse(board, chess.engine.Limit(time=0.1), game=object())
    return {"depth": info.get("depth"), "nodes": info.get("nodes"),
            "wall": round(time.perf_counter() - t0, 3)}


out = []
for i in range(N):
    b = opening(1000 + i)       # a new game object each search: python-chess sends ucinewgame
    eng = chess.engine.SimpleEngine.popen_uci(CMD)
    eng.configure({"UCI_LimitStrength": True, "UCI_Elo": ELO})
    first = search(eng, b)
    search(eng, opening(2000 + i))
    warm = search(eng, b)
    eng.quit()
    out.append({"first": first, "warm": warm})
    print(i, first, warm, flush=True)
with open(OUT, "w") as fh:
    json.dump({"variant": VARIANT, "elo": ELO, "movetime": 0.1, "runs": out}, fh, indent=1)
