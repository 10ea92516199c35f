"""``tdleaf bench net``: positions per second of the policy-value network
(:mod:`tdleaf.net.train`) on this machine's CPU: inference at batch 1, 8 and 16 (what an
MCTS asks of it) in PyTorch and, exported to ONNX, in onnxruntime (the same threads;
their outputs compared), and training steps at the training batch.

The inputs are the planes of a variant's labelled positions
(``search/data/prior_<variant>.epd``), so the numbers include nothing but the network:
encoding is measured by ``tdleaf bench encoding``. Each figure is the best of
``rounds`` rounds, the order of the batch sizes alternating.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

BATCHES = (1, 8, 16)
TRAIN_BATCH = 256
ROUNDS = 5
VARIANT = "crazyhouse"


def bench_net(variant: str = VARIANT, channels: int = 32, blocks: int = 4, threads: int = 2,
              rounds: int = ROUNDS) -> dict[str, Any]:
    from search.mcts import encoding as enc
    from tdleaf.net.train import make_net, torch_module

    from .encoding import labelled_arrays

    torch = torch_module()
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    bbs, sts = labelled_arrays(variant)
    n = len(bbs)
    x = np.zeros((n, enc.N_PLANES, 8, 8), dtype=np.float32)
    enc.planes_batch(bbs, sts, np.zeros(n, dtype=np.int64), x)
    planes = torch.from_numpy(x)
    net = make_net(channels, blocks)
    params = sum(p.numel() for p in net.parameters())
    net.eval()
    with torch.inference_mode():
        rates = _inference_rates(net, planes, rounds)
    onnx = _onnx(net, planes, threads, rounds)
    net.train()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    target = torch.randint(0, enc.POLICY_SIZE, (TRAIN_BATCH,))
    value = torch.zeros(TRAIN_BATCH)
    train_best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for k in range(0, n - TRAIN_BATCH + 1, TRAIN_BATCH):
            logits, v = net(planes[k:k + TRAIN_BATCH])
            loss = torch.nn.functional.cross_entropy(logits, target) + ((v - value) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        train_best = min(train_best, (time.perf_counter() - t0) / (n // TRAIN_BATCH * TRAIN_BATCH))
    return {"variant": variant, "channels": channels, "blocks": blocks, "parameters": params,
            "threads": threads, "torch": torch.__version__, "rounds": rounds,
            "inference_positions_per_s": rates, "onnxruntime": onnx,
            "training_positions_per_s": 1 / train_best, "train_batch": TRAIN_BATCH}


def _onnx(net: Any, planes: Any, threads: int, rounds: int) -> dict[str, Any] | None:
    """onnxruntime's positions/s at each batch and its largest difference from torch's
    outputs; None without onnxruntime."""
    import tempfile
    from pathlib import Path

    from search.mcts.network import onnx_session
    from tdleaf.net.train import NetError, export_onnx, torch_module
    torch = torch_module()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "net.onnx"
        try:
            export_onnx(net, path)
            session = onnx_session(path, threads)
        except (NetError, ImportError, ModuleNotFoundError):
            return None
        x = planes.numpy()
        p, v = session.run(None, {"planes": x[:16]})
        with torch.inference_mode():
            tp, tv = net(planes[:16])
        diff = float(max(np.abs(p - tp.numpy()).max(), np.abs(v - tv.numpy()).max()))
        rates = _inference_rates(lambda batch: session.run(None, {"planes": batch}), x, rounds)
    import onnxruntime
    return {"version": onnxruntime.__version__, "max_abs_diff": diff,
            "inference_positions_per_s": rates}


def _inference_rates(run: Any, planes: Any, rounds: int) -> dict[str, float]:
    """Positions/s of ``run(batch)`` over ``planes`` at each batch size of
    :data:`BATCHES`, the best of ``rounds`` rounds, their order alternating."""
    n = len(planes)
    best = {b: float("inf") for b in BATCHES}
    for r in range(rounds):
        for b in (BATCHES if r % 2 == 0 else BATCHES[::-1]):
            t0 = time.perf_counter()
            for k in range(0, n - b + 1, b):
                run(planes[k:k + b])
            best[b] = min(best[b], (time.perf_counter() - t0) / (n // b * b))
    return {str(b): 1 / best[b] for b in BATCHES}


def format_report(r: dict[str, Any]) -> str:
    o = r.get("onnxruntime")
    runtimes = [(f"torch {r['torch']}", r["inference_positions_per_s"])]
    if o:
        runtimes.append((f"onnxruntime {o['version']}", o["inference_positions_per_s"]))
    lines = [(f"{r['channels']} channels x {r['blocks']} blocks ({r['parameters']:,} parameters), "
             f"{r['threads']} threads, {r['variant']} positions; positions/s"),
             "| runtime | batch 1 | batch 8 | batch 16 |", "|---|---|---|---|"]
    lines += [f"| {name} | {x['1']:,.0f} | {x['8']:,.0f} | {x['16']:,.0f} |"
              for name, x in runtimes]
    lines.append(f"Training (torch, batch {r['train_batch']}): "
                 f"{r['training_positions_per_s']:,.0f} positions/s")
    if o:
        lines.append(f"onnxruntime's outputs differ from torch's by at most {o['max_abs_diff']:.1e}")
    else:
        lines.append("onnxruntime: not installed (pip install 'tdleaf[net]')")
    return "\n".join(lines)
