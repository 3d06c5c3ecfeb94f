"""Who may do what, on the dealer's screen (docs/roles.md): a dealer signs in by touch on
the PIN pad, a void needs the inspector's PIN and a reason keyed there, a wrong role is said
on the pad and nothing goes on record, a greyed control says which role it needs; the PIN
pad and the header with the dealer's button fit at every dealer size and language.
Screenshots of each step are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.table.roles import People, Person, Role, hash_pin
from tests.ui.conftest import UI, start_app
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, laid_out, language
from tests.ui.test_layout_dialogs import dialog_fits, the_dialog
from tests.ui.test_layout_signs import LONGEST_NAME

__all__ = ["language"]  # the fixture, used by name

PINS = {"4471": "1111", "5002": "2222", "9001": "3333"}
PEOPLE = People((Person("4471", "Thandi", Role.DEALER, hash_pin("1111", b"s" * 16)),
                 Person("5002", "Pieter", Role.DEALER, hash_pin("2222", b"s" * 16)),
                 Person("9001", "Naidoo", Role.INSPECTOR, hash_pin("3333", b"s" * 16))),
                checked=True)


def _table(path: Path, people: People = PEOPLE) -> Any:
    from tests.ui.test_layout_dealer_states import _pb

    session = _pb(path)
    session.set_people(people)
    return session


def _key(ui: UI, pad: Any, digits: str) -> None:
    """Tap each digit on the pad, then OK, by touch."""
    keys = {b.key: b for b in pad.keys}
    for d in digits:
        ui.tap(keys[d])
    ui.tap(keys["OK"])


def _closed(ui: UI) -> None:
    """Draw until the dialog has gone (its closing fade takes the touches meanwhile)."""
    from tests.ui.test_layout_dialogs import dialogs

    for _ in range(50):
        if not dialogs(ui):
            return
        ui.pump(0.1)
    assert dialogs(ui) == []


def _rows(session: Any, kind: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in session.journal.entries() if e.kind == kind]


def test_a_dealer_signs_in_and_an_inspector_voids_by_touch(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    screen = app.screen
    sign_in = screen._dealer_widget
    assert sign_in is not None and sign_in.text == "Sign in"
    ui.tap(sign_in)
    pad = the_dialog(ui, "PinPad")
    assert pad.stage == "id"
    _key(ui, pad, "4471")
    assert pad.stage == "pin" and pad.field == "4471, PIN: —"
    for d in "1112":
        ui.tap(next(b for b in pad.keys if b.key == d))
    assert pad.field == "4471, PIN: ••••"  # the PIN is never shown
    ui.screenshot("roles-pin-pad-sign-in")
    ui.tap(pad.ok)
    assert "Wrong id or PIN" in pad.refusal_text and pad.stage == "pin"
    ui.screenshot("roles-pin-pad-wrong-pin")
    assert _rows(session, "dealer_signed_in") == []
    _key(ui, pad, "1111")
    ui.pump(0.2)
    assert _rows(session, "dealer_signed_in") == [{"dealer": "4471", "name": "Thandi"}]
    assert screen._dealer_widget.text == "Sign out 4471"
    _closed(ui)
    ui.screenshot("roles-signed-in")
    # The void: the reason, then a dealer's PIN is refused on the pad, the inspector's taken.
    ui.tap(screen.ids.void)
    pad = the_dialog(ui, "PinPad")
    assert pad.stage == "reason" and "inspector" in pad.needs
    ui.screenshot("roles-void-reasons")
    ui.tap(next(b for b in pad.reason_buttons if b.reason == "Card exposed or dropped"))
    _key(ui, pad, "5002")
    _key(ui, pad, "2222")
    assert pad.refusal_text == "5002 may not do this: it needs the inspector's PIN"
    ui.screenshot("roles-void-wrong-role")
    assert _rows(session, "override") == [] and session.state.bets
    ui.tap(pad.ids.cancel)
    _closed(ui)
    ui.tap(screen.ids.void)
    pad = the_dialog(ui, "PinPad")
    ui.tap(pad.reason_buttons[0])
    _key(ui, pad, "9001")
    _key(ui, pad, "3333")
    ui.pump(0.2)
    assert _rows(session, "override") == [{
        "action": "void_round", "role": "inspector", "person": "9001", "name": "Naidoo",
        "reason": "Misdeal: cards out of order", "detail": ""}]
    assert not session.state.bets
    voided = [e for e in session.journal.entries() if e.kind == "punto_banco.coup_voided"]
    assert voided[0].payload["by"] == "inspector 9001"
    ui.screenshot("roles-voided")
    session.journal.close()


def test_a_greyed_void_says_which_role_it_needs(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    dealers_only = People(tuple(p for p in PEOPLE.persons if p.role is Role.DEALER),
                          checked=True)
    session = _table(tmp_path / "t.db", dealers_only)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    screen = app.screen
    assert pb.can_void_round(session.state, "x") and screen.ids.void.disabled
    screen.explain_refusal(screen.ids.void.__self__)
    assert session.alerts[-1].message == ("Needs the inspector's PIN: nobody on this "
                                          "table's list can give it")
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_pin_pad_and_the_dealer_button_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                               language: str) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    session.sign_in("4471", "1111")
    session.perform(pb.close_betting)
    session.device_commands["shoe"] = lambda _c: True  # linked: the key-card button corrects
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    ui.pump(0.2)
    screen, case = app.screen, (size, language)
    assert screen._dealer_widget.parent is screen.ids.inspector.parent
    assert screen.correcting and screen.ids.key_card.text != screen.ids.new_shoe.text
    ui.screenshot(f"roles-dealer-button-{_case(case)}")
    laid_out(ui, screen, size, frame=ui.shot)
    for stage in ("reason", "text", "id", "pin", "refused"):
        screen.open_void()
        pad = the_dialog(ui, "PinPad")
        if stage == "text":  # "Other…": the letter pad, a long reason typed
            pad.go("text")
            for key in "SHOE JAMMED AT BOX 7, CARD RE-KEYED BY THE INSPECTOR.":
                pad.type(key)
            assert "…" in pad.field  # the last letters typed, shown whole
        elif stage != "reason":
            pad.choose(pad.reasons[1])
        if stage in ("pin", "refused"):
            for key in "88888888":
                pad.press(key)
            pad.press("OK")
            for key in "88888888":
                pad.press(key)
        if stage == "refused":
            pad.press("OK")
            assert pad.refusal_text
        ui.pump(0.1)
        dialog_fits(ui, pad, case, f"pin-pad-{stage}")
    session.journal.close()


def _void_by_pin(ui: UI, pad: Any) -> None:
    """On the PIN pad a void opened: the first reason, the inspector's id and PIN."""
    assert type(pad).__name__ == "PinPad" and pad.stage == "reason"
    pad.choose(pad.reasons[0])
    for d in "9001":
        pad.press(d)
    pad.press("OK")
    for d in "3333":
        pad.press(d)
    pad.press("OK")
    ui.pump(0.2)


