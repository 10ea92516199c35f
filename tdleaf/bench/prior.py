"""``tdleaf bench prior``: how good the heuristic prior is, and how fast MCTS runs on it.

On the labelled positions of ``search/data/prior_<variant>.epd`` (engine games, not
self-play; the label is Fairy-Stockfish's move at a fixed depth, see
:mod:`tdleaf.play.labels`), for each variant and prior depth:

* the temperature T and the win's logit W fitted together by maximum likelihood of the
  label moves (:func:`fit_prior`: a win the prior's search sees and the label engine
  did not play puts the label about W logits down, and with W = 100 a few such
  positions set T alone), and the ones stored for the weights (``prior.json`` or the
  weights' ``meta.prior_temperature`` and ``meta.prior_win_logit``);
* top-1 and top-3 agreement with the label move, counting ties by their expected value
  under a uniformly random order (a material evaluation ties many quiet moves), and the
  mean log-likelihood of the label move;
* the same for a uniform policy and for a raw capture/check heuristic (logits ``a
  capture + b check`` with a and b fitted by maximum likelihood on the same positions,
  so it is given its best chance);
* value calibration: the value as an expected score ``(v + 1) / 2`` for the side to
  move against the game's result, binned, with the Brier score and the sign accuracy
  (CrazyAra's "value accuracy sign": drawn games and v = 0 left out), for the squash and
  for CrazyAra's conversion;
* MCTS playouts per second with the heuristic prior, from a few positions per variant.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from search.layout import Weights, save_meta
from search.mcts.prior import HeuristicPrior, save_temperature
from variants import board_class, canonical_variant
from variants.spec import rules_family

from ..net.prior_quality import measure
from ..play.labels import VARIANTS, data_path, read_labelled
from .common import load_average, machine

MCTS_PLAYOUTS = 3000


def mcts_speed(variant: str, playouts: int = MCTS_PLAYOUTS) -> dict[str, Any]:
    """MCTS playouts per second with the heuristic prior (depth 0), from the start
    position and two positions of the labelled set (fresh tree each)."""
    from search.mcts.driver import MCTS

    rows = read_labelled(data_path(variant))
    fens = [board_class(variant)().fen()] + [rows[len(rows) // 3].fen, rows[2 * len(rows) // 3].fen]
    done, seconds = 0, 0.0
    per = []
    for fen in fens:
        m = MCTS(variant)
        r = m.search(fen, playouts=playouts)
        done += r.playouts
        seconds += r.time
        per.append({"fen": fen, "playouts": r.playouts, "seconds": r.time, "nps": r.nps,
                    "tree": m.tree_size})
    return {"variant": variant, "playouts": done, "seconds": seconds,
            "playouts_per_second": done / seconds if seconds else None, "positions": per}


def bench_prior(variants: list[str] | None, depths: list[int], fit: bool = False,
                save: bool = False, mcts: bool = True, progress: bool = False,
                weights: str | None = None,
                save_path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The whole report. ``weights``: a value set, a reference set, a ``weights.json`` or
    a result folder (default: each variant's default weights). With ``save`` the fitted
    temperatures are stored, never in the installed package: a value set's in
    ``prior.json`` at ``save_path`` (default: the per-user data folder's), a weights
    file's in its ``meta.prior_temperature``, and shipped learnt weights' in a copy of
    their ``weights.json`` in the per-user data folder (read before the shipped one).
    ``report["saved"]`` lists the files written."""
    import sys

    from search.layout import load_weights

    names = [canonical_variant(v) for v in (variants or VARIANTS)]
    names = [rules_family(v) for v in names]     # antichess: giveaway's data
    HeuristicPrior("chess").arrays(np.zeros((0, 12), np.uint64), np.zeros((0, 82), np.int64))
    report: dict[str, Any] = {"machine": machine(), "load_average": load_average(),
                              "weights": weights, "results": [], "mcts": [], "warnings": [],
                              "saved": []}
    for v in names:
        if not data_path(v).exists():
            report["warnings"].append(f"{v}: no {data_path(v)}; run tests/data/make_prior_epd.py")
            continue
        w = load_weights(weights, v) if weights is not None else None
        for d in depths:
            if progress:
                print(f"{v} depth {d} ...", file=sys.stderr, flush=True)
            r = measure(v, d, w, use_mle=fit or save)
            if save:
                written = _save(v, d, r, HeuristicPrior(v, w, d, 1.0).weights, save_path)
                if written is None:
                    report["warnings"].append(f"{v}: weights of no file nor value set; not saved")
                else:
                    r["temperature_stored"] = round(r["temperature_mle"], 4)
                    r["win_logit_stored"] = round(r["win_logit_mle"], 4)
                    if str(written) not in report["saved"]:
                        report["saved"].append(str(written))
            report["results"].append(r)
        if mcts:
            if progress:
                print(f"{v} mcts ...", file=sys.stderr, flush=True)
            report["mcts"].append(mcts_speed(v))
    return report


