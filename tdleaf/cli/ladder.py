"""``tdleaf ladder``: tdleaf's strength at fixed depths and move times, on a real
engine's scale."""

from __future__ import annotations

import argparse
import shlex
import sys
import textwrap
from datetime import datetime
from pathlib import Path
from typing import Any

from variants.spec import SPECS

from . import add_command
from .match import adjudication
from .tools import CliError, add_backend_options, backend_of, positive_int

#: How the help names each reference engine of the spec (``Variant.engines``).
ENGINE_TEXT = {"uci:fairy-stockfish": "Debian's Fairy-Stockfish (fairy-stockfish)",
               "xboard:sjeng": "Sjeng 11.2 (sjeng)",
               "uci:fairy-stockfish-wasm": "the npm fairy-stockfish-nnue.wasm (fairy-stockfish-wasm)"}


def _engines_text() -> str:
    """Each reference engine with the variants it rates, from the variant spec."""
    by_engine: dict[str, list[str]] = {}
    for name, v in SPECS.items():
        for e in v.engines:
            by_engine.setdefault(e, []).append(name)
    return "\n".join(textwrap.fill(f"{ENGINE_TEXT.get(e, e)}: {', '.join(names)}", 84,
                                    initial_indent="  ", subsequent_indent="    ")
                     for e, names in by_engine.items())


DESCRIPTION = """\
Measure tdleaf at fixed depths, node counts and move times ("rungs") against a real
engine, per variant, and report each rung with a 95% interval:

{engines}

Against Fairy-Stockfish each rung plays pairs of games (one opening, both colours)
against UCI_LimitStrength settings chosen near its strength as the games come in, and
its rating is the maximum-likelihood UCI_Elo R of P(score) = 1/(1 + 10^((E - R)/400))
over all its games (draws half a point), with a profile-likelihood interval. Debian's
build stops at UCI_Elo 1350; below it the ladder uses Skill Level -1..-20 at the Elo
later Fairy-Stockfish gives them (an extrapolation, marked * in the table). Sjeng has
no strength setting: each rung plays it at one limit (--engine-depth, default 6) and
gets its Elo difference to it, +-inf when every game went one way.

Games go to one games.pgn.gz a rung in --out (<variant>-<engine>/<rung>/, a gzip member
a batch, batches.json beside it), with ladder.json and ladder.md rewritten after every
rung; the same command with --resume carries on.
Each ladder records the evaluation tdleaf played (its weights and their digest).

--save writes the UCI_Elo ladders into FILE, or without one into ladder.json in the
per-user data folder ($TDLEAF_DATA, else $XDG_DATA_HOME/tdleaf, else
~/.local/share/tdleaf), which `tdleaf uci` reads before the shipped ladder to map
UCI_Elo to a search limit. Nothing is written into the installed package.

--remeasure re-measures the shipped ladder in one resumable command: every variant
(or those given) against its UCI_Elo-scale engine, at its default evaluation, saved
as --save does; run the same command again after an interruption. E.g.

  tdleaf ladder --remeasure --games 32 --out runs/ladders/remeasure"""


