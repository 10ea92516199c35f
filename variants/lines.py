"""Seeded random lines of legal moves from a variant's start: the openings of matches
and of self-play learning."""

from __future__ import annotations

import random

from .position import Position, canonical_variant, starting_fen


def random_line(variant: str, plies: int, seed: int) -> tuple[str, ...] | None:
    """``plies`` uniformly random legal moves (UCI) from the start position, seeded. A
    line that ends the game early is drawn again (with the next draws of the same
    stream); None if 1,000 tries all ended it."""
    variant = canonical_variant(variant)
    rng = random.Random(seed)
    start = starting_fen(variant)
    for _ in range(1000):
        pos = Position.from_fen(start, variant)
        moves = []
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal:
                break
            mv = rng.choice(legal)
            pos.push_uci(mv)
            moves.append(mv)
        if len(moves) == plies and pos.outcome() is None:
            return tuple(moves)
    return None
