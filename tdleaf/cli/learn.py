"""``tdleaf learn``: self-play learning runs, TDLeaf(lambda) or a bootstrapping learner
(docs/learning.md)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import add_command
from .tools import CliError, add_backend_options, backend_of, exclusive, say_if_compiling

if TYPE_CHECKING:
    from tdleaf.learn.config import LearnConfig

DESCRIPTION = """\
Learn evaluation weights by self-play with TDLeaf(lambda) and temporal-coherence
learning rates (Droste & Fuernkranz 2008), or with a learner that updates after every
move from its search (--method: RootStrap, TreeStrap; Veness et al. 2009): --runs
independent runs of --games games each, every weight starting at 1 (see --init),
spread over worker processes (or a Ray cluster).

The defaults are the report's small experiment, 10 runs x 2,000 games at depth 5:
hours of CPU time. For a first look: --runs 2 --games 50 --depth 2 (a few minutes).

The result folder (--out) gets config.json, one folder per run (checkpoint,
history.csv, games.pgn, snapshots/ of the weights at 60, 125, 250, ... games for
'tdleaf curve'), the averaged weights.json with weights_std.json and summary.json, and
the figures in figures/ (report.md links them). The values printed
at the end are normalised as the report does: the mean over runs, scaled so that one
piece has a fixed value (below), +- the standard deviation over runs; raw weights,
with a warning, while that piece's mean is near 0 or of the other sign. Interrupt at
any time (Ctrl-C) and carry on with --resume --out DIR.

