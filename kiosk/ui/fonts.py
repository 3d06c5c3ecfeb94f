"""The screens' font, shipped in assets/fonts so every table looks the same whatever the
machine has installed: Atkinson Hyperlegible (SIL Open Font License, assets/fonts/OFL.txt),
drawn by the Braille Institute for readers with low vision, with letters that cannot be
mistaken for each other (I l 1, O 0, B 8) at small sizes and at a distance.

It is registered under Kivy's default font name, so every label and button uses it without
naming it."""

from __future__ import annotations

from assets import FONTS

REGULAR = FONTS / "AtkinsonHyperlegible-Regular.ttf"
BOLD = FONTS / "AtkinsonHyperlegible-Bold.ttf"
ITALIC = FONTS / "AtkinsonHyperlegible-Italic.ttf"
BOLD_ITALIC = FONTS / "AtkinsonHyperlegible-BoldItalic.ttf"
CAP_HEIGHT = 0.668
"""Capital letters' height as a share of the font size (the font's OS/2 table: 668 of 1000
units): what legibility is measured by."""

_done = False


def register() -> None:
    """Make the shipped font Kivy's default (once; before or after the window exists)."""
    global _done
    if _done:
        return
    from kivy.core.text import DEFAULT_FONT, LabelBase

    LabelBase.register(DEFAULT_FONT, str(REGULAR), str(ITALIC), str(BOLD), str(BOLD_ITALIC))
    _done = True


def cap_height(font_size: float) -> float:
    """Capital letters' height in pixels at `font_size`."""
    return font_size * CAP_HEIGHT
