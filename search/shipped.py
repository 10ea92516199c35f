"""The data the engine ships with, and the per-user folder that overrides it.

Everything the engine reads at run time lives in one folder of the package,
``search/data/``, found with :mod:`importlib.resources` (so it works from a wheel
installed anywhere, not only from a checkout):

- ``manifest.json``: per variant, its learnt reference sets and which one is the
  default (see :func:`manifest`);
- ``reference/<variant>/<kind>/weights.json`` and ``summary.json``: copies of
  ``runs/reference/<variant>/<kind>/`` (``tests/data/make_shipped.py`` refreshes them);
- ``prior.json`` (the prior's fitted temperatures), ``ladder.json`` (the ``UCI_Elo``
  strength ladder) and ``prior_<variant>.epd`` (``tdleaf bench prior``'s positions).

Nothing writes into the installed package. Commands that store results (``tdleaf bench
prior --save``, ``tdleaf ladder --save``) write to a path the user gives or to the
per-user data folder: ``$TDLEAF_DATA``, else ``$XDG_DATA_HOME/tdleaf``, else
``~/.local/share/tdleaf``. A file there is read BEFORE the packaged file of the same
relative path, so a refitted ``prior.json`` or a re-measured ``ladder.json`` wins.

Standard library only (and the error base, :mod:`variants.errors`), and cheap to
import: the protocol handshake reads the ladder through it before anything heavy is
loaded.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from variants.errors import TdleafError

from . import files

#: The environment variable naming the per-user data folder.
ENV_VAR = "TDLEAF_DATA"
#: The manifest's format version (a reader refuses a newer one).
MANIFEST_FORMAT = 1

#: A default that is no set of its own: the ``psq`` set's table averages, material only.
AVERAGE = "avg-psq"
AVERAGED_KIND = "psq"

USER = "user data"
PACKAGE = "package data"


class ShippedDataError(TdleafError, ValueError):
    """Shipped data that is missing or unreadable."""


def user_data_dir() -> Path:
    """The per-user data folder (it need not exist): ``$TDLEAF_DATA``, else
    ``$XDG_DATA_HOME/tdleaf``, else ``~/.local/share/tdleaf``."""
    named = os.environ.get(ENV_VAR)
    if named:
        return Path(named).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "tdleaf"


@functools.lru_cache(maxsize=1)
def package_data_dir() -> Path:
    """``search/data`` of the installed package, on the file system."""
    from importlib.resources import files  # here: 5-10 ms, paid once, when data is read

    root = files(__package__ or "search").joinpath("data")
    if not isinstance(root, Path):
        # A package imported from a zip: importlib.resources cannot hand out a folder
        # there (Python 3.11), and every reader here needs real files.
        raise ShippedDataError(f"search/data is not on the file system ({root}); install "
                               f"tdleaf from a wheel or a source folder, not a zip")
    return root


def find(relpath: str) -> Path | None:
    """The file ``relpath`` (relative to ``search/data``, e.g. ``"ladder.json"``): the
    user's copy when there is one, else the packaged one, else None."""
    for root in (user_data_dir(), package_data_dir()):
        path = root / relpath
        if path.is_file():
            return path
    return None


def origin(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(USER or PACKAGE, relpath)`` when ``path`` lies in the user or the package
    data folder, else None."""
    p = Path(path).resolve()
    for kind, root in ((USER, user_data_dir()), (PACKAGE, package_data_dir())):
        try:
            return kind, p.relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
    return None


def describe(path: str | os.PathLike[str]) -> str:
    """Where a data file came from, for people: ``"package data: /.../ladder.json"``,
    ``"user data: /..."`` or ``"file: /..."``."""
    found = origin(path)
    return f"{found[0] if found else 'file'}: {Path(path)}"


def read_json(relpath: str) -> Any:
    """The parsed JSON file ``relpath`` (user copy first); ShippedDataError when it is
    missing or corrupt."""
    path = find(relpath)
    if path is None:
        raise ShippedDataError(f"{relpath}: not in {user_data_dir()} nor in the package's "
                               f"{package_data_dir()}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ShippedDataError(f"{path}: unreadable: {exc}") from None


def manifest() -> dict[str, Any]:
    """The manifest::

        {"format": 1,
         "variants": {"crazyhouse": {"default": "psq",
                                     "sets": {"psq": {"weights": "reference/crazyhouse/psq/weights.json",
                                                      "summary": "reference/crazyhouse/psq/summary.json",
                                                      "source": "runs/reference/crazyhouse/psq"},
                                              "material": {...}}},
                      ...}}

    ``default`` names what the engine plays: one of the sets, or ``avg-psq`` (the ``psq``
    set's table averages, material only: :data:`AVERAGE`); a variant absent here plays
    the traditional values. Paths are relative to ``search/data``; ``source`` is the
    result folder of the repository the copies come from."""
    data = read_json("manifest.json")
    if not isinstance(data, dict) or not isinstance(data.get("variants"), dict):
        raise ShippedDataError("manifest.json: expected an object with 'variants'")
    if data.get("format", 0) > MANIFEST_FORMAT:
        raise ShippedDataError(f"manifest.json: format {data.get('format')} is newer than "
                               f"this tdleaf reads ({MANIFEST_FORMAT}); upgrade tdleaf")
    return data


def default_name(variant: str) -> str | None:
    """The manifest's ``default`` of ``variant``: a set's kind or :data:`AVERAGE`; None
    when the variant ships no reference set. ``variant`` must be canonical."""
    entry = manifest()["variants"].get(variant)
    return entry.get("default") if entry else None


def reference_set(variant: str, kind: str | None = None) -> dict[str, Any] | None:
    """The manifest entry of ``variant``'s reference set ``kind`` (None: the set its
    default is made of, ``psq`` for :data:`AVERAGE`), with its name added as ``"kind"``;
    None when the variant ships no such set. ``variant`` must be canonical (``giveaway``,
    not ``antichess``)."""
    entry = manifest()["variants"].get(variant)
    if not entry:
        return None
    kind = kind or entry.get("default")
    if kind == AVERAGE:
        kind = AVERAGED_KIND
    found = entry.get("sets", {}).get(kind) if kind else None
    return None if found is None else {**found, "kind": kind}


def reference_kinds() -> list[str]:
    """Every reference-set kind any variant ships (``material``, ``psq``, ...), sorted."""
    return sorted({k for e in manifest()["variants"].values() for k in e.get("sets", {})})


def save_text(relpath: str, text: str, path: str | os.PathLike[str] | None = None) -> Path:
    """Write ``text`` atomically to ``path``, or without one to ``relpath`` in the user
    data folder (never into the package); returns the file written."""
    target = Path(path) if path is not None else user_data_dir() / relpath
    target.parent.mkdir(parents=True, exist_ok=True)
    return files.write_text(target, text)


def save_json(relpath: str, data: Any, path: str | os.PathLike[str] | None = None) -> Path:
    """:func:`save_text` of ``data`` as indented JSON."""
    return save_text(relpath, json.dumps(data, indent=1, sort_keys=True) + "\n", path)
