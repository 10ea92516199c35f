"""RESULTS.md is a report whose evidence is one link away, and the links hold.

- Every run path that README.md, RESULTS.md, BENCHMARKS.md and docs/*.md cite, and every
  local link of an experiment's log (``runs/**/README.md``), points at something in the
  checkout: a markdown link resolved from its page, a ``runs/...`` path (in backticks or
  plain) from the checkout's root, where commands run. Command examples are skipped by
  tests/test_records.py's markers (``runs/mine/``, placeholders in capitals, ``<...>``,
  ``{...}``, ``*`` or ``...``, a name's prefix, ``runs/NAME`` one level down,
  ``TDLEAF_DATA=``), and so is what a command in a fenced block writes (the path after
  ``--out``, ``--pgn``, ``--json`` or ``--save``). A cited ``X.pgn`` is present as
  ``X.pgn.gz``.
- RESULTS.md's own ``#anchors``, and those of its links and the logs' into markdown
  files, name headings that exist (GitHub's slugs, ``-1``, ``-2`` for repeats).
- RESULTS.md holds at most 1,500 lines and 120 KB, and no heading names an issue: the
  logs by issue live beside their evidence.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 1500
MAX_BYTES = 120_000

#: A markdown link or image: its target.
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: A run path as the documents write it, placeholders' characters included so that a
#: placeholder is seen whole; not the tail of a relative path (``../runs/...``).
RUN_PATH = re.compile(r"(?<![\w./-])runs/[A-Za-z0-9_./{},*<>-]+")
#: An option before the path a command writes.
OUTPUT = re.compile(r"--(?:out|pgn|json|save)[ =]$")
ISSUE = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)


def documents(root: Path = ROOT) -> tuple[list[Path], list[Path]]:
    """The records (README, RESULTS, BENCHMARKS, docs/) and the experiments' logs."""
    records = [root / name for name in ("README.md", "RESULTS.md", "BENCHMARKS.md")]
    records += sorted((root / "docs").glob("*.md"))
    logs = sorted((root / "runs").glob("**/README.md"))
    return [p for p in records if p.is_file()], logs


def _example(path: str, before: str) -> bool:
    """Whether a cited run path is a command example (the module's docstring)."""
    tail = path[len("runs/") :]
    return (
        path.startswith("runs/mine/")
        or path == "runs/mine"
        or re.search(r"[A-Z{}<>*]", tail) is not None
        or "..." in path
        or path.endswith("-")
        or path.count("/") < 2
        or before.endswith("TDLEAF_DATA=")
    )


def _present(target: Path) -> bool:
    return target.exists() or (
        target.suffix == ".pgn" and target.with_name(target.name + ".gz").exists()
    )


def _lines(page: Path) -> list[tuple[int, str, bool]]:
    """``(number, line, inside a fenced block)`` of each line of ``page``."""
    out, fence = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        out.append((number, line, fence))
    return out


def citations(page: Path, root: Path = ROOT, log: bool = False) -> list[tuple[int, str, Path]]:
    """``(line, as written, target)`` of each path ``page`` cites that must exist: its
    run paths (from ``root``), its links into ``runs/`` (from the page; every local link
    when the page is an experiment's log)."""
    out: list[tuple[int, str, Path]] = []
    seen: set[tuple[int, Path]] = set()
    runs = (root / "runs").resolve()
    for number, line, fence in _lines(page):
        if not fence:
            for found in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                link = found.group(1)
                target_text = link.split("#", 1)[0]
                if not target_text or re.match(r"[a-z]+:", link):
                    continue
                target = (page.parent / target_text).resolve()
                if log or target == runs or runs in target.parents:
                    seen.add((number, target))
                    out.append((number, link, target))
        for found in RUN_PATH.finditer(line):
            path = found.group(0).rstrip(".,;:)/'\"`")
            before = line[: found.start()]
            if _example(path, before) or (fence and OUTPUT.search(before)):
                continue
            if (number, (root / path).resolve()) not in seen:
                out.append((number, path, root / path))
    return out


def missing(page: Path, root: Path = ROOT, log: bool = False) -> list[str]:
    """``line: path`` of each cited path of ``page`` that is not in the checkout."""
    return [
        f"{n}: {text}" for n, text, target in citations(page, root, log) if not _present(target)
    ]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def headings(page: Path) -> list[str]:
    return [
        line.lstrip("#").strip()
        for _, line, fence in _lines(page)
        if not fence and re.match(r"#{1,6} ", line)
    ]


def anchors(page: Path) -> set[str]:
    """The page's anchors, a repeated heading's with ``-1``, ``-2``, ... as on GitHub."""
    seen: dict[str, int] = {}
    out = set()
    for heading in headings(page):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_anchors(page: Path) -> list[str]:
    """The links of ``page`` to itself (``#a``) or to a markdown file (``X.md#a``) whose
    anchor names no heading there."""
    broken, cache = [], {}
    for number, line, fence in _lines(page):
        if fence:
            continue
        for found in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            target, _, anchor = found.group(1).partition("#")
            if not anchor or re.match(r"[a-z]+:", target):
                continue
            dest = (page.parent / target).resolve() if target else page
            if dest.suffix != ".md" or not dest.is_file():
                continue  # a missing file is the citations' failure
            if dest not in cache:
                cache[dest] = anchors(dest)
            if anchor not in cache[dest]:
                broken.append(f"{number}: {found.group(1)}")
    return broken


