"""Openings for matches: seeded random plies from the start, or a file of positions
(EPD) or games (PGN). Every opening is played twice, once with each colour."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from variants import Position, VariantError, canonical_variant, random_line, starting_fen
from variants.errors import TdleafError

from .epd import EpdError, parse_epd
from .gamefiles import PgnError, games_text, is_packed, read_pgn_games


class OpeningError(TdleafError, ValueError):
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
    after them are ignored) or a PGN file, plain or ``.pgn.gz`` (each game's moves from
    its start position; a ``Variant`` tag, if any, must agree with ``variant``). Every
    position is checked with the rules; a bad line is reported with its number."""
    variant = canonical_variant(variant)
    path = Path(path)
    try:
        text = games_text(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise OpeningError(f"cannot read openings file {path}: {exc.strerror or exc}") from None
    try:
        if is_packed(path) or path.suffix.lower() == ".pgn" or text.lstrip().startswith("["):
            openings = _read_pgn(text, variant, path)
        else:
            openings = _read_epd(text, variant, path)
    except (EpdError, PgnError) as exc:
        raise OpeningError(str(exc)) from None
    if not openings:
        raise OpeningError(f"{path}: no openings found")
    return openings


def _read_epd(text: str, variant: str, path: Path) -> list[Opening]:
    out = []
    for entry in parse_epd(text, str(path)):
        try:
            pos = Position.from_fen(entry.fen, variant)
        except VariantError as exc:
            raise OpeningError(f"{path}:{entry.line}: {exc}") from None
        if pos.outcome() is not None:
            raise OpeningError(f"{path}:{entry.line}: the game is already over in {entry.fen}")
        out.append(Opening(pos.fen(), (), f"{path.name}:{entry.line}"))
    return out


def _read_pgn(text: str, variant: str, path: Path) -> list[Opening]:
    out = []
    for number, game, board in read_pgn_games(text, variant, str(path)):
        start = board.fen()
        moves = []
        for move in game.mainline_moves():
            if move not in board.legal_moves:
                raise OpeningError(f"{path}: game {number}: illegal move {move.uci()}")
            board.push(move)
            moves.append(move.uci())
        opening = Opening(start, tuple(moves), f"{path.name} game {number}")
        try:
            if opening.position(variant).outcome() is not None:
                raise OpeningError(f"{path}: game {number}: the game is already over")
        except VariantError as exc:
            raise OpeningError(f"{path}: game {number}: {exc}") from None
        out.append(opening)
    return out
