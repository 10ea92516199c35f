"""``tdleaf bench``: the benchmark commands (perft, search, selfplay); the measurements
themselves live in :mod:`tdleaf.bench`."""

from __future__ import annotations

import argparse
import sys

from tdleaf.bench.common import print_report
from tdleaf.bench.perft import POSITIONS
from tdleaf.bench.positions import SEARCH_VARIANTS, positions
from tdleaf.bench.search import DEFAULT_DEPTH, DEFAULT_MOVETIME, HASH_MB, VALUE_SET
from tdleaf.bench.selfplay import VARIANTS as SELFPLAY_VARIANTS
from variants.spec import RULE_FAMILIES

from . import add_command
from .tools import CliError, depth_arg, positive_int, seconds_arg

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


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` command group, one subcommand a benchmark."""
    p = add_command(subparsers, "bench",
                    description="Benchmarks; the figures and the commands behind them are in "
                                "BENCHMARKS.md. Run 'tdleaf bench BENCH --help' for the "
                                "options of one.")
    sub = p.add_subparsers(title="benchmarks", metavar="BENCH")
    p.set_defaults(run=None, parser=p)

    b = sub.add_parser("perft", help="perft leaves/s against python-chess and Fairy-Stockfish",
                       description=PERFT_DESCRIPTION)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants to run (default: all of " + ", ".join(POSITIONS) + ")")
    b.add_argument("--depth", type=depth_arg, metavar="D",
                   help="one depth for every position and engine (default: per position)")
    b.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    b.add_argument("--no-engines", action="store_true",
                   help="do not run external engines (Fairy-Stockfish)")
    b.add_argument("--no-startup", action="store_true",
                   help="skip the cold-compile and warm-start measurements (the cold "
                        "compile takes about half a minute)")
    b.add_argument("--fairy-stockfish", metavar="PATH",
                   help="the Fairy-Stockfish binary (default: found on PATH or /usr/games)")
    b.add_argument("--quick", action="store_true", help=argparse.SUPPRESS)  # for the tests
    b.set_defaults(run=run_perft)

    b = sub.add_parser("search", help="search nodes/s against Sjeng, Fairy-Stockfish "
                                      "and python-chess; memory of 'tdleaf uci'",
                       description=SEARCH_DESCRIPTION)
    b.add_argument("--variant", action="append", metavar="V",
                   help="variant to run, repeatable (default: " + ", ".join(SEARCH_VARIANTS) + ")")
    b.add_argument("--depth", type=positive_int, metavar="D",
                   help=f"plies of tdleaf's fixed-depth search (default {DEFAULT_DEPTH})")
    b.add_argument("--movetime", type=seconds_arg, metavar="S",
                   help=f"seconds per position of the fixed-time searches (default "
                        f"{DEFAULT_MOVETIME:g}; Sjeng's 'st' takes whole seconds, so it gets "
                        f"at least 1)")
    b.add_argument("--python-chess-movetime", type=seconds_arg, metavar="S",
                   help="seconds per position for the python-chess alpha-beta "
                        "(default: --movetime)")
    b.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    b.add_argument("--no-engines", action="store_true",
                   help="do not run the external engines (Sjeng, Fairy-Stockfish)")
    b.add_argument("--no-memory", action="store_true",
                   help="skip the memory measurement of 'tdleaf uci'")
    b.add_argument("--sjeng", metavar="PATH",
                   help="the Sjeng binary (default: on PATH or /usr/games)")
    b.add_argument("--fairy-stockfish", metavar="PATH",
                   help="the Fairy-Stockfish binary (default: on PATH or /usr/games)")
    b.add_argument("--quick", action="store_true", help=argparse.SUPPRESS)  # for the tests
    b.set_defaults(run=run_search)

    from tdleaf.bench import prior as bench_prior_module
    b = sub.add_parser("prior", help="quality of the heuristic prior against Fairy-Stockfish; "
                                     "MCTS playouts/s",
                       description=bench_prior_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help=f"variants (default: {' '.join(bench_prior_module.VARIANTS)})")
    b.add_argument("--depth", type=depth_arg, action="append", metavar="D",
                   help="prior depth, repeatable (default: 0 and 1)")
    b.add_argument("--fit", action="store_true",
                   help="measure at the maximum-likelihood temperature, not the stored one")
    b.add_argument("--save", nargs="?", const="", metavar="FILE",
                   help="store the fitted temperatures (implies --fit): a value set's in "
                        "FILE (default: prior.json in the per-user data folder, "
                        "$TDLEAF_DATA, read before the shipped one), a weights file's in "
                        "its meta, shipped learnt weights' in a copy of their weights.json "
                        "in the per-user data folder; never in the installed package")
    b.add_argument("--weights", metavar="W",
                   help="a value set, reference set, weights.json or result folder (default: "
                        "the variant's default weights)")
    b.add_argument("--no-mcts", action="store_true", help="skip the MCTS playouts/s measurement")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_prior)

    from tdleaf.bench import selfplay
    b = sub.add_parser("selfplay", help="self-play games per hour per core (learning speed)",
                       description=selfplay.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: " + ", ".join(SELFPLAY_VARIANTS) + ")")
    b.add_argument("--features", choices=["material", "psq", "both"], default="both",
                   help="material only, with piece-square tables, or both (default)")
    b.add_argument("--games", type=int, default=4, help="games per variant and feature set (default 4)")
    b.add_argument("--depth", type=int, default=5, help="search depth (default 5, plus quiescence)")
    b.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    b.add_argument("--search", choices=["plain", "selective", "both"], default="both",
                   help="the search mode(s) to measure (default both)")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_selfplay)

    from tdleaf.bench import blocks as bench_blocks_module
    b = sub.add_parser("blocks", help="nodes/s cost of each leaf feature block",
                       description=bench_blocks_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: one per set of rules: "
                        + ", ".join(RULE_FAMILIES) + ")")
    b.add_argument("--block", action="extend", nargs="+", metavar="B",
                   help="blocks to measure, each alone, or sets measured together "
                        "(safety+drops); default: every leaf block that fits, alone")
    b.add_argument("--depth", type=positive_int, default=bench_blocks_module.DEPTH,
                   metavar="D", help=f"search depth (default {bench_blocks_module.DEPTH})")
    b.add_argument("--positions", type=positive_int, default=bench_blocks_module.POSITIONS,
                   metavar="N", help=f"positions per variant (default "
                                     f"{bench_blocks_module.POSITIONS})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_blocks)

    from tdleaf.bench import margins as bench_margins_module
    b = sub.add_parser("margins", help="the pruning margins and aspiration window refitted "
                                       "to an evaluation",
                       description=bench_margins_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: those that ship the reference tables and play "
                        "another evaluation by default)")
    b.add_argument("--weights", metavar="W",
                   help="the evaluation to fit to: a value set, reference set, weights.json or "
                        "result folder (default: each variant's default weights)")
    b.add_argument("--reference", default=bench_margins_module.REFERENCE, metavar="R",
                   help="the evaluation the spec's margins were measured with (default "
                        f"{bench_margins_module.REFERENCE})")
    b.add_argument("--positions", type=positive_int, metavar="N",
                   help="the first N labelled positions of each variant (default: all: 400, 2,000 in crazyhouse and atomic)")
    b.add_argument("--save", action="store_true",
                   help="store the refitted margins in the weights' meta, which the engine "
                        "then plays (shipped weights: in their copy in the per-user data "
                        "folder, never in the installed package)")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_margins)

    from tdleaf.bench import speedup as bench_speedup_module
    b = sub.add_parser("speedup", help="this checkout's search speed against another "
                                       "commit's, in one process",
                       description=bench_speedup_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--base", required=True, metavar="REV",
                   help="the commit to compare with (any git revision: HEAD, HEAD~3, a sha)")
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: one per set of rules: "
                        + ", ".join(RULE_FAMILIES) + ")")
    b.add_argument("--weights", metavar="W",
                   help="the evaluation both play: a value set, reference set, weights.json "
                        "or result folder (default: each variant's default weights)")
    b.add_argument("--depth", type=positive_int, default=bench_speedup_module.DEPTH,
                   metavar="D", help=f"search depth (default {bench_speedup_module.DEPTH})")
    b.add_argument("--positions", type=positive_int, default=bench_speedup_module.POSITIONS,
                   metavar="N", help="positions per variant (default "
                                     f"{bench_speedup_module.POSITIONS})")
    b.add_argument("--rounds", type=positive_int, default=bench_speedup_module.ROUNDS,
                   metavar="N", help=f"rounds over the positions (default "
                                     f"{bench_speedup_module.ROUNDS})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_speedup)

    from tdleaf.bench import selective
    b = sub.add_parser("selective", help="Elo of each selective-search technique (SPRT matches)",
                       description=selective.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: one of each rule set: " + ", ".join(RULE_FAMILIES) + ")")
    b.add_argument("--movetime", type=seconds_arg, default=0.05, metavar="S",
                   help="seconds a move for both sides (default 0.05)")
    b.add_argument("--max-games", type=positive_int, default=1000, metavar="N",
                   help="games at most per technique (default 1000)")
    b.add_argument("--sprt", default="0,15", metavar="ELO0,ELO1[,ALPHA,BETA]",
                   help="the sequential test of each technique (default 0,15)")
    b.add_argument("--workers", type=positive_int, default=1, metavar="W")
    b.add_argument("--out", default="runs/bench-selective", metavar="DIR",
                   help="folder of the matches' PGNs and report.json (default runs/bench-selective)")
    b.add_argument("--ablate", action="store_true",
                   help="take each technique out of the full selective set instead of adding "
                        "them one at a time (what each is worth among the others)")
    b.add_argument("--technique", action="append", metavar="NAME",
                   help="measure only this technique (repeatable), e.g. 'late-move reductions'")
    b.add_argument("--resume", action="store_true", help="carry on the matches in --out")
    b.set_defaults(run=run_selective)

    from tdleaf.bench import backend as bench_backend_module
    b = sub.add_parser("backend", help="games/s of one match on local workers and on Ray",
                       description=bench_backend_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", default=bench_backend_module.VARIANT, metavar="V",
                   help=f"(default {bench_backend_module.VARIANT})")
    b.add_argument("--depth", type=positive_int, default=bench_backend_module.DEPTH, metavar="D",
                   help=f"both players' depth (default {bench_backend_module.DEPTH})")
    b.add_argument("--games", type=positive_int, default=bench_backend_module.GAMES, metavar="N",
                   help=f"games a match (default {bench_backend_module.GAMES})")
    b.add_argument("--workers", type=positive_int, default=bench_backend_module.WORKERS,
                   metavar="W", help=f"on each backend (default {bench_backend_module.WORKERS})")
    b.add_argument("--rounds", type=positive_int, default=bench_backend_module.ROUNDS,
                   metavar="N", help=f"matches on each backend (default "
                                     f"{bench_backend_module.ROUNDS})")
    b.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster (default: RAY_ADDRESS, a running local one, else a "
                        "private one)")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_backend)

    from tdleaf.bench import batches as bench_batches_module
    b = sub.add_parser("batches", help="games/s of a ladder's batches, players kept from batch "
                                       "to batch against started for each",
                       description=bench_batches_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", default=bench_batches_module.VARIANT, metavar="V",
                   help=f"(default {bench_batches_module.VARIANT}, against its UCI_Elo engine)")
    b.add_argument("--nodes", type=positive_int, default=bench_batches_module.NODES, metavar="N",
                   help=f"tdleaf's nodes a move (default {bench_batches_module.NODES})")
    b.add_argument("--engine-nodes", type=positive_int, default=bench_batches_module.ENGINE_NODES,
                   metavar="N", help=f"the engine's nodes a move (default "
                                     f"{bench_batches_module.ENGINE_NODES})")
    b.add_argument("--batches", type=positive_int, default=bench_batches_module.BATCHES,
                   metavar="N", help=f"batches of two games a series (default "
                                     f"{bench_batches_module.BATCHES})")
    b.add_argument("--workers", type=positive_int, default=bench_batches_module.WORKERS,
                   metavar="W", help=f"local workers (default {bench_batches_module.WORKERS})")
    b.add_argument("--rounds", type=positive_int, default=bench_batches_module.ROUNDS,
                   metavar="N", help=f"series played each way (default "
                                     f"{bench_batches_module.ROUNDS})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_batches)

    from tdleaf.bench import encoding as bench_encoding_module
    b = sub.add_parser("encoding", help="positions/s of the network encoding against move "
                                        "generation",
                       description=bench_encoding_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default: one per set of rules: " + ", ".join(RULE_FAMILIES) + ")")
    b.add_argument("--rounds", type=positive_int, default=bench_encoding_module.ROUNDS,
                   metavar="N", help=f"rounds (default {bench_encoding_module.ROUNDS})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_encoding)

    from tdleaf.bench import mcts as bench_mcts_module
    m = bench_mcts_module
    b = sub.add_parser("mcts", help="MCTS playouts/s (trivial evaluator, prior, network) "
                                    "against alpha-beta nodes/s",
                       description=m.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V",
                   help="variants (default those networks are taught for: "
                        "crazyhouse and atomic)")
    b.add_argument("--positions", type=positive_int, default=m.POSITIONS, metavar="N",
                   help=f"labelled positions a variant (default {m.POSITIONS})")
    b.add_argument("--playouts", type=positive_int, default=m.PLAYOUTS, metavar="N",
                   help=f"a search (default {m.PLAYOUTS})")
    b.add_argument("--depth", type=positive_int, default=m.DEPTH, metavar="D",
                   help=f"the alpha-beta reference's depth (default {m.DEPTH})")
    b.add_argument("--net", metavar="NET", help="a network (.onnx) or 'shipped' for a network row")
    b.add_argument("--threads", type=positive_int, default=1, metavar="N",
                   help="the network's threads (default 1)")
    b.add_argument("--rounds", type=positive_int, default=m.ROUNDS, metavar="N",
                   help=f"rounds (default {m.ROUNDS})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_mcts)

    from tdleaf.bench import teacher as bench_teacher_module
    b = sub.add_parser("teacher", help="top-1 of tdleaf's search at each depth against the "
                                       "prior positions' labels (the network's teacher)",
                       description=bench_teacher_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", action="extend", nargs="+", metavar="V", required=True,
                   help="variants")
    b.add_argument("--depth", type=positive_int, action="append", metavar="D",
                   help="search depth, repeatable (default: "
                        + ", ".join(map(str, bench_teacher_module.DEPTHS)) + ")")
    b.add_argument("--weights", metavar="W",
                   help="the evaluation searched (default: the variant's)")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_teacher)

    from tdleaf.bench import net as bench_net_module
    b = sub.add_parser("net", help="positions/s of the policy-value network: inference at "
                                   "batch 1, 8, 16 and training (needs tdleaf[net])",
                       description=bench_net_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", default=bench_net_module.VARIANT, metavar="V",
                   help=f"whose labelled positions (default {bench_net_module.VARIANT})")
    b.add_argument("--channels", type=positive_int, default=32, metavar="C")
    b.add_argument("--blocks", type=positive_int, default=4, metavar="B")
    b.add_argument("--threads", type=positive_int, default=2, metavar="N",
                   help="torch threads (default 2)")
    b.add_argument("--rounds", type=positive_int, default=bench_net_module.ROUNDS, metavar="N")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_net)

    from tdleaf.bench import suites as bench_suites_module
    b = sub.add_parser("suites", help="the losing variants' suites from games against Sjeng: "
                                      "build them, or the share tdleaf solves",
                       description=bench_suites_module.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--variant", default="suicide", metavar="V",
                   help="suicide (default), giveaway or antichess")
    b.add_argument("--out", required=True, metavar="DIR", help="the suites' folder")
    b.add_argument("--build", metavar="PGN",
                   help="build the suites from the games of this PGN file")
    b.add_argument("--resume", action="store_true", help="carry on a --build in --out")
    b.add_argument("--movetime", type=seconds_arg, action="append", metavar="S",
                   help="solve the suites at S seconds a position (repeatable)")
    b.add_argument("--report", metavar="FILE",
                   help="where the solving run's report goes (default DIR/solve.json)")
    b.add_argument("--flags", type=int, metavar="BITS",
                   help="tdleaf's search technique bits (default: the variant's)")
    b.add_argument("--proof-share", type=float, metavar="F",
                   help="the share of a move's time for the proof search (default: the "
                        "variant's)")
    b.add_argument("--proof-check", type=float, metavar="F",
                   help="the share of a move's time kept for the proof check of the move "
                        "chosen (default: the variant's)")
    b.add_argument("--proof-nodes", type=positive_int, default=bench_suites_module.Checks.proof_nodes,
                   metavar="N", help="the proof search's nodes per check (default "
                                     f"{bench_suites_module.Checks.proof_nodes})")
    b.add_argument("--fsf-depth", type=positive_int, default=bench_suites_module.Checks.fsf_depth,
                   metavar="D", help="Fairy-Stockfish's depth per check (default "
                                     f"{bench_suites_module.Checks.fsf_depth})")
    b.add_argument("--fsf-nodes", type=positive_int, default=bench_suites_module.Checks.fsf_nodes,
                   metavar="N", help="Fairy-Stockfish's nodes at most per check (default "
                                     f"{bench_suites_module.Checks.fsf_nodes:,})")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.set_defaults(run=run_suites)

    from tdleaf.bench import startup
    b = sub.add_parser("startup", help="protocol handshake time against Sjeng, Fairy-Stockfish "
                                       "and 'python -c pass'",
                       description=startup.__doc__.split("\n\n", 1)[1])
    b.add_argument("--runs", type=positive_int, default=startup.DEFAULT_RUNS, metavar="N",
                   help=f"starts of each engine (default {startup.DEFAULT_RUNS})")
    b.add_argument("--no-engines", action="store_true", help="skip Sjeng and Fairy-Stockfish")
    b.add_argument("--json", action="store_true", help="print the report as JSON")
    b.set_defaults(run=run_startup)


def run_perft(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench perft``; exit status 1 if any count disagrees."""
    from tdleaf.bench.perft import bench_perft, format_report

    if args.depth == 0:
        raise CliError("bench depth must be >= 1")
    report = bench_perft(args.variant, args.depth, engines=not args.no_engines,
                         startup=not args.no_startup, quick=args.quick,
                         fsf_path=args.fairy_stockfish,
                         progress=not args.json and sys.stderr.isatty())
    print_report(report, args.json, format_report)
    return 0 if report["agree"] else 1


def run_search(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench search``."""
    import variants
    from tdleaf.bench.search import bench_search, format_report

    for v in args.variant or []:
        try:
            name = variants.canonical_variant(v)
        except variants.VariantError as exc:
            raise CliError(str(exc)) from None
        if not positions(name):
            raise CliError(f"no search positions for {name}; choose from "
                           + ", ".join(SEARCH_VARIANTS))
    report = bench_search(args.variant, args.depth, args.movetime, args.python_chess_movetime,
                          engines=not args.no_engines, memory=not args.no_memory,
                          quick=args.quick, sjeng_path=args.sjeng, fsf_path=args.fairy_stockfish,
                          progress=not args.json and sys.stderr.isatty())
    print_report(report, args.json, format_report)
    return 0


def run_prior(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench prior``."""
    from search.layout import WeightsError
    from search.shipped import ShippedDataError
    from tdleaf.bench.prior import bench_prior, format_report

    try:
        report = bench_prior(args.variant, args.depth or [0, 1], fit=args.fit,
                             save=args.save is not None, save_path=args.save or None,
                             mcts=not args.no_mcts, progress=not args.json, weights=args.weights)
    except (WeightsError, ShippedDataError) as exc:
        raise CliError(str(exc)) from None
    print_report(report, args.json, format_report)
    for path in report["saved"]:
        print(f"tdleaf bench prior: saved the fitted temperatures to {path}", file=sys.stderr)
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench selfplay``."""
    from tdleaf.bench.selfplay import bench_selfplay, format_report
    from variants import canonical_variant

    if args.games < 1 or args.depth < 1:
        raise CliError("--games and --depth must be >= 1")
    names = [canonical_variant(v) for v in (args.variant or SELFPLAY_VARIANTS)]
    features = ["material", "psq"] if args.features == "both" else [args.features]
    searches = ("plain", "selective") if args.search == "both" else (args.search,)
    report = bench_selfplay(names, features, args.games, args.depth, args.seed,
                            progress=not args.json, searches=searches)
    print_report(report, args.json, format_report)
    return 0


def run_blocks(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench blocks``."""
    from search.layout import BLOCKS
    from tdleaf.bench.blocks import bench_blocks, format_report
    from variants import canonical_variant

    names = [canonical_variant(v) for v in (args.variant or RULE_FAMILIES)]
    for b in (part for name in args.block or [] for part in name.split("+")):
        if b not in BLOCKS or BLOCKS[b].evaluation != "leaf":
            raise CliError(f"unknown leaf block {b!r}; expected one of: " + ", ".join(
                n for n, blk in BLOCKS.items() if blk.evaluation == "leaf"))
    report = bench_blocks(names, args.block, args.depth, args.positions,
                          progress=not args.json and sys.stderr.isatty())
    print_report(report, args.json, format_report)
    return 0


def run_margins(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench margins``."""
    from search.layout import WeightsError
    from search.shipped import ShippedDataError
    from tdleaf.bench.margins import bench_margins, default_variants, format_report
    from variants import canonical_variant

    names = [canonical_variant(v) for v in args.variant or default_variants()]
    if args.weights and len(names) != 1:
        raise CliError("--weights needs exactly one --variant")
    try:
        report = bench_margins(names, args.weights, args.reference, args.positions,
                               progress=not args.json and sys.stderr.isatty(), save=args.save)
    except (WeightsError, ShippedDataError, ValueError) as exc:
        raise CliError(str(exc)) from None
    print_report(report, args.json, format_report)
    return 0


def run_speedup(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench speedup``."""
    from search.layout import WeightsError
    from tdleaf.bench.speedup import SpeedupError, bench_speedup, format_report
    from variants import canonical_variant

    names = [canonical_variant(v) for v in args.variant or RULE_FAMILIES]
    if args.weights and len(names) != 1:
        raise CliError("--weights needs exactly one --variant")
    try:
        reports = [bench_speedup(v, args.base, args.weights, args.depth, args.positions,
                                 args.rounds, progress=not args.json and sys.stderr.isatty())
                   for v in names]
    except (SpeedupError, WeightsError) as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "speedup", "rows": reports}, args.json,
                 lambda r: format_report(r["rows"]))
    return 0


def run_encoding(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench encoding``."""
    from tdleaf.bench.encoding import bench_encoding, format_report
    from tdleaf.play.epd import EpdError
    from variants import canonical_variant

    names = [canonical_variant(v) for v in args.variant or RULE_FAMILIES]
    try:
        rows = [bench_encoding(v, args.rounds) for v in names]
    except EpdError as exc:
        raise CliError(f"{exc} (a variant without its own labelled positions: use the "
                       f"one with its rules)") from None
    print_report({"benchmark": "encoding", "rows": rows}, args.json,
                 lambda r: format_report(r["rows"]))
    return 0


def run_mcts(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench mcts``."""
    from search.network import NetworkError
    from tdleaf.bench.mcts import bench_mcts, format_report
    from tdleaf.bench.prior_data import POSITIONS
    from tdleaf.play.epd import EpdError
    from variants import canonical_variant
    names = [canonical_variant(v) for v in args.variant or POSITIONS]
    try:
        rows = [bench_mcts(v, args.positions, args.playouts, args.depth, args.net,
                           args.threads, args.rounds) for v in names]
    except (EpdError, NetworkError) as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "mcts", "rows": rows}, args.json,
                 lambda r: format_report(r["rows"]))
    return 0


def run_teacher(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench teacher``."""
    from search.layout import WeightsError
    from tdleaf.bench.teacher import DEPTHS, bench_teacher, format_report
    from tdleaf.play.epd import EpdError
    from variants import canonical_variant

    depths = tuple(args.depth or DEPTHS)
    try:
        rows = [bench_teacher(canonical_variant(v), depths, args.weights) for v in args.variant]
    except (EpdError, WeightsError) as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "teacher", "rows": rows}, args.json,
                 lambda r: format_report(r["rows"]))
    return 0


def run_suites(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench suites``."""
    from pathlib import Path

    from tdleaf.bench import suites
    from tdleaf.play.epd import EpdError
    from tdleaf.play.gamefiles import PgnError
    from variants import UnknownVariantError

    if not args.build and not args.movetime:
        raise CliError("bench suites: nothing to do: give --build PGN, --movetime S, or both")
    checks = suites.Checks(proof_nodes=args.proof_nodes, fsf_depth=args.fsf_depth,
                           fsf_nodes=args.fsf_nodes)
    out = Path(args.out)
    try:
        variant = suites.check_variant(args.variant)
        from .tools import say_if_no_tables
        say_if_no_tables(variant)           # the engine's moves and the judge's proofs
        if args.build:
            counts = suites.build(Path(args.build), variant, out, checks, resume=args.resume,
                                  progress=lambda text: print(text, file=sys.stderr, flush=True))
            print(f"{out}: wins {counts['wins']} positions, defence {counts['defence']}")
        if args.movetime:
            report = suites.solve(out, variant, args.movetime, checks, flags=args.flags,
                                  proof_share=args.proof_share, proof_check=args.proof_check,
                                  report_path=Path(args.report) if args.report else None)
            print_report({"benchmark": "suites", **report}, args.json, suites.format_report)
    except (UnknownVariantError, ValueError, OSError, EpdError, PgnError) as exc:
        raise CliError(str(exc)) from None
    return 0


def run_net(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench net``."""
    from tdleaf.bench.net import bench_net, format_report
    from tdleaf.learn.net import NetError
    from variants import canonical_variant

    try:
        report = bench_net(canonical_variant(args.variant), args.channels, args.blocks,
                           args.threads, args.rounds)
    except NetError as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "net", **report}, args.json, format_report)
    return 0


def run_backend(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench backend``."""
    from tdleaf.backend import BackendError
    from tdleaf.bench.backend import bench_backend, format_report
    from tdleaf.play.match import MatchError
    from variants import canonical_variant

    try:
        report = bench_backend(canonical_variant(args.variant), args.depth, args.games,
                               args.workers, args.rounds, args.address,
                               progress=not args.json and sys.stderr.isatty())
    except (BackendError, MatchError) as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "backend", **report}, args.json, format_report)
    return 0


def run_batches(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench batches``."""
    from tdleaf.backend import BackendError
    from tdleaf.bench.batches import bench_batches, format_report
    from tdleaf.play.ladder import LadderError
    from tdleaf.play.match import MatchError
    from variants import canonical_variant

    try:
        report = bench_batches(canonical_variant(args.variant), args.nodes, args.engine_nodes,
                               args.batches, args.workers, args.rounds,
                               progress=not args.json and sys.stderr.isatty())
    except (BackendError, MatchError, LadderError, ValueError) as exc:
        raise CliError(str(exc)) from None
    print_report({"benchmark": "batches", **report}, args.json, format_report)
    return 0


def run_selective(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench selective``."""
    from pathlib import Path

    from tdleaf.bench.selective import format_report, run, techniques
    from tdleaf.play.stats import Sprt
    from variants import canonical_variant

    try:
        Sprt.parse(args.sprt)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    names = [canonical_variant(v) for v in (args.variant or RULE_FAMILIES)]
    known = [name for name, _ in techniques()]
    for name in args.technique or []:
        if name not in known:
            raise CliError(f"unknown technique {name!r}; one of: {', '.join(known)}")
    for name in names:
        report = run(name, Path(args.out) / name, movetime=args.movetime,
                     max_games=args.max_games, sprt=args.sprt, workers=args.workers,
                     resume=args.resume, ablate=args.ablate, only=args.technique,
                     progress=lambda text: print(text, flush=True))
        print(format_report(report), flush=True)
    return 0


def run_startup(args: argparse.Namespace) -> int:
    """Execute ``tdleaf bench startup``."""
    from tdleaf.bench.startup import bench_startup, format_report

    report = bench_startup(args.runs, engines=not args.no_engines,
                           progress=not args.json and sys.stderr.isatty())
    print_report(report, args.json, format_report)
    return 0
