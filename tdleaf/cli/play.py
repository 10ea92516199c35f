"""``tdleaf uci`` and ``tdleaf xboard``: the engine for GUIs and match tools."""

from __future__ import annotations

import argparse
import io
import itertools
import sys

from .tools import CliError


UCI_DESCRIPTION = """\
Speak UCI on stdin/stdout.

Options:
  UCI_Variant      chess, crazyhouse, suicide, giveaway, antichess, atomic
  Hash             transposition table in MB (default 64)
  Weights          a weights.json path, a run folder, or a value set (traditional,
                   sunsetter, sjeng, losers, ones, report; learnt, learnt-material,
                   learnt-psq, avg-psq once shipped); default: the shipped weights
  Search           selective (default: null move, late-move reductions, futility,
                   razoring, SEE, aspiration windows), plain (the full-width
                   alpha-beta of the report) or mcts (PUCT over the heuristic prior;
                   one line, clocks/nodes/movetime/infinite)
  MultiPV          the N best lines (default 1), each with its exact score and PV
                   ('info ... multipv k ...')
  Ponder           GUIs may send 'go ponder' (pondering needs no other setting)
  UCI_AnalyseMode  accepted; changes nothing (the search is the same for play and
                   analysis: no contempt, no random tie-breaks, no resignation)

go: depth, nodes, movetime, wtime/btime/winc/binc/movestogo, mate N (stop at a win
in N moves; alone, search up to 2N plies), infinite and ponder (bestmove only after
stop/ponderhit), searchmoves M1 M2 ... (illegal ones reported and ignored). The
bestmove carries a ponder move when the PV has one.

A refused 'position' (bad FEN, illegal move, a position that cannot be played) leaves
no position: go answers 'bestmove 0000' with an info string saying why until a valid
'position' arrives. Positions python-chess calls impossible but plays (an impossible
check, ...) are accepted with an 'info string warning'.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``uci`` and ``xboard`` commands."""
    u = subparsers.add_parser(
        "uci", help="run the engine as a UCI engine on stdin/stdout",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=UCI_DESCRIPTION)
    u.set_defaults(run=run_uci)
    x = subparsers.add_parser(
        "xboard", help="run the engine as an XBoard (CECP v2) engine on stdin/stdout",
        description="Speak the XBoard/CECP v2 protocol on stdin/stdout. Variants: normal, "
                    "crazyhouse, suicide, giveaway, atomic. A refused setboard leaves no "
                    "position: moves and go are answered with errors, never with a move, "
                    "until new or a valid setboard.")
    x.add_argument("--weights", metavar="SPEC",
                   help="weights.json path, run folder or value-set name (default: shipped)")
    x.add_argument("--hash", type=int, default=64, metavar="MB", help="hash size (default 64)")
    x.add_argument("--search", choices=["selective", "plain"], default="selective",
                   help="selective (null move, reductions, pruning; default) or plain "
                        "(full width, the report's setting)")
    x.set_defaults(run=run_xboard)


def run_uci(args: argparse.Namespace) -> int:
    from search.uci import main
    return main()


def run_xboard(args: argparse.Namespace) -> int:
    if args.hash < 1:
        raise CliError(f"--hash must be >= 1, got {args.hash}")
    # GUIs give an engine about two seconds to answer "protover": answer before the
    # heavy imports (numpy, numba), asking for time with "feature done=0".
    inp = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    early: list[str] = []
    for line in inp:
        early.append(line)
        if line.split()[:1] == ["protover"]:
            print("feature done=0", flush=True)
            break
        if line.strip() == "quit":
            return 0
    from search.xboard import XBoardEngine
    return XBoardEngine(itertools.chain(early, inp), weights=args.weights, hash_mb=args.hash,
                        search=args.search).run()
