"""Learning runs: configuration, one run of self-play TDLeaf, checkpoints, summaries.

A result folder holds ``config.json`` (every setting, the seed, versions), one folder per
run (``checkpoint.json``, ``history.csv``, ``games.pgn``, ``weights.json``) and, when all
runs are done, the averaged ``weights.json``, ``weights_std.json``,
``weights_normalised.json`` (scaled as the report does for the variant) and
``summary.json`` (normalised views, frequency-weighted piece-square averages). Every
normalised value is the mean over runs of the raw weights, then scaled by a positive
factor so that the variant's reference piece has the report's value (:data:`CONVENTION`,
:mod:`.normalise`, which the figures of :mod:`plots` use too).

Checkpoints are written atomically after every game together with the sizes of the
append-only files, so a run killed at any moment loses at most the game in progress and
resumes to exactly the same result.
"""

from __future__ import annotations

import collections
import csv
import io
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from search import Engine
from search.engine import SEARCH_MODES, search_flags
from search.layout import (
    HAND,
    HAND_PIECES,
    LAYOUT,
    LAYOUT_VERSION,
    MATERIAL,
    PIECES,
    PSQ,
    FeatureLayout,
    Weights,
    WeightsError,
    feature_layout,
    has_pockets,
    learnt_blocks,
    load_weights,
)
from variants import canonical_variant, random_line
from variants.normalise import (
    CONVENTION,
    LOSING_VARIANTS,
    REPORT_NORMALISATION,
    convention_text,
    learnt_pieces,
    mean_then_normalise,
    normalise_averages,
    pawn_target,
    problem,
    typical_size,
)

from .selfplay import game_pgn, play_game
from .td import TemporalCoherence, apply_update, recommended_change


class LearnError(ValueError):
    """A learning configuration or result folder that cannot be used."""


@dataclass
class LearnConfig:
    """Every setting that determines the result of a learning job."""

    variant: str
    # A feature set of search.layout.FEATURE_SETS ("material", "psq"), + added blocks.
    features: str = "material"
    games: int = 2000               # per run
    runs: int = 10
    depth: int = 5
    lam: float = 0.7
    omega: float = 0.5
    alpha: float = 1.0
    noise: float = 0.0
    init: str = "ones"
    seed: int = 0
    max_plies: int = 400
    hash_mb: int = 16
    qlimit: int = 16
    # The engine's search mode (search.engine.SEARCH_MODES): selective by measurement
    # (BENCHMARKS.md, "Which search learning uses"); plain is the report's full width.
    search: str = "selective"
    # The technique bits of that search (search.engine.search_flags), fixed when the job
    # starts: a resumed job searches as it began even if the engine's per-variant
    # set has changed since. None: taken from ``search`` and the variant at validation.
    flags: int | None = None
    # Keep every N-th game of a run in its games.pgn (1: all, 0: none). Learning does
    # not depend on it; long jobs keep a sample so their folders stay small to commit.
    pgn_every: int = 1
    # Start every game with this many uniformly random legal moves (seeded per game), not
    # searched and not learnt from. 0: from the initial position, as the report did. Chess
    # with tables needs it: from the initial position its self-play fell into one repeated
    # 16-ply draw for hundreds of games (RESULTS.md, "Chess").
    random_plies: int = 0
    # The version of the feature layout the job's weights are in (search.layout): 1, the
    # classic layout, for folders written before layouts were versioned.
    layout: int = LAYOUT_VERSION

    def validate(self) -> LearnConfig:
        self.variant = canonical_variant(self.variant)
        if self.layout not in (1, LAYOUT_VERSION):
            raise LearnError(f"layout version {self.layout} is not one this tdleaf writes "
                             f"(1 or {LAYOUT_VERSION})")
        if self.layout == 1 and self.features not in ("material", "psq"):
            raise LearnError(f"--features must be material or psq, got {self.features!r}")
        try:
            run_layout(self)
        except WeightsError as exc:
            raise LearnError(f"--features: {exc}") from None
        for name, lo in (("games", 1), ("runs", 1), ("depth", 1), ("max_plies", 1),
                         ("hash_mb", 1), ("qlimit", 0), ("pgn_every", 0), ("random_plies", 0)):
            if getattr(self, name) < lo:
                raise LearnError(f"{name} must be >= {lo}, got {getattr(self, name)}")
        if not 0.0 <= self.lam <= 1.0:
            raise LearnError(f"lambda must be in [0, 1], got {self.lam}")
        if not self.omega > 0 or not self.alpha > 0:
            raise LearnError("omega and alpha must be > 0")
        if self.search not in SEARCH_MODES:
            raise LearnError(f"--search must be one of {', '.join(SEARCH_MODES)}, got {self.search!r}")
        if self.flags is None:
            self.flags = search_flags(self.search, self.variant)
        if not 0.0 <= self.noise < 1.0:
            raise LearnError(f"noise must be in [0, 1), got {self.noise}")
        initial_weights(self)   # the --init spec must load
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LearnConfig:
        names = {f.name for f in fields(cls)}
        data = dict(data)
        # Folders written before the search mode was a setting were played full width,
        # and before layouts were versioned, in the classic layout.
        data.setdefault("search", "plain")
        data.setdefault("layout", 1)
        return cls(**{k: v for k, v in data.items() if k in names})


