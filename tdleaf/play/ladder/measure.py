"""Measuring a ladder: each rung's batches of games against settings chosen near its
strength as the games come in (see :mod:`tdleaf.play.ladder`), resumable from the
batches recorded beside the rung's games file."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from search.files import write_json

from .. import stats
from ..gamefiles import read_members
from ..match import (
    GameOutcome,
    MatchConfig,
    MatchError,
    MatchPool,
    PlayerConfig,
    run_match,
    stored_outcome,
)
from ..pgn import StoredGame, append_game, parse_games, read_games
from ..players import ExternalPlayer, PlayerError
from .config import LadderConfig, LadderError, Rung, engine_limit_text, json_number
from .registry import KNOWN_ENGINES, resolve_engine
from .report import write_ladder_files
from .scale import Scale, Setting, build_scale, rung_bound
from .shipped import evaluation_key


def probe_engine(spec: str, variant: str, settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Start the engine once: its name and its options (it must play ``variant``)."""
    player = ExternalPlayer(spec, settings)
    try:
        player.start(variant)
        assert player.engine is not None
        return player.name, dict(player.engine.options)
    finally:
        player.close()


@dataclass
class Played:
    """One game of a rung: the opponent setting, A's (tdleaf's) score, the outcome."""

    setting: str
    elo: float
    outcome: GameOutcome


@dataclass
class RungResult:
    """A rung's games so far, and their rating on the ladder's scale."""

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
        bound = None
        if self.scale.kind == "uci_elo":
            bound = rung_bound(list(opponents.values()), fit.elo, self.scale.lowest,
                               self.scale.highest)
        return {"level": self.rung.level, "label": self.rung.label, "games": len(self.games),
                "wins": w, "losses": l, "draws": d,
                "score": (w + d / 2) / len(self.games) if self.games else None,
                "elo": json_number(fit.elo), "elo_ci": [json_number(fit.low), json_number(fit.high)],
                "stderr": json_number(fit.stderr),
                "extrapolated": any(getattr(self.scale.by_label(o), "extrapolated", False)
                                    for o in opponents),
                "bound": bound,
                "opponents": sorted(opponents.values(), key=lambda o: o["elo"]),
                "failures": failures}


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
                "scale_range": [self.scale.lowest, self.scale.highest],
                "rating": "UCI_Elo" if self.scale.kind == "uci_elo"
                          else f"Elo difference to {self.engine_name}",
                "evaluation": self.evaluation,
                "rungs": [r.to_json() for r in self.rungs]}


Progress = Callable[[Ladder, RungResult, str], None]


def measure_ladder(ladder: Ladder, cfg: LadderConfig, folder: Path, resume: bool = False,
                   progress: Progress | None = None,
                   after_rung: Callable[[Ladder], None] | None = None) -> Ladder:
    """Play every rung of ``ladder`` (see the module docstring) into ``folder``."""
    known = KNOWN_ENGINES.get(ladder.engine)
    limits = dict(cfg.engine_limits if cfg.engine_limits is not None
                  else (known.limits if known else {"movetime": 0.1}))
    ladder.engine_limits = limits
    ladder.engine_options = {**cfg.engine_options.get("*", {}),
                             **cfg.engine_options.get(ladder.engine, {})}
    try:
        ladder.engine_name, options = probe_engine(ladder.spec, ladder.variant,
                                                   {**limits, **ladder.engine_options})
    except PlayerError as exc:
        raise LadderError(f"{ladder.variant} against {ladder.engine}: {exc}") from None
    ladder.scale = build_scale(options, cfg.elo_step, cfg.skill_levels, engine_limit_text(limits))
    scale = ladder.scale
    start = cfg.start_elo if cfg.start_elo is not None else (
        max(1350.0, scale.settings[0].elo) if scale.kind == "uci_elo" else 0.0)
    ladder.rungs = []
    # One pool for the ladder: its workers start both players once, not every batch.
    with MatchPool(cfg.backend) as pool:
        for rung in cfg.rungs:
            result = _measure_rung(ladder, rung, cfg, folder / rung.slug, start, resume,
                                   progress, pool)
            ladder.rungs.append(result)
            fit = result.fit()
            if math.isfinite(fit.elo):
                start = fit.elo
            elif fit.elo == math.inf:             # the next rung is likely stronger still
                start = result.games[-1].elo + cfg.max_step
            elif result.games:                    # lost every game: start where it lost
                start = result.games[-1].elo
            if after_rung:
                after_rung(ladder)
    return ladder


