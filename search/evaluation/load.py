"""Weights by name: a ``weights.json`` file, a result folder, a built-in value set or a
shipped reference set; and each variant's default."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import WeightsError
from .reference_sets import REFERENCE_SETS, has_reference, reference_weights
from .value_sets import VALUE_SETS, value_set
from .weights import Weights, read_weights


def load_weights(spec: str | os.PathLike[str], variant: str) -> Weights:
    """Weights from a file path, a result folder, a built-in value-set name or a
    reference set (``learnt``, ``learnt-<kind>`` such as ``learnt-psq``, ``avg-psq``)."""
    text = os.fspath(spec)
    if text in VALUE_SETS:
        return value_set(text, variant)
    if text in REFERENCE_SETS:
        return reference_weights(text, variant)
    path = Path(text)
    if path.is_dir():
        path = path / "weights.json"
    if not path.exists():
        raise WeightsError(f"no weights file or value set named {text!r} "
                           f"(value sets: {', '.join(VALUE_SETS + REFERENCE_SETS)})")
    return read_weights(path, variant)


def default_weights(variant: str) -> Weights:
    """The default evaluation: the variant's default learnt reference set
    (search/data/manifest.json), else the traditional values. A set the manifest names
    but the installation lacks is an error, never a silent fall back to traditional."""
    if has_reference(variant):
        return reference_weights("learnt", variant)
    return value_set("traditional", variant)


def weights_or_default(weights: Weights | str | os.PathLike[str] | None, variant: str) -> Weights:
    """``weights`` as :class:`Weights`: as they are, loaded (:func:`load_weights`), or the
    variant's default for None."""
    if weights is None:
        return default_weights(variant)
    if isinstance(weights, Weights):
        return weights
    return load_weights(weights, variant)