def run_layout(cfg: LearnConfig) -> FeatureLayout:
    """The feature layout of a job's weights: its feature set's in the variant, or the
    classic layout (version 1) for a folder written before layouts were versioned."""
    return LAYOUT if cfg.layout == 1 else feature_layout(cfg.variant, cfg.features)


def learn_mask(cfg: LearnConfig) -> np.ndarray:
    """Which weights learning may change: the feature set's learnt blocks, but the king's
    material only where it can be lost (elsewhere a constant)."""
    mask = run_layout(cfg).mask(learnt_blocks(cfg.variant, cfg.features))
    if cfg.variant not in LOSING_VARIANTS:
        mask[MATERIAL + 5] = False
    return mask


def initial_weights(cfg: LearnConfig) -> np.ndarray:
    """All learned material (and hand) weights 1, tables 0, unless ``init`` names a file
    or value set. Tables start at 0 so that every piece starts worth 1 (material + entry)."""
    layout = run_layout(cfg)
    if cfg.init == "ones":
        w = np.zeros(layout.size)
        w[MATERIAL:MATERIAL + 6] = 1.0
        w[HAND:HAND + 5] = 1.0 if has_pockets(cfg.variant) else 0.0
        if cfg.variant not in LOSING_VARIANTS:
            w[MATERIAL + 5] = 0.0
        return w
    try:
        init = load_weights(cfg.init, cfg.variant)
        if cfg.layout == 1 and init.w.size == layout.size:
            return init.w.copy()        # as before layouts were versioned
        return init.in_layout(layout).w
    except ValueError as exc:
        raise LearnError(f"--init: {exc}") from None


def versions() -> dict[str, str]:
    from importlib import metadata
    out = {"python": platform.python_version()}
    for dist in ("tdleaf", "numba", "numpy", "chess"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "unknown"
    return out


def game_seed(seed: int, run: int, game: int) -> int:
    return ((seed * 1_000_003 + run) * 100_003 + game) % (1 << 61)


# -- files ------------------------------------------------------------------------------

def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON so that a crash leaves either the old or the new file, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)      # mkstemp makes it private; results are for reading
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _append(path: Path, text: str) -> int:
    """Append text, flush it to disk, and return the new file size."""
    with open(path, "a") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
        return fh.tell()


def _truncate(path: Path, size: int) -> None:
    if path.exists() and path.stat().st_size > size:
        with open(path, "r+") as fh:
            fh.truncate(size)


