"""Exceptions raised by the rules package. All derive from :class:`VariantError`
(itself a :class:`ValueError`), so callers can catch bad input in one place.

:class:`TdleafError` is defined here, in the bottom layer that every package imports,
as the base of every error the distribution raises (``search``, ``tdleaf`` and
``plots`` derive theirs from it too)."""


class TdleafError(Exception):
    """Base of every error the distribution raises about bad input, a bad file or a
    failed job (each subclass also derives from the builtin error it always was, e.g.
    :class:`ValueError`). The ``tdleaf`` command catches it once: it prints the message
    as ``tdleaf: error: ...``, without a traceback, and exits with status 2."""


class VariantError(TdleafError, ValueError):
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
