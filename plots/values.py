"""The numbers the figures show, computed from a :class:`~plots.runfolder.RunData`.

Normalisation follows the report: every value is scaled so that the variant's reference
piece has the report's value (chess and crazyhouse bishop = 3, atomic knight = 2.5,
suicide/giveaway/antichess rook = -5). Curves and final values normalise *each run*
(each row of its history) before the mean and standard deviation over runs are taken,
so the reference piece sits exactly at its value and the spread is that of the ratios.
(``summary.json``'s ``normalised`` views instead scale the mean weights; the two agree
up to the spread between runs.) Piece-square tables are scaled so that the reference
piece's frequency-weighted table average has the report's value, as in the report's
figures (bishop average 3.00 in Table 5.1 and bishop Min/Max 2.83/3.12 in Fig. 5.2).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from .runfolder import (HAND, HAND_PIECES, MATERIAL, PIECES, RunData, board_values,
                        psq_average, scale_for)


def hand_key(p: str) -> str:
    return f"{p}@hand"


#: Games where the reference weight is below this fraction of its median magnitude over
#: the run are left out of the normalised curves.
NEAR_ZERO = 0.1


@dataclass
class Curves:
    """Mean and standard deviation over runs, per game, of each normalised value."""

    games: np.ndarray                           # (G,) 1..G
    mean: dict[str, np.ndarray]                 # key ("P", "P@hand") -> (G,)
    std: dict[str, np.ndarray]
    runs: np.ndarray                            # (G,) how many runs reached that game
    reference: tuple[str, float]


def curves(data: RunData) -> Curves:
    piece, target = data.normalisation
    ref = PIECES.index(piece)
    G = max(len(h.games) for h in data.histories)
    keys = list(data.board_pieces) + ([hand_key(p) for p in HAND_PIECES] if data.has_hand else [])
    stacks = {k: np.full((len(data.histories), G), np.nan) for k in keys}
    for j, h in enumerate(data.histories):
        n = len(h.games)
        refv = h.material[:, ref]
        # A ratio to a reference weight near 0 means nothing (in suicide every weight
        # starts at +1 and the rook's crosses 0 on its way to its negative value): such
        # games are left out of the curve rather than drawn as a spike.
        small = np.abs(refv) < max(1e-12, NEAR_ZERO * float(np.median(np.abs(refv))))
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(small, np.nan, target / refv)
        for k in keys:
            if k.endswith("@hand"):
                col = h.hand[:, HAND_PIECES.index(k[0])]
            else:
                col = h.material[:, PIECES.index(k)]
            stacks[k][j, :n] = col * scale
    lengths = np.array([len(h.games) for h in data.histories])
    count = np.array([int(np.sum(lengths >= g)) for g in range(1, G + 1)])
    mean, std = {}, {}
    with warnings.catch_warnings():     # games no run has reached: mean of nothing
        warnings.simplefilter("ignore", RuntimeWarning)
        for k in keys:
            mean[k] = np.nanmean(stacks[k], axis=0)
            std[k] = np.nanstd(stacks[k], axis=0)
    return Curves(np.arange(1, G + 1), mean, std, count, (piece, target))


@dataclass
class Series:
    """One set of final values: per key, mean and standard deviation over runs."""

    label: str
    mean: dict[str, float]
    std: dict[str, float] = field(default_factory=dict)
    style: str = "learnt"          # "learnt", "psq", "paper"


@dataclass
class Finals:
    series: list[Series]
    raw_mean: dict[str, float]         # raw weights, mean over runs
    raw_std: dict[str, float]
    games: list[int]                   # games played by each run used
    reference: tuple[str, float]


def _run_vectors(data: RunData) -> list[tuple[np.ndarray, np.ndarray | None, int]]:
    """``(w, visits, games)`` of each run: its checkpoint, or else its last history row."""
    out = []
    for h in data.histories:
        ck = data.checkpoints.get(h.run)
        if ck is not None:
            out.append((ck.w, ck.visits, ck.games))
        else:
            w = np.zeros(12 + 6 * 64)
            w[MATERIAL:MATERIAL + 6] = h.material[-1]
            w[HAND:HAND + 5] = h.hand[-1]
            out.append((w, None, len(h.games)))
    return out


def _stats(rows: list[dict[str, float]]) -> tuple[dict[str, float], dict[str, float]]:
    keys = rows[0].keys() if rows else []
    mean, std = {}, {}
    for k in keys:
        xs = np.array([r[k] for r in rows], dtype=float)
        xs = xs[~np.isnan(xs)]
        mean[k] = float(xs.mean()) if xs.size else math.nan
        std[k] = float(xs.std()) if xs.size else math.nan
    return mean, std


def finals(data: RunData) -> Finals:
    piece, target = data.normalisation
    vecs = _run_vectors(data)
    keys_board = list(data.board_pieces)
    learnt_rows, psq_rows, raw_rows = [], [], []
    for w, visits, _ in vecs:
        raw = {p: float(w[MATERIAL + PIECES.index(p)]) for p in keys_board}
        if data.has_hand:
            raw.update({hand_key(p): float(w[HAND + i]) for i, p in enumerate(HAND_PIECES)})
        raw_rows.append(raw)
        s = scale_for(raw[piece], target)
        learnt_rows.append({k: v * s for k, v in raw.items()})
        if data.psq:
            if visits is None:
                continue
            avg = psq_average(w, visits)
            s2 = scale_for(avg[piece], target)
            row = {p: avg[p] * s2 for p in keys_board}
            if data.has_hand:
                row.update({hand_key(p): float(w[HAND + i]) * s2
                            for i, p in enumerate(HAND_PIECES)})
            psq_rows.append(row)
    series = []
    m, sd = _stats(learnt_rows)
    series.append(Series("learnt material weights" if data.psq else "learnt",
                         m, sd, "learnt"))
    if data.psq and psq_rows:
        m2, sd2 = _stats(psq_rows)
        label = "table average" + (" (hand: weight)" if data.has_hand else "")
        series.append(Series(label, m2, sd2, "psq"))
    rm, rs = _stats(raw_rows)
    return Finals(series, rm, rs, [g for _, _, g in vecs], (piece, target))


@dataclass
class Boards:
    """Normalised material + table entry per square for each piece (a1 = 0 ... h8 = 63)."""

    values: dict[str, np.ndarray]
    scale: float                    # factor applied to the raw weights
    normalised: bool                # False when the reference average was 0
    visits: np.ndarray | None       # (6, 64)


def boards(data: RunData) -> Boards | None:
    """The heatmap values of a psq run (None for material runs or without weights)."""
    if not data.psq or data.weights is None:
        return None
    piece, target = data.normalisation
    w = data.weights
    visits = data.visits if data.visits is not None else np.ones((6, 64))
    s = scale_for(psq_average(w, visits)[piece], target)
    normalised = not math.isnan(s)
    if not normalised:
        s = 1.0
    return Boards({p: board_values(w, p) * s for p in PIECES}, s, normalised, data.visits)


def outcome_counts(data: RunData) -> dict[str, float]:
    """White wins, draws, Black wins and the mean game length over all games played."""
    res = np.concatenate([h.results for h in data.histories])
    plies = np.concatenate([h.plies for h in data.histories])
    res = res[~np.isnan(res)]
    return {"games": int(res.size), "white": int(np.sum(res == 1.0)),
            "draws": int(np.sum(res == 0.5)), "black": int(np.sum(res == 0.0)),
            "plies": float(np.nanmean(plies)) if plies.size else math.nan}
