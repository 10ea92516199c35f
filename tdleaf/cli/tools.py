"""Small helpers shared by the `tdleaf` subcommands: the user-error type, the argument
parser that reports errors on one line, and argument types."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from variants.errors import TdleafError

try:
    import fcntl
except ImportError:         # Windows has no fcntl: there `exclusive` locks nothing
    fcntl = None  # type: ignore[assignment]


class CliError(TdleafError):
    """A mistake in the user's input: reported as ``tdleaf: error: ...``, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors raise :class:`CliError`, so that
    :func:`tdleaf.cli.main` reports every usage error the same way, on one line."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.prog} --help')")


@contextmanager
def exclusive(path: Path, job: str) -> Iterator[None]:
    """Hold an advisory lock on ``path`` (a folder or an existing file) for the block, so
    that a second `tdleaf` job started on the same results stops with a clear error
    instead of interleaving its writes with the first's. The lock dies with the process."""
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise CliError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CliError(f"{path} is in use by another tdleaf {job}: wait for it to end, "
                           f"or give another destination") from None
        yield
    finally:
        os.close(fd)


def depth_arg(text: str) -> int:
    """argparse type of a perft depth: an integer >= 0."""
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be an integer, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth must be >= 0, got {depth}")
    return depth


def positive_int(text: str) -> int:
    """argparse type of a count: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def add_backend_options(p: argparse.ArgumentParser, what: str, local_default: str) -> None:
    """``--workers``, ``--backend`` and ``--address``: where the job's units (``what``:
    "games", "runs") run (:mod:`tdleaf.backend`); ``local_default`` says what --workers
    defaults to on the local backend."""
    p.add_argument("--workers", type=positive_int, default=None, metavar="W",
                   help=f"{what} played at once: local worker processes (default "
                        f"{local_default}), or Ray actors (default: one per CPU of the cluster)")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local: this machine (default); ray: a Ray cluster (pip install "
                        "'tdleaf[ray]'; docs/cluster.md)")
    p.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster to join: 'auto' (the one running on this machine, "
                        "as Ray's own tools find it) or HOST:PORT of its head (default: "
                        "RAY_ADDRESS, a running local cluster, else a private one)")


def backend_of(args: argparse.Namespace, local_workers: int | None = 1) -> Any:
    """The :class:`tdleaf.backend.Backend` of the options of :func:`add_backend_options`
    (``local_workers``: --workers's default on the local backend)."""
    from tdleaf.backend import Backend
    workers = args.workers
    if workers is None and args.backend == "local":
        workers = local_workers
    return Backend(args.backend, workers, args.address).validate()


def seconds_arg(text: str) -> float:
    """argparse type of a duration in seconds: in (0, 3600]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0 or value > 3600:
        raise argparse.ArgumentTypeError(f"seconds must be in (0, 3600], got {text}")
    return value


def one_line(message: object) -> str:
    """``message`` as a single line of text."""
    return " ".join(str(message).split())


def print_json(obj: Any) -> None:
    """Print one JSON object on stdout."""
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


#: What a command says on stderr before its progress bar when the engine must compile.
COMPILING = ("tdleaf: compiling the engine (first run after install or upgrade, 1-2 minutes; "
             "'tdleaf warmup' does it ahead)")


def say_if_no_tables(variant: str) -> bool:
    """Say on stderr when ``variant``'s rules have endgame tables (the losing variants)
    and they are not built for this version of the rules: the engine then searches
    those endgames instead, and a measurement should know it. Returns whether it did."""
    from variants.spec import get

    if not get(variant).endgame_pieces:
        return False
    from search.solve.endgame import tables

    path = tables(variant).path
    if path.exists():
        return False
    print(f"tdleaf: note: no endgame tables for {variant}'s rules ({path}): tdleaf "
          f"searches those endgames instead; 'tdleaf warmup --tables' builds them "
          f"(about 8 CPU-minutes a set of rules)", file=sys.stderr, flush=True)
    return True


def say_if_compiling(functions: tuple[str, ...] | None = None) -> bool:
    """Print :data:`COMPILING` to stderr when numba's cache lacks the compiled code the
    command is about to run (:func:`variants.jitcache.cache_is_warm` of ``functions``,
    by default the search), so that a bar at 0% for a minute is explained. Returns
    whether it did."""
    from variants.jitcache import cache_is_warm

    cold = not (cache_is_warm() if functions is None else cache_is_warm(functions))
    if cold:
        print(COMPILING, file=sys.stderr, flush=True)
    return cold
