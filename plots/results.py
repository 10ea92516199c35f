"""Markdown tables of the shipped experiments beside the report's (``tdleaf results``).

For every variant folder under ``runs/reference`` (``<variant>/material``, the small
experiment, and ``<variant>/psq``, the big one): the values in the report's own
normalisation per variant (the mean over runs of the raw weights, then scaled:
:data:`plots.CONVENTION`), the same rescaled so that a pawn is (-)1 as in the report's
Table 9.1, and the compute each experiment used (from ``history.csv``). Unfinished
folders are tabled from what they hold, and say so.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from variants.normalise import learnt_pieces, scale_factor, typical_size
from variants.spec import VARIANTS

from . import paper
from .runfolder import PIECE_NAMES, VARIANT_TITLES, PlotError, RunData, load_run
from .values import Finals, finals

#: The order of the sections: the report's variants as it orders them, then the others.
ORDER: tuple[str, ...] = (*paper.LEARNT, *(v for v in VARIANTS if v not in paper.LEARNT))
KINDS = ("material", "psq")


@dataclass
class Compute:
    games: int            # games played over all runs
    seconds: float        # their summed wall time (one core each)
    nodes: float          # their summed nodes

    @property
    def hours(self) -> float:
        return self.seconds / 3600


def compute(data: RunData) -> Compute:
    """Games, seconds and nodes of every game in the folder's ``run-NN/history.csv``."""
    games = sum(len(h.games) for h in data.histories)
    seconds = sum(float(np.nansum(h.seconds)) for h in data.histories)
    nodes = sum(float(np.nansum(h.nodes)) for h in data.histories)
    return Compute(games, seconds, nodes)


def _label(key: str) -> str:
    return f"{PIECE_NAMES[key[0]]} in hand" if key.endswith("@hand") else PIECE_NAMES[key]


def _pm(mean: float | None, sd: float | None = None) -> str:
    if mean is None or math.isnan(mean):
        return "-"
    return f"{mean:.2f}" if sd is None or math.isnan(sd) else f"{mean:.2f} \u00b1 {sd:.2f}"


def _series(f: Finals | None, kind: str) -> tuple[dict[str, float], dict[str, float]]:
    """The normalised values of one series (none where they could not be normalised)."""
    for s in (f.series if f else []):
        if s.style == kind and s.normalised:
            return s.mean, s.std
    return {}, {}


def _pawn_one(values: dict[str, float], losing: bool) -> dict[str, float]:
    """``values`` rescaled so that the pawn is 1 (-1 in the losing variants); none where
    that needs a negative factor or the pawn is near 0 (:mod:`variants.normalise`)."""
    p = values.get("P")
    if p is None or math.isnan(p):
        return {}
    s = float(scale_factor(p, -1.0 if losing else 1.0,
                           typical_size(np.array(list(values.values())))))
    if math.isnan(s):
        return {}
    return {k: v * s for k, v in values.items()}


