"""numba's on-disk cache, made safe for code spread over several files.

numba stamps a cached function with the source of its own file only, so after an edit
to a function in another file (a move generator the search calls, say) the callers'
cached machine code would still hold the old version and run it silently. Here every
function of this distribution's numba packages (``variants``, ``search``, every room
below them included: ``search/kernels/``, ``search/evaluation/``, ...) is stamped with
one digest of all their sources instead, found by walking the packages' folders: any
edit to any of them invalidates every cached function, and a stale cache can never be
loaded.

Caches stay where numba puts them (``NUMBA_CACHE_DIR`` if set, else ``__pycache__``
beside the sources, else the user's cache directory). Imported by :mod:`variants.bits`,
which every compiled module imports before it defines a function.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from numba.core import caching

#: The packages whose numba functions call each other across files (walked whole).
PACKAGES = ("variants", "search")
#: Modules of those packages that no compiled function reads (front ends, the Python
#: drivers of the search): editing them must not throw every cache away. They must hold
#: no compiled function and no constant that compiled code reads (a test checks the
#: first, and that each still exists; keep the second in mind when adding to this list).
#: (variants/spec.py is not one: the rules codes of variants/board.py come from it.)
NOT_COMPILED = ("search/__init__.py", "search/shipped.py",
                "search/alphabeta/__init__.py", "search/alphabeta/engine.py",
                "search/alphabeta/clock.py", "search/alphabeta/shortcuts.py",
                "search/alphabeta/collect.py", "search/alphabeta/modes.py",
                "search/alphabeta/results.py",
                "search/mcts/__init__.py", "search/solve/__init__.py",
                "search/protocol/__init__.py", "search/protocol/session.py",
                "search/protocol/uci.py", "search/protocol/xboard.py",
                "search/protocol/strength.py", "search/protocol/warm.py",
                "variants/__init__.py", "variants/position.py", "variants/errors.py",
                "variants/jitcache.py", "variants/normalise.py")
_ROOT = Path(__file__).resolve().parent.parent


def package_sources(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Every ``.py`` file of ``packages`` under ``root``, in any room (sub-package) at
    any depth, as sorted ``"package/.../file.py"`` names: found by walking the folders,
    so that a room added later is covered without being named."""
    names = []
    for pkg in packages:
        for path in (root / pkg).rglob("*.py"):
            rel = path.relative_to(root)
            if "__pycache__" not in rel.parts:
                names.append(rel.as_posix())
    return sorted(names)


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """SHA-256 over the names and contents of every ``.py`` file of :data:`PACKAGES`
    (:func:`package_sources`) that compiled code may depend on (all but
    :data:`NOT_COMPILED`)."""
    h = hashlib.sha256()
    for name in package_sources(_ROOT):
        if name in NOT_COMPILED:
            continue
        h.update(f"{name}\0".encode())
        h.update((_ROOT / name).read_bytes())
    return h.hexdigest()


def _ours(py_file: str) -> bool:
    path = Path(py_file).resolve()
    return path.suffix == ".py" and any(path.is_relative_to(_ROOT / pkg) for pkg in PACKAGES)


def _code_names(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code reads, nested code included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def reached_sources(functions: Iterable[Any]) -> list[str]:
    """The files of this distribution that the compiled ``functions`` (numba
    dispatchers) read: their own, those of every compiled function they call, found by
    walking their globals (``f(...)``, ``module.f(...)``) down the calls, and those of
    the modules whose attributes they read (``core.TURN``). Sorted ``"package/file.py"``
    names, as :func:`package_sources` gives them."""
    from numba.core.dispatcher import Dispatcher

    files: set[str] = set()

    def note(path: str | None) -> None:
        if path and _ours(path):
            files.add(Path(path).resolve().relative_to(_ROOT).as_posix())

    todo, seen = list(functions), set()
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        py = fn.py_func
        note(inspect.getsourcefile(py))
        names = _code_names(py.__code__)
        for name in names:
            obj = py.__globals__.get(name)
            if isinstance(obj, Dispatcher):
                todo.append(obj)
            elif isinstance(obj, types.ModuleType):
                note(getattr(obj, "__file__", None))
                todo += [a for a in (getattr(obj, n, None) for n in names)
                         if isinstance(a, Dispatcher)]
    return sorted(files)


class _ProjectStamp:
    """Mixin: only this distribution's files, stamped with :func:`source_digest`."""

    @classmethod
    def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
        if not _ours(py_file):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]

    def get_source_stamp(self) -> str:
        return source_digest()


class _UserProvided(_ProjectStamp, caching.UserProvidedCacheLocator):
    pass


class _InTree(_ProjectStamp, caching.InTreeCacheLocator):
    pass


class _UserWide(_ProjectStamp, caching.UserWideCacheLocator):
    pass


def install() -> bool:
    """Put the project-stamped locators ahead of numba's own (once). Returns False if
    this numba has no locator list to extend (then its own per-file stamps apply)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)   # shared by its subclasses
    if not isinstance(classes, list):
        return False
    if _UserProvided not in classes:
        classes[:0] = [_UserProvided, _InTree, _UserWide]
    return True


install()


def cache_is_warm(functions: tuple[str, ...] = ("search/alphabeta/negamax.py:search_root",)) -> bool:
    """True when each of ``functions`` (``"package/file.py:name"``; by default the
    search's root, whose compile takes in the evaluation and move generation) has
    machine code in numba's on-disk cache that numba would load now: its index file is
    where numba looks, for this Python and numba, stamped with :func:`source_digest`.

    Cheap (a few small files read, nothing imported or compiled): to tell a user before
    a long first compile. False for a function that is not there or not cached."""
    import ast
    import pickle
    import sys

    import numba

    def probe() -> None:        # the locators read only a function's line number
        pass

    tag = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    for spec in functions:
        rel, _, name = spec.partition(":")
        py_file = _ROOT / rel
        try:
            tree = ast.parse(py_file.read_text())
        except (OSError, SyntaxError):
            return False
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        if not defs:
            return False
        # numba names the index after the function's first line: its first decorator's.
        line = min([defs[0].lineno] + [d.lineno for d in defs[0].decorator_list])
        locators = (cls.from_function(probe, str(py_file))      # numba's order of places
                    for cls in (_UserProvided, _InTree, _UserWide))
        locator = next((loc for loc in locators if loc is not None), None)
        if locator is None:
            return False
        index = Path(locator.get_cache_path()) / f"{py_file.stem}.{name}-{line}.{tag}.nbi"
        try:
            with open(index, "rb") as fh:
                if pickle.load(fh) != numba.__version__:
                    return False
                stamp, overloads = pickle.loads(fh.read())
        except Exception:  # noqa: BLE001 (missing, unreadable or foreign: numba would compile)
            return False
        if stamp != source_digest() or not overloads:
            return False
    return True
