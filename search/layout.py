"""Feature layout, weight files and the built-in value sets.

An evaluation is one weight vector plus the :class:`FeatureLayout` that names its
entries. The layout is a list of feature *families*, each a named block of the vector;
:mod:`search.evaluate` computes each family and the search only sees the total, so a new
family (king-relative tables, counts in hand) is a new block here and a new term there.

Weights are from White's point of view and in pawns: a white knight adds
``material.N``, a black one subtracts it. Piece-square entries are indexed a1 = 0 ...
h8 = 63 for White and mirrored vertically for Black.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from variants import canonical_variant

from . import shipped

PIECES = "PNBRQK"
HAND_PIECES = "PNBRQ"

# Offsets of the families in the weight vector (fixed: numba code uses them).
MATERIAL = 0      # 6 entries, P..K
HAND = 6          # 6 entries, P..Q (+1 unused so that type t maps to HAND + t - 1)
PSQ = 12          # 6 x 64 entries
N_FEATURES = PSQ + 6 * 64


class WeightsError(ValueError):
    """A weights file or value-set name that cannot be used."""


@dataclass(frozen=True)
class Family:
    name: str
    offset: int
    size: int


@dataclass(frozen=True)
class FeatureLayout:
    """Names and offsets of every weight; ``names[i]`` labels ``w[i]``."""

    families: tuple[Family, ...] = (
        Family("material", MATERIAL, 6),
        Family("hand", HAND, 6),
        Family("psq", PSQ, 6 * 64),
    )

    @property
    def size(self) -> int:
        return sum(f.size for f in self.families)

    @property
    def names(self) -> list[str]:
        out = [f"material.{p}" for p in PIECES]
        out += [f"hand.{p}" for p in HAND_PIECES] + ["hand.-"]
        out += [f"psq.{p}.{sq}" for p in PIECES for sq in range(64)]
        return out

    def family(self, name: str) -> Family:
        for f in self.families:
            if f.name == name:
                return f
        raise KeyError(name)

    def mask(self, names: list[str] | tuple[str, ...]) -> np.ndarray:
        """Boolean mask of the entries belonging to the given families."""
        m = np.zeros(self.size, dtype=bool)
        for n in names:
            f = self.family(n)
            m[f.offset:f.offset + f.size] = True
        return m


LAYOUT = FeatureLayout()

# --- Built-in value sets (paper digest; in pawns) ------------------------------------

_TRADITIONAL = {"P": 1.0, "N": 3.0, "B": 3.0, "R": 5.0, "Q": 9.0, "K": 0.0}
_LOSING = {"P": -1.0, "N": -3.0, "B": -3.0, "R": -5.0, "Q": -9.0, "K": -2.0}
_SETS: dict[str, dict[str, dict[str, float]]] = {
    # name -> variant -> material (hand = material where the variant has pockets)
    "traditional": {"chess": _TRADITIONAL, "crazyhouse": _TRADITIONAL, "atomic": _TRADITIONAL,
                    "suicide": _LOSING, "giveaway": _LOSING, "antichess": _LOSING},
    "sunsetter": {
        "chess": {"P": 0.96, "N": 2.87, "B": 3.0, "R": 4.49, "Q": 8.60, "K": 0.0},
        "crazyhouse": {"P": 1.54, "N": 2.95, "B": 3.0, "R": 3.08, "Q": 6.00, "K": 0.0},
    },
    "sjeng": {
        "crazyhouse": {"P": 1.30, "N": 2.74, "B": 3.0, "R": 3.26, "Q": 5.87, "K": 0.0},
        # Sjeng's eval.c values multiplied by -1, as the report did.
        "suicide": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
        "giveaway": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
        "antichess": {"P": -0.50, "N": -5.0, "B": 0.0, "R": -5.0, "Q": -1.67, "K": -16.67},
    },
    "losers": {
        v: {"P": -1.14, "N": -4.57, "B": -3.86, "R": -5.0, "Q": -5.71, "K": -14.29}
        for v in ("suicide", "giveaway", "antichess")
    },
    "ones": {v: {p: 1.0 for p in PIECES} for v in
             ("chess", "crazyhouse", "atomic", "suicide", "giveaway", "antichess")},
    # The report's own learnt material values (its Tables 5.1, 6.1, 7.1, 8.1), in its
    # normalisation: to play ours against them. The same numbers as plots.paper.LEARNT,
    # which the engine cannot import (plots pulls in matplotlib); a test keeps them equal.
    "report": {
        "chess": {"P": 1.20, "N": 2.43, "B": 3.0, "R": 4.35, "Q": 9.48, "K": 0.0},
        "crazyhouse": {"P": 1.34, "N": 2.35, "B": 3.0, "R": 3.14, "Q": 6.04, "K": 0.0},
        "suicide": {"P": -2.36, "N": -3.22, "B": -4.41, "R": -5.0, "Q": -4.79, "K": -2.98},
        "atomic": {"P": 2.91, "N": 2.50, "B": -0.77, "R": 6.37, "Q": 24.77, "K": 0.0},
    },
}
#: Pieces in hand where a set values them apart from the pieces on the board (else the same).
_HAND_SETS = {"report": {"crazyhouse": {"P": 1.49, "N": 2.96, "B": 2.81, "R": 3.53, "Q": 5.63}}}
VALUE_SETS = tuple(_SETS)


@dataclass
class Weights:
    """A weight vector with its variant and free-form metadata.

    ``source`` says where the weights came from, for people (not saved by
    :meth:`to_json`): ``"value set traditional"``, ``"file: /path/weights.json"``, or a
    shipped reference set, ``"learnt-psq (package data: /.../weights.json)"`` (``user
    data`` when the per-user data folder overrides it; see :mod:`search.shipped`)."""

    variant: str
    w: np.ndarray
    meta: dict[str, Any]
    source: str | None = field(default=None, compare=False)

    def copy(self) -> Weights:
        return Weights(self.variant, self.w.copy(), dict(self.meta), self.source)

    def to_json(self) -> dict[str, Any]:
        w = self.w
        return {
            "variant": self.variant,
            "material": {p: float(w[MATERIAL + i]) for i, p in enumerate(PIECES)},
            "hand": {p: float(w[HAND + i]) for i, p in enumerate(HAND_PIECES)},
            "psq": {p: [float(x) for x in w[PSQ + 64 * i:PSQ + 64 * (i + 1)]]
                    for i, p in enumerate(PIECES)},
            "meta": self.meta,
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``weights.json`` atomically (a crash leaves the old file intact)."""
        shipped.save_text("weights.json", json.dumps(self.to_json(), indent=1), path)