def choose_setting(scale: Scale, games: list[Played], start: float, max_step: float) -> Setting:
    """The setting the next batch plays: near the rating of the games so far (at most
    ``max_step`` from the last setting), ``start`` before any game."""
    if scale.kind == "fixed":
        return scale.settings[0]
    if not games:
        return scale.nearest(start)
    fit = stats.fit_rating([g.elo for g in games], [g.outcome.a_score for g in games])
    last = games[-1].elo
    target = min(max(fit.elo, last - max_step), last + max_step)
    return scale.nearest(target)


def batch_seed(ladder_seed: int, batch: int) -> int:
    """The match seed of a rung's batch ``batch`` (from 0): the same on every rung."""
    return ladder_seed * 100_003 + batch


#: A rung's games: one gzip member a batch, in batch order (see :mod:`tdleaf.play.ladder`).
RUNG_GAMES = "games.pgn.gz"


def working_file(folder: Path, batch: int) -> Path:
    """The plain PGN that batch ``batch`` (from 1) is played into, until it is packed."""
    return folder / f"b{batch:03d}.pgn"


def rung_batches(folder: Path) -> list[tuple[dict[str, Any], str]]:
    """The packed batches of a rung's folder, each as (its ``batches.json`` entry, the PGN
    text of its games): what a script reads a rung's games by, batch by batch. A batch
    not packed yet (being played) is left out; none without ``batches.json``."""
    manifest_path = folder / "batches.json"
    if not manifest_path.exists():
        return []
    manifest = json.loads(manifest_path.read_text())
    _refuse_unpacked(manifest_path, manifest)
    members = read_members(folder / RUNG_GAMES)
    return [(entry, members[entry["member"] - 1]) for entry in manifest
            if entry["member"] <= len(members)]


def _refuse_unpacked(manifest_path: Path, manifest: list[dict[str, Any]]) -> None:
    """A rung of the layout before ``games.pgn.gz`` (one PGN file a batch) is packed
    first, once: no reader reads both layouts."""
    if any("file" in entry for entry in manifest):
        raise LadderError(f"{manifest_path}: the batches are one PGN file each (the layout "
                          f"before {RUNG_GAMES}); pack them first with "
                          f"`python runs/ladders/repack.py {manifest_path.parent}`")


def _read_manifest(folder: Path, resume: bool) -> list[dict[str, Any]]:
    """A rung's ``batches.json`` (empty for a new rung): only when resuming, and only in
    the packed layout (a batch's games a member of ``games.pgn.gz``)."""
    manifest_path = folder / "batches.json"
    if not (manifest_path.exists() or (folder / RUNG_GAMES).exists()):
        return []
    if not resume:
        raise LadderError(f"{folder} already holds a ladder: use --resume to carry on, "
                          f"or another --out folder")
    manifest: list[dict[str, Any]] = (json.loads(manifest_path.read_text())
                                      if manifest_path.exists() else [])
    _refuse_unpacked(manifest_path, manifest)
    return manifest


def _check_players(games: list[StoredGame], where: Path, player: str, engine: str) -> None:
    """The stored games of a batch must be this rung's players' (the same ladder)."""
    for g in games:
        if player not in (g.white, g.black) or engine not in (g.white, g.black):
            raise LadderError(f"{where}: game {g.round} is {g.white} vs {g.black}, not "
                              f"{player} vs {engine}; not the same ladder")


def _pack_batch(work: Path, packed: Path) -> list[StoredGame]:
    """Append a finished batch's games (its working file, a torn tail cut) to the rung's
    games as one member, then delete the working file: killed in between, the resumed
    rung finds the member and deletes the file. The games packed."""
    games = read_games(work, repair=True)
    append_game(packed, work.read_bytes().decode("utf-8"))
    work.unlink()
    return games


def _play_batch(mcfg: MatchConfig, resume: bool, pool: MatchPool, packed: Path,
                what: str) -> list[StoredGame]:
    """Play a batch (``what``: which, for errors) into its working file (``mcfg.pgn``),
    carried on from the games there when resuming, then pack it; the batch's games."""
    work = Path(str(mcfg.pgn))
    stored = read_games(work) if resume else []
    _check_players(stored, work, mcfg.a.settings["name"], mcfg.b.settings["name"])
    if len(stored) < mcfg.games:
        try:
            run_match(mcfg, resume=resume, pool=pool)
        except MatchError as exc:
            raise LadderError(f"{what}: {exc}") from None
    return _pack_batch(work, packed)


