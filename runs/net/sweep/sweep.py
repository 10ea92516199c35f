"""The sweep of issue 61: beta (the prior's share of the policy target), q (the search
score's share of the value target) and the value loss weight, each a 32x4 network trained
10 epochs on the first 100,000 positions of the atomic data (teacher: the default
evaluation at depth 6, seed 0), scored on the 400 development positions (the first 400 of
search/data/prior_atomic.epd, which also fitted the prior's temperature and chose the
teacher's depth); the remaining 1,600 test positions are not looked at here.

    python runs/net/sweep/sweep.py DATA   # resumable: a finished run is skipped

Writes runs/net/sweep/<name>/ (config.json, history.csv, eval-dev.json) and summary.json.
At the chosen settings it then tries what might lift the network further (EXTRAS): the
mirror augmentation; if it lifts the dev log-likelihood, it is summary.json's "options".
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
TDLEAF = [sys.executable, "-m", "tdleaf"]
POSITIONS = 100_000
DEV = 400
#: (beta, q, value weight): a grid of beta x q at weight 0.5, then the weight at the best.
#: beta is chosen by the dev log-likelihood of the label move (averaged over q), q by the
#: dev value Brier score (averaged over beta), the weight by the sum of its ranks in both.
GRID = [(b, q, 0.5) for b in (0.0, 0.25, 0.5) for q in (0.0, 0.5)]
WEIGHTS = (0.05, 1.0)
#: (name, options) tried at the chosen settings.
#: A 48x6 network costs 3.4 times the 32x4's compute a position, which the budget of the
#: shipped and ablation runs (single-threaded, 400k and 4 x 200k positions) cannot carry.
EXTRAS = (("mirror", ("--mirror",)),)


def name(beta: float, q: float, w: float) -> str:
    return f"b{beta:g}-q{q:g}-w{w:g}"


def dev_positions() -> Path:
    lines = (ROOT / "search/data/prior_atomic.epd").read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    body = [x for x in lines if x and not x.startswith("#")][:DEV]
    out = HERE / "dev-atomic.epd"
    out.write_text("\n".join(head + body) + "\n")
    return out


def run(data: str, beta: float, q: float, w: float, dev: Path,
        extra: tuple[str, tuple[str, ...]] = ("", ())) -> dict:
    label = name(beta, q, w) + (f"-{extra[0]}" if extra[0] else "")
    folder = HERE / label
    ev = folder / "eval-dev.json"
    if not ev.exists():
        args = [*TDLEAF, "net", "train", data, "--out", str(folder), "--epochs", "10",
                "--positions", str(POSITIONS), "--beta", str(beta), "--q", str(q),
                "--value-weight", str(w), "--no-progress", "--no-plot", *extra[1]]
        if (folder / "checkpoint.pt").exists():
            args.append("--resume")
        subprocess.run(args, check=True)
        out = subprocess.run([*TDLEAF, "net", "eval", str(folder), "--variant", "atomic",
                              "--positions", str(dev), "--json", "--no-teacher"],
                             check=True, capture_output=True, text=True).stdout
        ev.write_text(out)
    r = json.loads(ev.read_text())["net"]
    return {"name": label, "beta": beta, "q": q, "value_weight": w, "extra": extra[0],
            "top1": r["top1"], "loglik": r["loglik"], "brier": r["brier"]}


def main() -> None:
    data = sys.argv[1]
    dev = dev_positions()
    rows = [run(data, *g, dev) for g in GRID]

    def mean(key: str, **fixed: float) -> float:
        xs = [r[key] for r in rows if all(r[k] == v for k, v in fixed.items())]
        return sum(xs) / len(xs)

    beta = max({r["beta"] for r in rows}, key=lambda b: mean("loglik", beta=b))
    q = min({r["q"] for r in rows}, key=lambda x: mean("brier", q=x))
    rows += [run(data, beta, q, w, dev) for w in WEIGHTS if (beta, q, w) not in GRID]
    last = [r for r in rows if r["beta"] == beta and r["q"] == q]
    by_ll = sorted(last, key=lambda r: -r["loglik"])
    by_brier = sorted(last, key=lambda r: r["brier"])
    chosen = min(last, key=lambda r: (by_ll.index(r) + by_brier.index(r), -r["loglik"]))
    extras = [run(data, chosen["beta"], chosen["q"], chosen["value_weight"], dev, x)
              for x in EXTRAS]
    rows += extras
    # The extra that lifts the dev log-likelihood most (none if none does) goes on.
    best = max([chosen, *extras], key=lambda r: r["loglik"])
    options = list(dict(EXTRAS).get(best["extra"], ()))
    (HERE / "summary.json").write_text(json.dumps({"rows": rows, "chosen": chosen,
                                                   "options": options}, indent=1) + "\n")
    for r in rows:
        print(f"{r['name']:18s} top-1 {100 * r['top1']:.1f}%  loglik {r['loglik']:.3f}  "
              f"Brier {r['brier']:.4f}")
    print("chosen:", chosen["name"])


if __name__ == "__main__":
    main()
