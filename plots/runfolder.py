"""Reading a ``tdleaf learn`` result folder: files only, never the engine.

The folder (see :mod:`tdleaf.learn.runs`) holds ``config.json``, one ``run-NN/`` per run
(``history.csv``, ``checkpoint.json``, ``games.pgn``, ``weights.json``) and, once every
run is done, ``weights.json``, ``weights_std.json`` and ``summary.json``. A folder still
being written (or interrupted) has no ``summary.json``; it can still be plotted from the
rows of ``history.csv`` and the latest checkpoints.

Weight vector layout (:mod:`search.evaluation.classic`, the numba-free description of
the evaluation, the one part of search that plots reads): ``material`` P..K at 0..5, ``hand`` P..Q at
6..10 (11 unused), piece-square tables at 12 + 64 * piece + square, a1 = 0 ... h8 = 63,
White's view. In a variant with separate values per colour (horde: spec mirror
``"colour"``) Black's own values follow: ``material_black`` P..K at 396..401 and
``psq_black`` at 402 + 64 * piece + (square ^ 56), Black's view; the figures show them
apart (:meth:`RunData.black_side`), on the board's own squares. A run with leaf blocks
(the variant's goal block in ``psq``, ``--features psq+mobility``) has them after those,
in the order its weights files' ``layout`` lists them, each entry named by its key in
those files (:attr:`RunData.leaf_keys`; drawn by :mod:`plots.blockfigures`).
"""

from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

# The layout's offsets are the evaluation's own description (numba-free).
from search.evaluation.block import HAND_PIECES, PIECES
from search.evaluation.classic import (
    CLASSIC,
    COLOUR_SIZE,
    HAND,
    MATERIAL,
    MATERIAL_BLACK,
    N_FEATURES,
    PSQ,
    PSQ_BLACK,
)
from variants.errors import TdleafError

# The normalisation is learning's (summary.json holds the same numbers): one pure NumPy
# module that imports nothing of the engine.
from variants.normalise import (  # noqa: F401
    CONVENTION,
    PIECE_NAMES,
    REPORT_NORMALISATION,
    learnt_pieces,
    normalise_averages,
    reference,
    table_pieces,
)
from variants.normalise import convention_text as _convention_text
from variants.spec import SPECS as _SPECS
from variants.spec import get as _spec

#: The blocks at fixed places (above); every other block a layout lists is a leaf block.
INCREMENTAL_BLOCKS = tuple(b.name for b in CLASSIC)
_FLIP = np.arange(64) ^ 56          # Black's view <-> the board's squares

VARIANT_TITLES = {name: v.title for name, v in _SPECS.items()}
FEATURE_TITLES = {"material": "material values", "psq": "material + piece-square tables"}


class PlotError(TdleafError, ValueError):
    """A run folder that cannot be plotted; the message names the file at fault."""


def _pockets(variant: str) -> bool:
    """Whether ``variant`` has pieces in hand (its history has hand columns)."""
    try:
        return _spec(variant).pockets
    except ValueError:
        return False


def separate_colours(variant: str) -> bool:
    """Whether ``variant`` values Black's pieces apart from White's (spec mirror
    ``"colour"``: horde), so that its weights hold Black's own blocks."""
    try:
        return _spec(variant).mirror == "colour"
    except ValueError:
        return False


def black_values(w: np.ndarray) -> np.ndarray:
    """Black's own values of a weight vector (``material_black``, ``psq_black``) as a
    classic 396-vector: material at MATERIAL, the tables at PSQ on the board's own
    squares (a1 = 0, not Black's view), so that :func:`board_values` and
    :func:`psq_average` read them as they read White's."""
    out = np.zeros(N_FEATURES)
    out[MATERIAL:MATERIAL + 6] = w[MATERIAL_BLACK:MATERIAL_BLACK + 6]
    out[PSQ:] = np.asarray(w[PSQ_BLACK:COLOUR_SIZE]).reshape(6, 64)[:, _FLIP].reshape(-1)
    return out


