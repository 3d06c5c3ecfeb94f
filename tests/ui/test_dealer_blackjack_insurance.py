"""Insurance for less than half the bet on the dealer's blackjack screen (rule 4.7: "up to
half the original bet", paid 2:1): one tap still insures the most; *Less* opens the amount,
entered with the house's chips; an amount the engine refuses is shown in its words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.blackjack import engine as bj
from kiosk.ui import theme
from kiosk.ui.dealer.blackjack_words import box_blocks
from tests.ui.conftest import UI
from tests.ui.test_dealer_blackjack import (
    Session,
    close,
    dealer_for,
    entries,
    kinds,
    modal,
    open_session,
    shoe,
)

OVER = "Insurance on box 2 is up to half the bet: at most R50 (rule 4.7)"


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """Six decks, R5 chips (chip buttons R5, R10, R25, R50, R100). Box 2: A calls with R100,
    B behind with R50; box 5: A with R200. The dealer shows an ace; no blackjacks."""
    s = open_session(tmp_path)
    s.perform(lambda x: bj.shuffle(x))
    s.perform(lambda x: bj.cut_cards(x, 2, 104, 78))
    s.perform(lambda x: bj.burn(x, None))
    s.perform(lambda x: bj.place_bet(x, 2, 10000, "A"))
    s.perform(lambda x: bj.place_bet(x, 2, 5000, "B"))
    s.perform(lambda x: bj.place_bet(x, 5, 20000, "A"))
    s.perform(bj.close_betting)
    for code in ("9H", "TS", "AD", "7C", "8D"):  # box 2: 16; box 5: 18; dealer: ace
        shoe(s, code)
    assert s.state.phase is bj.Phase.INSURANCE
    yield s
    s.journal.close()


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    d = dealer_for(ui, session)
    ui.pump(frames=2)
    return d


def insure_button(ui: UI, dealer: Any, box: int, player: str, less: bool = False) -> Any:
    """The button for a box's player, showing that box's players first (as a tap on the box
    does: the row offers one box at a time)."""
    if dealer.insurance_box != box:
        ui.tap(dealer.tile(box))
    return next(b for b in dealer.ids.insurance_buttons.children
                if (b.box, b.player, b.less) == (box, player, less))


def chip_in(parent: Any, value: int) -> Any:
    return next(c for c in parent.ids.chips.children if int(c.value) == value)


def fill(frame: Any, widget: Any) -> tuple[int, int, int]:
    """The colour of a button's face, beside its text."""
    colour: tuple[int, int, int] = frame.pixel(*widget.to_window(widget.x + 4,
                                                                 widget.center_y))
    return colour


