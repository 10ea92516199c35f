"""The report's normalisation of learnt values: one place for learning and the figures.

Raw TDLeaf weights have no fixed scale (the search only compares sums of them), so a
value shown to a person is the mean over runs of the raw weights, times the factor that
gives the variant's reference piece the report's value (:data:`REPORT_NORMALISATION`,
:data:`CONVENTION`). A standard deviation over runs is scaled by the factor's size.

A factor is used only when it is positive: the reference mean must have its target's
sign (a negative factor flips the sign of every value, so the numbers would describe the
opposite evaluation; in suicide every weight starts at +1 and the rook's turns negative
only after some games) and must not be near 0 beside the other values (the ratios would
blow up). Otherwise the values are left raw, and :func:`problem` says why.

NumPy only, no numba and nothing of the engine: :mod:`plots` imports it too. The
per-variant rule is the variant description's (:attr:`variants.spec.Variant.normalise`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from . import spec
from .errors import UnknownVariantError

PIECES = "PNBRQK"
PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
#: Variants where the side that loses everything wins: pieces are worth less than
#: nothing and the king, which can be captured, has a learnt value (from the spec).
LOSING_VARIANTS: tuple[str, ...] = spec.with_flag("losing")
#: The report's normalisation of each variant: (piece, value) (from the spec).
REPORT_NORMALISATION: dict[str, tuple[str, float]] = {
    name: v.normalise for name, v in spec.SPECS.items()}
#: How every normalised value of several runs is made (summary.json, the terminal, the
#: figures, report.md): the report averages the runs' results, then normalises ("Each
#: experiment consisted of multiple runs, whose results were averaged at the end").
CONVENTION = "mean-then-normalise"
#: A reference mean below this fraction of the typical size of the values (their median
#: magnitude) is too near 0 to divide by.
NEAR_ZERO = 0.05


def reference(variant: str) -> tuple[str, float]:
    """``(piece, value)`` of the report's normalisation of ``variant`` (else pawn = 1)."""
    try:
        return spec.get(variant).normalise
    except UnknownVariantError:
        return ("P", 1.0)


def _losing(variant: str) -> bool:
    try:
        return spec.get(variant).losing
    except UnknownVariantError:
        return False


def pawn_target(variant: str) -> float:
    """The pawn's value in the report's Table 9.1 view: -1 in the losing variants, else 1."""
    return -1.0 if _losing(variant) else 1.0


def learnt_pieces(variant: str) -> str:
    """The pieces whose material value is learnt: those with tables
    (:func:`table_pieces`), the king only where it can be lost."""
    kinds = table_pieces(variant)
    return kinds if _losing(variant) else kinds.replace("K", "")


def table_pieces(variant: str) -> str:
    """The pieces that have piece-square tables to show: all six but those the variant's
    games never have (racing kings' pawn)."""
    try:
        absent = spec.get(variant).absent
    except UnknownVariantError:
        absent = ""
    return "".join(p for p in PIECES if p not in absent)


def convention_text(piece: str, target: float, runs: int, *, names: bool = False) -> str:
    """``mean of 2 runs, then normalised so that N = 2.5`` (``names``: ``the knight``)."""
    what = f"mean of {runs} runs" if runs != 1 else "1 run"
    who = f"the {PIECE_NAMES[piece]}" if names else piece
    return f"{what}, then normalised so that {who} = {target:g}"


