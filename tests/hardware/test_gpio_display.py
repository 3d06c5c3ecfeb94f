"""What the 4-digit 7-segment display shows: the table minimum's format and the font.

Money is an int of cents (docs/architecture.md, "Conventions"): 5000 cents is a 50 minimum."""

from __future__ import annotations

import pytest

from hardware.gpio.display import CHARACTERS, FONT, format_minimum, layout_text

# Standard 7-segment shapes, written out here rather than read from gpiozero, so the test checks
# the font the panel uses against what a player must see.
SHAPES = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg",
    "-": "g", " ": "",
}


def segments(shape: str) -> tuple[int, ...]:
    return tuple(int(s in shape) for s in "abcdefg")


@pytest.mark.parametrize("char", sorted(SHAPES))
def test_font_draws_digits_and_dash_as_a_player_reads_them(char: str) -> None:
    assert FONT[char] == segments(SHAPES[char])


def test_font_is_gpiozeros_capitals_plus_dash() -> None:
    assert CHARACTERS == " -0123456789ABCDEFGHIJLNOPQRSTUY"
    # No two of the digits share a shape (S and 5 do, which is why letters are never used for
    # money).
    assert len({FONT[d] for d in "0123456789"}) == 10


@pytest.mark.parametrize(("cents", "shown"), [
    (5000, "50"),          # a 50 minimum
    (50000, "500"),
    (500000, "5000"),
    (999900, "9999"),      # the largest whole amount that fits
    (1000000, "----"),     # 10 000 needs 5 digits
    (100, "1"),
    (0, "0"),
    (1250, "12.50"),       # cents need the decimal point: 4 digits, the point shares one
    (50, "0.50"),
    (5, "0.05"),
    (9999, "99.99"),       # the largest amount with cents that fits
    (10001, "----"),       # 100.01 would need 5 digits; never rounded to "100"
    (12345, "----"),
])
def test_format_minimum(cents: int, shown: str) -> None:
    assert format_minimum(cents) == shown


@pytest.mark.parametrize(("cents", "shown"), [(5000, "50"), (1250, "----"), (50, "----")])
def test_format_minimum_without_a_decimal_point_never_drops_the_cents(
        cents: int, shown: str) -> None:
    # "12.50" written as "1250" would be a hundred times the real minimum.
    assert format_minimum(cents, has_dp=False) == shown


def test_format_minimum_refuses_what_is_not_money() -> None:
    with pytest.raises(ValueError, match="negative"):
        format_minimum(-100)
    with pytest.raises(TypeError, match="int of cents"):
        format_minimum(12.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int of cents"):
        format_minimum(True)


@pytest.mark.parametrize(("text", "cells"), [
    ("50", (" ", " ", "5", "0")),
    ("5000", ("5", "0", "0", "0")),
    ("5.00", (" ", "5.", "0", "0")),
    ("12.50", ("1", "2.", "5", "0")),
    ("8.8.8.8.", ("8.", "8.", "8.", "8.")),
    (".5", (" ", " ", " .", "5")),
    ("5..", (" ", " ", "5.", " .")),
    ("open", ("O", "P", "E", "N")),
    ("----", ("-", "-", "-", "-")),
    ("", (" ", " ", " ", " ")),
])
def test_layout_text_right_aligns_one_cell_per_digit(text: str, cells: tuple[str, ...]) -> None:
    assert layout_text(text) == cells


@pytest.mark.parametrize(("text", "has_dp", "reason"), [
    ("12345", True, "needs 5 digits, the display has 4"),
    ("HI!", True, "no '!'"),
    ("OK", True, "no 'K'"),
    ("1.5", False, "decimal point is not wired"),
])
def test_layout_text_says_why_it_cannot_show(text: str, has_dp: bool, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        layout_text(text, has_dp=has_dp)
