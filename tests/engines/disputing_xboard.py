"""An XBoard engine that disputes the rules, for the match tests.

    python disputing_xboard.py MODE [N]

plays random legal moves (python-chess's rules) for its first N moves (default 2),
then answers its opponent's next move with an error, as Sjeng answers a castling that
FICS suicide forbids:

* ``dispute``: ``Illegal move: MOVE``, naming the move it was sent (a rules dispute);
* ``confused``: ``Illegal move: a1a1``, naming a move nobody played (its own failure).
"""

from __future__ import annotations

import random
import sys

import chess
import chess.variant

VARIANTS = {"normal": chess.Board, "suicide": chess.variant.SuicideBoard,
            "giveaway": chess.variant.GiveawayBoard}


def main() -> None:
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rng = random.Random(1)
    cls: type[chess.Board] = chess.Board
    board = cls()
    played = 0
    refused = False
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        cmd, args = tokens[0], tokens[1:]
        if cmd == "protover":
            print('feature myname="Disputer" setboard=1 usermove=1 ping=1 sigint=0 '
                  f'sigterm=0 variants="{",".join(VARIANTS)}" done=1', flush=True)
        elif cmd == "ping":
            print(f"pong {args[0]}", flush=True)
        elif cmd == "new":
            cls, refused = chess.Board, False
            board = cls()
        elif cmd == "variant":
            cls = VARIANTS[args[0]]
            board = cls()
        elif cmd == "setboard":
            board = cls(" ".join(args))
        elif cmd == "usermove":
            if played >= after and not refused:
                refused = True
                named = args[0] if mode == "dispute" else "a1a1"
                print(f"Illegal move: {named}", flush=True)
                continue
            board.push_uci(args[0])
        elif cmd == "go" and not refused:
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            played += 1
            print(f"move {move.uci()}", flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