def _save(variant: str, depth: int, r: dict[str, Any], w: Weights,
          save_path: str | os.PathLike[str] | None) -> Path | None:
    """Store a fitted temperature and win logit (see :func:`bench_prior`); the file
    written, or None."""
    name = w.meta.get("value_set")
    if name is not None:
        return save_temperature(variant, name, depth, r["temperature_mle"],
                                {"positions": r["positions"], "label": r["label"],
                                 "loglik": round(r["prior"]["loglik"], 4)}, path=save_path,
                                win_logit=r["win_logit_mle"])
    temperatures = {**w.meta.get("prior_temperature", {}),
                    str(depth): round(r["temperature_mle"], 4)}
    wins = {**w.meta.get("prior_win_logit", {}), str(depth): round(r["win_logit_mle"], 4)}
    return save_meta(w, {"prior_temperature": temperatures, "prior_win_logit": wins})


def format_report(report: dict[str, Any]) -> str:
    lines = [("Policy: agreement with the label engine's move (top-1, top-3; ties counted by "
             "their expected value) and mean log-likelihood of that move."), "",
             ("| variant | depth | positions | moves | T fitted | W fitted | T used | W used | "
              "prior top-1 | top-3 | log-lik | uniform top-1 | top-3 | log-lik | "
              "capture/check top-1 | top-3 | log-lik |"),
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in report["results"]:
        p, u, c = r["prior"], r["uniform"], r["capture_check"]
        lines.append(
            f"| {r['variant']} | {r['depth']} | {r['positions']} | {r['mean_legal_moves']:.1f} | "
            f"{r['temperature_mle']:.3g} | {r['win_logit_mle']:.3g} | {r['temperature_used']:.3g} | "
            f"{r['win_logit_used']:.3g} | {p['top1']:.1%} | "
            f"{p['top3']:.1%} | {p['loglik']:.3f} | {u['top1']:.1%} | {u['top3']:.1%} | "
            f"{u['loglik']:.3f} | {c['top1']:.1%} | {c['top3']:.1%} | {c['loglik']:.3f} |")
    lines += ["", ("T: the softmax temperature; W: the win's logit (a win's score, pawns, in the "
                   "softmax; 100 is the unbounded one of a temperature fitted alone).")]
    lines += ["", "Value: expected score (v + 1) / 2 of the side to move against the game's result.",
              "", "| variant | depth | value | Brier | sign accuracy | bins: expected -> actual (n) |",
              "|---|---|---|---|---|---|"]
    omegas = ", ".join(f"{r['variant']} {r['omega_mle']:.2f}" for r in report["results"] if r["depth"] == 0)
    for r in report["results"]:
        for mode, cal in list(r["value"].items()) + [("label engine (squash)", r["label_engine_value"])]:
            if mode.startswith("label") and r["depth"] != min(x["depth"] for x in report["results"]):
                continue
            bins = ", ".join(f"{b['expected']:.2f} -> {b['actual']:.2f} ({b['n']})" for b in cal["bins"])
            sign = "-" if cal["sign_accuracy"] is None else f"{cal['sign_accuracy']:.1%} ({cal['sign_n']})"
            lines.append(f"| {r['variant']} | {r['depth']} | {mode} | {cal['brier']:.3f} | {sign} | {bins} |")
    lines += ["", f"Maximum-likelihood omega of the squash for the results (depth 0): {omegas}."]
    if report["mcts"]:
        lines += ["", "| variant | MCTS playouts | seconds | playouts/s |", "|---|---|---|---|"]
        for m in report["mcts"]:
            lines.append(f"| {m['variant']} | {m['playouts']} | {m['seconds']:.2f} | "
                         f"{m['playouts_per_second']:.0f} |")
    for w in report.get("warnings", []):
        lines.append(f"warning: {w}")
    return "\n".join(lines)