def scale_factor(ref_mean: np.ndarray | float, target: float, typical: np.ndarray | float,
                 near_zero: float = NEAR_ZERO) -> np.ndarray | float:
    """``target / ref_mean`` where that factor is positive and the reference is not near
    0 (below ``near_zero`` times ``typical``, the values' median magnitude); NaN
    elsewhere. Elementwise over arrays (curves: one factor per game)."""
    ref = np.asarray(ref_mean, dtype=float)
    floor = np.maximum(1e-12, near_zero * np.nan_to_num(np.asarray(typical, dtype=float)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = (np.abs(ref) > floor) & (np.sign(ref) == np.sign(target))
        out = np.where(ok, target / ref, np.nan)
    return out if out.ndim else float(out)


def problem(ref_mean: float, target: float, piece: str, typical: float,
            near_zero: float = NEAR_ZERO, what: str = "mean") -> str | None:
    """Why :func:`scale_factor` refuses to normalise (None when it does not), e.g.
    ``not normalised so that the rook = -5: the mean rook weight is +0.86, ...``."""
    if not math.isnan(scale_factor(ref_mean, target, typical, near_zero)):
        return None
    name = PIECE_NAMES[piece]
    head = f"not normalised so that the {name} = {target:g}: the {what} {name} weight is"
    if math.isnan(ref_mean):
        return f"{head} unknown"
    if abs(ref_mean) <= max(1e-12, near_zero * typical):
        return (f"{head} {ref_mean:+.3g}, too near 0 to divide by (under "
                f"{near_zero:.0%} of the typical weight, {typical:.3g})")
    sign = "negative" if target < 0 else "positive"
    return (f"{head} {ref_mean:+.3g}, not {sign}; a negative factor would flip the sign of "
            f"every value (too few games to settle?)")


def typical_size(values: np.ndarray) -> np.ndarray | float:
    """The median magnitude along the last axis (NaN ignored): how big the values are."""
    with warnings.catch_warnings():         # all-NaN rows: no typical size
        warnings.simplefilter("ignore", RuntimeWarning)
        out = np.nanmedian(np.abs(np.asarray(values, dtype=float)), axis=-1)
    return out if np.ndim(out) else float(out)


def mean_then_normalise(raw: np.ndarray, ref: int, target: float,
                        near_zero: float = NEAR_ZERO, typical_of: Sequence[int] | None = None,
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray | float]:
    """The normalisation of several runs (:data:`CONVENTION`).

    ``raw[run, ..., k]``: the raw values of each run (NaN where a run has none, e.g. a
    game it has not reached). The mean over runs is scaled so that its column ``ref`` is
    ``target``; the standard deviation over runs of the raw values is scaled by the same
    factor (positive: see :func:`scale_factor`). Returns ``(mean, std, scale)``; for
    ``raw`` of shape (runs, G, k) (curves) each of the G rows has its own scale. Where a
    row cannot be normalised its scale and values are NaN. ``typical_of``: the columns
    whose sizes decide "near 0" (default all; leave out constants such as chess's king).
    """
    raw = np.asarray(raw, dtype=float)
    with warnings.catch_warnings():         # rows no run has reached: mean of nothing
        warnings.simplefilter("ignore", RuntimeWarning)
        mean, std = np.nanmean(raw, axis=0), np.nanstd(raw, axis=0)
    cols = mean if typical_of is None else mean[..., list(typical_of)]
    scale = scale_factor(mean[..., ref], target, typical_size(cols), near_zero)
    s = np.asarray(scale)[..., None] if np.ndim(scale) else scale
    mean = mean * s
    mean[..., ref] = np.where(np.isnan(scale), np.nan, target)    # exactly, not nearly
    return mean, std * np.abs(s), scale


def normalise_averages(mean: dict[str, float], per_run: Sequence[dict[str, float]], piece: str,
                       target: float, typical_of: Sequence[str],
                       ) -> tuple[dict[str, float], dict[str, float], float, str | None]:
    """Piece-square table averages (:data:`CONVENTION`): ``mean``, the averages of the
    mean weights with the visits summed over runs, scaled so that ``piece``'s is
    ``target``; the standard deviation of each run's own averages (``per_run``), times
    the factor's size. ``typical_of``: the pieces whose sizes decide "near 0" (the learnt
    ones). Returns ``(mean, std, scale, problem)``; empty dicts, NaN and why not when
    the averages cannot be normalised."""
    typical = float(typical_size(np.array([mean[k] for k in typical_of])))
    s = float(scale_factor(mean[piece], target, typical))
    if math.isnan(s):
        return {}, {}, s, problem(mean[piece], target, piece, typical, what="average")
    return ({k: target if k == piece else v * s for k, v in mean.items()},
            {k: float(np.std([r[k] for r in per_run])) * abs(s) for k in mean}, s, None)
