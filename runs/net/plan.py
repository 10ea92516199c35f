"""Issue 61's trainings and measurements, after the sweep (runs/net/sweep/summary.json
chose beta, q and the value weight): for a variant, the shipped network (atomic
400,000 positions; crazyhouse 50,000: its data is remade and trained within one
session, since the data set, 300 B a position, is scratch that a session does not keep,
and a first 152,518 positions were lost so), networks on fewer positions (the learning
curve against positions and CPU hours), and the teacher ablation (half the shipped
size of the default evaluation's data and of the traditional values', the same depth
and seeds, two training seeds each).
Every run is a `tdleaf net train` folder under runs/net/, measured with `tdleaf net
eval` on the variant's 2,000 labelled positions (eval.json); the ablation with `tdleaf
net compare` (runs/net/ablation/<variant>.json); the curve in runs/net/<variant>-curve.json
and figures/<variant>-curve.png. Resumable: finished steps are skipped.

    python runs/net/plan.py atomic [--only NAME ...]

The data sets are scratch/net/<variant>-default and scratch/net/<variant>-traditional
(`tdleaf net data`, seed 0; made again from their seeds, evidence in runs/net/data/).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TDLEAF = [sys.executable, "-m", "tdleaf"]
EPOCHS = 10
#: (shipped network's positions, each ablation arm's positions) per variant.
SIZES = {"atomic": (400_000, 200_000), "crazyhouse": (50_000, 25_000)}
SEEDS = (0, 1)
CURVE = (25_000, 50_000, 100_000)
#: The data sets' games (scratch/net/chain*.sh wrote them with these, two workers).
GAMES = {"atomic-default": 11_200, "atomic-traditional": 6_000, "crazyhouse-default": 920,
         "crazyhouse-traditional": 560}


def data_command(data: str) -> str:
    cfg = json.loads((ROOT / "scratch/net" / data / "manifest.json").read_text())["config"]
    teacher = "" if cfg["teacher"] == "default" else f" --teacher {cfg['teacher']}"
    return (f"tdleaf net data --variant {cfg['variant']} --games {GAMES[data]} --depth "
            f"{cfg['depth']}{teacher} --seed {cfg['seed']} --out scratch/net/{data} --workers 2")


def runs(variant: str) -> list[tuple[str, str, int, int]]:
    """(run folder, data set, positions, seed) of a variant's plan."""
    shipped, arm_size = SIZES[variant]
    out = [(variant, f"{variant}-default", shipped, 0)]
    out += [(f"{variant}-curve/{n // 1000}k", f"{variant}-default", n, 0)
            for n in CURVE if n < shipped and n != arm_size]     # the arm's seed 0 is that run
    out += [(f"ablation/{variant}-{arm}-s{s}", f"{variant}-{arm}", arm_size, s)
            for arm in ("default", "traditional") for s in SEEDS]
    return out


def chosen() -> dict:
    return json.loads((HERE / "sweep" / "summary.json").read_text())["chosen"]


def options() -> list[str]:
    """The sweep's extra options (mirror, size) that lifted the network, if any."""
    return json.loads((HERE / "sweep" / "summary.json").read_text()).get("options", [])


def train(variant: str, name: str, data: str, positions: int, seed: int) -> Path:
    folder = HERE / name
    h = chosen()
    args = ["net", "train", f"scratch/net/{data}", "--out", f"runs/net/{name}", "--epochs",
            str(EPOCHS), "--positions", str(positions), "--beta", str(h["beta"]), "--q",
            str(h["q"]), "--value-weight", str(h["value_weight"]), "--seed", str(seed),
            *options()]
    done = folder / "history.csv"
    if not done.exists() or len(done.read_text().splitlines()) < EPOCHS + 1:
        resume = ["--resume"] if (folder / "checkpoint.pt").exists() else []
        subprocess.run([*TDLEAF, *args, *resume, "--no-progress"], check=True, cwd=ROOT)
    ship = (f"tdleaf net export runs/net/{name}\n"
            f"python tests/data/make_shipped.py --network {variant}=runs/net/{name}\n"
            if name == variant else "")
    (folder / "commands.sh").write_text(
        f"{data_command(data)}\n"
        f"tdleaf {' '.join(args)}\n"
        f"tdleaf net eval runs/net/{name} --variant {variant} --json"
        f"{'' if name == variant else ' --no-teacher'} > runs/net/{name}/eval.json\n"
        + ship)
    ev = folder / "eval.json"
    if not ev.exists():
        # The teacher's search a position is measured once, with the shipped network.
        teacher = [] if name == variant else ["--no-teacher"]
        out = subprocess.run([*TDLEAF, "net", "eval", f"runs/net/{name}", "--variant", variant,
                              "--json", *teacher], check=True, capture_output=True, text=True,
                             cwd=ROOT).stdout
        ev.write_text(out)
    return folder


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("variant")
    p.add_argument("--only", nargs="*")
    args = p.parse_args()
    v = args.variant
    for name, data, positions, seed in runs(v):
        if args.only and name not in args.only:
            continue
        manifest = ROOT / "scratch/net" / data / "manifest.json"
        have = json.loads(manifest.read_text())["positions"] if manifest.exists() else 0
        if have < positions:
            print(f"{name}: {data} holds {have} positions of {positions} yet, skipped",
                  file=sys.stderr)
            continue
        print(f"{name}: {positions} positions of {data}, seed {seed}", file=sys.stderr, flush=True)
        train(v, name, data, positions, seed)
    arms = {arm: [f"runs/net/ablation/{v}-{arm}-s{s}" for s in SEEDS]
            for arm in ("default", "traditional")}
    out = HERE / "ablation" / f"{v}.json"
    if all((ROOT / f / "eval.json").exists() for a in arms.values() for f in a) and not out.exists():
        res = subprocess.run([*TDLEAF, "net", "compare", "--variant", v, "--a", *arms["traditional"],
                              "--b", *arms["default"], "--json"], check=True,
                             capture_output=True, text=True, cwd=ROOT).stdout
        out.write_text(res)


if __name__ == "__main__":
    main()
