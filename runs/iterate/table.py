"""The generations of expert iteration's loops as a markdown table, from their loop.json
(what RESULTS.md and runs/iterate/README.md quote), and the loops' figure. Run from the
repository root:

    python runs/iterate/table.py runs/iterate/atomic-prior runs/iterate/atomic-net
"""

from __future__ import annotations

import sys
from pathlib import Path

from plots.iterate import LEARNING_STEPS, plot_loops, read_loop


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _match(m: dict | None) -> str:
    if not m or m.get("score") is None:
        return "-"
    elo, ci = m.get("elo"), m.get("elo_ci")
    tail = "" if elo is None or not ci else f" ({elo:+.0f} [{ci[0]:+.0f}, {ci[1]:+.0f}])"
    return f"{_pct(m['score'])}{tail}"


def table(folder: str) -> str:
    state = read_loop(folder)
    lines = [f"{Path(folder).name} (from {state['config']['start']}):", "",
             ("| gen | guide | positions | raw top-1 | its MCTS top-1 | gate | anchor | "
              "shipped | CPU-h (learning; with the anchor's) |"),
             "|---|---|---|---|---|---|---|---|---|"]
    learning = total = 0.0
    total += (state.get("start_anchor") or {}).get("cpu_seconds", 0.0)
    for rec in state["generations"]:
        if "anchor" not in rec:
            break
        learning += sum(rec[s]["cpu_seconds"] for s in LEARNING_STEPS)
        total += sum(rec[s].get("cpu_seconds", 0.0) for s in (*LEARNING_STEPS, "anchor"))
        ev = rec["eval"]
        lines.append(
            f"| {rec['generation']} | {rec['guide']} | {rec['selfplay']['positions']:,} | "
            f"{_pct(ev['top1'])} | {_pct(ev['search_top1'])} | {_match(rec['gate'])} | "
            f"{_match(rec['anchor'])} | {'yes' if rec['shipped'] else 'no'} | "
            f"{learning / 3600:.2f}, {total / 3600:.2f} |")
    return "\n".join(lines)


def main(folders: list[str]) -> None:
    for folder in folders:
        print(table(folder), end="\n\n")
    for f in plot_loops(folders, "runs/iterate/figures", title="expert iteration, atomic"):
        print(f"wrote {f}")


if __name__ == "__main__":
    main(sys.argv[1:])
