"""Learning runs: one run of self-play learning (any learner of :mod:`.learners`), its
files, checkpoints and resumption.

A result folder holds ``config.json`` (every setting, the seed, versions), one folder per
run (``checkpoint.json``, ``history.csv``, ``games.pgn``, ``snapshots/``,
``weights.json``) and, when all runs are done, the averaged weights and summaries of
:mod:`.summary`.

:func:`play_run` is the loop: a game of self-play and the learner's update, game after
game, wherever a worker runs it (:mod:`.jobs`); :class:`RunState` keeps the books, in the
process that writes the folder. Checkpoints are written atomically after
every game together with the sizes of the append-only files, so a run killed at any
moment loses at most the game in progress and resumes to exactly the same result.
"""

from __future__ import annotations

import collections
import csv
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from search import Engine
from search.files import write_json
from search.layout import (
    HAND,
    HAND_PIECES,
    MATERIAL,
    MATERIAL_BLACK,
    PIECES,
    Weights,
    separate_colours,
)
from variants import random_line

from .config import (
    BOOTSTRAP_METHODS,
    LearnConfig,
    LearnError,
    initial_weights,
    learn_mask,
    run_layout,
)
from .learners import make_learner
from .selfplay import GameRecord, game_pgn
from .td import TemporalCoherence, Trajectory


def game_seed(seed: int, run: int, game: int) -> int:
    """The seed of game ``game`` of run ``run`` of a job seeded ``seed``."""
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


class RunState:
    """A run's bookkeeping, out of the learning loop's way: its weights ``w`` and their
    temporal-coherence sums ``tc`` (which the learner updates in place), the visits
    counted for the summaries, and its files: ``history.csv`` and ``games.pgn`` (append
    only), ``snapshots/`` and ``checkpoint.json``, written after every game together
    with the sizes of the append-only files, so that a run killed at any moment resumes
    (:meth:`resume`) to exactly the result it would have had."""

    def __init__(self, out: Path, cfg: LearnConfig, run: int) -> None:
        self.cfg, self.run = cfg, run
        self.dir = run_dir(out, run)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.history, self.pgn = self.dir / "history.csv", self.dir / "games.pgn"
        self.layout = run_layout(cfg)
        self.colours = separate_colours(cfg.variant)
        self.snapshots = snapshot_schedule(cfg.games, cfg.snapshots)
        ck = load_checkpoint(self.dir)
        size = self.layout.size
        if ck is None:
            self.w = initial_weights(cfg, run)
            self.tc = TemporalCoherence(size)
            self.visits = np.zeros((6, 64), dtype=np.int64)
            self.visits_black = np.zeros((6, 64), dtype=np.int64)
            self.block_visits = np.zeros(size - self.layout.leaf_start, dtype=np.int64)
            header = ",".join(history_fields(cfg.variant)) + "\n"
            self.history.write_text(header)
            self.pgn.write_text("")
            ck = {"games": 0, "history_bytes": len(header), "pgn_bytes": 0}
        else:
            self.w = np.array(ck["w"], dtype=np.float64)
            if self.w.shape != (size,):
                raise LearnError(f"{self.dir / 'checkpoint.json'}: {self.w.size} weights, but "
                                 f"the {self.layout.name!r} layout has {size}")
            self.tc = TemporalCoherence(size, np.array(ck["tc_net"]), np.array(ck["tc_total"]))
            self.visits = np.array(ck["visits"], dtype=np.int64)
            self.visits_black = np.array(ck.get("visits_black", np.zeros((6, 64))), dtype=np.int64)
            self.block_visits = np.array(ck.get("block_visits", np.zeros(size - self.layout.leaf_start)),
                                         dtype=np.int64)
        self.ck = ck
        # Drop whatever a killed process appended after its last checkpoint.
        _truncate(self.history, ck["history_bytes"])
        _truncate(self.pgn, ck["pgn_bytes"])
        self.cpu_column = _history_has_cpu(self.history)
        if ck["games"] in self.snapshots and not snapshot_path(self.dir, ck["games"]).exists():
            # A run resumed from a folder written before snapshots: its weights now are exact.
            _save_snapshot(self.dir, cfg, run, ck["games"], self.w)
        self.watches = _watches()

    @property
    def games(self) -> int:
        """The games played (and learnt from) so far."""
        return int(self.ck["games"])

    def start(self) -> RunStart:
        """Where the run carries on from."""
        return RunStart(self.run, self.games, self.w.copy(), self.tc.net.copy(),
                        self.tc.total.copy())

    def game_done(self, done: GameDone) -> None:
        """Record a finished game that has been learnt from: the weights after it, its
        visits, the warnings it triggers, history.csv, games.pgn, the snapshot due, and
        the checkpoint."""
        cfg, ck, g = self.cfg, self.ck, self.games + 1
        rec, seconds, cpu = done.record, done.seconds, done.cpu
        self.w = done.w
        self.tc = TemporalCoherence(done.w.size, done.tc_net, done.tc_total)
        self.visits += rec.visits
        if rec.visits_black is not None:
            self.visits_black += rec.visits_black
        if rec.block_visits is not None:
            self.block_visits += rec.block_visits
        for watch in self.watches:
            watch.add(rec, self.run)
        ck["history_bytes"] = _append(self.history, _history_row(
            g, rec, seconds, self.w, self.colours, cpu if self.cpu_column else None))
        if cfg.pgn_every and g % cfg.pgn_every == 0:
            ck["pgn_bytes"] = _append(self.pgn, game_pgn(rec, cfg.variant, {
                "Event": f"tdleaf self-play, run {self.run}", "Round": str(g),
                "White": "tdleaf", "Black": "tdleaf"}))
        ck.update(games=g, w=self.w.tolist(), tc_net=self.tc.net.tolist(),
                  tc_total=self.tc.total.tolist(), visits=self.visits.tolist())
        if self.colours:            # Black's own pieces, in Black's view (its own tables')
            ck["visits_black"] = self.visits_black.tolist()
        if self.block_visits.size:  # the leaf blocks' entries
            ck["block_visits"] = self.block_visits.tolist()
        if g in self.snapshots:     # before the checkpoint: a kill between them replays it
            _save_snapshot(self.dir, cfg, self.run, g, self.w)
        write_json(self.dir / "checkpoint.json", ck)

    def finish(self) -> dict[str, Any]:
        """Write the run's final weights.json; returns its last checkpoint."""
        Weights(self.cfg.variant, self.w, {"run": self.run, "games": self.cfg.games},
                layout=self.layout).save(self.dir / "weights.json")
        return self.ck