def _number(x: Any, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise WeightsError(f"{where} must be a finite number, got {x!r}")
    return float(x)


def weights_from_json(data: Any, variant: str | None = None, source: str = "weights") -> Weights:
    """Validate a parsed ``weights.json``; absent parts are zero."""
    if not isinstance(data, dict):
        raise WeightsError(f"{source}: expected a JSON object")
    file_variant = data.get("variant")
    if file_variant is None and variant is None:
        raise WeightsError(f"{source}: no 'variant' field")
    named = file_variant if file_variant is not None else variant
    assert named is not None
    try:
        file_variant = canonical_variant(named)
    except ValueError as exc:
        raise WeightsError(f"{source}: {exc}") from None
    if variant is not None and canonical_variant(variant) != file_variant:
        raise WeightsError(f"{source}: weights are for {file_variant}, not {canonical_variant(variant)}")
    w = np.zeros(N_FEATURES, dtype=np.float64)
    for key in data:
        if key not in ("variant", "material", "hand", "psq", "meta"):
            raise WeightsError(f"{source}: unknown field {key!r}")
    for block, offset, pieces in (("material", MATERIAL, PIECES), ("hand", HAND, HAND_PIECES)):
        part = data.get(block, {}) or {}
        if not isinstance(part, dict):
            raise WeightsError(f"{source}: {block!r} must be an object")
        for p, x in part.items():
            if p not in pieces:
                raise WeightsError(f"{source}: unknown piece {p!r} in {block!r}")
            w[offset + pieces.index(p)] = _number(x, f"{source}: {block}.{p}")
    psq = data.get("psq", {}) or {}
    if not isinstance(psq, dict):
        raise WeightsError(f"{source}: 'psq' must be an object")
    for p, table in psq.items():
        if p not in PIECES:
            raise WeightsError(f"{source}: unknown piece {p!r} in 'psq'")
        if not isinstance(table, list) or len(table) != 64:
            raise WeightsError(f"{source}: psq.{p} must be a list of 64 numbers")
        for sq, x in enumerate(table):
            w[PSQ + 64 * PIECES.index(p) + sq] = _number(x, f"{source}: psq.{p}[{sq}]")
    meta = data.get("meta", {}) or {}
    if not isinstance(meta, dict):
        raise WeightsError(f"{source}: 'meta' must be an object")
    return Weights(file_variant, w, meta)


def value_set(name: str, variant: str) -> Weights:
    """A built-in material value set (``traditional``, ``sunsetter``, ``sjeng``, ...)."""
    variant = canonical_variant(variant)
    if name not in _SETS:
        raise WeightsError(f"unknown value set {name!r}; expected one of: {', '.join(VALUE_SETS)}")
    if variant not in _SETS[name]:
        raise WeightsError(f"value set {name!r} has no values for {variant}; "
                           f"it covers {', '.join(_SETS[name])}")
    material = _SETS[name][variant]
    data: dict[str, Any] = {"variant": variant, "material": material, "meta": {"value_set": name}}
    if variant == "crazyhouse":
        hand = _HAND_SETS.get(name, {}).get(variant)
        data["hand"] = hand or {p: material[p] for p in HAND_PIECES}
    w = weights_from_json(data, variant, source=f"value set {name!r}")
    w.source = f"value set {name}"
    return w


def load_weights(spec: str | os.PathLike[str], variant: str) -> Weights:
    """Weights from a file path, a result folder, a built-in value-set name or a
    reference set (``learnt``, ``learnt-material``, ``learnt-psq``, ``avg-psq``)."""
    text = os.fspath(spec)
    if text in _SETS:
        return value_set(text, variant)
    if text in REFERENCE_SETS:
        return reference_weights(text, variant)
    path = Path(text)
    if path.is_dir():
        path = path / "weights.json"
    if not path.exists():
        raise WeightsError(f"no weights file or value set named {text!r} "
                           f"(value sets: {', '.join(VALUE_SETS + REFERENCE_SETS)})")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path}: corrupt weights file: {exc}") from None
    w = weights_from_json(data, variant, source=str(path))
    w.source = f"file: {path}"
    return w


