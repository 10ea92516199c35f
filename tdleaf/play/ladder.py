"""The strength ladder: tdleaf at fixed depths, node counts and move times ("rungs")
measured against a real engine, one ladder per (variant, engine).

Against an engine with a strength knob (Fairy-Stockfish's ``UCI_LimitStrength`` and
``UCI_Elo``), each rung is put on the engine's own scale: the rung plays pairs of games
(one opening, both colours) against settings chosen adaptively near its strength, and
its rating R is the maximum-likelihood fit of ``P(score) = 1 / (1 + 10^((E - R) / 400))``
over all its games, E being each game's ``UCI_Elo`` (:func:`stats.fit_rating`, with a
profile-likelihood interval). Debian's Fairy-Stockfish 11.1 goes no lower than
``UCI_Elo`` 1350; below it the ladder uses ``Skill Level`` -1 to -20, which have no Elo
in that build, at the Elo that later Fairy-Stockfish (May 2021 on, the wasm build
among them) gives them when it maps ``UCI_Elo`` 500-1346 onto negative skill levels
(:func:`skill_level_elo`): an extrapolation of the engine's author, not a measurement,
and the tables mark it.

Against an engine without one (Sjeng), every game is played at one stated limit and a
rung's figure is its Elo difference to that engine, with the same fit (all opponents
at 0), so a rung that lost or won every game gets an honest one-sided interval.

Every series of games is a :func:`match.run_match`, one PGN per batch of games in the
ladder folder (``<variant>-<engine>/<rung>/b001.pgn``), with the opponent settings
chosen recorded in ``batches.json`` next to them before the batch is played, so a
killed ladder carries on with ``resume``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from search import strength
from search.files import write_json, write_text
from search.shipped import save_text, user_data_dir
from variants import canonical_variant
from variants.spec import SPECS

from . import stats
from .game import Adjudication
from .match import GameOutcome, MatchConfig, MatchError, PlayerConfig, _stored_outcome, run_match
from .pgn import read_games
from .players import ExternalPlayer, PlayerError


class LadderError(ValueError):
    """A ladder that cannot be measured as asked."""


# -- the reference engines ---------------------------------------------------------------

@dataclass(frozen=True)
class KnownEngine:
    name: str
    spec: str
    variants: tuple[str, ...]
    limits: dict[str, Any]          # its default move limit in the ladder
    limit_text: str


def _reference_of(spec: str) -> tuple[str, ...]:
    """The variants whose reference engines (:attr:`variants.spec.Variant.engines`)
    include the player spec ``spec``."""
    return tuple(name for name, v in SPECS.items() if spec in v.engines)


KNOWN_ENGINES: dict[str, KnownEngine] = {
    "fairy-stockfish": KnownEngine("fairy-stockfish", "uci:fairy-stockfish",
                                   _reference_of("uci:fairy-stockfish"), {"movetime": 0.1},
                                   "0.1 s a move"),
    "sjeng": KnownEngine("sjeng", "xboard:sjeng", _reference_of("xboard:sjeng"), {"depth": 6},
                         "depth 6 (sd 6)"),
    "fairy-stockfish-wasm": KnownEngine("fairy-stockfish-wasm", "uci:fairy-stockfish-wasm",
                                        _reference_of("uci:fairy-stockfish-wasm"),
                                        {"movetime": 0.1}, "0.1 s a move"),
}
ENGINE_ALIASES = {"fsf": "fairy-stockfish", "wasm": "fairy-stockfish-wasm",
                  "fsf-wasm": "fairy-stockfish-wasm"}
_ENGINE_OF_SPEC = {k.spec: name for name, k in KNOWN_ENGINES.items()}
#: The ladders of issue 10, in order: (variant, engine), each variant's reference
#: engines in the spec's order.
DEFAULT_PLAN: list[tuple[str, str]] = [(name, _ENGINE_OF_SPEC[e]) for name, v in SPECS.items()
                                       for e in v.engines]
#: The variants with reference engines of their own.
LADDER_VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(v for v, _ in DEFAULT_PLAN))


#: The engines that rate a rung on the UCI_Elo scale, what the shipped ladder holds
#: (Sjeng has no strength setting: its figures are differences to Sjeng).
ELO_SCALE_ENGINES = ("fairy-stockfish", "fairy-stockfish-wasm")


def remeasure_plan(variants: list[str] | None = None) -> list[tuple[str, str]]:
    """The ladders that re-measure the shipped ``ladder.json``: each variant (default:
    every ladder variant that has one) against its UCI_Elo-scale engine."""
    out = []
    for v in variants or LADDER_VARIANTS:
        try:
            v = canonical_variant(v)
        except ValueError as exc:
            raise LadderError(str(exc)) from None
        found = [(v, e) for e in engines_for(v) if e in ELO_SCALE_ENGINES]
        if not found and variants:
            fallback = strength.FALLBACK.get(v)
            raise LadderError(f"{v} has no ladder on the UCI_Elo scale (reference engines: "
                              f"{', '.join(engines_for(v)) or 'none'})"
                              + (f"; its UCI_Elo uses the {fallback} ladder" if fallback else ""))
        out += found
    return out


def engines_for(variant: str) -> list[str]:
    """The reference engines of ``variant`` (empty when it has none)."""
    return [e for v, e in DEFAULT_PLAN if v == variant]


def resolve_engine(name: str) -> tuple[str, str]:
    """``(label, spec)`` of a known engine name or alias, or of a uci:/xboard: spec."""
    key = ENGINE_ALIASES.get(name.lower(), name.lower())
    if key in KNOWN_ENGINES:
        return key, KNOWN_ENGINES[key].spec
    if name.startswith(("uci:", "xboard:")):
        label = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.basename(name.split(":", 1)[1].split()[0]))
        return label or "engine", name
    raise LadderError(f"unknown engine {name!r}: one of {', '.join(KNOWN_ENGINES)} "
                      f"(or fsf, wasm), or uci:COMMAND / xboard:COMMAND")


def plan_ladders(variants: list[str], engine: str | None) -> list[tuple[str, str]]:
    """The (variant, engine) ladders asked: every default one of each variant, or the
    variants against one engine."""
    out = []
    for v in variants:
        try:
            v = canonical_variant(v)
        except ValueError as exc:
            raise LadderError(str(exc)) from None
        if engine is None:
            found = engines_for(v)
            if not found:
                raise LadderError(f"no reference engine for {v}: the ladder's are "
                                  + ", ".join(f"{e} ({', '.join(k.variants)})"
                                              for e, k in KNOWN_ENGINES.items())
                                  + "; name one with --engine")
            out += [(v, e) for e in found]
        else:
            out.append((v, engine))
    return out


# -- Fairy-Stockfish's UCI_Elo scale ---------------------------------------------------------

def uci_elo_level(elo: float) -> float:
    """The fractional ``Skill Level`` Fairy-Stockfish plays at ``UCI_Elo`` = ``elo``:
    Stockfish's fit ``((E - 1346.6) / 143.4)^(1 / 0.806)`` (anchored to CCRL 40/4 with
    goldfish 1.13 = 2000, TC 60+0.6) above 1346.6, and below it Fairy-Stockfish's own
    extension to negative levels (May 2021), ``s / 143.4 + (s / 500)^5``, s = E - 1346.6.
    Clamped to [-20, 20]. Debian's 11.1 has only the first branch (UCI_Elo >= 1350)."""
    return min(20.0, max(-20.0, _raw_level(elo)))


