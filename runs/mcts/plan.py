"""Issue 62's matches in crazyhouse, in order, each resumable across sessions: a match's
games are kept gzipped in its folder (games.pgn.gz, the evidence) and unpacked to carry
on with `tdleaf match --resume`; its summary is summary.json, its command command.sh.

    python runs/mcts/plan.py [--only NAME ...] [--workers 2]

(a) and (d) are at equal playouts (the machine's load changes no move, only the
seconds); (b) and (c) are timed, 1 s a move, and need an otherwise idle machine.
(d) plays the ablation's networks of seed 0 (runs/net/ablation/crazyhouse-*-s0/network.onnx,
`tdleaf net export` of those folders).
"""

import argparse
import gzip
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TDLEAF = [sys.executable, "-m", "tdleaf"]
ABLATION = "runs/net/ablation/crazyhouse-{}-s0/network.onnx"

NET = ["-o", "A.search=mcts", "-o", "A.net=shipped", "-o", "A.name=net-mcts"]
PRIOR_B = ["-o", "B.search=mcts", "-o", "B.name=prior-mcts"]


def playouts(n: int) -> list[str]:
    return ["-o", f"A.playouts={n}", "-o", f"B.playouts={n}"]


#: name -> (what it measures, players and options).
MATCHES: dict[str, tuple[str, list[str]]] = {
    "crazyhouse-a200": (
        ("(a) the MCTS with the shipped network against the MCTS over the heuristic prior, "
        "200 new playouts a move each, 100 games"),
        ["default", "default", "--games", "100", *NET, *PRIOR_B, *playouts(200)]),
    "crazyhouse-a800": (
        "(a) the same at 800 playouts a move, 100 games",
        ["default", "default", "--games", "100", *NET, *PRIOR_B, *playouts(800)]),
    "crazyhouse-d800": (
        ("(d) the ablation's networks in play: taught by the learnt default (A) and by the "
        "traditional values (B), seed 0 of each, 800 playouts a move, 100 games"),
        ["default", "default", "--games", "100",
         "-o", "A.search=mcts", "-o", f"A.net={ABLATION.format('default')}",
         "-o", "A.name=net-default", "-o", "B.search=mcts",
         "-o", f"B.net={ABLATION.format('traditional')}", "-o", "B.name=net-traditional",
         *playouts(800)]),
    "crazyhouse-b1s": (
        ("(b) the MCTS with the shipped network against tdleaf's alpha-beta default, 1 s a "
        "move; SPRT(-100, -50) or 200 games"),
        ["default", "default", "--games", "200", "--movetime", "1", "--sprt", "-100,-50",
         *NET, "-o", "B.name=alpha-beta"]),
    "crazyhouse-c1s": (
        ("(c) the MCTS with the shipped network against Sjeng 11.2, 1 s a move; SPRT(0, 70) "
        "(70 Elo: a 60% score) or 200 games"),
        ["default", "xboard:sjeng", "--games", "200", "--movetime", "1", "--sprt", "0,70",
         *NET]),
}


def command(name: str, workers: int) -> list[str]:
    folder = f"runs/mcts/{name}"
    return ["match", *MATCHES[name][1], "--variant", "crazyhouse", "--random-plies", "8",
            "--seed", "62", "--workers", str(workers), "--pgn", f"{folder}/games.pgn",
            "--json", f"{folder}/summary.json", "--no-progress"]


def play(name: str, workers: int) -> None:
    folder = HERE / name
    folder.mkdir(exist_ok=True)
    args = command(name, workers)
    (folder / "command.sh").write_text(
        f"# Issue 62 {MATCHES[name][0]}. Openings of 8 random plies, both colours. The same\n"
        f"# command with --resume carries on (gunzip -k games.pgn.gz first).\n"
        f"tdleaf {' '.join(args)}\n")
    pgn, packed = folder / "games.pgn", folder / "games.pgn.gz"
    if packed.exists() and not pgn.exists():
        with gzip.open(packed, "rb") as src, open(pgn, "wb") as dst:
            shutil.copyfileobj(src, dst)
    resume = ["--resume"] if pgn.exists() else []
    try:
        subprocess.run([*TDLEAF, *args, *resume], check=True, cwd=ROOT)
    finally:
        if pgn.exists():
            with open(pgn, "rb") as src, gzip.open(packed, "wb") as dst:
                shutil.copyfileobj(src, dst)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--only", nargs="*")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    for name in MATCHES:        # a finished match plays nothing again
        if args.only and name not in args.only:
            continue
        print(f"{name}: {MATCHES[name][0]}", file=sys.stderr, flush=True)
        play(name, args.workers)


if __name__ == "__main__":
    main()
