"""A feature block: a named group of weights, and how the compiled code evaluates it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from variants import spec

from .errors import WeightsError, finite_number

if TYPE_CHECKING:
    import chess

#: Piece letters, pawn to king (a block's keys when they are piece types).
PIECES = "PNBRQK"
#: The pieces that can be in hand.
HAND_PIECES = "PNBRQ"
#: What a leaf block reads of the node's attack maps (search.kernels.attacks): nothing,
#: the kings' zones, or the whole board. Its index is the extent the compiled code gets.
ATTACK_EXTENTS = ("none", "zones", "board")


@dataclass(frozen=True)
class Block:
    """A named group of weights, stored in ``weights.json`` under its name.

    Its entries are ``keys`` (one number each) or, when ``width`` > 1, rows of ``width``
    numbers (``{"P": [64 numbers]}``), then ``padding`` unused entries (never saved).

    How it is evaluated: ``"incremental"`` blocks are the classic ones
    (:mod:`search.evaluation.classic`), at a fixed ``offset``, updated move by move by
    :mod:`search.kernels.classic`; ``"leaf"`` blocks are appended after them and computed
    from the whole position at the nodes the search evaluates, by their kernel in
    :mod:`search.kernels` (numbered ``code``). ``reference(bb, st)`` (the position's
    arrays -> its ``size`` features, White's view, pure Python) defines the block: the
    tests hold the kernel to it, and it serves a block without a kernel."""

    name: str
    keys: tuple[str, ...]
    width: int = 1
    padding: int = 0
    evaluation: str = "leaf"
    offset: int | None = None
    #: The number of its compiled kernel, which the dispatch switches on (unique; 0: no
    #: kernel, its reference computes it, outside the search).
    code: int = 0
    #: What it reads of the node's attack maps (one of :data:`ATTACK_EXTENTS`).
    attacks: str = "none"
    pockets: bool = False           # only in variants with pieces in hand
    colours: bool = False           # only in variants with separate values per colour
    #: Only in variants won this way (one of their ``spec.Variant.win_conditions``).
    win_condition: str | None = None
    #: Only in variants with this rule flag of ``spec.Variant`` set (``"explosions"``,
    #: ``"losing"``).
    rule: str | None = None
    reference: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = field(
        default=None, compare=False)
    key_kind: str = "entry"         # what a key is, for error messages ("piece")
    #: What it holds, for --help and the docs.
    doc: str = field(default="", compare=False)
    #: The one-line title of its figure, and what its keys are (the figure's x axis).
    title: str = field(default="", compare=False)
    axis: str = field(default="entry", compare=False)

    def __post_init__(self) -> None:
        if self.attacks not in ATTACK_EXTENTS:
            raise ValueError(f"block {self.name!r}: attacks must be one of "
                             f"{', '.join(ATTACK_EXTENTS)}, got {self.attacks!r}")

    def __repr__(self) -> str:
        return f"Block({self.name!r}, {self.size} entries, {self.evaluation})"

    @property
    def size(self) -> int:
        return len(self.keys) * self.width + self.padding

    @property
    def extent(self) -> int:
        """The attack maps it reads, as the compiled code numbers them."""
        return ATTACK_EXTENTS.index(self.attacks)

    def misfit(self, variant: str) -> str | None:
        """Why the block has no place in a variant's layout (None: it has one)."""
        v = spec.get(variant)
        if self.pockets and not v.pockets:
            return f"block {self.name!r} needs pieces in hand, which {v.name} has not"
        if self.colours and v.mirror != "colour":
            own = [u.name for u in spec.SPECS.values() if u.mirror == "colour"]
            return (f"block {self.name!r} holds Black's own values, which only a variant "
                    f"with separate values per colour has ({', '.join(own)}); {v.name} "
                    f"mirrors its tables between the colours by {v.mirror}")
        if self.win_condition is not None and self.win_condition not in v.win_conditions:
            won = [u.name for u in spec.SPECS.values() if self.win_condition in u.win_conditions]
            return (f"block {self.name!r} is for {', '.join(won)} only (win condition "
                    f"{self.win_condition!r}), not {v.name}")
        if self.rule is not None and not getattr(v, self.rule):
            ruled = [u.name for u in spec.SPECS.values() if getattr(u, self.rule)]
            return (f"block {self.name!r} is for {', '.join(ruled)} only (rule "
                    f"{self.rule!r}), not {v.name}")
        return None

    @property
    def entries(self) -> list[str]:
        """The name of each entry within the block (``P``, ``K.63``; ``-`` unused)."""
        if self.width == 1:
            out = list(self.keys)
        else:
            out = [f"{k}.{i}" for k in self.keys for i in range(self.width)]
        return out + ["-"] * self.padding

    def to_json(self, values: np.ndarray) -> dict[str, Any]:
        if self.width == 1:
            return {k: float(values[i]) for i, k in enumerate(self.keys)}
        return {k: [float(x) for x in values[self.width * i:self.width * (i + 1)]]
                for i, k in enumerate(self.keys)}

    def from_json(self, part: Any, source: str) -> np.ndarray:
        """The block's entries from its part of a ``weights.json`` (absent keys are 0)."""
        out = np.zeros(self.size, dtype=np.float64)
        if part is None:
            return out
        if not isinstance(part, dict):
            raise WeightsError(f"{source}: {self.name!r} must be an object")
        for k, x in part.items():
            if k not in self.keys:
                raise WeightsError(f"{source}: unknown {self.key_kind} {k!r} in {self.name!r}")
            i = self.keys.index(k)
            if self.width == 1:
                out[i] = finite_number(x, f"{source}: {self.name}.{k}")
                continue
            if not isinstance(x, list) or len(x) != self.width:
                raise WeightsError(f"{source}: {self.name}.{k} must be a list of "
                                   f"{self.width} numbers")
            for j, y in enumerate(x):
                out[self.width * i + j] = finite_number(y, f"{source}: {self.name}.{k}[{j}]")
        return out


def python_chess_board(bb: np.ndarray, st: np.ndarray, cls: type[chess.Board],
                       promoted: bool = False) -> chess.Board:
    """A python-chess board of class ``cls`` with the pieces, side to move and (in
    three-check) remaining checks of the position's arrays; with ``promoted``, its
    promoted mask too (``Board.king`` passes over promoted kings). What the blocks'
    references compute their features on."""
    import chess
    import chess.variant

    from variants import core

    board = cls.empty()
    white = int(bb[core.OCC])
    for sq in range(64):
        if st[sq]:
            board.set_piece_at(sq, chess.Piece(int(st[sq]), bool(white >> sq & 1)))
    board.turn = bool(st[core.TURN] == core.WHITE)
    if isinstance(board, chess.variant.ThreeCheckBoard):
        board.remaining_checks[chess.WHITE] = int(st[core.CHECKS])
        board.remaining_checks[chess.BLACK] = int(st[core.CHECKS + 1])
    if promoted:
        board.promoted = int(bb[core.PROMOTED])
    return board


def variant_of(st: np.ndarray) -> spec.Variant:
    """The variant (first of its rules) of a position's arrays."""
    from variants import core

    return spec.by_code(int(st[core.VARIANT]))
