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
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from search import Engine
from search.engine import SEARCH_MODES, search_flags
from search.files import write_json
from search.layout import (
    HAND,
    HAND_PIECES,
    LAYOUT,
    LAYOUT_VERSION,
    MATERIAL,
    MATERIAL_BLACK,
    PIECES,
    PSQ,
    PSQ_BLACK,
    FeatureLayout,
    Weights,
    WeightsError,
    expand_features,
    feature_layout,
    has_pockets,
    learnt_blocks,
    load_weights,
    separate_colours,
    weights_from_json,
)
from variants import canonical_variant, random_line, spec
from variants.normalise import (
    CONVENTION,
    LOSING_VARIANTS,
    convention_text,
    learnt_pieces,
    mean_then_normalise,
    normalise_averages,
    pawn_target,
    problem,
    typical_size,
)

from .bootstrap import BOOTSTRAP_METHODS, MATE_CLIP, METHODS, NODES, Bootstrap
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
    # The learner (tdleaf.learn.bootstrap.METHODS): TDLeaf(lambda), the report's, or one
    # that learns from the nodes of every search (RootStrap, TreeStrap: bootstrap.py).
    # Folders written before it was a setting are TDLeaf.
    method: str = "tdleaf"
    # Per-weight temporal-coherence rates (td.TemporalCoherence); False: alpha alone.
    coherence: bool = True
    # Bootstrapping learners: interior nodes kept per search (a seeded reservoir sample
    # beyond) and the clip of search values, in pawns (mates).
    nodes: int = NODES
    clip: float = MATE_CLIP
    # Bootstrapping learners: also learn from the quiescence nodes whose captures (or
    # evasions) changed their value (search.engine.Collected). Off: interior nodes only.
    quiescence_nodes: bool = False
    # Game counts after which each run saves its weights to snapshots/ (the learning
    # curves of `tdleaf curve`), besides its last game. None: the geometric schedule
    # SNAPSHOT_GAMES. Folders written before it was a setting take the default too.
    snapshots: list[int] | None = None

    def validate(self) -> LearnConfig:
        self.variant = canonical_variant(self.variant)
        # "all" is saved spelt out (psq+mobility+...): the job keeps its blocks when
        # later versions register more, and the figures read them off the name.
        self.features = expand_features(self.features, self.variant)
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
        if self.method not in METHODS:
            raise LearnError(f"--method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if self.quiescence_nodes and self.method not in BOOTSTRAP_METHODS:
            raise LearnError("--quiescence-nodes is for the bootstrapping learners "
                             f"({', '.join(BOOTSTRAP_METHODS)}), not {self.method}")
        if self.nodes < 1 or not self.clip > 0:
            raise LearnError(f"nodes must be >= 1 and clip > 0, got {self.nodes} and {self.clip}")
        if self.snapshots is not None:
            if any(not isinstance(n, int) or n < 1 for n in self.snapshots):
                raise LearnError(f"snapshots must be game counts >= 1, got {self.snapshots}")
            self.snapshots = sorted(set(self.snapshots))
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
    layout = run_layout(cfg)
    mask = layout.mask(learnt_blocks(cfg.variant, cfg.features))
    if cfg.variant not in LOSING_VARIANTS:
        mask[MATERIAL + 5] = False
        if layout.has("material_black"):
            mask[MATERIAL_BLACK + 5] = False
    return mask


#: ``--init random``: every learned weight uniform in +-this (Veness et al.'s "small
#: random values"), seeded by the job's seed and the run.
RANDOM_INIT = 0.1


def initial_weights(cfg: LearnConfig, run: int = 0) -> np.ndarray:
    """All learned material (and hand) weights 1, tables 0, unless ``init`` names a file
    or value set, or is ``random`` (the learned weights uniform in +-RANDOM_INIT, seeded
    by the seed and ``run``). Tables start at 0 so that every piece starts worth 1
    (material + entry)."""
    layout = run_layout(cfg)
    if cfg.init == "random":
        w = np.zeros(layout.size)
        mask = learn_mask(cfg)
        rng = np.random.default_rng([cfg.seed, run])
        w[mask] = rng.uniform(-RANDOM_INIT, RANDOM_INIT, int(mask.sum()))
        return w
    if cfg.init == "ones":
        w = np.zeros(layout.size)
        for at in (MATERIAL, MATERIAL_BLACK) if layout.has("material_black") else (MATERIAL,):
            w[at:at + 6] = 1.0
            if cfg.variant not in LOSING_VARIANTS:
                w[at + 5] = 0.0
        w[HAND:HAND + 5] = 1.0 if has_pockets(cfg.variant) else 0.0
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
#: The last column of history.csv: the process (CPU) time of the game and its update, in
#: seconds (``seconds`` is wall time). Files written before it have no such column, and
#: a run resumed from one keeps its columns (readers fall back on ``seconds``).
CPU_FIELD = "cpu_seconds"


def history_fields(variant: str) -> list[str]:
    """The columns of a run's history.csv: :data:`HISTORY_FIELDS`, then Black's own
    material (``material_black.P`` ...) where the colours have separate values, then
    :data:`CPU_FIELD`."""
    black = [f"material_black.{p}" for p in PIECES] if separate_colours(variant) else []
    return list(HISTORY_FIELDS) + black + [CPU_FIELD]


def _history_has_cpu(path: Path) -> bool:
    """Whether a run's history.csv has the :data:`CPU_FIELD` column (a missing file will
    be written with it)."""
    if not path.exists():
        return True
    with open(path) as fh:
        return CPU_FIELD in next(csv.reader([fh.readline()]), [])


#: Game counts at which a run saves its weights (:func:`snapshot_schedule`): roughly
#: doubling, so that a learning curve has even steps on a log axis; beyond the last
#: entry the schedule keeps doubling (2000, 4000, ...).
SNAPSHOT_GAMES = (60, 125, 250, 500, 1000)


def snapshot_schedule(games: int, snapshots: list[int] | None = None) -> list[int]:
    """The game counts at which a run of ``games`` games saves its weights: those of
    ``snapshots`` (default :data:`SNAPSHOT_GAMES`, then doubling) up to ``games``, and
    ``games`` itself."""
    if snapshots is None:
        counts = list(SNAPSHOT_GAMES)
        while counts[-1] * 2 < games:
            counts.append(counts[-1] * 2)
    else:
        counts = list(snapshots)
    return sorted({n for n in counts if n < games} | {games})


def snapshot_path(rdir: Path, games: int) -> Path:
    """Where a run saves its weights after ``games`` games."""
    return rdir / "snapshots" / f"weights-{games}.json"


def _save_snapshot(rdir: Path, cfg: LearnConfig, run: int, games: int, w: np.ndarray) -> None:
    """Write the run's weights after ``games`` games (atomically; the same bytes whenever
    they are written, so a resumed run writes what an uninterrupted one did)."""
    path = snapshot_path(rdir, games)
    path.parent.mkdir(exist_ok=True)
    Weights(cfg.variant, w.copy(), {"run": run, "games": games, "method": cfg.method,
                                    "features": cfg.features, "source": "tdleaf learn snapshot"},
            layout=run_layout(cfg)).save(path)


def _history_row(game: int, rec, seconds: float, w: np.ndarray, black: bool = False,
                 cpu: float | None = None) -> str:
    buf = io.StringIO()
    row = [game, rec.result, len(rec.moves), rec.termination, rec.nodes, f"{seconds:.3f}"]
    # Seven significant digits draw every curve; the exact weights are in checkpoint.json.
    # Long jobs commit this file, so it is kept short.
    row += [f"{float(x):.7g}" for x in w[MATERIAL:MATERIAL + 6]]
    row += [f"{float(x):.7g}" for x in w[HAND:HAND + 5]]
    if black:
        row += [f"{float(x):.7g}" for x in w[MATERIAL_BLACK:MATERIAL_BLACK + 6]]
    if cpu is not None:
        row.append(f"{cpu:.3f}")
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
#: A run is "one-sided" when one colour won each of its last ONE_SIDED games: the loser's
#: values then get no signal (horde from weights of 1: White won every game of 4 of 10
#: runs from their first games on, and Black's values stayed near 1).
ONE_SIDED = 100


class _Watch:
    """A warning said once in a run: when its last ``window`` games, each reduced to one
    value by ``fact``, meet ``test``; ``message`` says what they show."""

    def __init__(self, window: int, fact: Callable[[Any], Any],
                 test: Callable[[collections.deque], bool],
                 message: Callable[[collections.deque], str]) -> None:
        self.recent: collections.deque = collections.deque(maxlen=window)
        self.fact, self.test, self.message = fact, test, message
        self.said = False

    def add(self, rec: Any, run: int) -> None:
        self.recent.append(self.fact(rec))
        if not self.said and len(self.recent) == self.recent.maxlen and self.test(self.recent):
            self.said = True
            print(f"tdleaf learn: warning: run {run}: {self.message(self.recent)}",
                  file=sys.stderr, flush=True)


def _watches() -> list[_Watch]:
    """What a run warns about: one game repeated, one colour winning every game."""
    return [
        _Watch(REPEAT_WINDOW,
               lambda rec: rec.termination == "threefold_repetition"
               and len(rec.moves) < REPEAT_PLIES,
               lambda r: sum(r) >= REPEAT_SHARE * REPEAT_WINDOW,
               lambda r: f"{sum(r)} of its last {REPEAT_WINDOW} games were threefold "
                         f"repetitions within {REPEAT_PLIES} plies: self-play is repeating "
                         "one game and learns little from it; --random-plies (e.g. 4) opens "
                         "each game differently"),
        _Watch(ONE_SIDED, lambda rec: rec.result,
               lambda r: r[0] != 0.5 and r.count(r[0]) == ONE_SIDED,
               lambda r: f"{'White' if r[0] else 'Black'} won each of its last {ONE_SIDED} "
                         "games: the side that always loses learns little about its own "
                         "pieces, and this run's values may differ from those of runs that "
                         "escape such a start (compare the runs before trusting their mean)"),
    ]


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
    colours = separate_colours(cfg.variant)
    if ck is None:
        w = initial_weights(cfg, run)
        tc = TemporalCoherence(layout.size)
        visits = np.zeros((6, 64), dtype=np.int64)
        visits_black = np.zeros((6, 64), dtype=np.int64)
        block_visits = np.zeros(layout.size - layout.leaf_start, dtype=np.int64)
        header = ",".join(history_fields(cfg.variant)) + "\n"
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
        visits_black = np.array(ck.get("visits_black", np.zeros((6, 64))), dtype=np.int64)
        block_visits = np.array(ck.get("block_visits", np.zeros(layout.size - layout.leaf_start)),
                                dtype=np.int64)
    # Drop whatever a killed process appended after its last checkpoint.
    _truncate(hist_path, ck["history_bytes"])
    _truncate(pgn_path, ck["pgn_bytes"])
    cpu_column = _history_has_cpu(hist_path)
    snapshots = snapshot_schedule(cfg.games, cfg.snapshots)
    if ck["games"] in snapshots and not snapshot_path(rdir, ck["games"]).exists():
        # A run resumed from a folder written before snapshots: its weights now are exact.
        _save_snapshot(rdir, cfg, run, ck["games"], w)
    mask = learn_mask(cfg)
    bootstrap = cfg.method in BOOTSTRAP_METHODS
    engine = Engine(cfg.variant, Weights(cfg.variant, w.copy(), {}, layout=layout), hash_mb=cfg.hash_mb,
                    qlimit=cfg.qlimit, random_ties=True, noise=cfg.noise, search=cfg.search,
                    flags=cfg.flags, collect=cfg.nodes if bootstrap else 0,
                    collect_quiescence=cfg.quiescence_nodes)
    # RootStrap and TreeStrap update w and tc in place after every search of a game.
    learner = Bootstrap(cfg.method, w, tc, mask, alpha=cfg.alpha, omega=cfg.omega,
                        coherence=cfg.coherence, clip=cfg.clip) if bootstrap else None
    watches = _watches()
    for g in range(int(ck["games"]), cfg.games):
        engine.w[:] = w
        t0, cpu0 = time.perf_counter(), time.process_time()
        seed = game_seed(cfg.seed, run, g)
        opening = random_line(cfg.variant, cfg.random_plies, seed) if cfg.random_plies else ()
        if opening is None:
            raise LearnError(f"no line of {cfg.random_plies} random plies leaves a {cfg.variant} "
                             f"game going (game {g + 1} of run {run})")
        if learner is not None:
            rec = learner.play(engine, cfg.variant, cfg.depth, seed, cfg.max_plies, opening)
        else:
            rec = play_game(engine, cfg.variant, cfg.depth, seed, cfg.max_plies, opening=opening)
            change = recommended_change(rec.trajectory, cfg.lam, cfg.omega)
            apply_update(w, change, tc, cfg.alpha, mask, coherence=cfg.coherence)
        visits += rec.visits
        if rec.visits_black is not None:
            visits_black += rec.visits_black
        if rec.block_visits is not None:
            block_visits += rec.block_visits
        seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        for watch in watches:
            watch.add(rec, run)
        ck["history_bytes"] = _append(hist_path, _history_row(
            g + 1, rec, seconds, w, colours, cpu if cpu_column else None))
        if cfg.pgn_every and (g + 1) % cfg.pgn_every == 0:
            ck["pgn_bytes"] = _append(pgn_path, game_pgn(rec, cfg.variant, {
                "Event": f"tdleaf self-play, run {run}", "Round": str(g + 1),
                "White": "tdleaf", "Black": "tdleaf"}))
        ck.update(games=g + 1, w=w.tolist(), tc_net=tc.net.tolist(), tc_total=tc.total.tolist(),
                  visits=visits.tolist())
        if colours:         # Black's own pieces, in Black's view (its own tables')
            ck["visits_black"] = visits_black.tolist()
        if block_visits.size:       # the leaf blocks' entries
            ck["block_visits"] = block_visits.tolist()
        if g + 1 in snapshots:      # before the checkpoint: a kill between them replays it
            _save_snapshot(rdir, cfg, run, g + 1, w)
        write_json(rdir / "checkpoint.json", ck)
        if progress is not None:
            progress(run, g + 1, w)
    if "w" not in ck:   # nothing left to play and nothing played (games == 0 cannot happen)
        ck.update(w=w.tolist(), tc_net=tc.net.tolist(), tc_total=tc.total.tolist(),
                  visits=visits.tolist())
        if colours:
            ck["visits_black"] = visits_black.tolist()
    Weights(cfg.variant, w, {"run": run, "games": cfg.games}, layout=layout).save(
        rdir / "weights.json")
    return ck


# -- summaries --------------------------------------------------------------------------

def _offsets(black: bool) -> tuple[int, int]:
    """(material offset, table offset) of one colour's values: Black's own blocks with
    ``black`` (variants with separate values per colour), else the shared ones."""
    return (MATERIAL_BLACK, PSQ_BLACK) if black else (MATERIAL, PSQ)


def psq_averages(w: np.ndarray, visits: np.ndarray, black: bool = False) -> dict[str, float]:
    """Frequency-weighted average value of each piece: material + its table entries
    weighted by how often the piece stood on each square (report, section 5.3); with
    ``black``, of Black's own values (``material_black``, ``psq_black``) and visits."""
    mat, tab = _offsets(black)
    out = {}
    for i, p in enumerate(PIECES):
        n = visits[i].sum()
        table = w[tab + 64 * i:tab + 64 * (i + 1)]
        out[p] = float(w[mat + i] + (table @ visits[i] / n if n else 0.0))
    return out


def _value_index(variant: str, black: bool = False) -> dict[str, int]:
    """Where each value of a summary's views lies in the weight vector: the material of
    every piece (the king's too, a constant 0 where it is not learnt; Black's own with
    ``black``) and, in crazyhouse, the pieces in hand (``P@hand``)."""
    idx = {p: _offsets(black)[0] + i for i, p in enumerate(PIECES)}
    if has_pockets(variant) and not black:
        idx.update({f"{p}@hand": HAND + i for i, p in enumerate(HAND_PIECES)})
    return idx


def _view(W: np.ndarray, variant: str, piece: str, target: float, black: bool = False,
          ) -> tuple[dict[str, float], dict[str, float], float, str | None]:
    """The values of :func:`~.normalise.mean_then_normalise` so that ``piece`` =
    ``target`` (Black's own with ``black``), their standard deviations, the factor and,
    when there is none (empty dicts, NaN), why not."""
    idx = _value_index(variant, black)
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


def _colour_parts(summary: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(who, part) of a summary: the summary itself, and where the colours have separate
    values its ``black`` part (who: ``White's ``, ``Black's ``; empty otherwise)."""
    if "black" not in summary:
        return [("", summary)]
    return [("White's ", summary), ("Black's ", summary["black"])]


#: A leaf-block entry non-zero in fewer positions than this is reported as rare (the
#: issue's yardstick for starved table entries).
RARE_VISITS = 100


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """What the terminal shows of a summary: the values and their convention (raw
    weights, with the reason in :func:`summary_problems`, where they cannot be
    normalised); White's and Black's apart where the colours have separate values."""
    runs = summary["runs"]
    valued = learnt_pieces(summary["variant"])
    of_runs = f"{runs} runs" if runs != 1 else "1 run"

    def line(what: str, values: dict[str, float], std: dict[str, float]) -> str:
        return f"{what}: " + ", ".join(f"{k} {v:.2f} \u00b1 {std[k]:.2f}"
                                       for k, v in values.items() if k.split("@")[0] in valued)

    out = []
    for who, part in _colour_parts(summary):
        norm = part["normalisation"]
        piece, target = norm["piece"], norm["value"]
        view = part["normalised"][norm["view"]]
        if view:
            out.append(line(f"{who}learnt values ({convention_text(piece, target, runs)}; "
                            f"\u00b1 sd over runs)", view, part["normalised_std"][norm["view"]]))
        else:
            raw = {**part["material"], **{f"{p}@hand": v for p, v in part["hand"].items()}}
            std = {**part["material_std"],
                   **{f"{p}@hand": v for p, v in part["hand_std"].items()}}
            out.append(line(f"{who}learnt values (mean of {of_runs}, raw weights: not "
                            f"normalised so that {piece} = {target:g}, see the warning; "
                            f"\u00b1 sd over runs)", raw, std))
        if part.get("psq_average_normalised"):
            out.append(line(f"{who}table averages (mean weights and summed visits of {of_runs}, "
                            f"then normalised so that {piece}'s average = {target:g})",
                            part["psq_average_normalised"], part["psq_average_normalised_std"]))
        elif part.get("psq_average"):
            out.append(line(f"{who}table averages (mean weights and summed visits of {of_runs}, "
                            f"raw: not normalised so that {piece}'s average = "
                            f"{target:g}, see the warning)",
                            part["psq_average"], part["psq_average_std"]))
    for name, visits in summary.get("block_visits", {}).items():
        rare = sum(1 for n in visits.values() if n < RARE_VISITS)
        out.append(f"leaf block {name}: {len(visits)} weights (summary.json: blocks), "
                   + (f"{rare} of them non-zero in fewer than {RARE_VISITS} positions "
                      "(they learn little)" if rare else
                      f"each non-zero in at least {RARE_VISITS} positions"))
    return out


def summary_problems(summary: dict[str, Any]) -> list[str]:
    """Why values that :func:`summary_lines` shows could not be normalised (the main
    view's, the table averages'; summary.json's ``normalisation.problems`` also has the
    pawn view's), one sentence each, Black's prefixed where the colours have separate
    values; empty when all were."""
    out = []
    for who, part in _colour_parts(summary):
        problems = part["normalisation"].get("problems", {})
        out += [f"{who}{problems[k]}" for k in (part["normalisation"]["view"], "psq_average")
                if k in problems]
    return out


def _side(cfg: LearnConfig, W: np.ndarray, ws: list[np.ndarray], visits: list[np.ndarray],
          tables: bool, black: bool) -> tuple[dict[str, Any], float]:
    """One colour's part of summary.json (both colours' where they share their values):
    raw, std, normalised views (by the spec's rule for that colour), table averages; and
    the factor of its main view (NaN: none)."""
    mean, std = W.mean(axis=0), W.std(axis=0)
    mat = _offsets(black)[0]
    piece, target = spec.get(cfg.variant).normalisation(black)
    pawn = pawn_target(cfg.variant)
    views: dict[str, dict[str, float]] = {}
    views_std: dict[str, dict[str, float]] = {}
    problems: dict[str, str] = {}
    main_scale = float("nan")
    for p, t in ((piece, target), ("P", pawn)):
        name = f"{p}={t:g}"
        views[name], views_std[name], scale, why = _view(W, cfg.variant, p, t, black)
        if why:
            problems[name] = why
        if p == piece:
            main_scale = scale
    whose = ("Black's own values (material_black, psq_black), " if black else
             "White's values, " if separate_colours(cfg.variant) else "")
    vis = np.sum(visits, axis=0)
    hand = has_pockets(cfg.variant) and not black
    part: dict[str, Any] = {
        "normalisation": {
            "convention": CONVENTION, "piece": piece, "value": target,
            "view": f"{piece}={target:g}",
            "scale": None if np.isnan(main_scale) else main_scale,
            "description": (
                f"normalised views: {whose}the mean over the {cfg.runs} runs of the raw "
                f"weights, scaled so that {piece} = {target:g} (the report's normalisation "
                f"for {cfg.variant}), or so that P = {pawn:g} (Table 9.1); normalised_std: "
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
        "material": {p: float(mean[mat + i]) for i, p in enumerate(PIECES)},
        "hand": {p: float(mean[HAND + i]) for i, p in enumerate(HAND_PIECES)} if hand else {},
        "material_std": {p: float(std[mat + i]) for i, p in enumerate(PIECES)},
        "hand_std": {p: float(std[HAND + i]) for i, p in enumerate(HAND_PIECES)} if hand else {},
        "normalised": views,
        "normalised_std": views_std,
        "psq_average": psq_averages(mean, vis, black) if tables else {},
        "visits": vis.tolist(),
    }
    if tables:
        per_run = [psq_averages(w, v, black) for w, v in zip(ws, visits)]
        part["psq_average_std"] = {p: float(np.std([r[p] for r in per_run])) for p in PIECES}
        pm, psd, s2, why = normalise_averages(part["psq_average"], per_run, piece, target,
                                              learnt_pieces(cfg.variant))
        part["normalisation"]["psq_scale"] = None if np.isnan(s2) else s2
        part["psq_average_normalised"] = pm
        part["psq_average_normalised_std"] = psd
        if why:
            problems["psq_average"] = why
    return part, main_scale


def _leaf_part(out: Path, cfg: LearnConfig, layout: FeatureLayout, mean: np.ndarray,
               std: np.ndarray) -> dict[str, Any]:
    """summary.json's leaf blocks (none: empty): each entry's mean and standard deviation
    over runs (raw weights: a leaf block has no normalised view) and its visits, the
    positions of all runs' games where its feature was not zero (a starved entry learns
    nothing)."""
    leaf = [b for b in layout.blocks if b.evaluation == "leaf"]
    if not leaf:
        return {}
    visits = np.zeros(layout.size - layout.leaf_start, dtype=np.int64)
    for r in range(cfg.runs):
        ck = load_checkpoint(run_dir(out, r)) or {}
        visits += np.array(ck.get("block_visits", np.zeros(visits.size)), dtype=np.int64)
    part: dict[str, Any] = {"blocks": {}, "blocks_std": {}, "block_visits": {}}
    for b in leaf:
        span = layout.span(b.name)
        at = span.start - layout.leaf_start
        part["blocks"][b.name] = dict(zip(b.entries, map(float, mean[span])))
        part["blocks_std"][b.name] = dict(zip(b.entries, map(float, std[span])))
        part["block_visits"][b.name] = dict(zip(b.entries, map(int, visits[at:at + b.size])))
    return part


#: What tools add to a finished job's weights.json (``tdleaf bench prior --save``): kept
#: when the job is summarised again (``--resume`` of a finished job) with the same weights.
ADDED_META = ("prior_temperature", "prior_win_logit")


def _kept_meta(path: Path, variant: str, mean: np.ndarray) -> dict[str, Any]:
    """The :data:`ADDED_META` entries of the weights file at ``path`` if its weights are
    ``mean`` (fitted to these weights, they still hold); nothing otherwise."""
    try:
        old = weights_from_json(json.loads(path.read_text(encoding="utf-8")), variant)
    except (OSError, ValueError):
        return {}
    if old.w.shape != mean.shape or not np.array_equal(old.w, mean):
        return {}
    return {k: old.meta[k] for k in ADDED_META if k in old.meta}


def summarise(out: Path, cfg: LearnConfig) -> dict[str, Any]:
    """Average the runs' final weights and write weights.json, weights_std.json and
    summary.json (raw, std, normalised views, piece-square averages): every normalised
    value is the mean over runs of the raw weights, then scaled (:data:`CONVENTION`) by
    a positive factor. A view whose reference mean is near 0 or of the wrong sign is
    left empty, and ``normalisation.problems`` says why. Where the colours have separate
    values (horde), summary.json's ``black`` holds Black's own, normalised by the spec's
    rule for Black (``Variant.normalisation(black=True)``)."""
    tables = "psq" in learnt_blocks(cfg.variant, cfg.features)   # psq, psq+mobility, ...
    colours = separate_colours(cfg.variant)
    ws, visits, visits_black = [], [], []
    for r in range(cfg.runs):
        ck = load_checkpoint(run_dir(out, r))
        if ck is None or ck.get("games") != cfg.games:
            raise LearnError(f"run {r} in {out} is not finished")
        ws.append(np.array(ck["w"]))
        visits.append(np.array(ck["visits"], dtype=np.int64))
        visits_black.append(np.array(ck.get("visits_black", np.zeros((6, 64))), dtype=np.int64))
    W = np.array(ws)
    mean, std = W.mean(axis=0), W.std(axis=0)
    meta = {"runs": cfg.runs, "games": cfg.games, "features": cfg.features, "depth": cfg.depth,
            "source": "tdleaf learn", "config": cfg.to_json()}
    layout = run_layout(cfg)
    # Only weights.json keeps them: a temperature fitted to the raw scale would be wrong
    # beside the normalised weights, and means nothing beside the standard deviations.
    kept = _kept_meta(out / "weights.json", cfg.variant, mean)
    Weights(cfg.variant, mean, {**meta, **kept}, layout=layout).save(out / "weights.json")
    Weights(cfg.variant, std, {"what": "standard deviation over runs", **meta},
            layout=layout).save(out / "weights_std.json")
    white, main_scale = _side(cfg, W, ws, visits, tables, black=False)
    black, black_scale = _side(cfg, W, ws, visits_black, tables, black=True) if colours \
        else ({}, 1.0)
    piece, target = white["normalisation"]["piece"], white["normalisation"]["value"]
    scaled_path = out / "weights_normalised.json"
    if np.isnan(main_scale) or np.isnan(black_scale):
        scaled_path.unlink(missing_ok=True)     # never a stale one beside this summary
    else:
        scaled = mean * main_scale
        scaled[MATERIAL + PIECES.index(piece)] = target          # exactly, not nearly
        what = f"{piece} = {target:g}"
        if colours:
            # Black's own values by Black's rule: a view, not an evaluation to play (the
            # two colours' scales differ).
            bpiece, btarget = black["normalisation"]["piece"], black["normalisation"]["value"]
            for name in ("material_black", "psq_black"):
                scaled[layout.span(name)] = mean[layout.span(name)] * black_scale
            scaled[MATERIAL_BLACK + PIECES.index(bpiece)] = btarget
            what = (f"White's {what} and Black's {bpiece} = {btarget:g}, each colour by its "
                    f"own factor (a view of the values: it does not play as weights.json)")
        Weights(cfg.variant, scaled,
                {"what": f"weights.json scaled so that {what} (the report's "
                         f"normalisation for {cfg.variant}: {CONVENTION})", **meta},
                layout=layout).save(scaled_path)
    summary: dict[str, Any] = {
        "variant": cfg.variant, "features": cfg.features, "runs": cfg.runs, "games": cfg.games,
        **white,
    }
    if colours:
        summary["black"] = black
    summary.update(_leaf_part(out, cfg, layout, mean, std))
    write_json(out / "summary.json", summary)
    return summary
