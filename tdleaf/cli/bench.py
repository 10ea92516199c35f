"""``tdleaf bench``: the benchmark commands, one row of :data:`BENCHES` each (its
options and the call that runs it); the measurements live in :mod:`tdleaf.bench`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tdleaf.bench import backend as bench_backend
from tdleaf.bench import batches as bench_batches
from tdleaf.bench import blocks as bench_blocks
from tdleaf.bench import encoding as bench_encoding
from tdleaf.bench import mcts as bench_mcts
from tdleaf.bench import net as bench_net
from tdleaf.bench import prior as bench_prior
from tdleaf.bench import selective as bench_selective
from tdleaf.bench import selfplay as bench_selfplay
from tdleaf.bench import speedup as bench_speedup
from tdleaf.bench import startup as bench_startup
from tdleaf.bench import suites as bench_suites
from tdleaf.bench import teacher as bench_teacher
from tdleaf.bench.common import print_report
from tdleaf.bench.perft import POSITIONS
from tdleaf.bench.positions import SEARCH_VARIANTS, positions
from tdleaf.bench.search import DEFAULT_DEPTH, DEFAULT_MOVETIME, HASH_MB, VALUE_SET
from tdleaf.learn import margins as bench_margins
from variants import canonical_variant
from variants.spec import RULE_FAMILIES

from . import add_command
from .tools import CliError, depth_arg, positive_int, say_if_no_tables, seconds_arg

PERFT_DESCRIPTION = """\
Time perft (leaves per second, bulk-counted at the last ply) on a fixed set of 3-5
positions per variant, for this package, for python-chess (a plain recursive perft
with board.legal_moves.count() at depth 1) and for Fairy-Stockfish ('go perft'),
in the same run. python-chess searches a depth that takes it about 1-3 s per set;
tdleaf and Fairy-Stockfish search one ply deeper for a stable time (tdleaf repeats
a perft until 0.5 s have passed and reports the mean), and tdleaf is also run at
python-chess's depth so that every count is checked against both.
Also measures the cold numba compile (fresh NUMBA_CACHE_DIR) and the warm start of
'tdleaf perft --variant chess --depth 1'."""

SEARCH_DESCRIPTION = f"""\
Search speed on a fixed set of 12-14 positions per variant (openings, middlegames,
endgames, positions from games; see tdleaf/bench/positions.py). For every position:
the tdleaf engine to a fixed depth (default {DEFAULT_DEPTH} plies + quiescence) and for a
fixed time (default {DEFAULT_MOVETIME:g} s), each with a fresh {HASH_MB} MB transposition
table and the '{VALUE_SET}' material values; then, for the same time, Sjeng 11.2 over
XBoard (crazyhouse, suicide), Fairy-Stockfish over UCI (chess, crazyhouse, suicide,
giveaway) and a plain python-chess alpha-beta written for this benchmark (negamax,
quiescence over captures, the same material values, iterative deepening). Nodes count
every position visited, quiescence included; nps = nodes / seconds (wall clock), and
the summary rows are total nodes / total seconds. The ratios compare tdleaf's
fixed-time rate with each engine's on the positions both searched, leaving out those
where tdleaf stopped early (a mate proved) and those Sjeng answered without an
alpha-beta search (its proof-number search in suicide). A second summary divides by
the CPU time of each process instead, which a busy machine disturbs less. Also
measures the resident memory of 'tdleaf uci' after 'go depth 5' in crazyhouse with the
default {HASH_MB} MB hash. Missing external engines are skipped with a note."""

#: One option: ``add_argument``'s flags and keyword arguments.
Option = tuple[tuple[str, ...], dict[str, Any]]


def opt(*flags: str, **kwargs: Any) -> Option:
    """An option of a benchmark, as ``add_argument`` takes it."""
    return flags, kwargs


def variants_opt(default: str, **kwargs: Any) -> Option:
    """``--variant V [V ...]``, with what the benchmark runs without it."""
    return opt("--variant", action="extend", nargs="+", metavar="V", help=default, **kwargs)


def _families(what: str = "one per set of rules") -> str:
    return f"variants (default: {what}: " + ", ".join(RULE_FAMILIES) + ")"


JSON = opt("--json", action="store_true", help="print one JSON object")
#: For the tests: a smaller run.
QUICK = opt("--quick", action="store_true", help=argparse.SUPPRESS)


def _progress(args: argparse.Namespace) -> bool:
    """Progress on stderr: on a terminal, and not when printing JSON."""
    return not args.json and sys.stderr.isatty()


def _names(args: argparse.Namespace, default: Any) -> list[str]:
    return [canonical_variant(v) for v in args.variant or default]


def _one_weights(args: argparse.Namespace, names: list[str]) -> None:
    if args.weights and len(names) != 1:
        raise CliError("--weights needs exactly one --variant")


def _rows(name: str, rows: list[dict[str, Any]], args: argparse.Namespace,
          fmt: Callable[[list[dict[str, Any]]], str]) -> int:
    """Print a benchmark whose report is a row per variant."""
    print_report({"benchmark": name, "rows": rows}, args.json, lambda r: fmt(r["rows"]))
    return 0


def run_perft(args: argparse.Namespace) -> int:
    """``tdleaf bench perft``; exit status 1 if any count disagrees."""
    from tdleaf.bench.perft import bench_perft, format_report

    if args.depth == 0:
        raise CliError("bench depth must be >= 1")
    report = bench_perft(args.variant, args.depth, engines=not args.no_engines,
                         startup=not args.no_startup, quick=args.quick,
                         fsf_path=args.fairy_stockfish, progress=_progress(args))
    print_report(report, args.json, format_report)
    return 0 if report["agree"] else 1


def run_search(args: argparse.Namespace) -> int:
    """``tdleaf bench search``."""
    from tdleaf.bench.search import bench_search, format_report

    for name in _names(args, []):
        if not positions(name):
            raise CliError(f"no search positions for {name}; choose from "
                           + ", ".join(SEARCH_VARIANTS))
    report = bench_search(args.variant, args.depth, args.movetime, args.python_chess_movetime,
                          engines=not args.no_engines, memory=not args.no_memory,
                          quick=args.quick, sjeng_path=args.sjeng, fsf_path=args.fairy_stockfish,
                          progress=_progress(args))
    print_report(report, args.json, format_report)
    return 0


def run_prior(args: argparse.Namespace) -> int:
    """``tdleaf bench prior``."""
    report = bench_prior.bench_prior(args.variant, args.depth or [0, 1], fit=args.fit,
                                     save=args.save is not None, save_path=args.save or None,
                                     mcts=not args.no_mcts, progress=not args.json,
                                     weights=args.weights)
    print_report(report, args.json, bench_prior.format_report)
    for path in report["saved"]:
        print(f"tdleaf bench prior: saved the fitted temperatures to {path}", file=sys.stderr)
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    """``tdleaf bench selfplay``."""
    if args.games < 1 or args.depth < 1:
        raise CliError("--games and --depth must be >= 1")
    features = ["material", "psq"] if args.features == "both" else [args.features]
    searches = ("plain", "selective") if args.search == "both" else (args.search,)
    report = bench_selfplay.bench_selfplay(_names(args, bench_selfplay.VARIANTS), features,
                                           args.games, args.depth, args.seed,
                                           progress=not args.json, searches=searches)
    print_report(report, args.json, bench_selfplay.format_report)
    return 0


def run_blocks(args: argparse.Namespace) -> int:
    """``tdleaf bench blocks``."""
    from search.layout import BLOCKS

    leaf = [n for n, blk in BLOCKS.items() if blk.evaluation == "leaf"]
    for b in (part for name in args.block or [] for part in name.split("+")):
        if b not in leaf:
            raise CliError(f"unknown leaf block {b!r}; expected one of: " + ", ".join(leaf))
    report = bench_blocks.bench_blocks(_names(args, RULE_FAMILIES), args.block, args.depth,
                                       args.positions, progress=_progress(args))
    print_report(report, args.json, bench_blocks.format_report)
    return 0


def run_margins(args: argparse.Namespace) -> int:
    """``tdleaf bench margins``."""
    names = _names(args, bench_margins.default_variants())
    _one_weights(args, names)
    try:
        report = bench_margins.bench_margins(names, args.weights, args.reference,
                                             args.positions, progress=_progress(args),
                                             save=args.save)
    except ValueError as exc:        # a margin the weights cannot take
        raise CliError(str(exc)) from None
    print_report(report, args.json, bench_margins.format_report)
    return 0


def run_speedup(args: argparse.Namespace) -> int:
    """``tdleaf bench speedup``."""
    names = _names(args, RULE_FAMILIES)
    _one_weights(args, names)
    rows = [bench_speedup.bench_speedup(v, args.base, args.weights, args.depth, args.positions,
                                        args.rounds, progress=_progress(args))
            for v in names]
    return _rows("speedup", rows, args, bench_speedup.format_report)


def run_encoding(args: argparse.Namespace) -> int:
    """``tdleaf bench encoding``."""
    from tdleaf.play.epd import EpdError

    try:
        rows = [bench_encoding.bench_encoding(v, args.rounds)
                for v in _names(args, RULE_FAMILIES)]
    except EpdError as exc:
        raise CliError(f"{exc} (a variant without its own labelled positions: use the "
                       f"one with its rules)") from None
    return _rows("encoding", rows, args, bench_encoding.format_report)


def run_mcts(args: argparse.Namespace) -> int:
    """``tdleaf bench mcts``."""
    from tdleaf.play.labels import POSITIONS as LABELLED

    rows = [bench_mcts.bench_mcts(v, args.positions, args.playouts, args.depth, args.net,
                                  args.threads, args.rounds) for v in _names(args, LABELLED)]
    return _rows("mcts", rows, args, bench_mcts.format_report)


def run_teacher(args: argparse.Namespace) -> int:
    """``tdleaf bench teacher``."""
    depths = tuple(args.depth or bench_teacher.DEPTHS)
    rows = [bench_teacher.bench_teacher(v, depths, args.weights) for v in _names(args, [])]
    return _rows("teacher", rows, args, bench_teacher.format_report)


def run_suites(args: argparse.Namespace) -> int:
    """``tdleaf bench suites``: build the suites, solve them, or both."""
    if not args.build and not args.movetime:
        raise CliError("bench suites: nothing to do: give --build PGN, --movetime S, or both")
    checks = bench_suites.Checks(proof_nodes=args.proof_nodes, fsf_depth=args.fsf_depth,
                                 fsf_nodes=args.fsf_nodes)
    out = Path(args.out)
    try:
        variant = bench_suites.check_variant(args.variant)
        say_if_no_tables(variant)           # the engine's moves and the judge's proofs
        if args.build:
            counts = bench_suites.build(Path(args.build), variant, out, checks,
                                        resume=args.resume,
                                        progress=lambda text: print(text, file=sys.stderr,
                                                                    flush=True))
            print(f"{out}: wins {counts['wins']} positions, defence {counts['defence']}")
        if args.movetime:
            report = bench_suites.solve(out, variant, args.movetime, checks, flags=args.flags,
                                        proof_share=args.proof_share,
                                        proof_check=args.proof_check,
                                        report_path=Path(args.report) if args.report else None)
            print_report({"benchmark": "suites", **report}, args.json,
                         bench_suites.format_report)
    except (ValueError, OSError) as exc:     # a suite folder or file that cannot be read
        raise CliError(str(exc)) from None
    return 0


def run_net(args: argparse.Namespace) -> int:
    """``tdleaf bench net``."""
    report = bench_net.bench_net(canonical_variant(args.variant), args.channels, args.blocks,
                                 args.threads, args.rounds)
    print_report({"benchmark": "net", **report}, args.json, bench_net.format_report)
    return 0


def run_backend(args: argparse.Namespace) -> int:
    """``tdleaf bench backend``."""
    report = bench_backend.bench_backend(canonical_variant(args.variant), args.depth,
                                         args.games, args.workers, args.rounds, args.address,
                                         progress=_progress(args))
    print_report({"benchmark": "backend", **report}, args.json, bench_backend.format_report)
    return 0


def run_batches(args: argparse.Namespace) -> int:
    """``tdleaf bench batches``."""
    try:
        report = bench_batches.bench_batches(canonical_variant(args.variant), args.nodes,
                                             args.engine_nodes, args.batches, args.workers,
                                             args.rounds, progress=_progress(args))
    except ValueError as exc:         # settings the ladder's batches cannot play
        raise CliError(str(exc)) from None
    print_report({"benchmark": "batches", **report}, args.json, bench_batches.format_report)
    return 0


def run_selective(args: argparse.Namespace) -> int:
    """``tdleaf bench selective``: a report per variant, printed as each ends."""
    from tdleaf.play.stats import Sprt

    try:
        Sprt.parse(args.sprt)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    known = [name for name, _ in bench_selective.techniques()]
    for name in args.technique or []:
        if name not in known:
            raise CliError(f"unknown technique {name!r}; one of: {', '.join(known)}")
    for name in _names(args, RULE_FAMILIES):
        report = bench_selective.run(name, Path(args.out) / name, movetime=args.movetime,
                                     max_games=args.max_games, sprt=args.sprt,
                                     workers=args.workers, resume=args.resume,
                                     ablate=args.ablate, only=args.technique,
                                     progress=lambda text: print(text, flush=True))
        print(bench_selective.format_report(report), flush=True)
    return 0


def run_startup(args: argparse.Namespace) -> int:
    """``tdleaf bench startup``."""
    report = bench_startup.bench_startup(args.runs, engines=not args.no_engines,
                                         progress=_progress(args))
    print_report(report, args.json, bench_startup.format_report)
    return 0


@dataclass(frozen=True)
class Bench:
    """One benchmark: its name, one-line help and options, the function that runs it,
    and its description (``raw``: a module docstring, printed as written)."""

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    options: tuple[Option, ...]
    description: str | None
    raw: bool = True


def _doc(module: Any) -> str | None:
    return module.__doc__


_M = bench_mcts
_S = bench_suites.Checks
#: Every benchmark, in the order ``tdleaf bench --help`` lists them.
BENCHES: tuple[Bench, ...] = (
    Bench("perft", "perft leaves/s against python-chess and Fairy-Stockfish", run_perft, (
        opt("--variant", action="extend", nargs="+", metavar="V",
            help="variants to run (default: all of " + ", ".join(POSITIONS) + ")"),
        opt("--depth", type=depth_arg, metavar="D",
            help="one depth for every position and engine (default: per position)"),
        opt("--json", action="store_true", help="print one JSON object instead of tables"),
        opt("--no-engines", action="store_true",
            help="do not run external engines (Fairy-Stockfish)"),
        opt("--no-startup", action="store_true",
            help="skip the cold-compile and warm-start measurements (the cold "
                 "compile takes about half a minute)"),
        opt("--fairy-stockfish", metavar="PATH",
            help="the Fairy-Stockfish binary (default: found on PATH or /usr/games)"),
        QUICK), PERFT_DESCRIPTION, raw=False),
    Bench("search", "search nodes/s against Sjeng, Fairy-Stockfish and python-chess; memory "
                    "of 'tdleaf uci'", run_search, (
        opt("--variant", action="append", metavar="V",
            help="variant to run, repeatable (default: " + ", ".join(SEARCH_VARIANTS) + ")"),
        opt("--depth", type=positive_int, metavar="D",
            help=f"plies of tdleaf's fixed-depth search (default {DEFAULT_DEPTH})"),
        opt("--movetime", type=seconds_arg, metavar="S",
            help=f"seconds per position of the fixed-time searches (default "
                 f"{DEFAULT_MOVETIME:g}; Sjeng's 'st' takes whole seconds, so it gets "
                 f"at least 1)"),
        opt("--python-chess-movetime", type=seconds_arg, metavar="S",
            help="seconds per position for the python-chess alpha-beta "
                 "(default: --movetime)"),
        opt("--json", action="store_true", help="print one JSON object instead of tables"),
        opt("--no-engines", action="store_true",
            help="do not run the external engines (Sjeng, Fairy-Stockfish)"),
        opt("--no-memory", action="store_true",
            help="skip the memory measurement of 'tdleaf uci'"),
        opt("--sjeng", metavar="PATH", help="the Sjeng binary (default: on PATH or /usr/games)"),
        opt("--fairy-stockfish", metavar="PATH",
            help="the Fairy-Stockfish binary (default: on PATH or /usr/games)"),
        QUICK), SEARCH_DESCRIPTION, raw=False),
    Bench("prior", "quality of the heuristic prior against Fairy-Stockfish; MCTS playouts/s",
          run_prior, (
        variants_opt(f"variants (default: {' '.join(bench_prior.VARIANTS)})"),
        opt("--depth", type=depth_arg, action="append", metavar="D",
            help="prior depth, repeatable (default: 0 and 1)"),
        opt("--fit", action="store_true",
            help="measure at the maximum-likelihood temperature, not the stored one"),
        opt("--save", nargs="?", const="", metavar="FILE",
            help="store the fitted temperatures (implies --fit): a value set's in "
                 "FILE (default: prior.json in the per-user data folder, "
                 "$TDLEAF_DATA, read before the shipped one), a weights file's in "
                 "its meta, shipped learnt weights' in a copy of their weights.json "
                 "in the per-user data folder; never in the installed package"),
        opt("--weights", metavar="W",
            help="a value set, reference set, weights.json or result folder (default: "
                 "the variant's default weights)"),
        opt("--no-mcts", action="store_true", help="skip the MCTS playouts/s measurement"),
        JSON), _doc(bench_prior)),
    Bench("selfplay", "self-play games per hour per core (learning speed)", run_selfplay, (
        variants_opt("variants (default: " + ", ".join(bench_selfplay.VARIANTS) + ")"),
        opt("--features", choices=["material", "psq", "both"], default="both",
            help="material only, with piece-square tables, or both (default)"),
        opt("--games", type=int, default=4, help="games per variant and feature set (default 4)"),
        opt("--depth", type=int, default=5, help="search depth (default 5, plus quiescence)"),
        opt("--seed", type=int, default=1, help="seed of the games (default 1)"),
        opt("--search", choices=["plain", "selective", "both"], default="both",
            help="the search mode(s) to measure (default both)"),
        JSON), _doc(bench_selfplay)),
    Bench("blocks", "nodes/s cost of each leaf feature block", run_blocks, (
        variants_opt(_families()),
        opt("--block", action="extend", nargs="+", metavar="B",
            help="blocks to measure, each alone, or sets measured together "
                 "(safety+drops); default: every leaf block that fits, alone"),
        opt("--depth", type=positive_int, default=bench_blocks.DEPTH, metavar="D",
            help=f"search depth (default {bench_blocks.DEPTH})"),
        opt("--positions", type=positive_int, default=bench_blocks.POSITIONS, metavar="N",
            help=f"positions per variant (default {bench_blocks.POSITIONS})"),
        JSON), _doc(bench_blocks)),
    Bench("margins", "the pruning margins and aspiration window refitted to an evaluation",
          run_margins, (
        variants_opt("variants (default: those that ship the reference tables and play "
                     "another evaluation by default)"),
        opt("--weights", metavar="W",
            help="the evaluation to fit to: a value set, reference set, weights.json or "
                 "result folder (default: each variant's default weights)"),
        opt("--reference", default=bench_margins.REFERENCE, metavar="R",
            help="the evaluation the spec's margins were measured with (default "
                 f"{bench_margins.REFERENCE})"),
        opt("--positions", type=positive_int, metavar="N",
            help="the first N labelled positions of each variant (default: all: 400, "
                 "2,000 in crazyhouse and atomic)"),
        opt("--save", action="store_true",
            help="store the refitted margins in the weights' meta, which the engine "
                 "then plays (shipped weights: in their copy in the per-user data "
                 "folder, never in the installed package)"),
        JSON), _doc(bench_margins)),
    Bench("speedup", "this checkout's search speed against another commit's, in one process",
          run_speedup, (
        opt("--base", required=True, metavar="REV",
            help="the commit to compare with (any git revision: HEAD, HEAD~3, a sha)"),
        variants_opt(_families()),
        opt("--weights", metavar="W",
            help="the evaluation both play: a value set, reference set, weights.json "
                 "or result folder (default: each variant's default weights)"),
        opt("--depth", type=positive_int, default=bench_speedup.DEPTH, metavar="D",
            help=f"search depth (default {bench_speedup.DEPTH})"),
        opt("--positions", type=positive_int, default=bench_speedup.POSITIONS, metavar="N",
            help=f"positions per variant (default {bench_speedup.POSITIONS})"),
        opt("--rounds", type=positive_int, default=bench_speedup.ROUNDS, metavar="N",
            help=f"rounds over the positions (default {bench_speedup.ROUNDS})"),
        JSON), _doc(bench_speedup)),
    Bench("selective", "Elo of each selective-search technique (SPRT matches)",
          run_selective, (
        variants_opt(_families("one of each rule set")),
        opt("--movetime", type=seconds_arg, default=0.05, metavar="S",
            help="seconds a move for both sides (default 0.05)"),
        opt("--max-games", type=positive_int, default=1000, metavar="N",
            help="games at most per technique (default 1000)"),
        opt("--sprt", default="0,15", metavar="ELO0,ELO1[,ALPHA,BETA]",
            help="the sequential test of each technique (default 0,15)"),
        opt("--workers", type=positive_int, default=1, metavar="W"),
        opt("--out", default="runs/bench-selective", metavar="DIR",
            help="folder of the matches' PGNs and report.json (default "
                 "runs/bench-selective)"),
        opt("--ablate", action="store_true",
            help="take each technique out of the full selective set instead of adding "
                 "them one at a time (what each is worth among the others)"),
        opt("--technique", action="append", metavar="NAME",
            help="measure only this technique (repeatable), e.g. 'late-move reductions'"),
        opt("--resume", action="store_true", help="carry on the matches in --out")),
          _doc(bench_selective)),
    Bench("backend", "games/s of one match on local workers and on Ray", run_backend, (
        opt("--variant", default=bench_backend.VARIANT, metavar="V",
            help=f"(default {bench_backend.VARIANT})"),
        opt("--depth", type=positive_int, default=bench_backend.DEPTH, metavar="D",
            help=f"both players' depth (default {bench_backend.DEPTH})"),
        opt("--games", type=positive_int, default=bench_backend.GAMES, metavar="N",
            help=f"games a match (default {bench_backend.GAMES})"),
        opt("--workers", type=positive_int, default=bench_backend.WORKERS, metavar="W",
            help=f"on each backend (default {bench_backend.WORKERS})"),
        opt("--rounds", type=positive_int, default=bench_backend.ROUNDS, metavar="N",
            help=f"matches on each backend (default {bench_backend.ROUNDS})"),
        opt("--address", metavar="ADDR",
            help="the Ray cluster (default: RAY_ADDRESS, a running local one, else a "
                 "private one)"),
        JSON), _doc(bench_backend)),
    Bench("batches", "games/s of a ladder's batches, players kept from batch to batch "
                     "against started for each", run_batches, (
        opt("--variant", default=bench_batches.VARIANT, metavar="V",
            help=f"(default {bench_batches.VARIANT}, against its UCI_Elo engine)"),
        opt("--nodes", type=positive_int, default=bench_batches.NODES, metavar="N",
            help=f"tdleaf's nodes a move (default {bench_batches.NODES})"),
        opt("--engine-nodes", type=positive_int, default=bench_batches.ENGINE_NODES,
            metavar="N", help=f"the engine's nodes a move (default "
                              f"{bench_batches.ENGINE_NODES})"),
        opt("--batches", type=positive_int, default=bench_batches.BATCHES, metavar="N",
            help=f"batches of two games a series (default {bench_batches.BATCHES})"),
        opt("--workers", type=positive_int, default=bench_batches.WORKERS, metavar="W",
            help=f"local workers (default {bench_batches.WORKERS})"),
        opt("--rounds", type=positive_int, default=bench_batches.ROUNDS, metavar="N",
            help=f"series played each way (default {bench_batches.ROUNDS})"),
        JSON), _doc(bench_batches)),
    Bench("encoding", "positions/s of the network encoding against move generation",
          run_encoding, (
        variants_opt(_families()),
        opt("--rounds", type=positive_int, default=bench_encoding.ROUNDS, metavar="N",
            help=f"rounds (default {bench_encoding.ROUNDS})"),
        JSON), _doc(bench_encoding)),
    Bench("mcts", "MCTS playouts/s (trivial evaluator, prior, network) against alpha-beta "
                  "nodes/s", run_mcts, (
        variants_opt("variants (default those networks are taught for: crazyhouse and "
                     "atomic)"),
        opt("--positions", type=positive_int, default=_M.POSITIONS, metavar="N",
            help=f"labelled positions a variant (default {_M.POSITIONS})"),
        opt("--playouts", type=positive_int, default=_M.PLAYOUTS, metavar="N",
            help=f"a search (default {_M.PLAYOUTS})"),
        opt("--depth", type=positive_int, default=_M.DEPTH, metavar="D",
            help=f"the alpha-beta reference's depth (default {_M.DEPTH})"),
        opt("--net", metavar="NET", help="a network (.onnx) or 'shipped' for a network row"),
        opt("--threads", type=positive_int, default=1, metavar="N",
            help="the network's threads (default 1)"),
        opt("--rounds", type=positive_int, default=_M.ROUNDS, metavar="N",
            help=f"rounds (default {_M.ROUNDS})"),
        JSON), _doc(bench_mcts)),
    Bench("teacher", "top-1 of tdleaf's search at each depth against the prior positions' "
                     "labels (the network's teacher)", run_teacher, (
        variants_opt("variants", required=True),
        opt("--depth", type=positive_int, action="append", metavar="D",
            help="search depth, repeatable (default: "
                 + ", ".join(map(str, bench_teacher.DEPTHS)) + ")"),
        opt("--weights", metavar="W", help="the evaluation searched (default: the variant's)"),
        JSON), _doc(bench_teacher)),
    Bench("net", "positions/s of the policy-value network: inference at batch 1, 8, 16 and "
                 "training (needs tdleaf[net])", run_net, (
        opt("--variant", default=bench_net.VARIANT, metavar="V",
            help=f"whose labelled positions (default {bench_net.VARIANT})"),
        opt("--channels", type=positive_int, default=32, metavar="C"),
        opt("--blocks", type=positive_int, default=4, metavar="B"),
        opt("--threads", type=positive_int, default=2, metavar="N",
            help="torch threads (default 2)"),
        opt("--rounds", type=positive_int, default=bench_net.ROUNDS, metavar="N"),
        JSON), _doc(bench_net)),
    Bench("suites", "the losing variants' suites from games against Sjeng: build them, or "
                    "the share tdleaf solves", run_suites, (
        opt("--variant", default="suicide", metavar="V",
            help="suicide (default), giveaway or antichess"),
        opt("--out", required=True, metavar="DIR", help="the suites' folder"),
        opt("--build", metavar="PGN", help="build the suites from the games of this PGN file"),
        opt("--resume", action="store_true", help="carry on a --build in --out"),
        opt("--movetime", type=seconds_arg, action="append", metavar="S",
            help="solve the suites at S seconds a position (repeatable)"),
        opt("--report", metavar="FILE",
            help="where the solving run's report goes (default DIR/solve.json)"),
        opt("--flags", type=int, metavar="BITS",
            help="tdleaf's search technique bits (default: the variant's)"),
        opt("--proof-share", type=float, metavar="F",
            help="the share of a move's time for the proof search (default: the "
                 "variant's)"),
        opt("--proof-check", type=float, metavar="F",
            help="the share of a move's time kept for the proof check of the move "
                 "chosen (default: the variant's)"),
        opt("--proof-nodes", type=positive_int, default=_S.proof_nodes, metavar="N",
            help=f"the proof search's nodes per check (default {_S.proof_nodes})"),
        opt("--fsf-depth", type=positive_int, default=_S.fsf_depth, metavar="D",
            help=f"Fairy-Stockfish's depth per check (default {_S.fsf_depth})"),
        opt("--fsf-nodes", type=positive_int, default=_S.fsf_nodes, metavar="N",
            help=f"Fairy-Stockfish's nodes at most per check (default {_S.fsf_nodes:,})"),
        JSON), _doc(bench_suites)),
    Bench("startup", "protocol handshake time against Sjeng, Fairy-Stockfish and "
                     "'python -c pass'", run_startup, (
        opt("--runs", type=positive_int, default=bench_startup.DEFAULT_RUNS, metavar="N",
            help=f"starts of each engine (default {bench_startup.DEFAULT_RUNS})"),
        opt("--no-engines", action="store_true", help="skip Sjeng and Fairy-Stockfish"),
        opt("--json", action="store_true", help="print the report as JSON")),
          (bench_startup.__doc__ or "").split("\n\n", 1)[1], raw=False),
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` command group, one subcommand a row of :data:`BENCHES`."""
    p = add_command(subparsers, "bench",
                    description="Benchmarks; the figures and the commands behind them are in "
                                "BENCHMARKS.md. Run 'tdleaf bench BENCH --help' for the "
                                "options of one.")
    sub = p.add_subparsers(title="benchmarks", metavar="BENCH")
    p.set_defaults(run=None, parser=p)
    for bench in BENCHES:
        kwargs: dict[str, Any] = {"help": bench.help, "description": bench.description}
        if bench.raw:
            kwargs["formatter_class"] = argparse.RawDescriptionHelpFormatter
        b = sub.add_parser(bench.name, **kwargs)
        for flags, options in bench.options:
            b.add_argument(*flags, **options)
        b.set_defaults(run=bench.run)
