"""numba's cache is stamped with all of the project's numba sources (variants/jitcache.py),
so an edit in one file invalidates the cached callers in every other file."""

from __future__ import annotations

import shutil
from pathlib import Path

import search.alphabeta
import variants.count
from variants import jitcache

ROOT = Path(__file__).resolve().parent.parent


def _locator(dispatcher):
    return dispatcher._cache._impl.locator


def test_project_functions_use_the_project_stamp():
    for fn in (variants.count.perft, search.alphabeta.search_root):
        loc = _locator(fn)
        assert isinstance(loc, jitcache._ProjectStamp), type(loc)
        assert loc.get_source_stamp() == jitcache.source_digest()


def test_other_files_keep_numba_stamps():
    assert not jitcache._ours(shutil.__file__)
    assert not jitcache._ours(str(ROOT / "tests" / "test_jitcache.py"))
    assert jitcache._ours(str(ROOT / "variants" / "movegen.py"))
    assert jitcache._ours(str(ROOT / "search" / "evaluate.py"))


def test_digest_covers_every_source_file(tmp_path, monkeypatch):
    for pkg in jitcache.PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(jitcache, "_ROOT", tmp_path)
    digests = set()
    for edit in (None, "variants/movegen.py", "search/evaluate.py", "variants/board.py",
                 "search/layout.py"):
        if edit:
            with open(tmp_path / edit, "a") as fh:
                fh.write("\n# edited\n")
        jitcache.source_digest.cache_clear()
        digests.add(jitcache.source_digest())
    jitcache.source_digest.cache_clear()
    assert len(digests) == 5
    # A front end is not compiled code: editing it keeps the caches.
    with open(tmp_path / "search" / "uci.py", "a") as fh:
        fh.write("\n# edited\n")
    before = jitcache.source_digest()
    jitcache.source_digest.cache_clear()
    after = jitcache.source_digest()
    jitcache.source_digest.cache_clear()
    assert before == after


def test_modules_left_out_of_the_stamp_hold_no_numba_code():
    """What NOT_COMPILED lists must hold no compiled function (the stamp would miss its
    edits): no @njit in it."""
    for name in jitcache.NOT_COMPILED:
        if name == "variants/jitcache.py":
            continue
        path = ROOT / name
        if path.exists():
            assert "@njit" not in path.read_text(), name
