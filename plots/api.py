"""``plot_run``: every figure of a result folder, the one-page summary and report.md."""

from __future__ import annotations

import json
import math
import os
import uuid
from pathlib import Path
from typing import Any, cast

from . import figures as F
from . import paper
from .blockfigures import block_figure
from .blocks import BlockBars, block_bars, block_title
from .runfolder import (
    CONVENTION,
    FEATURE_TITLES,
    HAND_PIECES,
    PIECE_NAMES,
    VARIANT_TITLES,
    PlotError,
    RunData,
    convention_text,
    load_run,
)
from .values import Boards, boards, curves, finals, hand_key, outcome_counts

#: The most weights a leaf block may have for its bars to go on the summary page.
SUMMARY_KEYS = 24

FORMATS = ("png", "svg", "pdf")


def plot_run(run_dir: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
             fmt: str = "png", compare_paper: bool = False, numbers: bool = False,
             ) -> list[Path]:
    """Draw the figures of a ``tdleaf learn`` result folder; return the files written.

    ``out`` defaults to ``RUN_DIR/figures``. Written there: ``curves``, ``final-values``,
    for piece-square runs ``heatmaps`` (six boards; five without a piece the variant never
    has, racing kings' pawn) and ``heatmap-P`` ... ``heatmap-K``
    (one each; with ``numbers`` also ``heatmaps-numbers`` and ``heatmap-numbers-P`` ...),
    for each leaf block the run learnt ``block-<name>`` (``block-hill``: its weights as
    bars, normalised as the material values; :mod:`plots.blocks`), the one-page
    ``summary`` (all in ``fmt``) and ``report.md``, which links them and tables the
    final values. A folder still being written is plotted from what is there
    (curves from ``history.csv``, values from the latest checkpoints).

    PNG heatmaps record where each board lies (see :func:`plots.read_board_geometry`).
    Raises :class:`PlotError` for a missing or bad file, naming it.
    """
    if fmt not in FORMATS:
        raise PlotError(f"unknown figure format {fmt!r}; expected one of {', '.join(FORMATS)}")
    data = load_run(run_dir)
    out_dir = Path(out) if out is not None else data.path / "figures"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PlotError(f"cannot write figures to {out_dir}: {exc.strerror or exc}") from None

    import matplotlib

    written: list[Path] = []
    with matplotlib.rc_context(cast(Any, F.STYLE)):     # its keys typed as literals
        c, f, b = curves(data), finals(data), boards(data)

        def save(fig, name: str, geometry_axes=None) -> Path:
            path = out_dir / f"{name}.{fmt}"
            _save(fig, path, fmt, f"{data.title()}: {name}", geometry_axes)
            written.append(path)
            return path

        def tables(d: RunData, bd: Boards, tag: str = "") -> None:
            """One side's heatmaps (``tag`` "-black": Black's own values)."""
            for nums in (False, True) if numbers else (False,):
                kind = "-numbers" if nums else ""
                fig, axes = F.heatmaps_figure(d, bd, numbers=nums, compare=compare_paper)
                save(fig, f"heatmaps{kind}{tag}", axes)
                for p in d.table_pieces:
                    fig, ax = F.heatmap_figure(d, bd, p, numbers=nums, compare=compare_paper)
                    save(fig, f"heatmap{kind}{tag}-{p}", {p: ax})

        save(F.curves_figure(data, c), "curves")
        save(F.finals_figure(data, f, compare_paper), "final-values")
        if b is not None:
            tables(data, b)
        bars = block_bars(data, f)
        for bar in bars:
            save(block_figure(data, bar), f"block-{bar.name}")
        # The one-page summary holds the small blocks' bars; a big one (kingrel's 90
        # weights) only its own figure.
        save(F.summary_figure(data, c, f, b, compare_paper, header=_settings(data),
                              blocks=[bar for bar in bars if len(bar.keys) <= SUMMARY_KEYS]),
             "summary")
        if data.separate_colours:
            # Black's own values (horde), drawn as White's are, by Black's normalisation.
            black = data.black_side()
            save(F.curves_figure(black, curves(black)), "curves-black")
            save(F.finals_figure(black, finals(black), compare_paper), "final-values-black")
            bb = boards(black)
            if bb is not None:
                tables(black, bb, "-black")
    report = out_dir / "report.md"
    _write_text(report, report_markdown(data, f, b, written, report.parent, compare_paper,
                                        bars))
    written.append(report)
    return written