HISTORY_FIELDS = (["game", "result", "plies", "termination", "nodes", "seconds"]
                  + [f"material.{p}" for p in PIECES] + [f"hand.{p}" for p in HAND_PIECES])


def _history_row(game: int, rec, seconds: float, w: np.ndarray) -> str:
    buf = io.StringIO()
    row = [game, rec.result, len(rec.moves), rec.termination, rec.nodes, f"{seconds:.3f}"]
    # Seven significant digits draw every curve; the exact weights are in checkpoint.json.
    # Long jobs commit this file, so it is kept short.
    row += [f"{float(x):.7g}" for x in w[MATERIAL:MATERIAL + 6]]
    row += [f"{float(x):.7g}" for x in w[HAND:HAND + 5]]
    csv.writer(buf, lineterminator="\n").writerow(row)
    return buf.getvalue()


# -- one run ----------------------------------------------------------------------------

Progress = Callable[[int, int, np.ndarray], None]


def run_dir(out: Path, run: int) -> Path:
    return out / f"run-{run:02d}"


def load_checkpoint(rdir: Path) -> dict[str, Any] | None:
    path = rdir / "checkpoint.json"
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise LearnError(f"{path}: unreadable checkpoint: {exc}") from None


#: A run "repeats one game" when at least SHARE of its last WINDOW games were threefold
#: repetitions within PLIES plies (chess with tables from the initial position: 361 of
#: 365; the shipped atomic and suicide runs: at most 34 of 2,000).
REPEAT_WINDOW, REPEAT_SHARE, REPEAT_PLIES = 100, 0.75, 40


def run_learning(out: str | Path, cfg_json: dict[str, Any], run: int,
                 progress: Progress | None = None) -> dict[str, Any]:
    """Play and learn the games of run ``run`` that are not done yet; returns its final
    checkpoint. Safe to call again after a crash: it resumes from the checkpoint."""
    cfg = LearnConfig.from_json(cfg_json)
    rdir = run_dir(Path(out), run)
    rdir.mkdir(parents=True, exist_ok=True)
    hist_path, pgn_path = rdir / "history.csv", rdir / "games.pgn"
    ck = load_checkpoint(rdir)
    layout = run_layout(cfg)
    if ck is None:
        w = initial_weights(cfg)
        tc = TemporalCoherence(layout.size)
        visits = np.zeros((6, 64), dtype=np.int64)
        header = ",".join(HISTORY_FIELDS) + "\n"
        hist_path.write_text(header)
        pgn_path.write_text("")
        ck = {"games": 0, "history_bytes": len(header), "pgn_bytes": 0}
    else:
        w = np.array(ck["w"], dtype=np.float64)
        if w.shape != (layout.size,):
            raise LearnError(f"{rdir / 'checkpoint.json'}: {w.size} weights, but the "
                             f"{layout.name!r} layout has {layout.size}")
        tc = TemporalCoherence(layout.size, np.array(ck["tc_net"]), np.array(ck["tc_total"]))
        visits = np.array(ck["visits"], dtype=np.int64)
    # Drop whatever a killed process appended after its last checkpoint.
    _truncate(hist_path, ck["history_bytes"])
    _truncate(pgn_path, ck["pgn_bytes"])
    mask = learn_mask(cfg)
    engine = Engine(cfg.variant, Weights(cfg.variant, w.copy(), {}, layout=layout), hash_mb=cfg.hash_mb,
                    qlimit=cfg.qlimit, random_ties=True, noise=cfg.noise, search=cfg.search,
                    flags=cfg.flags)
    recent: collections.deque[bool] = collections.deque(maxlen=REPEAT_WINDOW)
    warned = False
    for g in range(int(ck["games"]), cfg.games):
        engine.w[:] = w
        t0 = time.perf_counter()
        seed = game_seed(cfg.seed, run, g)
        opening = random_line(cfg.variant, cfg.random_plies, seed) if cfg.random_plies else ()
        if opening is None:
            raise LearnError(f"no line of {cfg.random_plies} random plies leaves a {cfg.variant} "
                             f"game going (game {g + 1} of run {run})")
        rec = play_game(engine, cfg.variant, cfg.depth, seed, cfg.max_plies, opening=opening)
        change = recommended_change(rec.trajectory, cfg.lam, cfg.omega)
        apply_update(w, change, tc, cfg.alpha, mask)
        visits += rec.visits
        seconds = time.perf_counter() - t0
        recent.append(rec.termination == "threefold_repetition"
                      and len(rec.moves) < REPEAT_PLIES)
        if (not warned and len(recent) == REPEAT_WINDOW
                and sum(recent) >= REPEAT_SHARE * REPEAT_WINDOW):
            warned = True
            print(f"tdleaf learn: warning: run {run}: {sum(recent)} of its last {REPEAT_WINDOW} "
                  f"games were threefold repetitions within {REPEAT_PLIES} plies: self-play is "
                  "repeating one game and learns little from it; --random-plies (e.g. 4) "
                  "opens each game differently", file=sys.stderr, flush=True)
        ck["history_bytes"] = _append(hist_path, _history_row(g + 1, rec, seconds, w))
        if cfg.pgn_every and (g + 1) % cfg.pgn_every == 0:
            ck["pgn_bytes"] = _append(pgn_path, game_pgn(rec, cfg.variant, {
                "Event": f"tdleaf self-play, run {run}", "Round": str(g + 1),
                "White": "tdleaf", "Black": "tdleaf"}))
        ck.update(games=g + 1, w=w.tolist(), tc_net=tc.net.tolist(), tc_total=tc.total.tolist(),
                  visits=visits.tolist())
        write_json_atomic(rdir / "checkpoint.json", ck)
        if progress is not None:
            progress(run, g + 1, w)
    if "w" not in ck:   # nothing left to play and nothing played (games == 0 cannot happen)
        ck.update(w=w.tolist(), tc_net=tc.net.tolist(), tc_total=tc.total.tolist(),
                  visits=visits.tolist())
    Weights(cfg.variant, w, {"run": run, "games": cfg.games}, layout=layout).save(
        rdir / "weights.json")
    return ck


