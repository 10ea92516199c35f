"""Fairy-Stockfish's depth on this machine in the very positions a ladder rung recorded:
each game of the chosen batches replayed move by move, Fairy-Stockfish asked for its
move at the game's own settings (``UCI_Elo`` or Skill Level, 0.1 s a move, one
``ucinewgame`` a game, as in the ladder) wherever it moved, and the depth it reports set
beside the depth its PGN comment recorded. A paired test of whether the machine, not the
positions, made it search deeper (runs/strength/opponent-depth.md).

    python runs/strength/opponent_replay.py RUNG_FOLDER FIRST LAST [--movetime 0.1]
                                            [--engine fairy-stockfish]

Prints one markdown row: the rung, the batches, the moves compared, the mean recorded
depth, the mean depth now, the mean difference with its 95% interval.
"""

import argparse
import math
import re
import shutil
import statistics
from pathlib import Path

import chess.engine
from opponent_depth import games, scored_moves  # beside this file


def options(settings: str) -> dict[str, str]:
    """``movetime=0.1 UCI_LimitStrength=true UCI_Elo=1500`` or ``movetime=0.1 Skill
    Level=-1`` as UCI options (the movetime left out)."""
    pairs = re.findall(r"([A-Za-z_][A-Za-z_ ]*?)=(\S+)", settings)
    return {k.strip(): v for k, v in pairs if k.strip() != "movetime"}


def replay(folder: Path, first: int, last: int, command: str | list[str],
           movetime: float = 0.1) -> list[tuple[int, int]]:
    """(recorded depth, depth now) of Fairy-Stockfish's scored non-mate moves, asked now
    for ``movetime`` seconds a move (the ladder's 0.1 s; less: what this machine needs
    to search as deep as the one that played them)."""
    pairs = []
    engine = chess.engine.SimpleEngine.popen_uci(command)
    try:
        for _, game in games(folder, first, last):
            tag = "BlackSettings" if game.headers["White"].startswith("tdleaf") \
                else "WhiteSettings"
            engine.configure({k: v for k, v in options(game.headers[tag]).items()
                              if k in engine.options})
            marker = object()
            for by_tdleaf, board, recorded in scored_moves(game):
                if by_tdleaf:
                    continue
                result = engine.play(board, chess.engine.Limit(time=movetime), game=marker,
                                     info=chess.engine.INFO_BASIC)
                if "depth" in result.info:
                    pairs.append((recorded, int(result.info["depth"])))
    finally:
        engine.quit()
    return pairs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", type=Path)
    p.add_argument("first", type=int)
    p.add_argument("last", type=int)
    p.add_argument("--movetime", type=float, default=0.1,
                   help="seconds a move now (default 0.1, the ladder's)")
    p.add_argument("--engine", default=shutil.which("fairy-stockfish") or "fairy-stockfish")
    args = p.parse_args()
    pairs = replay(args.folder, args.first, args.last, args.engine, args.movetime)
    diffs = [now - then for then, now in pairs]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    mean = statistics.mean(diffs)
    print(f"| {args.folder.parent.parent.name} {args.folder.name} | {args.first}-{args.last} "
          f"| {len(pairs)} | {statistics.mean(p[0] for p in pairs):.2f} "
          f"| {statistics.mean(p[1] for p in pairs):.2f} "
          f"| {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] |")


if __name__ == "__main__":
    main()