def variant_section(variant: str, runs: dict[str, RunData], root: Path) -> str:
    """The markdown of one variant: values, pawn = 1, compute, figures."""
    title = VARIANT_TITLES.get(variant, variant)
    material, psq = runs.get("material"), runs.get("psq")
    fm = finals(material) if material else None
    fp = finals(psq) if psq else None
    piece, target = (material or psq).normalisation     # type: ignore[union-attr]
    ours_m, ours_m_sd = _series(fm, "learnt")
    ours_p, ours_p_sd = _series(fp, "psq")
    _, rep_m = paper.values(variant, "material")
    _, rep_p = paper.values(variant, "psq")
    same = paper.paper_variant(variant)
    note = "" if same == variant else f" (the report has no {variant}; its columns are {same}'s)"
    valued = learnt_pieces(variant)       # no row for a piece its games never have
    keys = [k for k in dict.fromkeys([*(ours_m or {}), *(ours_p or {}), *rep_m, *rep_p])
            if k.split("@")[0] in valued]
    lines = [f"## {title}", ""]
    unfinished = [f"*{kind}: {d.progress()}: values so far.*"
                  for kind, d in (("material", material), ("psq", psq))
                  if d is not None and not d.finished]
    if unfinished:
        lines += unfinished + [""]
    raw = [f"*{kind}: {why}.*" for kind, f in (("material", fm), ("psq", fp)) if f is not None
           for why in (f.problem, f.psq_problem) if why]
    if raw:
        lines += raw + [""]
    lines += [(f"Normalised as the report does for {variant}: {PIECE_NAMES[piece].lower()} "
              f"= {target:g}; ours are the mean over runs of the raw weights, then scaled "
              f"(\u00b1 the standard deviation over runs, same scale){note}."), "",
              ("| piece | ours: learnt (material) | report: learnt | ours: table average (psq) "
              "| report: table average |"), "|---|---|---|---|---|"]
    for k in keys:
        lines.append(f"| {_label(k)} | {_pm(ours_m.get(k), ours_m_sd.get(k))} | {_pm(rep_m.get(k))} "
                     f"| {_pm(ours_p.get(k), ours_p_sd.get(k))} | {_pm(rep_p.get(k))} |")
    losing = target < 0
    pawn = "-1" if losing else "1"
    board = [k for k in keys if not k.endswith("@hand")]
    table91 = paper.PAWN_ONE.get(same, {})
    rows = [("ours: learnt", _pawn_one({k: ours_m[k] for k in board if k in ours_m}, losing)),
            ("ours: table average", _pawn_one({k: ours_p[k] for k in board if k in ours_p}, losing)),
            ("report, Table 9.1", table91)]
    if any(vals for _, vals in rows):
        lines += ["", f"The same, a pawn = {pawn} (the report's Table 9.1 gives its best-performing set):",
                  "", "| set | " + " | ".join(board) + " |", "|---|" + "---|" * len(board)]
    for name, vals in rows:
        if vals:
            lines.append(f"| {name} | " + " | ".join(_pm(vals.get(k)) for k in board) + " |")
    if (material or psq).separate_colours:                  # type: ignore[union-attr]
        lines += black_table(material, psq)
    lines += ["", ("| experiment | runs x games | depth | search | games played "
              "| hours (wall, one game a core) | s / game | nodes / game |"),
              "|---|---|---|---|---|---|---|---|"]
    for kind, d in (("material", material), ("psq", psq)):
        if d is None:
            continue
        c = compute(d)
        per = c.seconds / c.games if c.games else math.nan
        nodes = c.nodes / c.games if c.games else math.nan
        lines.append(f"| {kind} | {d.runs} x {d.games} | {d.config.get('depth', '?')} "
                     f"| {d.config.get('search', 'plain')} | {c.games:,} | {c.hours:.1f} "
                     f"| {per:.2f} | {nodes:,.0f} |")
    figs = []
    for kind, d in (("material", material), ("psq", psq)):
        if d is None:
            continue
        rel = Path(os.path.relpath(d.path, root))
        names = ["curves", "final-values"] + (["heatmaps"] if kind == "psq" else [])
        names += [f"{n}-black" for n in names]          # Black's own, where drawn
        figs += [f"[{kind}: {n}]({(rel / 'figures' / f'{n}.png').as_posix()})" for n in names
                 if (d.path / "figures" / f"{n}.png").exists()]
    if figs:
        lines += ["", "Figures: " + ", ".join(figs) + "."]
    return "\n".join(lines) + "\n"


def black_table(material: RunData | None, psq: RunData | None) -> list[str]:
    """Lines of the table of Black's own values, where the colours have separate ones
    (horde), in Black's normalisation."""
    sides = {kind: d.black_side() for kind, d in (("material", material), ("psq", psq)) if d}
    first = next(iter(sides.values()))
    piece, target = first.normalisation
    ours = {kind: _series(finals(d), "learnt" if kind == "material" else "psq")
            for kind, d in sides.items()}
    m, m_sd = ours.get("material", ({}, {}))
    t, t_sd = ours.get("psq", ({}, {}))
    lines = ["", (f"Black's own values (the colours have separate values in "
                  f"{first.variant}), normalised so that Black's "
                  f"{PIECE_NAMES[piece].lower()} = {target:g}:"), "",
             "| piece | ours: learnt (material) | ours: table average (psq) |", "|---|---|---|"]
    for k in dict.fromkeys([*m, *t]):
        lines.append(f"| {_label(k)} | {_pm(m.get(k), m_sd.get(k))} | {_pm(t.get(k), t_sd.get(k))} |")
    return lines


def results_markdown(reference: str | os.PathLike[str], root: str | os.PathLike[str] = ".",
                     variants: list[str] | None = None) -> str:
    """The sections of every variant with an experiment under ``reference``; links are
    relative to ``root`` (where the markdown file lives)."""
    ref = Path(reference)
    if not ref.is_dir():
        raise PlotError(f"no such folder: {ref}")
    found = [p.name for p in ref.iterdir() if p.is_dir()]
    names = variants or sorted(found, key=lambda v: (ORDER.index(v) if v in ORDER else 99, v))
    sections = []
    for v in names:
        runs = {}
        for kind in KINDS:
            folder = ref / v / kind
            if (folder / "config.json").exists():
                runs[kind] = load_run(folder)
        if runs:
            sections.append(variant_section(v, runs, Path(root)))
    if not sections:
        raise PlotError(f"no experiment under {ref} (expected <variant>/material or <variant>/psq "
                        f"folders of 'tdleaf learn')")
    return "\n".join(sections)