def _raw_level(elo: float) -> float:
    s = elo - 1346.6
    return (s / 143.4) ** (1 / 0.806) if s > 0 else s / 143.4 + (s / 500.0) ** 5


def skill_level_elo(level: int) -> float:
    """The ``UCI_Elo`` at which later Fairy-Stockfish plays ``Skill Level`` = ``level``
    (the inverse of :func:`uci_elo_level`): e.g. -1 -> about 1203, -20 -> about 498.
    At exactly that UCI_Elo, later Fairy-Stockfish plays that level on every move (it
    rounds a negative fractional level towards zero)."""
    from scipy.optimize import brentq

    if not -20 <= level <= 20:
        raise ValueError(f"Skill Level is -20..20, got {level}")
    if level == 0:
        return 1346.6
    return float(brentq(lambda e: _raw_level(e) - level, 0.0, 4000.0, xtol=1e-6))


@dataclass(frozen=True)
class Setting:
    """One strength setting of the reference engine and its rating on the ladder's
    scale. ``kind`` is ``uci_elo`` (the engine's UCI_Elo), ``skill`` (a negative Skill
    Level at its extrapolated Elo) or ``fixed`` (the one setting of an engine without a
    strength knob, rated 0)."""

    label: str
    options: tuple[tuple[str, Any], ...]
    elo: float
    kind: str

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def extrapolated(self) -> bool:
        """Whether its Elo is Fairy-Stockfish's extrapolation below its calibrated range."""
        return self.kind == "skill" or (self.kind == "uci_elo" and self.elo < 1346.6)


