"""Fairy-Stockfish's depth on this machine in the very positions a ladder rung recorded:
each game of the chosen batches replayed move by move, Fairy-Stockfish asked for its
move at the game's own settings (``UCI_Elo`` or Skill Level, 0.1 s a move, one
``ucinewgame`` a game, as in the ladder) wherever it moved, and the depth it reports set
beside the depth its PGN comment recorded. A paired test of whether the machine, not the
positions, made it search deeper (runs/strength/opponent-depth.md).

    python runs/strength/opponent_replay.py RUNG_FOLDER FIRST LAST [--movetime 0.1]
                                            [--nodes N ...] [--engine fairy-stockfish]

Prints one markdown row per limit: the rung, the batches, the limit, the moves compared,
the mean recorded depth, the mean depth now, the mean difference with its 95% interval
and the mean nodes searched now. ``--nodes N ...`` asks at a node limit instead, one
replay per N: the limit that searches as deep as the recorded games, on any machine
(runs/strength/opponent-nodes.md).
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
    Level=-1`` as UCI options (the move limit, a movetime, nodes or depth, left out)."""
    pairs = re.findall(r"([A-Za-z_][A-Za-z_ ]*?)=(\S+)", settings)
    return {k.strip(): v for k, v in pairs if k.strip() not in ("movetime", "nodes", "depth")}


def settings_of(game: chess.pgn.Game) -> dict[str, str]:
    """The opponent's options in a ladder game: its Settings header, or in games saved
    before those headers (atomic's depth rungs), its name's ``(UCI_Elo 1900)`` or
    ``(Skill Level -3)``."""
    white_is_tdleaf = game.headers["White"].startswith("tdleaf")
    tag = "BlackSettings" if white_is_tdleaf else "WhiteSettings"
    if tag in game.headers:
        return options(game.headers[tag])
    label = re.search(r"\((UCI_Elo|Skill Level) (-?\d+)\)$",
                      game.headers["Black" if white_is_tdleaf else "White"])
    if label is None:
        raise ValueError(f"no settings of the opponent in {game.headers['Event']!r}")
    if label[1] == "UCI_Elo":
        return {"UCI_LimitStrength": "true", "UCI_Elo": label[2]}
    return {"Skill Level": label[2]}


def shift(pairs: list[tuple[int, int]]) -> tuple[float, float]:
    """The mean of depth now less depth recorded over (recorded, now) pairs, and the
    half-width of its 95% interval."""
    diffs = [now - then for then, now in pairs]
    return (statistics.mean(diffs),
            1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan)


def replay(folder: Path, first: int, last: int, command: str | list[str],
           movetime: float = 0.1, nodes: int | None = None,
           searched: list[int] | None = None) -> list[tuple[int, int]]:
    """(recorded depth, depth now) of Fairy-Stockfish's scored non-mate moves, asked now
    for ``movetime`` seconds a move (the ladder's 0.1 s; less: what this machine needs
    to search as deep as the one that played them) or, given ``nodes``, for that many
    nodes a move, whatever the machine; the nodes each searched are appended to
    ``searched``."""
    pairs = []
    limit = chess.engine.Limit(nodes=nodes) if nodes else chess.engine.Limit(time=movetime)
    engine = chess.engine.SimpleEngine.popen_uci(command)
    try:
        for _, game in games(folder, first, last):
            engine.configure({k: v for k, v in settings_of(game).items()
                              if k in engine.options})
            marker = object()
            for by_tdleaf, board, recorded in scored_moves(game):
                if by_tdleaf:
                    continue
                result = engine.play(board, limit, game=marker, info=chess.engine.INFO_BASIC)
                if "depth" in result.info:
                    pairs.append((recorded, int(result.info["depth"])))
                    if searched is not None:
                        searched.append(int(result.info.get("nodes", 0)))
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
    p.add_argument("--nodes", type=int, nargs="*", default=[],
                   help="node limits to replay at instead of --movetime, one replay each")
    p.add_argument("--engine", default=shutil.which("fairy-stockfish") or "fairy-stockfish")
    args = p.parse_args()
    for nodes in args.nodes or [None]:
        searched: list[int] = []
        pairs = replay(args.folder, args.first, args.last, args.engine, args.movetime, nodes,
                       searched)
        mean, half = shift(pairs)
        limit = f"{nodes} nodes" if nodes else f"{args.movetime:g} s"
        print(f"| {args.folder.parent.parent.name} {args.folder.name} | {args.first}-{args.last} "
              f"| {limit} | {len(pairs)} | {statistics.mean(p[0] for p in pairs):.2f} "
              f"| {statistics.mean(p[1] for p in pairs):.2f} "
              f"| {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] "
              f"| {statistics.mean(searched):,.0f} |", flush=True)


if __name__ == "__main__":
    main()
