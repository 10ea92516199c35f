"""An opening book built by the proof-number search itself, as Nilatac built its own.

Every position within a few plies of a variant's start (transpositions once) is given
to :class:`search.solve.pns.ProofSearch` with a node budget: first for a forced win of the
side to move (its winning moves are the book's ``wins``), and when none is proved, for
the opponent's wins after each move (those moves are the book's ``losses``). Each
proof is then carried to the positions before it: a move into a position whose side to
move has a proved win is a loss, a move into one where every move loses a win. A
position with nothing proved is left out. The build does not load the endgame tables
saved on disk, so a book does not depend on what a machine has built. The book
keeps proofs only, never preferences: an
engine that consults it (:attr:`search.alphabeta.engine.Engine.own_book`, on a timed move, as
it consults the endgame tables) plays its shortest proved win, else searches the moves
it does not refute.

The shipped books are ``search/data/book/<variant>.json`` (a per-user copy overrides
them, :mod:`search.shipped`), built by ``tdleaf book``; the command that rebuilt each is
in its ``command`` field (the build: :mod:`tdleaf.play.book`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from variants import Position, spec
from variants.errors import TdleafError

from .. import shipped
from ..files import write_json

#: The file format's version (``format`` in the file).
FORMAT = 1


class BookError(TdleafError, ValueError):
    """A book file that cannot be read, or one for another variant or settings."""


def book_key(pos: Position) -> str:
    """A position's key in a book: its FEN without the move counters (placement, side
    to move, castling, en passant; crazyhouse's pockets are in the placement)."""
    return " ".join(pos.fen().split()[:4])


@dataclass(frozen=True)
class Entry:
    """What the proof search proved in one position: ``wins`` (a move to the length in
    plies of the proved win it starts, counting it) and ``losses`` (a move to the
    length of the opponent's proved win after it, counted from the position it
    leaves)."""

    wins: dict[str, int] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)

    def best_win(self, allowed: set[str] | None = None) -> tuple[str, int] | None:
        """The shortest proved win among ``allowed`` (every move: None), as (move,
        plies), or None."""
        wins = [(p, m) for m, p in self.wins.items() if allowed is None or m in allowed]
        if not wins:
            return None
        plies, move = min(wins)
        return move, plies


@dataclass
class Book:
    """A variant's book: :class:`Entry` by :func:`book_key`, and how it was built."""

    variant: str
    plies: int
    nodes: int
    entries: dict[str, Entry]
    #: Positions searched (those with nothing proved are not in ``entries``).
    positions: int = 0
    command: str = ""

    def probe(self, pos: Position) -> Entry | None:
        """The entry of ``pos``, or None (not in the book, or another variant)."""
        if pos.variant != self.variant:
            return None
        return self.entries.get(book_key(pos))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "variant": self.variant, "plies": self.plies,
                "nodes": self.nodes, "positions": self.positions, "command": self.command,
                "entries": {k: {"wins": e.wins, "losses": e.losses}
                            for k, e in sorted(self.entries.items())}}

    def save(self, path: str | Path) -> None:
        """Write the book (atomically: a killed write leaves the old file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, self.to_json(), indent=1)


def read_book(path: str | Path) -> Book:
    """Read a book file; :class:`BookError` when it is not one."""
    try:
        data = json.loads(Path(path).read_text())
        fmt = data.get("format")
        if fmt == FORMAT:
            entries = {str(k): Entry({str(m): int(p) for m, p in e["wins"].items()},
                                     {str(m): int(p) for m, p in e["losses"].items()})
                       for k, e in data["entries"].items()}
            return Book(spec.get(data["variant"]).name, int(data["plies"]),
                        int(data["nodes"]), entries, int(data.get("positions", 0)),
                        str(data.get("command", "")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BookError(f"{path}: not a readable book ({type(exc).__name__}: {exc})") from None
    raise BookError(f"{path}: not a tdleaf book of format {FORMAT}")


def relpath(variant: str) -> str:
    """A variant's book, relative to ``search/data`` (and to the per-user folder)."""
    return f"book/{spec.get(variant).name}.json"


@functools.lru_cache(maxsize=16)
def shipped_book(variant: str) -> Book | None:
    """The book the engine consults in ``variant``: the per-user copy, else the shipped
    one; None where the variant has none (:attr:`variants.spec.Variant.book`)."""
    if not spec.get(variant).book:
        return None
    path = shipped.find(relpath(variant))
    return None if path is None else read_book(path)


# -- building ---------------------------------------------------------------------------


def positions(variant: str, plies: int) -> list[list[str]]:
    """Every position within ``plies`` plies of the start, as the line that reaches it
    first (breadth first, moves in the generator's order), each position once, games
    already over left out."""
    start = Position.start(variant)
    lines: list[list[str]] = [[]]
    seen, frontier = {book_key(start)}, [start]
    for _ in range(plies):
        nxt = []
        for pos in frontier:
            for m in pos.legal_moves():
                child = pos.copy()
                child.push_uci(m)
                key = book_key(child)
                if key in seen or child.is_game_over():
                    continue
                seen.add(key)
                nxt.append(child)
                lines.append(child.move_stack)
        frontier = nxt
    return lines


def prove_position(search: Any, variant: str, line: list[str]) -> dict[str, Any]:
    """One position's record: its line, key, proved wins and losses, nodes, seconds."""
    from .pns import PROVED, new_table
    pos = Position.start(variant)
    for m in line:
        pos.push_uci(m)
    search.table = new_table()
    mine = search.solve(pos)
    wins = {m: p for m, (s, p) in mine.moves.items() if s == PROVED}
    losses: dict[str, int] = {}
    nodes, seconds = mine.nodes, mine.seconds
    if not wins:
        search.table = new_table()
        theirs = search.solve(pos, target="other")
        losses = {m: p for m, (s, p) in theirs.moves.items() if s == PROVED}
        nodes, seconds = nodes + theirs.nodes, seconds + theirs.seconds
    return {"line": line, "key": book_key(pos), "wins": wins, "losses": losses,
            "nodes": nodes, "seconds": round(seconds, 3)}


def book_entries(variant: str, rows: list[dict[str, Any]]) -> dict[str, Entry]:
    """A book's entries from its records (:func:`prove_position`'s), each proof carried
    to the positions before it (deepest first): a move into a position whose side to
    move has a proved win is a loss, and a move into one where every move loses is a
    win. A record's lengths are the proof search's, counted from the position after
    each move; an entry's win counts its move too."""
    by_key: dict[str, Entry] = {}
    for r in sorted(rows, key=lambda r: -len(r["line"])):
        wins = {m: p + 1 for m, p in r["wins"].items()}
        losses = dict(r["losses"])
        pos = Position.start(variant)
        for m in r["line"]:
            pos.push_uci(m)
        for m in pos.legal_moves():
            child = pos.copy()
            child.push_uci(m)
            known = by_key.get(book_key(child))
            if known is None or m in wins or m in losses:
                continue
            if known.wins:
                losses[m] = min(known.wins.values())
            elif len(known.losses) == len(child.legal_moves()):
                wins[m] = 2 + max(known.losses.values())
        by_key[r["key"]] = Entry(wins, losses)
    return {k: e for k, e in by_key.items() if e.wins or e.losses}
