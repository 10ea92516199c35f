"""The compiled evaluation's public names in one place, as users import them; they live
in the kernel room, :mod:`search.kernels`, which the code of this package imports
directly."""

from __future__ import annotations

from .kernels.classic import evaluate, evaluate_delta, features
from .kernels.dispatch import (
    evaluate_layout,
    feature_vector,
    leaf_features,
    leaf_score,
    sparse_features,
)

__all__ = ["evaluate", "evaluate_delta", "evaluate_layout", "feature_vector", "features",
           "leaf_features", "leaf_score", "sparse_features"]
