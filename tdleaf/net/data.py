"""A network's training data: tdleaf self-play, every position labelled by its search.

``tdleaf net data`` plays games of the teacher (an evaluation: the variant's default, a
value set or a weights file) against itself with the selective search at depth D, after
random opening plies; with probability ``sample`` a ply plays a move drawn from the
prior's policy instead of the search's, so that games differ. Every position the teacher
searched is stored with:

- the compact position (``bb``, ``st`` as int16, and how often it occurred before):
  :func:`search.mcts.encoding.planes_into` rebuilds its planes;
- its legal moves as policy indices, with the prior's softmax over them (depth
  ``prior_depth``, the fitted temperature);
- the search's best move (its policy index) and score (pawns, side to move);
- the game's result for the side to move (1, 0, -1).

A random opening ply or a sampled move is never a target: the target is always the
search's move of the position it was searched in. A game's positions depend only on the
configuration and the game's index (its seeds), so the data is the same on any backend.
Positions already seen (same Zobrist key) in an earlier game, in game order, are left
out; the trainer splits training and validation by game (:func:`is_validation`).

The folder: ``manifest.json`` (the configuration, the encoding version, each shard
with its games, positions and sha256, the games' CPU seconds) and ``shard-NNNNN.npz``, each of
``games_per_shard`` games in order; a game that comes back is first journalled alone in
``pending/`` (so that a kill loses at most the games being played), and a full shard
replaces its pending games.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from search import Engine
from search.files import write_bytes, write_json
from search.mcts.encoding import (
    ENCODING_VERSION,
    EncodingError,
    check_version,
    keys_batch,
    move_indices,
    repetitions,
)
from search.mcts.prior import HeuristicPrior
from variants import Position, canonical_variant, core, random_line
from variants.errors import TdleafError
from variants.position import move_to_uci

from ..backend import Backend, run_units
from ..learn.selfplay import game_over

#: The arrays of a game and of a shard, by name: per position (``POSITION_KEYS``) or per
#: legal move (``MOVE_KEYS``, ``n_legal`` of them per position).
POSITION_KEYS = ("bb", "st", "reps", "n_legal", "best", "score", "z", "ply", "game")
MOVE_KEYS = ("legal", "prior")
#: Every tenth game (index % 10 == 9) is held out for validation.
VALIDATION_EVERY = 10


class DataError(TdleafError, ValueError):
    """A data folder or shard that cannot be used (corrupt, another variant or encoding,
    settings that differ from the folder's)."""


@dataclass
class DataConfig:
    """What decides a data set's games (the folder's ``manifest.json`` keeps it)."""

    variant: str
    games: int = 100
    depth: int = 4
    teacher: str = "default"        # "default", a value set, reference set or weights file
    random_plies: int = 8
    sample: float = 0.25            # a ply's chance of a move drawn from the prior
    prior_depth: int = 1
    max_plies: int = 300
    seed: int = 0
    games_per_shard: int = 64
    hash_mb: int = 16

    def validate(self) -> DataConfig:
        try:
            self.variant = canonical_variant(self.variant)
        except ValueError as exc:
            raise DataError(str(exc)) from None
        for name, low in (("games", 1), ("depth", 1), ("games_per_shard", 1), ("max_plies", 1),
                          ("random_plies", 0), ("prior_depth", 0), ("hash_mb", 1)):
            if getattr(self, name) < low:
                raise DataError(f"--{name.replace('_', '-')} must be >= {low}, "
                                f"got {getattr(self, name)}")
        if not 0.0 <= self.sample <= 1.0:
            raise DataError(f"--sample must be in [0, 1], got {self.sample}")
        return self

    def decides(self) -> dict[str, Any]:
        """The settings that decide the games (all but how many and how they are kept)."""
        return {k: v for k, v in asdict(self).items() if k not in ("games", "games_per_shard")}


class GameSettings(Protocol):
    """What a data folder needs of the settings that decide its games (a teacher's
    :class:`DataConfig`, self-play's :class:`.selfplay.SelfPlayConfig`)."""

    games: int
    games_per_shard: int

    def decides(self) -> dict[str, Any]: ...


def is_validation(game: int) -> bool:
    """Whether game ``game`` of a data set is held out for validation."""
    return game % VALIDATION_EVERY == VALIDATION_EVERY - 1


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a data set seeded ``seed`` (a stream of its own,
    apart from learning's :func:`.runs.game_seed`)."""
    return (seed * 1_000_003 + game) * 7_919 % (1 << 61)


# -- playing (in a worker) --------------------------------------------------------------------

@dataclass
class Teacher:
    """The backend's job: a worker's teacher (engine and prior), one game per unit."""

    cfg: DataConfig

    def start(self) -> tuple[Engine, HeuristicPrior]:
        weights = None if self.cfg.teacher == "default" else self.cfg.teacher
        engine = Engine(self.cfg.variant, weights, hash_mb=self.cfg.hash_mb, search="selective")
        engine.load_compiled()
        return engine, HeuristicPrior(self.cfg.variant, engine.weights, depth=self.cfg.prior_depth)

    def run(self, state: tuple[Engine, HeuristicPrior], game: int) -> Iterator[dict[str, np.ndarray]]:
        yield play_game(self.cfg, state[0], state[1], game)

    def close(self, state: Any) -> None:
        return None


def play_game(cfg: DataConfig, engine: Engine, prior: HeuristicPrior,
              game: int) -> dict[str, np.ndarray]:
    """Game ``game`` of the data set: its positions and labels (:data:`POSITION_KEYS`,
    :data:`MOVE_KEYS`)."""
    t0 = time.process_time()
    seed = game_seed(cfg.seed, game)
    rng = np.random.default_rng(seed)
    pos = Position.start(cfg.variant)
    for uci in (random_line(cfg.variant, cfg.random_plies, seed) or ()):
        pos.push_uci(uci)
    engine.new_game(seed)
    keys: dict[int, int] = {}
    rows: dict[str, list] = {k: [] for k in (*POSITION_KEYS, *MOVE_KEYS)}
    turns = []
    while True:
        keys[pos.key] = keys.get(pos.key, 0) + 1
        over = game_over(pos, keys, cfg.max_plies)
        if over is not None:
            break
        arr, _ = prior.batch([pos])
        n = int(arr.n[0])
        if n == 0:                      # a position the prior sees ending: no move to learn
            break
        r = engine.search(pos, depth=cfg.depth, leaf=False)
        assert r.move is not None
        turn = int(pos.st[core.TURN])
        idx = np.zeros(n, dtype=np.int64)
        move_indices(arr.moves[0, :n], n, turn, idx)
        best = int(idx[next(i for i in range(n) if move_to_uci(int(arr.moves[0, i])) == r.move)])
        rows["bb"].append(pos.bb.copy())
        rows["st"].append(pos.st.astype(np.int16))
        rows["reps"].append(repetitions(pos))
        rows["n_legal"].append(n)
        rows["legal"].append(idx.astype(np.int16))
        rows["prior"].append(arr.probs[0, :n].astype(np.float32))
        rows["best"].append(best)
        rows["score"].append(r.score)
        rows["ply"].append(len(pos.move_stack))
        turns.append(turn)
        move = r.move
        if cfg.sample and rng.random() < cfg.sample:
            p = arr.probs[0, :n] / arr.probs[0, :n].sum()
            move = move_to_uci(int(arr.moves[0, int(rng.choice(n, p=p))]))
        pos.push_uci(move)
    result = over[0] if over is not None else _value_result(arr.values[0], int(pos.st[core.TURN]))
    return game_arrays(rows, turns, result, game, time.process_time() - t0)


def game_arrays(rows: dict[str, list], turns: list[int], result: float, game: int,
                cpu: float) -> dict[str, np.ndarray]:
    """A game's recorded positions as arrays (:data:`POSITION_KEYS`, :data:`MOVE_KEYS`,
    ``cpu_seconds``): ``rows`` holds each position's entries in lists, ``turns`` its side
    to move, ``result`` is White's (1, 0.5, 0), the value target ``z`` the mover's."""
    white = 2.0 * result - 1.0         # +1 White won, -1 Black won
    k = len(turns)
    return {
        "bb": np.array(rows["bb"], dtype=np.uint64).reshape(k, core.NBB),
        "st": np.array(rows["st"], dtype=np.int16).reshape(k, core.NST),
        "reps": np.array(rows["reps"], dtype=np.int8),
        "n_legal": np.array(rows["n_legal"], dtype=np.int16),
        "best": np.array(rows["best"], dtype=np.int16),
        "score": np.array(rows["score"], dtype=np.float32),
        "z": np.array([white if t == 0 else -white for t in turns], dtype=np.int8),
        "ply": np.array(rows["ply"], dtype=np.int16),
        "game": np.full(k, game, dtype=np.int32),
        "legal": np.concatenate(rows["legal"]) if k else np.zeros(0, np.int16),
        "prior": np.concatenate(rows["prior"]) if k else np.zeros(0, np.float32),
        "cpu_seconds": np.array([cpu]),
    }


def _value_result(value: float, turn: int) -> float:
    """White's result of a game the prior saw end (its value for the side to move)."""
    mover = 0.5 * (value + 1.0)
    return mover if turn == 0 else 1.0 - mover


# -- files (in the process that writes the folder) -------------------------------------------

def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, encoding_version=np.int64(ENCODING_VERSION), **arrays)  # type: ignore[arg-type]
    return buf.getvalue()


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """A shard's (or a pending game's) arrays; :class:`DataError` if it is unreadable or
    another encoding's."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise DataError(f"{path}: not a readable data shard ({exc})") from None
    try:
        check_version(int(arrays.pop("encoding_version", -1)), str(path))
    except EncodingError as exc:
        raise DataError(str(exc)) from None
    missing = [k for k in (*POSITION_KEYS, *MOVE_KEYS) if k not in arrays]
    if missing:
        raise DataError(f"{path}: not a data shard (no {', '.join(missing)})")
    return arrays


def concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in (*POSITION_KEYS, *MOVE_KEYS)}


def select(arrays: dict[str, np.ndarray], keep: np.ndarray) -> dict[str, np.ndarray]:
    """The positions ``keep`` (bool per position) of a game's or a data set's arrays."""
    moves = np.repeat(keep, arrays["n_legal"].astype(np.int64))
    out = {k: arrays[k][keep] for k in POSITION_KEYS}
    out.update({k: arrays[k][moves] for k in MOVE_KEYS})
    return out


class DataFolder:
    """A data set's folder: its manifest, shards and pending games. A game's
    ``cpu_seconds`` (the worker's CPU time for it) add up in the manifest."""

    def __init__(self, out: Path, cfg: GameSettings, resume: bool) -> None:
        self.out, self.cfg = out, cfg
        self.pending_dir = out / "pending"
        path = out / "manifest.json"
        if path.exists() and not resume:
            raise DataError(f"{out} already holds a data set: use --resume to carry on, or "
                            f"another --out folder")
        if resume and path.exists():
            try:
                self.manifest = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise DataError(f"{path}: unreadable manifest ({exc})") from None
            check_version(self.manifest.get("encoding_version"), str(path))
            if self.manifest["config"] != cfg.decides():
                raise DataError(f"{path}: made with other settings ({self.manifest['config']}); "
                                f"give the same ones to carry it on")
        else:
            self.manifest = {"encoding_version": ENCODING_VERSION, "config": cfg.decides(),
                             "validation": f"games whose index % {VALIDATION_EVERY} == "
                                           f"{VALIDATION_EVERY - 1}",
                             "shards": [], "games": 0, "positions": 0, "duplicates": 0,
                             "cpu_seconds": 0.0}
        out.mkdir(parents=True, exist_ok=True)
        self.pending_dir.mkdir(exist_ok=True)
        self.seen: set[int] = set()
        shard_games: set[int] = set()
        for s in self.manifest["shards"]:
            arrays = read_arrays(out / s["file"])
            self.seen.update(int(h) for h in arrays["bb"][:, core.HASH])
            shard_games.update(range(s["games"][0], s["games"][1]))
        self.pending: dict[int, dict[str, np.ndarray]] = {}
        for p in sorted(self.pending_dir.glob("game-*.npz")):
            g = int(p.stem.split("-")[1])
            if g in shard_games:
                p.unlink()              # written to a shard before a kill: the shard has it
            else:
                self.pending[g] = read_arrays(p)
        self.next = int(self.manifest["games"])       # the first game not in a shard
        self.write_manifest()

    @property
    def done(self) -> set[int]:
        return set(range(self.next)) | set(self.pending)

    def take(self, game: int, arrays: dict[str, np.ndarray]) -> None:
        """A finished game: journal it, then write the shards it completes."""
        write_bytes(self.pending_dir / f"game-{game:07d}.npz", _npz_bytes(arrays))
        self.pending[game] = arrays
        while (size := self._shard_size()) and all(
                g in self.pending for g in range(self.next, self.next + size)):
            self._write_shard()

    def _shard_size(self) -> int:
        return min(self.cfg.games_per_shard, self.cfg.games - self.next)

    def _write_shard(self) -> None:
        first, last = self.next, self.next + self._shard_size()
        parts, dupes, cpu = [], 0, 0.0
        for g in range(first, last):
            arrays = self.pending[g]
            cpu += float(arrays.get("cpu_seconds", np.zeros(1)).sum())
            # A key's first occurrence, in game order: earlier games, then earlier plies.
            keep = np.zeros(len(arrays["bb"]), dtype=bool)
            for i, h in enumerate(arrays["bb"][:, core.HASH].tolist()):
                if h not in self.seen:
                    self.seen.add(h)
                    keep[i] = True
            dupes += int((~keep).sum())
            parts.append(select(arrays, keep))
        arrays = concat(parts)
        name = f"shard-{len(self.manifest['shards']):05d}.npz"
        data = _npz_bytes(arrays)
        write_bytes(self.out / name, data)
        self.manifest["shards"].append({"file": name, "games": [first, last],
                                        "positions": len(arrays["best"]),
                                        "sha256": hashlib.sha256(data).hexdigest()})
        self.manifest["games"] = last
        self.manifest["positions"] += len(arrays["best"])
        self.manifest["duplicates"] += dupes
        # Folders written before the count began have none: they count from here on.
        self.manifest["cpu_seconds"] = self.manifest.get("cpu_seconds", 0.0) + cpu
        self.next = last
        self.write_manifest()          # before the pending files go: a kill between replays
        for g in range(first, last):
            del self.pending[g]
            (self.pending_dir / f"game-{g:07d}.npz").unlink(missing_ok=True)

    def write_manifest(self) -> None:
        write_json(self.out / "manifest.json", self.manifest, indent=2)


def write_data(out: Path, cfg: DataConfig, backend: Backend, *, resume: bool = False,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the data set's games not yet in ``out`` where ``backend`` says and write
    them; returns the manifest. ``progress(games done, positions so far)``."""
    return write_games(out, cfg.validate(), Teacher(cfg), backend, resume=resume,
                       progress=progress)


def write_games(out: Path, cfg: GameSettings, job: Any, backend: Backend, *,
                resume: bool = False, progress: Callable[[int, int], None] | None = None,
                ) -> dict[str, Any]:
    """Play the games of ``cfg`` not yet in ``out`` with ``job`` (a backend job whose
    unit is a game's index and whose item is the game's arrays) and write them; returns
    the manifest."""
    folder = DataFolder(out, cfg, resume)
    todo = [g for g in range(cfg.games) if g not in folder.done]
    if progress:
        progress(len(folder.done), folder.manifest["positions"])

    def take(game: int, arrays: dict[str, np.ndarray]) -> None:
        folder.take(game, arrays)
        if progress:
            progress(len(folder.done), folder.manifest["positions"])

    run_units(backend, job, todo, take,
              again=lambda g: None if g in folder.done else g)
    return folder.manifest


def position_keys(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """Each position's repetition key (:attr:`variants.Position.key`: equal exactly when
    python-chess's transposition keys are)."""
    out = np.zeros(len(arrays["st"]), dtype=np.uint64)
    keys_batch(arrays["bb"], arrays["st"].astype(np.int64), out)
    return out


def head(arrays: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """The first ``n`` positions of a data set's arrays."""
    moves = int(arrays["n_legal"][:n].astype(np.int64).sum())
    return {**{k: arrays[k][:n] for k in POSITION_KEYS}, **{k: arrays[k][:moves] for k in MOVE_KEYS}}


def read_data(folder: Path, variant: str | None = None, positions: int | None = None,
              ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """A data set's manifest and its positions (shards checked against their sha256):
    all of them, or the first ``positions`` in game order."""
    path = Path(folder) / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: unreadable manifest ({exc})") from None
    try:
        check_version(manifest.get("encoding_version"), str(path))
    except EncodingError as exc:
        raise DataError(str(exc)) from None
    if variant is not None and manifest["config"]["variant"] != canonical_variant(variant):
        raise DataError(f"{folder} holds {manifest['config']['variant']} positions, not {variant}")
    parts: list[dict[str, np.ndarray]] = []
    have = 0
    for s in manifest["shards"]:
        if positions is not None and have >= positions:
            break
        data = (Path(folder) / s["file"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != s["sha256"]:
            raise DataError(f"{Path(folder) / s['file']}: its sha256 is not the manifest's")
        parts.append(read_arrays(Path(folder) / s["file"]))
        have += len(parts[-1]["game"])
    if not parts:
        raise DataError(f"{folder} holds no complete shard yet")
    if positions is not None and have < positions:
        raise DataError(f"{folder} holds {have} positions in complete shards, "
                        f"fewer than the {positions} asked for")
    arrays = concat(parts)
    return manifest, arrays if positions is None else head(arrays, positions)