def black_visits(visits: np.ndarray) -> np.ndarray:
    """Black's visits (``visits_black``, piece x square in Black's view) on the board's
    own squares, as :func:`black_values` puts its tables."""
    return np.asarray(visits)[:, _FLIP]


@dataclass
class History:
    """The rows of one ``run-NN/history.csv``: the weights after each game."""

    run: int
    path: Path
    games: np.ndarray          # (n,) game numbers 1..n
    material: np.ndarray       # (n, 6) P..K
    hand: np.ndarray           # (n, 5) P..Q
    results: np.ndarray        # (n,) 1 / 0.5 / 0 (White's score)
    plies: np.ndarray          # (n,)
    seconds: np.ndarray        # (n,) wall time of each game (NaN where not recorded)
    nodes: np.ndarray          # (n,) nodes searched in each game (NaN where not recorded)
    material_black: np.ndarray | None = None    # (n, 6) Black's own values (horde)


@dataclass
class Checkpoint:
    run: int
    games: int
    w: np.ndarray              # (396,): the classic entries (added blocks left out)
    visits: np.ndarray         # (6, 64)
    black: np.ndarray | None = None         # (396,) Black's own values (black_values)
    visits_black: np.ndarray | None = None  # (6, 64) Black's, on the board's squares
    #: The leaf blocks' entries (after the classic ones and Black's), in layout order.
    leaf: np.ndarray = field(default_factory=lambda: np.zeros(0))


@dataclass
class RunData:
    """Everything a figure needs from one result folder."""

    path: Path
    config: dict[str, Any]                 # the "learn" section of config.json
    meta: dict[str, Any]                   # the rest of config.json (versions, created)
    histories: list[History]
    checkpoints: dict[int, Checkpoint]
    summary: dict[str, Any] | None
    weights: np.ndarray | None             # mean weights (weights.json or checkpoints)
    visits: np.ndarray | None              # (6, 64) summed over runs
    notes: list[str] = field(default_factory=list)
    # Where the colours have separate values (horde): Black's own, as black_values and
    # black_visits put them.
    weights_black: np.ndarray | None = None
    visits_black: np.ndarray | None = None
    #: This is Black's side of such a run (:meth:`black_side`).
    black: bool = False
    #: The leaf blocks the run learnt, in layout order: name -> the keys of its entries,
    #: as its weights files name them (``{"hill": ["1", "2", "3"]}``); empty for a
    #: classic folder, or before any run has saved its weights.
    leaf_keys: dict[str, list[str]] = field(default_factory=dict)

    @property
    def variant(self) -> str:
        return self.config["variant"]

    @property
    def features(self) -> str:
        """The feature set the figures draw (``material`` or ``psq``), without the
        blocks added to it (:attr:`blocks`)."""
        return feature_set(self.config["features"])[0]

    @property
    def blocks(self) -> list[str]:
        """The leaf blocks the run learnt besides the feature set's (``psq+mobility``:
        ``["mobility"]``; the variant's goal block first in ``psq``)."""
        return feature_set(self.config["features"], self.variant)[1]

    @property
    def games(self) -> int:
        return int(self.config["games"])

    @property
    def runs(self) -> int:
        return int(self.config["runs"])

    @property
    def finished(self) -> bool:
        return self.summary is not None

    @property
    def psq(self) -> bool:
        return self.features == "psq"

    @property
    def normalisation(self) -> tuple[str, float]:
        """The piece and value that normalise the values shown (Black's rule on
        :meth:`black_side` where the sides differ)."""
        try:
            return _spec(self.variant).normalisation(self.black)
        except ValueError:
            return reference(self.variant)

    @property
    def separate_colours(self) -> bool:
        return separate_colours(self.variant)

    def black_side(self) -> RunData:
        """The run as Black's own values show it, where the colours have separate values
        (horde): the same folder, with Black's values, visits and normalisation in
        place of White's, so that every figure draws Black's as it draws White's."""
        if not self.separate_colours or self.black:
            raise PlotError(f"{self.variant} shares its values between the colours: "
                            "no separate Black's side")
        hist = [replace(h, material=h.material_black if h.material_black is not None
                        else np.full_like(h.material, np.nan)) for h in self.histories]
        cks = {r: Checkpoint(c.run, c.games, c.black, c.visits_black)
               for r, c in self.checkpoints.items()
               if c.black is not None and c.visits_black is not None}
        return replace(self, histories=hist, checkpoints=cks, weights=self.weights_black,
                       visits=self.visits_black, black=True)

    @property
    def has_hand(self) -> bool:
        return _pockets(self.variant)

    @property
    def board_pieces(self) -> str:
        """The pieces whose material value is learnt (the king only where it can be lost)."""
        return learnt_pieces(self.variant)

    @property
    def table_pieces(self) -> str:
        """The pieces whose tables are drawn (all six but a piece the variant never has)."""
        return table_pieces(self.variant)

    @property
    def games_played(self) -> list[int]:
        return [len(h.games) for h in self.histories]

    def title(self) -> str:
        """``Chess, material + piece-square tables: 2 runs x 20 games (depth 1)``, with
        the progress of an unfinished folder."""
        v = VARIANT_TITLES.get(self.variant, self.variant)
        f = FEATURE_TITLES.get(self.features, self.features) + "".join(
            f" + {b}" for b in self.blocks)
        text = f"{v}, {f}: {self.runs} run{'s' if self.runs != 1 else ''} \u00d7 {self.games} games"
        text += f" (depth {self.config.get('depth', '?')})"
        if self.separate_colours:
            text += " — Black's own values" if self.black else " — White's values"
        if not self.finished:
            text += f" \u2014 {self.progress()}"
        return text

    def progress(self) -> str:
        """``in progress: 2 of 4 runs started, at 151-296 games`` (unfinished folders)."""
        played = self.games_played
        lo, hi = min(played), max(played)
        span = f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
        return (f"in progress: {len(played)} of {self.runs} runs started, "
                f"at {span} of {self.games} games")


