"""``tdleaf prior``: the heuristic prior (a probability for every legal move and a value
in [-1, 1]) of one position, or of every position of an EPD or PGN file as JSON lines."""

from __future__ import annotations

import argparse
import json
import sys

from . import add_command
from .tools import CliError, depth_arg, positive_int

DESCRIPTION = """\
The heuristic prior of neural MCTS from the learnable evaluation: every legal move is
played and the position after it searched (quiescence at --depth 0, D plies more plus
quiescence at --depth D); the policy is the softmax of those scores (pawns, side to
move) at the temperature fitted for the weights (tdleaf bench prior --fit), the value
the best score converted to [-1, 1] for the side to move: 'squash' is the learning's
squash, tanh(omega s / 2) with omega 0.5 per pawn; 'crazyara' is CrazyAra's
sign(s) (1 - 1.2^-|s|). A finished game gives an empty policy and its exact value.

One position:   tdleaf prior --variant V [--fen FEN] [--json]
A file:         tdleaf prior --variant V --epd FILE | --pgn FILE [--every N] [--out FILE]

With --epd or --pgn every position is written as one JSON object per line: the EPD
lines' FEN (its first four fields, plus the clocks if given; operations after ';' are
ignored), or every N-th position of every game of a PGN file (the game's Variant header
must match --variant), with the game number, the ply and the move played there.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(subparsers, "prior", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    from variants.spec import variant_list
    p.add_argument("--variant", default="chess", metavar="V",
                   help=f"{variant_list()} (default chess)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--fen", metavar="FEN", help="the position (default: the start position)")
    src.add_argument("--epd", metavar="FILE", help="every position of an EPD file, as JSON lines")
    src.add_argument("--pgn", metavar="FILE", help="positions of the games of a PGN file, as JSON lines")
    p.add_argument("--every", type=positive_int, default=1, metavar="N",
                   help="with --pgn, every N-th position of each game (default 1)")
    p.add_argument("--weights", metavar="W",
                   help="weights.json, a result folder or a value set (default: the variant's default)")
    p.add_argument("--depth", type=depth_arg, default=0, metavar="D",
                   help="plies searched after each move before quiescence (default 0)")
    p.add_argument("--temperature", type=float, metavar="T",
                   help="softmax temperature in pawns (default: the fitted one, else 1)")
    p.add_argument("--value", choices=["squash", "crazyara"], default="squash",
                   help="conversion of the score to a value (default squash)")
    p.add_argument("--omega", type=float, default=0.5, help="squash slope per pawn (default 0.5)")
    p.add_argument("--top", type=int, default=0, metavar="K",
                   help="text output: only the K most likely moves (default all)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument("--out", metavar="FILE", help="with --epd/--pgn: write the JSON lines here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import variants
    from search.mcts.prior import HeuristicPrior
    from tdleaf.net.prior_lines import file_positions, prior_record, write_prior_lines

    variant = variants.canonical_variant(args.variant)
    if args.temperature is not None and not args.temperature > 0:
        raise CliError("--temperature must be > 0")
    ev = HeuristicPrior(variant, args.weights, args.depth, args.temperature,
                        value=args.value, omega=args.omega)
    if args.epd is None and args.pgn is None:
        if args.out:
            raise CliError("--out needs --epd or --pgn")
        arr, pos = ev.batch([args.fen])
        rec = prior_record(arr, 0, pos[0].fen(), ev)
        if args.json:
            json.dump(rec, sys.stdout, indent=2)
            sys.stdout.write("\n")
            return 0
        print(f"fen: {rec['fen']}")
        print(f"value: {rec['value']:+.4f} ({ev.value_mode}, side to move)"
              + ("  [game over]" if rec["terminal"] else ""))
        print(f"temperature: {ev.temperature:g} pawns ({ev.temperature_source}), win logit "
              f"{ev.win_logit:g} pawns, depth {ev.depth}")
        moves = list(rec["policy"])
        if args.top > 0:
            moves = moves[:args.top]
        for m in moves:
            s = rec["scores"][m]
            s = f"{s:+.2f}" if isinstance(s, float) else s
            print(f"{m:7s} {rec['policy'][m]:.4f}  {s}")
        return 0
    items = file_positions(variant, args.epd, args.pgn, args.every)
    try:
        if args.out:
            with open(args.out, "w") as out:
                write_prior_lines(ev, items, out)
        else:
            write_prior_lines(ev, items, sys.stdout)
    except OSError as exc:
        raise CliError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    return 0