@dataclass
class Scale:
    """The settings a ladder may play against, weakest first."""

    kind: str                       # "uci_elo" or "fixed"
    settings: list[Setting]
    description: str

    def by_label(self, label: str) -> Setting | None:
        return next((s for s in self.settings if s.label == label), None)

    def nearest(self, target: float) -> Setting:
        """The setting rated nearest to ``target`` (+-inf: the strongest / weakest)."""
        if target == math.inf:
            return self.settings[-1]
        if target == -math.inf:
            return self.settings[0]
        return min(self.settings, key=lambda s: (abs(s.elo - target), s.elo))

    @property
    def anchored_low(self) -> float:
        """The weakest setting that is not extrapolated."""
        return min(s.elo for s in self.settings if not s.extrapolated)


def build_scale(options: dict[str, Any], elo_step: int = 50,
                skill_levels: bool = True, limit_text: str = "") -> Scale:
    """The settings an engine offers: its UCI_Elo from min to max in ``elo_step``
    steps (and, when its UCI_Elo stops at 1350 or above, Skill Level -1..-20 below),
    or one fixed setting when it has no UCI_LimitStrength."""
    names = {n.lower(): n for n in options}
    elo_opt = options.get(names.get("uci_elo", ""))
    if "uci_limitstrength" not in names or elo_opt is None:
        return Scale("fixed", [Setting(limit_text or "as set", (), 0.0, "fixed")],
                     f"one setting ({limit_text or 'as set'}); figures are Elo differences to it")
    lo, hi = int(elo_opt.min), int(elo_opt.max)
    limit, elo = names["uci_limitstrength"], names["uci_elo"]
    values = list(range(lo, hi + 1, elo_step))
    if values[-1] != hi:
        values.append(hi)
    settings = [Setting(f"UCI_Elo {v}", ((limit, "true"), (elo, v)), float(v), "uci_elo")
                for v in values]
    desc = f"UCI_LimitStrength with UCI_Elo {lo}..{hi} in steps of {elo_step}"
    if skill_levels and lo >= 1350 and "skill level" in names:
        skill = names["skill level"]
        settings += [Setting(f"Skill Level {k}", ((skill, k),), skill_level_elo(k), "skill")
                     for k in range(-20, 0)]
        desc += ("; below, Skill Level -20..-1 (no Elo in this build) at the UCI_Elo later "
                 "Fairy-Stockfish gives them (extrapolated, e.g. -1 = 1203, -5 = 818, -20 = 498)")
    if lo < 1346.6:
        desc += "; its UCI_Elo below 1347 is its own extrapolation to negative skill levels"
    settings.sort(key=lambda s: s.elo)
    return Scale("uci_elo", settings, desc)