def _reference_sets() -> tuple[str, ...]:
    try:
        kinds = shipped.reference_kinds()
    except shipped.ShippedDataError:
        kinds = []
    return ("learnt",) + tuple(f"learnt-{k}" for k in kinds) + ("avg-psq",)


#: Names of the learnt reference weights (search/data/manifest.json): ``learnt`` is the
#: variant's default set (tables if any), ``learnt-<kind>`` one of its sets
#: (``learnt-material``, ``learnt-psq``); ``avg-psq`` is material only, each piece worth
#: its table's visit-weighted average (the report's "average p-sq" player).
REFERENCE_SETS = _reference_sets()


def _reference_entry(name: str, variant: str) -> dict[str, Any] | None:
    """The manifest entry behind a reference-set name, or None."""
    if name == "learnt":
        kind = None
    elif name == "avg-psq":
        kind = "psq"
    elif name.startswith("learnt-"):
        kind = name[len("learnt-"):]
    else:
        raise WeightsError(f"unknown reference set {name!r}; expected one of: "
                           f"{', '.join(REFERENCE_SETS)}")
    try:
        return shipped.reference_set(canonical_variant(variant), kind)
    except shipped.ShippedDataError as exc:
        raise WeightsError(str(exc)) from None


def reference_weights_path(variant: str, features: str | None = None) -> Path | None:
    """The shipped learnt ``weights.json`` of a variant, or None: its default set
    (``search/data/manifest.json``; the user data folder's copy first), or ``features``
    ("psq", "material", ...) for one of them."""
    entry = _reference_entry(f"learnt-{features}" if features else "learnt", variant)
    return None if entry is None else shipped.find(entry["weights"])