def test_one_tap_insures_the_most_and_less_enters_the_chips_put_up(
        ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import InsuranceAmount

    texts = sorted(b.text for b in dealer.ids.insurance_buttons.children)
    assert texts == ["Box 2 A\ninsure R50", "Box 2 B\ninsure R25", "Less", "Less"]
    ui.tap(dealer.ids.next_insurance_box)
    texts = sorted(b.text for b in dealer.ids.insurance_buttons.children)
    assert texts == ["Box 5 A\ninsure R100", "Less"]
    # The fast path is unchanged: one tap insures half the bet.
    ui.tap(insure_button(ui, dealer, 5, "A"))
    last = entries(session)[-1]
    assert (last.kind, last.payload["box"], last.payload["player"],
            last.payload["amount"]) == ("blackjack.insurance_taken", 5, "A", 10000)
    assert insure_button(ui, dealer, 5, "A", less=True).disabled  # insured: nothing to change
    before = len(entries(session))

    # Box 2 A puts up R20 of the R50 allowed.
    ui.tap(insure_button(ui, dealer, 2, "A", less=True))
    pad = modal(ui, InsuranceAmount)
    assert pad.title == "Insurance on box 2, player A: up to R50"
    assert [int(c.value) for c in pad.ids.chips.children[::-1]] == [500, 1000, 2500, 5000,
                                                                     10000]
    assert (pad.amount, pad.amount_text, pad.ids.confirm.text) == (5000, "R50", "Insure R50")
    assert pad.why == "The most this player may insure; tap chips for less"
    assert not pad.ids.confirm.disabled and pad.ids.undo.disabled
    frame = ui.frame()
    assert close(fill(frame, pad.ids.confirm), theme.GOLD)
    ui.screenshot("bj-dealer-insurance-amount-800x480")
    ui.tap(chip_in(pad, 1000))  # the first chip starts the count again
    ui.tap(chip_in(pad, 1000))
    assert (pad.amount, pad.amount_text, pad.ids.confirm.text) == (2000, "R20", "Insure R20")
    assert pad.why == "" and not pad.refused
    # Over the most: refused in the engine's words, and Insure is greyed.
    ui.tap(chip_in(pad, 5000))
    assert pad.amount == 7000 and pad.why == OVER
    assert pad.refused and pad.ids.confirm.disabled
    frame = ui.frame()
    assert close(fill(frame, pad.ids.confirm), theme.DISABLED)
    ui.screenshot("bj-dealer-insurance-amount-refused-800x480")
    ui.tap(pad.ids.undo)
    assert pad.amount == 2000 and not pad.ids.confirm.disabled
    # Nothing at all: refused the same way.
    ui.tap(pad.ids.clear_amount)
    assert (pad.amount, pad.why, pad.ids.confirm.disabled) == (0, OVER, True)
    ui.tap(pad.ids.undo)
    assert pad.amount == 2000
    assert len(entries(session)) == before  # nothing is sent until Insure
    ui.tap(pad.ids.confirm)
    ui.pump(0.3)  # the dialog fades out
    assert not [w for w in ui.window.children if isinstance(w, InsuranceAmount)]
    last = entries(session)[-1]
    assert (last.kind, last.payload["box"], last.payload["player"],
            last.payload["amount"]) == ("blackjack.insurance_taken", 2, "A", 2000)
    assert bj.Insurance(2, "A", 2000) in session.state.insurance
    ui.pump(frames=2)
    # The screen shows the amount taken, not the most.
    assert insure_button(ui, dealer, 2, "A").text == "Box 2 A\ninsured R20"
    assert "A insured R20" in dealer.tile(2).detail
    assert "A insured R100" in dealer.tile(5).detail
    assert insure_button(ui, dealer, 2, "A", less=True).disabled
    assert insure_button(ui, dealer, 2, "A").disabled  # insured once only

    # Cancel sends nothing; B stays uninsured.
    ui.tap(insure_button(ui, dealer, 2, "B", less=True))
    pad = modal(ui, InsuranceAmount)
    assert pad.amount_text == "R25"
    ui.tap(chip_in(pad, 500))
    ui.tap(pad.ids.cancel)
    ui.pump(0.3)
    assert len(entries(session)) == before + 1
    assert not any(i.player == "B" for i in session.state.insurance)

    # The dealer has blackjack: the R20 is paid 2:1, R40 (rule 4.7).
    ui.tap(dealer.ids.primary)  # close insurance
    assert kinds(session)[-1] == "blackjack.insurance_closed"
    ui.tap(dealer.ids.stand)  # box 2: 16
    ui.tap(dealer.ids.stand)  # box 5: 18
    shoe(session, "KD")
    ui.pump(frames=2)
    assert session.state.phase is bj.Phase.PAYING and dealer.dealer_total == "Blackjack"
    assert dealer.tile(2).detail == "A insurance pay"
    assert [r.amount for r in box_blocks(session.state, 2)[-1].rows] == ["PAY R40"]
    assert [r.amount for r in box_blocks(session.state, 5)[-1].rows] == ["PAY R200"]
    ui.tap(dealer.ids.primary)
    settled = session.state.last_settled
    assert settled is not None
    insurance = {(x.box, x.player): x.net for x in settled.settlements
                 if x.kind.value == "insurance"}
    assert insurance == {(2, "A"): 4000, (5, "A"): 20000}


def test_a_refused_insurance_amount_is_shown_in_the_engines_words(
        ui: UI, session: Session, dealer: Any) -> None:
    before = len(entries(session))
    for amount, words in ((5500, OVER), (0, OVER),
                          (2250, "R22.50 cannot be made of chips: bets are in steps of R5")):
        dealer.dismiss_alert()
        dealer.insure(2, "A", amount)  # never a crash: the engine's sentence on screen
        ui.pump(frames=2)
        assert dealer.alert_shown and words in dealer.alert_text, (amount, dealer.alert_text)
    assert len(entries(session)) == before and session.state.insurance == ()
    frame = ui.frame()
    assert close(fill(frame, dealer.ids.alert), theme.WARNING)  # a warning, in amber
    ui.screenshot("bj-dealer-insurance-refused-800x480")
    # Already insured: Less does not open; the engine says why.
    dealer.insure(2, "A", 1500)
    assert session.state.insurance == (bj.Insurance(2, "A", 1500),)
    dealer.dismiss_alert()
    dealer.open_insurance_amount(2, "A")
    ui.pump(frames=2)
    assert "Box 2, player A is already insured" in dealer.alert_text
    assert len(session.state.insurance) == 1


def test_the_insurance_amount_buttons_are_at_least_9_mm(
        ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import InsuranceAmount
    from kiosk.ui.widgets import ChipButton, TableButton

    min_px = theme.TOUCH_MIN_MM * theme.PI_TOUCHSCREEN_PX_PER_MM
    seen = 0
    for b in [*dealer.ids.insurance_buttons.children, dealer.ids.next_insurance_box]:
        assert min(b.size) >= min_px, (b.text, tuple(b.size))
        seen += 1
    ui.tap(insure_button(ui, dealer, 5, "A", less=True))
    pad = modal(ui, InsuranceAmount)
    for w in pad.walk():
        if isinstance(w, TableButton | ChipButton):
            assert min(w.size) >= min_px, (w.text, tuple(w.size))
            seen += 1
    assert seen == 4 + 1 + 5 + 4  # box 2's players, next box; the pad
    ui.tap(pad.ids.cancel)
    ui.pump(0.3)
    # Laid out at 1920x1080, "Less" keeps the screen's touch size.
    ui.resize(1920, 1080)
    try:
        less = insure_button(ui, dealer, 2, "B", less=True)
        assert less.width == dealer.touch and less.font_size == 14 * dealer.unit
        assert dealer.unit > 2
    finally:
        ui.resize(800, 480)
