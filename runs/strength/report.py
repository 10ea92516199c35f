"""Issue 63's check (item 5) as a table: each match in runs/strength/check/ (tdleaf at
UCI_Elo E against Fairy-Stockfish at UCI_Elo E, 0.1 s a move or, where its command.sh
says so, the opponent at its variant's node limit, 100 games), with the limit
the shipped ladder plays at E, the score, the Elo difference with its 95% interval from
game pairs, whether the target holds (the interval includes 0 and lies within +-100),
the chance that it would hold were the ladder right (see :func:`chance`) and each side's
mean time a move.

    python runs/strength/report.py [--check runs/strength/check | --pooled] [--write]

``--check runs/strength/check-again`` gives the checks played again from new openings
(plan.py's ``check-again``), ``--pooled`` each of those pooled with the check of the same
setting played before against the opponent at its node limit (:func:`earlier`).

The markdown goes to stdout; ``--write`` puts it between the ``<!-- report: ... -->``
line that names the same command and the next ``<!-- end report -->`` line in
docs/matches.md and BENCHMARKS.md (tests/test_ladder.py checks that they hold it).
"""

import argparse
import json
import math
import re
from pathlib import Path
from statistics import NormalDist

from search.protocol import strength
from tdleaf.play import stats

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
QUOTED = [ROOT / "docs" / "matches.md", ROOT / "BENCHMARKS.md"]
COMMAND = "python runs/strength/report.py"
#: The checks played again (plan.py's ``check-again``).
AGAIN = HERE / "check-again"


