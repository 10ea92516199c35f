"""Weight vectors and ``weights.json`` files.

An evaluation is one weight vector plus the :class:`~search.evaluation.layout.FeatureLayout`
that names its entries; ``weights.json`` stores every block by name, so that a person can
read it, with the layout (from version 2) and free-form metadata.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from variants import canonical_variant, spec

from .. import shipped
from .errors import WeightsError
from .layout import LAYOUT, FeatureLayout, layout_from_json, missing_colours
from .registry import BLOCKS


@dataclass
class Weights:
    """A weight vector with its variant, free-form metadata and layout.

    ``layout`` names every entry (:class:`FeatureLayout`; default: the classic layout,
    version 1); ``w.size == layout.size``. ``source`` says where the weights came from,
    for people (not saved by :meth:`to_json`): ``"value set traditional"``, ``"file:
    /path/weights.json"``, or a shipped reference set, ``"learnt-psq (package data:
    /.../weights.json)"`` (``user data`` when the per-user data folder overrides it; see
    :mod:`search.shipped`)."""

    variant: str
    w: np.ndarray
    meta: dict[str, Any]
    source: str | None = field(default=None, compare=False)
    layout: FeatureLayout = field(default=LAYOUT, compare=False)
    #: The ``weights.json`` they were read from (None: a value set, avg-psq, in memory).
    path: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if np.shape(self.w) != (self.layout.size,):
            raise WeightsError(f"{self.layout.name} layout has {self.layout.size} weights, "
                               f"got a vector of shape {np.shape(self.w)}")
        # The compiled evaluation reads Black's own blocks where the colours differ, and
        # only there: a layout without them (or with them elsewhere) cannot be played.
        why = missing_colours(self.layout, self.variant) or next(
            (m for b in self.layout.blocks if b.colours for m in [b.misfit(self.variant)] if m),
            None)
        if why:
            raise WeightsError(why)

    def copy(self) -> Weights:
        return Weights(self.variant, self.w.copy(), dict(self.meta), self.source, self.layout,
                       self.path)

    def in_layout(self, layout: FeatureLayout) -> Weights:
        """The same weights in another layout, block by block (blocks it lacks are 0).
        Raises WeightsError if a non-zero weight has no place in ``layout``."""
        if layout == self.layout:
            return self.copy()
        w = np.zeros(layout.size, dtype=np.float64)
        moved = np.zeros(self.w.size, dtype=bool)
        for b in self.layout.blocks:
            if layout.has(b.name):
                w[layout.span(b.name)] = self.w[self.layout.span(b.name)]
                moved[self.layout.span(b.name)] = True
        lost = np.flatnonzero(~moved & (self.w != 0))
        if lost.size:
            raise WeightsError(f"{self.source or 'weights'}: {self.layout.names[lost[0]]} is not "
                               f"zero and the {layout.name!r} layout has no place for it "
                               f"(blocks: {', '.join(layout.block_names)})")
        return Weights(self.variant, w, dict(self.meta), self.source, layout)

    def to_json(self) -> dict[str, Any]:
        """The ``weights.json`` content: every block by name (the classic layout without
        a ``"layout"`` field, as version 1 files are written). Raises WeightsError if an
        entry outside the layout's blocks is not zero (it would be lost)."""
        layout, w = self.layout, self.w
        used = layout.mask(layout.block_names)
        for b in layout.blocks:         # padding is not saved either
            used[layout.offsets[b.name]:layout.offsets[b.name] + b.size] = True
        lost = np.flatnonzero(~used & (w != 0))
        if lost.size:
            raise WeightsError(f"weights outside the {layout.name!r} layout's blocks are not "
                               f"zero (entry {int(lost[0])}): they would not be saved")
        out: dict[str, Any] = {"variant": self.variant}
        if layout.version > 1:
            out["layout"] = layout.to_json()
        for b in layout.blocks:
            out[b.name] = b.to_json(w[layout.span(b.name)])
        out["meta"] = self.meta
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``weights.json`` atomically (a crash leaves the old file intact)."""
        shipped.save_text("weights.json", json.dumps(self.to_json(), indent=1), path)


def weights_from_json(data: Any, variant: str | None = None, source: str = "weights") -> Weights:
    """Validate a parsed ``weights.json``; absent parts are zero. A file without a
    ``"layout"`` field is the classic layout (version 1); a layout of a newer version, or
    with a block this version does not know, is refused."""
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
    # Variants that share their rules share weights (antichess's are giveaway's).
    if variant is not None and not spec.same_rules(file_variant, canonical_variant(variant)):
        raise WeightsError(f"{source}: weights are for {file_variant}, not {canonical_variant(variant)}")
    layout = layout_from_json(data.get("layout"), file_variant, source)
    for key in data:
        if key in ("variant", "meta", "layout") or layout.has(key):
            continue
        if key in BLOCKS:
            raise WeightsError(f"{source}: block {key!r} is not in the file's layout "
                               f"{layout.name!r} (blocks: {', '.join(layout.block_names)})")
        raise WeightsError(f"{source}: unknown field {key!r}")
    w = np.zeros(layout.size, dtype=np.float64)
    for b in layout.blocks:
        w[layout.span(b.name)] = b.from_json(data.get(b.name) or {}, source)
    meta = data.get("meta", {}) or {}
    if not isinstance(meta, dict):
        raise WeightsError(f"{source}: 'meta' must be an object")
    return Weights(file_variant, w, meta, layout=layout)



def read_weights(path: str | os.PathLike[str], variant: str) -> Weights:
    """The weights of a ``weights.json`` file, or of the one in a result folder."""
    path = Path(path)
    if path.is_dir():
        path = path / "weights.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path}: corrupt weights file: {exc}") from None
    w = weights_from_json(data, variant, source=str(path))
    w.source = f"file: {path}"
    w.path = path
    return w


def weights_file(w: Weights) -> Path | None:
    """The ``weights.json`` the weights were loaded from, or None for a value set,
    avg-psq or weights made in memory."""
    return w.path


def save_meta(w: Weights, updates: dict[str, Any]) -> Path | None:
    """Add ``updates`` to the meta of the ``weights.json`` that ``w`` was loaded from and
    write it: shipped weights (or the user's copy of them) to the user's copy in the
    per-user data folder, never into the installed package. The file written, or None for
    weights not loaded from a file."""
    path = weights_file(w)
    if path is None:
        return None
    found = shipped.origin(path)
    if found is not None:
        path = shipped.user_data_dir() / found[1]
    w.meta.update(updates)
    w.save(path)
    return path


def weights_digest(w: np.ndarray) -> str:
    """A short fingerprint of a weight vector: the first 12 hex digits of the SHA-256
    of its float64 values (little-endian), to tell two evaluations apart."""
    data = np.ascontiguousarray(w, dtype="<f8").tobytes()
    return hashlib.sha256(data).hexdigest()[:12]


