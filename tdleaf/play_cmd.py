"""``tdleaf uci`` and ``tdleaf xboard``: the engine for GUIs and match tools."""

from __future__ import annotations

import argparse

from .clitools import CliError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``uci`` and ``xboard`` commands."""
    u = subparsers.add_parser(
        "uci", help="run the engine as a UCI engine on stdin/stdout",
        description="Speak UCI on stdin/stdout. Options: UCI_Variant (chess, crazyhouse, "
                    "suicide, giveaway, antichess, atomic), Hash (MB, default 64), Weights "
                    "(a weights.json path, a run folder, or a value set: traditional, "
                    "sunsetter, sjeng, losers, ones; default: the shipped weights).")
    u.set_defaults(run=run_uci)
    x = subparsers.add_parser(
        "xboard", help="run the engine as an XBoard (CECP v2) engine on stdin/stdout",
        description="Speak the XBoard/CECP v2 protocol on stdin/stdout. Variants: normal, "
                    "crazyhouse, suicide, giveaway, atomic.")
    x.add_argument("--weights", metavar="SPEC",
                   help="weights.json path, run folder or value-set name (default: shipped)")
    x.add_argument("--hash", type=int, default=64, metavar="MB", help="hash size (default 64)")
    x.set_defaults(run=run_xboard)


def run_uci(args: argparse.Namespace) -> int:
    from search.uci import main
    return main()


def run_xboard(args: argparse.Namespace) -> int:
    if args.hash < 1:
        raise CliError(f"--hash must be >= 1, got {args.hash}")
    from search.xboard import XBoardEngine
    return XBoardEngine(weights=args.weights, hash_mb=args.hash).run()