def _override_then_void(session: Any) -> bool:
    """The journal's last two rows: the override, then the game's void."""
    last = [e.kind for e in session.journal.entries(session.journal.count() - 2)]
    return last[0] == "override" and last[1].endswith("_voided")


def test_blackjack_and_roulette_voids_take_the_inspectors_pin(ui: UI, tmp_path: Path) -> None:
    from kiosk.config import parse
    from kiosk.rules.roulette import engine as rl
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp
    from kiosk.ui.games.roulette import dealer_app
    from tests.ui.test_layout_dealers import _rl_betting
    from tests.ui.test_layout_dialogs import _bj_insurance

    bj_session = _bj_insurance(tmp_path / "bj.db")
    bj_session.set_people(PEOPLE)
    app = start_app(ui, BlackjackDealerApp(bj_session, table_name="BJ-01"))
    ui.pump(0.2)
    app.screen.open_void()
    _void_by_pin(ui, the_dialog(ui, "PinPad"))
    assert [r["person"] for r in _rows(bj_session, "override")] == ["9001"]
    assert _override_then_void(bj_session)
    bj_session.journal.close()
    app.stop()
    ui.pump(0.1)

    rl_session = _rl_betting(tmp_path / "rl.db")
    rl_session.set_people(PEOPLE)
    cfg = parse('[table]\nid = "RL-01"\nname = "RL-01"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(rl_session, cfg, None, lambda: None))
    ui.pump(0.2)
    assert rl.can_void_round(rl_session.state, "x")
    app.screen.void()
    _void_by_pin(ui, the_dialog(ui, "PinPad"))
    assert [r["action"] for r in _rows(rl_session, "override")] == ["void_round"]
    assert _override_then_void(rl_session)
    rl_session.journal.close()


def test_a_card_keyed_over_the_shoes_read_takes_the_inspectors_pin(ui: UI,
                                                                    tmp_path: Path) -> None:
    from kiosk.rules.cards import Card
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    session.perform(pb.close_betting)
    session.device_commands["shoe"] = lambda _c: True  # a shoe linked and answering
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    app.screen.key_card(Card.parse("4H"))
    pad = the_dialog(ui, "PinPad")
    assert pad.title == "Key in 4H over the shoe's read" and not session.state.player_cards
    ui.screenshot("roles-manual-card")
    _void_by_pin(ui, pad)  # the first reason, the inspector's id and PIN
    assert _rows(session, "override")[0]["action"] == "manual_card"
    assert session.state.player_cards == (Card.parse("4H"),)
    session.journal.close()


def test_the_key_card_button_offers_the_inspectors_correction_over_the_shoes_read(
        ui: UI, tmp_path: Path) -> None:
    """The engines have no act that changes a card on record: a card keyed in over the
    shoe's read is the correction, and the button says so while it would need the PIN."""
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp
    from tests.ui.test_layout_dialogs import _bj_insurance

    session = _table(tmp_path / "t.db")
    session.perform(pb.close_betting)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    assert app.screen.ids.key_card.text == "Key card"  # no shoe: keying in is the dealer's
    session.device_commands["shoe"] = lambda _c: True  # a shoe linked and answering
    app.screen.refresh()
    ui.pump(0.1)
    assert app.screen.ids.key_card.text == "Correct card"
    ui.screenshot("roles-correct-card")
    session.set_people(People())  # no people list: no PIN, the old words
    app.screen.refresh()
    assert app.screen.ids.key_card.text == "Key card"
    session.journal.close()
    app.stop()
    ui.pump(0.1)

    bj_session = _bj_insurance(tmp_path / "bj.db")
    bj_session.set_people(PEOPLE)
    bj_session.device_commands["shoe"] = lambda _c: True
    app = start_app(ui, BlackjackDealerApp(bj_session, table_name="BJ-01"))
    ui.pump(0.2)
    assert app.screen.ids.key_card.text == "Correct card"
    bj_session.journal.close()


def test_other_reason_is_typed_on_the_letter_pad_and_goes_on_record(
        ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    screen = app.screen
    ui.tap(screen.ids.void)
    pad = the_dialog(ui, "PinPad")
    other = pad.reason_buttons[-1]
    assert other.text == "Other…" and pad.stage == "reason"
    ui.tap(other)
    assert pad.stage == "text" and pad.field == "Reason: —" and pad.text_ok.disabled
    keys = {b.key: b for b in pad.letters}
    for key in "  SHOE  JAMMED, BOX 7":  # leading and double spaces are not typed
        ui.tap(keys[key])
    ui.tap(keys["⌫"])
    ui.tap(keys["9"])
    assert pad.field == "Reason: Shoe jammed, box 9"
    ui.screenshot("roles-pin-pad-other-reason")
    ui.tap(pad.text_ok)
    assert pad.stage == "id" and pad.reason == "Shoe jammed, box 9"
    _key(ui, pad, "9001")
    _key(ui, pad, "3333")
    ui.pump(0.2)
    assert [r["reason"] for r in _rows(session, "override")] == ["Shoe jammed, box 9"]
    voided = [e for e in session.journal.entries() if e.kind == "punto_banco.coup_voided"]
    assert voided[0].payload["reason"] == "Shoe jammed, box 9"
    session.journal.close()


def test_inspector_attended_takes_the_inspectors_pin_when_the_table_has_people(
        ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="PB-01"))
    ui.pump(0.2)
    screen = app.screen
    ui.tap(screen.ids.inspector)  # the call
    assert session.inspector_called
    ui.tap(screen.ids.inspector)  # "Inspector here": the PIN pad, not a badge number
    pad = the_dialog(ui, "PinPad")
    assert pad.stage == "id" and "inspector" in pad.needs
    _key(ui, pad, "4471")
    _key(ui, pad, "1111")  # a dealer's right PIN: not the inspector's
    assert pad.refusal_text == "4471 may not do this: it needs the inspector's PIN"
    assert _rows(session, "inspector_attended") == [] and session.inspector_called
    _key(ui, pad, "3333")  # the PIN is keyed again for the same id: still refused
    assert "Wrong id or PIN" in pad.refusal_text
    ui.tap(pad.ids.cancel)
    _closed(ui)
    ui.tap(screen.ids.inspector)
    pad = the_dialog(ui, "PinPad")
    _key(ui, pad, "9001")
    _key(ui, pad, "3333")
    ui.pump(0.2)
    assert _rows(session, "override") == [{
        "action": "inspector_attended", "role": "inspector", "person": "9001",
        "name": "Naidoo", "reason": "Answered the dealer's call", "detail": ""}]
    assert _rows(session, "inspector_attended") == [{"inspector": "inspector 9001"}]
    assert not session.inspector_called
    session.journal.close()
