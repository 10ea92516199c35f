"""``tdleaf net eval`` and ``tdleaf net compare``: networks against the labels of
positions no network trains on.

On labelled positions (``FEN;bm UCI;result R``, R the result for the side to move; by
default the variant's ``search/data/prior_<variant>.epd``: engine games labelled by
Fairy-Stockfish), the network's policy over the legal moves and its value, beside the
heuristic prior at depths 0 and 1 (the variant's default evaluation, its fitted
temperature), the uniform policy and the network's teacher (the search at the depth
that labelled its data):

- policy: top-1 (the label is the most likely move) and the mean log-likelihood of the
  label move;
- value: the Brier score of ``(v + 1) / 2`` against the result, and the sign accuracy
  (decided games, ``v != 0``).

A network is a training folder (its ``checkpoint.pt``, run by torch), an ONNX file or
``shipped`` (the variant's shipped network, checked against the manifest's sha256).

:func:`compare_nets` is the teacher ablation's measurement: two groups of networks
(one per training seed) on the same positions, and the difference of their mean top-1
and log-likelihood with a paired bootstrap interval over positions and seeds.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import numpy as np

PRIOR_DEPTHS = (0, 1)
#: Bootstrap replicates of :func:`compare_nets`.
REPLICATES = 10_000


class Runner:
    """A network that answers planes ``(B, 47, 8, 8)`` with policy logits and values,
    with its name and its teacher (evaluation, depth) when it says."""

    def __init__(self, spec: str, variant: str) -> None:
        from search.mcts.network import SHIPPED, open_network
        path = Path(spec)
        self.network: Any = None
        self.net: Any = None
        if spec == SHIPPED or path.is_file() or path.suffix == ".onnx":
            self.network = open_network(spec, variant, threads=2)
            meta = self.network.metadata
            self.name = f"{spec} ({self.network.path.name})" if spec == SHIPPED else path.name
            self.teacher = (meta.get("teacher", "default"), int(meta.get("depth", 0)))
            return
        from tdleaf.net.train import load_checkpoint, torch_module
        self.torch = torch_module()
        self.net, info = load_checkpoint(path, variant)
        self.name = path.name
        self.teacher = (info["teacher"], int(info["depth"]))

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.network is not None:
            return self.network(planes)
        with self.torch.inference_mode():
            logits, values = self.net(self.torch.from_numpy(planes))
        return logits.numpy(), values.numpy().reshape(-1)


def score_rows(runner: Runner, rows: list[Any], variant: str) -> dict[str, np.ndarray]:
    """Per position: whether the network's most likely move is the label (``hit``), the
    label's log-probability (``loglik``) and the network's value (``value``)."""
    from search.mcts import encoding as enc
    from variants import Position

    hit, loglik, values = [], [], []
    for k in range(0, len(rows), 64):
        chunk = rows[k:k + 64]
        pos = [Position.from_fen(r.fen, variant) for r in chunk]
        logits, v = runner(np.stack([enc.planes(p) for p in pos]))
        for i, (p, r) in enumerate(zip(pos, chunk)):
            moves, idx = enc.legal_indices(p)
            z = logits[i, idx].astype(np.float64)
            logp = z - z.max() - math.log(np.exp(z - z.max()).sum())
            j = moves.index(r.bm)
            hit.append(bool(np.argmax(z) == j))
            loglik.append(float(logp[j]))
        values.append(v.reshape(-1))
    return {"hit": np.array(hit), "loglik": np.array(loglik),
            "value": np.concatenate(values).astype(np.float64)}


def evaluate_net(spec: str, variant: str, positions: str | None = None,
                 teacher: bool = True) -> dict[str, Any]:
    """The network ``spec`` on the labelled positions (default: the variant's), beside
    the prior at depths 0 and 1, the uniform policy and (``teacher``) its teacher."""
    from ..play.labels import data_path, label_of, read_labelled
    from .prior_quality import calibration, measure

    path = Path(positions) if positions else data_path(variant)
    rows = read_labelled(path)
    runner = Runner(spec, variant)
    s = score_rows(runner, rows, variant)
    value = calibration(s["value"], np.array([r.result for r in rows]))
    out: dict[str, Any] = {
        "variant": variant, "positions_file": str(path), "label": label_of(path),
        "net": {"name": runner.name, "top1": float(s["hit"].mean()),
                "loglik": float(s["loglik"].mean()), "positions": len(rows),
                "brier": value["brier"], "sign_accuracy": value["sign_accuracy"]}}
    if runner.network is not None:
        out["net"]["sha256"] = runner.network.sha256
    for d in PRIOR_DEPTHS:
        m = measure(variant, d, path=path)
        out[f"prior_depth_{d}"] = {"top1": m["prior"]["top1"], "loglik": m["prior"]["loglik"],
                                   "positions": m["positions"],
                                   "brier": m["value"]["squash"]["brier"],
                                   "sign_accuracy": m["value"]["squash"]["sign_accuracy"]}
        out["uniform"] = {**m["uniform"], "positions": m["positions"]}
    name, depth = runner.teacher
    if teacher and depth > 0:
        hits, seconds = teacher_hits(variant, depth, rows,
                                     None if name == "default" else name)
        out["teacher"] = {"name": f"{name} evaluation, depth {depth}", "depth": depth,
                          "top1": float(hits.mean()), "loglik": None, "positions": len(rows),
                          "seconds_per_search": seconds}
    return out


def measured_keys(variant: str, positions: str | None = None) -> set[int]:
    """The repetition keys of the labelled positions networks of ``variant`` are
    measured on (its ``search/data/prior_<variant>.epd``, and ``positions`` if given):
    training leaves them out."""
    from variants import Position

    from ..play.labels import data_path, read_labelled
    paths = [data_path(variant)] + ([Path(positions)] if positions else [])
    return {Position.from_fen(r.fen, variant).key for p in paths for r in read_labelled(p)}


def format_report(r: dict[str, Any]) -> str:
    lines = [(f"{r['variant']}: {r['net']['positions']} positions of {r['positions_file']} "
             f"({r['label']})"), "| policy | top-1 | log-likelihood | value Brier | sign accuracy |",
             "|---|---|---|---|---|"]
    rows = [("net", f"network {r['net']['name']}"),
            *((f"prior_depth_{d}", f"prior, depth {d}") for d in PRIOR_DEPTHS),
            ("uniform", "uniform")]
    if "teacher" in r:
        rows.append(("teacher", f"teacher: {r['teacher']['name']}"))
    for key, name in rows:
        x = r[key]
        sign, brier, loglik = x.get("sign_accuracy"), x.get("brier"), x.get("loglik")
        lines.append(f"| {name} | {100 * x['top1']:.1f}% | "
                     f"{'-' if loglik is None else f'{loglik:.3f}'} | "
                     f"{'-' if brier is None else f'{brier:.3f}'} | "
                     f"{'-' if sign is None else f'{100 * sign:.1f}%'} |")
    return "\n".join(lines)


# -- the ablation's comparison -----------------------------------------------------------------

def paired_bootstrap(a: np.ndarray, b: np.ndarray, replicates: int = REPLICATES,
                     seed: int = 0) -> tuple[float, float, float]:
    """The difference of means ``b - a`` of two groups of per-position scores (``(seeds,
    positions)`` each, the same positions) and its 95% interval: each replicate draws
    positions with replacement (the same for both groups) and, in each group, seeds with
    replacement."""
    rng = np.random.default_rng(seed)
    n = a.shape[1]
    diffs = np.empty(replicates)
    for k in range(replicates):
        pos = rng.integers(0, n, n)
        sa = rng.integers(0, a.shape[0], a.shape[0])
        sb = rng.integers(0, b.shape[0], b.shape[0])
        diffs[k] = b[sb][:, pos].mean() - a[sa][:, pos].mean()
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return float(b.mean() - a.mean()), float(lo), float(hi)


def compare_nets(a: list[str], b: list[str], variant: str, positions: str | None = None,
                 replicates: int = REPLICATES) -> dict[str, Any]:
    """Networks ``a`` against networks ``b`` (each a group of training seeds) on the same
    labelled positions: each network's top-1 and log-likelihood, each group's mean, and
    ``b - a`` with its paired bootstrap interval (:func:`paired_bootstrap`)."""
    from ..play.labels import data_path, label_of, read_labelled

    path = Path(positions) if positions else data_path(variant)
    rows = read_labelled(path)
    groups: dict[str, dict[str, Any]] = {}
    arrays: dict[str, dict[str, np.ndarray]] = {}
    for key, specs in (("a", a), ("b", b)):
        scored = [(spec, score_rows(Runner(spec, variant), rows, variant)) for spec in specs]
        arrays[key] = {m: np.stack([s[m].astype(np.float64) for _, s in scored])
                       for m in ("hit", "loglik")}
        groups[key] = {"networks": [{"net": spec, "top1": float(s["hit"].mean()),
                                     "loglik": float(s["loglik"].mean())} for spec, s in scored],
                       "top1": float(arrays[key]["hit"].mean()),
                       "loglik": float(arrays[key]["loglik"].mean())}
    diff = {}
    for metric, name in (("hit", "top1"), ("loglik", "loglik")):
        d, lo, hi = paired_bootstrap(arrays["a"][metric], arrays["b"][metric], replicates)
        diff[name] = {"b_minus_a": d, "ci95": [lo, hi]}
    return {"variant": variant, "positions_file": str(path), "label": label_of(path),
            "positions": len(rows), "replicates": replicates, "a": groups["a"],
            "b": groups["b"], "difference": diff}


def format_comparison(r: dict[str, Any]) -> str:
    lines = [(f"{r['variant']}: {r['positions']} positions of {r['positions_file']} "
              f"({r['label']})"), "| group | network | top-1 | log-likelihood |", "|---|---|---|---|"]
    for key in ("a", "b"):
        for n in r[key]["networks"]:
            lines.append(f"| {key} | {n['net']} | {100 * n['top1']:.1f}% | {n['loglik']:.3f} |")
        lines.append(f"| {key} | mean | {100 * r[key]['top1']:.1f}% | {r[key]['loglik']:.3f} |")
    t, ll = r["difference"]["top1"], r["difference"]["loglik"]
    lines.append(f"b - a: top-1 {100 * t['b_minus_a']:+.1f} points "
                 f"[{100 * t['ci95'][0]:+.1f}, {100 * t['ci95'][1]:+.1f}], log-likelihood "
                 f"{ll['b_minus_a']:+.3f} [{ll['ci95'][0]:+.3f}, {ll['ci95'][1]:+.3f}] "
                 f"(95%, paired bootstrap over positions and seeds, {r['replicates']} replicates)")
    return "\n".join(lines)


def teacher_hits(variant: str, depth: int, rows: list[Any], weights: str | None = None,
                 engine: Any = None) -> tuple[np.ndarray, float]:
    """Whether the depth-``depth`` search plays each row's label move, and the mean
    seconds a search (one search a position, a fresh game each)."""
    from search import Engine
    if engine is None:
        engine = Engine(variant, weights, hash_mb=16, search="selective")
        engine.load_compiled()
    hits, seconds = np.zeros(len(rows), dtype=bool), 0.0
    for i, r in enumerate(rows):
        engine.new_game(0)
        t0 = time.perf_counter()
        found = engine.search(r.fen, depth=depth, leaf=False)
        seconds += time.perf_counter() - t0
        hits[i] = found.move == r.bm
    return hits, seconds / max(1, len(rows))


def search_hits(guide: str, variant: str, playouts: int, rows: list[Any],
                ) -> tuple[np.ndarray, float]:
    """Whether the MCTS that ``guide`` leads (:func:`.selfplay.guide_player`: the match
    player's), at ``playouts`` playouts from a fresh tree, plays each row's label move,
    and the mean seconds a search: the policy expert iteration's games play with."""
    from ..play.players import InternalPlayer, make_player
    from .selfplay import guide_player
    player = make_player(*guide_player(guide, variant, name="measured"))
    assert isinstance(player, InternalPlayer)
    player.start(variant)
    hits, seconds = np.zeros(len(rows), dtype=bool), 0.0
    try:
        for i, r in enumerate(rows):
            player.mcts.new_game(0)
            t0 = time.perf_counter()
            found = player.mcts.search(r.fen, playouts=playouts)
            seconds += time.perf_counter() - t0
            hits[i] = found.move == r.bm
    finally:
        player.close()
    return hits, seconds / max(1, len(rows))
