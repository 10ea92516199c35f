"""Figures from run folders (package ``plots``, command ``tdleaf plot``).

A synthetic result folder in the exact format of ``tdleaf learn`` (tdleaf/learn/runs.py)
is written in each test; one test runs a real short ``tdleaf learn`` and plots it. The
heatmap test reads pixels back from the PNG: the best square must be the lightest and
the worst the darkest, at the place a1-bottom-left (White's view) puts them.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import plots
from plots.runfolder import HAND, MATERIAL, PIECES, PSQ, psq_average
from tdleaf.cli import main

N = 12 + 6 * 64
HEADER = (["game", "result", "plies", "termination", "nodes", "seconds"]
          + [f"material.{p}" for p in "PNBRQK"] + [f"hand.{p}" for p in "PNBRQ"])
SQ = {f"{f}{r}": "abcdefgh".index(f) + 8 * (r - 1) for f in "abcdefgh" for r in range(1, 9)}
# Knight table of the synthetic runs: best c6, worst h1 (neither symmetric to the other
# under a vertical or horizontal flip, so a wrong orientation cannot pass).
BEST, WORST = "c6", "h1"


def _weights(variant: str, psq: bool, run: int, games: int, g: int,
             skew: bool = False) -> np.ndarray:
    """Weights after game g of run `run`: smooth curves towards 'sensible' values. With
    ``skew`` the runs differ in more than a common factor (run r's reference piece is
    (1 + r) times larger), so that normalising each run and normalising the mean differ."""
    t = g / games
    w = np.zeros(N)
    final = {"P": 1.0, "N": 2.9, "B": 3.0, "R": 4.6, "Q": 9.0, "K": 0.0}
    if variant in ("suicide", "giveaway", "antichess"):
        final = {"P": -2.0, "N": -3.0, "B": -4.0, "R": -5.0, "Q": -4.5, "K": -3.0}
    for i, p in enumerate(PIECES):
        w[MATERIAL + i] = (1 + (final[p] / 3 - 1) * t) * (1 + 0.03 * run)
    if variant not in ("suicide", "giveaway", "antichess"):
        w[MATERIAL + 5] = 0.0
    if variant == "crazyhouse":
        w[HAND:HAND + 5] = [1 + 0.2 * t * (k + 1) for k in range(5)]
    if psq:
        for i in range(6):
            table = 0.02 * np.sin(np.arange(64) * (i + 1) + run)
            w[PSQ + 64 * i:PSQ + 64 * (i + 1)] = table * t
        n = PSQ + 64 * PIECES.index("N")
        w[n + SQ[BEST]] = 0.3 * t + 0.01
        w[n + SQ[WORST]] = -0.3 * t - 0.01
    if skew:
        piece = plots.REPORT_NORMALISATION[variant][0]
        w[MATERIAL + PIECES.index(piece)] *= 1 + run
    return w


def make_run(root: Path, variant: str = "chess", features: str = "psq", runs: int = 2,
             games: int = 12, finished: bool = True, skew: bool = False,
             fixed: list[dict[str, float]] | None = None) -> Path:
    """A result folder as `tdleaf learn` writes it (finished: with the averaged files).
    ``fixed[r]``: material values that run r holds after every game (flat curves)."""
    root.mkdir(parents=True, exist_ok=True)
    cfg = {"variant": variant, "features": features, "games": games, "runs": runs, "depth": 1,
           "lam": 0.7, "omega": 0.5, "alpha": 1.0, "noise": 0.01 if features == "psq" else 0.0,
           "init": "ones", "seed": 0, "max_plies": 400, "hash_mb": 16, "qlimit": 16}
    (root / "config.json").write_text(json.dumps(
        {"learn": cfg, "versions": {"tdleaf": "0.1.0"}, "created": "2026-01-01T00:00:00+00:00"}))
    rng = np.random.default_rng(1)
    ws, vis = [], np.zeros((6, 64), dtype=int)
    for r in range(runs):
        rdir = root / f"run-{r:02d}"
        rdir.mkdir()
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(HEADER)
        for g in range(1, games + 1):
            w = _weights(variant, features == "psq", r, games, g, skew)
            for p, v in (fixed[r] if fixed else {}).items():
                w[MATERIAL + PIECES.index(p)] = v
            out.writerow([g, [1.0, 0.5, 0.0][g % 3], 60 + g, "checkmate", 1000, "0.010"]
                         + [repr(float(x)) for x in w[:6]] + [repr(float(x)) for x in w[6:11]])
        (rdir / "history.csv").write_text(buf.getvalue())
        visits = rng.integers(1, 50, size=(6, 64))
        visits[0, :8] = visits[0, 56:] = 0          # pawns never on ranks 1 and 8
        ws.append(w)
        vis += visits
        (rdir / "checkpoint.json").write_text(json.dumps(
            {"games": games, "w": w.tolist(), "visits": visits.tolist(), "history_bytes": 0,
             "pgn_bytes": 0}))
        (rdir / "games.pgn").write_text("")
        (rdir / "weights.json").write_text(json.dumps(_weights_json(variant, w)))
    if finished:
        mean = np.mean(ws, axis=0)
        (root / "weights.json").write_text(json.dumps(_weights_json(variant, mean)))
        (root / "weights_std.json").write_text(json.dumps(_weights_json(variant, np.std(ws, axis=0))))
        summary = {"variant": variant, "features": features, "runs": runs, "games": games,
                   "material": {p: float(mean[i]) for i, p in enumerate(PIECES)},
                   "visits": vis.tolist()}
        if features == "psq":
            summary["psq_average"] = psq_average(mean, vis)
        (root / "summary.json").write_text(json.dumps(summary))
    return root


def _weights_json(variant: str, w: np.ndarray) -> dict:
    return {"variant": variant,
            "material": {p: float(w[i]) for i, p in enumerate(PIECES)},
            "hand": {p: float(w[6 + i]) for i, p in enumerate("PNBRQ")},
            "psq": {p: [float(x) for x in w[12 + 64 * i:12 + 64 * (i + 1)]]
                    for i, p in enumerate(PIECES)},
            "meta": {}}


def _check_images(files: list[Path]) -> None:
    for f in files:
        assert f.exists() and f.stat().st_size > 0, f
        if f.suffix == ".png":
            with Image.open(f) as im:
                im.verify()
            with Image.open(f) as im:
                assert im.size[0] >= 300 and im.size[1] >= 300, (f, im.size)


def _lightness(png: Path, geometry: plots.BoardGeometry) -> dict[int, float]:
    """The grey level at the centre of each of the 64 squares (a 3x3 pixel mean)."""
    img = np.asarray(Image.open(png).convert("L"), dtype=float)
    out = {}
    for sq in range(64):
        x, y = geometry.square_center(sq)
        out[sq] = float(img[y - 1:y + 2, x - 1:x + 2].mean())
    return out


# -- figures ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def psq_plotted(tmp_path_factory):
    """A synthetic chess psq folder plotted once with every option (shared: it is the
    slowest figure set)."""
    run = make_run(tmp_path_factory.mktemp("plots") / "chess-psq")
    return run, plots.plot_run(run, compare_paper=True, numbers=True)


def test_psq_run_all_figures_and_report(psq_plotted):
    run, files = psq_plotted
    names = {f.name for f in files}
    expected = {"curves.png", "final-values.png", "heatmaps.png", "summary.png", "report.md",
                "heatmaps-numbers.png"}
    expected |= {f"heatmap-{p}.png" for p in PIECES} | {f"heatmap-numbers-{p}.png" for p in PIECES}
    assert names == expected
    assert all(f.parent == run / "figures" for f in files)
    _check_images(files)
    report = (run / "figures" / "report.md").read_text()
    for f in files:
        if f.suffix == ".png" and not f.name.startswith("heatmap-numbers"):
            assert f"({f.name})" in report, f.name
    assert "| Knight |" in report and "report: table average" in report
    assert "finished" in report


def test_heatmap_orientation_best_white_worst_black(psq_plotted):
    """Read the pixels back: the knight's best square (c6) is the lightest of the 64 and
    its worst (h1) the darkest, exactly where a1-bottom-left puts them; in the six-board
    figure as in the single one."""
    run, _ = psq_plotted
    for png in (run / "figures" / "heatmap-N.png", run / "figures" / "heatmaps.png"):
        geo = plots.read_board_geometry(png)
        assert set(geo) == ({"N"} if png.name == "heatmap-N.png" else set(PIECES))
        g = geo["N"]
        assert g.left < g.right and g.top < g.bottom        # a1 at the bottom-left corner
        assert g.square_center("a1")[0] < g.square_center("h1")[0]
        assert g.square_center("a1")[1] > g.square_center("a8")[1]
        light = _lightness(png, g)
        assert max(light, key=light.get) == SQ[BEST], png
        assert min(light, key=light.get) == SQ[WORST], png
        assert light[SQ[BEST]] > 250 and light[SQ[WORST]] < 5      # white and black


def test_crazyhouse_material_run_has_hand_panels_and_paper(tmp_path):
    run = make_run(tmp_path / "zh", variant="crazyhouse", features="material")
    out = tmp_path / "figs"
    files = plots.plot_run(run, out=out, compare_paper=True)
    assert {f.name for f in files} == {"curves.png", "final-values.png", "summary.png", "report.md"}
    _check_images(files)
    report = (out / "report.md").read_text()
    assert "| Pawn in hand |" in report and "report: learnt" in report
    assert "1.49" in report          # the report's pawn in hand (Table 6.1)


@pytest.mark.parametrize("variant", ["suicide", "atomic"])
def test_normalisation_of_other_variants(tmp_path, variant):
    """Suicide: rook = -5 (the king is learnt and shown); atomic: knight = 2.5. In
    suicide the rook starts positive (+0.47 after game 1 here): that game is left out
    of the curves, not drawn upside down."""
    run = make_run(tmp_path / variant, variant=variant, features="material", games=5)
    data = plots.load_run(run)
    from plots.values import curves, finals
    c, f = curves(data), finals(data)
    piece, target = plots.REPORT_NORMALISATION[variant]
    first = 1 if variant == "suicide" else 0
    assert c.left_out == first and np.isnan(c.mean[piece][:first]).all()
    assert np.isnan(c.mean["P"][:first]).all() and c.normalised
    assert np.allclose(c.mean[piece][first:], target)
    assert math.isclose(f.series[0].mean[piece], target)
    assert ("K" in c.mean) == (variant == "suicide")


def _summarise(run: Path) -> dict:
    """summary.json as `tdleaf learn` writes it for a (synthetic) folder."""
    from tdleaf.learn.config import LearnConfig
    from tdleaf.learn.summary import summarise
    cfg = LearnConfig.from_json(json.loads((run / "config.json").read_text())["learn"])
    summarise(run, cfg)
    return json.loads((run / "summary.json").read_text())


@pytest.mark.parametrize("variant,features", [("atomic", "material"),
                                              pytest.param("crazyhouse", "psq", marks=pytest.mark.slow)])
def test_mean_then_normalise_everywhere(tmp_path, variant, features):
    """One normalisation (the report's: average the runs, then normalise) in the figures'
    numbers, summary.json, the terminal and report.md, on runs where normalising each run
    first would give clearly different numbers; the reference piece is exactly its value."""
    from plots.values import boards, curves, finals
    from tdleaf.learn.summary import CONVENTION, summary_lines

    run = make_run(tmp_path / variant, variant=variant, features=features, skew=True)
    piece, target = plots.REPORT_NORMALISATION[variant]
    ref = PIECES.index(piece)
    W = np.array([json.loads((run / f"run-{r:02d}" / "checkpoint.json").read_text())["w"]
                  for r in range(2)])
    scale = target / W.mean(axis=0)[ref]
    want = {p: W[:, i].mean() * scale for i, p in enumerate(PIECES)}
    want_sd = {p: W[:, i].std() * scale for i, p in enumerate(PIECES)}
    per_run = {p: np.mean(W[:, i] * target / W[:, ref]) for i, p in enumerate(PIECES)}
    assert max(abs(per_run[p] - want[p]) for p in "PBRQ") > 0.5      # the conventions differ

    data = plots.load_run(run)
    f, c = finals(data), curves(data)
    learnt = f.series[0]
    assert learnt.mean[piece] == target and c.mean[piece][-1] == target
    assert learnt.std[piece] > 0.1                  # the reference piece has a spread too
    for p in data.board_pieces:
        assert math.isclose(learnt.mean[p], want[p], rel_tol=1e-12), p
        assert math.isclose(learnt.std[p], want_sd[p], rel_tol=1e-12), p
        assert math.isclose(c.mean[p][-1], want[p], rel_tol=1e-12), p
        assert math.isclose(c.std[p][-1], want_sd[p], rel_tol=1e-12), p
    # a curve at an earlier game: the mean of that game's history rows, normalised
    g = 6
    rows = np.array([_weights(variant, features == "psq", r, 12, g, True)[:6] for r in range(2)])
    m = rows.mean(axis=0)
    assert math.isclose(c.mean["Q"][g - 1], m[4] * target / m[ref], rel_tol=1e-12)

    summary = _summarise(run)
    view = f"{piece}={target:g}"
    assert summary["normalisation"]["convention"] == CONVENTION == "mean-then-normalise"
    assert summary["normalisation"]["view"] == view
    assert summary["normalised"][view][piece] == target
    for k, v in learnt.mean.items():        # pieces and pieces in hand
        assert math.isclose(summary["normalised"][view][k], v, rel_tol=1e-12), k
        assert math.isclose(summary["normalised_std"][view][k], learnt.std[k], rel_tol=1e-12), k
    pawn = summary["normalised"]["P=1"]     # Table 9.1's view scales the same mean
    assert pawn["P"] == 1.0 and math.isclose(pawn["Q"], want["Q"] / want["P"], rel_tol=1e-12)

    lines = summary_lines(summary)
    assert lines[0].startswith(f"learnt values (mean of 2 runs, then normalised so that "
                               f"{piece} = {target:g}")
    for p in data.board_pieces:
        assert f"{p} {want[p]:.2f} \u00b1 {want_sd[p]:.2f}" in lines[0], p
    assert ("K " in lines[0]) == (variant == "suicide")

    if features == "psq":
        table = f.series[1]
        assert table.mean[piece] == target
        for p in data.board_pieces:
            assert math.isclose(summary["psq_average_normalised"][p], table.mean[p], rel_tol=1e-12)
            assert math.isclose(summary["psq_average_normalised_std"][p], table.std[p],
                                rel_tol=1e-12)
        b = boards(data)
        assert math.isclose(b.scale, f.psq_scale, rel_tol=1e-12)
        assert math.isclose(b.scale, summary["normalisation"]["psq_scale"], rel_tol=1e-12)
        vis = np.asarray(summary["visits"], dtype=float)[ref]
        assert math.isclose(b.values[piece] @ vis / vis.sum(), target, rel_tol=1e-12)
        assert len(lines) == 2 and f"{piece}'s average = {target:g}" in lines[1]

    files = plots.plot_run(run)
    report = (run / "figures" / "report.md").read_text()
    assert "mean-then-normalise" in report and "mean of 2 runs, then normalised" in report
    for p in data.board_pieces:
        assert f"{want[p]:.2f} ± {want_sd[p]:.2f}" in report, p
    assert len(files) > 3


def test_the_normalising_factor_is_positive_or_absent():
    """The one normalisation function (variants/normalise.py, which plots and
    learning share): a standard deviation scales by the factor's size; a reference mean
    of the wrong sign or near 0 gives no factor (NaN), and ``problem`` says which."""
    from variants.normalise import mean_then_normalise, problem
    W = np.array([[-1.0, -2.0, -4.0], [-3.0, -2.4, -6.0]])        # column 2: mean -5
    m, sd, s = mean_then_normalise(W, 2, -5.0)
    assert s == 1.0 and list(m) == [-2.0, -2.2, -5.0] and np.allclose(sd, [1.0, 0.2, 1.0])
    m, sd, s = mean_then_normalise(W, 2, -2.5)
    assert s == 0.5 and np.allclose(sd, [0.5, 0.1, 0.5]) and (sd >= 0).all()
    for target in (5.0, 2.5):                   # a negative factor: refused
        m, sd, s = mean_then_normalise(W, 2, target)
        assert math.isnan(s) and np.isnan(m).all() and np.isnan(sd).all()
    assert "is -5, not positive" in problem(-5.0, 2.5, "N", 2.4)
    W0 = np.array([[-1.0, -2.0, 0.05], [-3.0, -2.4, -0.06]])       # column 2: mean -0.005
    assert math.isnan(mean_then_normalise(W0, 2, -5.0)[2])
    assert "too near 0" in problem(-0.005, -5.0, "R", 2.0)
    assert problem(-4.0, -5.0, "R", 2.0) is None
    # curves: a factor per game, the games without one left out
    C = np.array([[[-1.0, 1.0], [-1.0, -1.0], [-1.0, 1e-4]]])
    m, sd, s = mean_then_normalise(C, 1, -5.0, near_zero=0.1)
    assert math.isnan(s[0]) and s[1] == 5.0 and math.isnan(s[2]) and m[1, 1] == -5.0


# Suicide runs whose mean rook weight is still positive (too few games): the report's
# rook = -5 needs a negative factor, which flips every value's sign. It used to print
# "P -3.31 ± -0.69", write negative standard deviations to summary.json, lose the
# error bars of final-values.png and the ± column of report.md.
UNSETTLED = [{"P": 0.5, "N": 0.9, "B": 0.8, "R": 0.7, "Q": 0.95, "K": 1.2},
             {"P": 0.8, "N": 1.0, "B": 0.85, "R": 1.0, "Q": 0.9, "K": 1.4}]


@pytest.mark.parametrize("features", ["material", pytest.param("psq", marks=pytest.mark.slow)])
def test_a_negative_factor_is_refused_everywhere(tmp_path, features):
    from matplotlib.container import ErrorbarContainer

    from plots import figures as F
    from plots.values import boards, curves, finals
    from tdleaf.learn.summary import summary_lines, summary_problems

    run = make_run(tmp_path / "suicide", "suicide", features, games=6, fixed=UNSETTLED)
    raw = {p: float(np.mean([r[p] for r in UNSETTLED])) for p in PIECES}
    sd = {p: float(np.std([r[p] for r in UNSETTLED])) for p in PIECES}
    summary = _summarise(run)
    norm = summary["normalisation"]
    assert norm["scale"] is None and summary["normalised"] == {"R=-5": {}, "P=-1": {}}
    assert summary["normalised_std"] == {"R=-5": {}, "P=-1": {}}
    assert "the mean rook weight is +0.85, not negative" in norm["problems"]["R=-5"]
    assert "the mean pawn weight is +0.65, not negative" in norm["problems"]["P=-1"]
    assert not (run / "weights_normalised.json").exists()
    problems = summary_problems(summary)
    assert problems[0] == norm["problems"]["R=-5"]
    lines = summary_lines(summary)
    assert lines[0].startswith("learnt values (mean of 2 runs, raw weights: not normalised "
                               "so that R = -5")
    assert all("± -" not in x for x in lines)
    for p in PIECES:
        assert f"{p} {raw[p]:.2f} ± {sd[p]:.2f}" in lines[0], p
    if features == "psq":
        assert set(norm["problems"]) == {"R=-5", "P=-1", "psq_average"}
        assert problems[1] == norm["problems"]["psq_average"] and len(problems) == 2
        assert norm["psq_scale"] is None and summary["psq_average_normalised"] == {}
        assert "raw: not normalised so that R's average = -5" in lines[1]
    else:
        assert set(norm["problems"]) == {"R=-5", "P=-1"} and len(problems) == 1

    data = plots.load_run(run)
    f, c = finals(data), curves(data)
    learnt = f.series[0]
    assert f.problem == norm["problems"]["R=-5"] and not learnt.normalised
    for p in PIECES:
        assert math.isclose(learnt.mean[p], raw[p]) and math.isclose(learnt.std[p], sd[p]), p
    assert not c.normalised and c.left_out == 0 and math.isclose(c.mean["R"][-1], raw["R"])
    if features == "psq":
        b = boards(data)
        assert not b.normalised and f.psq_problem and "average rook weight" in b.problem
    fig = F.finals_figure(data, f)
    bars = [x for x in fig.axes[0].containers if isinstance(x, ErrorbarContainer)]
    assert len(bars) == (12 if features == "psq" else 6)       # every bar has its error bar
    assert "not normalised" in fig.axes[0].get_ylabel()
    plots.plot_run(run)
    report = (run / "figures" / "report.md").read_text()
    assert "**Raw weights**, not normalised so that the rook = -5" in report
    for p in PIECES:
        assert f"| {F.label(p)} | {raw[p]:.2f} ± {sd[p]:.2f} |" in report, p


def _value_label_gaps(fig) -> list[float]:
    """For each value label of a final-values figure, the white space in points between
    it and the outer edge of its bar's error bar cap (or of the bar, without one)."""
    from matplotlib.container import BarContainer, ErrorbarContainer

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    px = 72 / fig.dpi
    gaps = []
    for ax in fig.axes:
        caps: dict[float, list[tuple[float, float]]] = {}
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer):
                for line in c.lines[1]:
                    caps.setdefault(round(float(line.get_xdata()[0]), 9), []).append(
                        (float(line.get_ydata()[0]), line.get_markeredgewidth()))
        patches = [p for c in ax.containers if isinstance(c, BarContainer) for p in c.patches]
        labels = [t for t in ax.texts if t.get_gid() == "value-label"]
        assert len(labels) == len(patches) > 0
        for t in labels:
            xi = round(float(t.xy[0]), 9)
            bar = next(p for p in patches if abs(p.get_x() + p.get_width() / 2 - xi) < 1e-9)
            v = bar.get_height()
            ends = [(v, 0.0)] + caps.get(xi, [])
            end, width = max(ends, key=lambda e: e[0]) if v >= 0 else min(ends, key=lambda e: e[0])
            y = ax.transData.transform((xi, end))[1]
            box = t.get_window_extent(renderer)
            gap = (box.y0 - y) * px if v >= 0 else (y - box.y1) * px
            gaps.append(gap - width / 2)
    return gaps


