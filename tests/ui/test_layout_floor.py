"""The general rules' dialogs on the dealer's screen (rules 2.1, 2.4, 2.8) at every dealer
size and in every dealer language at 800x480: the panel, the amount pad with its reminder to
lay the cash out for verification, the dispute, the replay of the disputed round for the
inspector, the PIN pad and the reasons to reopen outside hours. Nothing cut off, overlapping
or off the window, no text under 1.75 mm, every text 4.5:1; and they record what they say,
by touch. Screenshots layout-dialog-floor-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, language
from tests.ui.test_layout_dialogs import dialog_fits, dialogs, the_dialog
from tests.ui.test_layout_signs import LONGEST_NAME

__all__ = ["language"]  # the fixture, used by name
RULES = pb.PuntoBancoRules(chips=ChipRule(500))


def _table(path: Path) -> Any:
    """A punto banco table after one settled coup."""
    session = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), RULES, "PB-01")
    session.perform(pb.shuffle)
    session.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 5_500))
    session.perform(pb.close_betting)
    for code in ("4H", "3C", "KD", "4S", "2C"):
        session.perform(lambda s, c=code: pb.shoe_card(s, Card.parse(c)))
    session.perform(pb.confirm_payouts)
    return session


def _tap(ui: UI, widget: Any) -> None:
    widget.dispatch("on_release")
    ui.pump(0.1)


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_floor_dialogs_fit_and_record(ui: UI, tmp_path: Path, size: tuple[int, int],
                                          language: str) -> None:
    from kiosk.table.hours import OpeningHours
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path / "t.db")
    session.hours = OpeningHours.from_mapping({"daily": "closed"})  # closed: reopen enabled
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen, case = app.screen, (size, language)
    assert screen.floor_button.parent is screen.ids.inspector.parent  # in the header
    _tap(ui, screen.floor_button)
    panel = the_dialog(ui, "FloorPanel")
    assert not panel.reopen.disabled
    dialog_fits(ui, panel, case, "floor-panel")

    # A buy-in: Record is grey until the cash is laid out, and says why.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").buy_in)
    pad = the_dialog(ui, "AmountPad")
    for key in "10000000":
        pad.press(key)
    assert pad.record.disabled
    pad.explain_refusal(pad.record)
    assert pad.refusal_text  # the reminder, in the dealer's language
    _tap(ui, pad.verified)
    assert not pad.record.disabled
    ui.pump(0.1)
    dialog_fits(ui, pad, case, "floor-buy-in")
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").buy_in)
    pad = the_dialog(ui, "AmountPad")
    for key in "500":
        pad.press(key)
    _tap(ui, pad.verified)
    _tap(ui, pad.record)
    assert dialogs(ui) == []
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "cash_buy_in"
    assert (row.payload["cash"], row.payload["chips"]) == (50_000, 50_000)

    # A chip change chip by chip: the chips taken, the chips given, both totals shown; given
    # chips worth less are refused on the dialog and nothing goes on record.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").change)
    chips = the_dialog(ui, "ChipsPad")
    values = [b.text for b in chips.chip_buttons]
    assert len(values) == 5
    big, small = chips.chip_buttons[-1], chips.chip_buttons[-2]  # R100 and R50 here
    _tap(ui, big)
    _tap(ui, big)
    _tap(ui, chips.give_side)
    for _ in range(3):
        _tap(ui, small)
    _tap(ui, chips.verified)
    rows = session.journal.count()
    _tap(ui, chips.record)
    assert chips.refusal_text and session.journal.count() == rows
    if language == "en":
        assert chips.taken_line.text == "Taken: 2 × R100 = R200"
        assert chips.given_line.text == "Given: 3 × R50 = R150"
        assert chips.refusal_text == ("The chips given (R150) must be worth the chips taken "
                                      "(R200) (rule 2.1)")
    _tap(ui, small)
    ui.pump(0.1)
    dialog_fits(ui, chips, case, "floor-chip-change")
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").change)
    chips = the_dialog(ui, "ChipsPad")
    _tap(ui, chips.chip_buttons[-1])
    _tap(ui, chips.give_side)
    _tap(ui, chips.chip_buttons[-2])
    _tap(ui, chips.chip_buttons[-3])
    _tap(ui, chips.chip_buttons[-3])
    _tap(ui, chips.verified)
    _tap(ui, chips.record)
    assert dialogs(ui) == []
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "chip_exchange"
    assert (row.payload["taken_chips"], row.payload["given_chips"]) == (
        {"10000": 1}, {"5000": 1, "2500": 2})

    # A dispute of coup 1 by the dealer; the replay of it follows, for the inspector.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").dispute)
    dispute = the_dialog(ui, "DisputeDialog")
    assert dispute.round == 1
    dialog_fits(ui, dispute, case, "floor-dispute")
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").dispute)
    _tap(ui, the_dialog(ui, "DisputeDialog").by_dealer)
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "round_disputed"
    assert row.payload == {"round": 1, "by": "dealer", "role": "dealer",
                           "note": "The payout is queried"}
    replay = the_dialog(ui, "ReplayView")
    texts = [w.text for w in replay.ids.rows.children]
    assert any("4H KD 2C" in t for t in texts)
    dialog_fits(ui, replay, case, "floor-replay")

    # The reasons to reopen outside hours (no people list: no PIN asked), recorded by touch.
    from kiosk.ui.dealer.floor import ask_reason

    ask_reason(session)
    dialog_fits(ui, the_dialog(ui, "ReasonList"), case, "floor-reopen-reasons")
    ask_reason(session)
    reasons = the_dialog(ui, "ReasonList")
    _tap(ui, reasons.ids.rows.children[-1])  # the first reason
    row = session.journal.entry(session.journal.count())
    assert row is not None and row.kind == "opened_outside_hours"
    assert row.payload["reason"] == "Approved by the casino management"
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES[:1], indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES[:1]])
def test_with_a_people_list_the_inspector_flags_and_reopens_by_pin(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    from kiosk.table.hours import OpeningHours
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp
    from tests.table.test_roles import PEOPLE, PINS

    session = _table(tmp_path / "t.db")
    session.set_people(PEOPLE)
    session.hours = OpeningHours.from_mapping({"daily": "closed"})
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen = app.screen
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").dispute)
    _tap(ui, the_dialog(ui, "DisputeDialog").by_inspector)
    (pad,) = [d for d in dialogs(ui) if type(d).__name__ == "PinPad"]
    rows = session.journal.count()
    pad.person = "I1"  # the people list's ids here are letters; the pad keys digits
    pad.go("pin")
    for key in ["0", "0", "0", "0", "OK"]:
        pad.press(key)
    ui.pump(0.1)
    assert pad.refusal_text and session.journal.count() == rows  # said on the pad only
    for key in [*PINS["I1"], "OK"]:
        pad.press(key)
    ui.pump(0.2)
    row = session.journal.entry(rows + 1)
    assert row is not None and row.kind == "round_disputed"
    assert (row.payload["by"], row.payload["role"]) == ("I1", "inspector")
    assert [type(d).__name__ for d in dialogs(ui)] == ["ReplayView"]
    session.journal.close()
