"""The shapes tried for rating against node budget through a variant's node rungs in the
candidate ladder (issue 63, RESULTS.md, "Strength on request"), checked against the
held-out rungs:

    python runs/strength/shapes.py [VARIANT]   # > runs/strength/shapes-crazyhouse.txt
    python runs/strength/shapes.py --bends     # > runs/strength/shapes-bends.txt

A straight line and a hinge, ``elo = a + b * max(log2(nodes), knee)``, by games-weighted
least squares (what search.protocol.strength served until the curve replaced it: kept here as
the record of those results), the curve search.protocol.strength serves now (its ``node_fit``:
the rungs' isotonic regression joined by straight lines in log2 nodes), and a smooth
monotone cubic (PCHIP) through the same pooled ratings.

``VARIANT``: the line and the hinge against the held-out rungs and the node budgets the
candidate checks played. ``--bends``: the hinge, the curve and the cubic for every
variant with held-out rungs: each one's misses of the held-out rungs, of every rung
between the ends left out in turn from all nine (seven node rungs and two held-out),
and of the ratings the checks measured at the budgets they played (the hinge's checks
and the curve's).
"""

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from search.protocol import strength

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "runs/strength/ladder.json"

Point = tuple[float, float, float]         # log2 nodes, rating, games

#: The knees tried, in doublings of the nodes; the rungs a hinge's rise keeps at least.
KNEE_STEP = 0.05
MIN_RISING = 3
#: A knee is kept only where it brings the rungs' spread about the fit below this share
#: of their spread about the straight line.
KNEE_GAIN = 2 / 3


@dataclass(frozen=True)
class Hinge:
    intercept: float
    slope: float            # Elo per doubling above the knee
    knee: float             # log2 nodes where the rise starts
    residual_sd: float

    def elo(self, nodes: float) -> float:
        return self.intercept + self.slope * max(math.log2(nodes), self.knee)

    @property
    def floor(self) -> float:
        return self.intercept + self.slope * self.knee

    def nodes(self, elo: float, hi: float) -> int:
        """The budget the hinge rates ``elo``, within [its knee, ``hi``] (as served)."""
        lo = 2.0 ** self.knee
        return round(min(max(2.0 ** ((elo - self.intercept) / self.slope), lo), hi))


def _line(xs: list[float], ys: list[float], ws: list[float]
          ) -> tuple[float, float, float] | None:
    """(intercept, slope, weighted mean squared residual), None where x does not vary."""
    sw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs)) / sw
    my = sum(w * y for w, y in zip(ws, ys)) / sw
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs))
    if sxx <= 1e-12:
        return None
    slope = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys)) / sxx
    intercept = my - slope * mx
    return intercept, slope, sum(w * (y - intercept - slope * x) ** 2
                                 for w, x, y in zip(ws, xs, ys)) / sw


def hinge_fit(points: Sequence[Point], hinge: bool = True) -> Hinge:
    """The hinge of least squares (a knee on a :data:`KNEE_STEP` grid, kept only where it
    earns its place, :data:`KNEE_GAIN`); ``hinge=False``: the straight line."""
    xs, ys, ws = ([p[i] for p in points] for i in range(3))
    straight = _line(xs, ys, ws)
    assert straight is not None
    best = (straight[2], straight[0], straight[1], min(xs))
    steps = int((sorted(xs)[-MIN_RISING] - min(xs)) / KNEE_STEP + 1e-9) if hinge else 0
    kneed = None
    for step in range(1, steps + 1):
        knee = min(xs) + step * KNEE_STEP
        line = _line([max(x, knee) for x in xs], ys, ws)
        if line is not None and line[1] > 0 and (kneed is None or line[2] < kneed[0] - 1e-9):
            kneed = (line[2], line[0], line[1], knee)
    if kneed is not None and math.sqrt(kneed[0]) < KNEE_GAIN * math.sqrt(straight[2]):
        best = kneed
    msr, intercept, slope, knee = best
    return Hinge(intercept, slope, knee, math.sqrt(msr))


def hinge(points: Sequence[Point], x: float) -> float:
    """The hinge's rating at log2 budget ``x``."""
    return hinge_fit(points).elo(2 ** x)


def monotone(points: Sequence[Point], x: float) -> float:
    """search.protocol.strength's curve's rating at log2 budget ``x`` (clamped to the ends)."""
    return curve(points).elo(2 ** x)


def rungs_of(variant: str) -> tuple[list[Point], list[Point]]:
    """The variant's node rungs in the candidate ladder, and its (first) held-out rungs,
    which are left out of the rungs where they have joined the curve (plan.py's
    ``again``)."""
    held = json.loads((ROOT / f"runs/ladders/{variant}-nodes-holdout/ladder.json").read_text())
    out = [(math.log2(r["level"]["nodes"]), r["elo"], r["games"])
           for lad in held["ladders"] for r in lad["rungs"]]
    joined = {x for x, *_ in out}
    entries = json.loads(LADDER.read_text())["variants"][variant]
    return [(x, e["elo"], e["games"]) for e in entries if "nodes" in e["level"]
            if (x := math.log2(e["level"]["nodes"])) not in joined], out


