"""``tdleaf net eval``: a network against the labels of positions no network trains on.

On labelled positions (``FEN;bm UCI;result R``, R the result for the side to move; by
default the variant's ``search/data/prior_<variant>.epd``: engine games labelled by
Fairy-Stockfish), the network's policy over the legal moves and its value, beside the
heuristic prior at depths 0 and 1 (the variant's default evaluation, its fitted
temperature) and the uniform policy:

- policy: top-1 (the label is the most likely move) and the mean log-likelihood of the
  label move;
- value: the Brier score of ``(v + 1) / 2`` against the result, and the sign accuracy
  (decided games, ``v != 0``).

The network is a training folder (its ``checkpoint.pt``) or an ONNX file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

PRIOR_DEPTHS = (0, 1)


class Runner:
    """A network that answers planes ``(B, 47, 8, 8)`` with policy logits and values."""

    def __init__(self, spec: str, variant: str) -> None:
        from tdleaf.learn.net import NetError, make_net, onnx_session, torch_module
        path = Path(spec)
        self.session: Any = None
        self.net: Any = None
        if path.suffix == ".onnx":
            if not path.is_file():
                raise NetError(f"{path}: no such network file")
            self.session = onnx_session(path, threads=2)
            self.name = path.name
            return
        config = path / "config.json"
        if not config.is_file():
            raise NetError(f"{path}: neither an ONNX file nor a 'tdleaf net train' folder")
        info = json.loads(config.read_text())
        from search.encoding import EncodingError, check_version
        try:
            check_version(info.get("encoding_version"), str(config))
        except EncodingError as exc:
            raise NetError(str(exc)) from None
        if info["variant"] != variant:
            raise NetError(f"{path}: a network of {info['variant']}, not of {variant}")
        torch = torch_module()
        self.net = make_net(info["train"]["channels"], info["train"]["blocks"])
        try:
            state = torch.load(path / "checkpoint.pt", weights_only=True)["model"]
            self.net.load_state_dict(state)
        except (OSError, RuntimeError, KeyError) as exc:
            raise NetError(f"{path / 'checkpoint.pt'}: not a checkpoint of this network "
                           f"({type(exc).__name__})") from None
        self.net.eval()
        self.torch = torch
        self.name = path.name

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.session is not None:
            logits, values = self.session.run(None, {"planes": planes})
            return np.asarray(logits), np.asarray(values)
        with self.torch.inference_mode():
            logits, values = self.net(self.torch.from_numpy(planes))
        return logits.numpy(), values.numpy()


def evaluate_net(spec: str, variant: str, positions: str | None = None) -> dict[str, Any]:
    """The network ``spec`` on the labelled positions (default: the variant's), beside
    the prior at depths 0 and 1 and the uniform policy."""
    from search import encoding as enc
    from variants import Position

    from .prior import calibration, measure
    from .prior_data import data_path, label_of, read_labelled

    path = Path(positions) if positions else data_path(variant)
    rows = read_labelled(path)
    runner = Runner(spec, variant)
    top1, loglik, values = [], [], []
    for k in range(0, len(rows), 64):
        chunk = rows[k:k + 64]
        pos = [Position.from_fen(r.fen, variant) for r in chunk]
        x = np.stack([enc.planes(p) for p in pos])
        logits, v = runner(x)
        for i, (p, r) in enumerate(zip(pos, chunk)):
            moves, idx = enc.legal_indices(p)
            z = logits[i, idx].astype(np.float64)
            logp = z - z.max() - math.log(np.exp(z - z.max()).sum())
            j = moves.index(r.bm)
            top1.append(float(np.argmax(z) == j))
            loglik.append(float(logp[j]))
        values.append(v.reshape(-1))
    value = calibration(np.concatenate(values).astype(np.float64),
                        np.array([r.result for r in rows]))
    out: dict[str, Any] = {
        "variant": variant, "positions_file": str(path), "label": label_of(path),
        "net": {"name": runner.name, "top1": float(np.mean(top1)),
                "loglik": float(np.mean(loglik)), "positions": len(rows),
                "brier": value["brier"], "sign_accuracy": value["sign_accuracy"]}}
    for d in PRIOR_DEPTHS:
        m = measure(variant, d, path=path)
        out[f"prior_depth_{d}"] = {"top1": m["prior"]["top1"], "loglik": m["prior"]["loglik"],
                                   "positions": m["positions"],
                                   "brier": m["value"]["squash"]["brier"],
                                   "sign_accuracy": m["value"]["squash"]["sign_accuracy"]}
        out["uniform"] = {**m["uniform"], "positions": m["positions"]}
    return out


def format_report(r: dict[str, Any]) -> str:
    lines = [(f"{r['variant']}: {r['net']['positions']} positions of {r['positions_file']} "
             f"({r['label']})"), "| policy | top-1 | log-likelihood | value Brier | sign accuracy |",
             "|---|---|---|---|---|"]
    for key, name in [("net", f"network {r['net']['name']}"),
                      *((f"prior_depth_{d}", f"prior, depth {d}") for d in PRIOR_DEPTHS),
                      ("uniform", "uniform")]:
        x = r[key]
        sign = x.get("sign_accuracy")
        brier = x.get("brier")
        lines.append(f"| {name} | {100 * x['top1']:.1f}% | {x['loglik']:.3f} | "
                     f"{'-' if brier is None else f'{brier:.3f}'} | "
                     f"{'-' if sign is None else f'{100 * sign:.1f}%'} |")
    return "\n".join(lines)
