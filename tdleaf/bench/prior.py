"""``tdleaf bench prior``: how good the heuristic prior is, and how fast MCTS runs on it.

On the labelled positions of ``search/data/prior_<variant>.epd`` (engine games, not
self-play; the label is Fairy-Stockfish's move at a fixed depth, see
:mod:`tdleaf.bench.prior_data`), for each variant and prior depth:

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

import itertools
import math
import os
import time
from pathlib import Path
from typing import Any

import chess
import numpy as np
from scipy.optimize import minimize, minimize_scalar

from search.layout import Weights, save_meta
from search.prior import (
    DEFAULT_OMEGA,
    MIN_WIN_LOGIT,
    WIN_LOGIT,
    HeuristicPrior,
    fitted_temperature,
    fitted_win_logit,
    logits_of,
    save_temperature,
    score_value,
)
from variants import board_class, canonical_variant
from variants.position import move_to_uci
from variants.spec import rules_family

from .common import load_average, machine
from .prior_data import VARIANTS, data_path, label_of, read_labelled

BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
MCTS_PLAYOUTS = 3000


def _nll(logits: list[np.ndarray], targets: list[int], t: float) -> float:
    total = 0.0
    for x, j in zip(logits, targets):
        z = x / t
        top = z.max()
        total += math.log(np.exp(z - top).sum()) + top - z[j]
    return total / len(targets)


def fit_temperature(logits: list[np.ndarray], targets: list[int]) -> float:
    """The maximum-likelihood softmax temperature (pawns) of fixed logits."""
    res = minimize_scalar(lambda lt: _nll(logits, targets, math.exp(lt)), bounds=(-5.0, 5.0),
                          method="bounded", options={"xatol": 1e-4})
    return float(math.exp(res.x))


def fit_prior(scores: list[np.ndarray], targets: list[int]) -> tuple[float, float]:
    """The maximum-likelihood temperature and win logit ``(T, W)`` (pawns) of the softmax
    of ``logit_score(score, W) / T``, the label being ``targets``. W = 100 (a win beyond
    any ordinary score) is one candidate: a few wins the search sees and the label engine
    did not play would otherwise set T alone (BENCHMARKS.md)."""
    def nll(t: float, w: float) -> float:
        return _nll([logits_of(x, w) for x in scores], targets, t)

    plain = fit_temperature([logits_of(x, WIN_LOGIT) for x in scores], targets)
    best = (nll(plain, WIN_LOGIT), plain, WIN_LOGIT)
    lo, hi = math.log(MIN_WIN_LOGIT), math.log(WIN_LOGIT)
    for w0 in (5.0, 20.0):
        res = minimize(lambda p: nll(math.exp(p[0]), math.exp(p[1])),
                       [math.log(plain), math.log(w0)], method="Nelder-Mead",
                       bounds=[(-5.0, 5.0), (lo, hi)],
                       options={"xatol": 1e-3, "fatol": 1e-6})
        if res.fun < best[0]:
            best = (float(res.fun), math.exp(res.x[0]), math.exp(res.x[1]))
    return best[1], best[2]


def _agreement(keys: np.ndarray, j: int, k: int) -> float:
    """P(target j among the k best by ``keys``), ties in a uniformly random order."""
    above = int((keys > keys[j]).sum())
    equal = int((keys == keys[j]).sum())
    return float(min(1.0, max(0.0, (k - above) / equal)))


def _policy_metrics(keys: list[np.ndarray], logps: list[float], targets: list[int]) -> dict[str, float]:
    n = len(targets)
    return {"top1": sum(_agreement(x, j, 1) for x, j in zip(keys, targets)) / n,
            "top3": sum(_agreement(x, j, 3) for x, j in zip(keys, targets)) / n,
            "loglik": float(np.mean(logps))}


def _features(variant: str, fen: str, moves: list[str]) -> np.ndarray:
    board = board_class(variant)(fen)
    out = np.zeros((len(moves), 2))
    for i, u in enumerate(moves):
        m = chess.Move.from_uci(u)
        out[i, 0] = float(board.is_capture(m))
        out[i, 1] = float(board.gives_check(m))
    return out


def _fit_capture_check(feats: list[np.ndarray], targets: list[int]) -> np.ndarray:
    def nll(ab: np.ndarray) -> float:
        total = 0.0
        for f, j in zip(feats, targets):
            z = f @ ab
            top = z.max()
            total += math.log(np.exp(z - top).sum()) + top - z[j]
        return total / len(targets)
    return minimize(nll, np.zeros(2), method="Nelder-Mead", options={"xatol": 1e-3, "fatol": 1e-6}).x


def calibration(values: np.ndarray, results: np.ndarray) -> dict[str, Any]:
    """Expected score (v + 1) / 2 against the actual one, in bins, Brier, sign accuracy."""
    e = (values + 1.0) / 2.0
    bins = []
    for lo, hi in itertools.pairwise(BINS):
        mask = (e >= lo) & ((e < hi) if hi < 1.0 else (e <= hi))
        if mask.any():
            bins.append({"lo": lo, "hi": hi, "n": int(mask.sum()), "expected": float(e[mask].mean()),
                         "actual": float(results[mask].mean())})
    decided = (results != 0.5) & (values != 0.0)
    sign = float(((values[decided] > 0) == (results[decided] == 1.0)).mean()) if decided.any() else None
    return {"brier": float(((e - results) ** 2).mean()), "sign_accuracy": sign,
            "sign_n": int(decided.sum()), "bins": bins}


def measure(variant: str, depth: int, weights: Any = None, use_mle: bool = False,
            path: Path | None = None) -> dict[str, Any]:
    """Every measurement of one variant at one prior depth, at the stored temperature and
    win logit (the maximum-likelihood ones with ``use_mle`` or when no temperature is
    stored), on the labelled positions of ``path`` (default: the variant's shipped ones)."""
    path = path or data_path(variant)
    rows = read_labelled(path)
    ev = HeuristicPrior(variant, weights, depth, temperature=1.0)
    t0 = time.perf_counter()
    arr, _ = ev.batch([r.fen for r in rows])
    seconds = time.perf_counter() - t0
    scores, targets, feats, ns, raw_best = [], [], [], [], []
    for i, r in enumerate(rows):
        k = int(arr.n[i])
        moves = [move_to_uci(int(m)) for m in arr.moves[i, :k]]
        if r.bm not in moves:
            raise RuntimeError(f"{variant}: label {r.bm} not among the legal moves of {r.fen}")
        targets.append(moves.index(r.bm))
        scores.append(np.array(arr.scores[i, :k]))
        raw_best.append(float(arr.scores[i, :k].max()))
        feats.append(_features(variant, r.fen, moves))
        ns.append(k)
    t_mle, w_mle = fit_prior(scores, targets)
    stored = fitted_temperature(variant, ev.weights, depth)
    stored_w = fitted_win_logit(variant, ev.weights, depth) if stored is not None else None
    if use_mle or stored is None:
        t_used, w_used = t_mle, w_mle
    else:
        t_used, w_used = stored, WIN_LOGIT if stored_w is None else stored_w
    logits = [logits_of(x, w_used) for x in scores]

    def logp(x: np.ndarray, j: int, t: float) -> float:
        z = x / t
        top = z.max()
        return float(z[j] - top - math.log(np.exp(z - top).sum()))

    prior_m = _policy_metrics(logits, [logp(x, j, t_used) for x, j in zip(logits, targets)], targets)
    uniform_m = {"top1": float(np.mean([1.0 / n for n in ns])),
                 "top3": float(np.mean([min(3, n) / n for n in ns])),
                 "loglik": float(np.mean([-math.log(n) for n in ns]))}
    ab = _fit_capture_check(feats, targets)
    cc_keys = [f @ ab for f in feats]
    cc_m = _policy_metrics(cc_keys, [logp(x, j, 1.0) for x, j in zip(cc_keys, targets)], targets)
    results = np.array([r.result for r in rows])
    best = np.array(raw_best)
    values = {mode: np.array([score_value(s, i, DEFAULT_OMEGA) for s in best])
              for i, mode in enumerate(("squash", "crazyara"))}
    fsf = np.array([(r.score or 0) / 100.0 if r.score is not None and abs(r.score) < 90000
                    else (1000.0 if (r.score or 0) > 0 else -1000.0) for r in rows])
    clipped = np.clip(best, -30.0, 30.0)

    def xent(lw: float) -> float:
        p = np.clip(0.5 * (1.0 + np.tanh(0.5 * math.exp(lw) * clipped)), 1e-12, 1 - 1e-12)
        return float(-(results * np.log(p) + (1 - results) * np.log(1 - p)).mean())

    omega_mle = math.exp(minimize_scalar(xent, bounds=(-6.0, 3.0), method="bounded").x)
    return {
        "variant": variant, "depth": depth, "positions": len(rows), "omega_mle": omega_mle,
        "games": len({r.game for r in rows}),
        "label": label_of(path),
        "mean_legal_moves": float(np.mean(ns)),
        "temperature_mle": t_mle, "temperature_stored": stored, "temperature_used": t_used,
        "win_logit_mle": w_mle, "win_logit_stored": stored_w, "win_logit_used": w_used,
        "prior": prior_m, "uniform": uniform_m,
        "capture_check": {**cc_m, "a_capture": float(ab[0]), "b_check": float(ab[1])},
        "value": {m: calibration(v, results) for m, v in values.items()},
        "label_engine_value": calibration(np.tanh(0.5 * DEFAULT_OMEGA * fsf), results),
        "prior_seconds": seconds, "positions_per_second": len(rows) / seconds if seconds else None,
    }


def mcts_speed(variant: str, playouts: int = MCTS_PLAYOUTS) -> dict[str, Any]:
    """MCTS playouts per second with the heuristic prior (depth 0), from the start
    position and two positions of the labelled set (fresh tree each)."""
    from search.mcts import MCTS

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
