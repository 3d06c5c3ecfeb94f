"""The pai gow tile keypad, drawn for real and tapped: four tiles keyed, the ways to set them
(each with its stronger hand high), a kind the set has no more of greyed and saying why on
the pad's own line, and the pad laid out at every dealer size and in every language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.paigow.hands import Setting
from kiosk.rules.paigow.tiles import Tile
from tests.ui.conftest import UI
from tests.ui.layout import LANDSCAPE, problems
from tests.ui.test_refusals import dialog_says, every_greyed_says_why


def key(pad: Any, tile: Tile) -> Any:
    return next(k for k in pad.ids.tile_keys.children if k.tile is tile)


def open_pad(ui: UI, left: dict[Tile, int] | None = None) -> tuple[Any, list[Setting]]:
    from kiosk.ui.dealer.paigow_tile_keypad import TileKeypad

    got: list[Setting] = []
    pad = TileKeypad("Area 3: key in the tiles and how they are set",
                     left=lambda t: (left or {}).get(t, t.copies), on_set=got.append)
    pad.open()
    ui.pump(0.3)
    return pad, got


def test_four_tiles_then_how_they_are_set(ui: UI) -> None:
    pad, got = open_pad(ui)
    assert pad.ids.done.disabled and pad.ids.take_back.disabled
    for tile in (Tile.TEEN, Tile.TEEN, Tile.NINE_45, Tile.SEVEN_34):
        ui.tap(key(pad, tile))
    assert [f.code for f in pad.ids.slots.children[::-1]] == ["66", "66", "45", "34"]
    # The ways to set them, each with the stronger hand high (wong over high nine once).
    texts = [b.text for b in reversed(pad.ids.settings.children)]
    assert texts == ["High: teen pair\nLow: 6 (chop gow)", "High: wong\nLow: high nine"]
    assert key(pad, Tile.DAY).disabled  # four tiles keyed: no fifth
    ui.screenshot("paigow-tile-keypad-800x480")
    ui.tap(next(b for b in pad.ids.settings.children if b.text.startswith("High: wong")))
    ui.tap(pad.ids.done)
    assert len(got) == 1 and got[0].high.words == "wong" and got[0].low.words == "high nine"


def test_a_tile_out_of_the_set_is_grey_and_says_why(ui: UI) -> None:
    pad, _got = open_pad(ui, {Tile.TEEN: 1, Tile.NINE_36: 0})
    assert key(pad, Tile.NINE_36).disabled and not key(pad, Tile.TEEN).disabled
    ui.tap(key(pad, Tile.TEEN))
    assert key(pad, Tile.TEEN).disabled  # the other teen is keyed for another area
    said = dialog_says(ui, pad, key(pad, Tile.NINE_36))
    assert said == "No chop gow 3-6 is left in the set this round: each is keyed already"
    said = dialog_says(ui, pad, pad.ids.done)
    assert said == "Key in four tiles: then choose how they are set"
    ui.tap(pad.ids.take_back)
    assert pad.ids.take_back.disabled and not key(pad, Tile.TEEN).disabled
    said = dialog_says(ui, pad, pad.ids.take_back)
    assert said == "No tile keyed yet: Take back removes the last tile keyed"


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code: str = request.param
    with i18n.using(code):
        yield code


CASES = [*((size, "en") for size in LANDSCAPE), *(((800, 480), c) for c in ("af", "pt", "zu"))]


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"],
                         ids=[f"{w}x{h}-{c}" for (w, h), c in CASES])
def test_the_tile_keypad_fits(ui: UI, size: tuple[int, int], language: str) -> None:
    ui.resize_window(*size)
    pad, _got = open_pad(ui, {Tile.GEE_JOON_6: 0})
    for tile in (Tile.GEE_JOON_3, Tile.TEEN, Tile.NINE_45, Tile.EIGHT_26):
        ui.tap(key(pad, tile))
    ui.tap(pad.ids.settings.children[-1])
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*key(pad, Tile.GEE_JOON_6).to_window(*key(pad, Tile.GEE_JOON_6).center))
    touch.touch_down()
    touch.touch_up()
    ui.pump(0.2)
    assert pad.refusal_text
    ui.screenshot(f"layout-paigow-tile-keypad-{size[0]}x{size[1]}-{language}")
    assert problems(pad) == []
    pad.dismiss()


def test_every_grey_key_says_why(ui: UI, tmp_path: Any) -> None:
    from kiosk.store.journal import Journal

    journal = Journal.open(tmp_path / "t.db", "PG-01")
    pad, _got = open_pad(ui, {Tile.TEEN: 0})
    every_greyed_says_why(ui, pad, dialog_says, journal)
    journal.close()
