"""Issue 63's check (item 5) as a table: each match in runs/strength/check/ (tdleaf at
UCI_Elo E against Fairy-Stockfish at UCI_Elo E, 0.1 s a move or, where its command.sh
says so, the opponent at its variant's node limit, 100 games), with the limit
the shipped ladder plays at E, the score, the Elo difference with its 95% interval from
game pairs, whether the target holds (the interval includes 0 and lies within +-100),
the chance that it would hold were the ladder right (see :func:`chance`) and each side's
mean time a move.

    python runs/strength/report.py [--check runs/strength/check] [--write]

The markdown goes to stdout; ``--write`` puts it between the ``<!-- report: ... -->`` and
``<!-- end report -->`` lines of docs/matches.md and BENCHMARKS.md (tests/test_ladder.py
checks that they hold it).
"""

import argparse
import json
import math
import re
from pathlib import Path
from statistics import NormalDist

from search import strength

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
QUOTED = [ROOT / "docs" / "matches.md", ROOT / "BENCHMARKS.md"]
BLOCK = re.compile(r"(<!-- report: python runs/strength/report.py -->\n).*?(<!-- end report -->)",
                   re.DOTALL)


def played(variant: str, elo: int, folder: Path | None = None) -> dict[str, int]:
    """The limit a check played, ``{"nodes": 2941}``: the one its folder's limit.json
    records (plan.py writes it), else what the shipped ladder plays at ``elo`` now."""
    recorded = folder / "limit.json" if folder is not None else None
    if recorded is not None and recorded.exists():
        return dict(json.loads(recorded.read_text())["limit"])
    return strength.limits_for_elo(variant, elo)


def limit(variant: str, elo: int, folder: Path | None = None) -> str:
    """:func:`played` as ``nodes 2,941`` or ``depth 3``."""
    kind, value = next(iter(played(variant, elo, folder).items()))
    return f"{kind} {value:,}"


def half_width(summary: dict) -> float:
    """Half the width of a check's 95% interval (game pairs)."""
    lo, hi = summary["elo_pentanomial_ci"]
    return (hi - lo) / 2


def fit_sd(variant: str, folder: Path, elo: int) -> float | None:
    """The standard error of the node curve's rating of the budget a check played
    (NodeFit.interval), None where no curve chose it."""
    fit = strength.node_fit(variant)
    nodes = played(variant, elo, folder).get("nodes")
    bounds = fit.interval(nodes) if fit is not None and nodes is not None else None
    return None if bounds is None else (bounds[1] - bounds[0]) / 2 / 1.96


def chance(half: float, curve_sd: float | None) -> float | None:
    """The chance that a check whose 95% interval is +-``half`` meets the target were the
    ladder right on average: its Elo difference then falls about 0 with the check's own
    error and the curve's at the budget played (``curve_sd``, :func:`fit_sd`), and the
    target holds where it lies within +-``half`` (the interval includes 0) and within
    +-(100 - ``half``) (it lies within +-100). None where no node curve chose the budget.
    Even an exact curve leaves a 100-game check about 0.8."""
    if curve_sd is None:
        return None
    sd = math.hypot(half / 1.96, curve_sd)
    return max(0.0, 2 * NormalDist().cdf(min(half, 100 - half) / sd) - 1)


def checks(folder: Path) -> list[tuple[Path, dict, int]]:
    """Each check's folder, summary and UCI_Elo, by variant and setting."""
    found = []
    for summary in sorted(folder.glob("*/summary.json"),
                          key=lambda p: (p.parent.name.rsplit("-", 1)[0],
                                         int(p.parent.name.rsplit("-", 1)[1]))):
        found.append((summary.parent, json.loads(summary.read_text()),
                      int(summary.parent.name.rsplit("-", 1)[1])))
    return found


def met(summary: dict) -> bool:
    """The issue's target: the 95% interval includes 0 and lies within +-100."""
    lo, hi = summary["elo_pentanomial_ci"]
    return bool(lo <= 0 <= hi and -100 <= lo and hi <= 100)