def default_weights_name(variant: str) -> str:
    """The name of what :func:`default_weights` plays: ``learnt-<kind>`` of the
    variant's default reference set, else ``traditional``."""
    entry = _reference_entry("learnt", variant)
    return f"learnt-{entry['kind']}" if entry else "traditional"


def reference_weights(name: str, variant: str) -> Weights:
    """A reference set by name (see :data:`REFERENCE_SETS`)."""
    variant = canonical_variant(variant)
    entry = _reference_entry(name, variant)
    path = None if entry is None else shipped.find(entry["weights"])
    if entry is None:
        raise WeightsError(f"{name}: no learnt reference weights ship for {variant} (none "
                           f"in search/data/manifest.json)")
    if path is None:
        raise WeightsError(f"{name}: the manifest names {entry['weights']} for {variant}, "
                           f"missing from {shipped.package_data_dir()}: a broken install")
    if name == "avg-psq":
        summary = shipped.find(entry.get("summary", ""))
        if summary is None:
            raise WeightsError(f"avg-psq: no summary.json ships for {variant}'s psq set")
        w = _average_psq(load_weights(path, variant), summary, variant)
        w.source = f"avg-psq ({shipped.describe(summary)})"
        return w
    w = load_weights(path, variant)
    w.source = f"learnt-{entry['kind']} ({shipped.describe(path)})"
    return w


def average_psq_weights(run_dir: str | os.PathLike[str], variant: str) -> Weights:
    """Material-only weights from a piece-square result folder: each piece worth the
    visit-weighted average of its table (``summary.json``'s ``psq_average``); pieces in
    hand keep the learnt hand values (tables are for pieces on the board only)."""
    folder = Path(run_dir)
    w = _average_psq(load_weights(folder, variant), folder / "summary.json", variant)
    w.source = f"avg-psq (file: {folder / 'summary.json'})"
    return w


def _average_psq(learnt: Weights, summary_path: Path, variant: str) -> Weights:
    try:
        summary = json.loads(summary_path.read_text())
        averages = summary["psq_average"]
        material = {p: _number(averages[p], f"psq_average.{p}") for p in PIECES}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{summary_path}: no usable psq_average ({exc})") from None
    if variant not in ("suicide", "giveaway", "antichess"):
        material["K"] = 0.0        # kings are never traded: a constant, as in learning
    data = {"variant": canonical_variant(variant), "material": material,
            "hand": {p: float(learnt.w[HAND + i]) for i, p in enumerate(HAND_PIECES)},
            "meta": {"value_set": "avg-psq", "source": str(summary_path.parent)}}
    return weights_from_json(data, variant, source=f"avg-psq of {summary_path.parent}")


def default_weights(variant: str) -> Weights:
    """The default evaluation: the variant's default learnt reference set
    (search/data/manifest.json), else the traditional values. A set the manifest names
    but the installation lacks is an error, never a silent fall back to traditional."""
    if _reference_entry("learnt", variant) is not None:
        return reference_weights("learnt", variant)
    return value_set("traditional", variant)


def weights_file(w: Weights) -> Path | None:
    """The ``weights.json`` the weights were loaded from (see :attr:`Weights.source`), or
    None for a value set, avg-psq or weights made in memory."""
    src = w.source or ""
    if src.startswith("file: "):
        return Path(src[len("file: "):])
    for where in (shipped.PACKAGE, shipped.USER):
        head = f"({where}: "
        if src.startswith("learnt-") and head in src and src.endswith(")"):
            return Path(src.split(head, 1)[1][:-1])
    return None


def weights_digest(w: np.ndarray) -> str:
    """A short fingerprint of a weight vector: the first 12 hex digits of the SHA-256
    of its float64 values (little-endian), to tell two evaluations apart."""
    data = np.ascontiguousarray(w, dtype="<f8").tobytes()
    return hashlib.sha256(data).hexdigest()[:12]