def bends() -> None:
    """The hinge against the curve: held-out and left-out misses."""
    fits: dict[str, Callable[[Sequence[Point], float], float]] = {
        "hinge": hinge, "monotone": monotone, "pchip": pchip}
    missed: dict[str, dict[str, list[float]]] = {f: {"held": [], "left": []} for f in fits}
    for variant in json.loads(LADDER.read_text())["variants"]:
        if not (ROOT / f"runs/ladders/{variant}-nodes-holdout/ladder.json").exists():
            continue
        rungs, held = rungs_of(variant)
        every = sorted(rungs + held)
        for name, f in fits.items():
            ho = [y - f(rungs, x) for x, y, _ in held]
            left = [every[i][1] - f(every[:i] + every[i + 1:], every[i][0])
                    for i in range(1, len(every) - 1)]
            missed[name]["held"] += ho
            missed[name]["left"] += left
            print(f"{variant:14} {name:8} held-out {' '.join(f'{d:+4.0f}' for d in ho)}; "
                  f"left out {' '.join(f'{d:+4.0f}' for d in left)}")
    for name, m in missed.items():
        for what, ds in m.items():
            rms = math.sqrt(sum(d * d for d in ds) / len(ds))
            print(f"{name:8} {what:4}: {len(ds)} rungs, rms {rms:.0f}, largest "
                  f"{max(map(abs, ds)):.0f}, {sum(abs(d) > 50 for d in ds)} beyond 50")
    checks(fits)


def curve(points: Sequence[Point]) -> strength.NodeFit:
    fit = strength.fit_rungs(tuple(sorted((round(2 ** p[0]), p[1], p[2], None)
                                          for p in points)))
    assert fit is not None
    return fit


def pchip(points: Sequence[Point], x: float) -> float:
    """A smooth monotone cubic (PCHIP) through the curve's pooled ratings, at ``x``."""
    from scipy.interpolate import PchipInterpolator

    fit = curve(points)
    xs = [math.log2(n) for n in fit.budgets]
    return float(PchipInterpolator(xs, fit.ratings)(min(max(x, xs[0]), xs[-1])))


def checks(fits: dict[str, Callable[[Sequence[Point], float], float]]) -> None:
    """The checks, the hinge's (runs/strength/check-hinge) and the curve's
    (runs/strength/check): the budget each played, its rating measured there (the
    request plus the Elo difference against Fairy-Stockfish at it), and each shape's
    rating of that budget, fitted on the node rungs alone."""
    for folder, served in (("check-hinge", "hinge"), ("check", "monotone")):
        missed: dict[str, list[float]] = {name: [] for name in fits}
        for summary in sorted((ROOT / "runs/strength" / folder).glob("*/summary.json")):
            variant, elo = summary.parent.name.rsplit("-", 1)
            rungs, _ = rungs_of(variant)
            n = (hinge_fit(rungs).nodes(int(elo), 2 ** max(x for x, _, _ in rungs))
                 if served == "hinge" else curve(rungs).nodes(int(elo)))
            measured = int(elo) + json.loads(summary.read_text())["elo_pentanomial"]
            rated = {name: f(rungs, math.log2(n)) for name, f in fits.items()}
            for name, r in rated.items():
                missed[name].append(measured - r)
            print(f"{folder:11} {variant:10} {elo} at {n:6} nodes: measured {measured:.0f}; "
                  + ", ".join(f"{name} {r:.0f} ({measured - r:+.0f})"
                              for name, r in rated.items()))
        for name, ds in missed.items():
            rms = math.sqrt(sum(d * d for d in ds) / len(ds))
            print(f"{folder:11} {name:8}: {len(ds)} checks, rms {rms:.0f}, "
                  f"mean {sum(ds) / len(ds):+.0f}")


def main() -> None:
    if sys.argv[1:] == ["--bends"]:
        bends()
        return
    variant = sys.argv[1] if len(sys.argv) > 1 else "crazyhouse"
    rungs, held = rungs_of(variant)
    line, fit = hinge_fit(rungs, hinge=False), hinge_fit(rungs)
    h = fit.elo
    hi = 2 ** max(x for x, _, _ in rungs)
    print(f"{variant}: {len(rungs)} node rungs")
    print(f"line: {line.slope:.1f} Elo a doubling, rungs +-{line.residual_sd:.0f} about it")
    print(f"hinge: {fit.slope:.1f} Elo a doubling above 2^{fit.knee:.2f} nodes, "
          f"{fit.floor:.0f} below; rungs +-{fit.residual_sd:.0f} about it; "
          f"range {fit.floor:.0f}..{h(hi):.0f}")
    for x, y, _ in held:
        n = round(2 ** x)
        print(f"held-out {n} nodes {y:.0f}: line {line.elo(n):.0f} "
              f"({y - line.elo(n):+.0f}), hinge {h(n):.0f} ({y - h(n):+.0f})")
    # The candidate checks: the budget each played (the line of their day) and its rating,
    # the request plus the Elo difference measured against Fairy-Stockfish at it.
    for n, elo in ((192, 1450), (2815, 1650), (41285, 1850)):
        folder = ROOT / f"runs/strength/check-candidate/{variant}-{elo}"
        if folder.exists():
            rated = elo + json.loads((folder / "summary.json").read_text())["elo"]
            print(f"check at {elo}, {n} nodes: rated {rated:.0f}; line {line.elo(n):.0f}, "
                  f"hinge {h(n):.0f}")


if __name__ == "__main__":
    main()
