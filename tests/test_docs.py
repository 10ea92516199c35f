"""The manual keeps itself true: the Python examples of README.md and docs/*.md run as
doctests, the README fits on a screen, and every local link points at something.

The examples run from the checkout's root (the docs say so where a path matters), with
the per-user data folder pointed at a temporary one by conftest.py, so they read the
packaged data as a fresh install does.
"""

from __future__ import annotations

import doctest
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: One page per job; index.md lists them.
PAGES = ("index", "learning", "matches", "cluster", "engine", "prior", "network", "models",
         "figures", "rules", "api")
MANUAL = [README, *(DOCS / f"{name}.md" for name in PAGES)]
#: Every markdown file whose links are checked.
LINKED = MANUAL + [ROOT / "BENCHMARKS.md", ROOT / "CHANGELOG.md"]
README_MAX_LINES = 250
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_page_exists() -> None:
    missing = [_id(p) for p in MANUAL if not p.is_file()]
    assert not missing, f"pages missing: {missing}"


def test_index_lists_every_page() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    unlisted = [name for name in PAGES[1:] if f"({name}.md" not in index]
    assert not unlisted, f"docs/index.md does not link: {unlisted}"


def test_readme_fits_on_a_screen() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES})"


def test_ci_runs_the_readmes_test_command() -> None:
    """The README's second command (install the test extra, run the tests) is the one
    .ci/run runs, verbatim."""
    block = README.read_text(encoding="utf-8").split("```sh\n", 1)[1].split("```", 1)[0]
    test_line = block.strip().splitlines()[1]
    command = test_line.split(" && ", 1)[1]
    assert command.startswith("python -m pytest"), test_line
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci, f".ci/run does not run the README's test command: {command}"


def _examples(page: Path) -> str:
    """The page with everything but its ```python / ```pycon blocks blanked out (line
    numbers kept), so that a block's closing fence ends an example's expected output."""
    out, keep = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        fence = line.strip()
        if fence.startswith("```"):
            keep = not keep and fence[3:].strip() in ("python", "pycon")
            out.append("")
        else:
            out.append(line if keep else "")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("page", [p for p in MANUAL if p.name != "index.md"], ids=_id)
def test_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``>>>`` example of the page gives the output shown (a page of the manual
    without one is a page whose examples can go stale unnoticed)."""
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(_examples(page), {"__name__": "__main__"},
                                               page.name, str(page), 0)
    failures: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=failures.append)
    assert result.attempted > 0, f"{_id(page)} has no >>> example"
    assert result.failed == 0, "".join(failures)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens;
    underscores stay (``UCI_Elo`` -> ``uci_elo``), as on GitHub."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            slug = _slug(line.lstrip("#"))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_slug_follows_github() -> None:
    assert _slug("Search (tdleaf bench search)") == "search-tdleaf-bench-search"
    assert _slug("The engine: `tdleaf uci`, `tdleaf xboard`") == "the-engine-tdleaf-uci-tdleaf-xboard"


def broken_links(page: Path) -> list[str]:
    """The links of ``page`` to files of the checkout whose file, or whose #anchor's
    heading, does not exist."""
    broken = []
    for link in _links(page):
        if re.match(r"[a-z]+:", link):
            continue                                  # http(s):, mailto:
        target, _, anchor = link.partition("#")
        dest = (page.parent / target).resolve() if target else page
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(link)
    return broken


@pytest.mark.parametrize("page", LINKED, ids=_id)
def test_local_links_resolve(page: Path) -> None:
    """Links to files of the checkout point at files that exist, and their #anchors at
    headings that exist (pages move; links must follow)."""
    if not page.is_file():
        pytest.fail(f"{_id(page)} is missing")
    broken = broken_links(page)
    assert not broken, f"{_id(page)}: broken links {broken}"


def test_the_engine_page_lists_the_protocols_variants() -> None:
    """The `variants` feature and the UCI_Variant choices are the spec's: the page names
    them all, in its order."""
    from search.protocol.uci import UCI_VARIANTS
    from variants.spec import xboard_names

    text = " ".join((DOCS / "engine.md").read_text(encoding="utf-8").split())
    assert f"(`variants` feature: {', '.join(xboard_names())};" in text
    assert f"| `UCI_Variant` | {', '.join(UCI_VARIANTS)} |" in text
