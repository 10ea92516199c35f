"""``tdleaf perft``: count the leaves of the legal move tree of one position, or check a
suite of positions in EPD perft form against the counts it lists."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from tdleaf.bench.common import si
from tdleaf.play.perft_suite import (
    SuiteEntry,
    check_positions,
    read_suite,
    run_suite,
    suite_checks,
)

from . import add_command
from .tools import CliError, depth_arg, print_json

DESCRIPTION = """\
Count the leaf nodes of the legal move tree (perft) with the numba rules of the
`variants` package, which match python-chess 1.11.2 exactly.

One position:  tdleaf perft --variant V [--fen FEN] --depth D [--divide] [--json]
A suite:       tdleaf perft --variant V --epd FILE [--depth D] [--json]

An EPD suite has one position a line, in the usual perft form
    FEN ;D1 20 ;D2 400 ;D3 8902
(blank lines and lines starting with # are ignored). Every depth listed is checked;
--depth D then only checks depths up to D. The exit status is 1 when a count differs
from the one expected, 2 on bad input (a one-line 'tdleaf: error: ...' on stderr).

Positions python-chess's status() calls impossible but can still play (a check no
game can reach, a pawn on its back rank, an en-passant square without a double push,
...) are counted as python-chess counts them, after a 'tdleaf: warning: ...' line on
stderr naming the problem; --strict refuses them (exit 2). Positions that cannot be
played at all (no king where the variant needs one, two kings, the side to move giving
check, ...) are always refused.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``perft`` subcommand."""
    p = add_command(subparsers, "perft", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    from variants.spec import variant_list
    p.add_argument("--variant", default="chess", metavar="V",
                   help=f"{variant_list()} (default: chess)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--fen", metavar="FEN",
                     help="the position (default: the variant's start position); in crazyhouse, "
                          "X-FEN with the pockets in brackets: '.../RNBQKBNR[Qn] w ...'")
    src.add_argument("--epd", metavar="FILE", help="check every position and depth of an EPD suite")
    p.add_argument("--depth", type=depth_arg, metavar="D",
                   help="search depth in plies (required without --epd); with --epd, "
                        "check only the depths <= D")
    p.add_argument("--divide", action="store_true",
                   help="also print the leaf count below each root move")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--strict", action="store_true",
                   help="refuse positions python-chess's status() calls impossible even when "
                        "they can be played (default: count them, with a warning)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``tdleaf perft`` and return the exit status."""
    import variants

    variant = variants.canonical_variant(args.variant)
    if args.epd is not None:
        if args.divide:
            raise CliError("--divide cannot be used with --epd")
        entries = read_suite(args.epd)
        for warning in check_positions(variant, entries, args.epd, args.strict):
            _warn(warning)
        result = _run_suite(variant, entries, args.depth, progress=not args.json)
        if args.json:
            print_json(result)
        else:
            n, s = result["nodes"], result["seconds"]
            print(f"passed {result['passed']}, failed {result['failed']}; "
                  f"{n} nodes in {s:.3f} s ({si(n / s if s else None)} nodes/s)")
        return 1 if result["failed"] else 0

    if args.depth is None:
        raise CliError("--depth is required unless --epd is given (see 'tdleaf perft --help')")
    if args.divide and args.depth < 1:
        raise CliError("--divide needs --depth >= 1")
    fen = args.fen if args.fen is not None else variants.starting_fen(variant)
    # Validate the FEN and load the compiled code before timing.
    pos = variants.Position.from_fen(fen, variant, strict=args.strict, warn=False)
    if pos.problems:
        _warn(pos.warning)
    if args.divide:
        variants.divide(variant, fen, 1, warn=False)
    else:
        variants.perft(variant, fen, 0, warn=False)
    t0 = time.perf_counter()
    if args.divide:
        split = dict(sorted(variants.divide(variant, fen, args.depth, warn=False).items()))
        nodes = sum(split.values())
    else:
        split, nodes = None, variants.perft(variant, fen, args.depth, warn=False)
    seconds = time.perf_counter() - t0
    nps = nodes / seconds if seconds > 0 else None
    if args.json:
        out: dict[str, Any] = {"variant": variant, "fen": fen, "depth": args.depth,
                               "nodes": nodes, "seconds": seconds, "nodes_per_second": nps}
        if split is not None:
            out["divide"] = split
        print_json(out)
    else:
        if split is not None:
            for move, count in split.items():
                print(f"{move}: {count}")
            print(f"\nmoves: {len(split)}")
        print(f"nodes: {nodes}")
        print(f"seconds: {seconds:.3f}")
        print(f"nodes/s: {si(nps)}")
    return 0


def _warn(message: str) -> None:
    print(f"tdleaf: warning: {message}", file=sys.stderr)


def _run_suite(variant: str, entries: list[SuiteEntry], max_depth: int | None,
               progress: bool) -> dict[str, Any]:
    """:func:`~tdleaf.play.perft_suite.run_suite`, with a result line per check and a
    progress bar on stderr when it is a terminal (``progress``)."""
    if not progress:
        return run_suite(variant, entries, max_depth)
    from tqdm import tqdm

    from .tools import say_if_compiling
    say_if_compiling(("variants/count.py:perft",))     # a cold cache: a silent minute
    bar = tqdm(total=len(suite_checks(entries, max_depth)), unit="check", file=sys.stderr,
               leave=False, disable=not sys.stderr.isatty())

    def show(e: SuiteEntry, r: dict[str, Any]) -> None:
        verdict = "ok  " if r["ok"] else "FAIL"
        detail = f"{r['nodes']}" if r["ok"] else f"{r['nodes']} (expected {r['expected']})"
        tqdm.write(f"{verdict} line {e.line} D{r['depth']} {detail} {r['seconds']:.3f}s  {e.fen}",
                   file=sys.stdout)
        bar.update()

    try:
        return run_suite(variant, entries, max_depth, on_check=show)
    finally:
        bar.close()