@pytest.mark.parametrize("variant,features,compare", [
    ("chess", "psq", True), ("suicide", "psq", True), ("crazyhouse", "material", True),
    ("atomic", "material", False)])
def test_final_values_legend_and_value_labels(tmp_path, variant, features, compare):
    """final-values.png: a legend only where several series are drawn, each entry one of
    the drawn bar sets, looking like its first bar (it had a grey swatch that matched no
    bar); every value written beyond its error bar's cap, with at least 3 points of white
    between (the labels touched the caps)."""
    from matplotlib.container import BarContainer

    from plots import figures as F
    from plots.values import finals

    data = plots.load_run(make_run(tmp_path / variant, variant, features, runs=3, skew=True))
    f = finals(data)
    fig = F.finals_figure(data, f, compare)
    series = F.final_series(data, f, compare)
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    assert len(legends) == (1 if len(series) > 1 else 0)
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None:
            continue
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert [t.get_text() for t in leg.get_texts()] == [b.get_label() for b in bars] \
            == [s.label for s in series]
        for handle, b in zip(leg.legend_handles, bars):
            first = b.patches[0]
            assert handle.get_facecolor() == first.get_facecolor()
            assert handle.get_edgecolor() == first.get_edgecolor()
            assert handle.get_hatch() == first.get_hatch()
    gaps = _value_label_gaps(fig)
    assert min(gaps) >= 3.0, min(gaps)