def lean(found: list[tuple[Path, dict, int]]) -> tuple[float, float] | None:
    """How far tdleaf plays from the request over all checks, with its 95% half-width:
    each variant's checks averaged, their error from the checks' own and, in full, the
    mean of their curve's (which a variant's checks share), then the variants weighted
    by their variances; the checks that no curve chose are left out. None where none
    was."""
    by_variant: dict[str, list[tuple[float, float, float]]] = {}
    for folder, s, elo in found:
        sd = fit_sd(s["variant"], folder, elo)
        if sd is None:
            continue
        by_variant.setdefault(s["variant"], []).append(
            (s["elo_pentanomial"], half_width(s) / 1.96, sd))
    means = []
    for xs in by_variant.values():
        n = len(xs)
        var = sum(own ** 2 for _, own, _ in xs) / n ** 2 + (sum(f for *_, f in xs) / n) ** 2
        means.append((sum(x for x, _, _ in xs) / n, var))
    if not means:
        return None
    weight = sum(1 / var for _, var in means)
    return sum(m / var for m, var in means) / weight, 1.96 / math.sqrt(weight)


def verdict(folder: Path) -> str:
    """All checks together: how many meet the target against how many would were the
    ladder right (the sum of their chances), and how far tdleaf plays from the request
    (:func:`lean`)."""
    found = checks(folder)
    if not found:
        return "No check played yet.\n"
    chances = [chance(half_width(s), fit_sd(s["variant"], where, elo))
               for where, s, elo in found]
    curved = [(c, s) for c, (_, s, _) in zip(chances, found) if c is not None]
    text = f"{sum(met(s) for _, s, _ in found)} of {len(found)} checks meet the target"
    if len(curved) < len(found):       # a nearest rung's check has no chance computed
        text += (f"; of the {len(curved)} a node curve chose, {sum(met(s) for _, s in curved)}"
                 f" meet it")
    text += (f"; {sum(c for c, _ in curved):.1f} would be expected were the ladder right "
             f"(the sum of their chances).")
    together = lean(found)
    if together is not None:
        mean, half = together
        over = f"Over those {len(curved)}" if len(curved) < len(found) else "Together"
        text += (f" {over} tdleaf plays {mean:+.0f} [{mean - half:+.0f}, "
                 f"{mean + half:+.0f}] Elo from the request (each variant's checks "
                 f"averaged, the error from theirs and their curve's, the variants "
                 f"weighted by it; 95%).")
    return text + "\n"


def rows(folder: Path) -> list[str]:
    out = []
    for where, s, elo in checks(folder):
        lo, hi = s["elo_pentanomial_ci"]
        diff = s["elo_pentanomial"] + 0.0          # no "-0"
        p = chance(half_width(s), fit_sd(s["variant"], where, elo))
        tpm = s["time_per_move"]
        out.append(
            f"| {s['variant']} | {elo} | {limit(s['variant'], elo, where)} | {s['games']} | "
            f"+{s['wins']} -{s['losses']} ={s['draws']} | {100 * s['score']:.1f}% | "
            f"{diff:+.0f} [{lo:+.0f}, {hi:+.0f}] | {'yes' if met(s) else 'no'} | "
            f"{'-' if p is None else f'{p:.2f}'} | {tpm['a']:.3f} s / {tpm['b']:.3f} s |")
    return out


def table(folder: Path = HERE / "check") -> str:
    """The markdown table, a line a match, and the verdict under it."""
    header = ("| variant | UCI_Elo | tdleaf plays | games | +W -L =D | score | "
              "Elo difference [95%, game pairs] | target met | its chance, were the ladder "
              "right | time a move, tdleaf / FSF |")
    return "\n".join([header, "|---|---|---|---|---|---|---|---|---|---|",
                      *rows(folder)]) + "\n\n" + verdict(folder)


def quoted(path: Path) -> str:
    """The table as ``path`` quotes it."""
    found = BLOCK.search(path.read_text())
    assert found, f"{path}: no report block"
    return found.group(0)[len(found.group(1)):-len(found.group(2))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", default=str(HERE / "check"),
                        help="the folder of check matches (default: %(default)s)")
    parser.add_argument("--write", action="store_true",
                        help="update the tables in docs/matches.md and BENCHMARKS.md")
    args = parser.parse_args()
    text = table(Path(args.check))
    print(text, end="")
    for path in QUOTED if args.write else []:
        path.write_text(BLOCK.sub(lambda m: m.group(1) + text + m.group(2), path.read_text()))


if __name__ == "__main__":
    main()
