"""How hard a generation may train from a trained network: the shipped atomic network
fine-tuned on its own loop's generation-0 self-play data (runs/iterate/atomic-net/gen-000,
6,857 positions of its MCTS's visit shares) at several peak learning rates and epochs,
each measured on the 1,600 held-out labelled positions (raw top-1, log-likelihood).
Run from the repository root after the loop's generation 0 (its start.pt):

    python runs/iterate/finetune.py OUT_DIR              # rates and epochs
    python runs/iterate/finetune.py OUT_DIR --targets    # the targets, at lr 0.0005
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tdleaf.net.measure import Runner, measured_keys, score_rows
from tdleaf.net.train import TrainConfig, export_network, train
from tdleaf.play.labels import read_labelled

LOOP = Path("runs/iterate/atomic-net")
RATES = (0.0002, 0.0005, 0.001, 0.002)
EPOCHS = (1, 2, 4)
#: The targets tried at lr 0.0005, 2 epochs (--targets): the search's move alone
#: (beta 0) against its visit shares (beta 1), with and without the value's loss.
TARGETS = ((0.0, 1.0), (1.0, 0.0), (0.0, 0.0))


def main(out: Path, targets: bool) -> None:
    rows = read_labelled(Path("runs/net/test-atomic.epd"))
    exclude = measured_keys("atomic", "runs/net/test-atomic.epd")
    base = score_rows(Runner("shipped", "atomic"), rows, "atomic")
    results = {"shipped": {"top1": float(base["hit"].mean()), "loglik": float(base["loglik"].mean())}}
    print(results, flush=True)
    runs = ([(0.0005, 2, beta, w) for beta, w in TARGETS] if targets
            else [(lr, e, 1.0, 1.0) for lr in RATES for e in EPOCHS])
    for lr, epochs, beta, weight in runs:
        name = f"lr{lr}-e{epochs}" + (f"-b{beta}-w{weight}" if targets else "")
        t = time.process_time()
        cfg = TrainConfig(epochs=epochs, lr=lr, beta=beta, q=0.5, value_weight=weight, seed=0)
        train(LOOP / "gen-000" / "data", out / name, cfg, exclude=exclude,
              init=LOOP / "gen-000" / "start.pt")
        path, _ = export_network(out / name)
        s = score_rows(Runner(str(path), "atomic"), rows, "atomic")
        results[name] = {"lr": lr, "epochs": epochs, "beta": beta, "value_weight": weight,
                         "top1": float(s["hit"].mean()), "loglik": float(s["loglik"].mean()),
                         "cpu": time.process_time() - t}
        print(name, results[name], flush=True)
        (out / "finetune.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), "--targets" in sys.argv[2:])
