"""The variants this package plays, described as plain data: no numba, no NumPy, no
python-chess, so that front ends, plots and help texts can name variants without
loading the rules.

>>> from variants.spec import VARIANTS, canonical_variant
>>> VARIANTS
('chess', 'crazyhouse', 'suicide', 'giveaway', 'antichess', 'atomic')
>>> canonical_variant("zh")
'crazyhouse'
"""

from __future__ import annotations

from .errors import UnknownVariantError

#: The variants this package plays, by canonical name.
VARIANTS: tuple[str, ...] = ("chess", "crazyhouse", "suicide", "giveaway", "antichess", "atomic")

#: Other names accepted for them.
ALIASES: dict[str, str] = {"standard": "chess", "zh": "crazyhouse", "house": "crazyhouse",
                           "anti": "antichess"}


def canonical_variant(name: str) -> str:
    """Canonical name of a variant, accepting common aliases; raises UnknownVariantError."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in VARIANTS:
        raise UnknownVariantError(
            f"unknown variant {name!r}; expected one of: {', '.join(VARIANTS)}")
    return key
