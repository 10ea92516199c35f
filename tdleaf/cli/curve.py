"""``tdleaf curve``: learning curves, the strength of a learner's weights as it learns."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import add_command
from .tools import CliError, add_backend_options, backend_of, exclusive, positive_int

DESCRIPTION = """\
Measure learning curves: for each 'tdleaf learn' result folder RUN, the mean over its
runs of the weights at every snapshot (saved by each run after 60, 125, 250, 500, 1000,
2000, ... games and its last; the counts all runs have so far) and at the untrained
start (game 0, the initial weights) plays --games games against a fixed opponent at
--depth, from seeded random openings with both colours (the same openings at every
point). Elo with its 95% interval (game pairs, else games) against the opponent, and
the CPU hours learning spent to reach each point (process time summed over runs; wall
time for runs written before tdleaf recorded it), go to RUN/curve.json; each point's
PGN and match summary to RUN/curve/. With --label NAME (another opponent, say), the
curve goes to RUN/curve-NAME.json and RUN/curve-NAME/ instead, beside the others.

Rerun the same command to carry on after an interruption, or when the learning job has
saved more snapshots: finished games are kept (a kill loses the games in progress).
'tdleaf plot --curves RUN...' draws the curves of several folders in one figure."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``curve`` command."""
    p = add_command(subparsers, "curve", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", metavar="RUN", nargs="+", help="result folders of 'tdleaf learn'")
    p.add_argument("--opponent", default="traditional", metavar="PLAYER",
                   help="the fixed opponent: any player of 'tdleaf match' (a value set, a "
                        "weights file or result folder, uci:COMMAND, xboard:COMMAND; default "
                        "traditional)")
    p.add_argument("--depth", type=positive_int, default=3, metavar="D",
                   help="search depth of both players (default 3)")
    p.add_argument("--games", type=positive_int, default=200, metavar="N",
                   help="games per point (default 200; pairs of games share an opening)")
    p.add_argument("--random-plies", type=int, default=8, metavar="K",
                   help="random moves that open each pair of games (default 8)")
    p.add_argument("--seed", type=int, default=0, help="seed of the openings (default 0)")
    p.add_argument("--max-plies", type=positive_int, default=400, metavar="N",
                   help="draw when a game reaches N plies (default 400)")
    add_backend_options(p, "games", "1: in this process")
    p.add_argument("--label", default="", metavar="NAME",
                   help="a curve of its own, in RUN/curve-NAME.json and RUN/curve-NAME/ "
                        "(for example against another opponent); default RUN/curve.json")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``tdleaf curve``."""
    from tdleaf.learn.curve import (
        CurveConfig,
        check_opponent,
        check_settings,
        plan_curve,
        play_curve,
    )

    ccfg = CurveConfig(opponent=args.opponent, depth=args.depth, games=args.games,
                       random_plies=args.random_plies, seed=args.seed,
                       max_plies=args.max_plies, backend=backend_of(args), label=args.label)
    ccfg.validate()
    plans = [plan_curve(r) for r in args.runs]     # every folder checked before a game
    for plan in plans:
        check_settings(plan.path, ccfg)
        check_opponent(ccfg, plan.cfg.variant)
    points = sum(len(p.points) for p in plans)
    print(f"tdleaf curve: {len(plans)} folder(s), {points} points x {ccfg.games} games against "
          f"{ccfg.opponent} at depth {ccfg.depth}, {ccfg.backend.describe()}", file=sys.stderr,
          flush=True)
    from tqdm import tqdm

    from .tools import say_if_compiling
    say_if_compiling()
    bar = tqdm(total=points * ccfg.games, unit="game", disable=args.no_progress,
               dynamic_ncols=True, smoothing=0.1)
    results = []

    def progress(path: Path, games: int, summary: Any, outcome: Any) -> None:
        bar.update(1 if outcome is not None else summary.games)   # None: the games resumed
        bar.set_postfix_str(f"{path.name} @{games}: {summary.progress_line()}", refresh=False)

    try:
        for plan in plans:
            folder = plan.path / ccfg.folder
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise CliError(f"cannot write {folder}: {exc.strerror or exc}") from None
            with exclusive(folder, "curve"):
                results.append(play_curve(plan, ccfg, progress))
    except KeyboardInterrupt:
        bar.close()
        print("\ntdleaf curve: interrupted; rerun the same command to carry on", file=sys.stderr)
        return 130
    finally:
        bar.close()
    for plan, data in zip(plans, results):
        print(f"{plan.path} ({data['variant']}, {data['method']}, {data['features']}) against "
              f"{data['opponent']} at depth {data['depth']}: {plan.path / ccfg.file}")
        print(f"  {'games':>6} {'CPU h':>7} {'Elo':>7}  {'95% interval':<16} {'score':>6} "
              f"{'played':>6}")
        for pt in data["points"]:
            ci = pt["elo_ci"]
            interval = f"[{_elo(ci[0], '-inf')}, {_elo(ci[1], '+inf')}]" if ci else "none"
            elo = _elo(pt["elo"], "+inf" if pt["score"] == 1 else "-inf")
            print(f"  {pt['games']:>6} {pt['cpu_hours']:>7.3f} {elo:>7}  "
                  f"{interval:<16} {pt['score']:>6.3f} {pt['games_played']:>6}")
    return 0


def _elo(x: float | None, infinite: str) -> str:
    """An Elo as printed; None (out of range in JSON) as ``infinite``."""
    return infinite if x is None else f"{x:+.0f}"