# -- summaries --------------------------------------------------------------------------

def psq_averages(w: np.ndarray, visits: np.ndarray) -> dict[str, float]:
    """Frequency-weighted average value of each piece: material + its table entries
    weighted by how often the piece stood on each square (report, section 5.3)."""
    out = {}
    for i, p in enumerate(PIECES):
        n = visits[i].sum()
        table = w[PSQ + 64 * i:PSQ + 64 * (i + 1)]
        out[p] = float(w[MATERIAL + i] + (table @ visits[i] / n if n else 0.0))
    return out


def _value_index(variant: str) -> dict[str, int]:
    """Where each value of a summary's views lies in the weight vector: the material of
    every piece (the king's too, a constant 0 where it is not learnt) and, in
    crazyhouse, the pieces in hand (``P@hand``)."""
    idx = {p: MATERIAL + i for i, p in enumerate(PIECES)}
    if has_pockets(variant):
        idx.update({f"{p}@hand": HAND + i for i, p in enumerate(HAND_PIECES)})
    return idx


def _view(W: np.ndarray, variant: str, piece: str, target: float,
          ) -> tuple[dict[str, float], dict[str, float], float, str | None]:
    """The values of :func:`~.normalise.mean_then_normalise` so that ``piece`` =
    ``target``, their standard deviations, the factor and, when there is none (empty
    dicts, NaN), why not."""
    idx = _value_index(variant)
    keys = list(idx)
    learnt = [keys.index(p) for p in learnt_pieces(variant)] + \
        [i for i, k in enumerate(keys) if k.endswith("@hand")]
    raw = W[:, [idx[k] for k in keys]]
    m, sd, s = mean_then_normalise(raw, keys.index(piece), target, typical_of=learnt)
    s = float(s)
    if np.isnan(s):
        mean = raw.mean(axis=0)
        return {}, {}, s, problem(float(mean[keys.index(piece)]), target, piece,
                                  float(typical_size(mean[learnt])))
    return ({k: float(m[i]) for i, k in enumerate(keys)},
            {k: float(sd[i]) for i, k in enumerate(keys)}, s, None)


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """What the terminal shows of a summary: the values and their convention (raw
    weights, with the reason in :func:`summary_problems`, where they cannot be
    normalised)."""
    norm = summary["normalisation"]
    piece, target, runs = norm["piece"], norm["value"], summary["runs"]
    learnt_king = summary["variant"] in LOSING_VARIANTS     # else K is a constant 0

    def line(what: str, values: dict[str, float], std: dict[str, float]) -> str:
        return f"{what}: " + ", ".join(f"{k} {v:.2f} \u00b1 {std[k]:.2f}"
                                       for k, v in values.items() if k != "K" or learnt_king)

    view = summary["normalised"][norm["view"]]
    if view:
        out = [line(f"learnt values ({convention_text(piece, target, runs)}; \u00b1 sd over runs)",
                    view, summary["normalised_std"][norm["view"]])]
    else:
        raw = {**summary["material"], **{f"{p}@hand": v for p, v in summary["hand"].items()}}
        std = {**summary["material_std"],
               **{f"{p}@hand": v for p, v in summary["hand_std"].items()}}
        out = [line(f"learnt values (mean of {runs} runs, raw weights: not normalised so that "
                    f"{piece} = {target:g}, see the warning; \u00b1 sd over runs)", raw, std)]
    if summary.get("psq_average_normalised"):
        out.append(line(f"table averages (mean weights and summed visits of {runs} runs, then "
                        f"normalised so that {piece}'s average = {target:g})",
                        summary["psq_average_normalised"],
                        summary["psq_average_normalised_std"]))
    elif summary.get("psq_average"):
        out.append(line(f"table averages (mean weights and summed visits of {runs} runs, raw: "
                        f"not normalised so that {piece}'s average = {target:g}, see the warning)",
                        summary["psq_average"], summary["psq_average_std"]))
    return out


