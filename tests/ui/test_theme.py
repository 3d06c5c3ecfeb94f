"""The theme's colour pairs (kiosk/ui/theme.py TEXT_ON): every text colour on every background
it may be drawn on is at least 4.5:1 (WCAG 2 level AA)."""

from __future__ import annotations

import pytest

from kiosk.ui import theme

PAIRS = [(text, ground) for ground, texts in theme.TEXT_ON.items() for text in texts]


@pytest.mark.parametrize(("text", "ground"), PAIRS, ids=[f"{t}-on-{g}" for t, g in PAIRS])
def test_every_text_colour_stands_out_from_its_grounds(text: str, ground: str) -> None:
    ratio = theme.contrast(getattr(theme, text), getattr(theme, ground))
    assert ratio >= 4.5, f"{text} on {ground} is {ratio:.2f}:1"


def test_wcag_contrast_matches_the_standards_examples() -> None:
    assert theme.contrast(theme.rgb("#000000"), theme.rgb("#ffffff")) == pytest.approx(21.0)
    assert theme.contrast(theme.rgb("#777777"), theme.rgb("#ffffff")) == pytest.approx(4.48,
                                                                                      abs=0.01)
    assert theme.contrast(theme.WHITE, theme.WHITE) == 1.0


def test_the_dealers_pay_and_take_words_are_no_fainter_than_the_issue_allows() -> None:
    """The words the dealer pays from were 2.4:1 ('take' in #ff8a80 on green)."""
    for ink in (theme.PAY, theme.TAKE):
        assert theme.contrast(ink, theme.FELT_DARK) >= 7.0
        assert theme.contrast(ink, theme.FELT) >= 4.5


def test_every_text_colour_in_the_theme_has_a_ground() -> None:
    texts = {t for texts in theme.TEXT_ON.values() for t in texts}
    assert {"WHITE", "GOLD", "MUTED", "IVORY", "INK", "INK_SOFT", "PAY", "TAKE", "WARNING",
            "DISABLED_INK", "CARD_RED"} <= texts
