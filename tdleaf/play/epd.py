"""EPD files: one position a line, then operations. The one reader of the project's
EPD files: match openings, perft suites, the prior's positions and its labelled
positions all read through :func:`read_epd`.

A line is a position and its operations::

    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400
    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id "e4";
    r1bqkb1r/.../RNBK1BNR b kq - 3+3 0 8;bm e4f2;result 1;score 3718

The position is EPD's four FEN fields (placement, with crazyhouse's ``[pockets]``;
side to move; castling; en passant), then, if given, three-check's remaining checks
(``3+3``) and the two clocks of a FEN, and three-check's checks given in lichess's
form (``+2+1``); missing clocks are ``0 1``. Operations follow,
each ``opcode operand`` ended by ``;`` (the first may follow the position after a
space, as EPD writes it, or after a ``;``, as perft suites do). Blank lines and lines
that start with ``#`` are skipped. What a position means is the rules' business
(:class:`variants.Position`); this reader only splits lines, and names the file and
line of anything it cannot split.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from variants.errors import TdleafError

#: Three-check's remaining checks, ``3+3`` (after en passant), or the checks given,
#: ``+2+1`` (lichess's form, after the clocks): python-chess reads both.
_CHECKS = re.compile(r"^\d+\+\d+$")
_CHECKS_GIVEN = re.compile(r"^\+\d+\+\d+$")


class EpdError(TdleafError, ValueError):
    """An EPD file that cannot be read, or a line that is not an EPD position."""


@dataclass(frozen=True)
class EpdLine:
    """One position of an EPD file."""

    line: int                                   # 1-based line number in the file
    fen: str                                    # a full FEN (clocks added when missing)
    operations: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @property
    def ops(self) -> dict[str, str]:
        """The operations as ``{opcode: operand}`` (the last of a repeated opcode)."""
        return dict(self.operations)


def parse_line(text: str, line: int = 0, source: str = "<epd>") -> EpdLine | None:
    """One line of an EPD file, or None for a blank line or a ``#`` comment."""
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    position, _, rest = text.partition(";")
    fields = position.split()
    if len(fields) < 4:
        raise EpdError(f"{source}:{line}: expected an EPD position (placement, side, "
                       f"castling, en passant), got {text[:60]!r}")
    fen, extra = fields[:4], fields[4:]
    if extra and _CHECKS.match(extra[0]):
        fen.append(extra.pop(0))
    if len(extra) >= 2 and extra[0].isdigit() and extra[1].isdigit():
        fen += extra[:2]
        extra = extra[2:]
    else:
        fen += ["0", "1"]
    if extra and _CHECKS_GIVEN.match(extra[0]):
        fen.append(extra.pop(0))
    texts = ([" ".join(extra)] if extra else []) + rest.split(";")
    operations = []
    for op in texts:
        opcode, _, operand = op.strip().partition(" ")
        if opcode:
            operations.append((opcode, operand.strip()))
    return EpdLine(line, " ".join(fen), tuple(operations))


def parse_epd(text: str, source: str = "<epd>") -> list[EpdLine]:
    """Every position of the text of an EPD file (``source`` names it in errors)."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        found = parse_line(raw, n, source)
        if found is not None:
            out.append(found)
    return out


def format_line(fen: str, operations: list[tuple[str, str]] | tuple[tuple[str, str], ...],
                ) -> str:
    """An EPD line that :func:`parse_line` reads back: the FEN, then ``;opcode operand``
    for each operation (no operand may hold ``;``)."""
    for opcode, operand in operations:
        if ";" in opcode or ";" in operand or not opcode.strip():
            raise EpdError(f"an EPD operation cannot be {opcode!r} {operand!r}")
    return fen + "".join(f";{opcode} {operand}" for opcode, operand in operations)


def read_epd(path: str | os.PathLike[str]) -> list[EpdLine]:
    """Every position of the EPD file at ``path``; :class:`EpdError` when it cannot be
    read (as UTF-8 text) or a line is not an EPD position."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EpdError(f"cannot read EPD file {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise EpdError(f"cannot read EPD file {str(path)!r}: not UTF-8 text "
                       f"({exc.reason})") from None
    return parse_epd(text, str(path))