def summary_problems(summary: dict[str, Any]) -> list[str]:
    """Why values that :func:`summary_lines` shows could not be normalised (the main
    view's, the table averages'; summary.json's ``normalisation.problems`` also has the
    pawn view's), one sentence each; empty when all were."""
    problems = summary["normalisation"].get("problems", {})
    return [problems[k] for k in (summary["normalisation"]["view"], "psq_average")
            if k in problems]


def summarise(out: Path, cfg: LearnConfig) -> dict[str, Any]:
    """Average the runs' final weights and write weights.json, weights_std.json and
    summary.json (raw, std, normalised views, piece-square averages): every normalised
    value is the mean over runs of the raw weights, then scaled (:data:`CONVENTION`) by
    a positive factor. A view whose reference mean is near 0 or of the wrong sign is
    left empty, and ``normalisation.problems`` says why."""
    tables = "psq" in learnt_blocks(cfg.variant, cfg.features)   # psq, psq+mobility, ...
    ws, visits = [], []
    for r in range(cfg.runs):
        ck = load_checkpoint(run_dir(out, r))
        if ck is None or ck.get("games") != cfg.games:
            raise LearnError(f"run {r} in {out} is not finished")
        ws.append(np.array(ck["w"]))
        visits.append(np.array(ck["visits"], dtype=np.int64))
    W = np.array(ws)
    vis = np.sum(visits, axis=0)
    mean, std = W.mean(axis=0), W.std(axis=0)
    meta = {"runs": cfg.runs, "games": cfg.games, "features": cfg.features, "depth": cfg.depth,
            "source": "tdleaf learn", "config": cfg.to_json()}
    layout = run_layout(cfg)
    Weights(cfg.variant, mean, meta, layout=layout).save(out / "weights.json")
    Weights(cfg.variant, std, {"what": "standard deviation over runs", **meta},
            layout=layout).save(out / "weights_std.json")
    piece, target = REPORT_NORMALISATION[cfg.variant]
    pawn = pawn_target(cfg.variant)
    views: dict[str, dict[str, float]] = {}
    views_std: dict[str, dict[str, float]] = {}
    problems: dict[str, str] = {}
    main_scale = float("nan")
    for p, t in ((piece, target), ("P", pawn)):
        name = f"{p}={t:g}"
        views[name], views_std[name], scale, why = _view(W, cfg.variant, p, t)
        if why:
            problems[name] = why
        if p == piece:
            main_scale = scale
    scaled_path = out / "weights_normalised.json"
    if np.isnan(main_scale):
        scaled_path.unlink(missing_ok=True)     # never a stale one beside this summary
    else:
        scaled = mean * main_scale
        scaled[MATERIAL + PIECES.index(piece)] = target          # exactly, not nearly
        Weights(cfg.variant, scaled,
                {"what": f"weights.json scaled so that {piece} = {target:g} (the report's "
                         f"normalisation for {cfg.variant}: {CONVENTION})", **meta},
                layout=layout).save(scaled_path)
    material = {p: float(mean[MATERIAL + i]) for i, p in enumerate(PIECES)}
    hand = {p: float(mean[HAND + i]) for i, p in enumerate(HAND_PIECES)} \
        if has_pockets(cfg.variant) else {}
    summary: dict[str, Any] = {
        "variant": cfg.variant, "features": cfg.features, "runs": cfg.runs, "games": cfg.games,
        "normalisation": {
            "convention": CONVENTION, "piece": piece, "value": target,
            "view": f"{piece}={target:g}",
            "scale": None if np.isnan(main_scale) else main_scale,
            "description": (
                f"normalised views: the mean over the {cfg.runs} runs of the raw weights, "
                f"scaled so that {piece} = {target:g} (the report's normalisation for "
                f"{cfg.variant}), or so that P = {pawn:g} (Table 9.1); normalised_std: "
                f"the standard deviation over runs of the raw weights times the same factor; "
                f"only a positive factor is used: a view whose reference mean is near 0 or "
                f"of the wrong sign is empty and 'problems' says why"
                + ("; psq_average: the visit-weighted table averages of the mean weights "
                   "with the visits summed over runs, psq_average_normalised scaled so that "
                   f"{piece}'s average = {target:g}, psq_average_normalised_std the standard "
                   "deviation of each run's own averages times the same factor"
                   if tables else "")),
            "problems": problems,
        },
        "material": material, "hand": hand,
        "material_std": {p: float(std[MATERIAL + i]) for i, p in enumerate(PIECES)},
        "hand_std": {p: float(std[HAND + i]) for i, p in enumerate(HAND_PIECES)}
        if has_pockets(cfg.variant) else {},
        "normalised": views,
        "normalised_std": views_std,
        "psq_average": psq_averages(mean, vis) if tables else {},
        "visits": vis.tolist(),
    }
    if tables:
        per_run = [psq_averages(w, v) for w, v in zip(ws, visits)]
        summary["psq_average_std"] = {p: float(np.std([r[p] for r in per_run])) for p in PIECES}
        pm, psd, s2, why = normalise_averages(summary["psq_average"], per_run, piece, target,
                                              learnt_pieces(cfg.variant))
        summary["normalisation"]["psq_scale"] = None if np.isnan(s2) else s2
        summary["psq_average_normalised"] = pm
        summary["psq_average_normalised_std"] = psd
        if why:
            problems["psq_average"] = why
    write_json_atomic(out / "summary.json", summary)
    return summary
