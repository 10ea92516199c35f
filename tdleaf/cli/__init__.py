"""The ``tdleaf`` command line: one parser, one module per subcommand.

Each subcommand module has ``register(subparsers)``, which adds its parser and sets
``run`` (``args -> exit status``) as a default; :func:`main` only dispatches. Usage
errors and bad input (any :class:`variants.errors.TdleafError`, which every error the
distribution raises derives from) are reported as one line ``tdleaf: error: ...`` with
exit status 2, without a traceback.

Only the module of the command being run is imported (``tdleaf uci`` must answer
within a fraction of a second, so it must not pay for numpy, python-chess and the
other commands): :data:`COMMANDS` names every command, its module and its one-line
help, which ``tdleaf --help`` lists and the modules register (:func:`add_command`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from variants.errors import TdleafError

from .tools import Parser, one_line

DESCRIPTION = """\
tdleaf: chess-variant rules in numba (chess, crazyhouse, suicide, giveaway,
antichess, atomic, king of the hill, three-check, racing kings, horde), exact to
python-chess; an alpha-beta engine with a learnable
linear evaluation (UCI and XBoard); self-play learning (TDLeaf(lambda),
RootStrap, TreeStrap) builds on them."""

EPILOG = "Run 'tdleaf COMMAND --help' for the options of a command."

#: Every command, in the order ``tdleaf --help`` lists them: its module in
#: ``tdleaf.cli`` (which registers it) and its one-line help.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("learn", "learn", "learn weights by self-play (TDLeaf(lambda), RootStrap, TreeStrap)"),
    ("curve", "curve", "learning curves: Elo of weight snapshots against a fixed opponent"),
    ("match", "match", "play a match between two players, with statistics"),
    ("tournament", "tournament", "play a tournament (the report's pairings, round robin, gauntlet)"),
    ("ladder", "ladder", ("measure tdleaf's strength at fixed depths and move times against a "
                         "real engine")),
    ("perft", "perft", "count leaf nodes of the move tree (one FEN or an EPD suite)"),
    ("book", "book", "build an opening book with the proof-number search"),
    ("prior", "prior", "heuristic policy and value of positions (for neural MCTS)"),
    ("net", "net", ("a network taught by tdleaf: its training data (self-play labelled by "
                   "the search)")),
    ("uci", "play", "run the engine as a UCI engine on stdin/stdout"),
    ("xboard", "play", "run the engine as an XBoard (CECP v2) engine on stdin/stdout"),
    ("plot", "plot", "draw the figures of a learning result folder"),
    ("results", "plot", "tables of the shipped experiments beside the report's"),
    ("bench", "bench", "benchmarks (perft and search speed against other engines)"),
    ("warmup", "warmup", "load or compile all the compiled code now (for installers and CI)"),
)


class _Version(argparse.Action):
    """``--version``: looks the version up only when asked (importlib.metadata costs
    more than the rest of the start-up)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from importlib import metadata
        try:
            version = metadata.version("tdleaf")
        except metadata.PackageNotFoundError:
            version = "unknown"
        print(f"tdleaf {version}")
        parser.exit()


def add_command(subparsers: argparse._SubParsersAction, name: str,
                **kwargs: Any) -> argparse.ArgumentParser:
    """Add command ``name`` to ``subparsers`` with its one-line help from :data:`COMMANDS`
    (the modules register their commands through it, so the listing and the parsers
    agree); ``kwargs`` go to ``add_parser``."""
    line = next(h for n, _, h in COMMANDS if n == name)
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=line, **kwargs)
    return parser


def _command_of(argv: list[str]) -> str | None:
    """The command named in ``argv`` (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> Parser:
    """The argument parser of the ``tdleaf`` command. With ``argv``, only the module of
    the command it names is imported (the other commands are listed, with their help
    line, but have no options); without, every command is registered in full."""
    parser = Parser(prog="tdleaf", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    wanted = None if argv is None else _command_of(argv)
    wanted_module = next((m for n, m, _ in COMMANDS if n == wanted), None)
    for name, module, _ in COMMANDS:
        if name in sub.choices:          # registered with another of its module's commands
            continue
        if argv is None or module == wanted_module:
            importlib.import_module(f".{module}", __name__).register(sub)
        if name not in sub.choices:      # listed only: its module is not loaded
            add_command(sub, name, add_help=False)
    parser.set_defaults(run=None, parser=parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``tdleaf`` command line with ``argv`` (default: ``sys.argv[1:]``) and
    return the exit status: 0 success, 1 a check failed, 2 bad usage or bad input."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if args.run is None:  # a command group given without its subcommand
            args.parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except TdleafError as exc:  # every error of the distribution: its message, no traceback
        return _error(exc)
    except BrokenPipeError:  # e.g. `tdleaf ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("tdleaf: interrupted", file=sys.stderr)
        return 130


def _error(exc: BaseException) -> int:
    print(f"tdleaf: error: {one_line(exc)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