def _measure_rung(ladder: Ladder, rung: Rung, cfg: LadderConfig, folder: Path, start: float,
                  resume: bool, progress: Progress | None, pool: MatchPool) -> RungResult:
    assert ladder.scale is not None
    scale = ladder.scale
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / "batches.json"
    manifest = _read_manifest(folder, resume)
    packed = folder / RUNG_GAMES
    members = read_members(packed, repair=True) if resume else []
    if len(members) > len(manifest):
        raise LadderError(f"{packed}: {len(members)} batches of games, but {manifest_path} "
                          f"records {len(manifest)}; not the same ladder")
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
            setting = choose_setting(scale, result.games, start, cfg.max_step)
            entry = {"batch": b + 1, "pgn": RUNG_GAMES, "member": b + 1,
                     "setting": setting.label, "elo": setting.elo, "options": setting.settings}
            manifest.append(entry)
            write_json(manifest_path, manifest, indent=2)
        work = working_file(folder, b + 1)
        engine_settings = {**ladder.engine_limits, **ladder.engine_options, **setting.settings,
                           "name": f"{ladder.engine_name} ({setting.label})"}
        if b < len(members):                  # packed: its games are member b + 1
            stored = parse_games(members[b])
            _check_players(stored, packed, player_name, engine_settings["name"])
            work.unlink(missing_ok=True)      # killed after packing it, before deleting
        else:
            what = f"{ladder.variant}, {rung.label} vs {setting.label}"
            mcfg = MatchConfig(
                variant=ladder.variant,
                a=PlayerConfig(cfg.player, {**cfg.player_settings, **rung.level,
                                            "name": player_name}),
                b=PlayerConfig(ladder.spec, engine_settings),
                games=n, random_plies=cfg.random_plies,
                seed=batch_seed(cfg.seed, b),   # the same openings on every rung
                adjudication=cfg.adjudication, backend=cfg.backend, pgn=str(work),
                event=f"tdleaf ladder: {what}")
            stored = _play_batch(mcfg, resume, pool, packed, what)
        outcomes = [stored_outcome(g) for g in stored[:n]]
        outcomes.sort(key=lambda o: o.index)
        # A disputed game (an engine refused a legal move) has no score to rate.
        result.games += [Played(setting.label, setting.elo, o) for o in outcomes if not o.disputed]
        if progress:
            progress(ladder, result, setting.label)
    return result


# -- a whole ladder run ----------------------------------------------------------------------

def player_evaluation(player: str, variant: str, net: str | None = None) -> dict[str, Any]:
    """The evaluation a tdleaf player spec plays in ``variant``, as the ladder records it:
    ``{"weights": name, "source": where it was loaded from, "digest": ...}`` (the name is
    the spec, or for ``default`` the set it stands for, e.g. ``learnt-psq``); with
    ``net`` (an MCTS guided by a network), the network's: ``{"network": provenance,
    "source": its file, "digest": "net:" + the start of its sha256}``."""
    if net:
        from search.mcts.network import NetworkError, open_network

        try:
            network = open_network(net, variant)
        except NetworkError as exc:
            raise LadderError(f"--net {net}: {exc}") from None
        return {"network": network.provenance(), "source": str(network.path),
                "digest": f"net:{network.sha256[:12]}"}

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
        evaluation = player_evaluation(cfg.player, variant, cfg.player_settings.get("net"))
        ladders.append(Ladder(variant, label, spec, evaluation=evaluation))
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
            was, now = evaluation_key(old.get("evaluation")), evaluation_key(lad.evaluation)
            if was is not None and was != now:
                raise LadderError(
                    f"{path}: the {lad.variant} ladder was measured with "
                    f"{_named(old['evaluation'])} ({was}); tdleaf now plays "
                    f"{_named(lad.evaluation)} ({now}): measure it in another --out folder")


def _named(evaluation: dict[str, Any]) -> str:
    """An evaluation's name for people: its weights', or its network's."""
    return str(evaluation.get("weights") or evaluation.get("network"))


def results_json(ladders: list[Ladder], cfg: LadderConfig, command: str = "") -> dict[str, Any]:
    """The ladders and the settings they were measured with (``ladder.json``)."""
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
    """Write ``ladder.json`` and ``ladder.md`` of the ladders so far into ``out``."""
    write_ladder_files(out, results_json(ladders, cfg, command))