@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_other_formats(tmp_path, fmt):
    run = make_run(tmp_path / "r", features="material", games=4)
    files = plots.plot_run(run, fmt=fmt)
    assert {f.suffix for f in files} == {f".{fmt}", ".md"}
    head = files[0].read_bytes()[:5]
    assert head == (b"%PDF-" if fmt == "pdf" else b"<?xml")


@pytest.mark.slow
def test_partial_run_folder_plots_curves(tmp_path):
    """A job still running: no summary.json or weights.json, runs at different games, a
    history row half written. Curves and values come from what is there."""
    run = make_run(tmp_path / "partial", runs=3, finished=False)
    hist = run / "run-01" / "history.csv"
    lines = hist.read_text().splitlines(keepends=True)
    hist.write_text("".join(lines[:6]) + lines[6][:20])       # 5 games + half a row
    ck = json.loads((run / "run-01" / "checkpoint.json").read_text())
    ck["games"] = 5
    (run / "run-01" / "checkpoint.json").write_text(json.dumps(ck))
    (run / "run-02" / "history.csv").write_text(",".join(HEADER) + "\n")   # not started
    (run / "run-02" / "checkpoint.json").unlink()
    data = plots.load_run(run)
    assert not data.finished and data.games_played == [12, 5]
    files = plots.plot_run(run)
    _check_images(files)
    report = (run / "figures" / "report.md").read_text()
    assert "in progress" in report and "2 of 3 runs started" in report


