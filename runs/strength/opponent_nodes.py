"""The node limit at which Fairy-Stockfish searches as deep as it did in a variant's node
rungs at 0.1 s a move: the ladder's scale made independent of the machine.

The ladder's opponent plays 0.1 s a move, so its depth, and its strength at a given
``UCI_Elo``, follow the machine's speed (runs/strength/opponent-depth.md). At a node
limit it searches the same tree on any machine. This finds, per variant, the limit that
reproduces the depth its rungs recorded: Fairy-Stockfish asked again where it moved
(``opponent_replay.replay``: one ``ucinewgame`` a game, its hash carried from move to
move as in the games) in every 16th batch of the variant's 512- and 8,192-node rungs
(antichess: of their first 64 batches, those played on the first machine; atomic, which
has no node rungs yet: every 4th batch of its depth-3 and depth-5 rungs, against the
wasm build, its ladder's engine), at two node limits a factor of 2 apart. Depth is close
to linear in log(nodes): the limit that meets the recorded mean depth is read off the
line, rounded to two significant figures, and replayed once more as the check.

    python runs/strength/opponent_nodes.py [VARIANT ...] [--low 30000]

Writes runs/strength/opponent-nodes.json (variant -> nodes, kept as each variant ends:
a variant there already is not replayed) and prints markdown rows.
"""

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from opponent_depth import last_batch  # beside this file
from opponent_replay import replay, shift

from tdleaf.play.engines import resolve_command

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "opponent-nodes.json"
VARIANTS = ["crazyhouse", "chess", "3check", "kingofthehill", "giveaway", "racingkings",
            "horde", "atomic", "antichess"]


def rungs(variant: str) -> tuple[list[Path], range, str]:
    """The rung folders whose positions are replayed, the batches and the engine: the
    variant's 512- and 8,192-node rungs, every 16th batch (antichess's: of the first 64,
    played on the machine of its depth rungs); atomic's depth-3 and depth-5 rungs (32
    games each), every 4th, against the wasm build."""
    if variant == "atomic":
        base = ROOT / "runs/ladders/remeasure/atomic-fairy-stockfish-wasm"
        return [base / "depth-3", base / "depth-5"], range(1, 17, 4), "fairy-stockfish-wasm"
    base = ROOT / f"runs/ladders/{variant}-nodes/{variant}-fairy-stockfish"
    last = 64 if variant == "antichess" else last_batch(base / "nodes-512")
    return [base / "nodes-512", base / "nodes-8192"], range(1, last + 1, 16), "fairy-stockfish"


def depths(variant: str, nodes: int) -> list[tuple[int, int]]:
    """(recorded depth, depth now) pairs over the sampled batches of the variant's rungs,
    its ladder's engine at ``nodes`` a move."""
    folders, batches, engine = rungs(variant)
    command = resolve_command([engine])
    return [pair for folder in folders for b in batches
            for pair in replay(folder, b, b, command, nodes=nodes)]


def row(variant: str, nodes: int, pairs: list[tuple[int, int]]) -> str:
    """A markdown row: the limit, the moves, recorded and replayed depth, the difference
    with its 95% interval."""
    mean, half = shift(pairs)
    return (f"| {variant} | {nodes:,} | {len(pairs)} | {statistics.mean(p[0] for p in pairs):.2f} "
            f"| {statistics.mean(p[1] for p in pairs):.2f} "
            f"| {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] |")


def calibrate(variant: str, low: int) -> int:
    """The node limit that meets the variant's recorded depth (the module's docstring)."""
    means = {}
    for nodes in (low, 2 * low):
        pairs = depths(variant, nodes)
        print(row(variant, nodes, pairs), flush=True)
        means[nodes] = shift(pairs)[0]
    per_doubling = means[2 * low] - means[low]
    found = low * 2 ** (-means[low] / per_doubling)
    digits = 10 ** (int(math.log10(found)) - 1)
    return int(round(found / digits) * digits)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variants", nargs="*", default=VARIANTS)
    p.add_argument("--low", type=int, default=30000, help="the lower node limit tried")
    args = p.parse_args()
    found = json.loads(OUT.read_text()) if OUT.exists() else {}
    print("| variant | nodes a move | moves | depth recorded | depth now | difference, 95% "
          "interval |\n|---|---|---|---|---|---|", flush=True)
    for variant in args.variants:
        if variant in found:
            print(f"{variant}: {found[variant]:,} nodes (in {OUT.name})", file=sys.stderr)
            continue
        nodes = calibrate(variant, args.low)
        pairs = depths(variant, nodes)
        print(row(variant, nodes, pairs) + " <- the limit", flush=True)
        # Read again: a run for other variants may have written beside this one.
        found = json.loads(OUT.read_text()) if OUT.exists() else {}
        found[variant] = nodes
        OUT.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