def _save(fig, path: Path, fmt: str, title: str, geometry_axes=None) -> None:
    """Save atomically (a viewer never sees half a file while a run refreshes them).

    A PNG is drawn once and written with Pillow, with the board geometry of heatmaps in
    a text chunk (:func:`plots.read_board_geometry`)."""
    tmp = _temp_name(path)
    try:
        if fmt == "png":
            _save_png(fig, tmp, title, geometry_axes)
        else:
            metadata = {"Title": title, ("Date" if fmt == "svg" else "CreationDate"): None}
            fig.savefig(tmp, format=fmt, dpi=fig.dpi, metadata=metadata)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _save_png(fig, path: str, title: str, geometry_axes=None) -> None:
    import numpy as np
    from PIL import Image, PngImagePlugin

    fig.canvas.draw()
    info = PngImagePlugin.PngInfo()
    info.add_text("Title", title)
    info.add_text("Software", "tdleaf plots (matplotlib)")
    if geometry_axes:
        geo = F.board_geometry(fig, geometry_axes, draw=False)
        info.add_text(F.GEOMETRY_KEY, json.dumps(
            {p: [round(g.left, 2), round(g.top, 2), round(g.right, 2), round(g.bottom, 2)]
             for p, g in geo.items()}))
    rgba = np.asarray(fig.canvas.buffer_rgba())
    dpi = (round(fig.dpi), round(fig.dpi))
    Image.fromarray(rgba[..., :3]).save(path, format="png", pnginfo=info, dpi=dpi)