# -- errors -------------------------------------------------------------------------------

def _error(capsys, path) -> str:
    assert main(["plot", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tdleaf: error: ") and err.count("\n") == 1, err
    return err


def test_missing_folder_and_config(tmp_path, capsys):
    assert "no such run folder" in _error(capsys, tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    assert "config.json" in _error(capsys, tmp_path / "empty")
    run = make_run(tmp_path / "r", features="material", games=3)
    err = _error(capsys, run / "run-00")
    assert "config.json" in err and "parent folder" in err
    with pytest.raises(plots.PlotError, match="config.json"):
        plots.plot_run(tmp_path / "empty")


def test_finished_folder_missing_files_are_named(tmp_path, capsys):
    run = make_run(tmp_path / "r", features="material", games=3)
    (run / "run-01" / "checkpoint.json").unlink()
    assert "run-01/checkpoint.json" in _error(capsys, run)
    run = make_run(tmp_path / "s", features="material", games=3)
    (run / "weights.json").unlink()
    assert "weights.json" in _error(capsys, run)


def test_bad_files_are_named(tmp_path, capsys):
    run = make_run(tmp_path / "a", features="material", games=3, finished=False)
    for r in range(2):
        (run / f"run-{r:02d}" / "history.csv").unlink()
    assert "run-00/history.csv" in _error(capsys, run)
    run = make_run(tmp_path / "b", features="material", games=3)
    (run / "summary.json").write_text("{not json")
    assert "summary.json" in _error(capsys, run)
    run = make_run(tmp_path / "c", features="material", games=3)
    hist = run / "run-00" / "history.csv"
    hist.write_text(hist.read_text().replace("material.Q", "material.X"))
    err = _error(capsys, run)
    assert "run-00/history.csv" in err and "material.Q" in err
    run = make_run(tmp_path / "d", features="material", games=3)
    hist = run / "run-00" / "history.csv"
    lines = hist.read_text().splitlines(keepends=True)
    hist.write_text(lines[0] + "1,0.5,zz\n" + "".join(lines[2:]))
    err = _error(capsys, run)
    assert "run-00/history.csv:2" in err and "malformed" in err
    run = make_run(tmp_path / "e", features="material", games=3)
    (run / "config.json").write_text(json.dumps({"versions": {}}))
    assert "config.json" in _error(capsys, run)


# -- tdleaf learn draws them ----------------------------------------------------------------

@pytest.mark.slow
def test_real_short_run(tmp_path, capsys):
    """tdleaf learn (3 games x 2 runs, depth 1, psq) writes the figures at the end;
    tdleaf plot redraws them with the report's values beside, in SVG."""
    out = tmp_path / "learn"
    assert main(["learn", "--variant", "chess", "--features", "psq", "--games", "3",
                 "--runs", "2", "--depth", "1", "--workers", "1", "--out", str(out),
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "figures in" in printed
    # the terminal shows the figures' numbers, and says how they are normalised
    from plots.values import finals
    f = finals(plots.load_run(out))
    line = next(x for x in printed.splitlines() if x.startswith("learnt values"))
    assert line.startswith("learnt values (mean of 2 runs, then normalised so that B = 3")
    assert line.split(": ", 1)[1] == ", ".join(
        f"{p} {f.series[0].mean[p]:.2f} \u00b1 {f.series[0].std[p]:.2f}" for p in "PNBRQ")
    line = next(x for x in printed.splitlines() if x.startswith("table averages"))
    assert line.split(": ", 1)[1] == ", ".join(
        f"{p} {f.series[1].mean[p]:.2f} \u00b1 {f.series[1].std[p]:.2f}" for p in "PNBRQ")
    figs = out / "figures"
    assert {"curves.png", "final-values.png", "heatmaps.png", "heatmap-K.png", "summary.png",
            "report.md"} <= {p.name for p in figs.iterdir()}
    _check_images(sorted(figs.glob("*.png")))
    assert main(["plot", str(out), "--out", str(tmp_path / "svg"), "--format", "svg",
                 "--compare-paper"]) == 0
    assert (tmp_path / "svg" / "heatmap-P.svg").exists()
    data = plots.load_run(out)
    assert data.finished and data.games_played == [3, 3]


def test_learn_no_plot_and_plot_every(tmp_path, monkeypatch, capsys):
    from plots.live import LivePlots

    calls = []
    monkeypatch.setattr(plots.api, "plot_run", lambda out: calls.append(out) or [Path(out) / "x"])
    live = LivePlots(tmp_path, runs=2, every=3)
    live.update({0: 0, 1: 0})
    for done in ({0: 1, 1: 0}, {0: 2, 1: 1}, {0: 3, 1: 2}, {0: 3, 1: 3}, {0: 4, 1: 3},
                 {0: 5, 1: 4}, {0: 6, 1: 6}):
        live.update(done)
    assert len(calls) == 2                 # at 3 and at 6 games per run
    live.final()
    assert len(calls) == 3

    def broken(out):
        raise plots.PlotError("missing config.json in x")
    monkeypatch.setattr(plots.api, "plot_run", broken)
    lines = []
    live = LivePlots(tmp_path, runs=1, every=1, write=lines.append)
    live.update({0: 0})
    live.update({0: 1})
    live.update({0: 2})
    live.final()                            # warns, never raises
    assert len(lines) == 2 and all("warning" in x and "config.json" in x for x in lines)

    monkeypatch.undo()
    out = tmp_path / "np"
    assert main(["learn", "--variant", "chess", "--games", "1", "--runs", "1", "--depth", "1",
                 "--workers", "1", "--out", str(out), "--no-progress", "--no-plot"]) == 0
    assert not (out / "figures").exists()
    assert main(["learn", "--variant", "chess", "--plot-every", "0", "--out",
                 str(tmp_path / "z")]) == 2
    assert "--plot-every" in capsys.readouterr().err


# -- leaf blocks ----------------------------------------------------------------------------

def _learn(out: Path, variant: str, features: str) -> Path:
    assert main(["learn", "--variant", variant, "--features", features, "--games", "2",
                 "--runs", "2", "--depth", "1", "--workers", "1", "--out", str(out),
                 "--no-progress", "--no-plot"]) == 0
    return out


@pytest.mark.parametrize("variant, features, blocks", [
    ("kingofthehill", "psq", ["hill"]),
    ("chess", "psq+mobility", ["mobility"]),
])
@pytest.mark.slow
def test_leaf_blocks_drawn_as_bars(tmp_path, capsys, variant, features, blocks):
    """A real tiny run with leaf blocks: `tdleaf plot` draws block-<name>.png per block,
    and report.md links it; each bar is the mean over runs of the block's weight times
    summary.json's factor of the material values, its error bar the standard deviation
    over runs times the same factor, labelled by the keys weights.json names."""
    from plots.blockfigures import block_figure
    from plots.blocks import block_bars
    from plots.values import finals

    out = _learn(tmp_path / "learn", variant, features)
    capsys.readouterr()
    assert main(["plot", str(out)]) == 0
    figs = out / "figures"
    assert sorted(p.name for p in figs.glob("block-*")) == [f"block-{b}.png" for b in blocks]
    _check_images([figs / f"block-{b}.png" for b in blocks])
    report = (figs / "report.md").read_text()
    for b in blocks:
        assert f"(block-{b}.png)" in report and f"### {b}" in report
    assert f"block-{blocks[0]}.png" in capsys.readouterr().out

    weights = json.loads((out / "weights.json").read_text())
    std = json.loads((out / "weights_std.json").read_text())
    scale = json.loads((out / "summary.json").read_text())["normalisation"]["scale"]
    data = plots.load_run(out)
    assert data.leaf_keys == {b: list(weights[b]) for b in blocks}
    f = finals(data)
    bars = block_bars(data, f)
    assert [bb.name for bb in bars] == blocks
    for bb in bars:
        assert bb.normalised and math.isclose(bb.scale, scale, rel_tol=1e-12)
        np.testing.assert_allclose(bb.mean, [weights[bb.name][k] * scale for k in bb.keys],
                                   rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(bb.std, [std[bb.name][k] * scale for k in bb.keys],
                                   rtol=1e-9, atol=1e-12)
        ax = block_figure(data, bb).axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == bb.keys
        np.testing.assert_allclose([r.get_height() for r in ax.patches], bb.mean)
        assert "bishop = 3" in ax.get_ylabel()
        assert "\n" not in ax.get_title() and ax.get_title().startswith(f"{bb.name}: ")
        row = report.split(f"### {bb.name}")[1].split("\n| ")[2]
        assert row.startswith(f"{bb.keys[0]} |") and f"{bb.mean[0]:.2f}" in row

    if variant != "kingofthehill":
        return
    # Before any run has saved its weights nothing names the blocks' keys: no bars yet.
    for r in range(2):
        rdir = out / f"run-{r:02d}"
        (rdir / "weights.json").unlink()
        for snap in (rdir / "snapshots").glob("*.json"):
            snap.unlink()
    for name in ("summary.json", "weights.json", "weights_std.json"):
        (out / name).unlink()
    files = plots.plot_run(out, out=tmp_path / "early")
    assert not [p for p in files if p.name.startswith("block-")]
    assert "drawn once a run has saved its weights" in (tmp_path / "early" / "report.md").read_text()


@pytest.mark.slow
def test_kingrel_drawn_as_a_grid_of_heatmaps_and_kept_off_the_summary(tmp_path, monkeypatch):
    """kingrel's 90 weights: block-kingrel is a 2 x 5 grid of 3 x 3 heatmaps (king x
    piece; direction x distance) whose cells are the bars' values, and the summary page
    leaves it out (its small blocks stay)."""
    from plots.blockfigures import block_figure
    from plots.blocks import block_bars
    from plots.values import finals

    out = _learn(tmp_path / "learn", "suicide", "psq+kingrel+chains")
    summary_figure, on_summary = plots.figures.summary_figure, []

    def spy(*args, blocks=(), **kwargs):
        on_summary.extend(b.name for b in blocks)
        return summary_figure(*args, blocks=blocks, **kwargs)

    monkeypatch.setattr(plots.figures, "summary_figure", spy)
    files = plots.plot_run(out)
    assert {"block-kingrel.png", "block-chains.png"} <= {p.name for p in files}
    assert on_summary == ["chains"]
    data = plots.load_run(out)
    bars = {b.name: b for b in block_bars(data, finals(data))}
    fig = block_figure(data, bars["kingrel"])
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels[:6]] == [
        "P, own king", "N, own king", "B, own king", "R, own king", "Q, own king",
        "P, enemy king"]
    keys, mean = bars["kingrel"].keys, bars["kingrel"].mean
    # Panel (enemy, N): rows ahead/level/behind, columns distance 1-3.
    cells = panels[6].get_images()[0].get_array()
    for r, way in enumerate(("ahead", "level", "behind")):
        for c, d in enumerate((1, 2, 3)):
            assert cells[r, c] == mean[keys.index(f"enemy.N.{d}.{way}")]


def test_handcount_drawn_as_the_value_of_each_piece_in_hand_by_count(tmp_path):
    """block-handcount: per piece type, bars for the 1st, 2nd, 3rd and each further
    piece in hand, each the normalised hand value plus the offsets up to that count."""
    from plots.blockfigures import block_figure
    from plots.blocks import block_bars
    from plots.values import finals

    out = _learn(tmp_path / "learn", "crazyhouse", "psq+handcount")
    data = plots.load_run(out)
    f = finals(data)
    (bar,) = block_bars(data, f)
    weights = json.loads((out / "weights.json").read_text())
    scale = json.loads((out / "summary.json").read_text())["normalisation"]["scale"]
    heights = [r.get_height() for r in block_figure(data, bar).axes[0].patches]
    expected = []
    for p in "PNBRQ":
        value = weights["hand"][p]
        expected.append(value)
        for k in ("2", "3", "4+"):
            value += weights["handcount"][f"{p}{k}"]
            expected.append(value)
    np.testing.assert_allclose(heights, np.array(expected) * scale, rtol=1e-9)
    assert bar.values["N@hand"] == pytest.approx(weights["hand"]["N"] * scale)


def test_leaf_blocks_checkpoint_of_another_size_is_named(tmp_path, capsys):
    out = _learn(tmp_path / "learn", "kingofthehill", "psq")
    ck = out / "run-01" / "checkpoint.json"
    data = json.loads(ck.read_text())
    data["w"] = data["w"][:-1]
    ck.write_text(json.dumps(data))
    err = _error(capsys, out)
    assert "run-01/checkpoint.json" in err and "hill" in err


@pytest.mark.slow
def test_old_folder_draws_no_leaf_blocks(tmp_path):
    """A folder written before leaf blocks (no layout in its weights files) plots as
    before, even in a variant whose psq set now holds a goal block."""
    run = make_run(tmp_path / "koth", variant="kingofthehill", features="psq")
    files = plots.plot_run(run)
    assert not [f for f in files if f.name.startswith("block-")]
    assert plots.load_run(run).leaf_keys == {}
    assert "Leaf blocks" not in (run / "figures" / "report.md").read_text()


def test_every_leaf_block_has_a_title():
    """The figures' titles come from the blocks' descriptions: every registered leaf
    block has one, and an unknown block still gets a plain one."""
    from plots.blocks import block_title
    from search.evaluation.registry import leaf_blocks

    for b in leaf_blocks():
        title, axis = block_title(b.name)
        assert title == b.title and title.startswith(f"{b.name}: ") and axis, b.name
    assert block_title("nope")[0].startswith("nope: ")


def test_plots_imports_nothing_of_the_engine():
    """The house rule: plots reads files and imports neither the engine, tdleaf nor
    numba; of search only the numba-free description of the evaluation (and the shipped
    data and file writer it reads and writes through, standard library only), of
    variants only the pure-data spec and the normalisation it shares with learning
    (NumPy only)."""
    import subprocess
    import sys
    code = ("import sys, plots, plots.api; plots.load_run; "
            "allowed = ('variants', 'variants.spec', 'variants.errors', 'variants.normalise'); "
            "bad = [m for m in ('tdleaf', 'numba', 'chess') if m in sys.modules]; "
            "bad += [m for m in sys.modules if m.startswith('variants') and m not in allowed]; "
            "bad += [m for m in sys.modules if m.startswith('search') and m not in "
            "('search', 'search.shipped', 'search.files') and not m.startswith('search.evaluation')]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parent.parent)


def test_results_tables_beside_the_report(tmp_path, capsys):
    """`tdleaf results`: each variant's values in its report normalisation beside the
    report's, rescaled to a pawn of (-)1 beside Table 9.1, the compute from history.csv;
    an unfinished experiment is marked; a folder without experiments is an error."""
    ref = tmp_path / "reference"
    make_run(ref / "crazyhouse" / "material", "crazyhouse", "material", runs=3)
    make_run(ref / "crazyhouse" / "psq", "crazyhouse", "psq", runs=2)
    make_run(ref / "suicide" / "material", "suicide", "material", runs=2, games=10, finished=False)
    out = tmp_path / "RESULTS-tables.md"
    assert main(["results", str(ref), "--out", str(out)]) == 0
    text = out.read_text()
    zh, su = text.split("## Suicide")
    assert zh.startswith("## Crazyhouse") and "bishop = 3" in zh
    row = next(x for x in zh.splitlines() if x.startswith("| bishop |"))
    assert row.split("|")[2].strip().startswith("3.00 \u00b1") and row.split("|")[3].strip() == "3.00"
    assert "| queen in hand |" in zh and "| 5.63 |" in zh           # report, Table 6.1
    assert "| report, Table 9.1 | 1.00 | 2.00 | 2.40 | 2.40 | 3.80 |" in zh
    assert "| material | 3 x 12 | 1 | plain | 36 |" in zh
    assert "[psq: heatmaps]" not in zh                            # no figures drawn yet
    assert "in progress" in su and "rook = -5" in su
    assert "| report, Table 9.1 | -1.00 | -1.40 |" in su
    assert "| material | 2 x 10 | 1 | plain | 20 |" in su
    (tmp_path / "empty").mkdir()
    assert main(["results", str(tmp_path / "empty")]) == 2
    assert "no experiment under" in capsys.readouterr().err


def test_results_give_black_its_own_values_where_the_colours_have_them(tmp_path):
    """Horde: `tdleaf results` tables Black's own values, in Black's normalisation, as
    the run's summary.json holds them."""
    out = _learn(tmp_path / "reference" / "horde" / "material", "horde", "material")
    md = tmp_path / "RESULTS-tables.md"
    assert main(["results", str(tmp_path / "reference"), "--out", str(md)]) == 0
    text = md.read_text()
    white, black = text.split("Black's own values")
    assert white.startswith("## Horde") and "pawn = 1" in white
    assert "Black's bishop = 3" in black
    summary = json.loads((out / "summary.json").read_text())["black"]
    view = summary["normalised"]["B=3"]
    row = next(x for x in black.splitlines() if x.startswith("| queen |"))
    assert row.split("|")[2].strip().startswith(f"{view['Q']:.2f} \u00b1")


def test_a_piece_the_variant_never_has_gets_no_learnt_value():
    """Racing kings has no pawns: the pawn's weight keeps its starting value, so the
    terminal, `tdleaf results` and the figures report the other pieces only (on the
    shipped experiment)."""
    from plots.results import results_markdown
    from tdleaf.learn.summary import summary_lines
    from variants.normalise import learnt_pieces

    assert learnt_pieces("racingkings") == "NBRQ"
    assert learnt_pieces("chess") == "PNBRQ" and learnt_pieces("antichess") == "PNBRQK"
    reference = Path(__file__).resolve().parent.parent / "runs" / "reference"
    summary = json.loads((reference / "racingkings" / "material" / "summary.json").read_text())
    line = summary_lines(summary)[0]
    assert ": N " in line and " P " not in line
    section = results_markdown(reference, variants=["racingkings"])
    assert "| knight |" in section and "| pawn |" not in section
    assert plots.load_run(reference / "racingkings" / "material").board_pieces == "NBRQ"
    # and no pawn table is drawn: five boards, the sixth place left empty
    from plots import figures as F
    from plots.values import boards

    data = plots.load_run(reference / "racingkings" / "psq")
    assert data.table_pieces == "NBRQK" and plots.load_run(reference / "horde" / "psq").table_pieces == "PNBRQK"
    b = boards(data)
    assert b is not None
    fig, by_piece = F.heatmaps_figure(data, b)
    assert list(by_piece) == list("NBRQK")
    assert sum(ax.axison for ax in fig.axes) == 5
