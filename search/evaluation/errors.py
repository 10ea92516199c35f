"""The error of weights and layouts that cannot be used, and the check of one number."""

from __future__ import annotations

import math
from typing import Any

from variants.errors import TdleafError


class WeightsError(TdleafError, ValueError):
    """A weights file or value-set name that cannot be used."""


def finite_number(x: Any, where: str) -> float:
    """``x`` as a float; WeightsError (naming ``where``) unless it is a finite number."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise WeightsError(f"{where} must be a finite number, got {x!r}")
    return float(x)