The first run after an install or upgrade compiles the engine first (1-2 minutes;
'tdleaf warmup' does it ahead)."""

#: Option -> LearnConfig field. The defaults are the config's (tdleaf.learn.config).
_OPTIONS = {
    "features": "features", "games": "games", "runs": "runs", "depth": "depth", "lam": "lam",
    "omega": "omega", "alpha": "alpha", "noise": "noise", "init": "init", "seed": "seed",
    "max_plies": "max_plies", "hash": "hash_mb", "qlimit": "qlimit", "search": "search",
    "pgn_every": "pgn_every", "random_plies": "random_plies", "method": "method",
    "coherence": "coherence", "nodes": "nodes", "clip": "clip",
    "quiescence_nodes": "quiescence_nodes",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    from tdleaf.learn.config import METHODS, TABLE_NOISE, default
    from variants import spec
    scaling = textwrap.fill(f"Normalised so that {spec.normalisation_text()}.", 84)
    p = add_command(subparsers, "learn", description=f"{DESCRIPTION}\n\n{scaling}",
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", help=f"{spec.variant_list()} (required unless --resume)")
    from search.layout import FEATURE_SETS, block_help
    p.add_argument("--features", metavar="SET[+BLOCK...]",
                   help=f"{' or '.join(FEATURE_SETS)}: material values only (default), or "
                        "material + piece-square tables; then +BLOCK adds a registered "
                        "block, held and learnt (e.g. psq+mobility); or 'all': psq and every "
                        "block that fits the variant (saved spelt out). Blocks: "
                        f"{block_help()}")
    p.add_argument("--games", type=int, metavar="N",
                   help=f"games per run (default {default('games')})")
    p.add_argument("--runs", type=int, metavar="R",
                   help=f"independent runs (each its own seed), averaged at the end "
                        f"(default {default('runs')})")
    p.add_argument("--depth", type=int, metavar="D",
                   help=f"search depth in plies, plus quiescence (default {default('depth')})")
    p.add_argument("--method", choices=METHODS,
                   help="the learner: tdleaf (default: TDLeaf(lambda), the report's: each "
                        "move's PV leaf toward the next move's search, one update a game); "
                        "or, updating after every move toward that move's own search "
                        "(Veness et al. 2009): rootstrap (the root), treestrap (every node "
                        "with an exact value) or treestrap-ab (every node, exact values and "
                        "one-sided alpha-beta bounds); see tdleaf/learn/bootstrap.py")
    p.add_argument("--no-coherence", dest="coherence", action="store_const", const=False,
                   help="one learning rate for every weight (--alpha alone) instead of "
                        "per-weight temporal-coherence rates (any --method)")
    p.add_argument("--nodes", type=int, metavar="N",
                   help="rootstrap/treestrap: interior nodes kept per search, a seeded "
                        f"reservoir sample beyond (default {default('nodes')})")
    p.add_argument("--quiescence-nodes", dest="quiescence_nodes", action="store_const",
                   const=True, help="rootstrap/treestrap: also learn from the quiescence "
                                    "nodes whose captures changed their value (default: "
                                    "interior nodes only)")
    p.add_argument("--clip", type=float, metavar="P",
                   help="rootstrap/treestrap: search values (mates) clipped to +-P pawns "
                        f"(default {default('clip'):g})")
    p.add_argument("--lambda", dest="lam", type=float, metavar="L",
                   help="TD(lambda) decay in [0, 1]: how far back a later position's error "
                        f"reaches (default {default('lam')})")
    p.add_argument("--omega", type=float, metavar="W",
                   help="steepness of the squashing 1/(1+exp(-W*score)), per pawn of score "
                        f"(default {default('omega')})")
    p.add_argument("--alpha", type=float, metavar="A",
                   help="global learning rate, times each weight's temporal-coherence rate "
                        f"(default {default('alpha')})")
    p.add_argument("--noise", type=float, metavar="X",
                   help="evaluation noise: each evaluation times 1 + a uniform number in "
                        f"[-X, X], so games differ (default 0 for material, {TABLE_NOISE:g} for psq)")
    p.add_argument("--init", metavar="WEIGHTS",
                   help="start weights: 'ones' (default: pieces 1, tables 0), 'random' "
                        "(learned weights uniform in +-0.1, seeded per run), a value set "
                        "(e.g. traditional) or a weights.json")
    p.add_argument("--seed", type=int,
                   help="master seed: every run and game takes its seed from it, so a job "
                        f"is reproducible (default {default('seed')})")
    p.add_argument("--max-plies", dest="max_plies", type=int, metavar="N",
                   help=f"adjudicate a draw after this many plies (default {default('max_plies')})")
    p.add_argument("--hash", type=int, metavar="MB",
                   help=f"transposition table MB per worker (default {default('hash_mb')})")
    p.add_argument("--qlimit", type=int, metavar="N",
                   help=f"quiescence plies at most (default {default('qlimit')}); lower it where capture "
                        "chains make games slow (suicide, giveaway)")
    p.add_argument("--search", choices=["plain", "selective"],
                   help="the search that plays the games: selective (null move, reductions, "
                        "pruning; default, chosen by measurement, see BENCHMARKS.md) or "
                        "plain (full width, the report's setting)")
    p.add_argument("--pgn-every", dest="pgn_every", type=int, metavar="N",
                   help="keep every N-th game of a run in its games.pgn (default 1: all; "
                        "0: none); learning does not depend on it")
    p.add_argument("--random-plies", dest="random_plies", type=int, metavar="K",
                   help="start every game with K uniformly random legal moves, seeded per "
                        "game and not learnt from (default 0: the initial position, as the "
                        "report). For when self-play keeps repeating one game: chess with "
                        "tables needed 4 (RESULTS.md)")
    add_backend_options(p, "runs", "the number of CPUs, at most the runs")
    p.add_argument("--out", metavar="DIR",
                   help="result folder (default runs/<variant>-<features>-<time>)")
    p.add_argument("--resume", action="store_true",
                   help="carry on an interrupted job in --out DIR to its total, with the "
                        "settings in its config.json (others given must match them)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-plot", action="store_true",
                   help="do not draw the figures in DIR/figures when the job ends (draw "
                        "them later with 'tdleaf plot DIR')")
    p.add_argument("--plot-every", type=int, metavar="N",
                   help="also redraw the figures every N games per run while learning")
    p.set_defaults(run=run)


def _config(args: argparse.Namespace, out: Path) -> tuple[LearnConfig, dict[str, Any]]:
    from tdleaf.learn.config import job_config

    given = {field: getattr(args, opt) for opt, field in _OPTIONS.items()
             if getattr(args, opt) is not None}
    return job_config(out, args.variant, given, args.resume)


def _default_out(args: argparse.Namespace) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    from tdleaf.learn.config import default
    return Path("runs") / f"{args.variant}-{args.features or default('features')}-{stamp}"


def run(args: argparse.Namespace) -> int:
    if args.resume and not args.out:
        raise CliError("--resume needs --out DIR")
    if args.plot_every is not None and args.plot_every < 1:
        raise CliError(f"--plot-every must be >= 1, got {args.plot_every}")
    out = Path(args.out) if args.out else _default_out(args)
    cfg, saved = _config(args, out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise CliError(f"cannot write to {out}: {exc.strerror or exc}") from None
    with exclusive(out, "learn"):
        return _learn(args, out, cfg, saved)


def _learn(args: argparse.Namespace, out: Path, cfg: LearnConfig, saved: dict[str, Any]) -> int:
    """The job itself, with ``out`` locked against a second `tdleaf learn`."""
    from search.files import write_json
    from tdleaf.learn.jobs import run_jobs
    from tdleaf.learn.runs import load_checkpoint, run_dir
    from tdleaf.learn.summary import summarise, summary_lines, summary_problems

    if not args.resume:
        write_json(out / "config.json", saved)

    done = {r: int((load_checkpoint(run_dir(out, r)) or {}).get("games", 0))
            for r in range(cfg.runs)}
    todo = [r for r in range(cfg.runs) if done[r] < cfg.games]
    backend = backend_of(args, local_workers=min(os.cpu_count() or 1, max(1, len(todo))))
    print(f"tdleaf learn: {cfg.variant}, {cfg.features}, {cfg.runs} runs x {cfg.games} games, "
          f"depth {cfg.depth}; {sum(done.values())} games already played; "
          f"{backend.describe()}; results in {out}", flush=True)
    if todo:
        say_if_compiling()
    from plots.live import LivePlots
    figures = LivePlots(out, cfg.runs, args.plot_every, enabled=not args.no_plot)
    bar = _Progress(cfg, done, enabled=not args.no_progress, on_update=figures.update)
    started = time.time()
    try:
        run_jobs(out, cfg, todo, bar.update, backend)
    finally:
        bar.close()
    summary = summarise(out, cfg)
    elapsed = time.time() - started
    print(f"done in {elapsed:.0f} s; averaged weights in {out / 'weights.json'}")
    for why in summary_problems(summary):
        print(f"tdleaf learn: warning: {why}; the raw weights are shown", file=sys.stderr,
              flush=True)
    for line in summary_lines(summary):
        print(line)
    figures.final()
    return 0


class _Progress:
    """A tqdm bar over all games, with games/s, ETA and the latest piece values."""

    def __init__(self, cfg, done: dict[int, int], enabled: bool, on_update=None) -> None:
        from tqdm import tqdm
        self.total = cfg.runs * cfg.games
        self.done = dict(done)
        self.on_update = on_update      # called with the games done per run (figures)
        if on_update is not None:
            on_update(self.done)
        self.bar = tqdm(total=self.total, initial=sum(done.values()), unit="game",
                        disable=not enabled, dynamic_ncols=True, smoothing=0.05)

    def update(self, run: int, games: int, material: list[float]) -> None:
        step = games - self.done.get(run, 0)
        self.done[run] = games
        values = " ".join(f"{p}{v:+.2f}" for p, v in zip("PNBRQK", material))
        self.bar.set_postfix_str(f"run {run}: {values}", refresh=False)
        self.bar.update(step)
        if self.on_update is not None:
            self.on_update(self.done)

    def close(self) -> None:
        self.bar.close()
