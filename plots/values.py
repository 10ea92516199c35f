"""The numbers the figures show, computed from a :class:`~plots.runfolder.RunData`.

One normalisation everywhere, the report's (``runfolder.CONVENTION``, "mean then
normalise", :mod:`variants.normalise`): the runs' raw weights are averaged, then the
mean is scaled so that the variant's reference piece has the report's value (chess and
crazyhouse bishop = 3, atomic knight = 2.5, suicide/giveaway/antichess rook = -5); a
standard deviation is that of the raw weights over runs, times the same factor (so the
reference piece has a spread too). Only a positive factor is used: where the reference
mean is near 0 or of the wrong sign the values are shown raw, and say why. Curves do
this at every game with the runs that reached it, leaving out the games where it fails. Piece-square
tables and their averages come from the mean weights and the visits summed over runs,
scaled so that the reference piece's frequency-weighted table average has the report's
value (bishop average 3.00 in Table 5.1 and bishop Min/Max 2.83/3.12 in Fig. 5.2).
``summary.json`` (tdleaf/learn/runs.py) holds the same numbers.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from variants.normalise import mean_then_normalise, problem, typical_size

from .runfolder import (
    HAND,
    HAND_PIECES,
    MATERIAL,
    PIECES,
    RunData,
    board_values,
    psq_average,
    psq_mean_then_normalise,
)


def hand_key(p: str) -> str:
    return f"{p}@hand"


#: Games where the mean reference weight is below this fraction of the median magnitude
#: of that game's mean values are left out of the normalised curves (the final values
#: use the stricter default of :mod:`variants.normalise`).
NEAR_ZERO = 0.1


def value_keys(data: RunData) -> list[str]:
    """The values shown: the learnt board pieces, then the pieces in hand (crazyhouse)."""
    return list(data.board_pieces) + ([hand_key(p) for p in HAND_PIECES] if data.has_hand else [])


def _index(key: str) -> int:
    """The position of a value in the weight vector."""
    if key.endswith("@hand"):
        return HAND + HAND_PIECES.index(key[0])
    return MATERIAL + PIECES.index(key)


@dataclass
class Curves:
    """Per game, the mean over runs of the raw weights, normalised (mean-then-normalise),
    and the standard deviation over runs of the raw weights times the same factor; raw
    (``normalised`` False) when no game can be normalised."""

    games: np.ndarray                           # (G,) 1..G
    mean: dict[str, np.ndarray]                 # key ("P", "P@hand") -> (G,)
    std: dict[str, np.ndarray]
    runs: np.ndarray                            # (G,) how many runs reached that game
    reference: tuple[str, float]
    scale: np.ndarray | None = None             # (G,) factor per game (NaN: left out)
    normalised: bool = True
    left_out: int = 0                           # games left out (no factor)


def curves(data: RunData) -> Curves:
    piece, target = data.normalisation
    keys = value_keys(data)
    G = max(len(h.games) for h in data.histories)
    raw = np.full((len(data.histories), G, len(keys)), np.nan)
    for j, h in enumerate(data.histories):
        n = len(h.games)
        for i, k in enumerate(keys):
            raw[j, :n, i] = (h.hand[:, HAND_PIECES.index(k[0])] if k.endswith("@hand")
                             else h.material[:, PIECES.index(k)])
    # A ratio to a reference weight near 0 or of the wrong sign means nothing (in suicide
    # every weight starts at +1 and the rook's turns negative only after some games):
    # such games are left out of the curve rather than drawn as a spike or upside down.
    mean, std, scale = mean_then_normalise(raw, keys.index(piece), target, near_zero=NEAR_ZERO)
    lengths = np.array([len(h.games) for h in data.histories])
    count = np.array([int(np.sum(lengths >= g)) for g in range(1, G + 1)])
    scale = np.asarray(scale)
    normalised = bool(np.any(~np.isnan(scale)))
    if not normalised:                  # nothing to normalise by: the raw weights
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            mean, std = np.nanmean(raw, axis=0), np.nanstd(raw, axis=0)
    return Curves(np.arange(1, G + 1), {k: mean[:, i] for i, k in enumerate(keys)},
                  {k: std[:, i] for i, k in enumerate(keys)}, count, (piece, target), scale,
                  normalised, int(np.sum(np.isnan(scale))) if normalised else 0)


@dataclass
class Series:
    """One set of final values: per key, mean and standard deviation over runs."""

    label: str
    mean: dict[str, float]
    std: dict[str, float] = field(default_factory=dict)
    style: str = "learnt"          # "learnt", "psq", "paper"
    normalised: bool = True        # False: raw weights (see Finals.problem)


@dataclass
class Finals:
    series: list[Series]
    raw_mean: dict[str, float]         # raw weights, mean over runs
    raw_std: dict[str, float]
    games: list[int]                   # games played by each run used
    reference: tuple[str, float]
    scale: float = math.nan            # the factor of the learnt values
    psq_scale: float = math.nan        # the factor of the table averages
    problem: str | None = None         # why the learnt values are raw (not normalised)
    psq_problem: str | None = None     # why the table averages are raw

    @property
    def normalised(self) -> bool:
        """Every series is in the report's normalisation."""
        return all(s.normalised for s in self.series)


