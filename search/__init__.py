"""The engine: a linear evaluation over a weight vector, numba alpha-beta with
quiescence, and the UCI / XBoard front ends.

Importing the package is cheap: ``Engine``, ``Weights`` and the other names below load
their modules on first use (PEP 562), so the front ends and the data modules
(:mod:`search.protocol.strength`, :mod:`search.alphabeta.modes`) import without numba or NumPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .alphabeta.engine import Engine, Limits, SearchResult
    from .evaluation.classic import N_FEATURES
    from .evaluation.errors import WeightsError
    from .evaluation.layout import LAYOUT, FeatureLayout
    from .evaluation.load import default_weights, load_weights
    from .evaluation.value_sets import VALUE_SETS, value_set
    from .evaluation.weights import Weights

#: Names loaded on first use, and the module of each.
_LAZY = {
    "Engine": "alphabeta.engine", "Limits": "alphabeta.engine",
    "SearchResult": "alphabeta.engine",
    "LAYOUT": "evaluation.layout", "N_FEATURES": "evaluation.classic",
    "VALUE_SETS": "evaluation.value_sets", "FeatureLayout": "evaluation.layout",
    "Weights": "evaluation.weights", "WeightsError": "evaluation.errors",
    "default_weights": "evaluation.load", "load_weights": "evaluation.load",
    "value_set": "evaluation.value_sets",
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
