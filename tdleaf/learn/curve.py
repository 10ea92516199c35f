"""Learning curves (``tdleaf curve``): what a learner's weights play at points of its
learning, against one fixed opponent.

The runs of a learning result folder save their weights at geometrically spaced game
counts (``run-NN/snapshots/weights-<games>.json``, :func:`.runs.snapshot_schedule`). For
every count that all the runs have, and for the untrained start (game 0: the initial
weights of ``config.json``), the mean over runs of the raw weights (as the experiments
average runs) plays a match (:mod:`tdleaf.play.match`) against a fixed opponent at a
fixed depth: every seeded random opening with both colours, the same openings at every
point. Each point costs the CPU time that learning spent up to it: the sum over runs of
``history.csv``'s ``cpu_seconds``, or of its wall-clock ``seconds`` in a file written
before that column (``cpu_source`` counts the runs timed each way).

Written under the folder: ``curve/settings.json`` (what decides the games; a rerun with
other settings is refused), per point ``curve/weights-<games>.json`` (the mean
weights), ``curve/games-<games>.pgn`` and ``curve/summary-<games>.json`` (the match's
summary); and ``curve.json``, the points so far, rewritten after each. A match carries on
from its PGN, so rerunning the command resumes where it stopped (a kill loses at most
the games in progress). A labelled curve (``label``: another opponent, say) goes to
``curve-<label>/`` and ``curve-<label>.json`` instead, beside the others.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from search.files import write_json
from search.layout import Weights, WeightsError, load_weights
from tdleaf.backend import Backend
from tdleaf.learn.config import LearnConfig, LearnError, initial_weights, run_layout
from tdleaf.learn.runs import CPU_FIELD, run_dir, snapshot_path, snapshot_schedule
from variants.errors import TdleafError

#: The folder of a result folder where its curve's matches go; ``curve.json`` is beside it.
CURVE_DIR = "curve"
_SNAPSHOT = re.compile(r"^weights-(\d+)\.json$")
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class CurveError(TdleafError, ValueError):
    """A folder that has no learning curve to measure, or settings that cannot be used."""


@dataclass
class CurveConfig:
    """How every point of a curve is measured. All but ``games`` and ``backend`` decide
    the games, and must stay the same when a curve is carried on."""

    opponent: str = "traditional"
    depth: int = 3
    games: int = 200
    random_plies: int = 8
    seed: int = 0
    max_plies: int = 400
    backend: Backend = field(default_factory=Backend)     # where the games run
    label: str = ""         # "": curve/ and curve.json; else curve-<label>/ and its .json

    def validate(self) -> CurveConfig:
        for name in ("depth", "games", "max_plies"):
            if getattr(self, name) < 1:
                raise CurveError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(self, name)}")
        if self.random_plies < 0:
            raise CurveError(f"--random-plies must be >= 0, got {self.random_plies}")
        if self.label and not _LABEL.match(self.label):
            raise CurveError(f"--label {self.label!r}: letters, digits, '-', '_' and '.' only, "
                             "starting with a letter or digit")
        return self

    def fixed(self) -> dict[str, Any]:
        """The settings that decide the games (``curve/settings.json``)."""
        return {k: v for k, v in asdict(self).items() if k not in ("games", "backend", "label")}

    @property
    def folder(self) -> str:
        """The curve's folder in a result folder: its weights, PGNs and summaries."""
        return f"{CURVE_DIR}-{self.label}" if self.label else CURVE_DIR

    @property
    def file(self) -> str:
        """The curve's points in a result folder."""
        return f"{self.folder}.json"


@dataclass
class CurvePoint:
    """One point of a curve: the mean weights after ``games`` self-play games a run."""

    games: int
    weights: np.ndarray
    cpu_seconds: float          # learning's, summed over runs, up to this point
    cpu_source: dict[str, int]  # runs timed by process time (cpu_seconds) or wall time


@dataclass
class CurvePlan:
    """A learning result folder and the points of its curve."""

    path: Path
    cfg: LearnConfig
    points: list[CurvePoint]


