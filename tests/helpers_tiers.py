"""The test tiers' one helper: a parametrized sweep whose costly cases (the variants
whose generated positions or games take longest) run in the full tier only, so that the
fast tier still touches every test and most variants (tests/conftest.py, ``--full``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def costly_in_full_tier(values: Iterable[Any], costly: Iterable[Any]) -> list[Any]:
    """``values`` as parameters, those in ``costly`` marked ``slow`` (the full tier). A
    tuple is one case of several arguments (``parametrize("variant, search", ...)``)."""
    heavy = set(costly)
    return [v if v not in heavy else
            pytest.param(*v, marks=pytest.mark.slow) if isinstance(v, tuple) else
            pytest.param(v, marks=pytest.mark.slow) for v in values]


#: The report's four variants (chess, crazyhouse, suicide, atomic): what a sweep over the
#: variants plays in the fast tier; lichess's other five (and giveaway) in the full tier.
REPORT_VARIANTS = ("chess", "crazyhouse", "suicide", "atomic")


def report_variants_in_fast_tier(variants: Iterable[str]) -> list[Any]:
    """A sweep over ``variants``: the report's four in the fast tier, the rest marked
    ``slow`` (the full tier)."""
    variants = list(variants)
    return costly_in_full_tier(variants, [v for v in variants if v not in REPORT_VARIANTS])


def sampled_in_fast_tier(values: Iterable[Any], every: int) -> list[Any]:
    """``values`` as parameters, every ``every``-th of them (from the first) in the fast
    tier and the others marked ``slow``: a sample of many seeded cases."""
    values = list(values)
    return costly_in_full_tier(values, [v for k, v in enumerate(values) if k % every])
