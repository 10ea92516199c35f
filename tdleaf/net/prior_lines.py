"""The heuristic prior of positions as JSON records (``tdleaf prior``): one position, or
every position of an EPD file or every N-th of a PGN file's games, one JSON object a
line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO, Any

from search.mcts.prior import HeuristicPrior
from tdleaf.play.epd import read_epd
from tdleaf.play.gamefiles import pgn_positions

#: Positions evaluated in one batch.
CHUNK = 64


def score_json(s: float) -> float | str:
    """A move's score for JSON: pawns, or ``"win in N plies"`` / ``"loss in N plies"``."""
    from search.alphabeta.negamax import MATE, MATE_BOUND
    if s > MATE_BOUND:
        return f"win in {round(MATE - s)} plies"
    if s < -MATE_BOUND:
        return f"loss in {round(MATE + s)} plies"
    return round(s, 4)


def prior_record(arr: Any, i: int, fen: str, ev: HeuristicPrior) -> dict[str, Any]:
    """Position ``i`` of a prior batch ``arr`` as a JSON record: its value and its moves'
    probabilities and scores, most likely first."""
    policy = arr.policy(i)
    scores = arr.move_scores(i)
    order = sorted(policy, key=lambda m: (-policy[m], m))
    return {"fen": fen, "variant": ev.variant, "depth": ev.depth,
            "temperature": ev.temperature, "win_logit": ev.win_logit, "value_mode": ev.value_mode,
            "value": float(arr.values[i]), "terminal": bool(arr.terminal[i]),
            "policy": {m: round(policy[m], 6) for m in order},
            "scores": {m: score_json(scores[m]) for m in order}}


def epd_positions(path: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every position of an EPD file as ``({"line": n}, FEN)`` (operations ignored)."""
    for e in read_epd(path):
        yield {"line": e.line}, e.fen


def file_positions(variant: str, epd: str | None = None, pgn: str | None = None,
                   every: int = 1) -> Iterator[tuple[dict[str, Any], str]]:
    """The positions of an EPD file, or every ``every``-th position of a PGN file's games
    (:func:`~tdleaf.play.gamefiles.pgn_positions`), with where each comes from."""
    if epd is not None:
        return epd_positions(epd)
    assert pgn is not None, "an EPD or a PGN file"
    return pgn_positions(pgn, variant, every)


def write_prior_lines(ev: HeuristicPrior, items: Iterable[tuple[dict[str, Any], str]],
                      out: IO[str]) -> int:
    """Write one JSON record (:func:`prior_record`, after its ``where``) per position to
    ``out``, evaluated in batches of :data:`CHUNK`; returns the number written."""
    chunk: list[tuple[dict[str, Any], str]] = []
    written = 0

    def flush() -> None:
        nonlocal written
        arr, pos = ev.batch([fen for _, fen in chunk])
        for i, (where, _) in enumerate(chunk):
            out.write(json.dumps({**where, **prior_record(arr, i, pos[i].fen(), ev)}) + "\n")
        written += len(chunk)
        chunk.clear()

    for item in items:
        chunk.append(item)
        if len(chunk) >= CHUNK:
            flush()
    if chunk:
        flush()
    return written
