"""``tdleaf match``: two players, a number of games, honest statistics."""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from . import add_command
from .tools import CliError, add_backend_options, backend_of, exclusive, positive_int

DESCRIPTION = """\
Play a match between two players, A and B, and report it as engine testers do:
wins, losses, draws, score, Elo difference with its 95% interval (game by game and by
game pairs), likelihood of superiority, the report's sign test, and failures.

A player is a tdleaf value set (traditional, sunsetter, sjeng, losers, ones, report, default,
learnt), a weights.json file or a 'tdleaf learn' result folder, or an external engine:
uci:COMMAND or xboard:COMMAND (e.g. uci:fairy-stockfish, xboard:sjeng; the command is
split like a shell would). Internal players search in this process.

Every opening is played twice, once with each colour: --random-plies K uniformly random
moves from the start (seeded), or the positions of --openings FILE (EPD or PGN) in
order. Limits apply to both players (--depth, --nodes, --movetime per move; --tc for a
clock with time forfeits); --option SIDE.NAME=VALUE sets one player's own limit
(A.depth=3), name (B.name=sf), hash (A.hash=64), random tie-breaks (A.random_ties=1: among
equally scored moves, seeded per game, as learning does), the proof-number search's
share of a timed move (A.proof=0.25: a quarter before alpha-beta; off by default), the
share kept for the proof check of the chosen move (A.proof_check=0: off; 0.3 by default
in suicide, giveaway and antichess), the opening book the proof search built (A.book=0:
off; on by default in suicide and antichess) or, for an external engine, any of its options
(B.Hash=64, B.Threads=1). Without any limit, tdleaf players search to depth 4 and
external engines get 0.1 s a move. The summary gives each player's mean time per
move, and warns when both are limited by time and one took 25% longer than the other.

External engines' moves are checked against the rules: an illegal move, no move, a
crash, a stall or a time forfeit loses the game (the reason is in the PGN), the engine
is restarted and the match goes on. Adjudication as cutechess-cli: --max-plies, a
two-sided resign rule and a draw rule on the players' own scores.

Games are appended to the PGN as they finish; Ctrl-C or kill -9 leave a valid file,
and the same command with --resume carries on to --games in all; with --summary it
prints the summary of the games in the file and plays none. --sprt stops the match
as soon as a sequential test decides."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``match`` command."""
    p = add_command(subparsers, "match", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", metavar="A", help="first player (statistics are from its side)")
    p.add_argument("b", metavar="B", help="second player")
    add_game_options(p)
    p.add_argument("--games", type=positive_int, default=100, metavar="N",
                   help="games in all (default 100; pairs of games share an opening)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="SIDE.NAME=VALUE",
                   help="a setting of player A or B (repeatable), e.g. A.depth=3, B.Hash=64")
    p.add_argument("--pgn", metavar="FILE",
                   help="the games' PGN, compressed when it ends in .pgn.gz (default "
                        "runs/matches/<time>-<variant>-A-vs-B.pgn.gz)")
    p.add_argument("--resume", action="store_true",
                   help="carry on the match in --pgn to --games games in all")
    p.add_argument("--summary", action="store_true",
                   help="print the summary of the games in --pgn (up to --games) and play none")
    p.add_argument("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
                   help="stop when a GSPRT (logistic Elo, game pairs) accepts elo0 or elo1 "
                        "(alpha and beta default to 0.05)")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="write the summary as JSON (to stdout without FILE, then no text)")
    p.add_argument("--no-progress", action="store_true", help="no live progress line")
    p.set_defaults(run=run)


