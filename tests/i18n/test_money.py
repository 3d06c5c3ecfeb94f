"""Amounts on the signs in the house's style ("R 1 000 000" or "R1,000,000"
as the house chooses, or as each language's locale writes them), from ints of cents."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from kiosk import i18n
from kiosk.i18n import NBSP, MoneyStyle, money
from kiosk.rules.money import format_money
from kiosk.ui.fonts import BOLD
from tests.i18n.font_cover import missing

COMMAS, SPACES, LOCALE = MoneyStyle.COMMAS, MoneyStyle.SPACES, MoneyStyle.LOCALE


def spaced(text: str) -> str:
    """`text` with its no-break spaces written as plain ones, to compare with plain text."""
    return text.replace(NBSP, " ")


def test_commas_with_cents_and_without() -> None:
    assert money(100_000_000, style=COMMAS) == "R1,000,000"
    assert money(123_450, style=COMMAS) == "R1,234.50"
    assert money(5, style=COMMAS) == "R0.05"
    assert money(0, style=COMMAS) == "R0"
    assert money(-250_000, style=COMMAS) == "-R2,500"
    assert money(1_000_000_000, "$", style=COMMAS) == "$10,000,000"


def test_spaces_with_cents_and_without() -> None:
    assert spaced(money(100_000_000, style=SPACES)) == "R 1 000 000"
    assert spaced(money(123_450, style=SPACES)) == "R 1 234,50"
    assert spaced(money(99_999, style=SPACES)) == "R 999,99"
    assert spaced(money(5_000, style=SPACES)) == "R 50"
    assert spaced(money(-100_000, style=SPACES)) == "-R 1 000"
    # No-break spaces: an amount is never split over two lines.
    assert " " not in money(100_000_000, style=SPACES)


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_commas_are_the_rules_own_amounts(cents: int) -> None:
    """The sign in commas writes every amount as the dealer's screen does (a dispute compares
    them)."""
    assert money(cents, "R", style=COMMAS) == format_money(cents, "R")


@given(st.integers(min_value=0, max_value=10**12))
def test_every_style_keeps_every_cent(cents: int) -> None:
    """Read back, each style gives the amount it was given: nothing rounded."""
    for style in MoneyStyle:
        for code in i18n.available():
            text = spaced(money(cents, "R", style=style, code=code))
            digits = "".join(ch for ch in text if ch.isdigit())
            whole, rest = divmod(cents, 100)
            assert digits == (f"{whole}{rest:02d}" if rest else str(whole)), (style, code, text)


def test_the_locale_style_in_each_language() -> None:
    """CLDR's ways, with the table's own symbol: South African English and Afrikaans group
    with spaces and write a decimal comma; isiZulu with commas; Portuguese (Mozambique) puts
    the symbol after the amount."""
    assert {c: spaced(money(100_000_050, style=LOCALE, code=c)) for c in i18n.available()} == {
        "en": "R1 000 000,50", "af": "R1 000 000,50", "zu": "R1,000,000.50",
        "pt": "1 000 000,50 R"}
    assert {c: spaced(money(100_000_000, style=LOCALE, code=c)) for c in i18n.available()} == {
        "en": "R1 000 000", "af": "R1 000 000", "zu": "R1,000,000", "pt": "1 000 000 R"}
    assert spaced(money(-2_500, style=LOCALE, code="af")) == "-R25"


def test_the_house_style_and_the_current_language() -> None:
    before = i18n.money_style()
    try:
        i18n.set_money_style("R 1 000 000")
        assert spaced(money(1_000_000)) == "R 10 000"
        i18n.set_money_style(LOCALE)
        with i18n.using("pt"):
            assert spaced(money(1_000_000)) == "10 000 R"
        with i18n.using("zu"):
            assert money(1_000_000) == "R10,000"
    finally:
        i18n.set_money_style(before)
    with pytest.raises(ValueError):
        i18n.set_money_style("R1.000.000")


def test_money_is_never_a_float() -> None:
    with pytest.raises(TypeError, match="int number of cents"):
        money(12.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        money(Fraction(1, 2))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        money(True)


def test_numbers_and_percentages_as_each_language_writes_them() -> None:
    assert [i18n.number(12_345, code=c) for c in ("en", "af", "zu", "pt")] == [
        f"12{NBSP}345", f"12{NBSP}345", "12,345", f"12{NBSP}345"]
    assert i18n.percent(Fraction(1, 20), code="en") == "5%"
    assert i18n.percent(Fraction(9, 200), code="af") == "4,5%"
    assert i18n.percent(Fraction(9, 200), code="zu") == "4.5%"
    assert i18n.percent(Fraction(48, 100), code="pt") == "48%"


def test_the_font_draws_every_amount() -> None:
    """CLDR writes some amounts with characters the shipped font lacks (a narrow no-break
    space); they are written with ones it has."""
    for style in MoneyStyle:
        for code in i18n.available():
            for cents in (-123_456_789, 5, 100_000_000):
                text = money(cents, style=style, code=code) + i18n.number(10**6, code=code)
                assert missing(text, BOLD) == set(), (style, code, text)