def block(options: str = "") -> re.Pattern[str]:
    """The quoted report that ``COMMAND options`` writes, between its two marks."""
    command = " ".join(filter(None, [COMMAND, options]))
    return re.compile(rf"(<!-- report: {re.escape(command)} -->\n).*?(<!-- end report -->)",
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


def verdict(found: list[tuple[Path, dict, int]]) -> str:
    """All checks together: how many meet the target against how many would were the
    ladder right (the sum of their chances), and how far tdleaf plays from the request
    (:func:`lean`)."""
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


def earlier(variant: str, elo: int, again: Path | None = None) -> Path | None:
    """The check of the same setting played before against the opponent at its node
    limit, tdleaf at the limit it played again (``again``'s limit.json; by default
    check-again's): in check-nodes/, else in check/ where its command gave the opponent
    a node limit; None where there is none (racing kings at 1950 was played at 0.1 s
    only, and a ladder measured again plays other limits)."""
    limit = played(variant, elo, again or AGAIN / f"{variant}-{elo}")
    for kind in ("check-nodes", "check"):
        folder = HERE / kind / f"{variant}-{elo}"
        if ((folder / "summary.json").exists() and played(variant, elo, folder) == limit
                and "B.nodes=" in (folder / "command.sh").read_text()):
            return folder
    return None


def pooled(first: dict, again: dict) -> dict:
    """Two checks of one setting as one: their games and game pairs added, the Elo
    difference from the pairs (the summary's keys that :func:`pooled_table` and
    :func:`verdict` read)."""
    pairs = [a + b for a, b in zip(first["pentanomial"], again["pentanomial"], strict=True)]
    est = stats.elo_pentanomial(pairs)
    return {"variant": again["variant"], "pentanomial": pairs,
            **{key: first[key] + again[key] for key in ("games", "wins", "losses", "draws")},
            "elo_pentanomial": est.elo, "elo_pentanomial_ci": [est.low, est.high]}


def pooled_checks(folder: Path = AGAIN) -> list[tuple[Path, dict, int, dict, dict | None]]:
    """Each check played again, pooled with :func:`earlier`'s where there is one: its
    folder, the pooled summary (the new one alone where none), its UCI_Elo, the new
    summary and the earlier one."""
    out = []
    for where, again, elo in checks(folder):
        before = earlier(again["variant"], elo, where)
        first = json.loads((before / "summary.json").read_text()) if before else None
        out.append((where, pooled(first, again) if first else again, elo, again, first))
    return out


def pooled_table(folder: Path = AGAIN) -> str:
    """The checks played again, each beside the earlier one and pooled with it, and
    the verdict over the pooled ones; a pooled setting whose interval excludes 0 is a
    real miss (plan.py's ``check-again``)."""
    found = pooled_checks(folder)
    header = ("| variant | UCI_Elo | tdleaf plays | before | again | games | +W -L =D | "
              "Elo difference [95%, game pairs] | target met | its chance, were the "
              "ladder right | a real miss |")
    lines = [header, "|---|---|---|---|---|---|---|---|---|---|---|"]
    for where, s, elo, again, first in found:
        lo, hi = s["elo_pentanomial_ci"]
        p = chance(half_width(s), fit_sd(s["variant"], where, elo))
        before = "-" if first is None else f"{first['elo_pentanomial'] + 0.0:+.0f}"
        lines.append(
            f"| {s['variant']} | {elo} | {limit(s['variant'], elo, where)} | {before} | "
            f"{again['elo_pentanomial'] + 0.0:+.0f} | {s['games']} | "
            f"+{s['wins']} -{s['losses']} ={s['draws']} | "
            f"{s['elo_pentanomial'] + 0.0:+.0f} [{lo:+.0f}, {hi:+.0f}] | "
            f"{'yes' if met(s) else 'no'} | {'-' if p is None else f'{p:.2f}'} | "
            f"{'yes' if not lo <= 0 <= hi else 'no'} |")
    return "\n".join(lines) + "\n\n" + verdict([(w, s, e) for w, s, e, *_ in found])


def table(folder: Path = HERE / "check") -> str:
    """The markdown table, a line a match, and the verdict under it."""
    header = ("| variant | UCI_Elo | tdleaf plays | games | +W -L =D | score | "
              "Elo difference [95%, game pairs] | target met | its chance, were the ladder "
              "right | time a move, tdleaf / FSF |")
    return "\n".join([header, "|---|---|---|---|---|---|---|---|---|---|",
                      *rows(folder)]) + "\n\n" + verdict(checks(folder))


def quoted(path: Path, options: str = "") -> str | None:
    """The report of ``COMMAND options`` as ``path`` quotes it (None: not quoted there)."""
    found = block(options).search(path.read_text())
    return found.group(0)[len(found.group(1)):-len(found.group(2))] if found else None


def quoted_options(path: Path) -> list[str]:
    """The options of every report ``path`` quotes."""
    return [m.group(1).strip() for m in re.finditer(
        rf"<!-- report: {re.escape(COMMAND)}(.*?) -->", path.read_text())]


def report(options: str = "") -> str:
    """What ``COMMAND options`` prints: ``""``, ``--check FOLDER`` or ``--pooled``."""
    return main_text(parser().parse_args(options.split()))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", help="a folder of check matches (default: runs/strength/check)")
    p.add_argument("--pooled", action="store_true",
                   help="the checks played again, each pooled with the earlier one")
    p.add_argument("--write", action="store_true",
                   help="update the report's quotes in docs/matches.md and BENCHMARKS.md")
    return p


def options_of(args: argparse.Namespace) -> str:
    """The options that name the report, as its quotes name it."""
    if args.pooled:
        return "--pooled"
    return f"--check {args.check}" if args.check else ""


def main_text(args: argparse.Namespace) -> str:
    """The report the options ask for."""
    if args.pooled:
        return pooled_table()
    return table(ROOT / args.check if args.check else HERE / "check")


def main() -> None:
    args = parser().parse_args()
    text = main_text(args)
    print(text, end="")
    pattern = block(options_of(args))
    for path in QUOTED if args.write else []:
        path.write_text(pattern.sub(lambda m: m.group(1) + text + m.group(2), path.read_text()))


if __name__ == "__main__":
    main()