# -- reading ------------------------------------------------------------------------------

def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlotError(f"missing {what}: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlotError(f"unreadable {what} {path}: {exc}") from None


def _read_history(path: Path, run: int, hand: bool) -> History:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlotError(f"missing history: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlotError(f"unreadable history {path}: {exc}") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows:
        raise PlotError(f"{path}: empty file, expected a header line")
    header = rows[0]
    need = ["game"] + [f"material.{p}" for p in PIECES]
    if hand:
        need += [f"hand.{p}" for p in HAND_PIECES]
    missing = [c for c in need if c not in header]
    if missing:
        raise PlotError(f"{path}: missing column(s) {', '.join(missing)}")
    col = {name: i for i, name in enumerate(header)}
    games: list[Any] = []
    mat: list[Any] = []
    hnd: list[Any] = []
    res: list[Any] = []
    plies: list[Any] = []
    secs: list[Any] = []
    nodes: list[Any] = []
    blk: list[Any] = []
    black = all(f"material_black.{p}" in col for p in PIECES)
    body = rows[1:]
    complete_last = text.endswith("\n")
    for k, row in enumerate(body):
        last = k == len(body) - 1
        try:
            if len(row) != len(header):
                raise ValueError(f"{len(row)} fields, expected {len(header)}")
            g = int(row[col["game"]])
            m = [float(row[col[f"material.{p}"]]) for p in PIECES]
            h = [float(row[col[f"hand.{p}"]]) if f"hand.{p}" in col else 0.0 for p in HAND_PIECES]
            r = float(row[col["result"]]) if "result" in col else math.nan
            n = float(row[col["plies"]]) if "plies" in col else math.nan
            t = float(row[col["seconds"]]) if "seconds" in col else math.nan
            k_nodes = float(row[col["nodes"]]) if "nodes" in col else math.nan
            b = [float(row[col[f"material_black.{p}"]]) for p in PIECES] if black else []
        except ValueError as exc:
            if last and not complete_last:
                break               # a row still being appended by a running job
            raise PlotError(f"{path}:{k + 2}: malformed row ({exc})") from None
        if g != len(games) + 1:
            raise PlotError(f"{path}:{k + 2}: game {g} where game {len(games) + 1} was expected")
        games.append(g)
        mat.append(m)
        hnd.append(h)
        res.append(r)
        plies.append(n)
        secs.append(t)
        nodes.append(k_nodes)
        blk.append(b)
    return History(run, path, np.array(games, dtype=int), np.array(mat, dtype=float).reshape(-1, 6),
                   np.array(hnd, dtype=float).reshape(-1, 5), np.array(res, dtype=float),
                   np.array(plies, dtype=float), np.array(secs, dtype=float),
                   np.array(nodes, dtype=float),
                   np.array(blk, dtype=float).reshape(-1, 6) if black else None)


def feature_set(features: Any, variant: str | None = None) -> tuple[str, list[str]]:
    """``(set, leaf blocks)`` of a run's ``features`` (``psq+mobility``): the blocks
    added to the set, after, in ``psq``, the variant's goal block (``hill`` in king of
    the hill; as search.layout.feature_layout builds the layout)."""
    base, *blocks = str(features).split("+")
    goal = None if variant is None else _spec(variant).goal_block
    return base, ([goal] if goal and base == "psq" else []) + blocks


def _read_checkpoint(path: Path, run: int, blocks: bool = False,
                     colours: bool = False) -> Checkpoint:
    """One run's checkpoint; ``colours``: the variant has separate values per colour
    (its vector holds Black's own blocks, its checkpoint Black's visits)."""
    data = _read_json(path, "checkpoint")
    try:
        w = np.asarray(data["w"], dtype=float)
        visits = np.asarray(data["visits"], dtype=float)
        games = int(data["games"])
        visits_b = np.asarray(data["visits_black"], dtype=float) if colours else None
    except (KeyError, TypeError, ValueError) as exc:
        raise PlotError(f"{path}: not a tdleaf checkpoint ({exc!r} missing or malformed)") from None
    size = COLOUR_SIZE if colours else N_FEATURES
    if w.ndim != 1 or w.size < size or (w.size > size and not blocks):
        more = " or more (added blocks)" if blocks else ""
        raise PlotError(f"{path}: 'w' has {w.size} weights, expected {size}{more}")
    black = black_values(w) if colours else None
    leaf = w[size:]
    w = w[:N_FEATURES]              # Black's and the leaf blocks follow the classic entries
    for name, v in (("visits", visits), ("visits_black", visits_b)):
        if v is not None and v.shape != (6, 64):
            raise PlotError(f"{path}: '{name}' has shape {v.shape}, expected 6 x 64")
    return Checkpoint(run, games, w, visits, black,
                      None if visits_b is None else black_visits(visits_b), leaf)


def _leaf_keys(path: Path, runs: int) -> tuple[dict[str, list[str]], Path | None]:
    """The leaf blocks of a result folder and their keys, from the first weights file
    there is (the folder's ``weights.json``, a run's, or a run's snapshot): the blocks its
    ``layout`` lists besides :data:`INCREMENTAL_BLOCKS`, in that order. Empty (and None)
    when no weights file is written yet, or the file has the classic layout."""
    found = [path / "weights.json"] + [path / f"run-{r:02d}" / "weights.json"
                                       for r in range(runs)]
    found += [f for r in range(runs)
              for f in sorted((path / f"run-{r:02d}" / "snapshots").glob("weights-*.json"))]
    source = next((f for f in found if f.exists()), None)
    if source is None:
        return {}, None
    data = _read_json(source, "weights file")
    layout = data.get("layout") if isinstance(data, dict) else None
    if not isinstance(layout, dict):
        return {}, source                       # the classic layout: no leaf blocks
    out = {}
    for name in layout.get("blocks") or []:
        if name in INCREMENTAL_BLOCKS:
            continue
        part = data.get(name)
        if not isinstance(part, dict) or not part:
            raise PlotError(f"{source}: its layout lists the block {name!r}, but it has no "
                            f"entries for it")
        out[str(name)] = [str(k) for k in part]
    return out, source


def _weights_vector(path: Path, colours: bool = False) -> np.ndarray:
    """The 396-vector of a ``weights.json`` file (786 with ``colours``: Black's own
    blocks too, at MATERIAL_BLACK and PSQ_BLACK)."""
    data = _read_json(path, "weights file")
    w = np.zeros(COLOUR_SIZE if colours else N_FEATURES)
    blocks = [("material", "psq", MATERIAL, PSQ)]
    if colours:
        blocks.append(("material_black", "psq_black", MATERIAL_BLACK, PSQ_BLACK))
    try:
        for i, p in enumerate(HAND_PIECES):
            w[HAND + i] = float(data.get("hand", {}).get(p, 0.0))
        for material, psq, mat, tab in blocks:
            for i, p in enumerate(PIECES):
                w[mat + i] = float(data.get(material, {}).get(p, 0.0))
                table = data.get(psq, {}).get(p)
                if table is not None:
                    if len(table) != 64:
                        raise ValueError(f"{psq}.{p} has {len(table)} entries, expected 64")
                    w[tab + 64 * i:tab + 64 * (i + 1)] = np.asarray(table, dtype=float)
    except (AttributeError, TypeError, ValueError) as exc:
        raise PlotError(f"{path}: malformed weights file ({exc})") from None
    return w


def load_run(run_dir: str | os.PathLike[str]) -> RunData:
    """Read a result folder of ``tdleaf learn``, finished or still running.

    A finished folder (with ``summary.json``) must hold every file the learner writes;
    an unfinished one needs ``config.json`` and at least one game in a
    ``run-NN/history.csv``. Raises :class:`PlotError` naming the missing or bad file.
    """
    path = Path(run_dir)
    if not path.exists():
        raise PlotError(f"no such run folder: {path}")
    if not path.is_dir():
        raise PlotError(f"not a folder: {path} (expected a tdleaf learn result folder)")
    cfg_path = path / "config.json"
    if not cfg_path.exists():
        hint = ""
        if (path / "history.csv").exists() or (path / "checkpoint.json").exists():
            hint = f"; {path.name} looks like one run of a job, give its parent folder"
        raise PlotError(f"missing config.json in {path} (not a tdleaf learn result folder{hint})")
    saved = _read_json(cfg_path, "config")
    cfg = saved.get("learn") if isinstance(saved, dict) else None
    if not isinstance(cfg, dict):
        raise PlotError(f"{cfg_path}: no 'learn' section")
    for key in ("variant", "features", "games", "runs"):
        if key not in cfg:
            raise PlotError(f"{cfg_path}: no '{key}' in the 'learn' section")
    if feature_set(cfg["features"])[0] not in FEATURE_TITLES:
        raise PlotError(f"{cfg_path}: unknown features {cfg['features']!r}")
    meta = {k: v for k, v in saved.items() if k != "learn"}
    runs, variant = int(cfg["runs"]), cfg["variant"]

    summary_path = path / "summary.json"
    finished = summary_path.exists()
    histories: list[History] = []
    checkpoints: dict[int, Checkpoint] = {}
    for r in range(runs):
        rdir = path / f"run-{r:02d}"
        hist, ck = rdir / "history.csv", rdir / "checkpoint.json"
        if finished:
            for f in (hist, ck):
                if not f.exists():
                    raise PlotError(f"missing {f.relative_to(path)} in {path} "
                                    f"(summary.json says the job is finished)")
        if hist.exists():
            h = _read_history(hist, r, _pockets(variant))
            if len(h.games):
                histories.append(h)
        if ck.exists():
            checkpoints[r] = _read_checkpoint(ck, r, bool(feature_set(cfg["features"], variant)[1]),
                                              colours=separate_colours(variant))
    if not histories:
        raise PlotError(f"missing run-00/history.csv in {path}: no games played yet"
                        if not (path / "run-00" / "history.csv").exists()
                        else f"no games in {path / 'run-00' / 'history.csv'} yet")

    summary = _read_json(summary_path, "summary") if finished else None
    notes: list[str] = []
    weights = visits = None
    colours = separate_colours(variant)
    weights_b = visits_b = None
    if finished:
        wpath = path / "weights.json"
        if not wpath.exists():
            raise PlotError(f"missing weights.json in {path} (summary.json says the job is finished)")
        full = _weights_vector(wpath, colours)
        weights = full[:N_FEATURES]
        weights_b = black_values(full) if colours else None
        if isinstance(summary, dict) and "visits" in summary:
            visits = np.asarray(summary["visits"], dtype=float)
        part = summary.get("black") if isinstance(summary, dict) else None
        if colours and isinstance(part, dict) and "visits" in part:
            visits_b = np.asarray(part["visits"], dtype=float)
            if visits_b.shape != (6, 64):
                raise PlotError(f"{summary_path}: 'black.visits' has shape {visits_b.shape}, "
                                "expected 6 x 64")
            visits_b = black_visits(visits_b)
    elif checkpoints:
        weights = np.mean([c.w for c in checkpoints.values()], axis=0)
        if colours:
            weights_b = np.mean([c.black for c in checkpoints.values() if c.black is not None],
                                axis=0)
    if visits is None and checkpoints:
        visits = np.sum([c.visits for c in checkpoints.values()], axis=0)
    if colours and visits_b is None and checkpoints:
        visits_b = np.sum([c.visits_black for c in checkpoints.values()
                           if c.visits_black is not None], axis=0)
    if visits is not None and visits.shape != (6, 64):
        raise PlotError(f"{summary_path}: 'visits' has shape {visits.shape}, expected 6 x 64")
    leaf_keys: dict[str, list[str]] = {}
    if feature_set(cfg["features"], variant)[1]:        # else no leaf blocks to look for
        leaf_keys, named_by = _leaf_keys(path, runs)
        size = sum(len(k) for k in leaf_keys.values())
        for r, point in checkpoints.items():
            if leaf_keys and point.leaf.size != size:
                raise PlotError(
                    f"{path / f'run-{r:02d}' / 'checkpoint.json'}: {point.leaf.size} weights after "
                    f"the classic ones, but the leaf blocks of {named_by} "
                    f"({', '.join(leaf_keys)}) have {size}")
    return RunData(path, cfg, meta, histories, checkpoints, summary, weights, visits, notes,
                   weights_b, visits_b, leaf_keys=leaf_keys)


# -- derived numbers ----------------------------------------------------------------------

def psq_average(w: np.ndarray, visits: np.ndarray) -> dict[str, float]:
    """Frequency-weighted average value of each piece: material + table entries weighted
    by how often the piece stood on each square (report, section 5.3)."""
    out = {}
    for i, p in enumerate(PIECES):
        n = visits[i].sum()
        table = w[PSQ + 64 * i:PSQ + 64 * (i + 1)]
        out[p] = float(w[MATERIAL + i] + (table @ visits[i] / n if n else 0.0))
    return out


def convention_text(reference: tuple[str, float], runs: int) -> str:
    """``mean of 2 runs, then normalised so that the knight = 2.5``."""
    return _convention_text(*reference, runs, names=True)


def board_values(w: np.ndarray, piece: str) -> np.ndarray:
    """Material + table entry of ``piece`` on every square (a1 = 0 ... h8 = 63), raw."""
    i = PIECES.index(piece)
    return w[MATERIAL + i] + w[PSQ + 64 * i:PSQ + 64 * (i + 1)]


def psq_mean_then_normalise(ws: list[np.ndarray], visits: list[np.ndarray], piece: str,
                            target: float, typical_of: str = PIECES,
                            ) -> tuple[dict[str, float], dict[str, float], float, str | None]:
    """Table averages of several runs (:data:`CONVENTION`): :func:`psq_average` of the
    mean weights with the visits summed over the runs, scaled so that ``piece``'s average
    is ``target``; the standard deviation over runs of each run's own averages, times the
    factor's size. Returns ``(mean, std, scale, problem)``: empty dicts, NaN and why not
    when the averages cannot be normalised (see :mod:`variants.normalise`)."""
    avg = psq_average(np.mean(ws, axis=0), np.sum(visits, axis=0))
    per = [psq_average(w, v) for w, v in zip(ws, visits)]
    return normalise_averages(avg, per, piece, target, typical_of)