def add_game_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``match`` and ``tournament``: variant, limits, openings,
    adjudication, workers."""
    from variants.spec import variant_list
    p.add_argument("--variant", default="chess", metavar="V",
                   help=f"{variant_list()} (default chess)")
    g = p.add_argument_group("limits (per move unless --tc)")
    g.add_argument("--depth", type=positive_int, metavar="D", help="plies per move")
    g.add_argument("--nodes", type=positive_int, metavar="N", help="nodes per move")
    g.add_argument("--movetime", type=float, metavar="S", help="seconds per move")
    g.add_argument("--tc", metavar="BASE+INC",
                   help="a clock for each player, in seconds: 60+1, 10+0.1, 1:30+0.5")
    g.add_argument("--time-margin", type=float, default=0.1, metavar="S",
                   help="seconds a move may overrun the clock before it loses on time (0.1)")
    o = p.add_argument_group("openings")
    o.add_argument("--random-plies", type=int, default=8, metavar="K",
                   help="random moves from the start before the players take over (default 8)")
    o.add_argument("--openings", metavar="FILE", help="EPD or PGN file of openings, in order")
    o.add_argument("--seed", type=int, default=0, help="seed of the random openings (default 0)")
    a = p.add_argument_group("adjudication (cutechess-cli's rules; 0 turns one off)")
    a.add_argument("--max-plies", type=int, default=400, metavar="N",
                   help="draw when the game reaches N plies (default 400)")
    a.add_argument("--resign-moves", type=int, default=0, metavar="N",
                   help="a side loses after N moves each in a row at which it scored itself "
                        "--resign-score behind and its opponent scored itself that much ahead")
    a.add_argument("--resign-score", type=float, default=10.0, metavar="PAWNS",
                   help="(default 10)")
    a.add_argument("--draw-moves", type=int, default=0, metavar="N",
                   help="draw after N moves each in a row with both scores within "
                        "--draw-score of 0, after move --draw-from")
    a.add_argument("--draw-score", type=float, default=0.05, metavar="PAWNS", help="(default 0.05)")
    a.add_argument("--draw-from", type=int, default=40, metavar="MOVE", help="(default 40)")
    add_backend_options(p, "games", "1: in this process")


_OPTION = re.compile(r"^([A-Za-z0-9_.-]+?)\.([A-Za-z_][\w -]*)=(.*)$")


def parse_options(items: list[str], sides: list[str]) -> dict[str, dict[str, str]]:
    """``SIDE.NAME=VALUE`` items into one settings dict per side (case-insensitive)."""
    out: dict[str, dict[str, str]] = {s: {} for s in sides}
    lower = {s.lower(): s for s in sides}
    for item in items:
        m = _OPTION.match(item.strip())
        if not m:
            raise CliError(f"--option expects SIDE.NAME=VALUE, e.g. A.depth=3; got {item!r}")
        side, name, value = m.group(1), m.group(2).strip(), m.group(3).strip()
        if side.lower() not in lower:
            raise CliError(f"--option {item!r}: unknown player {side!r} (players: {', '.join(sides)})")
        out[lower[side.lower()]][name.lower() if name.lower() in _LIMIT_KEYS else name] = value
    return out


_LIMIT_KEYS = ("depth", "nodes", "movetime", "hash", "qlimit", "name", "timeout", "search",
               "flags", "playouts", "prior", "q_init")


def player_configs(specs: list[str], options: dict[str, dict[str, str]], sides: list[str],
                   args: argparse.Namespace) -> list[Any]:
    """Each player's settings: the shared limits, then its own --option values."""
    from tdleaf.play.match import PlayerConfig
    from tdleaf.play.players import with_default_limit

    shared = {k: getattr(args, k) for k in ("depth", "nodes", "movetime") if getattr(args, k)}
    if args.movetime is not None and not args.movetime > 0:
        raise CliError(f"--movetime must be > 0, got {args.movetime}")
    return [PlayerConfig(spec, with_default_limit(spec, {**shared, **options.get(side, {})},
                                                  clock=bool(args.tc)))
            for spec, side in zip(specs, sides)]


def adjudication(args: argparse.Namespace) -> Any:
    from tdleaf.play.game import Adjudication
    return Adjudication(max_plies=args.max_plies, resign_moves=args.resign_moves,
                        resign_score=args.resign_score, draw_from=args.draw_from,
                        draw_moves=args.draw_moves, draw_score=args.draw_score)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", Path(text).name if "/" in text and ":" not in text
                  else text.split("/")[-1])[:40] or "player"


