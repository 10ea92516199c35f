"""Where each variant's opponent scale bends: the ``UCI_Elo`` above which Fairy-Stockfish's
settings pick their moves from the same finished search (``scale.bend_elo``), from the
mean depth the opponent searched in the positions ``opponent_nodes.py`` calibrates its
node limit on (the depth its rungs recorded: opponent-nodes.md's "depth recorded").

    python runs/strength/bends.py > runs/strength/bends.md

Writes runs/strength/bends.json (variant -> {"depth", "bend"}) and prints a markdown
table with each variant's measured range in the shipped ladder beside its bend.
"""

import json
import statistics
from pathlib import Path

from opponent_depth import games, scored_moves  # beside this file
from opponent_nodes import VARIANTS, rungs

from search.protocol import strength
from tdleaf.play.ladder.scale import bend_elo

HERE = Path(__file__).resolve().parent
OUT = HERE / "bends.json"


def recorded_depth(variant: str) -> tuple[float, int]:
    """The opponent's mean recorded depth over the sampled batches, and its moves."""
    folders, batches, _ = rungs(variant)
    found = [d for folder in folders for b in batches for _, game in games(folder, b, b)
             for by_tdleaf, _, d in scored_moves(game) if not by_tdleaf]
    return statistics.mean(found), len(found)


def main() -> None:
    out = {}
    print("# Where the opponent's scale bends\n\nFairy-Stockfish picks its move at depth 1 + "
          "level, so above the UCI_Elo whose level is its search's depth less one its "
          "settings pick from the same finished search (`scale.bend_elo`). The depth: its "
          "mean over the positions opponent_nodes.py calibrates the node limit on (the "
          "depth recorded in opponent-nodes.md). The shipped range as the shipped ladder "
          "gives it now: a variant whose scale was measured flat above the bend ends it "
          "there (plan.py's `bend`). Made by:\n\n```\npython runs/strength/bends.py > "
          "runs/strength/bends.md\n```\n")
    print("| variant | moves | opponent's mean depth | the bend (UCI_Elo) | shipped range |\n"
          "|---|---|---|---|---|")
    for variant in VARIANTS:
        depth, moves = recorded_depth(variant)
        depth = round(depth, 2)
        bend = bend_elo(depth)
        out[variant] = {"depth": depth, "bend": round(bend)}
        lo, hi = strength.elo_range(variant)
        print(f"| {variant} | {moves} | {depth:.2f} | {bend:.0f} | {lo}-{hi} |")
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
