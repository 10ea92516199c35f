"""The engine: a linear evaluation over a weight vector, numba alpha-beta with
quiescence, and the UCI / XBoard front ends.

Importing the package is cheap: ``Engine``, ``Weights`` and the other names below load
their modules on first use (PEP 562), so the front ends and the data modules
(:mod:`search.strength`, :mod:`search.modes`) import without numba or NumPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Engine, Limits, SearchResult
    from .layout import (
        LAYOUT,
        N_FEATURES,
        VALUE_SETS,
        FeatureLayout,
        Weights,
        WeightsError,
        default_weights,
        load_weights,
        value_set,
    )

#: Names loaded on first use, and the module of each.
_LAZY = {
    "Engine": "engine", "Limits": "engine", "SearchResult": "engine",
    "LAYOUT": "layout", "N_FEATURES": "layout", "VALUE_SETS": "layout",
    "FeatureLayout": "layout", "Weights": "layout", "WeightsError": "layout",
    "default_weights": "layout", "load_weights": "layout", "value_set": "layout",
}

__all__ = [
    "LAYOUT",
    "N_FEATURES",
    "VALUE_SETS",
    "Engine",
    "FeatureLayout",
    "Limits",
    "SearchResult",
    "Weights",
    "WeightsError",
    "default_weights",
    "load_weights",
    "value_set",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value        # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
