"""Files of games (PGN) that are not a match's own: read as openings
(:mod:`.openings`) or as positions (``tdleaf prior --pgn``), plain or compressed. A
match's PGN file, written and resumed game by game, is :mod:`.pgn`.

A ``.pgn.gz`` file is a gzip file of gzip members, each the text of what one append
wrote (a game of a match, a batch of a ladder's rung): ``gunzip`` and ``zcat`` read it
as one PGN; :func:`read_members` gives the members apart and stops at a torn one."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import chess.variant

from variants import board_class
from variants.errors import TdleafError
from variants.spec import same_rules


class PgnError(TdleafError, ValueError):
    """A PGN file that cannot be read, or a game of other rules than asked."""


def is_packed(path: Path) -> bool:
    """Whether ``path`` names a compressed games file (``.pgn.gz``): one gzip member an
    append."""
    return path.name.endswith(".gz")


def gzip_member(data: bytes) -> bytes:
    """``data`` as one gzip member of a ``.pgn.gz`` file (no time stamp in it: the same
    games, the same bytes)."""
    return gzip.compress(data, mtime=0)


def games_text(path: Path, encoding: str = "utf-8-sig", errors: str = "strict") -> str:
    """The PGN text of a games file, plain (read with ``encoding`` and ``errors``; by
    default a byte-order mark skipped) or ``.pgn.gz`` (its complete members, joined):
    what a reader of whole files (openings, positions) reads."""
    if is_packed(path):
        return "".join(read_members(path))
    return path.read_text(encoding=encoding, errors=errors)


def read_members(path: Path, repair: bool = False) -> list[str]:
    """The texts of a ``.pgn.gz`` file's complete gzip members, in order (a ladder's
    rung: member k is batch k); with ``repair``, a torn last member is cut off."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    members = gzip_members(raw)
    good_end = members[-1][1] if members else 0
    if repair and good_end < len(raw):
        truncate(path, good_end)
    return [data.decode("utf-8", errors="replace") for data, _ in members]


def gzip_members(raw: bytes) -> list[tuple[bytes, int]]:
    """The decompressed complete members of gzip data, each with where it ends: a
    member cut short (or damaged) ends the reading, as a torn game does."""
    members: list[tuple[bytes, int]] = []
    view = memoryview(raw)
    end = 0
    while end < len(raw):
        unzip = zlib.decompressobj(wbits=31)           # 31: one gzip member
        try:
            data = unzip.decompress(view[end:])
        except zlib.error:
            break
        if not unzip.eof:
            break
        end = len(raw) - len(unzip.unused_data)
        members.append((data, end))
    return members


def truncate(path: Path, size: int) -> None:
    """Cut ``path`` to its first ``size`` bytes (a torn last game or member)."""
    with open(path, "r+b") as fh:
        fh.truncate(size)


def _tag_variant(tag: str) -> str:
    """A ``Variant`` tag's name as the spec knows it (python-chess's aliases first:
    ``King of the Hill`` -> ``kingofthehill``)."""
    try:
        found = chess.variant.find_variant(tag).uci_variant
    except ValueError:
        found = None
    return found or tag.lower().replace("-", "").replace(" ", "")


def read_pgn_games(text: str, variant: str, source: str = "<pgn>",
                   ) -> Iterator[tuple[int, chess.pgn.Game, chess.Board]]:
    """Each game of the PGN ``text`` with its number (from 1) and a fresh board of
    ``variant`` at its start (its ``FEN`` tag, else the start position). A game whose
    ``Variant`` tag names other rules, a game python-chess read with errors and a bad
    ``FEN`` tag raise :class:`PgnError` naming ``source`` and the game; a game without
    a ``Variant`` tag is taken to be of ``variant``."""
    stream = io.StringIO(text)
    number = 0
    while True:
        try:
            game = chess.pgn.read_game(stream)
        except (ValueError, KeyError) as exc:
            raise PgnError(f"{source}: unreadable PGN after game {number}: {exc}") from None
        if game is None:
            return
        number += 1
        tag = game.headers.get("Variant")
        if tag and not same_rules(_tag_variant(tag), variant):
            raise PgnError(f"{source}: game {number} is {tag}, not {variant}")
        if game.errors:
            raise PgnError(f"{source}: game {number}: {game.errors[0]}")
        fen = game.headers.get("FEN")
        try:
            board = board_class(variant)(fen) if fen else board_class(variant)()
        except ValueError as exc:
            raise PgnError(f"{source}: game {number}: bad FEN {fen!r}: {exc}") from None
        yield number, game, board


def book_plies(game: chess.pgn.Game) -> int:
    """The plies of a game's opening that no engine chose: the mainline up to the move
    commented ``book`` (how :mod:`.pgn` marks the end of a match's opening), 0 without
    one."""
    for ply, node in enumerate(game.mainline(), 1):
        if node.comment.strip() == "book":
            return ply
    return 0


def pgn_positions(path: str | os.PathLike[str], variant: str, every: int = 1,
                  ) -> Iterator[tuple[dict[str, Any], str]]:
    """Every ``every``-th position of every game of a PGN file (or a ``.pgn.gz``), as
    ``(where, FEN)``: ``where`` is ``{"game": n, "ply": k, "played": the UCI move played
    there}`` (None after the last move)."""
    try:
        text = games_text(Path(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise PgnError(f"cannot read {path}: {exc}") from None
    for number, game, board in read_pgn_games(text, variant, str(path)):
        for ply, move in enumerate(game.mainline_moves()):
            if ply % every == 0:
                yield {"game": number, "ply": ply, "played": move.uci()}, board.fen()
            board.push(move)
        if board.ply() % every == 0:
            yield {"game": number, "ply": board.ply(), "played": None}, board.fen()
