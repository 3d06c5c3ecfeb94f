"""The dealer's punto banco screen, rendered for real and driven by synthetic touches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui import theme
from tests.ui.conftest import UI, start_app

RULES = pb.PuntoBancoRules(chips=ChipRule(500), commission_mode=pb.CommissionMode.NET)
Session = TableSession[pb.PuntoBancoState]


def shoe(session: Session, code: str) -> None:
    session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def kinds(session: Session) -> list[str]:
    return [e.kind for e in session.journal.entries()]


def close(c: tuple[int, int, int], rgba: tuple[float, ...], tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    journal = Journal.open(tmp_path / "t.db", "PB-01")
    s: Session = TableSession(pb.PuntoBanco(), journal, RULES, "PB-01")
    s.perform(lambda st: pb.shuffle(st))
    yield s
    journal.close()


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1"))
    return app.screen


def chip(dealer: Any, value: int) -> Any:
    return next(c for c in dealer.ids.chips.children if int(c.value) == value)


def tile(dealer: Any, area: str) -> Any:
    return next(t for t in dealer.ids.areas.children if t.area == area)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_whole_coup_from_bets_to_confirmed_payouts(ui: UI, session: Session, dealer: Any,
                                                      size: tuple[int, int]) -> None:
    ui.resize(*size)
    w, h = size
    # Bets: area 3 banker 25 + 5 (odd stake for 19:20), area 5 player 50 (rule 5.7).
    ui.tap(tile(dealer, "3"))
    assert dealer.selected_area == "3"
    ui.tap(dealer.ids.kind_banker)
    ui.tap(chip(dealer, 2500))
    ui.tap(chip(dealer, 500))
    # R30 is under the R50 banker minimum (rule 2.2): "No more bets" stays off and says why.
    assert dealer.ids.primary.disabled
    assert "under the" in dealer.step_detail and "R50" in dealer.step_detail
    ui.tap(chip(dealer, 2500))
    ui.tap(tile(dealer, "5"))
    ui.tap(dealer.ids.kind_player)
    ui.tap(chip(dealer, 2500))
    ui.tap(chip(dealer, 2500))
    ui.tap(chip(dealer, 500))
    ui.tap(dealer.ids.undo)  # the last chip comes back
    state = session.state
    assert state.bet_total("3", pb.BetKind.BANKER) == 5500
    assert state.bet_total("5", pb.BetKind.PLAYER) == 5000
    assert "B R55" in tile(dealer, "3").detail
    assert dealer.step == "Place your bets"
    ui.screenshot(f"dealer-betting-{w}x{h}")

    ui.tap(dealer.ids.primary)  # no more bets (rule 5.6)
    assert session.state.phase is pb.Phase.DEALING
    assert dealer.ids.primary.disabled
    # Cards arrive from the shoe in the order of rule 5.2: P 2S, B 4H, P 3D, B 3C.
    for code in ("2S", "4H", "3D"):
        shoe(session, code)
    ui.pump(frames=2)
    assert [f.code for f in dealer.ids.player.ids.cards.children[::-1]] == ["2S", "3D", ""]
    assert dealer.step == "Banker's second card"
    shoe(session, "3C")
    ui.pump(frames=2)
    # Player 5 draws (rule 5.2: 0-5 draws).
    assert dealer.step == "Player draws"
    assert dealer.ids.player.total == "5" and dealer.ids.banker.total == "7"
    ui.screenshot(f"dealer-dealing-{w}x{h}")
    frame = ui.frame()  # the cards are drawn on the felt while they come
    face = dealer.ids.player.ids.cards.children[-1]
    colours = frame.region_colours(face.x, face.y, face.width, face.height)
    assert any(close(c, theme.IVORY) for c in colours)
    assert any(close(c, theme.INK) for c in colours)
    shoe(session, "4S")
    ui.pump(frames=2)
    # Player 2+3+4 = 9; the Banker on 7 stands whatever the Player's third card (rule 5.2).
    assert session.state.phase is pb.Phase.PAYING
    assert dealer.step == "Coup complete: Player wins 9 to 7. Pay and confirm"
    assert dealer.ids.player.total == "9" and dealer.ids.banker.total == "7"
    assert "take" in tile(dealer, "3").detail
    assert tile(dealer, "5").detail == "P pay"
    # The area panel shows the first area with a bet in large type: what to do, how much.
    assert dealer.selected_area == "3" and dealer.panel_shown
    panel = [(r.ids.caption.text, r.ids.amount.text)
             for r in reversed(dealer.ids.panel.ids.rows.children)]
    assert panel == [("Banker R55 loses", "TAKE R55")]
    ui.tap(tile(dealer, "5"))
    panel = [(r.ids.caption.text, r.ids.amount.text)
             for r in reversed(dealer.ids.panel.ids.rows.children)]
    assert panel == [("Player R50 wins 1:1", "PAY R50")]
    assert dealer.primary_text == "Confirm payouts"
    frame = ui.frame()
    # The step banner turns gold when the coup is complete (it names the winner and both
    # totals); the area panel, in place of the hands, says what to pay in large type.
    assert close(frame.pixel(dealer.ids.step.x + 4, dealer.ids.step.center_y), theme.GOLD)
    amount = dealer.ids.panel.ids.rows.children[0].ids.amount
    x, y = amount.to_window(amount.x, amount.y)
    colours = frame.region_colours(x, y, amount.width, amount.height, step=1)
    assert sum(n for c, n in colours.items() if close(c, theme.PAY, 30)) > 50
    ui.screenshot(f"dealer-paying-{w}x{h}")

    ui.tap(dealer.ids.primary)
    settled = session.state.last_settled
    assert settled is not None and settled.result.winner.value == "player"
    paid = {(x.area, x.kind): (x.outcome.value, x.paid) for x in settled.settlements}
    assert paid == {("3", pb.BetKind.BANKER): ("lose", 0), ("5", pb.BetKind.PLAYER): ("win", 5000)}
    assert kinds(session)[-1] == "punto_banco.coup_settled"
    assert session.state.coup == 2 and dealer.step == "Place your bets"
    assert dealer.ids.player.total == ""


def test_touch_targets_are_at_least_9_mm(ui: UI, dealer: Any) -> None:
    from kivy.uix.button import Button

    from kiosk.ui.widgets import AreaTile, ChipButton

    min_px = theme.TOUCH_MIN_MM * theme.PI_TOUCHSCREEN_PX_PER_MM
    seen = 0
    for widget in dealer.walk():
        if isinstance(widget, Button | ChipButton | AreaTile) and widget.height > 0:
            seen += 1
            assert widget.height >= min_px, (widget, widget.text if hasattr(widget, "text")
                                             else "", widget.height)
            assert min(widget.width, widget.height) >= min_px, (getattr(widget, "text", ""),
                                                               widget.size)
    assert seen >= 20


def _modal(ui: UI, cls: type) -> Any:
    found = [w for w in ui.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} open"
    return found[0]


def _button(parent: Any, text: str) -> Any:
    return next(w for w in parent.walk() if getattr(w, "text", None) == text)


def _bets_closed(ui: UI, session: Session, dealer: Any) -> None:
    ui.tap(tile(dealer, "1"))
    ui.tap(dealer.ids.kind_banker)
    for _ in range(2):
        ui.tap(chip(dealer, 2500))
    ui.tap(dealer.ids.primary)
    assert session.state.phase is pb.Phase.DEALING


def test_an_unread_card_is_keyed_in_on_the_card_pad(ui: UI, session: Session,
                                                     dealer: Any) -> None:
    from kiosk.ui.dealer.card_keypad import CardKeypad

    _bets_closed(ui, session, dealer)
    shoe(session, "5S")
    session.on_device_event(ev.CardUnread(device="SHOE", seq=0))
    ui.pump(frames=2)
    assert dealer.step == "Key in the unread Banker card"
    assert dealer.alert_shown and "Key in the card from its face" in dealer.alert_text
    ui.screenshot("dealer-unread-800x480")
    ui.tap(dealer.ids.key_card)
    pad = _modal(ui, CardKeypad)
    assert pad.title == "Key in the card for the Banker"
    assert pad.ids.deal.disabled  # nothing chosen yet
    ui.tap(_button(pad.ids.ranks, "9"))
    ui.tap(_button(pad.ids.suits, "Hearts"))
    assert pad.code == "9H" and not pad.ids.deal.disabled
    ui.screenshot("dealer-card-pad-800x480")
    ui.tap(pad.ids.deal)
    last = list(session.journal.entries())[-1]
    assert (last.kind, last.payload["card"], last.payload["source"]) == \
        ("punto_banco.card_dealt", "9H", "keyed")
    assert [f.code for f in dealer.ids.banker.ids.cards.children[::-1]] == ["9H", "", ""]


def test_a_card_the_shoe_cannot_hold_needs_an_inspector(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.choices import BadgePad
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    # One deck: a second ace of spades is impossible (rule 5.4) and is never taken silently.
    rules = pb.PuntoBancoRules(decks=1, chips=ChipRule(500))
    journal = Journal.open(tmp_path / "one.db", "PB-02")
    session: Session = TableSession(pb.PuntoBanco(), journal, rules, "PB-02")
    session.perform(lambda s: pb.shuffle(s))
    dealer = start_app(ui, PuntoBancoDealerApp(session)).screen
    _bets_closed(ui, session, dealer)
    shoe(session, "AS")
    shoe(session, "AS")
    ui.pump(frames=2)
    assert "Queried card for the Banker" in dealer.step
    assert dealer.alert_shown and "inspector" in dealer.alert_text
    assert dealer.ids.banker.ids.cards.children[-1].highlight
    frame = ui.frame()
    assert close(frame.pixel(dealer.ids.alert.x + 3, dealer.ids.alert.center_y), theme.STOP)
    ui.screenshot("dealer-queried-card-800x480")
    assert not dealer.ids.accept.disabled
    ui.tap(dealer.ids.accept)
    pad = _modal(ui, BadgePad)
    for key in ("4", "4", "1", "1"):
        ui.tap(_button(pad.ids.pad, key))
    ui.tap(_button(pad.ids.pad, "OK"))
    last = list(session.journal.entries())[-1]
    assert (last.kind, last.payload["source"], last.payload["by"]) == \
        ("punto_banco.card_dealt", "override", "inspector 4411")
    journal.close()


def test_over_the_limit_and_a_silent_shoe_are_told_in_words(ui: UI, session: Session,
                                                          dealer: Any) -> None:
    # The tie maximum here is R5,000 (rule 2.2): R100 chips stop being offered past it.
    ui.tap(dealer.ids.kind_tie)
    assert not chip(dealer, 10000).disabled
    dealer.add_chip(600_000)  # a stake the buttons would not offer: the engine refuses it
    ui.pump(frames=2)
    assert dealer.alert_shown and "maximum" in dealer.alert_text
    assert session.state.bet_total("1", pb.BetKind.TIE) == 0
    ui.tap(dealer.ids.alert_ok)
    assert not dealer.alert_shown
    session.on_device_event(ev.DeviceOffline(device="SHOE", silent_seconds=5.0))
    ui.pump(frames=2)
    assert dealer.shoe_status == "Shoe not answering: key cards in"
    assert "card shoe is not answering" in dealer.alert_text
    assert "Key in cards by hand" in dealer.alert_text
    ui.screenshot("dealer-shoe-offline-800x480")


def test_table_minimum_display_and_inspector_call_from_the_screen(ui: UI, session: Session,
                                                                  dealer: Any) -> None:
    ui.tap(dealer.ids.inspector)
    assert session.inspector_called
    assert dealer.inspector_text == "Inspector here"
    assert [e.kind for e in session.journal.entries()][-1] == "inspector_called"
    from kiosk.ui.dealer.choices import BadgePad

    ui.tap(dealer.ids.inspector)
    pad = _modal(ui, BadgePad)
    ui.tap(_button(pad.ids.pad, "7"))
    ui.tap(_button(pad.ids.pad, "OK"))
    assert not session.inspector_called
    assert dealer.inspector_text == "Call inspector"


def _brightest(frame: Any, widget: Any) -> int:
    """The brightest channel sum in the middle of `widget` (its text, on a button)."""
    x, y = widget.to_window(widget.x, widget.y)
    counts = frame.region_colours(x + widget.width * 0.15, y + widget.height * 0.25,
                                  widget.width * 0.7, widget.height * 0.5, step=1)
    return max(sum(c) for c in counts)


def test_a_greyed_out_button_looks_greyed_out_without_rendering_its_text_again(
        ui: UI, session: Session, dealer: Any) -> None:
    undo = dealer.ids.undo
    assert undo.disabled  # nothing to take back yet
    text = undo.texture
    frame = ui.frame()
    edge = (undo.x + 4, undo.center_y)
    assert close(frame.pixel(*edge), theme.DISABLED)
    grey_text = _brightest(frame, undo)
    ui.tap(dealer.ids.kind_banker)
    ui.tap(chip(dealer, 2500))
    assert not undo.disabled
    frame = ui.frame()
    assert close(frame.pixel(*edge), theme.RAIL)
    white_text = _brightest(frame, undo)
    # Enabled: white text (R+G+B near 765); greyed out: 30% white over the grey, still legible.
    assert white_text >= 3 * 235, white_text
    assert 3 * 120 < grey_text < 3 * 200, grey_text
    # The tint is the canvas's: the same text texture in both states, never rendered again.
    assert undo.texture is text
    ui.tap(undo)
    assert undo.disabled and undo.texture is text
    # Chips: their colour while bets are taken, grey once "no more bets" closes betting.
    green = chip(dealer, 2500)
    fill = (green.center_x, green.center_y - min(green.size) * 0.28)  # between text and ring
    assert close(ui.frame().pixel(*fill), green.tone)
    chip_text = green.texture
    ui.tap(green)
    ui.tap(green)
    ui.tap(dealer.ids.primary)
    assert session.state.phase is pb.Phase.DEALING and green.disabled
    frame = ui.frame()
    assert close(frame.pixel(*fill), theme.DISABLED)
    assert not close(frame.pixel(*fill), green.tone)
    assert green.texture is chip_text


def test_an_areas_words_while_betting_and_when_paying() -> None:
    """The tile's words come from a pure presenter (tested without drawing): the bets, then
    each bet's payout, take or stand-off, and the commission owed (rule 5.7)."""
    from kiosk.rules.money import ChipRule
    from kiosk.ui.dealer.punto_banco_words import PanelRow, area_panel, area_words

    rules = pb.PuntoBancoRules(chips=ChipRule(500))
    state = pb.initial_state(rules, "PB-01")
    state = pb.apply(state, pb.shuffle(state))
    for area, kind, amount in (("1", pb.BetKind.BANKER, 5_500), ("1", pb.BetKind.TIE, 1_000),
                               ("2", pb.BetKind.PLAYER, 5_000)):
        state = pb.apply(state, pb.place_bet(state, area, kind, amount))
    assert area_words(state, "1") == "B R55\nT R10"
    state = pb.apply(state, pb.close_betting(state))
    for code in ("4H", "3C", "KD", "4S", "2C"):  # banker 7 beats player 6
        state = pb.apply(state, pb.shoe_card(state, Card.parse(code)))
    paying = pb.settlement(state)
    assert area_words(state, "1", paying) == "B pay\nT take"
    assert area_words(state, "2", paying) == "P take"
    assert area_panel(state, "1", paying) == [  # rule 5.7: 19:20, R52.25 to the chip: R50
        PanelRow("Banker R55 wins 19:20", "PAY R50", "pay"),
        PanelRow("Tie R10 loses", "TAKE R10", "take")]
    assert area_panel(state, "2") == [PanelRow("Player bet", "R50", "bet")]
