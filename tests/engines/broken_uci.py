"""A deliberately broken UCI engine for the match tests.

    python broken_uci.py MODE [N [LOG]]

plays random legal moves (python-chess's rules, any variant) for its first N moves
(default 3), then, depending on MODE (each line it reads appended to the file LOG, if
given, before it answers):

* ``illegal``: answers with a well-formed but illegal move;
* ``die``: exits in the middle of the game, without an answer;
* ``hang``: never answers again (but keeps reading its input);
* ``nomove``: answers ``bestmove (none)`` in a position that has moves;
* ``good``: keeps playing legal moves (a control);
* ``unready``: as ``good``, but never answers ``isready``.
"""

from __future__ import annotations

import random
import sys
import time

import chess
import chess.variant

VARIANTS = {"chess": chess.Board, "crazyhouse": chess.variant.CrazyhouseBoard,
            "suicide": chess.variant.SuicideBoard, "giveaway": chess.variant.GiveawayBoard,
            "antichess": chess.variant.AntichessBoard, "atomic": chess.variant.AtomicBoard}


def illegal_move(board: chess.Board) -> str:
    """A move of the side to move's own piece onto its own piece: never legal."""
    ours = list(chess.scan_forward(board.occupied_co[board.turn]))
    for a in ours:
        for b in ours:
            if a != b:
                return chess.Move(a, b).uci()
    return "a1a1"


def main() -> None:
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    log = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(1)
    variant = "chess"
    board = VARIANTS[variant]()
    played = 0
    out = sys.stdout
    for line in sys.stdin:
        if log:
            with open(log, "a") as fh:
                fh.write(line)
        tokens = line.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            print("id name Broken " + mode, file=out)
            print("option name UCI_Variant type combo default chess " +
                  " ".join(f"var {v}" for v in VARIANTS), file=out)
            print("uciok", file=out, flush=True)
        elif cmd == "isready":
            if mode != "unready":
                print("readyok", file=out, flush=True)
        elif cmd == "setoption" and "UCI_Variant" in tokens:
            variant = tokens[-1]
        elif cmd == "position":
            cls = VARIANTS.get(variant, chess.Board)
            if tokens[1] == "startpos":
                board = cls()
                rest = tokens[2:]
            else:
                end = tokens.index("moves") if "moves" in tokens else len(tokens)
                board = cls(" ".join(tokens[2:end]))
                rest = tokens[end:]
            for mv in rest[1:]:
                board.push_uci(mv)
        elif cmd == "go":
            if played >= after and mode not in ("good", "unready"):
                if mode == "illegal":
                    print(f"bestmove {illegal_move(board)}", file=out, flush=True)
                elif mode == "die":
                    sys.exit(3)
                elif mode == "hang":
                    while True:
                        time.sleep(60)
                elif mode == "nomove":
                    print("bestmove (none)", file=out, flush=True)
                continue
            moves = list(board.legal_moves)
            move = rng.choice(moves).uci() if moves else "(none)"
            played += 1
            print("info depth 1 score cp 0", file=out)
            print(f"bestmove {move}", file=out, flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