def test_the_records_cited_run_paths_exist() -> None:
    records, _ = documents()
    gaps = {p.relative_to(ROOT).as_posix(): missing(p) for p in records}
    gaps = {name: found for name, found in gaps.items() if found}
    assert not gaps, f"run paths cited but not in the checkout: {gaps}"


def test_the_logs_links_and_run_paths_exist() -> None:
    _, logs = documents()
    assert len(logs) >= 8, "the experiments' logs: runs/*/README.md"
    gaps = {p.relative_to(ROOT).as_posix(): missing(p, log=True) for p in logs}
    gaps = {name: found for name, found in gaps.items() if found}
    assert not gaps, f"the logs cite paths that are not in the checkout: {gaps}"


def test_the_checks_cite_something() -> None:
    """A pattern that matched nothing would pass the tests above for any page."""
    records, logs = documents()
    results = ROOT / "RESULTS.md"
    assert results in records
    assert len(citations(results)) > 30
    assert sum(len(citations(p, log=True)) for p in logs) > 300


def test_anchors_name_headings() -> None:
    _, logs = documents()
    broken = {
        p.relative_to(ROOT).as_posix(): broken_anchors(p) for p in [ROOT / "RESULTS.md", *logs]
    }
    broken = {name: found for name, found in broken.items() if found}
    assert not broken, f"links to headings that do not exist: {broken}"


def test_results_is_a_report() -> None:
    results = ROOT / "RESULTS.md"
    text = results.read_text(encoding="utf-8")
    lines, size = len(text.splitlines()), len(text.encode("utf-8"))
    assert lines <= MAX_LINES and size <= MAX_BYTES, (
        f"RESULTS.md is {lines} lines, {size:,} bytes (at most {MAX_LINES:,} and "
        f"{MAX_BYTES:,}): an experiment's log goes in its runs/ folder's README.md"
    )
    named = [h for h in headings(results) if ISSUE.search(h)]
    assert not named, f"RESULTS.md's headings name issues: {named}"


def test_each_log_is_linked_from_the_report() -> None:
    """RESULTS.md links every experiment's log that holds one of its former sections."""
    text = (ROOT / "RESULTS.md").read_text(encoding="utf-8")
    for log in ("curves", "blocks", "net", "mcts", "strength", "pns"):
        assert f"](runs/{log}/README.md" in text, f"RESULTS.md does not link runs/{log}/README.md"
    assert "](runs/README.md" in text, "RESULTS.md does not link the ledger, runs/README.md"


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """A made-up missing path is reported, from a record and from a log, and so is a
    link to a heading that does not exist; command examples are not."""
    (tmp_path / "runs" / "matches").mkdir(parents=True)
    (tmp_path / "runs" / "matches" / "kept.pgn.gz").write_bytes(b"")
    (tmp_path / "runs" / "exp").mkdir()
    (tmp_path / "runs" / "exp" / "a.json").write_text("{}")
    record = tmp_path / "RESULTS.md"
    record.write_text(
        "# Results\n\n## Two words\n\n## Two words\n\n"
        "Played into `runs/matches/kept.pgn` and [lost](runs/matches/lost.pgn.gz).\n"
        "See [the log](runs/exp/README.md#the-log) and [below](#two-words-1), "
        "[nowhere](#two-words-2).\n"
        "```sh\ntdleaf match A B --pgn runs/exp/new.pgn.gz   # written by the command\n"
        "tdleaf curve runs/exp/gone --games 10\n```\n"
        "tdleaf learn --out runs/zh-psq; runs/mine/x/y; runs/blocks/screening/V-psq-BLOCK\n"
    )
    log = tmp_path / "runs" / "exp" / "README.md"
    log.write_text(
        "# The log\n\n[a](a.json), [b](b.json), [up](../../RESULTS.md#two-words), "
        "`runs/exp/a.json`, `runs/exp/c.json`\n"
    )
    assert missing(record, tmp_path) == ["7: runs/matches/lost.pgn.gz", "11: runs/exp/gone"]
    assert missing(log, tmp_path, log=True) == ["3: b.json", "3: runs/exp/c.json"]
    assert broken_anchors(record) == ["8: #two-words-2"]
    assert broken_anchors(log) == []
    assert anchors(record) == {"results", "two-words", "two-words-1"}
    assert (
        slug("Crazyhouse: safety, drops and kingrel at the report's scale")
        == "crazyhouse-safety-drops-and-kingrel-at-the-reports-scale"
    )
    assert ISSUE.search("Strength on request (issue 63, in progress)")
    assert not ISSUE.search("The checks played again: 27 of them")