def _run_vectors(data: RunData) -> list[tuple[np.ndarray, np.ndarray | None, int]]:
    """``(w, visits, games)`` of each run: its checkpoint, or else its last history row."""
    out: list[tuple[np.ndarray, np.ndarray | None, int]] = []
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


def _psq_runs(data: RunData) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and visits of the runs that have both (their checkpoints), or else the
    folder's mean weights and summed visits as one."""
    pairs = [(w, v) for w, v, _ in _run_vectors(data) if v is not None]
    if pairs:
        return [w for w, _ in pairs], [v for _, v in pairs]
    if data.weights is not None:
        return [data.weights], [data.visits if data.visits is not None else np.ones((6, 64))]
    return [], []


def finals(data: RunData) -> Finals:
    """The final values of the runs, normalised, or raw with the reason where the
    reference piece's mean is near 0 or of the wrong sign."""
    piece, target = data.normalisation
    vecs = _run_vectors(data)
    keys = value_keys(data)
    raw = np.array([[w[_index(k)] for k in keys] for w, _, _ in vecs])
    raw_mean, raw_std = raw.mean(axis=0), raw.std(axis=0)
    m, sd, s = mean_then_normalise(raw, keys.index(piece), target)
    why = problem(float(raw_mean[keys.index(piece)]), target, piece,
                   float(typical_size(raw_mean)))
    ok = why is None
    label = "learnt material weights" if data.psq else "learnt"
    series = [Series(label if ok else f"{label} (raw)",
                     dict(zip(keys, map(float, m if ok else raw_mean))),
                     dict(zip(keys, map(float, sd if ok else raw_std))), "learnt", ok)]
    psq_scale, psq_why = math.nan, None
    ws, vs = _psq_runs(data) if data.psq else ([], [])
    if ws:
        pm, psd, psq_scale, psq_why = psq_mean_then_normalise(ws, vs, piece, target,
                                                              data.board_pieces)
        scale = 1.0 if psq_why else psq_scale
        if psq_why:                     # the raw averages instead
            pm = psq_average(np.mean(ws, axis=0), np.sum(vs, axis=0))
            per = [psq_average(w, v) for w, v in zip(ws, vs)]
            psd = {p: float(np.std([r[p] for r in per])) for p in PIECES}
        mean2 = {p: pm[p] for p in data.board_pieces}
        std2 = {p: psd[p] for p in data.board_pieces}
        for k in keys:
            if k.endswith("@hand"):     # tables are for the board: hand weights, same scale
                hv = np.array([w[_index(k)] for w in ws])
                mean2[k], std2[k] = float(hv.mean() * scale), float(hv.std() * scale)
        label = "table average" + (" (hand: weight)" if data.has_hand else "")
        series.append(Series(label if not psq_why else f"{label} (raw)", mean2, std2, "psq",
                             psq_why is None))
    return Finals(series, dict(zip(keys, map(float, raw_mean))),
                  dict(zip(keys, map(float, raw_std))), [g for _, _, g in vecs],
                  (piece, target), float(s), float(psq_scale), why, psq_why)


@dataclass
class Boards:
    """Normalised material + table entry per square for each piece (a1 = 0 ... h8 = 63)."""

    values: dict[str, np.ndarray]
    scale: float                    # factor applied to the raw weights
    normalised: bool                # False when the reference average gave no factor
    visits: np.ndarray | None       # (6, 64)
    problem: str | None = None      # why not normalised


def boards(data: RunData) -> Boards | None:
    """The heatmap values of a psq run (None for material runs or without weights): the
    mean weights over runs, scaled as the table averages of :func:`finals`."""
    if not data.psq:
        return None
    ws, vs = _psq_runs(data)
    if not ws:
        return None
    piece, target = data.normalisation
    _, _, s, why = psq_mean_then_normalise(ws, vs, piece, target, data.board_pieces)
    normalised = why is None
    if not normalised:
        s = 1.0
    w = np.mean(ws, axis=0)
    return Boards({p: board_values(w, p) * s for p in PIECES}, s, normalised,
                  np.sum(vs, axis=0), why)


def outcome_counts(data: RunData) -> dict[str, float]:
    """White wins, draws, Black wins and the mean game length over all games played."""
    res = np.concatenate([h.results for h in data.histories])
    plies = np.concatenate([h.plies for h in data.histories])
    res = res[~np.isnan(res)]
    return {"games": int(res.size), "white": int(np.sum(res == 1.0)),
            "draws": int(np.sum(res == 0.5)), "black": int(np.sum(res == 0.0)),
            "plies": float(np.nanmean(plies)) if plies.size else math.nan}
