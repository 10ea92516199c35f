"""Exceptions raised by the rules package. All derive from :class:`VariantError`
(itself a :class:`ValueError`), so callers can catch bad input in one place."""


class VariantError(ValueError):
    """Base class of every error about bad input to the rules."""


class UnknownVariantError(VariantError):
    """The variant name is not one this package plays."""


class InvalidFenError(VariantError):
    """The FEN is syntactically malformed."""


class ImpossiblePositionError(VariantError):
    """The FEN parses but describes a position that cannot be played (no king where the
    variant needs one, ...; see :func:`variants.position.position_problems`), or, with
    ``strict=True``, any position python-chess's ``status()`` calls invalid."""


class IllegalMoveError(VariantError):
    """A move string is malformed or not legal in the position."""


class ImpossiblePositionWarning(UserWarning):
    """A position python-chess's ``status()`` calls impossible (a check no game can
    reach, a pawn on its back rank, ...) was accepted because it can still be played:
    its moves are generated exactly as python-chess generates them."""
