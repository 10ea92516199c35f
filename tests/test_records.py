"""The records keep their evidence: every run path that README.md, RESULTS.md,
BENCHMARKS.md, CHANGELOG.md or docs/*.md cite exists in the checkout, RESULTS.md opens
with its contents and a table of the headline results, BENCHMARKS.md's table cells stay
short, and CHANGELOG.md follows Keep a Changelog and holds no results.

A path under ``runs/`` is evidence unless it carries a marker that it is a command
example (RESULTS.md, "How the numbers were made", states the same rule):

- ``runs/mine/...``: what a reader's own command would write;
- a placeholder: capitals after ``runs/`` (``runs/blocks/screening/V-psq-BLOCK``), ``<...>``,
  ``{a,b}``, ``*`` or ``...``, or a trailing ``-`` (a folder name's prefix);
- ``runs/NAME``, one level down: the output folder of a command example (evidence always
  lies two levels down, ``runs/KIND/NAME``);
- the per-user data folder a command is given (``TDLEAF_DATA=runs/...``), which is
  scratch.

A cited ``X.pgn`` is present when ``X.pgn`` or its gzipped ``X.pgn.gz`` is: matches are
quoted with the command that wrote them, and committed compressed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = [ROOT / "README.md", ROOT / "RESULTS.md", ROOT / "BENCHMARKS.md",
           ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A run path as the documents write it (the characters of placeholders included, so
#: that a placeholder is seen whole and skipped).
RUN_PATH = re.compile(r"(?<![\w-])runs/[A-Za-z0-9_./{},*<>-]+")


def _example(path: str, before: str) -> bool:
    """Whether ``path`` carries a command example's marker (the module's docstring)."""
    tail = path[len("runs/"):]
    return (path.startswith("runs/mine/") or path == "runs/mine"
            or re.search(r"[A-Z{}<>*]", tail) is not None or "..." in path
            or path.endswith("-") or path.count("/") < 2
            or before.endswith("TDLEAF_DATA="))


def _present(root: Path, path: str) -> bool:
    target = root / path
    return target.exists() or (path.endswith(".pgn") and target.with_name(target.name + ".gz").exists())


def cited_paths(text: str) -> list[tuple[int, str]]:
    """``(line, path)`` of every run path cited as evidence in ``text``."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for found in RUN_PATH.finditer(line):
            path = found.group(0).rstrip(".,;:)/'\"`")
            if not _example(path, line[:found.start()]):
                out.append((number, path))
    return out


def missing_evidence(text: str, root: Path = ROOT) -> list[str]:
    """``line: path`` of each cited run path that is not in ``root``."""
    return [f"{n}: {p}" for n, p in cited_paths(text) if not _present(root, p)]


@pytest.mark.parametrize("doc", RECORDS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cited_run_path_exists(doc: Path) -> None:
    missing = missing_evidence(doc.read_text(encoding="utf-8"))
    assert not missing, (f"{doc.name} cites run paths that are not in the checkout "
                         f"(commit the evidence, or mark a command example): {missing}")


def test_the_check_finds_a_missing_path(tmp_path: Path) -> None:
    """The check can fail: a cited path that is not there is reported, and the markers
    of command examples are not."""
    (tmp_path / "runs" / "matches").mkdir(parents=True)
    (tmp_path / "runs" / "matches" / "kept.pgn.gz").write_bytes(b"")
    text = ("Played into `runs/matches/kept.pgn` (gzipped) and runs/matches/lost.pgn.\n"
            "tdleaf learn --out runs/zh-psq; tdleaf learn --out runs/mine/curves/atomic\n"
            "tdleaf match ... --pgn runs/blocks/screening/V-psq-BLOCK-vs-shipped.pgn runs/curves/a-*\n"
            "TDLEAF_DATA=runs/ladders/user tdleaf ladder --remeasure; runs/atomic-material-.../x\n")
    assert missing_evidence(text, tmp_path) == ["1: runs/matches/lost.pgn"]


def test_the_records_cite_evidence() -> None:
    """RESULTS.md and BENCHMARKS.md do cite run paths (a pattern that matched nothing
    would pass the test above for any document)."""
    for name in ("RESULTS.md", "BENCHMARKS.md"):
        assert len(cited_paths((ROOT / name).read_text(encoding="utf-8"))) > 10, name


# RESULTS.md: contents and the headline table

def _results() -> list[str]:
    return (ROOT / "RESULTS.md").read_text(encoding="utf-8").splitlines()


def test_results_open_with_contents_and_headlines() -> None:
    head = _results()[:80]
    assert any(re.match(r"##\s+Contents\s*$", line) for line in head), \
        "RESULTS.md has no '## Contents' in its first 80 lines"
    assert any(re.match(r"##\s+Headline results\s*$", line) for line in _results()[:120]), \
        "RESULTS.md has no '## Headline results' near its top"


def _section(lines: list[str], title: str) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.strip() == f"## {title}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1:end]


def test_each_headline_links_its_section_and_evidence() -> None:
    rows = [line for line in _section(_results(), "Headline results")
            if line.startswith("|") and not line.startswith("|---")][1:]
    assert 5 <= len(rows) <= 25, f"{len(rows)} headline rows: a screen holds 5-25"
    for row in rows:
        assert "](#" in row, f"a headline row without a link to its section: {row[:80]}"
        assert "](runs/" in row, f"a headline row without a link to its evidence: {row[:80]}"


def test_the_results_links_resolve() -> None:
    """RESULTS.md's links (the contents, the headline table) point at headings and files
    that exist, as tests/test_docs.py holds the manual's."""
    from test_docs import broken_links

    broken = broken_links(ROOT / "RESULTS.md")
    assert not broken, f"RESULTS.md: broken links {broken}"


def test_the_contents_list_every_section() -> None:
    lines = _results()
    contents = "\n".join(_section(lines, "Contents"))
    sections = [line[3:].strip() for line in lines if line.startswith("## ")
                and line.strip() != "## Contents"]
    unlisted = [s for s in sections if f"[{s}]" not in contents]
    assert not unlisted, f"RESULTS.md's contents do not list: {unlisted}"


# BENCHMARKS.md: short cells

def test_benchmarks_table_cells_are_short() -> None:
    long = []
    for number, line in enumerate((ROOT / "BENCHMARKS.md").read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("|"):
            long += [f"{number}: {cell[:60]}..." for cell in line.strip().strip("|").split("|")
                     if len(cell.strip()) > 300]
    assert not long, f"BENCHMARKS.md cells over 300 characters (move the prose below the table): {long}"


# CHANGELOG.md: Keep a Changelog, no results

KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def _releases() -> dict[str, list[str]]:
    releases: dict[str, list[str]] = {}
    current = None
    for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            releases[current] = []
        elif current is not None:
            releases[current].append(line)
    return releases


def test_changelog_keeps_a_changelog() -> None:
    releases = _releases()
    names = list(releases)
    assert names and names[0] == "[Unreleased]", "the first release heading is '## [Unreleased]'"
    for name in names[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", name), name
    for name, lines in releases.items():
        kinds = [line[4:].strip() for line in lines if line.startswith("### ")]
        assert all(k in KINDS for k in kinds), f"{name}: headings {kinds} (Keep a Changelog: {KINDS})"
        assert len(kinds) == len(set(kinds)), f"{name}: a heading repeated in {kinds}"


def test_changelog_holds_no_results() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    results = re.findall(r".{0,30}(?:\d ?(?:Elo|%)|\bElo [+-]?\d|[+-]\d+ \[[+-]?\d+).{0,30}", text)
    assert not results, f"CHANGELOG.md states results (link RESULTS.md instead): {results}"
