"""Issue 63: do a check's games and the ladder's rungs play under the same conditions?

For one check (runs/strength/check/<variant>-<elo>, or another ``--check`` folder's):
1. tdleaf: its recorded moves replayed through the ladder's own player (the internal
   ``default`` player: a 16 MB table, cleared at each new game and kept between moves)
   at the node budget the check played (its folder's limit.json), counting the moves it
   reproduces (the check played ``tdleaf uci``: 64 MB, the budget from UCI_Elo);
2. Fairy-Stockfish at that UCI_Elo: its median depth and mean time a move in the check
   and in the ladder's node-rung games against the same setting.

    python runs/strength/conditions.py VARIANT ELO [--games N] [--check FOLDER]
"""

import argparse
import gzip
import statistics
from pathlib import Path

import chess.pgn
from report import played  # this folder's: the limit a check played

from tdleaf.play.gamefiles import read_pgn_games
from tdleaf.play.ladder import rung_batches
from tdleaf.play.pgn import scored_comment
from tdleaf.play.players import InternalPlayer
from variants import Position

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def replay(variant: str, nodes: int, games: list[chess.pgn.Game]) -> tuple[int, int]:
    """(tdleaf's moves the ladder's player reproduces at ``nodes``, tdleaf's moves)."""
    player = InternalPlayer("default", {"nodes": nodes})
    player.start(variant)
    same = total = 0
    for game in games:
        player.new_game(0)
        tdleaf = game.headers["White"] == "tdleaf"
        pos = Position.start(variant)
        for node in game.mainline():
            if node.parent.turn() == tdleaf and scored_comment(node.comment) is not None:
                answer = player.play(pos, player.limits)
                total += 1
                same += answer.move == node.move.uci()
            pos.push_uci(node.move.uci())
    return same, total


def engine_moves(games: list[chess.pgn.Game]) -> tuple[list[int], list[float]]:
    """Fairy-Stockfish's depths and times a move (the side not named tdleaf*)."""
    depths, times = [], []
    for game in games:
        engine_white = not game.headers["White"].startswith("tdleaf")
        for node in game.mainline():
            comment = scored_comment(node.comment)
            if comment is not None and node.parent.turn() == engine_white:
                depths.append(comment[1])
                times.append(comment[2])
    return depths, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("elo", type=int)
    parser.add_argument("--games", type=int, default=100, help="check games to replay")
    parser.add_argument("--check", type=Path, default=HERE / "check",
                        help="the folder of checks (default: runs/strength/check)")
    args = parser.parse_args()
    folder = args.check / f"{args.variant}-{args.elo}"
    with gzip.open(folder / "games.pgn.gz", "rt") as fh:
        check = [g for _, g, _ in read_pgn_games(fh.read(), args.variant, str(folder))]
    nodes = played(args.variant, args.elo, folder)["nodes"]
    same, total = replay(args.variant, nodes, check[:args.games])
    print(f"tdleaf: the ladder's player reproduces {same} of {total} moves "
          f"({len(check[:args.games])} games)")
    setting = f"(UCI_Elo {args.elo})"
    rungs = [g for rung in sorted(ROOT.glob(f"runs/ladders/{args.variant}-nodes*/*/nodes-*"))
             for entry, text in rung_batches(rung)
             for _, g, _ in read_pgn_games(text, args.variant, f"{rung}, batch {entry['batch']}")
             if setting in g.headers["White"] + g.headers["Black"]]
    for name, games in (("the check", check), (f"the rungs' games at {args.elo}", rungs)):
        depths, times = engine_moves(games)
        print(f"Fairy-Stockfish in {name}: {len(games)} games, {len(depths)} moves, median "
              f"depth {statistics.median(depths):g}, mean {statistics.mean(times):.3f} s a move")


if __name__ == "__main__":
    main()
