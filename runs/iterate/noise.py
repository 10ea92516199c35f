"""Does the root's Dirichlet noise spoil the recorded targets at 200 playouts? The
shipped atomic network's self-play as runs/iterate/atomic-net's generation 0 plays it
(its first 150 games), again without the noise (dirichlet_epsilon 0), and the network
fine-tuned on each (lr 0.0005, 2 epochs, visit shares), measured on the 1,600 held-out
labelled positions. Run from the repository root:

    python runs/iterate/noise.py OUT_DIR
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from tdleaf.backend import Backend
from tdleaf.net.data import write_games
from tdleaf.net.iterate import LoopConfig
from tdleaf.net.measure import Runner, measured_keys, score_rows
from tdleaf.net.selfplay import SelfPlayer
from tdleaf.net.train import TrainConfig, export_network, train
from tdleaf.play.labels import read_labelled

LOOP = Path("runs/iterate/atomic-net")


def main(out: Path) -> None:
    loop = LoopConfig(**json.loads((LOOP / "loop.json").read_text())["config"])
    noisy = replace(loop.selfplay(0, loop.start), games=150)
    quiet = replace(noisy, dirichlet_epsilon=0.0)
    rows = read_labelled(Path("runs/net/test-atomic.epd"))
    exclude = measured_keys("atomic", "runs/net/test-atomic.epd")
    results = {}
    for name, sp in (("noisy", noisy), ("quiet", quiet)):
        t = time.process_time()
        manifest = write_games(out / name / "data", sp, SelfPlayer(sp), Backend(), resume=True)
        cfg = TrainConfig(epochs=2, lr=0.0005, beta=1.0, q=0.5, value_weight=1.0, seed=0)
        train(out / name / "data", out / name / "net", cfg, exclude=exclude,
              init=LOOP / "gen-000" / "start.pt")
        path, _ = export_network(out / name / "net")
        s = score_rows(Runner(str(path), "atomic"), rows, "atomic")
        results[name] = {"positions": manifest["positions"], "top1": float(s["hit"].mean()),
                         "loglik": float(s["loglik"].mean()),
                         "selfplay_cpu": manifest["cpu_seconds"], "cpu": time.process_time() - t}
        print(name, results[name], flush=True)
        (out / "noise.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