class LiveLine:
    """The live progress line: a tqdm bar on a terminal, else a line every few games."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.total = total
        self.every = max(1, total // 20)
        self.bar = None
        if enabled and self.tty:
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit="game", dynamic_ncols=True, smoothing=0.1)

    def __call__(self, summary: Any, outcome: Any) -> None:
        if not self.enabled:
            return
        played = len(summary.outcomes)      # disputed games too: they are done
        if self.bar is not None:
            self.bar.n = played
            self.bar.set_postfix_str(summary.progress_line(), refresh=False)
            self.bar.refresh()
        elif outcome is not None and (played % self.every == 0 or played == self.total):
            print(f"[{played}/{self.total}] {summary.progress_line()}", file=sys.stderr,
                  flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(args: argparse.Namespace) -> int:
    from tdleaf.play import stats
    from tdleaf.play.match import MatchConfig, MatchError, Summary, run_match, stored_summary

    sides = ["A", "B"]
    options = parse_options(args.option, sides)
    a_cfg, b_cfg = player_configs([args.a, args.b], options, sides, args)
    sprt = None
    if args.sprt:
        try:
            sprt = stats.Sprt.parse(args.sprt)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    if args.resume and not args.pgn:
        raise CliError("--resume needs --pgn FILE (the match to carry on)")
    if args.summary and not args.pgn:
        raise CliError("--summary needs --pgn FILE (the match to summarize)")
    if args.openings and args.random_plies != 8:
        raise CliError("--openings and --random-plies are alternatives; give one")
    pgn = args.pgn
    if pgn is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        pgn = str(Path("runs") / "matches" / f"{stamp}-{args.variant}-{_slug(args.a)}-vs-{_slug(args.b)}.pgn.gz")
    try:
        Path(pgn).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot write {pgn}: {exc.strerror or exc}") from None
    cfg = MatchConfig(variant=args.variant, a=a_cfg, b=b_cfg, games=args.games,
                      random_plies=args.random_plies, openings_file=args.openings,
                      seed=args.seed, tc=args.tc, time_margin=args.time_margin,
                      adjudication=adjudication(args), backend=backend_of(args), sprt=sprt,
                      pgn=pgn)
    cfg.validate()
    if args.summary:
        try:
            stored = stored_summary(cfg)
        except OSError as exc:
            raise CliError(f"cannot read {pgn}: {exc.strerror or exc}") from None
        if stored is None:
            raise CliError(f"{pgn} holds no finished game")
        _emit(stored, args.json)
        return 0
    quiet_text = args.json == "-"
    if not quiet_text:
        print(f"tdleaf match: {args.a} vs {args.b}, {cfg.variant}, {cfg.games} games, "
              f"{cfg.backend.describe()}; games in {pgn}", file=sys.stderr, flush=True)
    from tdleaf.play.players import is_external

    from .tools import say_if_compiling, say_if_no_tables
    if not (is_external(args.a) and is_external(args.b)):
        say_if_compiling()      # else a cold cache holds the bar at 0% for a minute
        say_if_no_tables(cfg.variant)
    live = LiveLine(cfg.games, enabled=not args.no_progress)
    holder: dict[str, Summary] = {}

    def progress(summary: Summary, outcome: Any) -> None:
        holder["summary"] = summary
        live(summary, outcome)
        warn_early(summary, holder)

    status = 0
    path = Path(pgn)
    created = not path.exists()
    try:
        path.touch()        # something to lock: a second job on this file stops at once
    except OSError as exc:
        raise CliError(f"cannot write {pgn}: {exc.strerror or exc}") from None
    try:
        with exclusive(path, "match"):
            summary = run_match(cfg, resume=args.resume, progress=progress)
    except MatchError:
        if created and path.stat().st_size == 0:
            path.unlink()   # nothing played: leave no empty file behind
        live.close()
        raise
    except KeyboardInterrupt:
        live.close()
        so_far = holder.get("summary")
        print(f"\ntdleaf match: interrupted; the finished games are in {pgn} "
              f"(carry on with --resume)", file=sys.stderr)
        if so_far is None:
            return 130
        summary, status = so_far, 130
    else:
        live.close()
    _emit(summary, args.json)
    return status


def warn_early(summary: Any, seen: dict[str, Any]) -> None:
    """Say at once, not only in the summary, when the players' times per move disagree
    (after the first game, so the user can stop a match that is not fair)."""
    warning = summary.time_warning()
    if warning and not seen.get("time_warning"):
        seen["time_warning"] = True
        print(f"tdleaf: warning: {warning}", file=sys.stderr, flush=True)


def _emit(summary: Any, target: str | None) -> None:
    data = summary.to_json()
    for warning in data["warnings"]:
        print(f"tdleaf: warning: {warning}", file=sys.stderr)
    if target is None:
        print(summary.report())
        return
    text = json.dumps(data, indent=2)
    if target == "-":
        print(text)
        return
    print(summary.report())
    from search.files import write_text
    try:
        write_text(target, text + "\n")
    except OSError as exc:
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
