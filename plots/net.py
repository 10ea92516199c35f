"""The learning curves of a network's training folder (``tdleaf net train``): its
``history.csv`` drawn against the positions seen, with the CPU hours they took.

>>> import plots.net
>>> plots.net.plot_net("runs/net/pilot-atomic")   # doctest: +SKIP
[PosixPath('runs/net/pilot-atomic/figures/net-curves.png')]
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from .runfolder import PlotError

#: (column, title) of each panel; the training loss shares the first.
PANELS = (("val_policy_loss", "policy loss (held out; training dotted)"),
          ("val_top1", "top-1 against the teacher's move (held out)"),
          ("val_value_mse", "value squared error (held out)"))


def read_history(net_dir: str | os.PathLike[str]) -> list[dict[str, float]]:
    path = Path(net_dir) / "history.csv"
    try:
        with open(path) as fh:
            rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(fh)]
    except (OSError, ValueError, KeyError) as exc:
        raise PlotError(f"{path}: not a network's training history ({exc})") from None
    if not rows or "val_top1" not in rows[0]:
        raise PlotError(f"{path}: not a network's training history (no epochs)")
    return rows


def plot_net(net_dir: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
             fmt: str = "png") -> list[Path]:
    """Draw ``net-curves.<fmt>`` (in ``out``, default the folder's ``figures/``) and
    return it in a list."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .api import FORMATS, _save

    if fmt not in FORMATS:
        raise PlotError(f"unknown figure format {fmt!r}; expected one of {', '.join(FORMATS)}")
    rows = read_history(net_dir)
    seen = [r["positions_seen"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), dpi=100)
    for ax, (key, title) in zip(axes, PANELS):
        ax.plot(seen, [r[key] for r in rows], marker="o", color="C0", label="held out")
        if key == "val_policy_loss":
            # The training loss holds the value term too: only its trend compares.
            ax.plot(seen, [r["train_loss"] for r in rows], ls=":", color="C1",
                    label="training (policy + value)")
            ax.legend(fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("positions seen")
        ax.grid(alpha=0.3)
    hours = rows[-1]["cpu_seconds"] / 3600
    fig.suptitle(f"{Path(net_dir).name}: {len(rows)} epochs, {int(seen[-1]):,} positions seen, "
                 f"{hours:.2f} CPU hours", fontsize=10)
    fig.tight_layout()
    out_dir = Path(out) if out is not None else Path(net_dir) / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"net-curves.{fmt}"
    _save(fig, path, fmt, "network learning curves")
    plt.close(fig)
    return [path]


def plot_scaling(points: list[dict[str, float]], baselines: dict[str, float],
                 path: str | os.PathLike[str], title: str) -> Path:
    """Draw networks' top-1 on labelled positions against the positions they trained on
    and the CPU hours they cost (data and training): ``points`` hold ``positions``,
    ``cpu_hours`` and ``top1``; ``baselines`` are horizontal lines (name: top-1)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .api import _save

    if not points:
        raise PlotError("no networks to draw")
    points = sorted(points, key=lambda p: p["positions"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), dpi=100)
    for ax, key, label in ((axes[0], "positions", "positions trained on"),
                           (axes[1], "cpu_hours", "CPU hours (data and training)")):
        ax.plot([p[key] for p in points], [100 * p["top1"] for p in points], marker="o",
                color="C0", label="network")
        for i, (name, top1) in enumerate(baselines.items()):
            ax.axhline(100 * top1, ls="--", color=f"C{i + 1}", label=name)
        ax.set_xscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("top-1 (%)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(fig, out, out.suffix.lstrip(".") or "png", "network scaling")
    plt.close(fig)
    return out
