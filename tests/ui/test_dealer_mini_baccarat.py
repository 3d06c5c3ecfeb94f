"""The dealer's mini baccarat screen, rendered for real and driven by synthetic touches: a
coup the shuffler stops, taken through rule 12.5 by the procedure's big buttons, and
completed from a dealing shoe for the players who stayed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui import theme
from tests.ui.conftest import UI, start_app
from tests.ui.test_dealer_arizona import modal

RULES = mb.MiniBaccaratRules(chips=ChipRule(500))
THANDI = mb.inspector("Thandi", "4411")
Session = TableSession[mb.MiniBaccaratState]


def shoe(session: Session, code: str) -> None:
    session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def close(c: tuple[int, int, int], rgba: tuple[float, ...], tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    journal = Journal.open(tmp_path / "t.db", "MB-01")
    s: Session = TableSession(mb.MiniBaccarat(), journal, RULES, "MB-01")
    s.perform(lambda st: mb.shuffle(st, "shuffler"))
    yield s
    journal.close()


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp

    app = start_app(ui, MiniBaccaratDealerApp(session, table_name="Mini Baccarat 1"))
    return app.screen


def chip(dealer: Any, value: int) -> Any:
    return next(c for c in dealer.ids.chips.children if int(c.value) == value)


def tile(dealer: Any, area: str) -> Any:
    return next(t for t in dealer.ids.areas.children if t.area == area)


def bet(ui: UI, dealer: Any, area: str, kind: str, chips: tuple[int, ...]) -> None:
    ui.tap(tile(dealer, area))
    ui.tap(dealer.ids[f"kind_{kind}"])
    for value in chips:
        ui.tap(chip(dealer, value))


def test_seven_seats_and_no_standing_area(dealer: Any) -> None:

    assert sorted(int(t.area) for t in dealer.ids.areas.children) == list(range(1, 8))


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_rule_12_5_by_touch_from_the_fault_to_the_coup_settled(
        ui: UI, session: Session, dealer: Any, size: tuple[int, int]) -> None:
    from kiosk.ui.dealer.choices import BadgePad
    from kiosk.ui.dealer.mini_baccarat import DamagedCardKeypad

    ui.resize(*size)
    w, h = size
    bet(ui, dealer, "1", "banker", (2500, 2500, 2500, 2500))  # R100 banker, seat 1
    bet(ui, dealer, "3", "player", (2500, 2500))  # R50 player, seat 3
    bet(ui, dealer, "5", "banker", (2500, 2500))  # R50 banker, seat 5
    assert dealer.ids.malfunction.disabled  # rule 12.1.2: only in a coup being dealt
    ui.tap(dealer.ids.primary)  # no more bets
    for code in ("4H", "2S", "3D"):  # player 4, banker 2, player 3
        shoe(session, code)
    ui.pump(frames=2)
    assert not dealer.ids.malfunction.disabled
    ui.tap(dealer.ids.malfunction)  # rule 12.1: the dealer sees the shuffler stop
    assert session.state.stopped
    assert dealer.step == "Shuffler malfunction: are any cards in it damaged? (rule 12.3)"
    assert dealer.procedure_shown and dealer.ids.void.disabled and dealer.ids.key_card.disabled
    ui.screenshot(f"mb-12-5-fault-{w}x{h}")
    frame = ui.frame()  # the step banner is amber while the procedure has the coup
    assert close(frame.pixel(dealer.ids.step.x + 4, dealer.ids.step.center_y), theme.WARNING)
    # A card the broken shuffler still pushes out is refused on record, never dealt.
    shoe(session, "9C")
    assert len(session.state.player_cards) + len(session.state.banker_cards) == 3
    assert list(session.journal.entries())[-1].payload.get("detail", "").startswith("9C")
    ui.tap(dealer.ids.proc_yes)  # damaged: yes (the dealer's)
    assert "The inspector answers: badge number next" in dealer.procedure.detail
    ui.tap(dealer.ids.proc_no)  # disadvantaged: no (the inspector's): the badge pad opens
    pad = modal(ui, BadgePad)
    for key in "4411":
        ui.tap(next(b for b in pad.ids.pad.children if getattr(b, "key", "") == key))
    ui.tap(pad.ok)
    ui.pump(frames=2)
    assert dealer.inspector_badge == "4411"  # asked once: the next answer is the inspector's
    ui.tap(dealer.ids.proc_no)  # spare device: no (the inspector's) -> rule 12.5
    assert dealer.step == "Seat 1: offer the player the wagers back (rule 12.5.1)"
    assert "Seat 1: Banker R100" in dealer.procedure.detail
    ui.screenshot(f"mb-12-5-offer-{w}x{h}")
    ui.tap(dealer.ids.proc_yes)  # seat 1 takes R100 back
    ui.tap(dealer.ids.proc_no)  # seat 3 stays
    ui.tap(dealer.ids.proc_no)  # seat 5 stays
    assert dealer.step == "Remove the damaged cards from play: key each one in (rule 12.3.1)"
    assert dealer.ids.proc_yes.disabled  # no card keyed yet
    ui.tap(dealer.ids.proc_go)  # key a damaged card
    keypad = modal(ui, DamagedCardKeypad)
    assert keypad.title == "Key in a damaged card (rule 12.3.1)"
    ui.tap(next(b for b in keypad.ids.ranks.children if b.text == "Q"))
    ui.tap(next(b for b in keypad.ids.suits.children if b.text == "Spades"))
    ui.tap(keypad.ids.deal)
    ui.pump(frames=2)
    assert dealer.procedure.detail == "QS"
    ui.tap(dealer.ids.proc_yes)  # remove 1 card
    ui.tap(dealer.ids.proc_go)  # replaced from a new deck (rule 12.5.2)
    ui.tap(dealer.ids.proc_go)  # shuffled (rule 12.5.3)
    assert dealer.step == "Offer the cut to seat 5, as under rule 4 (rule 12.5.3)"
    ui.screenshot(f"mb-12-5-cut-{w}x{h}")
    ui.tap(dealer.ids.proc_no)  # seat 5 refused; the cut passes clockwise (rule 4.3)
    assert dealer.step == "Offer the cut to seat 3, as under rule 4 (rule 12.5.3)"
    ui.tap(dealer.ids.cut_more)  # the cut a half deck deeper than half-way (rule 4.4)
    assert dealer.procedure.cut_text == "Cut: 234 in"
    ui.tap(dealer.ids.proc_yes)  # seat 3 cut
    cut = [e.payload for e in session.journal.entries() if e.kind == "mini_baccarat.cards_cut"]
    assert [(c["seat"], c["cut_at"], c["cutting_card_from_back"]) for c in cut] == [
        (3, 234, 52)]
    assert "seats 3, 5" in dealer.procedure.detail
    ui.tap(dealer.ids.proc_go)  # continue from the dealing shoe (rule 12.5.4)
    state = session.state
    assert not state.stopped and state.device is mb.Device.SHOE
    assert not dealer.procedure_shown
    shoe(session, "5C")  # banker's second card: banker 2+5 = 7, player 4+3 = 7
    ui.pump(frames=2)
    assert session.state.phase is mb.Phase.PAYING
    assert dealer.step == "Coup complete: Tie 7 to 7. Pay and confirm"
    ui.screenshot(f"mb-12-5-paying-{w}x{h}")
    ui.tap(dealer.ids.primary)
    settled = session.state.last_settled
    assert settled is not None
    # Seat 1's R100 went back and is never settled; seats 3 and 5 stand off on the tie.
    assert [(s.area, s.kind.value, s.outcome.value, s.returned)
            for s in settled.settlements] == [("3", "player", "stand_off", 5000),
                                              ("5", "banker", "stand_off", 5000)]
    offers = [e.payload for e in session.journal.entries()
              if e.kind == "mini_baccarat.wager_offered"]
    assert [(o["area"], o["returned"]) for o in offers] == [("1", True), ("3", False),
                                                             ("5", False)]
    facts = [e.payload for e in session.journal.entries()
             if e.kind == "mini_baccarat.fact_established"]
    assert [(f["fact"], f["by"]["role"], f["by"]["badge"]) for f in facts] == [
        ("damaged", "dealer", ""), ("disadvantaged", "inspector", "4411"),
        ("spare", "inspector", "4411")]


def test_a_cut_the_rules_refuse_is_grey_and_says_why(ui: UI, session: Session,
                                                      dealer: Any) -> None:
    """Rule 12.5.3 by rule 4.4 of the shuffle and cut: the cut a deck in from either end."""
    bet(ui, dealer, "2", "banker", (2500, 2500))
    ui.tap(dealer.ids.primary)
    for code in ("4H", "2S"):
        shoe(session, code)
    session.perform(lambda s: mb.shuffler_malfunction(s, "JAM", mb.SHUFFLER))
    for fact, who in ((mb.Fact.DAMAGED, mb.DEALER), (mb.Fact.DISADVANTAGED, THANDI),
                      (mb.Fact.SPARE, THANDI)):
        session.perform(lambda s, f=fact, w=who: mb.establish_fact(s, f, False, w))
    session.perform(lambda s: mb.offer_wager_back(s, "2", False, mb.DEALER))
    session.perform(lambda s: mb.reshuffle_cards(s, mb.DEALER))
    ui.pump(frames=2)
    for _ in range(8):
        ui.tap(dealer.ids.cut_less)  # to half a deck in: under rule 4.4's deck
    assert dealer.procedure.cut_text == "Cut: 26 in"
    assert dealer.ids.proc_yes.disabled
    assert dealer.why_not("proc_yes", dealer.ids.proc_yes) == (
        "The cut must be at least one deck in from either end: between 52 and 364 cards, "
        "not 26 (rule 4.4 (shuffle and cut))")
    ui.tap(dealer.ids.cut_more)
    assert not dealer.ids.proc_yes.disabled
