"""Issue 62's matches (crazyhouse, then atomic), in order, each resumable across sessions: a match's
games are kept gzipped in its folder (games.pgn.gz, the evidence) and unpacked to carry
on with `tdleaf match --resume`; its summary is summary.json, its command command.sh.

    python runs/mcts/plan.py [--only NAME ...] [--workers 2]

The ladder (e) is the last step; its folder is the ladder's own (one games.pgn.gz a rung).

(a) and (d) are at equal playouts (the machine's load changes no move, only the
seconds); (b) and (c) are timed, 1 s a move, and need an otherwise idle machine.
The check for moves that win at once (on by default under a network once it was
measured here, crazyhouse-w200), the u-divisor schedule and the check enhancement
(CrazyAra's, off by default) are measured with the shipped network on both sides. (d) plays the ablation's networks of seed 0 (runs/net/ablation/crazyhouse-*-s0/network.onnx,
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


def one_setting(option: str, name: str, n: int, *b_options: str) -> list[str]:
    """The shipped network's MCTS on both sides, A with ``option`` (-o A.KEY=VALUE), 100
    games at ``n`` playouts a move."""
    return ["default", "default", "--games", "100", *NET, "-o", option, "-o", f"A.name={name}",
            "-o", "B.search=mcts", "-o", "B.net=shipped", "-o", "B.name=net-mcts", *b_options,
            *playouts(n)]


#: name -> (what it measures, players and options).
MATCHES: dict[str, tuple[str, list[str]]] = {
    "crazyhouse-a200": (
        ("(a) the MCTS with the shipped network against the MCTS over the heuristic prior, "
        "200 new playouts a move each, 100 games"),
        ["default", "default", "--games", "100", *NET, *PRIOR_B, *playouts(200)]),
    "crazyhouse-w200": (
        ("a check for moves that win at once (win_check) against none, the shipped network "
         "on both sides, 200 playouts a move, 100 games"),
        one_setting("A.win_check=1", "net-mcts-win", 200, "-o", "B.win_check=0")),
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
        ["default", "default", "--games", "200", "--movetime", "1", "--sprt=-100,-50",
         *NET, "-o", "B.name=alpha-beta"]),
    "crazyhouse-c1s": (
        ("(c) the MCTS with the shipped network against Sjeng 11.2, 1 s a move; SPRT(0, 70) "
        "(70 Elo: a 60% score) or 200 games"),
        ["default", "xboard:sjeng", "--games", "200", "--movetime", "1", "--sprt=0,70",
         *NET]),
    "atomic-b1s": (
        ("(b) in atomic: the MCTS with atomic's shipped network against tdleaf's alpha-beta "
        "default, 1 s a move; SPRT(-100, -50) or 200 games"),
        ["default", "default", "--games", "200", "--movetime", "1", "--sprt=-100,-50",
         *NET, "-o", "B.name=alpha-beta"]),
    "crazyhouse-u800": (
        ("CrazyAra's u-divisor schedule (u_min_divisor 0.25) against none, the shipped "
        "network on both sides, 800 playouts a move, 100 games"),
        one_setting("A.u_min_divisor=0.25", "net-mcts-u", 800)),
    "crazyhouse-check800": (
        ("CrazyAra's check enhancement (check_factor 0.5) against none, the shipped network "
        "on both sides, 800 playouts a move, 100 games"),
        one_setting("A.check_factor=0.5", "net-mcts-check", 800)),
    "crazyhouse-a800": (
        ("(a) the MCTS with the shipped network against the MCTS over the heuristic prior, "
         "800 playouts a move each, 100 games"),
        ["default", "default", "--games", "100", *NET, *PRIOR_B, *playouts(800)]),
    "atomic-a800-win": (
        ("(a) in atomic again, with the win check (on under a network since atomic-a800 "
         "was played): the MCTS with atomic's shipped network against the MCTS over the "
         "heuristic prior, 800 playouts a move each, 100 games"),
        ["default", "default", "--games", "100", *NET, *PRIOR_B, *playouts(800)]),
}


#: (e) the MCTS with the shipped network on the UCI_Elo ladder: its rungs are playouts a move,
#: against Fairy-Stockfish's UCI_LimitStrength at 0.1 s a move (the ladder's conditions).
LADDERS: dict[str, tuple[str, list[str]]] = {
    "crazyhouse-e": (
        ("(e) the MCTS with the shipped network on the UCI_Elo ladder, 200 and 800 playouts "
         "a move, 32 games a rung"),
        ["ladder", "--variant", "crazyhouse", "--search", "mcts", "--net", "shipped",
         "--depths", "", "--nodes", "200,800", "--movetimes", "", "--games", "32"]),
}


def command(name: str, workers: int) -> list[str]:
    folder = f"runs/mcts/{name}"
    variant = name.split("-")[0]
    return ["match", *MATCHES[name][1], "--variant", variant, "--random-plies", "8",
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


def climb(name: str, workers: int) -> None:
    folder = HERE / name
    args = [*LADDERS[name][1], "--workers", str(workers), "--out", f"runs/mcts/{name}",
            "--no-progress"]
    quoted = " ".join(a if a else "''" for a in args)
    resume = ["--resume"] if (folder / "ladder.json").exists() else []
    folder.mkdir(exist_ok=True)
    (folder / "command.sh").write_text(
        f"# Issue 62 {LADDERS[name][0]}. The same command with --resume carries on.\n"
        f"tdleaf {quoted}\n")
    subprocess.run([*TDLEAF, *args, *resume], check=True, cwd=ROOT)


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
    for name in LADDERS:
        if args.only and name not in args.only:
            continue
        print(f"{name}: {LADDERS[name][0]}", file=sys.stderr, flush=True)
        climb(name, args.workers)


if __name__ == "__main__":
    main()
