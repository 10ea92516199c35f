"""numba's cache is stamped with all of the project's numba sources (variants/jitcache.py),
so an edit in one file invalidates the cached callers in every other file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    for edit in (None, "variants/movegen.py", "search/evaluate.py", "variants/board.py"):
        if edit:
            with open(tmp_path / edit, "a") as fh:
                fh.write("\n# edited\n")
        jitcache.source_digest.cache_clear()
        digests.add(jitcache.source_digest())
    jitcache.source_digest.cache_clear()
    assert len(digests) == 4


@pytest.mark.slow
def test_an_edit_in_a_callee_file_reaches_cached_callers(tmp_path):
    """End to end, in a copy of the packages: perft (count.py) is compiled and cached,
    then gen_legal (movegen.py) is edited to count one move too many. Without the
    project stamp numba would load the stale perft and print 20 again."""
    for pkg in jitcache.PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    code = ("import variants; p = variants.Position.start('chess'); "
            "print(variants.core.perft(p.bb, p.st, 1))")

    def run() -> str:
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.strip()

    assert run() == "20"
    assert list((tmp_path / "variants" / "__pycache__").glob("count.perft-*.nbi"))
    movegen = tmp_path / "variants" / "movegen.py"
    text = movegen.read_text()
    old = "    return gen_moves(bb, st, moves, sbb, sst, False)\n"
    assert old in text
    movegen.write_text(text.replace(old, "    return gen_moves(bb, st, moves, sbb, sst, False) + 1\n"))
    assert run() == "21"