def probe_engine(spec: str, variant: str, settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Start the engine once: its name and its options (it must play ``variant``)."""
    player = ExternalPlayer(spec, settings)
    try:
        player.start(variant)
        assert player.engine is not None
        return player.name, dict(player.engine.options)
    finally:
        player.close()


# -- rungs -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rung:
    """A tdleaf search limit: ``{"depth": 3}``, ``{"nodes": 5000}`` or ``{"movetime": 0.1}``."""

    kind: str
    value: float

    @property
    def level(self) -> dict[str, Any]:
        return {self.kind: int(self.value) if self.kind != "movetime" else self.value}

    @property
    def label(self) -> str:
        if self.kind == "movetime":
            return f"{self.value:g} s"
        return f"{self.kind} {int(self.value)}"

    @property
    def slug(self) -> str:
        return f"{self.kind}-{self.value:g}"


def make_rungs(depths: list[int], nodes: list[int], movetimes: list[float]) -> list[Rung]:
    rungs = [Rung("depth", d) for d in depths] + [Rung("nodes", n) for n in nodes] + \
            [Rung("movetime", t) for t in movetimes]
    if not rungs:
        raise LadderError("no rungs: give --depths, --nodes or --movetimes")
    if len(set(rungs)) != len(rungs):
        raise LadderError("a rung is listed twice")
    return rungs


# -- the measurement -------------------------------------------------------------------------

@dataclass
class LadderConfig:
    """What decides a ladder's games."""

    player: str = "default"               # tdleaf's weights (a match player spec)
    player_settings: dict[str, Any] = field(default_factory=dict)   # e.g. hash
    rungs: list[Rung] = field(default_factory=lambda: make_rungs([1, 2, 3, 4, 5, 6], [], [0.1, 1.0]))
    games: int = 16                       # per rung
    batch: int = 2                        # games per batch (one opponent setting)
    random_plies: int = 8
    seed: int = 0
    adjudication: Adjudication = field(default_factory=lambda: Adjudication(
        max_plies=400, resign_moves=4, resign_score=10.0))
    workers: int = 1
    engine_limits: dict[str, Any] | None = None     # None: the engine's default
    engine_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # engine or "*" -> options
    elo_step: int = 50
    max_step: float = 400.0
    start_elo: float | None = None
    skill_levels: bool = True

    def validate(self) -> LadderConfig:
        if self.games < 1:
            raise LadderError(f"games per rung must be >= 1, got {self.games}")
        if self.batch < 1:
            raise LadderError(f"batch must be >= 1, got {self.batch}")
        if self.elo_step < 1:
            raise LadderError(f"elo step must be >= 1, got {self.elo_step}")
        if not self.max_step > 0:
            raise LadderError(f"max step must be > 0, got {self.max_step}")
        return self


@dataclass
class Played:
    """One game of a rung: the opponent setting, A's (tdleaf's) score, the outcome."""

    setting: str
    elo: float
    outcome: GameOutcome


@dataclass
class RungResult:
    rung: Rung
    scale: Scale
    games: list[Played] = field(default_factory=list)

    def fit(self) -> stats.RatingFit:
        return stats.fit_rating([g.elo for g in self.games], [g.outcome.a_score for g in self.games])

    def to_json(self) -> dict[str, Any]:
        fit = self.fit()
        w = sum(1 for g in self.games if g.outcome.a_score == 1.0)
        l = sum(1 for g in self.games if g.outcome.a_score == 0.0)
        d = len(self.games) - w - l
        opponents: dict[str, dict[str, Any]] = {}
        for g in self.games:
            o = opponents.setdefault(g.setting, {"setting": g.setting, "elo": g.elo, "games": 0,
                                                 "points": 0.0})
            o["games"] += 1
            o["points"] += g.outcome.a_score
        failures: dict[str, int] = {}
        for g in self.games:
            if g.outcome.failure and g.outcome.failure != "resign":
                key = f"{g.outcome.failure} ({'tdleaf' if g.outcome.failed_a else 'engine'})"
                failures[key] = failures.get(key, 0) + 1
        return {"level": self.rung.level, "label": self.rung.label, "games": len(self.games),
                "wins": w, "losses": l, "draws": d,
                "score": (w + d / 2) / len(self.games) if self.games else None,
                "elo": _num(fit.elo), "elo_ci": [_num(fit.low), _num(fit.high)],
                "stderr": _num(fit.stderr),
                "extrapolated": any(getattr(self.scale.by_label(o), "extrapolated", False)
                                    for o in opponents),
                "opponents": sorted(opponents.values(), key=lambda o: o["elo"]),
                "failures": failures}


def _num(x: float) -> float | str | None:
    """JSON has no infinities: ``"+inf"`` / ``"-inf"``, NaN as null, else rounded."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return round(x, 1)


def _unnum(x: Any) -> float:
    if x is None:
        return math.nan
    if isinstance(x, str):
        return math.inf if x == "+inf" else -math.inf
    return float(x)


@dataclass
class Ladder:
    """One (variant, engine) ladder."""

    variant: str
    engine: str                  # label: fairy-stockfish, sjeng, ...
    spec: str
    engine_name: str = ""
    engine_limits: dict[str, Any] = field(default_factory=dict)
    engine_options: dict[str, Any] = field(default_factory=dict)
    scale: Scale | None = None
    rungs: list[RungResult] = field(default_factory=list)
    evaluation: dict[str, Any] = field(default_factory=dict)   # what tdleaf played

    @property
    def slug(self) -> str:
        return f"{self.variant}-{self.engine}"

    def to_json(self) -> dict[str, Any]:
        assert self.scale is not None
        return {"variant": self.variant, "engine": self.engine_name, "engine_spec": self.spec,
                "engine_limits": self.engine_limits, "engine_options": self.engine_options,
                "scale": self.scale.kind, "scale_description": self.scale.description,
                "rating": "UCI_Elo" if self.scale.kind == "uci_elo"
                          else f"Elo difference to {self.engine_name}",
                "evaluation": self.evaluation,
                "rungs": [r.to_json() for r in self.rungs]}


Progress = Callable[[Ladder, RungResult, str], None]


def _engine_limit_text(limits: dict[str, Any]) -> str:
    parts = []
    if "movetime" in limits:
        parts.append(f"{float(limits['movetime']):g} s a move")
    if "depth" in limits:
        parts.append(f"depth {limits['depth']}")
    if "nodes" in limits:
        parts.append(f"{limits['nodes']} nodes")
    return ", ".join(parts) or "its own limits"


def measure_ladder(ladder: Ladder, cfg: LadderConfig, folder: Path, resume: bool = False,
                   progress: Progress | None = None,
                   after_rung: Callable[[Ladder], None] | None = None) -> Ladder:
    """Play every rung of ``ladder`` (see the module docstring) into ``folder``."""
    known = KNOWN_ENGINES.get(ladder.engine)
    limits = dict(cfg.engine_limits if cfg.engine_limits is not None
                  else (known.limits if known else {"movetime": 0.1}))
    if not any(k in limits for k in ("depth", "nodes", "movetime")):
        raise LadderError("the engine needs a move limit (--engine-movetime or --engine-depth)")
    ladder.engine_limits = limits
    ladder.engine_options = {**cfg.engine_options.get("*", {}),
                             **cfg.engine_options.get(ladder.engine, {})}
    try:
        ladder.engine_name, options = probe_engine(ladder.spec, ladder.variant,
                                                   {**limits, **ladder.engine_options})
    except PlayerError as exc:
        raise LadderError(f"{ladder.variant} against {ladder.engine}: {exc}") from None
    ladder.scale = build_scale(options, cfg.elo_step, cfg.skill_levels, _engine_limit_text(limits))
    scale = ladder.scale
    start = cfg.start_elo if cfg.start_elo is not None else (
        max(1350.0, scale.settings[0].elo) if scale.kind == "uci_elo" else 0.0)
    ladder.rungs = []
    for rung in cfg.rungs:
        result = _measure_rung(ladder, rung, cfg, folder / rung.slug, start, resume, progress)
        ladder.rungs.append(result)
        fit = result.fit()
        if math.isfinite(fit.elo):
            start = fit.elo
        elif fit.elo == math.inf:                 # the next rung is likely stronger still
            start = result.games[-1].elo + cfg.max_step
        elif result.games:                        # lost every game: start where it lost
            start = result.games[-1].elo
        if after_rung:
            after_rung(ladder)
    return ladder


def _choose(scale: Scale, games: list[Played], start: float, max_step: float) -> Setting:
    if scale.kind == "fixed":
        return scale.settings[0]
    if not games:
        return scale.nearest(start)
    fit = stats.fit_rating([g.elo for g in games], [g.outcome.a_score for g in games])
    last = games[-1].elo
    target = min(max(fit.elo, last - max_step), last + max_step)
    return scale.nearest(target)


def _measure_rung(ladder: Ladder, rung: Rung, cfg: LadderConfig, folder: Path, start: float,
                  resume: bool, progress: Progress | None) -> RungResult:
    assert ladder.scale is not None
    scale = ladder.scale
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / "batches.json"
    manifest: list[dict[str, Any]] = []
    if manifest_path.exists():
        if not resume:
            raise LadderError(f"{folder} already holds a ladder: use --resume to carry on, "
                              f"or another --out folder")
        manifest = json.loads(manifest_path.read_text())
    result = RungResult(rung, scale)
    player_name = f"tdleaf {rung.label}"
    n_batches = math.ceil(cfg.games / cfg.batch)
    for b in range(n_batches):
        n = min(cfg.batch, cfg.games - b * cfg.batch)
        if b < len(manifest):
            entry = manifest[b]
            setting = scale.by_label(entry["setting"])
            if setting is None:
                raise LadderError(f"{manifest_path}: batch {b + 1} was played against "
                                  f"{entry['setting']!r}, which this engine does not offer; "
                                  f"not the same ladder")
        else:
            setting = _choose(scale, result.games, start, cfg.max_step)
            entry = {"batch": b + 1, "file": f"b{b + 1:03d}.pgn", "setting": setting.label,
                     "elo": setting.elo, "options": setting.settings}
            manifest.append(entry)
            write_json(manifest_path, manifest, indent=2)
        pgn = folder / entry["file"]
        engine_settings = {**ladder.engine_limits, **ladder.engine_options, **setting.settings,
                           "name": f"{ladder.engine_name} ({setting.label})"}
        mcfg = MatchConfig(variant=ladder.variant,
                           a=PlayerConfig(cfg.player, {**cfg.player_settings, **rung.level,
                                                       "name": player_name}),
                           b=PlayerConfig(ladder.spec, engine_settings),
                           games=n, random_plies=cfg.random_plies,
                           seed=cfg.seed * 100_003 + b,    # batch b: the same openings on every rung
                           adjudication=cfg.adjudication, workers=cfg.workers, pgn=str(pgn),
                           event=f"tdleaf ladder: {ladder.variant}, {rung.label} vs {setting.label}")
        stored = read_games(pgn) if resume else []
        for g in stored:
            if player_name not in (g.white, g.black) or engine_settings["name"] not in (g.white, g.black):
                raise LadderError(f"{pgn}: game {g.round} is {g.white} vs {g.black}, not "
                                  f"{player_name} vs {engine_settings['name']}; not the same ladder")
        if len(stored) >= n:
            outcomes = [_stored_outcome(g) for g in stored[:n]]
        else:
            try:
                outcomes = run_match(mcfg, resume=resume).outcomes
            except MatchError as exc:
                raise LadderError(f"{ladder.variant}, {rung.label} vs {setting.label}: {exc}") from None
        outcomes.sort(key=lambda o: o.index)
        result.games += [Played(setting.label, setting.elo, o) for o in outcomes]
        if progress:
            progress(ladder, result, setting.label)
    return result


# -- a whole ladder run ----------------------------------------------------------------------

def player_evaluation(player: str, variant: str) -> dict[str, Any]:
    """The evaluation a tdleaf player spec plays in ``variant``, as the ladder records it:
    ``{"weights": name, "source": where it was loaded from, "digest": ...}`` (the name is
    the spec, or for ``default`` the set it stands for, e.g. ``learnt-psq``)."""
    from search.layout import (
        WeightsError,
        default_weights,
        default_weights_name,
        load_weights,
        weights_digest,
    )

    try:
        if player == "default":
            w, name = default_weights(variant), default_weights_name(variant)
        else:
            w, name = load_weights(player, variant), player
    except WeightsError as exc:
        raise LadderError(f"{player}: {exc}") from None
    return {"weights": name, "source": w.source, "digest": weights_digest(w.w)}


def run_ladders(plan: list[tuple[str, str]], cfg: LadderConfig, out: Path, resume: bool = False,
                progress: Progress | None = None, command: str = "") -> list[Ladder]:
    """Measure every (variant, engine) ladder of ``plan`` into ``out``, rewriting
    ``out/ladder.json`` and ``out/ladder.md`` after every rung."""
    cfg.validate()
    if not resume and out.exists() and any(out.rglob("batches.json")):
        raise LadderError(f"{out} already holds a ladder: use --resume to carry on, or "
                          f"another --out folder")
    out.mkdir(parents=True, exist_ok=True)
    ladders: list[Ladder] = []
    for variant, engine in plan:
        label, spec = resolve_engine(engine)
        ladders.append(Ladder(variant, label, spec, evaluation=player_evaluation(cfg.player, variant)))
    if resume:
        _check_same_evaluation(out / "ladder.json", ladders)
    done: list[Ladder] = []

    def write(current: Ladder) -> None:
        shown = done + ([] if any(lad is current for lad in done) else [current])
        write_results(out, shown, cfg, command)

    for ladder in ladders:
        measure_ladder(ladder, cfg, out / ladder.slug, resume, progress, after_rung=write)
        done.append(ladder)
        write_results(out, done, cfg, command)
    return ladders


def _check_same_evaluation(path: Path, ladders: list[Ladder]) -> None:
    """A resumed ladder must measure the evaluation its first games measured (the
    default weights may have changed in between)."""
    try:
        before = json.loads(path.read_text()).get("ladders", [])
    except (OSError, ValueError, AttributeError):
        return                                   # nothing measured yet, or no record
    for lad in ladders:
        for old in before:
            if (old.get("variant"), old.get("engine_spec")) != (lad.variant, lad.spec):
                continue
            was, now = _evaluation_key(old.get("evaluation")), _evaluation_key(lad.evaluation)
            if was is not None and was != now:
                raise LadderError(
                    f"{path}: the {lad.variant} ladder was measured with "
                    f"{old['evaluation'].get('weights')} ({was}); tdleaf now plays "
                    f"{lad.evaluation.get('weights')} ({now}): measure it in another --out folder")


def results_json(ladders: list[Ladder], cfg: LadderConfig, command: str = "") -> dict[str, Any]:
    adj = cfg.adjudication
    return {"tdleaf_ladder": 1,
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "command": command, "player": cfg.player, "player_settings": cfg.player_settings,
            "games_per_rung": cfg.games, "batch": cfg.batch, "random_plies": cfg.random_plies,
            "seed": cfg.seed,
            "adjudication": {"max_plies": adj.max_plies, "resign_moves": adj.resign_moves,
                             "resign_score": adj.resign_score, "draw_moves": adj.draw_moves,
                             "draw_score": adj.draw_score, "draw_from": adj.draw_from},
            "ladders": [lad.to_json() for lad in ladders if lad.scale is not None]}


def write_results(out: Path, ladders: list[Ladder], cfg: LadderConfig, command: str = "") -> None:
    data = results_json(ladders, cfg, command)
    write_json(out / "ladder.json", data, indent=2)
    write_text(out / "ladder.md", markdown(data))


def _fmt(x: Any) -> str:
    v = _unnum(x)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return f"{v:.0f}"


def _fmt_diff(x: Any) -> str:
    v = _unnum(x)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return f"{v:+.0f}"


def markdown(data: dict[str, Any]) -> str:
    """The ladder tables (one per variant and engine) as Markdown."""
    adj = data["adjudication"]
    lines = ["# tdleaf strength ladder", "",
             f"tdleaf `{data['player']}`, {data['games_per_rung']} games a rung in batches of "
             f"{data['batch']} (one opening, both colours), {data['random_plies']} random "
             f"opening plies (seed {data['seed']}); draw at {adj['max_plies']} plies"
             + (f", resign after {adj['resign_moves']} moves both agree on "
                f"{adj['resign_score']:g} pawns" if adj["resign_moves"] else "")
             + f". Measured {data['date']}."]
    for lad in data["ladders"]:
        rel = lad["scale"] != "uci_elo"
        head = (f"Elo vs {lad['engine']}" if rel else "rating (UCI_Elo)")
        lines += ["", (f"## {lad['variant']} against {lad['engine']} "
                      f"({_engine_limit_text(lad['engine_limits'])})"), "",
                  f"Scale: {lad['scale_description']}.", "",
                  f"| tdleaf | games | +W -L =D | score | {head} | 95% interval | opponents |",
                  "|---|---|---|---|---|---|---|"]
        any_extra = False
        for r in lad["rungs"]:
            f = _fmt_diff if rel else _fmt
            lo, hi = r["elo_ci"]
            opp = ", ".join(f"{o['setting'].replace('UCI_Elo ', '').replace('Skill Level ', 'skill ')}"
                            f" {o['points']:g}/{o['games']}" for o in r["opponents"]) if not rel else "-"
            mark = " *" if r.get("extrapolated") else ""
            any_extra = any_extra or bool(mark)
            score = f"{100 * r['score']:.0f}%" if r["score"] is not None else "-"
            lines.append(f"| {r['label']} | {r['games']} | +{r['wins']} -{r['losses']} ={r['draws']} "
                         f"| {score} | {f(r['elo'])}{mark} | [{f(lo)}, {f(hi)}] | {opp} |")
        if any_extra:
            lines += ["", ("\\* some of its games were against settings below UCI_Elo 1347 "
                          "(negative Skill Levels), whose Elo is Fairy-Stockfish's extrapolation, "
                          "not a calibration.")]
    return "\n".join(lines) + "\n"


# -- the shipped ladder ----------------------------------------------------------------------

def save_ladder(data: dict[str, Any], path: Path | None = None, note: str = "") -> dict[str, Any]:
    """Write the UCI_Elo ladders of ``data`` (a :func:`results_json`) into the ladder file
    ``path`` (default: ``ladder.json`` in the per-user data folder, which
    :mod:`search.strength` reads before the shipped one; never the package's), keeping
    the variants this run did not measure: those of ``path`` when it exists, else of
    the ladder read now (the user's or the shipped one).

    A variant already in the file against the same engine, engine limits, player and
    search keeps the levels this run did not measure (a later run adding depth 6 keeps
    depths 1-5), and its source lists every run that contributed; a variant measured
    otherwise is replaced whole."""
    target = path if path is not None else user_data_dir() / strength.LADDER_FILE
    base = target if target.exists() else strength.ladder_path()
    shipped: dict[str, Any] = {"variants": {}}
    if base is not None:
        try:
            shipped = json.loads(base.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LadderError(f"{base}: not a ladder file: {exc}") from None
        shipped.setdefault("variants", {})
    shipped["scale"] = ("Fairy-Stockfish's UCI_Elo (UCI_LimitStrength): nominal Elo, anchored "
                        "by Stockfish's calibration of that option (CCRL 40/4, goldfish 1.13 = "
                        "2000, chess at 60+0.6); see the README, 'Strength ladder'")
    sources = shipped.setdefault("sources", {})
    saved = 0
    for lad in data["ladders"]:
        if lad["scale"] != "uci_elo":
            continue
        entries = []
        for r in lad["rungs"]:
            elo = _unnum(r["elo"])
            entries.append({"level": r["level"],
                            "elo": round(elo, 1) if math.isfinite(elo) else None,
                            "elo_ci": r["elo_ci"], "games": r["games"],
                            "wins": r["wins"], "losses": r["losses"], "draws": r["draws"],
                            "extrapolated": r.get("extrapolated", False)})
        variant = lad["variant"]
        # Another evaluation is another ladder: the source must match to merge levels.
        # Its name and digest say which; where this machine loaded it from does not.
        evaluation = {k: v for k, v in (lad.get("evaluation") or {}).items() if k != "source"}
        source = {"engine": lad["engine"], "engine_limits": lad["engine_limits"],
                  "player": data["player"], "evaluation": evaluation,
                  "search": data.get("player_settings", {}).get("search", "selective")}
        run = {"date": data["date"], "games_per_rung": data["games_per_rung"],
               "command": data["command"], "note": note,
               "levels": [e["level"] for e in entries]}
        old, old_entries = sources.get(variant), shipped["variants"].get(variant, [])
        if old and all(old.get(k) == v for k, v in source.items() if k != "evaluation") \
                and _evaluation_key(old.get("evaluation")) == _evaluation_key(source["evaluation"]):
            measured = run["levels"]
            entries = [e for e in old_entries if e["level"] not in measured] + entries
            runs = [dict(r, levels=[lv for lv in r["levels"] if lv not in measured])
                    for r in _source_runs(old, old_entries)]
            runs = [r for r in runs if r["levels"]] + [run]
        else:
            runs = [run]
        shipped["variants"][variant] = sorted(entries, key=lambda e: _level_order(e["level"]))
        sources[variant] = {**source, "runs": runs}
        saved += 1
    if not saved:
        raise LadderError("no ladder on the UCI_Elo scale to save (Sjeng's figures are "
                          "differences to Sjeng, not ratings)")
    shipped["variants"] = dict(sorted(shipped["variants"].items()))
    shipped["sources"] = dict(sorted(sources.items()))
    save_text(strength.LADDER_FILE, _compact(shipped), target)
    return shipped


def _evaluation_key(evaluation: Any) -> str | None:
    """What identifies an evaluation: its digest, else its name (a ladder saved before
    evaluations were recorded has neither)."""
    if not isinstance(evaluation, dict):
        return None
    return evaluation.get("digest") or evaluation.get("weights")


def _source_runs(source: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs of a shipped source; a source saved before runs were listed is one run
    that measured all of its levels."""
    if "runs" in source:
        return source["runs"]
    return [{"date": source.get("date", ""), "games_per_rung": source.get("games_per_rung"),
             "command": source.get("command", ""), "note": source.get("note", ""),
             "levels": [e["level"] for e in entries]}]


_KIND_ORDER = {"depth": 0, "nodes": 1, "movetime": 2}


def _level_order(level: dict[str, Any]) -> tuple[int, float]:
    kind, value = next(iter(level.items()))
    return _KIND_ORDER.get(kind, 3), float(value)


def _compact(shipped: dict[str, Any]) -> str:
    """The ladder file with one line per level and per source, for readable diffs."""
    def block(name: str, value: Any) -> str:
        if name == "variants":
            rows = [f'    {json.dumps(v)}: [\n      ' + ",\n      ".join(json.dumps(e) for e in entries)
                    + "]" for v, entries in value.items()]
            return '  "variants": {\n' + ",\n".join(rows) + "\n  }"
        if name == "sources":
            rows = [f"    {json.dumps(v)}: {json.dumps(s)}" for v, s in value.items()]
            return '  "sources": {\n' + ",\n".join(rows) + "\n  }"
        return f"  {json.dumps(name)}: {json.dumps(value)}"

    order = ["scale"] + [k for k in shipped if k not in ("scale", "variants", "sources")] + \
        ["variants", "sources"]
    return "{\n" + ",\n".join(block(k, shipped[k]) for k in order if k in shipped) + "\n}\n"
