"""How deep the ladder's opponent searched, rung by rung and batch range by batch range:
the mean depth of Fairy-Stockfish's scored moves (mates left out: their depth is the
mate's search, not the clock's) and tdleaf's score, read from the rungs' PGN files.

Fairy-Stockfish plays the ladder at 0.1 s a move, so its depth, and where forced lines
decide games its strength at a given ``UCI_Elo``, follow the machine's speed. Batches
played on different machines show it as a step in depth between their ranges.

    python runs/strength/opponent_depth.py RUNG_FOLDER ... [--split 64]

Each RUNG_FOLDER holds a rung's ``batches.json`` and ``games.pgn.gz`` (a gzip member a
batch); ``--split B``: batches 1..B and B+1.. reported apart (0: together).
"""

import argparse
import io
import statistics
from collections.abc import Iterator
from pathlib import Path

import chess.pgn

from tdleaf.play.ladder import rung_batches
from tdleaf.play.pgn import scored_comment


def games(folder: Path, first: int,
          last: int | None) -> Iterator[tuple[int, chess.pgn.Game]]:
    """(batch, game) of a rung's batches first..last (None: to the last one packed)."""
    for entry, text in rung_batches(folder):
        if entry["batch"] < first or (last is not None and entry["batch"] > last):
            continue
        pgn = io.StringIO(text)
        while (game := chess.pgn.read_game(pgn)) is not None:
            yield entry["batch"], game


def last_batch(folder: Path) -> int:
    """The number of a rung's last packed batch (0: none yet)."""
    return max((entry["batch"] for entry, _ in rung_batches(folder)), default=0)


def scored_moves(game: chess.pgn.Game) -> Iterator[tuple[bool, chess.Board, int]]:
    """(whether tdleaf moved, the board before the move, the recorded depth) of each move
    with a score that is not a mate. The board is the live one: use it before the next."""
    tdleaf_white = game.headers["White"].startswith("tdleaf")
    board = game.board()
    for node in game.mainline():
        scored = scored_comment(node.comment)
        if scored is not None and abs(scored[0]) != 1000.0:
            yield (board.turn == chess.WHITE) == tdleaf_white, board, scored[1]
        board.push(node.move)


def batch_range(folder: Path, first: int, last: int | None) -> dict[str, float]:
    """Games, tdleaf's score and each side's mean depth over batches first..last."""
    score, played, last_batch = 0.0, 0, first - 1
    depth: dict[str, list[int]] = {"opponent": [], "tdleaf": []}
    for last_batch, game in games(folder, first, last):
        result = game.headers["Result"]
        if result == "*":
            continue
        played += 1
        white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        score += white_points if game.headers["White"].startswith("tdleaf") else 1 - white_points
        for by_tdleaf, _, d in scored_moves(game):
            depth["tdleaf" if by_tdleaf else "opponent"].append(d)
    return {"first": first, "last": last_batch, "games": played,
            "tdleaf_score": score / played if played else float("nan"),
            **{f"{side}_depth": statistics.mean(d) if d else float("nan")
               for side, d in depth.items()}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--split", type=int, default=64)
    args = p.parse_args()
    print("| rung | batches | games | tdleaf's score | Fairy-Stockfish's mean depth "
          "| tdleaf's mean depth |")
    print("|---|---|---|---|---|---|")
    for folder in args.folders:
        ranges = [(1, args.split), (args.split + 1, None)] if args.split else [(1, None)]
        for first, last in ranges:
            r = batch_range(folder, first, last)
            if r["games"]:
                print(f"| {folder.parent.parent.name} {folder.name} | {r['first']}-{r['last']} "
                      f"| {r['games']} | {r['tdleaf_score']:.3f} | {r['opponent_depth']:.2f} "
                      f"| {r['tdleaf_depth']:.2f} |")


if __name__ == "__main__":
    main()
