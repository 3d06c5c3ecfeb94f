"""Roulette's header, laid out in code, is like the other screens': the dealer's sign-in
button while the table has a people list, and "More" (cash and chips, disputes, hours), whose
cash buy-in gives wheel chips of the colour chosen at its value (rule 2.1). At every dealer
size and language: nothing cut off, overlapping or off the window, no text too small."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import UI, start_app
from tests.ui.test_dealer_roles import PEOPLE, _closed, _key, _rows
from tests.ui.test_layout_dealers import (
    SIZES_AND_LANGUAGES,
    _case,
    _rl_betting,
    laid_out,
    language,
)
from tests.ui.test_layout_dialogs import dialog_fits, dialogs, the_dialog
from tests.ui.test_layout_signs import LONGEST_NAME

__all__ = ["language"]  # the fixture, used by name


def _app(ui: UI, session: Any) -> Any:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    cfg = parse(f'[table]\nid = "RL-01"\nname = "{LONGEST_NAME}"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.pump(0.3)
    for sheet in [w for w in ui.window.children if type(w).__name__ == "PayoutSheet"]:
        sheet.dismiss(animation=False)
    ui.pump(0.1)
    return app


def _tap(ui: UI, widget: Any) -> None:
    widget.dispatch("on_release")
    ui.pump(0.1)


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_roulettes_header_has_sign_in_and_more_and_they_fit(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    session = _rl_betting(tmp_path / "t.db")
    session.set_people(PEOPLE)
    session.sign_in("4471", "1111")
    app = _app(ui, session)
    ui.resize_window(*size)
    ui.pump(0.2)
    screen, case = app.screen, (size, language)
    assert screen.sign_button.parent is screen.board and "4471" in screen.sign_button.text
    assert screen.floor_button.parent is screen.board
    ui.screenshot(f"layout-dealer-roulette-header-{_case(case)}")
    laid_out(ui, screen, size, frame=ui.shot)
    _tap(ui, screen.floor_button)
    dialog_fits(ui, the_dialog(ui, "FloorPanel"), case, "roulette-floor-panel")
    screen.choose_colour("pink")
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").buy_in)
    pad = the_dialog(ui, "AmountPad")
    for key in "50000":
        pad.press(key)
    _tap(ui, pad.verified)
    assert pad.wheel_count() == 5 and "5" in pad.amount.text
    dialog_fits(ui, pad, case, "roulette-wheel-buy-in")
    pad.dismiss(animation=False)
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").colour_up)
    up = the_dialog(ui, "ChipsPad")
    _tap(ui, up.wheel_buttons[2])  # the longest taken line: 20 pink wheel chips
    _tap(ui, up.give_side)
    up.add(5_000_000)
    dialog_fits(ui, up, case, "roulette-colour-up")
    session.journal.close()


def test_a_roulette_buy_in_gives_wheel_chips_of_the_colour_chosen(ui: UI,
                                                                  tmp_path: Path) -> None:
    session = _rl_betting(tmp_path / "t.db")
    app = _app(ui, session)
    screen = app.screen
    assert screen.sign_button.parent is None  # no people list: no sign-in
    screen.choose_colour("pink")
    _tap(ui, screen.floor_button)
    _tap(ui, the_dialog(ui, "FloorPanel").buy_in)
    pad = the_dialog(ui, "AmountPad")
    assert pad.wheel == ("pink", 1_000_000)  # pink chips are R10,000 each
    for key in "25000":
        pad.press(key)
    _tap(ui, pad.verified)
    _tap(ui, pad.record)  # R25,000 is not a whole number of pink chips: refused, said
    assert "wheel chips of" in pad.refusal_text and "cash_buy_in" not in [
        e.kind for e in session.journal.entries()]
    for key in "⌫⌫⌫⌫0000":  # R20,000: two chips
        pad.press(key)
    _tap(ui, pad.record)
    assert dialogs(ui) == []
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "cash_buy_in"
    assert {k: row.payload[k] for k in ("cash", "chips", "colour", "wheel_chips",
                                        "chip_value")} == {
        "cash": 2_000_000, "chips": 2_000_000, "colour": "pink", "wheel_chips": 2,
        "chip_value": 1_000_000}
    # No colour chosen: a buy-in in value chips, as at the other tables.
    screen.colour = ""
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").buy_in)
    assert the_dialog(ui, "AmountPad").wheel is None
    session.journal.close()


def test_a_dealer_signs_in_at_roulette_by_touch(ui: UI, tmp_path: Path) -> None:
    session = _rl_betting(tmp_path / "t.db")
    session.set_people(PEOPLE)
    app = _app(ui, session)
    screen = app.screen
    assert screen.sign_button.text == "Sign in"
    _tap(ui, screen.sign_button)
    pad = the_dialog(ui, "PinPad")
    _key(ui, pad, "4471")
    _key(ui, pad, "1111")
    ui.pump(0.2)
    assert _rows(session, "dealer_signed_in") == [{"dealer": "4471", "name": "Thandi"}]
    assert screen.sign_button.text == "Sign out 4471"
    _closed(ui)
    _tap(ui, screen.sign_button)
    assert _rows(session, "dealer_signed_out") == [{"dealer": "4471", "name": "Thandi"}]
    assert screen.sign_button.text == "Sign in"
    session.journal.close()


def test_a_roulette_colour_up_takes_wheel_chips_of_the_colour_chosen(ui: UI,
                                                                     tmp_path: Path) -> None:
    """Rule 2.1: a colour-up at roulette records the wheel chips taken, their colour and how
    many, broken down with the value chips given."""
    session = _rl_betting(tmp_path / "t.db")
    app = _app(ui, session)
    screen = app.screen
    screen.choose_colour("pink")  # pink chips are R10,000 each
    _tap(ui, screen.floor_button)
    _tap(ui, the_dialog(ui, "FloorPanel").colour_up)
    pad = the_dialog(ui, "ChipsPad")
    assert pad.wheel == ("pink", 1_000_000) and [b.text for b in pad.wheel_buttons] == [
        "+1 pink", "+5 pink", "+20 pink"]
    _tap(ui, pad.wheel_buttons[1])  # five
    _tap(ui, pad.wheel_buttons[0])  # six
    _tap(ui, pad.delete)  # one taken back: five
    assert pad.wheel_taken == 5
    assert pad.taken_line.text == "Taken: 5 pink wheel chips: 5 × R10,000 = R50,000"
    _tap(ui, pad.give_side)
    biggest = max(pad.chip_buttons, key=lambda b: len(b.text))  # R100 here
    for _ in range(5):
        _tap(ui, biggest)
    _tap(ui, pad.verified)
    _tap(ui, pad.record)  # R500 given for R50,000 taken: refused, nothing on record
    assert pad.refusal_text and "chip_exchange" not in [
        e.kind for e in session.journal.entries()]
    for _ in range(5):
        _tap(ui, pad.delete)
    pad.add(5_000_000)  # one R50,000 chip, keyed as the rack's value would be
    _tap(ui, pad.record)
    assert dialogs(ui) == []
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "chip_exchange"
    assert {k: row.payload[k] for k in ("what", "taken", "given", "colour", "wheel_chips",
                                        "taken_chips", "given_chips")} == {
        "what": "colour_up", "taken": 5_000_000, "given": 5_000_000, "colour": "pink",
        "wheel_chips": 5, "taken_chips": {"1000000": 5}, "given_chips": {"5000000": 1}}
    # Value chips only, no wheel chips tapped: no colour on record.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").colour_up)
    pad = the_dialog(ui, "ChipsPad")
    pad.add(10_000)
    pad.add(10_000)
    _tap(ui, pad.give_side)
    pad.add(20_000)
    _tap(ui, pad.verified)
    _tap(ui, pad.record)
    row = session.journal.entry(session.journal.count())
    assert row is not None and (row.payload["colour"], row.payload["wheel_chips"]) == ("", 0)
    session.journal.close()
