"""What a dealer types as an amount in the typed console: cents, or one line saying why."""

from __future__ import annotations

import click
import pytest

from kiosk.assembly import typed_amount
from kiosk.ui.games import arizona, baccarat


def test_whole_units_and_cents() -> None:
    assert typed_amount("50") == 5_000 and typed_amount("12.50") == 1_250


@pytest.mark.parametrize("text", ["Infinity", "-inf", "NaN", "ten", "1.234"])
def test_what_is_no_amount_is_refused_in_words_not_a_crash(text: str) -> None:
    with pytest.raises(click.BadParameter, match="is not a"):
        typed_amount(text)


def test_both_consoles_read_amounts_alike() -> None:
    with pytest.raises(click.BadParameter, match="'Infinity' is not an amount"):
        arizona.command("ante 1 Infinity")
    with pytest.raises(click.BadParameter, match="'Infinity' is not an amount"):
        baccarat.command("bet 1 banker Infinity")
