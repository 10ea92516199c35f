"""What a search is asked (:class:`Limits`) and what it finds (:class:`SearchResult`),
and how a position comes in (:func:`to_position`) and a line's leaf is judged
(:func:`drawn_in_search`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess
import numpy as np

from variants import Position, core, spec

if TYPE_CHECKING:
    from .collect import Collected


@dataclass
class SearchResult:
    """What one search found. Scores are in pawns for the side to move."""

    move: str | None
    score: float
    pv: list[str]
    depth: int
    seldepth: int
    nodes: int
    time: float
    mate: int | None = None
    leaf_fen: str = ""
    leaf_score: float = 0.0            # leaf evaluation (White's view, no noise) or terminal value
    leaf_terminal: bool = False
    leaf_features: np.ndarray = field(default_factory=lambda: np.zeros(0))
    leaf_position: Position | None = None
    #: MultiPV: this line's rank (1 = best) and, on the first line, every line of the
    #: iteration (``lines[0]`` is the result itself); a single-PV search has one line.
    multipv: int = 1
    lines: list[SearchResult] = field(default_factory=list, repr=False)
    #: The root moves the proof check (:attr:`Engine.proof_check`) proved to lose.
    refuted: list[str] = field(default_factory=list)

    #: With :attr:`Engine.collect`: the interior nodes of the last completed iteration.
    collected: Collected | None = field(default=None, repr=False)

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


@dataclass
class Limits:
    """What a search may spend: a depth, a node count, a move time or the clocks, and what
    it is to find (a mate, some root moves only, several lines); ``ponder`` holds the
    clock back until :meth:`Engine.ponderhit`."""

    depth: int | None = None
    movetime: float | None = None        # seconds
    nodes: int | None = None
    wtime: float | None = None           # seconds on the clocks
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False
    #: Stop as soon as a win in at most this many moves is found; alone, search up to
    #: 2 * mate plies (the last ply of a suicide/giveaway win may be the opponent's).
    mate: int | None = None
    #: Only these root moves (UCI), as ``go searchmoves``; None: every legal move.
    searchmoves: list[str] | None = None
    #: The number of best lines to find (UCI MultiPV), each with its exact score and PV.
    multipv: int = 1
    #: Ponder: no time limit until :meth:`Engine.ponderhit`, which starts the clock
    #: budget these limits give (depth, nodes and mate limits apply throughout).
    ponder: bool = False


def to_position(pos: Position | chess.Board | str | None, variant: str) -> Position:
    """A position of ``variant`` from a FEN (None: the start), a python-chess board (its
    moves replayed, so that repetitions are known) or a :class:`Position`."""
    if isinstance(pos, Position):
        p = pos
    elif isinstance(pos, chess.Board):
        p = Position.from_board(pos)
        # Replay the board's moves so repetitions are known.
        if pos.move_stack:
            root = pos.root()
            p = Position.from_board(root, variant)
            for mv in pos.move_stack:
                p.push_uci(mv.uci())
    else:
        p = Position.from_fen(pos, variant)
    if not spec.get(p.variant).same_rules(spec.get(variant)):
        raise ValueError(f"position is {p.variant}, engine plays {variant}")
    return p


def drawn_in_search(leaf: Position) -> bool:
    """Whether the search scored this PV leaf as a draw by rule (50 moves, a
    repetition, insufficient material), exactly as :func:`search.alphabeta.negamax.negamax` does."""
    st, bb = leaf.st, leaf.bb
    keys = np.array([f.key for f in leaf._history] + [leaf.key], dtype=np.uint64)
    if core.rule_draw(st, keys, len(keys) - 1, keys[-1], 0):
        return True
    pieces = int(bb[core.OCC] | bb[core.OCC + 1]).bit_count()
    return pieces <= 6 and bool(core.is_insufficient_material(bb, st))
