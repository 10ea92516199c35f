"""``tdleaf plot``: the figures of a ``tdleaf learn`` result folder (package ``plots``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import add_command
from .tools import CliError

DESCRIPTION = """\
Draw the figures of a result folder of 'tdleaf learn', in the style of the report
(Droste & Fuernkranz 2008, figures 5.1-8.4):

  curves        every piece value against games played: after every game the mean
                over runs of the raw weights, then normalised as the report does
                (one piece fixed per variant: see 'tdleaf learn --help'), +- one
                standard deviation over runs of the raw weights, same scale; pieces
                in hand as a second panel
  final-values  the final values, normalised the same way (mean, then normalise), with
                their standard deviation over runs; for piece-square runs the learnt
                material weights beside the tables' frequency-weighted averages (mean
                weights, visits summed over runs)
  heatmaps      piece-square runs: one 8x8 board per piece (all six, and each alone as
                heatmap-P ... heatmap-K), best square white, worst black, a1 bottom-left
  block-NAME    runs with leaf blocks (the variant's goal block in psq: block-hill,
                block-checks, block-race; --features psq+mobility: block-mobility):
                one bar per weight of the block, labelled by its key in weights.json,
                the mean over runs times the factor of the material values (the
                normalisation above), +- one standard deviation over runs, same scale
  summary       all of it on one page
  report.md     links every figure and tables the final values

A job still running (or interrupted) is plotted from what it has written so far.
Figures go to RUN_DIR/figures unless --out is given.

--curves RUN [RUN ...] draws instead the learning curves that 'tdleaf curve' measured
(each RUN's curve.json, or a curve file such as RUN/curve-NAME.json of 'tdleaf curve
--label NAME') in one figure, learning-curves.png: Elo against the fixed opponent, with
95% interval bars, against self-play games a run and against CPU hours of learning (log
axes), one series per curve labelled by its learner and features (and by what else
differs between them). It goes to RUN/figures for one folder; --out is needed for
several.

--loops DIR [DIR ...] draws expert iteration's loops ('tdleaf net iterate' folders, their
loop.json) in one figure, expert-iteration.png: the raw network's top-1 on the labelled
positions and its MCTS's Elo against the loop's fixed anchor, against the CPU hours of
learning (self-play, training, gate matches), one series a loop. It goes to DIR/figures
for one folder; --out is needed for several.

Exit status 2 with a one-line 'tdleaf: error: ...' when the folder or one of its files is
missing or malformed.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``plot`` subcommand."""
    p = add_command(subparsers, "plot", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", metavar="RUN_DIR", nargs="?",
                   help="a result folder of 'tdleaf learn'")
    p.add_argument("--curves", nargs="+", metavar="RUN",
                   help="draw the learning curves of these folders (their curve.json, from "
                        "'tdleaf curve'), or of these curve files, in one figure instead")
    p.add_argument("--loops", nargs="+", metavar="DIR",
                   help="draw expert iteration's loops ('tdleaf net iterate' folders) in one "
                        "figure instead")
    p.add_argument("--out", metavar="DIR", help="where to write the figures (default RUN_DIR/figures)")
    p.add_argument("--format", dest="fmt", choices=["png", "svg", "pdf"], default="png",
                   help="file format of the figures (default png)")
    p.add_argument("--compare-paper", action="store_true",
                   help="draw the report's values beside ours (bars; Min/Max under the boards)")
    p.add_argument("--numbers", action="store_true",
                   help="also draw the piece-square tables with a diverging colour map and "
                        "the values written in the squares (heatmaps-numbers, heatmap-numbers-P ...)")
    p.set_defaults(run=run)
    r = add_command(subparsers, "results", description=RESULTS_DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("reference", metavar="DIR", nargs="?", default="runs/reference",
                   help="a folder of <variant>/material and <variant>/psq result folders "
                        "(default runs/reference)")
    r.add_argument("--variant", nargs="+", metavar="V", help="only these variants")
    r.add_argument("--out", metavar="FILE",
                   help="write the markdown to FILE (links relative to its folder) "
                        "instead of printing it")
    r.set_defaults(run=run_results)


RESULTS_DESCRIPTION = """\
Markdown tables of the learning experiments under DIR (as RESULTS.md shows them): per
variant, our values in the report's normalisation (one piece fixed per variant, as
'tdleaf learn --help' lists; mean over runs of the raw weights, then scaled, +- the
standard deviation over runs) beside the report's, the same with a pawn of (-)1
beside its Table 9.1, the games, wall hours and nodes each experiment used, and links
to its figures. Unfinished experiments are tabled from what they hold, and marked.
"""


def run_results(args: argparse.Namespace) -> int:
    """Execute ``tdleaf results``."""
    from plots.results import results_markdown

    root = Path(args.out).resolve().parent if args.out else Path.cwd()
    text = results_markdown(args.reference, root=root, variants=args.variant)
    if args.out:
        from search.files import write_text
        write_text(args.out, text)
        print(f"wrote {args.out}")
    else:
        print(text, end="")
    return 0


def run(args: argparse.Namespace) -> int:
    """Execute ``tdleaf plot`` and return the exit status."""
    import plots

    if args.curves and args.loops:
        raise CliError("--curves and --loops draw different figures: give one")
    if args.curves:
        return _curves(args)
    if args.loops:
        return _loops(args)
    if args.run_dir is None:
        raise CliError("give a RUN_DIR, or --curves RUN... (see 'tdleaf plot --help')")
    if _is_net(Path(args.run_dir)):        # a 'tdleaf net train' folder: its curves
        from plots.net import plot_net
        (figure,) = plot_net(args.run_dir, out=args.out, fmt=args.fmt)
        print(f"learning curves in {figure}")
        return 0
    files = plots.plot_run(args.run_dir, out=args.out, fmt=args.fmt,
                           compare_paper=args.compare_paper, numbers=args.numbers)
    out = files[0].parent
    print(f"{len(files)} files in {out}:")
    for f in files:
        print(f"  {f.name}")
    print(f"open {Path(out) / 'report.md'} for the overview")
    return 0


def _is_net(folder: Path) -> bool:
    """Whether ``folder`` is a network's training folder (its config has "train")."""
    import json
    try:
        return "train" in json.loads((folder / "config.json").read_text())
    except (OSError, ValueError):
        return False


def _loops(args: argparse.Namespace) -> int:
    """``tdleaf plot --loops DIR...``: expert iteration's loops in one figure."""
    from plots.iterate import plot_loops

    if args.run_dir is not None:
        raise CliError(f"--loops takes the folders; give {args.run_dir} after it, not before")
    if len(args.loops) > 1 and not args.out:
        raise CliError("--out is needed for several loops")
    out = args.out or Path(args.loops[0]) / "figures"
    for f in plot_loops(args.loops, out, fmt=args.fmt):
        print(f"wrote {f}")
    return 0


def _curves(args: argparse.Namespace) -> int:
    """``tdleaf plot --curves RUN...``: the learning curves of several folders."""
    from plots.curves import plot_curves

    if args.run_dir is not None:
        raise CliError(f"--curves takes the folders; give {args.run_dir} after it, not before")
    if args.compare_paper or args.numbers:
        raise CliError("--compare-paper and --numbers are for one folder's figures, not --curves")
    files = plot_curves(args.curves, out=args.out, fmt=args.fmt)
    for f in files:
        print(f"wrote {f}")
    return 0