def read_learning(path: str | Path) -> LearnConfig:
    """The configuration of a ``tdleaf learn`` result folder; CurveError if it is not one."""
    path = Path(path)
    cfg_path = path / "config.json"
    if not path.is_dir():
        raise CurveError(f"{path} is not a folder (expected a tdleaf learn result folder)")
    if not cfg_path.exists():
        hint = (f"; {path.name} looks like one run of a job, give its parent folder"
                if (path / "checkpoint.json").exists() else "")
        raise CurveError(f"{path} is not a tdleaf learn result folder (no config.json{hint})")
    try:
        saved = json.loads(cfg_path.read_text())
        return LearnConfig.from_json(saved["learn"]).validate()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CurveError(f"{cfg_path}: unreadable: {exc}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        why = str(exc) if isinstance(exc, ValueError) else "no 'learn' section"
        raise CurveError(f"{cfg_path} is not a tdleaf learn configuration ({why})") from None


def snapshot_counts(path: Path, cfg: LearnConfig) -> list[int]:
    """The game counts of the snapshots that every run of the folder has."""
    common: set[int] | None = None
    for r in range(cfg.runs):
        folder = snapshot_path(run_dir(path, r), 1).parent
        have = {int(m.group(1)) for f in (folder.iterdir() if folder.is_dir() else ())
                if (m := _SNAPSHOT.match(f.name))}
        if not have:
            raise CurveError(
                f"{path} has no weight snapshots in {folder.relative_to(path)} (learnt before "
                f"tdleaf saved them, or not yet at game "
                f"{snapshot_schedule(cfg.games, cfg.snapshots)[0]}); 'tdleaf learn --resume "
                f"--out {path}' saves them from then on")
        common = have if common is None else common & have
    if not common:
        raise CurveError(f"{path}: no snapshot game count that all its {cfg.runs} runs have yet")
    return sorted(common)


def learning_seconds(path: Path, cfg: LearnConfig, games: int) -> tuple[float, dict[str, int]]:
    """The CPU seconds learning spent on the first ``games`` games of every run, summed,
    and how many runs were timed by process time (``cpu_seconds``) and how many, having
    an older history.csv without it, by wall time (``seconds``)."""
    total, source = 0.0, {CPU_FIELD: 0, "seconds": 0}
    if games == 0:
        return total, source
    for r in range(cfg.runs):
        hist = run_dir(path, r) / "history.csv"
        try:
            with open(hist, newline="") as fh:
                reader = csv.DictReader(fh)
                column = CPU_FIELD if CPU_FIELD in (reader.fieldnames or []) else "seconds"
                rows: list[dict[str, str]] = []
                for row in reader:
                    if len(rows) == games:
                        break
                    rows.append(row)
        except OSError as exc:
            raise CurveError(f"{hist}: unreadable history: {exc.strerror or exc}") from None
        try:
            if len(rows) < games or int(rows[-1]["game"]) != games:
                raise ValueError(f"{len(rows)} games where the snapshot has {games}")
            total += sum(float(row[column]) for row in rows)
        except (KeyError, TypeError, ValueError) as exc:
            raise CurveError(f"{hist}: malformed history ({exc})") from None
        source[column] += 1
    return total, source


def plan_curve(path: str | Path) -> CurvePlan:
    """The points of a result folder's curve: game 0 and every snapshot count all its
    runs have, each with the mean weights over runs and learning's CPU time. Raises
    CurveError for a folder that is not a learning result or has no snapshots."""
    path = Path(path)
    cfg = read_learning(path)
    layout = run_layout(cfg)
    try:
        start = np.mean([initial_weights(cfg, r) for r in range(cfg.runs)], axis=0)
    except LearnError as exc:
        raise CurveError(f"{path}: {exc}") from None
    points = [CurvePoint(0, start, 0.0, {CPU_FIELD: 0, "seconds": 0})]
    for games in snapshot_counts(path, cfg):
        ws = []
        for r in range(cfg.runs):
            snap = snapshot_path(run_dir(path, r), games)
            try:
                w = load_weights(snap, cfg.variant)
            except (WeightsError, ValueError) as exc:
                raise CurveError(str(exc)) from None
            if w.w.shape != (layout.size,):
                raise CurveError(f"{snap}: {w.w.size} weights, but the run's {layout.name!r} "
                                 f"layout has {layout.size}")
            ws.append(w.w)
        seconds, source = learning_seconds(path, cfg, games)
        points.append(CurvePoint(games, np.mean(ws, axis=0), seconds, source))
    return CurvePlan(path, cfg, points)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _estimate(summary: Any) -> dict[str, Any]:
    """Elo with its 95% interval from a match :class:`~tdleaf.play.match.Summary`: by
    game pairs where they have a spread, else game by game. JSON has no infinities: an
    Elo of every game won or lost is None, an unbounded end of the interval None, and
    ``elo_ci`` None when the results have no spread (no interval)."""
    from tdleaf.play import stats

    est, kind = summary.pentanomial_estimate()[0], "pentanomial"
    if est is None:
        est, kind = stats.elo_trinomial(summary.wins, summary.losses, summary.draws), "trinomial"
    spread = est.stderr > 0
    return {"elo": _finite(est.elo),
            "elo_ci": [_finite(est.low), _finite(est.high)] if spread else None,
            "interval": kind if spread else None}


def check_settings(path: Path, ccfg: CurveConfig) -> bool:
    """Whether the curve of ``path`` has been started (``curve/settings.json``); raises
    CurveError if with other settings than ``ccfg`` (its games would not be comparable)."""
    settings = path / ccfg.folder / "settings.json"
    if not settings.exists():
        return False
    try:
        before = json.loads(settings.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CurveError(f"{settings}: unreadable: {exc}") from None
    changed = [f"{k} {before.get(k)!r}" for k, v in ccfg.fixed().items() if before.get(k) != v]
    if changed:
        folder = settings.parent
        raise CurveError(f"{folder} was played with {', '.join(changed)}: give the same "
                         f"settings to carry it on, or remove {folder} to start again")
    return True


def _settings(ccfg: CurveConfig) -> tuple[dict[str, Any], dict[str, Any]]:
    """The settings of the learnt player and of the opponent: the same depth, and random
    tie-breaks (seeded per game, as learning has them) for tdleaf players."""
    from tdleaf.play.players import is_external

    mine = {"depth": ccfg.depth, "random_ties": True}
    return mine, ({"depth": ccfg.depth} if is_external(ccfg.opponent) else dict(mine))


def check_opponent(ccfg: CurveConfig, variant: str) -> None:
    """Start and stop the opponent once: CurveError if it cannot play ``variant``."""
    from tdleaf.play.players import PlayerError, make_player

    try:
        player = make_player(ccfg.opponent, _settings(ccfg)[1])
        try:
            player.start(variant)
        finally:
            player.close()
    except PlayerError as exc:
        raise CurveError(f"--opponent: {exc}") from None


#: ``(folder, point's games, match summary, finished game or None)`` after each game of
#: a point's match (None: the match has started, with the games its PGN already held).
Progress = Callable[[Path, int, Any, Any], None]


def play_curve(plan: CurvePlan, ccfg: CurveConfig, progress: Progress | None = None,
               ) -> dict[str, Any]:
    """Play (or carry on) the matches of every point of ``plan`` and return the content
    of ``curve.json`` (or the labelled curve's file), which is rewritten after each point."""
    from tdleaf.play.game import Adjudication
    from tdleaf.play.match import MatchConfig, MatchError, PlayerConfig, run_match

    ccfg.validate()
    path, cfg = plan.path, plan.cfg
    folder = path / ccfg.folder
    if not check_settings(path, ccfg):
        check_opponent(ccfg, cfg.variant)       # not bound to settings it cannot play
        folder.mkdir(exist_ok=True)
        write_json(folder / "settings.json", ccfg.fixed())
    mine, theirs = _settings(ccfg)
    out: dict[str, Any] = {
        "run": str(path), "variant": cfg.variant, "method": cfg.method,
        "features": cfg.features, "init": cfg.init, "runs": cfg.runs,
        "learn_games": cfg.games, "learn_depth": cfg.depth, **ccfg.fixed(), "games": ccfg.games,
        "label": ccfg.label,
        "cpu_note": ("cpu_hours: learning's process time up to the point, summed over runs "
                     f"(history.csv's {CPU_FIELD}); cpu_source counts the runs timed so and "
                     "those whose older history.csv had only wall time (seconds), used instead"),
        "elo_note": ("Elo of the mean weights over runs against the opponent, with its 95% "
                     "interval: by game pairs (pentanomial) where they have a spread, else "
                     "game by game (trinomial); elo null where every game was won or lost, "
                     "an end of elo_ci null where the interval is unbounded, elo_ci null "
                     "where the results have no spread"),
        "points": [],
        "complete": False,      # True once every point's match is played
    }
    for point in plan.points:
        n = point.games
        weights = folder / f"weights-{n}.json"
        Weights(cfg.variant, point.weights, {
            "what": f"mean over {cfg.runs} runs of the weights after {n} games"
                    + (" (the initial weights)" if n == 0 else ""),
            "games": n, "method": cfg.method, "features": cfg.features,
            "source": "tdleaf curve"}, layout=run_layout(cfg)).save(weights)
        # The name seeds the player's tie-breaks: one name for every learner, so that
        # curves of the same opening and point play with the same random numbers (and
        # learners from the same initial weights have the same first point).
        name = f"learnt-{n}"
        mcfg = MatchConfig(
            variant=cfg.variant, a=PlayerConfig(str(weights), {**mine, "name": name}),
            b=PlayerConfig(ccfg.opponent, theirs), games=ccfg.games,
            random_plies=ccfg.random_plies, seed=ccfg.seed,
            adjudication=Adjudication(max_plies=ccfg.max_plies), backend=ccfg.backend,
            pgn=str(folder / f"games-{n}.pgn"), event=f"tdleaf curve: {path.name}, {cfg.method}-{n}")

        def step(summary: Any, outcome: Any, n: int = n) -> None:
            if progress is not None:
                progress(path, n, summary, outcome)

        try:
            played = run_match(mcfg, resume=True, progress=step)
        except MatchError as exc:
            raise CurveError(str(exc)) from None
        summary = played.to_json()
        write_json(folder / f"summary-{n}.json", summary)
        a, b = summary["time_per_move"]["a"], summary["time_per_move"]["b"]
        out["points"].append({
            "games": n, "cpu_hours": point.cpu_seconds / 3600, "cpu_source": point.cpu_source,
            **_estimate(played), "games_played": summary["games"], "score": summary["score"],
            "wins": summary["wins"], "losses": summary["losses"], "draws": summary["draws"],
            "pentanomial": summary["pentanomial"],
            # Both search to the same depth: the learnt weights' time per move beside the
            # opponent's says what a point's strength costs at play.
            "time_per_move": {"learnt": a, "opponent": b,
                              "ratio": a / b if a is not None and b else None},
            "warnings": summary["warnings"],
            "pgn": f"{ccfg.folder}/games-{n}.pgn", "summary": f"{ccfg.folder}/summary-{n}.json",
        })
        out["complete"] = len(out["points"]) == len(plan.points)
        write_json(path / ccfg.file, out)
    return out
