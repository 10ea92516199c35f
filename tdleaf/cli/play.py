"""``tdleaf uci`` and ``tdleaf xboard``: the engine for GUIs and match tools.

Both start fast: registering them and running them import nothing heavy before the
first protocol line (the compiled engine loads in a background thread meanwhile).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from search.alphabeta.modes import SEARCHES
from variants.spec import xboard_names

from . import add_command
from .tools import CliError

UCI_INTRO = "Speak UCI on stdin/stdout."

UCI_COMMANDS = """\
go: depth, nodes, movetime, wtime/btime/winc/binc/movestogo, mate N (stop at a win
in N moves; alone, search up to 2N plies), infinite and ponder (bestmove only after
stop/ponderhit), searchmoves M1 M2 ... (illegal ones reported and ignored). The
bestmove carries a ponder move when the PV has one. A negative value (or depth,
nodes, movestogo or mate of 0, or a value that is not a whole number) is refused with
an 'info string error: ...' and nothing is searched; movetime 0 or a clock at 0 moves
at once.

A refused 'position' (bad FEN, illegal move, a position that cannot be played) leaves
no position: go answers 'bestmove 0000' with an info string saying why until a valid
'position' arrives. Positions python-chess calls impossible but plays (an impossible
check, ...) are accepted with an 'info string warning'.

At start the engine loads its compiled code in the background: 'uci' is answered at
once, 'isready' when the code is loaded (the first run on a machine compiles it, a
minute or more: 'tdleaf warmup' does that ahead of time). Once the weights are loaded
an 'info string weights for VARIANT: ...' names them and where they were read from.
"""


def uci_description() -> str:
    """The full text of ``tdleaf uci --help``: the options from the table the engine
    declares (:data:`search.protocol.uci.OPTIONS`), so the two cannot disagree."""
    from search.protocol.uci import options_help
    return f"{UCI_INTRO}\n\nOptions:\n{options_help()}\n\n{UCI_COMMANDS}"


class _UciHelp(argparse.Action):
    """``-h``/``--help`` of ``tdleaf uci``: builds the option list only when asked, so
    that running the engine does not pay for it."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        parser.description = uci_description()
        parser.print_help()
        parser.exit()


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``uci`` and ``xboard`` commands."""
    u = add_command(subparsers, "uci", add_help=False, description=UCI_INTRO,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    u.add_argument("-h", "--help", action=_UciHelp, help="show this help message and exit")
    u.set_defaults(run=run_uci)
    x = add_command(
        subparsers, "xboard",
        description="Speak the XBoard/CECP v2 protocol on stdin/stdout. Variants: "
                    + ", ".join(xboard_names()) + ". 'protover' is answered at once "
                    "with 'feature done=0' while the compiled code loads, then with the "
                    "features and done=1. A refused setboard leaves no position: moves and "
                    "go are answered with errors, never with a move, until new or a valid "
                    "setboard. sd and st with a negative or malformed value are answered "
                    "with Error (...) and change nothing; st 0 moves at once.")
    x.add_argument("--weights", metavar="SPEC",
                   help="weights.json path, run folder or value-set name (default: shipped)")
    x.add_argument("--hash", type=int, default=64, metavar="MB", help="hash size (default 64)")
    x.add_argument("--search", choices=SEARCHES, default="selective",
                   help="selective (null move, reductions, pruning; default), plain "
                        "(full width, the report's setting) or mcts (PUCT over the heuristic "
                        "prior, or --net)")
    x.add_argument("--net", default="none", metavar="NET",
                   help="with --search mcts: a network file (.onnx) or 'shipped' that guides "
                        "it (default none; also the option Net)")
    x.set_defaults(run=run_xboard)


def _answer_promptly() -> None:
    """While the warm-up thread loads the compiled code it holds the interpreter, and
    the reader thread waits up to a switch interval (5 ms by default) for it at each
    read and write: 1 ms keeps the handshake prompt (the process is ours alone)."""
    sys.setswitchinterval(0.001)


def run_uci(args: argparse.Namespace) -> int:
    _answer_promptly()
    from search.protocol.uci import main
    return main()


def run_xboard(args: argparse.Namespace) -> int:
    if args.hash < 1:
        raise CliError(f"--hash must be >= 1, got {args.hash}")
    _answer_promptly()
    from search.protocol.xboard import XBoardEngine
    return XBoardEngine(weights=args.weights, hash_mb=args.hash, search=args.search,
                        net=args.net).run()
