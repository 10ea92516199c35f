"""The learnt reference sets that ship with the engine (``search/data/manifest.json``):
``learnt`` (a variant's default), ``learnt-<kind>`` (``learnt-psq``, a set with feature
blocks, ...) and ``avg-psq`` (the ``psq`` set's table averages as material values: the
report's "average p-sq" player)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from variants import canonical_variant, spec

from .. import shipped
from .block import HAND_PIECES, PIECES
from .classic import HAND, separate_colours
from .errors import WeightsError, finite_number
from .layout import feature_layout
from .weights import Weights, read_weights, weights_from_json


def _reference_sets() -> tuple[str, ...]:
    try:
        kinds = shipped.reference_kinds()
    except shipped.ShippedDataError:
        kinds = []
    return ("learnt",) + tuple(f"learnt-{k}" for k in kinds) + (shipped.AVERAGE,)


#: Names of the learnt reference weights (search/data/manifest.json): ``learnt`` is the
#: variant's default (:func:`default_weights_name`), ``learnt-<kind>`` one of its sets
#: (``learnt-material``, ``learnt-psq``, a set with feature blocks); ``avg-psq`` is
#: material only, each piece worth its table's visit-weighted average (the report's
#: "average p-sq" player).
REFERENCE_SETS = _reference_sets()


def _reference_entry(name: str, variant: str) -> dict[str, Any] | None:
    """The manifest entry behind a reference-set name (``learnt``: the set the default
    is made of), or None."""
    if name == "learnt":
        kind = None
    elif name == shipped.AVERAGE:
        kind = shipped.AVERAGED_KIND
    elif name.startswith("learnt-"):
        kind = name[len("learnt-"):]
    else:
        raise WeightsError(f"unknown reference set {name!r}; expected one of: "
                           f"{', '.join(REFERENCE_SETS)}")
    try:
        return shipped.reference_set(canonical_variant(variant), kind)
    except shipped.ShippedDataError as exc:
        raise WeightsError(str(exc)) from None


def has_reference(variant: str) -> bool:
    """Whether a learnt reference set ships as a variant's default."""
    return _reference_entry("learnt", variant) is not None


def default_weights_name(variant: str) -> str:
    """The name of what :func:`default_weights` plays: ``learnt-<kind>`` of the
    variant's default reference set, ``avg-psq`` when the manifest's default is its
    tables' averages, else ``traditional``."""
    try:
        name = shipped.default_name(canonical_variant(variant))
    except shipped.ShippedDataError as exc:
        raise WeightsError(str(exc)) from None
    if name is None:
        return "traditional"
    return name if name == shipped.AVERAGE else f"learnt-{name}"


def reference_weights(name: str, variant: str) -> Weights:
    """A reference set by name (see :data:`REFERENCE_SETS`)."""
    variant = canonical_variant(variant)
    if name == "learnt" and (default := default_weights_name(variant)) != "traditional":
        name = default                 # what the default is: learnt-<kind> or avg-psq
    entry = _reference_entry(name, variant)
    path = None if entry is None else shipped.find(entry["weights"])
    if entry is None:
        raise WeightsError(f"{name}: no learnt reference weights ship for {variant} (none "
                           f"in search/data/manifest.json)")
    if path is None:
        raise WeightsError(f"{name}: the manifest names {entry['weights']} for {variant}, "
                           f"missing from {shipped.package_data_dir()}: a broken install")
    if name == shipped.AVERAGE:
        summary = shipped.find(entry.get("summary", ""))
        if summary is None:
            raise WeightsError(f"avg-psq: no summary.json ships for {variant}'s psq set")
        w = _average_psq(read_weights(path, variant), summary, variant)
        w.source = f"avg-psq ({shipped.describe(summary)})"
        return w
    w = read_weights(path, variant)
    w.source = f"learnt-{entry['kind']} ({shipped.describe(path)})"
    return w


def average_psq_weights(run_dir: str | os.PathLike[str], variant: str) -> Weights:
    """Material-only weights from a piece-square result folder: each piece worth the
    visit-weighted average of its table (``summary.json``'s ``psq_average``); pieces in
    hand keep the learnt hand values (tables are for pieces on the board only)."""
    folder = Path(run_dir)
    w = _average_psq(read_weights(folder, variant), folder / "summary.json", variant)
    w.source = f"avg-psq (file: {folder / 'summary.json'})"
    return w


def _average_psq(learnt: Weights, summary_path: Path, variant: str) -> Weights:
    colours = separate_colours(variant)
    values = []
    try:
        summary = json.loads(summary_path.read_text())
        # Black's own averages are in the summary's "black" part where the colours differ.
        for key, part in [("psq_average", summary)] + (
                [("black.psq_average", summary["black"])] if colours else []):
            averages = part["psq_average"]
            values.append({p: finite_number(averages[p], f"{key}.{p}") for p in PIECES})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"{summary_path}: no usable psq_average ({exc})") from None
    if not spec.get(variant).losing:
        for material in values:
            material["K"] = 0.0    # kings are never traded: a constant, as in learning
    data: dict[str, Any] = {"variant": canonical_variant(variant), "material": values[0],
                            "meta": {"value_set": "avg-psq", "source": str(summary_path.parent)}}
    if colours:
        data["layout"] = feature_layout(variant, "material").to_json()
        data["material_black"] = values[1]
    else:
        data["hand"] = {p: float(learnt.w[HAND + i]) for i, p in enumerate(HAND_PIECES)}
    return weights_from_json(data, variant, source=f"avg-psq of {summary_path.parent}")


