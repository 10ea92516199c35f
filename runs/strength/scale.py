"""Issue 63: is Fairy-Stockfish's UCI_Elo scale as steep, against tdleaf, as its nominal
Elo says? A rung's rating comes from games against several settings (the ladder moves
its opponent towards the rating as it goes), each rated by its nominal UCI_Elo. Were the
real spread of those settings narrower or wider than the nominal one, a rung whose games
lie more on one side of its rating would be rated off its 50% point, which is what the
checks play at.

Per variant, from every node rung's games against UCI_Elo settings (negative Skill
Levels left out), the model ``P(tdleaf scores) = 1 / (1 + 10^(k (E - R_rung) / 400))``
is fitted by maximum likelihood with one rating a rung and one ``k`` for all (draws half
a win and half a loss, as the ladder's own fit); ``k = 1`` is the ladder's model. It
prints ``k`` with its 95% likelihood interval and, per rung, the mean setting played
less the rating and how far the rating moves from ``k = 1`` to the fitted ``k``:

    python runs/strength/scale.py VARIANT [VARIANT ...]
"""

import math
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from tdleaf.play.ladder import rung_batches
from tdleaf.play.pgn import parse_games

ROOT = Path(__file__).resolve().parents[2]
LN10 = math.log(10) / 400


def rung_games(folder: Path) -> tuple[list[float], list[float]]:
    """(the setting's nominal Elo, tdleaf's score) of every game of a rung's folder
    against a UCI_Elo setting."""
    elos, scores = [], []
    for batch, text in rung_batches(folder):
        if not batch["setting"].startswith("UCI_Elo"):
            continue
        for game in parse_games(text):
            white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.result)
            if white is not None:
                elos.append(float(batch["elo"]))
                scores.append(white if game.white.startswith("tdleaf") else 1.0 - white)
    return elos, scores


def rating(e: np.ndarray, s: np.ndarray, k: float) -> float:
    """The rating R at which the expected points equal the points scored, under ``k``."""
    def gap(r: float) -> float:
        return float(np.sum(1 / (1 + np.exp(-k * LN10 * (r - e)))) - s.sum())
    return brentq(gap, e.min() - 4000, e.max() + 4000)


def loglik(rungs: list[tuple[np.ndarray, np.ndarray]], k: float) -> float:
    total = 0.0
    for e, s in rungs:
        r = rating(e, s, k)
        p = np.clip(1 / (1 + np.exp(-k * LN10 * (r - e))), 1e-12, 1 - 1e-12)
        total += float(np.sum(s * np.log(p) + (1 - s) * np.log(1 - p)))
    return total


def main() -> None:
    for variant in sys.argv[1:]:
        rungs, names = [], []
        for folder in sorted(ROOT.glob(f"runs/ladders/{variant}-nodes*/*-fairy-stockfish/nodes-*"),
                             key=lambda f: int(f.name.split("-")[1])):
            e, s = map(np.asarray, rung_games(folder))
            if len(s) >= 32 and 0 < s.sum() < len(s):
                rungs.append((e, s))
                names.append(f"{folder.parent.parent.name}/{folder.name}")
        best = minimize_scalar(lambda k, rungs=rungs: -loglik(rungs, k), bounds=(0.2, 3.0),
                               method="bounded")
        k, top = float(best.x), -float(best.fun)
        inside = [x for x in np.arange(0.2, 3.0, 0.01) if 2 * (top - loglik(rungs, x)) <= 3.84]
        print(f"{variant}: {len(rungs)} rungs, {sum(len(s) for _, s in rungs)} games against "
              f"UCI_Elo settings; k = {k:.2f} [{min(inside):.2f}, {max(inside):.2f}] "
              f"(1 = the nominal scale)")
        for name, (e, s) in zip(names, rungs):
            r1, rk = rating(e, s, 1.0), rating(e, s, k)
            print(f"  {name:44} {len(s):4} games: R {r1:6.0f}, mean setting {e.mean() - r1:+5.0f}"
                  f" from it; at k {rk - r1:+4.0f}")


if __name__ == "__main__":
    main()
