"""The heuristic prior against labelled positions (:mod:`.labels`): its policy's top-1,
top-3 and log-likelihood of the label move beside a uniform policy's and a fitted
capture/check heuristic's, its value's calibration against the games' results, and the
temperature and win logit fitted to the labels by maximum likelihood (what ``tdleaf bench
prior --fit --save`` stores and ``tdleaf net eval`` compares a network with)."""


from __future__ import annotations

import itertools
import math
import time
from pathlib import Path
from typing import Any

import chess
import numpy as np
from scipy.optimize import minimize, minimize_scalar

from search.mcts.prior import (
    DEFAULT_OMEGA,
    MIN_WIN_LOGIT,
    WIN_LOGIT,
    HeuristicPrior,
    fitted_temperature,
    fitted_win_logit,
    logits_of,
    score_value,
)
from variants import board_class
from variants.position import move_to_uci

from ..play.labels import data_path, label_of, read_labelled

BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


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


