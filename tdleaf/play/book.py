"""The build of an opening book (:mod:`search.solve.book`): every position within a few plies of
the start proved on a backend (:mod:`tdleaf.backend`), one JSON line a position kept
beside the book, so that a killed build resumes where it stopped."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.solve.book import Book, BookError, book_entries, positions, prove_position
from tdleaf.backend import Backend, run_units
from variants import spec


@dataclass(frozen=True)
class ProveJob:
    """Proves the positions of a book (:mod:`tdleaf.backend`'s job): a unit is a line
    from the start, its item the position's record. Each unit starts with an empty
    table of proved wins, so a record does not depend on which worker made it."""

    variant: str
    nodes: int

    def start(self) -> Any:
        from search.solve.pns import ProofSearch, load
        load()
        return ProofSearch(self.nodes)

    def run(self, state: Any, line: list[str]) -> Iterator[dict[str, Any]]:
        yield prove_position(state, self.variant, line)

    def close(self, state: Any) -> None:
        pass


def records_path(out: str | Path) -> Path:
    """Where :func:`build` keeps its per-position records: beside the book."""
    out = Path(out)
    return out.with_name(out.name + ".records.jsonl")


def _read_records(path: Path, variant: str, plies: int, nodes: int) -> list[dict[str, Any]]:
    """The records of an earlier build with the same settings (its header line says
    which); :class:`BookError` when they are another build's."""
    if not path.exists():
        return []
    rows = []
    with path.open() as fh:
        lines = [line for line in fh if line.strip()]
    try:
        head = json.loads(lines[0]) if lines else {}
        want = {"variant": variant, "plies": plies, "nodes": nodes}
        if {k: head.get(k) for k in want} != want:
            raise BookError(f"{path}: records of another build ({head}); remove the file "
                            f"or build with its settings")
        for text in lines[1:]:
            try:
                rows.append(json.loads(text))
            except json.JSONDecodeError:      # a line cut short by a kill: prove it again
                continue
    except json.JSONDecodeError as exc:
        raise BookError(f"{path}: not a book's records ({exc})") from None
    return rows


def build(variant: str, plies: int, nodes: int, out: str | Path, backend: Backend,
          command: str = "", progress: Callable[[int, int], None] | None = None) -> Book:
    """Prove every position within ``plies`` plies of ``variant``'s start with trees of
    ``nodes`` nodes, on ``backend`` (:class:`tdleaf.backend.Backend`), and write the
    book to ``out``. Resumes from the records an earlier, killed build left beside it.
    ``progress(done, total)`` is called after each position."""
    name = spec.get(variant).name
    lines = positions(name, plies)
    rec_path = records_path(out)
    rows = _read_records(rec_path, name, plies, nodes)
    done = {tuple(r["line"]) for r in rows}
    todo = [line for line in lines if tuple(line) not in done]
    rec_path.parent.mkdir(parents=True, exist_ok=True)
    if not rec_path.exists() or not rows:
        rec_path.write_text(json.dumps({"variant": name, "plies": plies, "nodes": nodes}) + "\n")
    if progress is not None:
        progress(len(lines) - len(todo), len(lines))
    with rec_path.open("a") as fh:
        def take(_unit: Any, record: dict[str, Any]) -> None:
            fh.write(json.dumps(record) + "\n")
            fh.flush()
            rows.append(record)
            if progress is not None:
                progress(len(rows), len(lines))
        run_units(backend, ProveJob(name, nodes), todo, take)
    wanted = {tuple(line) for line in lines}
    entries = book_entries(name, [r for r in rows if tuple(r["line"]) in wanted])
    book = Book(name, plies, nodes, entries, len(lines), command)
    book.save(out)
    return book
