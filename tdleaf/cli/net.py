"""``tdleaf net``: a network taught by tdleaf (its training data, so far)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import add_command
from .tools import CliError, add_backend_options, backend_of, exclusive, positive_int

DATA = """\
Write a network's training data: games of the teacher (--teacher: the variant's default
evaluation, a value set such as 'traditional', or a weights file) against itself with the
selective search at --depth, after --random-plies random moves; with probability
--sample a ply plays a move drawn from the prior's policy instead, so that games differ.
Every position the teacher searched is kept with its legal moves (policy indices, see
docs/network.md), the prior's softmax over them (depth 1, the fitted temperature), the
search's best move and score, and the game's result; a position already seen in an
earlier game is left out. Games are written in order into shards of --games-per-shard
games with a manifest (each shard's sha256, the encoding version); every game is
journalled as it ends, so a killed job loses at most the games being played, and the
same command with --resume carries on. A game's positions depend only on the settings
and its index: the data is the same on every backend."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``net`` command group."""
    p = add_command(subparsers, "net",
                    description="A network taught by tdleaf. Run 'tdleaf net COMMAND --help' "
                                "for the options of one.")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")
    p.set_defaults(run=None, parser=p)

    from tdleaf.learn.netdata import DataConfig
    d = DataConfig("chess")
    b = sub.add_parser("data", help="write training data: self-play labelled by the search",
                       description=DATA)
    b.add_argument("--variant", required=True, help="the variant")
    b.add_argument("--games", type=positive_int, required=True, metavar="N",
                   help="games in all (with --resume: the total to reach)")
    b.add_argument("--out", required=True, metavar="DIR", help="the data folder")
    b.add_argument("--depth", type=positive_int, default=d.depth, metavar="D",
                   help=f"the teacher's search depth (default {d.depth})")
    b.add_argument("--teacher", default=d.teacher, metavar="EVAL",
                   help="the evaluation that plays and labels (default: the variant's)")
    b.add_argument("--random-plies", type=int, default=d.random_plies, metavar="K",
                   help=f"random opening moves, not kept (default {d.random_plies})")
    b.add_argument("--sample", type=float, default=d.sample, metavar="P",
                   help=f"a ply's chance of a move drawn from the prior (default {d.sample})")
    b.add_argument("--max-plies", type=positive_int, default=d.max_plies, metavar="N",
                   help=f"a game ends drawn at N plies (default {d.max_plies})")
    b.add_argument("--seed", type=int, default=d.seed, help=f"(default {d.seed})")
    b.add_argument("--games-per-shard", type=positive_int, default=d.games_per_shard,
                   metavar="N", help=f"(default {d.games_per_shard})")
    b.add_argument("--resume", action="store_true", help="carry on the data set in --out")
    add_backend_options(b, "games", "1: in this process")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(run=run_data)


def run_data(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net data``."""
    from tqdm import tqdm

    from tdleaf.backend import BackendError
    from tdleaf.learn.netdata import DataConfig, DataError, write_data

    from .tools import say_if_compiling

    cfg = DataConfig(args.variant, games=args.games, depth=args.depth, teacher=args.teacher,
                     random_plies=args.random_plies, sample=args.sample,
                     max_plies=args.max_plies, seed=args.seed,
                     games_per_shard=args.games_per_shard)
    try:
        cfg.validate()
    except DataError as exc:
        raise CliError(str(exc)) from None
    backend = backend_of(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"tdleaf net data: {cfg.variant}, {cfg.games} games, teacher {cfg.teacher} at depth "
          f"{cfg.depth}; {backend.describe()}; data in {out}", file=sys.stderr, flush=True)
    say_if_compiling()
    bar = tqdm(total=cfg.games, unit="game", disable=args.no_progress, dynamic_ncols=True)

    def progress(games: int, positions: int) -> None:
        bar.update(games - bar.n)
        bar.set_postfix_str(f"{positions} positions in shards", refresh=False)

    try:
        with exclusive(out, "net data"):
            manifest = write_data(out, cfg, backend, resume=args.resume, progress=progress)
    except (DataError, BackendError) as exc:
        raise CliError(str(exc)) from None
    finally:
        bar.close()
    print(f"{manifest['games']} games, {manifest['positions']} positions "
          f"({manifest['duplicates']} repeated ones left out) in "
          f"{len(manifest['shards'])} shard(s): {out / 'manifest.json'}")
    return 0
