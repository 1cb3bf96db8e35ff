"""The errors the fit service raises: bad input, and a run that cannot be measured."""
from __future__ import annotations

from services.i18n import Msg, TranslatableError


class ModelInputError(TranslatableError, ValueError):
    """Bad input (unknown model, unreadable or malformed file, absurd size).

    ``message`` is a translatable one-line ``Msg``; ``choices`` are the closest
    valid names, for "did you mean".
    """

    def __init__(self, message: Msg, choices: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.choices = choices


class MeasureError(TranslatableError):
    """A run that cannot be measured at all (command not found, no such process): one line."""
