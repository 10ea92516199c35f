"""The evaluation's public names in one place, as users and the docs import them
(``from search.layout import feature_layout``); they live in the description room,
:mod:`search.evaluation`, which the code of this package imports directly."""

from __future__ import annotations

from .evaluation.block import HAND_PIECES, PIECES, Block
from .evaluation.classic import (
    BASE_SIZE,
    COLOUR_SIZE,
    HAND,
    MATERIAL,
    MATERIAL_BLACK,
    N_FEATURES,
    PSQ,
    PSQ_BLACK,
    SQUARE_XOR,
    black_view,
    has_pockets,
    incremental_size,
    separate_colours,
)
from .evaluation.errors import WeightsError
from .evaluation.layout import (
    ALL,
    FEATURE_SETS,
    LAYOUT,
    LAYOUT_VERSION,
    FeatureLayout,
    expand_features,
    extra_blocks,
    feature_layout,
    learnt_blocks,
)
from .evaluation.load import default_weights, load_weights, weights_or_default
from .evaluation.reference_sets import (
    REFERENCE_SETS,
    average_psq_weights,
    default_weights_name,
    reference_weights,
)
from .evaluation.registry import BLOCKS, block_help, register_block
from .evaluation.value_sets import VALUE_SETS, value_set
from .evaluation.weights import (
    Weights,
    save_meta,
    weights_digest,
    weights_file,
    weights_from_json,
)

__all__ = [
    "ALL",
    "BASE_SIZE",
    "BLOCKS",
    "COLOUR_SIZE",
    "FEATURE_SETS",
    "HAND",
    "HAND_PIECES",
    "LAYOUT",
    "LAYOUT_VERSION",
    "MATERIAL",
    "MATERIAL_BLACK",
    "N_FEATURES",
    "PIECES",
    "PSQ",
    "PSQ_BLACK",
    "REFERENCE_SETS",
    "SQUARE_XOR",
    "VALUE_SETS",
    "Block",
    "FeatureLayout",
    "Weights",
    "WeightsError",
    "average_psq_weights",
    "black_view",
    "block_help",
    "default_weights",
    "default_weights_name",
    "expand_features",
    "extra_blocks",
    "feature_layout",
    "has_pockets",
    "incremental_size",
    "learnt_blocks",
    "load_weights",
    "reference_weights",
    "register_block",
    "save_meta",
    "separate_colours",
    "value_set",
    "weights_digest",
    "weights_file",
    "weights_from_json",
    "weights_or_default",
]
