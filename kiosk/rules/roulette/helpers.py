"""A player's chip colour as the refusals say it."""

from __future__ import annotations

from kiosk.rules.errors import Word


def colour_word(colour: str) -> Word:
    """A player's chip colour in a refusal: "Pink", in English and as the screens name it."""
    return Word(colour.capitalize())
