"""``tdleaf tournament``: the report's pairings, a round robin or a gauntlet."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from . import add_command
from .match import add_game_options, adjudication, parse_options, warn_early
from .tools import CliError, backend_of, exclusive, positive_int

DESCRIPTION = """\
Play a tournament: a set of pairings, each a match (see 'tdleaf match --help' for the
players, limits, openings and adjudication), with one PGN per pairing in --out and the
table as Markdown (table.md), CSV (table.csv) and JSON (summary.json), rewritten after
every pairing.

Plans:
  paper       the report's pairings for --variant (Droste & Fürnkranz 2008, tables
              5.2-8.2): learnt vs traditional, vs the engine's original values
              (Sunsetter's), vs Sjeng's values, vs the average piece-square values, and
              piece-square vs learnt (chess: also piece-square vs the Sjeng engine),
              with the report's won/lost/draw/ratio and sign test beside ours; then
              one it could not play: learnt vs the report's own learnt values (value
              set 'report'; not in giveaway/antichess, where it learnt none: they end
              on learnt vs the multi-variant Stockfish's values, value set
              'stockfish'). King of the hill, three-check, racing kings and horde:
              learnt vs traditional, vs stockfish, vs avg-psq, and psq vs learnt.
              learnt and psq are the shipped reference weights unless --learnt /
              --psq name result folders; avg-psq is derived from psq's tables.
  roundrobin  every pair of --players
  gauntlet    the first of --players against each of the others

--option NAME.KEY=VALUE sets one player's own setting: NAME is a player's position in
--players (1, 2, ...), or for the paper plan one of learnt, psq, traditional, original,
report, sjeng, losers, avg-psq, sjeng-engine (e.g. sjeng-engine.movetime=1)."""



def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` command."""
    p = add_command(subparsers, "tournament", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--plan", choices=["paper", "roundrobin", "gauntlet"], default="paper")
    p.add_argument("--players", nargs="+", default=[], metavar="PLAYER",
                   help="players of a round robin or gauntlet (as for 'tdleaf match')")
    p.add_argument("--learnt", metavar="DIR", help="paper plan: the material result folder")
    p.add_argument("--psq", metavar="DIR", help="paper plan: the piece-square result folder")
    add_game_options(p)
    p.add_argument("--games", type=positive_int, default=400, metavar="N",
                   help="games per pairing (default 400; the report played 2,000)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME.KEY=VALUE",
                   help="one player's setting (repeatable)")
    p.add_argument("--out", metavar="DIR",
                   help="tournament folder (default runs/tournaments/<time>-<variant>-<plan>)")
    p.add_argument("--pairings", type=_pairing_list, metavar="K[,K...]",
                   help="play only these pairings of the plan (1-based, as numbered in "
                        "its files); the whole plan run later with --resume in the same "
                        "--out carries on from them (e.g. the pairings that need no "
                        "piece-square player while its experiment still runs); the tables "
                        "also show the other pairings already played in --out")
    p.add_argument("--resume", action="store_true", help="carry on the tournament in --out")
    p.add_argument("--no-progress", action="store_true", help="no live progress line")
    p.set_defaults(run=run)


def _pairing_list(text: str) -> frozenset[int]:
    try:
        ks = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers like 1,2; got {text!r}") from None
    if not ks or min(ks) < 1:
        raise argparse.ArgumentTypeError(f"pairings are numbered from 1; got {text!r}")
    return frozenset(ks)


def run(args: argparse.Namespace) -> int:
    from tdleaf.play.match import MatchConfig, PlayerConfig
    from tdleaf.play.players import is_external
    from tdleaf.play.tournament import (
        PAPER_NAMES,
        Tournament,
        chosen_pairings,
        paper_players,
        plan_pairings,
        side_settings,
    )
    from variants import canonical_variant

    variant = canonical_variant(args.variant)
    if args.resume and not args.out:
        raise CliError("--resume needs --out DIR (the tournament to carry on)")
    if args.plan == "paper" and args.players:
        raise CliError("--players is for --plan roundrobin or gauntlet")
    out = Path(args.out) if args.out else Path("runs") / "tournaments" / (
        f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{variant}-{args.plan}")
    try:
        names = paper_players(variant, out, args.learnt, args.psq) if args.plan == "paper" else None
        pairings = plan_pairings(args.plan, variant, args.players, names)
    except ValueError as exc:        # a TournamentError, or a player spec that is not one
        raise CliError(str(exc)) from None
    only = None
    if args.pairings is not None:
        if max(args.pairings) > len(pairings):
            raise CliError(f"--pairings {max(args.pairings)}: the {args.plan} plan has "
                           f"{len(pairings)} pairing(s)")
        only = frozenset(k - 1 for k in args.pairings)
    if names is not None:
        chosen = [p for _, p in chosen_pairings(pairings, only)]
        used = {p.a for p in chosen} | {p.b for p in chosen}
        sides = {n: names[n] for n in PAPER_NAMES if names.get(n) in used}
    else:
        sides = {str(i + 1): spec for i, spec in enumerate(args.players)}
    options = parse_options(args.option, list(sides))
    shared = {k: getattr(args, k) for k in ("depth", "nodes", "movetime") if getattr(args, k)}
    if args.movetime is not None and not args.movetime > 0:
        raise CliError(f"--movetime must be > 0, got {args.movetime}")
    settings = {spec: side_settings(spec, options.get(name, {}), bool(shared or args.tc))
                for name, spec in sides.items()}
    base = MatchConfig(variant=variant, a=PlayerConfig("-", shared), b=PlayerConfig("-", shared),
                       games=args.games, random_plies=args.random_plies,
                       openings_file=args.openings, seed=args.seed, tc=args.tc,
                       time_margin=args.time_margin, adjudication=adjudication(args),
                       backend=backend_of(args))
    base.validate()
    tournament = Tournament(base, pairings, out, settings, only)
    print(f"tdleaf tournament: {args.plan}, {variant}, "
          f"{len(pairings) if only is None else len(only)} pairing(s) x "
          f"{args.games} games; results in {out}", file=sys.stderr, flush=True)
    if not all(is_external(spec) for spec in settings):
        from .tools import say_if_compiling
        say_if_compiling()      # else a cold cache holds the first game for a minute
    last: dict[str, Any] = {}

    def progress(k: int, pairing: Any, summary: Any, outcome: Any) -> None:
        warn_early(summary, last.setdefault(f"warned {k}", {}))
        if args.no_progress or outcome is None:
            return
        every = max(1, args.games // 10)
        if summary.games % every == 0 or summary.games == args.games:
            print(f"[{k + 1}/{len(pairings)} {pairing.label}: {summary.games}/{args.games}] "
                  f"{summary.progress_line()}", file=sys.stderr, flush=True)
        last["k"] = k

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot write to {out}: {exc.strerror or exc}") from None
    try:
        with exclusive(out, "tournament"):
            tournament.run(resume=args.resume, progress=progress)
    except KeyboardInterrupt:
        print(f"\ntdleaf tournament: interrupted; carry on with --resume --out {out}",
              file=sys.stderr)
        return 130
    print((out / "table.md").read_text())
    return 0