def run_engine(cfg: LearnConfig, w: np.ndarray) -> Engine:
    """The engine a run's games are played with: its weights, search and noise, random
    tie-breaks, and for the bootstrapping learners the nodes of every search collected."""
    bootstrap = cfg.method in BOOTSTRAP_METHODS
    assert cfg.noise is not None, "LearnConfig resolves its noise when it is made"
    return Engine(cfg.variant, Weights(cfg.variant, w.copy(), {}, layout=run_layout(cfg)),
                  hash_mb=cfg.hash_mb, qlimit=cfg.qlimit, random_ties=True, noise=cfg.noise,
                  search=cfg.search, flags=cfg.flags, collect=cfg.nodes if bootstrap else 0,
                  collect_quiescence=cfg.quiescence_nodes)


def opening(cfg: LearnConfig, seed: int) -> tuple[str, ...]:
    """The random plies a game starts with (``cfg.random_plies``; none by default)."""
    if not cfg.random_plies:
        return ()
    line = random_line(cfg.variant, cfg.random_plies, seed)
    if line is None:
        raise LearnError(f"no line of {cfg.random_plies} random plies leaves a {cfg.variant} "
                         f"game going (seed {seed})")
    return tuple(line)


@dataclass
class RunStart:
    """Where a run's games carry on from: what a worker needs, sent by the process
    that keeps the run's books (:class:`RunState`), so that a run begun anew after its
    worker died carries on from its last recorded game."""

    run: int
    games: int
    w: np.ndarray
    tc_net: np.ndarray
    tc_total: np.ndarray


@dataclass
class GameDone:
    """A game played and learnt from, as a worker reports it: the record (without the
    learner's trajectory: the books do not need it), its times, and the run's weights
    and temporal-coherence sums after the update."""

    record: GameRecord
    seconds: float
    cpu: float
    w: np.ndarray
    tc_net: np.ndarray
    tc_total: np.ndarray


def play_run(cfg: LearnConfig, start: RunStart) -> Iterator[GameDone]:
    """The learning loop of one run, from ``start`` to ``cfg.games``: a game of
    self-play and the learner's update (:mod:`.learners`), game after game. Game ``g``'s
    seed is :func:`game_seed` of (seed, run, g), so a run's result depends on nothing
    else: not on the worker, nor on where it was resumed."""
    w = np.array(start.w, dtype=np.float64)
    tc = TemporalCoherence(w.size, np.array(start.tc_net), np.array(start.tc_total))
    engine = run_engine(cfg, w)
    learner = make_learner(cfg, w, tc, learn_mask(cfg))
    for g in range(start.games, cfg.games):
        t0, cpu0 = time.perf_counter(), time.process_time()
        engine.w[:] = w
        seed = game_seed(cfg.seed, start.run, g)
        record = learner.play(engine, cfg.variant, cfg.depth, seed, cfg.max_plies,
                              opening(cfg, seed))
        learner.learn(record)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        record.trajectory = _NO_TRAJECTORY
        yield GameDone(record, seconds, cpu, w.copy(), tc.net.copy(), tc.total.copy())


_NO_TRAJECTORY = Trajectory(np.zeros((0, 0)), np.zeros(0), np.zeros(0, bool), np.zeros(0), 0.5)


def run_learning(out: str | Path, cfg_json: dict[str, Any], run: int,
                 progress: Progress | None = None) -> dict[str, Any]:
    """Play and learn the games of run ``run`` that are not done yet, in this process,
    with the learner of ``cfg_json["method"]`` (:mod:`.learners`); returns its final
    checkpoint. Safe to call again after a crash: it resumes from the checkpoint."""
    cfg = LearnConfig.from_json(cfg_json)
    state = RunState(Path(out), cfg, run)
    for done in play_run(cfg, state.start()):
        state.game_done(done)
        if progress is not None:
            progress(run, state.games, state.w)
    return state.finish()
