"""``tdleaf bench selective``: what each selective technique is worth, measured as engine
developers do: the search with the technique against the search without it, at equal
time per move, from random openings played with both colours, stopped by an SPRT (or a
game cap), reported as Elo with its 95% interval; plus the nodes each version needs to
reach depth 5 on eight positions (12 random plies from the start, seeds 0-7).

Techniques are added one at a time in a fixed order, each measured against the version
before it; a technique not measured to help (neither an SPRT that accepts H1 nor, when
the game cap comes first, an Elo interval above 0) is left out of the versions that
follow, so the last version is the set worth keeping. With ``ablate``, each technique is
instead taken out of the full selective set (every technique) and that set is measured
against the one without it: what the technique is worth among all the others.
Every match is a PGN in ``--out``; the same command with ``--resume`` carries on where
it stopped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.files import write_json
from tdleaf.backend import Backend
from variants.spec import get as spec


def techniques() -> list[tuple[str, int]]:
    """(name, flag bit) of every technique, in the order they are added."""
    from search.alphabeta import negamax as ab
    from search.alphabeta.engine import F_ASPIRATION
    return [("aspiration windows", F_ASPIRATION), ("null move", ab.F_NULL_MOVE),
            ("late-move reductions", ab.F_LMR), ("futility", ab.F_FUTILITY),
            ("reverse futility", ab.F_REVERSE_FUTILITY), ("razoring", ab.F_RAZOR),
            ("check extensions", ab.F_CHECK_EXT), ("SEE pruning in quiescence", ab.F_QSEE),
            ("SEE move ordering", ab.F_SEE_ORDER),
            ("bounded suicide quiescence", ab.F_SUICIDE_QBOUND),
            ("only-move extension", ab.F_ONLY_MOVE),
            ("forced-capture extension", ab.F_FORCED_EXT),
            ("forcing move ordering", ab.F_FORCING_ORDER),
            ("offers never reduced", ab.F_KEEP_OFFERS)]


def applies(name: str, variant: str) -> bool:
    """Whether a technique does anything in a variant (the search switches some off)."""
    rules = spec(variant)
    if name in ("null move", "futility", "reverse futility", "razoring",
                "SEE pruning in quiescence", "SEE move ordering"):
        return not rules.losing
    if name == "check extensions":       # where a check matters and no drop answers it
        return not (rules.losing or rules.pockets)
    if name == "bounded suicide quiescence":
        return rules.losing
    if name in ("only-move extension", "forced-capture extension", "forcing move ordering",
                "offers never reduced"):
        return rules.must_capture      # forced captures make narrow, forced lines common
    return True


def bench_positions(variant: str, n: int = 8, plies: int = 12) -> list[str]:
    """``n`` positions after ``plies`` random moves from the start (seeds 0..n-1)."""
    from variants import Position
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        pos = Position.start(variant)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push_uci(rng.choice(moves))
        out.append(pos.fen())
    return out


def nodes_to_depth(variant: str, flags: int, depth: int = 5) -> dict[str, float]:
    """Total nodes and seconds to reach ``depth`` on :func:`bench_positions`."""
    from search import Engine
    engine = Engine(variant, "traditional", hash_mb=64, flags=flags)
    nodes, t0 = 0, time.perf_counter()
    for fen in bench_positions(variant):
        engine.new_game()
        nodes += engine.search(fen, depth=depth, leaf=False).nodes
    return {"nodes": nodes, "seconds": time.perf_counter() - t0}


@dataclass
class Step:
    technique: str
    flags: int           # the version with the technique
    base: int            # the version before it


def run(variant: str, out: Path, *, movetime: float, max_games: int, sprt: str,
        workers: int, resume: bool, random_plies: int = 8, ablate: bool = False,
        only: list[str] | None = None,
        progress: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure every technique that applies to ``variant`` (added one at a time, or with
    ``ablate`` each taken out of the full set), or those named in ``only``; returns (and
    writes to ``out/report.json``) the table."""
    from tdleaf.play import stats
    from tdleaf.play.match import MatchConfig, PlayerConfig, run_match

    out.mkdir(parents=True, exist_ok=True)
    report_path = out / "report.json"
    rows: list[dict[str, Any]] = []
    test = stats.Sprt.parse(sprt)

    def write_report() -> dict[str, Any]:
        report = {"variant": variant, "mode": "ablate" if ablate else "add", "movetime": movetime,
                  "max_games": max_games, "sprt": sprt, "rows": rows, "final_flags": flags}
        write_json(report_path, report, indent=2)
        return report

    full = 0                                    # every technique, whatever the variant's set
    for _name, bit in techniques():
        full |= bit
    start = full if ablate else 0
    flags = start                               # the set worth keeping so far
    base_nodes = nodes_to_depth(variant, start)
    label = "full selective set" if ablate else "plain (full width)"
    progress(f"{variant}: {label}, {base_nodes['nodes']:,} nodes to depth 5")
    rows.append({"technique": label, "flags": start, "nodes_depth5": base_nodes["nodes"],
                 "seconds_depth5": base_nodes["seconds"], "kept": True})
    for name, bit in techniques():
        if not applies(name, variant) or (only and name not in only):
            continue
        step = Step(name, full, full & ~bit) if ablate else Step(name, flags | bit, flags)
        pgn = out / f"{variant}-{'without-' if ablate else ''}{name.replace(' ', '-')}.pgn"
        cfg = MatchConfig(variant, PlayerConfig("traditional", {"flags": step.flags, "name": f"with {name}",
                                                                "movetime": movetime}),
                          PlayerConfig("traditional", {"flags": step.base, "name": f"without {name}",
                                                       "movetime": movetime}),
                          games=max_games, random_plies=random_plies, seed=11, sprt=test,
                          backend=Backend(workers=workers), pgn=str(pgn),
                          event=f"tdleaf bench selective: {name}")
        summary = run_match(cfg, resume=resume and pgn.exists())
        data = summary.to_json()
        decision = data["sprt"]["decision"]   # when it was reached (games may follow)
        lo, _hi = data["elo_ci"]
        # Kept only when measured to help: the SPRT accepted H1, or without a decision
        # the whole 95% interval lies above 0.
        kept = decision == "H1" or (decision is None and lo is not None and lo > 0)
        # Nodes of the version the row stands for: with the technique when adding, the
        # full set without it when ablating.
        nodes = nodes_to_depth(variant, step.base if ablate else step.flags)
        row = {"technique": name, "flags": step.flags, "base_flags": step.base,
               "games": data["games"], "wins": data["wins"], "losses": data["losses"],
               "draws": data["draws"], "elo": data["elo"], "elo_ci": data["elo_ci"],
               "elo_pentanomial": data["elo_pentanomial"],
               "elo_pentanomial_ci": data["elo_pentanomial_ci"], "llr": data["sprt"]["llr"],
               "sprt": decision, "kept": kept,
               "nodes_depth5": nodes["nodes"], "seconds_depth5": nodes["seconds"]}
        rows.append(row)
        if ablate and not kept:
            flags &= ~bit
        elif not ablate and kept:
            flags = step.flags
        progress(f"{variant}: {name}: {data['wins']}-{data['losses']}-{data['draws']} in "
                 f"{data['games']} games, Elo {data['elo']} {data['elo_ci']}, SPRT {decision}; "
                 f"{'kept' if kept else 'left out'}; {row['nodes_depth5']:,} nodes to depth 5")
        write_report()
    return write_report()


