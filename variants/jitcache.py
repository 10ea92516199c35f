"""numba's on-disk cache, made safe for code spread over several files.

numba stamps a cached function with the source of its own file only, so after an edit
to a function in another file (a move generator the search calls, say) the callers'
cached machine code would still hold the old version and run it silently. Here every
function of this distribution's numba packages (``variants``, ``search``) is stamped
with one digest of all their sources instead: any edit to any of them invalidates
every cached function, and a stale cache can never be loaded.

Caches stay where numba puts them (``NUMBA_CACHE_DIR`` if set, else ``__pycache__``
beside the sources, else the user's cache directory). Imported first by
:mod:`variants`, before any function is compiled.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba.core import caching

#: The packages whose numba functions call each other across files.
PACKAGES = ("variants", "search")
#: Modules of those packages that no compiled function reads (front ends, the Python
#: drivers of the search): editing them must not throw every cache away. They must hold
#: no compiled function and no constant that compiled code reads (a test checks the
#: first; keep the second in mind when adding to this list).
NOT_COMPILED = ("search/engine.py", "search/uci.py", "search/xboard.py", "search/protocol.py",
                "search/strength.py", "search/__init__.py", "variants/__init__.py",
                "variants/position.py", "variants/errors.py", "variants/jitcache.py")
_ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """SHA-256 over the names and contents of every ``.py`` file of :data:`PACKAGES`
    that compiled code may depend on (all but :data:`NOT_COMPILED`)."""
    h = hashlib.sha256()
    for pkg in PACKAGES:
        for path in sorted((_ROOT / pkg).glob("*.py")):
            name = f"{pkg}/{path.name}"
            if name in NOT_COMPILED:
                continue
            h.update(f"{name}\0".encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _ours(py_file: str) -> bool:
    path = Path(py_file).resolve()
    return path.suffix == ".py" and path.parent.parent == _ROOT and path.parent.name in PACKAGES


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