def _int_list(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part[1:]:
                a, b = part.split("-", 1)
                out += list(range(int(a), int(b) + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected numbers like 1-4 or 1,2,3; got {text!r}") from None
    if any(v < 1 for v in out):
        raise argparse.ArgumentTypeError(f"values must be >= 1, got {text!r}")
    return out


def _float_list(text: str) -> list[float]:
    try:
        out = [float(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds like 0.1,1; got {text!r}") from None
    if any(not v > 0 for v in out):
        raise argparse.ArgumentTypeError(f"seconds must be > 0, got {text!r}")
    return out


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ladder`` command (its defaults are :class:`LadderConfig`'s)."""
    from tdleaf.play.ladder import DEFAULT_DEPTHS, DEFAULT_MOVETIMES, DEFAULT_NODES, default

    def listed(values: tuple[float, ...]) -> str:
        return ",".join(f"{v:g}" for v in values) or "none"

    p = add_command(subparsers, "ladder", description=DESCRIPTION.format(engines=_engines_text()),
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", "-v", action="append", default=[], metavar="V",
                   help="a variant to measure (repeatable; default: every variant above, "
                        "each against its engines)")
    p.add_argument("--engine", metavar="ENGINE",
                   help="fairy-stockfish (fsf), sjeng, fairy-stockfish-wasm (wasm), or "
                        "uci:COMMAND / xboard:COMMAND (default: each variant's engines)")
    p.add_argument("--player", default=default("player"), metavar="PLAYER",
                   help="tdleaf's weights: a value set, weights file or result folder (default)")
    p.add_argument("--search", choices=["selective", "plain", "mcts"], default="selective",
                   help="tdleaf's search (default selective, what tdleaf uci plays; mcts: "
                        "its rungs are --nodes, new playouts a move, or --movetimes)")
    p.add_argument("--net", metavar="NET",
                   help="with --search mcts: the network that guides it (an ONNX file or "
                        "'shipped'; default the heuristic prior)")
    r = p.add_argument_group("rungs")
    r.add_argument("--depths", type=_int_list, default=list(DEFAULT_DEPTHS), metavar="LIST",
                   help=f"fixed depths, e.g. 1-6 or 1,2,4 (default {listed(DEFAULT_DEPTHS)}; "
                        "'' for none)")
    r.add_argument("--nodes", type=_int_list, default=list(DEFAULT_NODES), metavar="LIST",
                   help=f"fixed node counts, e.g. 1000,5000 (default {listed(DEFAULT_NODES)})")
    r.add_argument("--movetimes", type=_float_list, default=list(DEFAULT_MOVETIMES), metavar="LIST",
                   help=f"seconds a move, e.g. 0.1,1 (default {listed(DEFAULT_MOVETIMES)}; "
                        "'' for none)")
    r.add_argument("--games", type=positive_int, default=default("games"), metavar="N",
                   help="games a rung (default %(default)s)")
    r.add_argument("--batch", type=positive_int, default=default("batch"), metavar="N",
                   help="games a batch, against one engine setting (default %(default)s: a "
                        "colour pair)")
    e = p.add_argument_group("the reference engine")
    e.add_argument("--engine-movetime", type=float, metavar="S",
                   help="its seconds a move (default: Fairy-Stockfish 0.1)")
    e.add_argument("--engine-depth", type=positive_int, metavar="D",
                   help="its depth a move (default: Sjeng 6)")
    e.add_argument("--engine-nodes", type=positive_int, metavar="N",
                   help="its nodes a move: the same search on any machine, where a move "
                        "time searches deeper on a faster one")
    e.add_argument("--engine-option", action="append", default=[], metavar="[ENGINE.]NAME=VALUE",
                   help="an engine option, e.g. Hash=16 or fairy-stockfish.Threads=1 (repeatable)")
    e.add_argument("--elo-step", type=positive_int, default=default("elo_step"), metavar="E",
                   help="UCI_Elo settings in steps of E (default %(default)s)")
    e.add_argument("--max-step", type=float, default=default("max_step"), metavar="E",
                   help="the next batch's setting moves at most E from the last (default "
                        "%(default)g)")
    e.add_argument("--start-elo", type=float, default=default("start_elo"), metavar="E",
                   help="the first rung's first setting (default 1350; later rungs start "
                        "at the previous rung's rating)")
    e.add_argument("--no-skill-levels", action="store_true",
                   help="no negative Skill Levels below Debian's UCI_Elo 1350")
    o = p.add_argument_group("openings and adjudication")
    o.add_argument("--random-plies", type=int, default=default("random_plies"), metavar="K",
                   help="random opening plies (default %(default)s); batch k uses the same "
                        "openings on every rung")
    o.add_argument("--seed", type=int, default=default("seed"),
                   help="seed of the openings (default %(default)s)")
    o.add_argument("--max-plies", type=int, default=default("max_plies"), metavar="N",
                   help="draw at N plies (%(default)s)")
    o.add_argument("--resign-moves", type=int, default=default("resign_moves"), metavar="N",
                   help="a side loses after N moves each at which both agree it is "
                        "--resign-score behind (default %(default)s; 0 off)")
    o.add_argument("--resign-score", type=float, default=default("resign_score"),
                   metavar="PAWNS", help="(default %(default)g)")
    o.add_argument("--draw-moves", type=int, default=default("draw_moves"), metavar="N",
                   help="draw after N moves each with both scores within --draw-score of 0 "
                        "(default %(default)s: off)")
    o.add_argument("--draw-score", type=float, default=default("draw_score"), metavar="PAWNS",
                   help="(default %(default)g)")
    o.add_argument("--draw-from", type=int, default=default("draw_from"), metavar="MOVE",
                   help="(default %(default)s)")
    add_backend_options(p, "games of a batch", "1: in this process")
    p.add_argument("--out", metavar="DIR", help="ladder folder (default runs/ladders/<time>)")
    p.add_argument("--resume", action="store_true", help="carry on the ladder in --out")
    p.add_argument("--save", nargs="?", const="", metavar="FILE",
                   help="write the UCI_Elo ladders into FILE (default: ladder.json in the "
                        "per-user data folder, read before the shipped one), keeping other "
                        "variants' entries")
    p.add_argument("--remeasure", action="store_true",
                   help="re-measure the shipped ladder: every variant (or --variant) against "
                        "its UCI_Elo engine at its default evaluation; implies --resume and "
                        "--save; needs --out")
    p.add_argument("--note", default="", help="a note stored with --save (e.g. 'preliminary')")
    p.add_argument("--no-progress", action="store_true", help="no line after each batch")
    p.set_defaults(run=run)


def _engine_options(items: list[str]) -> dict[str, dict[str, Any]]:
    from tdleaf.play.ladder import resolve_engine

    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--engine-option expects [ENGINE.]NAME=VALUE, got {item!r}")
        engine, dot, name = key.partition(".")
        target = "*"
        if dot:
            target = resolve_engine(engine.strip())[0]
        else:
            name = key
        out.setdefault(target, {})[name.strip()] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    from tdleaf.play.ladder import (
        LADDER_VARIANTS,
        LadderConfig,
        LadderError,
        check_saveable,
        command_line,
        default,
        make_rungs,
        plan_ladders,
        remeasure_plan,
        resolve_engine,
        results_json,
        run_ladders,
        save_ladder,
    )

    variants = args.variant or list(LADDER_VARIANTS)
    if args.remeasure:
        if not args.out:
            raise CliError("--remeasure needs --out DIR (where its games go, to resume)")
        if args.engine or args.player != default("player"):
            raise CliError("--remeasure measures each variant's default evaluation against "
                           "its UCI_Elo engine: drop --engine and --player")
        args.resume = True
        if args.save is None:
            args.save = ""
    if args.resume and not args.out:
        raise CliError("--resume needs --out DIR (the ladder to carry on)")
    limits = {k: v for k, v in (("movetime", args.engine_movetime), ("depth", args.engine_depth),
                                ("nodes", args.engine_nodes)) if v is not None} or None
    plan = remeasure_plan(args.variant) if args.remeasure else \
        plan_ladders(variants, args.engine)
    if args.engine:
        resolve_engine(args.engine)
    settings = {"search": args.search, **({"net": args.net} if args.net else {})}
    cfg = LadderConfig(player=args.player, player_settings=settings,
                       rungs=make_rungs(args.depths, args.nodes, args.movetimes),
                       games=args.games, batch=args.batch, random_plies=args.random_plies,
                       seed=args.seed, adjudication=adjudication(args),
                       backend=backend_of(args), engine_limits=limits,
                       engine_options=_engine_options(args.engine_option),
                       elo_step=args.elo_step, max_step=args.max_step,
                       start_elo=args.start_elo,
                       skill_levels=not args.no_skill_levels).validate()
    if args.save is not None:
        if args.search == "mcts":
            raise LadderError("--save/--remeasure: UCI_Elo plays the alpha-beta search; "
                              "an MCTS ladder is measured, not saved")
        check_saveable(plan)
    out = Path(args.out) if args.out else (
        Path("runs") / "ladders" / datetime.now().strftime("%Y%m%d-%H%M%S"))
    command = "tdleaf ladder " + shlex.join(command_line(
        cfg, remeasure=args.remeasure, variants=args.variant, engine=args.engine))
    print(f"tdleaf ladder: {', '.join(f'{v} vs {e}' for v, e in plan)}; "
          f"{len(cfg.rungs)} rung(s) x {args.games} games; results in {out}",
          file=sys.stderr, flush=True)

    def progress(ladder: Any, result: Any, setting: str) -> None:
        if args.no_progress:
            return
        fit = result.fit()
        g = result.games
        pts = sum(x.outcome.a_score for x in g)
        rel = ladder.scale.kind != "uci_elo"
        fmt = (lambda x: "+inf" if x == float("inf") else "-inf" if x == float("-inf")
               else f"{x:+.0f}" if rel else f"{x:.0f}")
        print(f"[{ladder.variant} vs {ladder.engine}, {result.rung.label}] {len(g)}/{args.games} "
              f"games, {pts:g} points (last batch vs {setting}); "
              f"{'Elo' if rel else 'rating'} {fmt(fit.elo)} [{fmt(fit.low)}, {fmt(fit.high)}]",
              file=sys.stderr, flush=True)

    from .tools import say_if_compiling, say_if_no_tables
    say_if_compiling()      # else a cold cache holds the first batch for a minute
    for variant in dict.fromkeys(v for v, _ in plan):
        say_if_no_tables(variant)
    try:
        ladders = run_ladders(plan, cfg, out, resume=args.resume, progress=progress,
                              command=command)
    except KeyboardInterrupt:
        print(f"\ntdleaf ladder: interrupted; carry on with the same command and --resume "
              f"--out {out}", file=sys.stderr)
        return 130
    print((out / "ladder.md").read_text(), end="")
    if args.save is not None:
        from search.protocol.strength import LADDER_FILE
        from search.shipped import user_data_dir
        target = Path(args.save) if args.save else user_data_dir() / LADDER_FILE
        save_ladder(results_json(ladders, cfg, command), target, note=args.note)
        print(f"tdleaf ladder: saved the UCI_Elo ladders to {target}", file=sys.stderr)
    return 0