def _temp_name(path: Path) -> str:
    """A fresh name beside ``path`` (not mkstemp: its files are private, mode 0600,
    while figures should get the usual permissions of the umask)."""
    return str(path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp"))


def _write_text(path: Path, text: str) -> None:
    tmp = _temp_name(path)
    try:
        with open(tmp, "x", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _settings(data: RunData) -> str:
    cfg = data.config
    parts = []
    for key, name in (("lam", "\u03bb"), ("omega", "\u03c9"), ("alpha", "\u03b1"),
                      ("noise", "noise"), ("seed", "seed"), ("max_plies", "max plies")):
        if key in cfg:
            parts.append(f"{name} {cfg[key]:g}" if isinstance(cfg[key], (int, float))
                         else f"{name} {cfg[key]}")
    if cfg.get("init", "ones") != "ones":
        parts.append(f"init {cfg['init']}")
    ver = data.meta.get("versions", {}).get("tdleaf")
    if ver:
        parts.append(f"tdleaf {ver}")
    if data.meta.get("created"):
        parts.append(f"started {data.meta['created']}")
    return ", ".join(parts)


# -- report.md --------------------------------------------------------------------------------

def _factor(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.4g}"


def _md_num(x: float | None, sd: float | None = None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    text = f"{x:.2f}"
    if sd is not None and not math.isnan(sd) and sd > 1e-9:
        text += f" ± {sd:.2f}"
    return text


def _link(path: Path, base: Path, alt: str) -> str:
    rel = os.path.relpath(path, base).replace(os.sep, "/")
    if path.suffix == ".pdf":
        return f"[{alt}]({rel})"
    return f"![{alt}]({rel})"


def _blocks_markdown(data: RunData, bars: list[BlockBars], by_name: dict[str, Path],
                     base: Path) -> list[str]:
    """The section of the leaf blocks: how their values are made, then per block its
    title, figure and a table of its weights by key."""
    piece, target = data.normalisation
    first = bars[0]
    if first.normalised:
        how = (f"the mean over runs of the raw weights times the factor of the material "
               f"values ({_factor(first.scale)}: the {PIECE_NAMES[piece]} = {target:g}, as "
               "above); ± the standard deviation over runs of the raw weights, times the same "
               "factor")
    else:
        how = f"raw weights, {first.problem}; ± the standard deviation over runs"
    lines = ["## Leaf blocks", "",
             (f"Weights of the leaf blocks the run learnt, computed from the whole position at "
              f"the leaves (White's feature minus Black's): {how}. Each entry is named by its "
              "key in `weights.json`."), ""]
    for bb in bars:
        what = block_title(bb.name)[0].split(": ", 1)[-1]
        lines += [f"### {bb.name}", "", f"{what[:1].upper()}{what[1:]}.", ""]
        if f"block-{bb.name}" in by_name:
            lines += [_link(by_name[f"block-{bb.name}"], base, f"leaf block {bb.name}"), ""]
        value = f"value ({PIECE_NAMES[piece]} = {target:g})" if bb.normalised else "value (raw)"
        lines += [f"| key | raw weight | {value} |", "|---|---|---|"]
        for i, k in enumerate(bb.keys):
            lines.append(f"| {k} | {_md_num(float(bb.raw_mean[i]), float(bb.raw_std[i]))} | "
                         f"{_md_num(float(bb.mean[i]), float(bb.std[i]))} |")
        lines.append("")
    return lines


def report_markdown(data: RunData, f, b, files: list[Path], base: Path,
                    compare: bool, bars: list[BlockBars] | None = None) -> str:
    v = VARIANT_TITLES.get(data.variant, data.variant)
    by_name = {p.stem: p for p in files}
    lines = [f"# {v}, {FEATURE_TITLES[data.features]}: {data.runs} runs × {data.games} games",
             ""]
    src = str(data.path)
    status = ("finished" if data.finished else
              f"**in progress**: runs at {', '.join(str(n) for n in data.games_played)} "
              f"of {data.games} games ({len(data.histories)} of {data.runs} runs started)")
    lines += [f"Run folder: `{src}` ({status}).  ",
              f"Depth {data.config.get('depth', '?')}; {_settings(data)}.", ""]
    oc = outcome_counts(data)
    if oc["games"]:
        lines += [(f"Games played: {oc['games']} — White won {oc['white']}, drawn {oc['draws']}, "
                  f"Black won {oc['black']}; {oc['plies']:.0f} plies on average."), ""]
    piece, target = data.normalisation
    lines += ["## Summary", "", _link(by_name["summary"], base, "summary"), ""]
    n = len(f.games)
    lines += ["## Final values", ""]
    if f.problem is None:
        lines += [f"Normalised as the report does for {data.variant} ({CONVENTION}): the "
                  f"{convention_text(data.normalisation, n)}, i.e. the mean over runs of the raw "
                  f"weights times {_factor(f.scale)}; ± the standard deviation over runs of the "
                  f"raw weights, times the same factor. (The report averages the runs' results "
                  f"and normalises the averages.) Raw: the weights themselves, mean ± sd over "
                  f"runs." + (" The same numbers as `summary.json`'s `normalised` and "
                              "`normalised_std`." if data.finished else ""), ""]
    else:
        lines += [f"**Raw weights**, {f.problem}. (The report's normalisation for "
                  f"{data.variant} scales the mean over runs by a positive factor so that the "
                  f"{PIECE_NAMES[piece]} = {target:g}.) Raw: the weights themselves, mean ± sd "
                  f"over runs." + (" `summary.json`'s `normalisation.problems` says the "
                                   "same." if data.finished else ""), ""]
    keys = list(data.board_pieces) + ([hand_key(p) for p in HAND_PIECES] if data.has_hand else [])
    # A learnt series that could not be normalised is the raw column itself.
    shown = [s for s in f.series if s.normalised or s.style != "learnt"]
    cols = (["piece", "raw weight"]
            + [f"{s.label} (mean, then {PIECE_NAMES[piece]} = {target:g})" if s.normalised
               else s.label for s in shown])
    plabel, pvals = paper.values(data.variant, data.features)
    if compare and pvals:
        cols.append(plabel)
    lines += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for k in keys:
        row = [F.label(k), _md_num(f.raw_mean.get(k), f.raw_std.get(k))]
        row += [_md_num(s.mean.get(k), s.std.get(k)) for s in shown]
        if compare and pvals:
            row.append(_md_num(pvals.get(k)))
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    if data.psq:
        scaled = (f"scaled so that the {PIECE_NAMES[piece]}'s average is {target:g} (factor "
                  f"{_factor(f.psq_scale)}); ± the standard deviation of each run's own "
                  "averages, times the same factor" if f.psq_problem is None else
                  f"raw, {f.psq_problem}; ± the standard deviation of each run's own averages")
        lines += [("In a piece-square run the material weight is a base value: a piece is worth "
                  "its material weight plus its table entry. The table average weighs the "
                  "entries by how often the piece stood on each square: computed from the "
                  f"mean weights over runs and the visits summed over runs, {scaled}."), ""]
    lines += [_link(by_name["final-values"], base, "final values"), ""]
    lines += ["## Learning curves", "", _link(by_name["curves"], base, "learning curves"), ""]
    if b is not None:
        how = (f"scaled so that the {PIECE_NAMES[piece]}'s frequency-weighted average (all "
               f"runs' visits) is {target:g}" if b.normalised else f"raw, {b.problem}")
        lines += ["## Piece-square tables", "",
                  (f"Material + table entry per square of the mean weights over runs, {how}; "
                  "white is the best square, black the worst, a1 bottom-left (White's view)."), "",
                  _link(by_name["heatmaps"], base, "piece-square tables"), "",
                  "One piece alone: " + ", ".join(
                      f"[{F.label(p).lower()}]({os.path.relpath(by_name[f'heatmap-{p}'], base)})"
                      for p in data.table_pieces), ""]
        if "heatmaps-numbers" in by_name:
            lines += ["With the values written in:", "",
                      _link(by_name["heatmaps-numbers"], base, "piece-square tables, values"), ""]
    if bars:
        lines += _blocks_markdown(data, bars, by_name, base)
    elif data.blocks and data.config.get("layout", 1) != 1:
        lines += ["## Leaf blocks", "",
                  (f"{', '.join(data.blocks)}: drawn once a run has saved its weights (a "
                   "snapshot or its weights.json names their entries)."), ""]
    if "final-values-black" in by_name:
        bpiece, btarget = data.black_side().normalisation
        lines += ["## Black's own values", "",
                  (f"{v} values Black's pieces apart from White's: the figures above are "
                   f"White's. Black's, by the same conventions but normalised so that Black's "
                   f"{PIECE_NAMES[bpiece]} = {btarget:g}, on the board's own squares (Black's "
                   "pieces start at the top):"), "",
                  _link(by_name["final-values-black"], base, "Black's final values"), "",
                  _link(by_name["curves-black"], base, "Black's learning curves"), ""]
        if "heatmaps-black" in by_name:
            lines += [_link(by_name["heatmaps-black"], base, "Black's piece-square tables"), ""]
    if compare:
        lines += [f"Report numbers from {paper.REPORT}.", ""]
    lines += ["---", f"Made by `tdleaf plot {src}`.", ""]
    return "\n".join(lines)
