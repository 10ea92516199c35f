"""``tdleaf bench margins``: the selective search's margins refitted to an evaluation.

The futility, reverse-futility and razoring margins and the aspiration window of a
variant (``variants/spec.py``) are bets on how far its evaluation moves: that no quiet
move lifts the static evaluation by more than the futility margin a ply of depth, that a
shallow search falls no further below it (reverse futility, the same margin) and rises
no further above it than the razoring margin a ply, and that one more iteration moves
the root's score by less than the window. The techniques were measured to help
(BENCHMARKS.md, the ablation) with the variant's shipped tables, ``learnt-psq``. An
evaluation that swings further or less makes the same margins other bets: this
benchmark refits them.

On the variant's labelled positions (``search/data/prior_<variant>.epd``: engine games),
those not in check, each evaluation gives, from the side to move's view:

* the quiet gain: the largest rise of the static evaluation over the quiet moves (no
  capture, promotion or check), futility's bet at depths 1-2;
* the search gap: the plain alpha-beta value at depth d (quiescence included) less the
  static evaluation, razoring's bet above it (depths 1-2) and reverse futility's below
  it (depths 1-3);
* the iteration change: the value at depth d less the value at depth d - 1 (d = 2-4),
  the aspiration window's bet (plain search, no window).

A bet fails on a position when the quantity passes the margin times the depth (the
window: the margin). A margin's failure rate pools its bets over their depths. The
refitted margin fails as often with the measured evaluation as the spec's margin does
with the reference (always the spec's: a refit the weights already carry is shown, not
refitted again). A rate under 5 failures in the sample is raised to 5, and the margin
is then scaled by the ratio of the two evaluations' margins at that rate. Positions whose
searches see a mate or a won game are left out. The interval is the 2.5-97.5 percentiles
of the refit over bootstrap resamples of the positions. ``--save`` stores the refits of
the techniques the variant uses in the weights' ``meta.search_margins``, which the engine
plays from then on (a shipped set's in the user's copy, never in the package).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from variants import canonical_variant
from variants.spec import RULE_FAMILIES
from variants.spec import get as spec

#: The reference evaluation: what the selective techniques were measured with.
REFERENCE = "learnt-psq"
#: Plain-search depths: the search gap at 1-3, the iteration change up to the last.
DEPTHS = (1, 2, 3, 4)
#: The fewest failures a rate is estimated from.
MIN_FAILURES = 5
#: Bootstrap resamples of the positions for a refit's interval.
BOOTSTRAP = 200
HASH_MB = 16


@dataclass(frozen=True)
class Bet:
    """One use of a margin: ``statistic`` x ``sign`` must stay under margin x ``scale``."""

    statistic: str
    depth: int          # index into the statistic's columns
    sign: float
    scale: float


#: Each margin (a :class:`variants.spec.Variant` field), the technique it serves and its
#: bets. ``gain`` has one column, used at depths 1 and 2; ``gap`` one column per depth
#: 1-3; ``change`` one per depth 2-4.
MARGINS: dict[str, tuple[tuple[str, ...], tuple[Bet, ...]]] = {
    "futility_margin": (("futility", "reverse-futility"),
                        (Bet("gain", 0, 1.0, 1.0), Bet("gain", 0, 1.0, 2.0),
                         Bet("gap", 0, -1.0, 1.0), Bet("gap", 1, -1.0, 2.0),
                         Bet("gap", 2, -1.0, 3.0))),
    "razor_margin": (("razor",), (Bet("gap", 0, 1.0, 1.0), Bet("gap", 1, 1.0, 2.0))),
    "aspiration": (("aspiration",), tuple(Bet("change", i, s, 1.0)
                                          for i in range(len(DEPTHS) - 1)
                                          for s in (1.0, -1.0))),
}


def default_variants() -> list[str]:
    """The variants that ship the reference evaluation and play another by default."""
    from search import shipped
    from search.layout import default_weights_name

    kind = REFERENCE.removeprefix("learnt-")
    return [v for v in RULE_FAMILIES if shipped.reference_set(v, kind) is not None
            and default_weights_name(v) != REFERENCE]


def swings(variant: str, weights: Any, fens: list[str],
           progress: str | None = None) -> dict[str, np.ndarray]:
    """The three statistics (see the module's docstring) of ``weights`` on ``fens``:
    ``gain`` (n, 1), ``gap`` (n, 3), ``change`` (n, 3), in pawns for the side to move;
    NaN rows for positions left out."""
    from search import Engine
    from search.alphabeta.negamax import MATE_BOUND
    from variants import movegen
    from variants.position import Position

    engine = Engine(variant, weights, hash_mb=HASH_MB, search="plain")
    n = len(fens)
    out = {"gain": np.full((n, 1), np.nan), "gap": np.full((n, 3), np.nan),
           "change": np.full((n, len(DEPTHS) - 1), np.nan)}

    def static(p: Position) -> float:
        e = engine.static_eval(p)
        return e if p.turn else -e

    for i, fen in enumerate(fens):
        if progress:
            print(f"\r{progress}: {i + 1}/{n}", end="", file=sys.stderr, flush=True)
        p = Position.from_fen(fen, variant)
        if p.is_check() or p.is_game_over():
            continue
        s = static(p)
        gain = -np.inf
        for m in p.legal_move_codes():
            if movegen.is_tactical(p.st, m):
                continue
            p.push(int(m))
            if not p.is_check() and not p.is_game_over():
                gain = max(gain, -static(p) - s)
            p.pop()
        values = []
        for d in DEPTHS:
            engine.new_game()
            values.append(engine.search(fen, depth=d).score)
        if max(abs(v) for v in values) > MATE_BOUND or abs(s) > MATE_BOUND:
            continue
        v = np.array(values)
        out["gain"][i, 0] = gain if np.isfinite(gain) else np.nan
        out["gap"][i] = v[:3] - s
        out["change"][i] = np.diff(v)
    if progress:
        print(file=sys.stderr)
    return out


def _excess(stats: dict[str, np.ndarray], bets: tuple[Bet, ...]) -> np.ndarray:
    """Every trial of a margin's bets as the margin it needs (``sign x / scale``): a
    bet fails where this exceeds the margin."""
    parts = [b.sign * stats[b.statistic][:, b.depth] / b.scale for b in bets]
    x = np.concatenate(parts)
    return x[np.isfinite(x)]


def failure_rate(stats: dict[str, np.ndarray], bets: tuple[Bet, ...], margin: float) -> float:
    """The fraction of a margin's bets that fail on these positions."""
    x = _excess(stats, bets)
    return float(np.count_nonzero(x > margin)) / x.size if x.size else float("nan")


def margin_at(stats: dict[str, np.ndarray], bets: tuple[Bet, ...], rate: float) -> float:
    """The smallest margin whose failure rate is at most ``rate``: the (k+1)-th largest
    need, where k failures are allowed (never below 0)."""
    x = np.sort(_excess(stats, bets))[::-1]
    k = int(np.floor(rate * x.size + 1e-9))
    return max(float(x[k]), 0.0) if k < x.size else 0.0


def _fit(ref: dict[str, np.ndarray], new: dict[str, np.ndarray], bets: tuple[Bet, ...],
         margin: float) -> tuple[float, float]:
    """(refitted margin, ratio of the two evaluations' margins at the common rate)."""
    rate = max(failure_rate(ref, bets, margin), MIN_FAILURES / max(_excess(ref, bets).size, 1))
    at_ref, at_new = margin_at(ref, bets, rate), margin_at(new, bets, rate)
    if not at_ref > 0:
        return at_new, float("nan")
    return margin * at_new / at_ref, at_new / at_ref


def refit(ref: dict[str, np.ndarray], new: dict[str, np.ndarray], bets: tuple[Bet, ...],
          margin: float, resamples: int = BOOTSTRAP, seed: int = 1) -> dict[str, Any]:
    """A margin refitted from the reference's statistics to the new ones (both measured
    on the same positions), with a 95% bootstrap interval over the positions."""
    fitted, ratio = _fit(ref, new, bets, margin)
    rng = np.random.default_rng(seed)
    n = next(iter(ref.values())).shape[0]
    boot = []
    for _ in range(resamples):
        i = rng.integers(0, n, n)
        boot.append(_fit({k: x[i] for k, x in ref.items()}, {k: x[i] for k, x in new.items()},
                         bets, margin)[0])
    lo, hi = np.percentile(boot, (2.5, 97.5)) if boot else (np.nan, np.nan)
    return {"spec": margin, "rate_reference": failure_rate(ref, bets, margin),
            "rate_measured": failure_rate(new, bets, margin), "ratio": ratio,
            "refit": _round(fitted), "interval": [_round(lo), _round(hi)]}


def _round(x: float) -> float:
    """Margins to 0.05 pawns."""
    return round(round(float(x) / 0.05) * 0.05, 2) if np.isfinite(x) else float(x)


def _quantiles(x: np.ndarray) -> list[float]:
    x = np.abs(x[np.isfinite(x)])
    return [float(q) for q in np.percentile(x, (50, 90, 99))] if x.size else []


def bench_margins(variants: list[str], weights: str | None = None,
                  reference: str = REFERENCE, n_positions: int | None = None,
                  progress: bool = False, save: bool = False) -> dict[str, Any]:
    """Run the benchmark (see the module's docstring); the JSON-ready report.
    ``weights`` (default: each variant's default evaluation) is measured against
    ``reference``. With ``save``, the refitted margins of the techniques the variant uses
    go into the weights' ``meta`` (:func:`search.layout.save_meta`), which the engine
    then plays (:func:`search.alphabeta.engine.search_margins`)."""
    from search.alphabeta.engine import MARGINS_META, search_margins
    from search.layout import load_weights, save_meta, weights_or_default
    from tdleaf.play.labels import data_path, read_labelled

    rows = []
    t0 = time.perf_counter()
    for variant in (canonical_variant(v) for v in variants):
        fens = [r.fen for r in read_labelled(data_path(variant))][:n_positions]
        new_w = weights_or_default(weights, variant)
        ref_w = load_weights(reference, variant)
        name = weights or f"the default ({new_w.layout.name})"
        ref = swings(variant, ref_w, fens, f"{variant} {reference}" if progress else None)
        new = swings(variant, new_w, fens, f"{variant} {name}" if progress else None)
        both = np.isfinite(ref["gap"][:, 0]) & np.isfinite(new["gap"][:, 0])
        for stats in (ref, new):       # the same positions for both
            for x in stats.values():
                x[~both] = np.nan
        used = int(both.sum())
        v = spec(variant)
        plays = search_margins(variant, new_w)
        margins = {}
        for field, (techniques, bets) in MARGINS.items():
            on = [t for t in techniques if t not in v.selective_off]
            margin = float(getattr(v, field))
            r: dict[str, Any] = refit(ref, new, bets, margin) if margin > 0 else {"spec": margin}
            r["techniques"] = on
            r["plays"] = plays[field]
            margins[field] = r
        saved = None
        if save:
            fitted = {f: m["refit"] for f, m in margins.items() if m["techniques"] and "refit" in m}
            saved = save_meta(new_w, {MARGINS_META: fitted})
            if saved is None:
                raise ValueError(f"{name}: not a weights file; nowhere to save its margins")
        rows.append({"variant": variant, "reference": reference, "weights": str(name),
                     "positions": len(fens), "used": used, "margins": margins,
                     "saved": None if saved is None else str(saved),
                     "quantiles": {k: {"reference": _quantiles(ref[k]),
                                       "measured": _quantiles(new[k])} for k in ref}})
    return {"benchmark": "margins", "depths": list(DEPTHS), "rows": rows,
            "seconds": time.perf_counter() - t0}


def format_report(report: dict[str, Any]) -> str:
    """The report as tables: the statistics' |quantiles|, then each margin's refit."""
    lines = []
    for r in report["rows"]:
        lines.append(f"{r['variant']}: {r['weights']} against {r['reference']}, "
                     f"{r['used']} of {r['positions']} positions")
        lines.append(f"  {'|statistic| p50/p90/p99':<28}{'reference':>20}{'measured':>20}")
        for k, q in r["quantiles"].items():
            cells = ["/".join(f"{x:.2f}" for x in q[s]) for s in ("reference", "measured")]
            lines.append(f"  {k:<28}{cells[0]:>20}{cells[1]:>20}")
        lines.append(f"  {'margin':<18}{'spec':>6}{'plays':>7}{'fails ref':>11}{'fails new':>11}"
                     f"{'ratio':>7}{'refit':>7}  {'95% interval':<14}used by")
        for field, m in r["margins"].items():
            used_by = ", ".join(m["techniques"]) or "(no technique on here)"
            head = f"  {field:<18}{m['spec']:>6.2f}{m['plays']:>7.2f}"
            if m["spec"] <= 0:
                lines.append(f"{head}{'':>52}(no pruning here)")
                continue
            lines.append(f"{head}{m['rate_reference']:>10.1%}"
                         f"{m['rate_measured']:>11.1%}{m['ratio']:>7.2f}{m['refit']:>7.2f}"
                         f"  [{m['interval'][0]:.2f}, {m['interval'][1]:.2f}]  {used_by}")
        if r.get("saved"):
            lines.append(f"  saved the refitted margins in use to {r['saved']}")
    if not report["rows"]:
        lines.append("(no variant's default differs from its reference evaluation)")
    return "\n".join(lines)