def format_report(report: dict[str, Any]) -> str:
    ablate = report.get("mode") == "ablate"
    how = ("each technique taken out of the full set (Elo of the full set against it)"
           if ablate else "each technique added to the version above")
    lines = [(f"{report['variant']}: {report['movetime']} s a move, SPRT {report['sprt']}, "
             f"at most {report['max_games']} games a step; {how}"),
             f"| technique | games | W-L-D | Elo (95%) | SPRT | kept | nodes to depth 5{' without it' if ablate else ''} |",
             "|---|---|---|---|---|---|---|"]
    for r in report["rows"]:
        if "games" not in r:
            lines.append(f"| {r['technique']} | - | - | - | - | - | {r['nodes_depth5']:,} |")
            continue
        lo, hi = r["elo_ci"]
        elo = "inf" if r["elo"] is None else f"{r['elo']:+.0f}"
        ci = f"[{'-inf' if lo is None else f'{lo:+.0f}'}, {'+inf' if hi is None else f'{hi:+.0f}'}]"
        lines.append(f"| {r['technique']} | {r['games']} | {r['wins']}-{r['losses']}-{r['draws']} "
                     f"| {elo} {ci} | {r['sprt'] or 'none'} | {'yes' if r['kept'] else 'no'} "
                     f"| {r['nodes_depth5']:,} |")
    return "\n".join(lines)
