"""Openings for matches: seeded random plies from the start, or a file of positions
(EPD) or games (PGN). Every opening is played twice, once with each colour."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from variants import (
    Position,
    VariantError,
    board_class,
    canonical_variant,
    random_line,
    starting_fen,
)
from variants.spec import same_rules


class OpeningError(ValueError):
    """An openings file that cannot be used."""


@dataclass(frozen=True)
class Opening:
    """A start position and the moves played from it before the engines take over."""

    fen: str
    moves: tuple[str, ...] = field(default_factory=tuple)
    name: str = ""

    def position(self, variant: str) -> Position:
        pos = Position.from_fen(self.fen, variant)
        for mv in self.moves:
            pos.push_uci(mv)
        return pos


def random_opening(variant: str, plies: int, seed: int) -> Opening:
    """``plies`` uniformly random legal moves from the start position, seeded. A line
    that ends the game early is drawn again (with the next seed of the same stream)."""
    variant = canonical_variant(variant)
    moves = random_line(variant, plies, seed)
    if moves is None:
        raise OpeningError(f"no {plies}-ply {variant} opening that keeps the game going")
    return Opening(starting_fen(variant), moves, f"random {plies} plies, seed {seed}")


def random_openings(variant: str, count: int, plies: int, seed: int) -> list[Opening]:
    """``count`` random openings; opening ``i`` depends only on the seed and ``i``."""
    return [random_opening(variant, plies, seed * 1_000_003 + i) for i in range(count)]


def read_openings(path: str | Path, variant: str) -> list[Opening]:
    """Openings from an EPD file (one position a line: the four FEN fields, opcodes
    after them are ignored) or a PGN file (each game's moves from its start position;
    a ``Variant`` tag, if any, must agree with ``variant``). Every position is checked
    with the rules; a bad line is reported with its number."""
    variant = canonical_variant(variant)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise OpeningError(f"cannot read openings file {path}: {exc.strerror or exc}") from None
    if path.suffix.lower() == ".pgn" or text.lstrip().startswith("["):
        openings = _read_pgn(text, variant, path)
    else:
        openings = _read_epd(text, variant, path)
    if not openings:
        raise OpeningError(f"{path}: no openings found")
    return openings


def _read_epd(text: str, variant: str, path: Path) -> list[Opening]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) < 4:
            raise OpeningError(f"{path}:{lineno}: expected an EPD position, got {line[:60]!r}")
        # EPD: placement, side, castling, ep; a FEN's clocks may follow.
        clocks = fields[4:6] if len(fields) >= 6 and all(f.isdigit() for f in fields[4:6]) else ["0", "1"]
        fen = " ".join(fields[:4] + clocks)
        try:
            pos = Position.from_fen(fen, variant)
        except VariantError as exc:
            raise OpeningError(f"{path}:{lineno}: {exc}") from None
        if pos.outcome() is not None:
            raise OpeningError(f"{path}:{lineno}: the game is already over in {fen}")
        out.append(Opening(pos.fen(), (), f"{path.name}:{lineno}"))
    return out


def _read_pgn(text: str, variant: str, path: Path) -> list[Opening]:
    out = []
    stream = io.StringIO(text)
    number = 0
    while True:
        try:
            game = chess.pgn.read_game(stream)
        except (ValueError, KeyError) as exc:
            raise OpeningError(f"{path}: unreadable PGN after game {number}: {exc}") from None
        if game is None:
            break
        number += 1
        tag = game.headers.get("Variant")
        if tag:
            try:
                tagged = canonical_variant(tag.lower().replace("-", "").replace(" ", ""))
            except VariantError:
                tagged = tag
            if not same_rules(tagged, variant):
                raise OpeningError(f"{path}: game {number} is {tag}, the match plays {variant}")
        if game.errors:
            raise OpeningError(f"{path}: game {number}: {game.errors[0]}")
        fen = game.headers.get("FEN", starting_fen(variant))
        try:
            board = board_class(variant)(fen)
        except ValueError as exc:
            raise OpeningError(f"{path}: game {number}: bad FEN {fen!r}: {exc}") from None
        moves = []
        for move in game.mainline_moves():
            if move not in board.legal_moves:
                raise OpeningError(f"{path}: game {number}: illegal move {move.uci()}")
            board.push(move)
            moves.append(move.uci())
        opening = Opening(board_class(variant)(fen).fen(), tuple(moves), f"{path.name} game {number}")
        try:
            if opening.position(variant).outcome() is not None:
                raise OpeningError(f"{path}: game {number}: the game is already over")
        except VariantError as exc:
            raise OpeningError(f"{path}: game {number}: {exc}") from None
        out.append(opening)
    return out
