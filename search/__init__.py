"""The engine: a linear evaluation over a weight vector, numba alpha-beta with
quiescence, and the UCI / XBoard front ends."""

from .engine import Engine, Limits, SearchResult
from .layout import (LAYOUT, N_FEATURES, VALUE_SETS, FeatureLayout, Weights, WeightsError,
                     default_weights, load_weights, value_set)

__all__ = ["Engine", "Limits", "SearchResult", "LAYOUT", "N_FEATURES", "VALUE_SETS",
           "FeatureLayout", "Weights", "WeightsError", "default_weights", "load_weights",
           "value_set"]
