"""A variant's networks against the positions they trained on and the CPU hours they
cost: the runs runs/net/plan.py made on the default teacher's data (25k, 50k, 100k,
the ablation's run of seed 0 where its size is new, and the shipped network), each measured on the variant's
2,000 labelled positions (eval.json). CPU hours = the data's CPU seconds a position
(runs/net/data/<data>/time.txt: user + system of `tdleaf net data`, over its positions)
times the positions trained on, plus the training's CPU seconds (history.csv).

    python runs/net/curve.py atomic    # -> runs/net/<variant>-curve.json, figures/<variant>-curve.png
"""

import csv
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))


def data_cpu_per_position(data: str) -> float:
    folder = HERE / "data" / data
    cpu = sum(float(u) + float(s) for u, s in
              re.findall(r"([\d.]+)user ([\d.]+)system", (folder / "time.txt").read_text()))
    positions = json.loads((folder / "manifest.json").read_text())["positions"]
    return cpu / positions


def point(run: Path) -> dict:
    info = json.loads((run / "config.json").read_text())
    with open(run / "history.csv") as fh:
        train_cpu = float(list(csv.DictReader(fh))[-1]["cpu_seconds"])
    ev = json.loads((run / "eval.json").read_text())
    data = Path(info["data"]).name
    cpu = data_cpu_per_position(data) * info["positions"] + train_cpu
    return {"run": run.relative_to(ROOT).as_posix(), "positions": info["positions"],
            "cpu_hours": cpu / 3600, "train_cpu_hours": train_cpu / 3600,
            "top1": ev["net"]["top1"], "loglik": ev["net"]["loglik"], "brier": ev["net"]["brier"]}


def main() -> None:
    from plots.net import plot_scaling
    v = sys.argv[1]
    runs = sorted((HERE / f"{v}-curve").glob("*k")) + [HERE / "ablation" / f"{v}-default-s0", HERE / v]
    points: list[dict] = []
    for r in runs:
        if (r / "eval.json").exists() and (p := point(r))["positions"] not in \
                {q["positions"] for q in points}:
            points.append(p)
    ev = json.loads((HERE / v / "eval.json").read_text())
    base = {"prior, depth 1": ev["prior_depth_1"]["top1"]}
    if "teacher" in ev:
        base[f"teacher ({ev['teacher']['name']})"] = ev["teacher"]["top1"]
    (HERE / f"{v}-curve.json").write_text(json.dumps({"points": points, "baselines": base},
                                                     indent=1) + "\n")
    plot_scaling(points, base, HERE / "figures" / f"{v}-curve.png",
                 f"{v}: networks on Fairy-Stockfish's moves ({ev['net']['positions']} positions)")
    for p in points:
        print(f"{p['positions']:>7} positions  {p['cpu_hours']:.2f} CPU-h  top-1 {100 * p['top1']:.1f}%")


if __name__ == "__main__":
    main()
