"""Whether two node budgets play alike: tdleaf at each budget put in the games of one
rung, at its own turns, each game replayed as the ladder played it (its seed, the
search's tables carried from move to move), the moves compared with those the rung
played. A budget replayed in its own rung's games must play every move again (the
replay is faithful); another budget's agreement says how far the two are one player.

    python runs/strength/same_play.py RUNG_FOLDER NODES [NODES ...] [--json OUT]

e.g. ``runs/ladders/atomic-nodes-fill/atomic-fairy-stockfish-wasm/nodes-636 636 639``.
"""

import argparse
import io
import json
import re
import sys
from pathlib import Path

import chess.pgn

from tdleaf.play.ladder.measure import batch_seed, rung_batches
from tdleaf.play.match import game_seed
from tdleaf.play.players import InternalPlayer
from variants import Position


def replay(folder: Path, nodes: int) -> dict[str, int]:
    """Moves of the rung's tdleaf that tdleaf at ``nodes`` plays again, and games whose
    every move it plays again."""
    played = int(folder.name.split("-")[1])
    name = f"tdleaf nodes {played}"
    ladder_seed = json.loads((folder.parents[1] / "ladder.json").read_text())["seed"]
    player: InternalPlayer | None = None
    same = moves = games = whole = 0
    for entry, text in rung_batches(folder):
        b = entry["batch"] - 1
        pgn = io.StringIO(text)
        while (game := chess.pgn.read_game(pgn)) is not None:
            variant = game.headers["Variant"].lower()
            if player is None:
                player = InternalPlayer("default", {"nodes": nodes, "name": name})
                player.start(variant)
            index = int(game.headers["Round"]) - 1
            player.new_game(game_seed(batch_seed(ladder_seed, b), index))
            opening = int(re.search(r"random (\d+) plies", game.headers["Opening"]).group(1))
            ours = game.headers["White"] == name
            pos = Position.from_fen(game.board().fen(), variant)
            agreed = True
            for ply, node in enumerate(game.mainline()):
                move = node.move.uci()
                if ply >= opening and pos.turn == ours:
                    answer = player.play(pos, player.limits)
                    moves += 1
                    same += answer.move == move
                    agreed &= answer.move == move
                pos.push_uci(move)
            games += 1
            whole += agreed
    if player is not None:
        player.close()
    return {"nodes": nodes, "moves": moves, "same_moves": same, "games": games,
            "same_games": whole}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rung", type=Path)
    parser.add_argument("nodes", type=int, nargs="+")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    out = {"rung": str(args.rung), "replays": []}
    for n in args.nodes:
        r = replay(args.rung, n)
        out["replays"].append(r)
        print(f"{args.rung.name} replayed at {n} nodes: {r['same_moves']} of {r['moves']} moves "
              f"the same, {r['same_games']} of {r['games']} games throughout",
              file=sys.stderr, flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
