"""``tdleaf bench speedup``: another commit's search beside this checkout's, in one
process. Behaviour only: times are never asserted."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import search
from tdleaf.cli import main

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists()
    or Path(search.__file__).resolve().parent.parent != ROOT,
    reason="needs git and the package imported from this source checkout")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "tdleaf" / "speedup"


@pytest.mark.slow
def test_the_last_commit_against_this_checkout(capsys, cache):
    """HEAD's search, imported under another name, plays the same weights as this
    checkout's: the same tree when the search is unchanged since HEAD."""
    assert main(["bench", "speedup", "--base", "HEAD", "--variant", "chess", "atomic",
                 "--depth", "2", "--positions", "2", "--rounds", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    sha = _git("rev-parse", "HEAD")[:12]
    assert [r["variant"] for r in rows] == ["chess", "atomic"]
    assert (cache / sha / f"search_{sha}" / "__init__.py").exists()
    unchanged = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--",
                                "search", "variants"], check=False).returncode == 0
    for r in rows:
        assert r["base_package"] == f"search_{sha}" and r["nodes"][1] > 0 and r["ratio"] > 0
        if unchanged:
            assert r["same_tree"], r
    assert rows[1]["layout"].startswith("psq+")          # atomic's default: leaf blocks


def test_an_unknown_commit_is_refused(capsys, cache):
    assert main(["bench", "speedup", "--base", "no-such-rev", "--variant", "chess"]) == 2
    assert "no-such-rev" in capsys.readouterr().err


def test_a_commit_with_other_rules_is_refused(capsys, cache):
    last = _git("log", "--format=%H", "-n", "1", "--", "variants")
    if not last or not _git("rev-list", "--parents", "-n", "1", last).split()[1:]:
        pytest.skip("no commit before the last change to variants/")
    assert main(["bench", "speedup", "--base", f"{last}~1", "--variant", "chess"]) == 2
    assert "the rules differ" in capsys.readouterr().err
