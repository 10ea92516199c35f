"""``tdleaf book``: build a variant's opening book with the proof-number search."""

from __future__ import annotations

import argparse
import shlex
import sys

from . import add_command
from .tools import CliError, add_backend_options, backend_of, positive_int

DESCRIPTION = """\
Build an opening book with the proof-number search (search.solve.book), as Nilatac built
its own: every position within --plies plies of the start (each once) is searched with
a tree of --nodes nodes, first for a forced win of the side to move, else for the
opponent's wins after each move, and each proof is carried to the positions before it.
The book keeps what was proved: the winning moves and the moves that lose; the engine plays a proved win and never a move the book refutes
(on a timed move, in the variants whose `book` is set in variants/spec.py: suicide and
antichess).

  tdleaf book --variant suicide --plies 2 --nodes 1000000 --workers 2

The book goes to --out (default: the per-user data folder's book/<variant>.json, which
the engine reads before the shipped one). One JSON line a position is kept beside it
(<out>.records.jsonl): the same command resumes a killed build from there.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``book`` subcommand."""
    p = add_command(subparsers, "book", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", required=True, metavar="V",
                   help="the variant (its proof search: suicide, giveaway, antichess, or any "
                        "with a decisive end)")
    p.add_argument("--plies", type=int, default=2, metavar="P",
                   help="positions within P plies of the start (default 2; 0: the start only)")
    p.add_argument("--nodes", type=positive_int, default=1_000_000, metavar="N",
                   help="the proof tree's size for each search, in nodes of 64 bytes "
                        "(default 1000000)")
    p.add_argument("--out", metavar="FILE", help="the book's file (default: the per-user "
                   "data folder's book/<variant>.json)")
    add_backend_options(p, "positions", "1")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``tdleaf book`` and return the exit status."""
    from tqdm import tqdm

    from search.shipped import user_data_dir
    from search.solve.book import relpath
    from tdleaf.play.book import build
    from variants import canonical_variant

    variant = canonical_variant(args.variant)
    if not 0 <= args.plies <= 4:
        raise CliError(f"--plies must be in 0..4 (the positions grow about 20-fold a ply), "
                       f"got {args.plies}")
    out = args.out or str(user_data_dir() / relpath(variant))
    backend = backend_of(args)
    command = "tdleaf " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == ["book"] else ""
    bar = tqdm(unit="position", disable=args.no_progress, dynamic_ncols=True)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    print(f"book: {variant}, positions within {args.plies} plies, trees of {args.nodes:,} "
          f"nodes, on {backend.describe()} -> {out}", file=sys.stderr)
    try:
        book = build(variant, args.plies, args.nodes, out, backend, command=command,
                     progress=progress)
    finally:
        bar.close()
    wins = sum(1 for e in book.entries.values() if e.wins)
    losses = sum(len(e.losses) for e in book.entries.values())
    print(f"{out}: {book.positions} positions searched, {len(book.entries)} with a proof: "
          f"{wins} with a proved win, {losses} moves proved to lose")
    return 0
