"""``tdleaf bench net``: positions per second of the policy-value network
(:mod:`tdleaf.learn.net`) on this machine's CPU: inference at batch 1, 8 and 16 (what an
MCTS asks of it), and training steps at the training batch.

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
    from search import encoding as enc
    from tdleaf.learn.net import make_net, torch_module

    from .encoding import _arrays

    torch = torch_module()
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    bbs, sts = _arrays(variant)
    n = len(bbs)
    x = np.zeros((n, enc.N_PLANES, 8, 8), dtype=np.float32)
    enc.planes_batch(bbs, sts, np.zeros(n, dtype=np.int64), x)
    planes = torch.from_numpy(x)
    net = make_net(channels, blocks)
    params = sum(p.numel() for p in net.parameters())
    best = {b: float("inf") for b in BATCHES}
    net.eval()
    with torch.inference_mode():
        for r in range(rounds):
            for b in (BATCHES if r % 2 == 0 else BATCHES[::-1]):
                t0 = time.perf_counter()
                for k in range(0, n - b + 1, b):
                    net(planes[k:k + b])
                best[b] = min(best[b], (time.perf_counter() - t0) / (n // b * b))
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
            "inference_positions_per_s": {str(b): 1 / best[b] for b in BATCHES},
            "training_positions_per_s": 1 / train_best, "train_batch": TRAIN_BATCH}


def format_report(r: dict[str, Any]) -> str:
    inf = r["inference_positions_per_s"]
    return "\n".join([
        (f"{r['channels']} channels x {r['blocks']} blocks ({r['parameters']:,} parameters), "
        f"torch {r['torch']}, {r['threads']} threads, {r['variant']} positions"),
        ("| inference, batch 1 | batch 8 | batch 16 | training (batch "
        f"{r['train_batch']}) |"), "|---|---|---|---|",
        (f"| {inf['1']:,.0f} | {inf['8']:,.0f} | {inf['16']:,.0f} | "
        f"{r['training_positions_per_s']:,.0f} |")])
