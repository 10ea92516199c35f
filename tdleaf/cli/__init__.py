"""The ``tdleaf`` command line: one parser, one module per subcommand.

Each subcommand module has ``register(subparsers)``, which adds its parser and sets
``run`` (``args -> exit status``) as a default; :func:`main` only dispatches. Usage
errors and bad input are reported as one line ``tdleaf: error: ...`` with exit status 2.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata

from . import bench, ladder, learn, match, perft, play, plot, prior, tournament
from .tools import CliError, Parser, one_line

DESCRIPTION = """\
tdleaf: chess-variant rules in numba (chess, crazyhouse, suicide, giveaway,
antichess, atomic), exact to python-chess; an alpha-beta engine with a learnable
linear evaluation (UCI and XBoard); TDLeaf(lambda) learning builds on them."""

EPILOG = "Run 'tdleaf COMMAND --help' for the options of a command."


def build_parser() -> Parser:
    """The argument parser of the ``tdleaf`` command, all subcommands included."""
    try:
        version = metadata.version("tdleaf")
    except metadata.PackageNotFoundError:
        version = "unknown"
    parser = Parser(prog="tdleaf", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"tdleaf {version}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in (learn, match, tournament, ladder, perft, prior, play, plot, bench):
        module.register(sub)
    parser.set_defaults(run=None, parser=parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``tdleaf`` command line with ``argv`` (default: ``sys.argv[1:]``) and
    return the exit status: 0 success, 1 a check failed, 2 bad usage or bad input."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.run is None:  # a command group given without its subcommand
            args.parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except CliError as exc:
        return _error(exc)
    except BrokenPipeError:  # e.g. `tdleaf ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as exc:
        errors = sys.modules.get("variants.errors")  # only importable errors can be raised
        if errors is not None and isinstance(exc, errors.VariantError):
            return _error(exc)
        raise
    except KeyboardInterrupt:
        print("tdleaf: interrupted", file=sys.stderr)
        return 130


def _error(exc: BaseException) -> int:
    print(f"tdleaf: error: {one_line(exc)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
