"""What decides a learning job: :class:`LearnConfig` (every setting, with the defaults
``tdleaf learn`` reads from it), and what follows from it alone: the feature layout of
its weights, which weights it learns, and the weights it starts from.

Numba-free: the command line reads the defaults before anything heavy is loaded.
"""

from __future__ import annotations

import json
import platform
from dataclasses import MISSING, asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from search.layout import (
    HAND,
    LAYOUT,
    LAYOUT_VERSION,
    MATERIAL,
    MATERIAL_BLACK,
    FeatureLayout,
    WeightsError,
    expand_features,
    feature_layout,
    has_pockets,
    learnt_blocks,
    load_weights,
)
from variants import canonical_variant
from variants.errors import TdleafError
from variants.normalise import LOSING_VARIANTS

#: The learners of ``tdleaf learn --method`` (TDLeaf first: the default); the others
#: learn from every search's nodes (:mod:`.bootstrap`).
METHODS = ("tdleaf", "rootstrap", "treestrap", "treestrap-ab")
#: The bootstrapping learners (:mod:`.bootstrap`).
BOOTSTRAP_METHODS = METHODS[1:]
#: Bootstrapping learners: search values are clipped to +-this many pawns (mate scores
#: are +-(100000 - ply)).
MATE_CLIP = 20.0
#: Bootstrapping learners: interior nodes kept per search (a seeded reservoir sample beyond).
NODES = 4096
#: The evaluation noise of a feature set with piece-square tables (``psq``, ``psq+...``)
#: when none is given: the report's "about 1%", so that games differ. Material alone
#: needs none (random tie-breaks suffice).
TABLE_NOISE = 0.01


def default_noise(features: str) -> float:
    """The evaluation noise a job of ``features`` learns with when none is given:
    :data:`TABLE_NOISE` for the tables' feature sets (``psq``, ``psq+BLOCK...``), else 0."""
    return TABLE_NOISE if str(features).split("+")[0] == "psq" else 0.0


class LearnError(TdleafError, ValueError):
    """A learning configuration or result folder that cannot be used."""


@dataclass
class LearnConfig:
    """Every setting that determines the result of a learning job; the defaults are
    ``tdleaf learn``'s (the report's small experiment)."""

    variant: str
    # A feature set of search.layout.FEATURE_SETS ("material", "psq"), + added blocks.
    features: str = "material"
    games: int = 2000               # per run
    runs: int = 10
    depth: int = 5
    lam: float = 0.7
    omega: float = 0.5
    alpha: float = 1.0
    # Each evaluation times 1 + a uniform number in [-noise, noise], seeded per game.
    # None: default_noise(features), 1% with tables (the report's), 0 for material.
    noise: float | None = None
    init: str = "ones"
    seed: int = 0
    max_plies: int = 400
    hash_mb: int = 16
    qlimit: int = 16
    # The engine's search mode (search.alphabeta.modes.SEARCH_MODES): selective by measurement
    # (BENCHMARKS.md, "Which search learning uses"); plain is the report's full width.
    search: str = "selective"
    # The technique bits of that search (search.alphabeta.engine.search_flags), fixed when the job
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
    # The learner (METHODS, .learners): TDLeaf(lambda), the report's, or one
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
    # evasions) changed their value (search.alphabeta.collect.Collected). Off: interior nodes only.
    quiescence_nodes: bool = False
    # Game counts after which each run saves its weights to snapshots/ (the learning
    # curves of `tdleaf curve`), besides its last game. None: the geometric schedule
    # SNAPSHOT_GAMES. Folders written before it was a setting take the default too.
    snapshots: list[int] | None = None

    def __post_init__(self) -> None:
        if self.noise is None:       # before validate() spells "all" out: as the command did
            self.noise = default_noise(self.features)

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
        from search.alphabeta.engine import (  # numba: only when validating
            SEARCH_MODES,
            search_flags,
        )
        if self.search not in SEARCH_MODES:
            raise LearnError(f"--search must be one of {', '.join(SEARCH_MODES)}, got {self.search!r}")
        if self.flags is None:
            self.flags = search_flags(self.search, self.variant)
        if self.noise is None or not 0.0 <= self.noise < 1.0:
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


def default(name: str) -> Any:
    """The default of the :class:`LearnConfig` field ``name`` (None for ``noise``: it
    depends on the features, see :func:`default_noise`)."""
    found = next(f for f in fields(LearnConfig) if f.name == name)
    return None if found.default is MISSING else found.default


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


def job_config(out: Path, variant: str | None, given: dict[str, Any],
               resume: bool) -> tuple[LearnConfig, dict[str, Any]]:
    """The configuration of the learning job in ``out`` and the record ``config.json``
    holds of it. With ``resume``, the saved one, refused where ``variant`` or an option
    in ``given`` (LearnConfig fields) differs from it; else a new one from ``variant``
    and ``given``, refused where ``out`` already holds a job (LearnError either way)."""
    cfg_path = out / "config.json"
    if resume:
        if not cfg_path.exists():
            raise LearnError(f"--resume: no config.json in {out}")
        try:
            saved = json.loads(cfg_path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise LearnError(f"--resume: unreadable {cfg_path}: {exc}") from None
        try:
            cfg = LearnConfig.from_json(saved["learn"])
        except (KeyError, TypeError, AttributeError):
            raise LearnError(f"--resume: {cfg_path} is not a tdleaf learn configuration") from None
        asked = dict(given) if variant is None else {**given, "variant": variant}
        for key, value in asked.items():
            current = getattr(cfg, key)
            if key == "variant":
                value = canonical_variant(value)
            if value != current:
                raise LearnError(f"--resume: {out} was made with {key}={current!r}, not {value!r}")
        return cfg.validate(), saved
    if variant is None:
        raise LearnError("--variant is required (or --resume with --out)")
    if cfg_path.exists():
        raise LearnError(f"{out} already holds a learning job; use --resume or another --out")
    try:
        cfg = LearnConfig(variant=variant, **given).validate()
    except ValueError as exc:        # a LearnError, or a value the dataclass refuses
        raise LearnError(str(exc)) from None
    saved = {"learn": cfg.to_json(), "versions": versions(),
             "created": datetime.now(UTC).isoformat(timespec="seconds")}
    return cfg, saved
