"""Exceptions raised by the rules package. All derive from :class:`VariantError`
(itself a :class:`ValueError`), so callers can catch bad input in one place."""


class VariantError(ValueError):
    """Base class of every error about bad input to the rules."""


class UnknownVariantError(VariantError):
    """The variant name is not one this package plays."""


class InvalidFenError(VariantError):
    """The FEN is syntactically malformed."""


class ImpossiblePositionError(VariantError):
    """The FEN parses but describes a position that cannot be played (python-chess status)."""


class IllegalMoveError(VariantError):
    """A move string is malformed or not legal in the position."""
