"""numba's cache is stamped with all of the project's numba sources (variants/jitcache.py),
so an edit in one file invalidates the cached callers in every other file."""

from __future__ import annotations

import shutil
from pathlib import Path

import search.alphabeta.negamax
import variants.count
from variants import jitcache

ROOT = Path(__file__).resolve().parent.parent


def _locator(dispatcher):
    return dispatcher._cache._impl.locator


def test_project_functions_use_the_project_stamp():
    for fn in (variants.count.perft, search.alphabeta.negamax.search_root):
        loc = _locator(fn)
        assert isinstance(loc, jitcache._ProjectStamp), type(loc)
        assert loc.get_source_stamp() == jitcache.source_digest()


def test_other_files_keep_numba_stamps():
    assert not jitcache._ours(shutil.__file__)
    assert not jitcache._ours(str(ROOT / "tests" / "test_jitcache.py"))
    assert jitcache._ours(str(ROOT / "variants" / "movegen.py"))
    assert jitcache._ours(str(ROOT / "search" / "evaluate.py"))
    assert jitcache._ours(str(ROOT / "search" / "kernels" / "classic.py"))


def _copy_packages(tmp_path):
    for pkg in jitcache.PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))


def _rooms():
    """One compiled-code file of every folder (room) of the numba packages, at any depth."""
    by_room: dict[str, str] = {}
    for name in jitcache.package_sources(ROOT):
        if name not in jitcache.NOT_COMPILED:
            by_room.setdefault(name.rsplit("/", 1)[0], name)
    return by_room


def test_every_room_is_walked():
    rooms = _rooms()
    # The rooms of the second floor, and whatever comes after them, without naming them
    # in jitcache.py.
    for room in ("variants", "search", "search/kernels", "search/evaluation"):
        assert room in rooms, sorted(rooms)
    # Every folder with a file compiled code may read is walked (a room of front ends
    # alone, as search/protocol, has none).
    compiled = {name.rsplit("/", 1)[0] for name in jitcache.package_sources(ROOT)
                if name not in jitcache.NOT_COMPILED}
    on_disk = {p.parent.relative_to(ROOT).as_posix() for pkg in jitcache.PACKAGES
               for p in (ROOT / pkg).rglob("*.py") if "__pycache__" not in p.parts}
    assert compiled <= set(rooms) and "search/alphabeta" in rooms and "search/mcts" in rooms
    assert on_disk - set(rooms) <= {"search/protocol"}


def test_digest_changes_with_an_edit_in_every_room(tmp_path, monkeypatch):
    _copy_packages(tmp_path)
    monkeypatch.setattr(jitcache, "_ROOT", tmp_path)
    jitcache.source_digest.cache_clear()
    digests = [jitcache.source_digest()]
    edits = sorted(_rooms().values())
    for edit in edits:
        with open(tmp_path / edit, "a") as fh:
            fh.write("\n# edited\n")
        jitcache.source_digest.cache_clear()
        digests.append(jitcache.source_digest())
    jitcache.source_digest.cache_clear()
    assert len(set(digests)) == len(edits) + 1, edits
    # A front end is not compiled code: editing it keeps the caches.
    before = jitcache.source_digest()
    with open(tmp_path / "search" / "protocol" / "uci.py", "a") as fh:
        fh.write("\n# edited\n")
    jitcache.source_digest.cache_clear()
    after = jitcache.source_digest()
    jitcache.source_digest.cache_clear()
    assert before == after


def test_functions_of_every_room_are_stamped():
    """A kernel's cached machine code is stamped with the project's digest too (before,
    only files directly in variants/ and search/ were)."""
    from search.kernels import attacks

    assert jitcache._ours(attacks.__file__)
    assert jitcache._ours(str(ROOT / "search" / "evaluation" / "layout.py"))
    stamped = [fn for fn in vars(attacks).values()
               if hasattr(fn, "_cache") and fn.py_func.__module__ == attacks.__name__]
    assert stamped
    for fn in stamped:
        assert isinstance(_locator(fn), jitcache._ProjectStamp), fn


def test_not_compiled_names_only_files_that_exist():
    for name in jitcache.NOT_COMPILED:
        assert (ROOT / name).is_file(), name


def test_endgame_digest_sees_the_rules_and_the_files_its_code_reaches(tmp_path):
    from search.solve import endgame

    sources = endgame.table_sources()
    # Found by walking: the builder's own file, the outcomes it calls in search/mcts/prior.py,
    # every file of the rules; not the evaluation, which tables do not depend on.
    assert {"search/solve/endgame.py", "search/mcts/prior.py", "variants/movegen.py"} <= set(sources)
    assert not any(s.startswith(("search/kernels/", "search/evaluation/")) for s in sources)
    _copy_packages(tmp_path)
    digests = [endgame.sources_digest(tmp_path)]
    assert digests[0] == endgame.sources_digest()
    edits = [s for s in sources if s != "variants/spec.py"]   # spec: its rule fields only
    for edit in edits:
        with open(tmp_path / edit, "a") as fh:
            fh.write("\n# edited\n")
        endgame.sources_digest.cache_clear()
        digests.append(endgame.sources_digest(tmp_path))
    with open(tmp_path / "search" / "kernels" / "attacks.py", "a") as fh:
        fh.write("\n# edited\n")
    endgame.sources_digest.cache_clear()
    unchanged = endgame.sources_digest(tmp_path)
    endgame.sources_digest.cache_clear()
    assert len(set(digests)) == len(edits) + 1
    assert unchanged == digests[-1]


def test_modules_left_out_of_the_stamp_hold_no_numba_code():
    """What NOT_COMPILED lists must hold no compiled function (the stamp would miss its
    edits): no @njit in it."""
    for name in jitcache.NOT_COMPILED:
        if name == "variants/jitcache.py":
            continue
        path = ROOT / name
        if path.exists():
            assert "@njit" not in path.read_text(), name
