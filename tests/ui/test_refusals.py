"""Every refusal in words: a greyed-out control, tapped, says why in the rule's
words, as a refused action does. Drawn for real, tapped with synthetic touches.

The controls are found rather than listed: on each dealer screen in the states a round goes
through, and in each dialog over it, every greyed-out control on show is tapped; each must
say why in words of its own (the rules' sentence, or the screen's or dialog's sentence, never
the general "not possible at this step"), drawn where the dealer is looking (the screen's
alert, or the dialog's own line when a dialog covers the screen), and write nothing to the
journal. Some reasons are checked word for word; the players-behind choosers' labels are
checked drawn, by their pixels, in English and Afrikaans."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.i18n import using
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card, ShoeContents
from kiosk.rules.money import ChipRule
from kiosk.rules.roulette import engine as rl
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui import theme
from kiosk.ui.dealer.base import refusal
from tests.ui.conftest import UI, start_app
from tests.ui.layout import box, shown


def _tap_disabled(ui: UI, widget: Any) -> None:
    """A finger on a greyed-out control (the conftest's tap refuses disabled widgets)."""
    from kivy.tests.common import UnitTestTouch

    assert widget.disabled, f"{widget.text!r} is not greyed out"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    ui.pump(frames=1)
    touch.touch_up()
    ui.pump(0.1)


def test_a_chip_over_the_maximum_says_so(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    rules = pb.PuntoBancoRules(chips=ChipRule(500), limits=(
        pb.Limit(pb.BetKind.BANKER, 500, 2_500), pb.Limit(pb.BetKind.PLAYER, 500, 2_500),
        pb.Limit(pb.BetKind.TIE, 500, 2_500)))
    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"), rules,
                           "PB-01")
    session.perform(pb.shuffle)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto banco 1"))
    dealer = app.screen
    rows = session.journal.count()
    # Commission with none owed (rule 5.7): the engine's sentence.
    _tap_disabled(ui, dealer.ids.collect)
    assert dealer.alert_shown
    assert dealer.alert_text == refusal(pb.verify_collect_commission, session.state, "1")
    dealer.dismiss_alert()
    # R50 on a R25 maximum (rule 2.2): the chip is grey, and says why when tapped.
    chip = next(c for c in dealer.ids.chips.children if int(c.value) == 5_000)
    _tap_disabled(ui, chip)
    want = refusal(pb.verify_place_bet, session.state, "1", pb.BetKind.BANKER, 5_000)
    assert want and "R25" in want and "2.2" in want
    assert dealer.alert_text == want
    ui.screenshot("refusal-chip-over-maximum-800x480")
    assert session.journal.count() == rows  # a refusal writes nothing
    session.journal.close()


def test_a_blackjack_decision_not_allowed_now_says_why(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session = TableSession(bj.Blackjack(), Journal.open(tmp_path / "t.db", "BJ-01"),
                           BlackjackRules(chips=ChipRule(500)), "BJ-01")
    app = start_app(ui, BlackjackDealerApp(session, table_name="Blackjack 1"))
    dealer = app.screen
    # Before the shuffle and cut (rules 4.1-4.5, shuffle and cut) the round cannot close.
    _tap_disabled(ui, dealer.ids.primary)
    want = refusal(bj.verify_close_betting, session.state)
    assert want and dealer.alert_text == want
    dealer.dismiss_alert()
    _tap_disabled(ui, dealer.ids.void)
    assert dealer.alert_text == refusal(bj.verify_void_round, session.state, "a reason",
                                        "an inspector")
    session.journal.close()


def test_roulette_controls_not_allowed_now_say_why(ui: UI, tmp_path: Path) -> None:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    session = TableSession(rl.Roulette(), Journal.open(tmp_path / "t.db", "RL-01"),
                           rl.RouletteRules(chips=ChipRule(500)), "RL-01")
    cfg = parse('[table]\nid = "RL-01"\nname = "Roulette 1"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    dealer = app.screen
    for button, verify in ((dealer.confirm_button, rl.verify_confirm_payouts),
                           (dealer.no_spin_button, rl.verify_no_spin)):
        _tap_disabled(ui, button)
        want = refusal(verify, session.state)
        assert want and dealer.alert_text.startswith(want), (want, dealer.alert_text)
        dealer.dismiss_alert()
    _tap_disabled(ui, dealer.cash_button)  # no colour chosen yet
    assert "colour" in dealer.alert_text
    session.journal.close()


GENERAL = ("is not possible at this step", "Not possible at this step",
           "is not possible now", "This is not possible now")
"""The general answers: a control that says only these has no reason of its own."""


# --- finding and tapping -------------------------------------------------------------------

def greyed(root: Any) -> list[Any]:
    """The greyed-out controls of `root` on show: buttons and chips a finger can see."""
    from kiosk.ui.widgets import ExplainsRefusal

    return [w for w in root.walk(restrict=True)
            if isinstance(w, ExplainsRefusal) and w.disabled and shown(w)
            and w.get_root_window() is not None]


def tap_greyed(ui: UI, widget: Any) -> None:
    """A finger on a greyed-out control (the conftest's tap refuses disabled widgets)."""
    from kivy.tests.common import UnitTestTouch

    assert widget.disabled, f"{widget!r} is not greyed out"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    ui.pump(frames=1)
    touch.touch_up()
    ui.pump(0.1)


def name(widget: Any) -> str:
    text = (getattr(widget, "text", "") or "").replace("\n", " ")
    return f"{type(widget).__name__}({text!r})"


def own_reason(why: str, widget: Any) -> None:
    assert why.strip(), f"{name(widget)} said nothing"
    assert not any(g in why for g in GENERAL), f"{name(widget)}: only the general {why!r}"


def screen_says(ui: UI, screen: Any, widget: Any) -> str:
    """Tap greyed `widget` on a dealer screen: its reason, in the screen's alert, on show."""
    screen.dismiss_alert()
    ui.pump(frames=2)
    tap_greyed(ui, widget)
    assert screen.alert_shown, f"{name(widget)}: no alert"
    why = str(screen.alert_text)
    if "alert_text" in screen.ids:  # punto banco and blackjack: the alert banner
        assert screen.ids.alert_text.text == why and shown(screen.ids.alert)
    else:  # roulette: the alert line above the spin controls
        assert screen.alert_label.text == why and shown(screen.alert_label)
    own_reason(why, widget)
    return why


def dialog_line(dialog: Any) -> Any:
    """The label a dialog says a refusal on."""
    if "why" in dialog.ids:  # the insurance amount: its line under the amount
        return dialog.ids.why
    if "refusal" in dialog.ids:
        return dialog.ids.refusal
    return dialog.refusal  # the chip change pad, built in Python


def dialog_says(ui: UI, dialog: Any, widget: Any) -> str:
    """Tap greyed `widget` in a dialog: its reason, on the dialog's own line, on show and
    drawn (its pixels are not the dialog's background)."""
    dialog.refusal_text = ""
    ui.pump(frames=2)
    tap_greyed(ui, widget)
    why = str(dialog.refusal_text)
    own_reason(why, widget)
    line = dialog_line(dialog)
    assert line.text == why and shown(line), f"{name(widget)}: {why!r} is not on show"
    x, y, right, top = box(line)
    dx, dy, dright, dtop = box(dialog.children[0])
    assert dx <= x and right <= dright and dy <= y and top <= dtop, "the line is off the dialog"
    colours = ui.frame().region_colours(x, y, right - x, top - y)
    assert len(colours) > 8, f"{name(widget)}: nothing drawn on the line"
    return why


def open_dialog(ui: UI, cls: type) -> Any:
    found = [w for w in ui.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} open"
    return found[0]


def every_greyed_says_why(ui: UI, root: Any, says: Callable[[UI, Any, Any], str],
                          journal: Journal) -> dict[str, str]:
    """Tap every greyed control of `root`; each says its own reason; nothing journaled."""
    rows = journal.count()
    found = greyed(root)
    assert found, "nothing greyed out here"
    said = {}
    for widget in found:
        said[name(widget)] = says(ui, root, widget)
    assert journal.count() == rows, "a refusal wrote to the journal"
    return said


# --- blackjack ---------------------------------------------------------------------------------

BJ_RULES = BlackjackRules(chips=ChipRule(500), surrender=True)
BJ = TableSession[bj.BlackjackState]


@pytest.fixture
def bj_session(tmp_path: Path) -> Iterator[BJ]:
    s = TableSession(bj.Blackjack(), Journal.open(tmp_path / "bj.db", "BJ-01"), BJ_RULES,
                     "BJ-01")
    yield s
    s.journal.close()


def bj_screen(ui: UI, session: BJ) -> Any:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    return start_app(ui, BlackjackDealerApp(session, table_name="Blackjack 1")).screen


def shoe(session: Any, *codes: str) -> None:
    for code in codes:
        session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def bj_shuffled(s: BJ) -> None:
    s.perform(lambda st: bj.place_bet(st, 2, 10_000, "A"))
    s.perform(lambda st: bj.place_bet(st, 2, 5_000, "B"))
    s.perform(lambda st: bj.place_bet(st, 3, 5_000, "A"))
    s.perform(lambda st: bj.shuffle(st))


def bj_cut(s: BJ) -> None:
    bj_shuffled(s)
    s.perform(lambda st: bj.cut_cards(st, 2, 104, 78))


def bj_ready(s: BJ) -> None:
    bj_cut(s)
    shoe(s, "9S")  # the burn card


def bj_insurance(s: BJ) -> None:
    """Box 2 (A, B behind) has 8 8, box 3 a blackjack, the dealer an ace; A insured."""
    bj_ready(s)
    s.perform(bj.close_betting)
    shoe(s, "8H", "AC", "AD", "8C", "KS")
    s.perform(lambda st: bj.insure(st, 2, "A", bj.max_insurance(st, 2, "A")))


def bj_playing(s: BJ) -> None:
    """Box 2's 8 8 against an ace: no surrender against an ace (rule 4.2 item 4a)."""
    bj_insurance(s)
    s.perform(bj.close_insurance)


def bj_three_cards(s: BJ) -> None:
    """Box 2 drew to 8 8 3: no double, split or surrender on three cards."""
    bj_playing(s)
    shoe(s, "3S")


def bj_split(s: BJ) -> None:
    """Box 2 split its 8 8; hand 1 waits for its second card (rule 4.2 item 4e)."""
    bj_playing(s)
    s.perform(lambda st: bj.split(st, {"B": bj.Follow.FIRST}))


def bj_unread(s: BJ) -> None:
    """The shoe could not read the first card out: the dealer keys it in."""
    bj_ready(s)
    s.perform(bj.close_betting)
    s.on_device_event(ev.CardUnread(device="SHOE", seq=0))


def bj_paying(s: BJ) -> None:
    bj_three_cards(s)
    s.perform(bj.stand)
    shoe(s, "9D")  # the dealer's A 9: soft 20, stands (rule 4.2)


BJ_STATES: dict[str, Callable[[BJ], None]] = {
    "before the shuffle": lambda s: None, "shuffled: the cut": bj_shuffled,
    "cut: the burn": bj_cut, "ready: bets": bj_ready, "insurance": bj_insurance,
    "a pair against an ace": bj_playing, "three cards": bj_three_cards,
    "split: a card due": bj_split, "an unread card": bj_unread, "paying": bj_paying}

BJ_WORDS: dict[str, dict[str, str]] = {
    "before the shuffle": {
        "TableButton('Burned (unread)')": "No shoe is ready: a card cannot be burned before "
        "the cards are shuffled and cut (rules 4.1-4.5, shuffle and cut)",
        "TableButton('Void round')": "There is no round in play to void",
        "TableButton('Calls box')": "Player A has no bet on box 1"},
    "shuffled: the cut": {
        "TableButton('Box 1 refused')": "Box 1 has no player to offer the cut to "
        "(rule 4.2.1 (shuffle and cut))"},
    "cut: the burn": {
        "TableButton('Key card')": "No card is due now: key in a card when the screen asks "
        "for one"},
    "ready: bets": {
        "TableButton('Burned (unread)')": "No card is to be burned now",
        "TableButton('Player A')": "Put a bet on box 1 first: then a player can bet behind "
        "it"},
    "insurance": {
        "TableButton('Box 2 A insured R50')": "Box 2, player A is already insured",
        "TableButton('Less')": "Box 2, player A is already insured"},
    "a pair against an ace": {
        "TableButton('Surrender')": "No surrender against a dealer ace (rule 4.2 item 4a)"},
    "three cards": {
        "TableButton('Double')": "Doubling is only on the first two cards (rule 4.2 item 4d)",
        "TableButton('Split')": "Only a pair of cards of equal face value may be split "
        "(rule 4.2 item 4e)"},
    "split: a card due": {
        "TableButton('Stand')": "Box 2, hand 1 takes its second card first (rule 4.2 item "
        "4e)"},
    "an unread card": {
        "TableButton('Set aside')": "There is no queried card to set aside",
        "TableButton('Inspector accepts')": "There is no queried card to accept"},
    "paying": {
        "TableButton('New shoe')": "A new shoe is shuffled between rounds, once the cutting "
        "card is out or the dealer starts one"},
}
"""Some of each state's reasons, word for word."""


@pytest.mark.parametrize("state", list(BJ_STATES))
def test_blackjack_every_greyed_control_says_why(ui: UI, bj_session: BJ, state: str) -> None:
    BJ_STATES[state](bj_session)
    dealer = bj_screen(ui, bj_session)
    ui.pump(frames=2)
    said = every_greyed_says_why(ui, dealer, screen_says, bj_session.journal)
    for control, words in BJ_WORDS[state].items():
        assert said[control] == words


# --- punto banco -------------------------------------------------------------------------------


# --- the dialogs -------------------------------------------------------------------------------
PB_RULES = pb.PuntoBancoRules(chips=ChipRule(500))
PB = TableSession[pb.PuntoBancoState]


@pytest.fixture
def pb_session(tmp_path: Path) -> Iterator[PB]:
    s = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "pb.db", "PB-01"), PB_RULES,
                     "PB-01")
    yield s
    s.journal.close()


def pb_screen(ui: UI, session: PB) -> Any:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    return start_app(ui, PuntoBancoDealerApp(session, table_name="Punto banco 1")).screen


def pb_bets(s: PB) -> None:
    s.perform(pb.shuffle)


def pb_dealing(s: PB) -> None:
    pb_bets(s)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 5_000))
    s.perform(pb.close_betting)


def pb_paying(s: PB) -> None:
    pb_dealing(s)
    shoe(s, "9S", "8H", "KS", "QH")  # Player 9, Banker 8: naturals (rule 5.3)


PB_STATES: dict[str, Callable[[PB], None]] = {
    "no shoe": lambda s: None, "bets": pb_bets, "dealing": pb_dealing, "paying": pb_paying}

PB_WORDS: dict[str, dict[str, str]] = {
    "no shoe": {
        "TableButton('No more bets')": "Shuffle and load the shoe before dealing (rule 5.5)"},
    "bets": {"TableButton('Void coup')": "There is no coup in play to void"},
    "dealing": {
        "ChipButton('25')": "No more bets has been called: bets are closed for this coup "
        "(rule 5.6)",
        "TableButton('New shoe')": "The shoe can only be changed between coups (rule 5.5)"},
    "paying": {"TableButton('Collect comm.')": "Area 1 owes no commission"},
}


@pytest.mark.parametrize("state", list(PB_STATES))
def test_punto_banco_every_greyed_control_says_why(ui: UI, pb_session: PB, state: str) -> None:
    PB_STATES[state](pb_session)
    dealer = pb_screen(ui, pb_session)
    ui.pump(frames=2)
    said = every_greyed_says_why(ui, dealer, screen_says, pb_session.journal)
    for control, words in PB_WORDS[state].items():
        assert said[control] == words


# --- roulette ----------------------------------------------------------------------------------

RL = TableSession[rl.RouletteState]


@pytest.fixture
def rl_session(tmp_path: Path) -> Iterator[RL]:
    s = TableSession(rl.Roulette(), Journal.open(tmp_path / "rl.db", "RL-01"),
                     rl.RouletteRules(chips=ChipRule(500)), "RL-01")
    yield s
    s.journal.close()


def rl_screen(ui: UI, session: RL) -> Any:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    cfg = parse('[table]\nid = "RL-01"\nname = "Roulette 1"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    return start_app(ui, dealer_app(session, cfg, None, lambda: None)).screen


def rl_bets(s: RL) -> None:
    s.perform(lambda st: rl.chip_change(st, "pink", 50, 500))
    s.perform(lambda st: rl.place_bet(st, "pink", rl.BetKind.RED, 1))


def rl_closed(s: RL) -> None:
    rl_bets(s)
    s.perform(lambda st: rl.spin_ball(st, rl.Direction.CLOCKWISE))
    s.perform(rl.close_betting)


RL_STATES: dict[str, Callable[[RL], None]] = {
    "no bets": lambda s: None, "a bet": rl_bets, "no more bets": rl_closed}

RL_WORDS: dict[str, dict[str, str]] = {
    "no bets": {"TableButton('No spin')": "The ball is not spinning (rule 3.2)",
                "TableButton('Cash in')": "Choose the player's colour first"},
    "a bet": {"TableButton('Final bets')": "Final bets are called when the ball slows: spin "
              "it first (rule 3.4)"},
    "no more bets": {"TableButton('No more bets')": "Bets are already closed"},
}


@pytest.mark.parametrize("state", list(RL_STATES))
def test_roulette_every_greyed_control_says_why(ui: UI, rl_session: RL, state: str) -> None:
    RL_STATES[state](rl_session)
    dealer = rl_screen(ui, rl_session)
    ui.pump(frames=2)
    said = every_greyed_says_why(ui, dealer, screen_says, rl_session.journal)
    for control, words in RL_WORDS[state].items():
        assert said[control] == words


# --- exact words on the screens ------------------------------------------------------------------

def test_the_screens_say_the_rules_words(ui: UI, bj_session: BJ) -> None:
    bj_three_cards(bj_session)
    dealer = bj_screen(ui, bj_session)
    s = bj_session.state
    for control, verify in (("double", bj.verify_double), ("split", bj.verify_split),
                            ("surrender", bj.verify_surrender)):
        want = refusal(verify, s)
        assert want and screen_says(ui, dealer, dealer.ids[control]) == want
    assert screen_says(ui, dealer, dealer.ids.double) == \
        "Doubling is only on the first two cards (rule 4.2 item 4d)"
    assert screen_says(ui, dealer, dealer.ids.surrender) == \
        "No surrender against a dealer ace (rule 4.2 item 4a)"
    assert screen_says(ui, dealer, dealer.ids.primary).startswith(
        "The players decide first: Box 2: 19 against")
    ui.screenshot("refusal-blackjack-double-on-three-cards-800x480")


def test_the_cut_says_the_rules_words(ui: UI, bj_session: BJ) -> None:
    bj_shuffled(bj_session)
    dealer = bj_screen(ui, bj_session)
    assert screen_says(ui, dealer, dealer.ids.box_cuts) == (
        "Box 1 has no player to cut (players at boxes 2, 3) (rule 4.2.1 (shuffle and cut))")
    assert screen_says(ui, dealer, dealer.ids.supervisor_cuts) == (
        "The cut is offered to the players first; a supervisor cuts only when no player "
        "accepts (rule 4.3 (shuffle and cut))")


# --- the dialogs -------------------------------------------------------------------------------

def test_the_card_keypad_says_why_a_key_is_grey(ui: UI, pb_session: PB) -> None:
    from kiosk.ui.dealer.card_keypad import CardKeypad
    from kiosk.ui.dealer.punto_banco import due_words, keyed_allowed, keyed_refused

    pb_dealing(pb_session)
    dealer = pb_screen(ui, pb_session)
    ui.tap(dealer.ids.key_card)
    pad = open_dialog(ui, CardKeypad)
    hearts = next(b for b in pad.ids.suits.children if b.suit == "H")
    assert dialog_says(ui, pad, hearts) == "Choose the rank first, then the suit"
    assert dialog_says(ui, pad, pad.ids.deal) == "Choose the rank first, then the suit"
    ui.tap(next(b for b in pad.ids.ranks.children if b.rank == "9"))
    assert pad.refusal_text == ""  # a choice clears the line
    assert dialog_says(ui, pad, pad.ids.deal) == "Choose the suit of the 9"
    ui.screenshot("refusal-card-keypad-800x480")
    every_greyed_says_why(ui, pad, dialog_says, pb_session.journal)
    pad.dismiss()
    # Every seven out of the shoe (rule 5.4): the rank is grey, and says so.
    state = pb_session.state
    assert state.shoe is not None
    sevens = {Card.parse(f"7{s}"): state.shoe.decks for s in "SHDC"}
    spent = dataclasses.replace(state, shoe=ShoeContents(state.shoe.decks, sevens,
                                                         state.shoe.decks * 4))
    pad = CardKeypad(state_of=lambda: spent, on_card=lambda card: None,
                     allowed=keyed_allowed, due=due_words, refused=keyed_refused)
    pad.open()
    ui.pump(0.1)
    seven = next(b for b in pad.ids.ranks.children if b.rank == "7")
    assert dialog_says(ui, pad, seven) == (
        "No 7 can come out of this shoe now: every one has been dealt")
    pad.dismiss()
    # One seven left: the other suits say the rules' sentence.
    sevens[Card.parse("7C")] -= 1
    pad = CardKeypad(state_of=lambda: spent, on_card=lambda card: None,
                     allowed=keyed_allowed, due=due_words, refused=keyed_refused)
    pad.open()
    ui.pump(0.1)
    ui.tap(next(b for b in pad.ids.ranks.children if b.rank == "7"))
    spades = next(b for b in pad.ids.suits.children if b.suit == "S")
    assert dialog_says(ui, pad, spades) == (
        "The shoe cannot hold another seven of spades (7S): all 8 have already come out of "
        "this 8-deck shoe (rule 5.4)")
    pad.dismiss()


def test_the_payout_sheet_says_why_its_buttons_are_grey(ui: UI, rl_session: RL) -> None:
    from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow
    from kiosk.ui.dealer.payouts import PayoutSheet

    blocks = [PanelBlock(f"Hand {n}", (PanelRow("A R100", "PAY R100", "pay"),))
              for n in (1, 2, 3)]
    state = rl_session.state  # no number called: the rules refuse to confirm (rule 3.5)
    sheet = PayoutSheet("Box 2: pay and take", blocks, unit=1.0, touch=48.0,
                        on_confirm=lambda: None,
                        confirm_refused=lambda: refusal(rl.verify_confirm_payouts, state))
    sheet.open()
    ui.pump(0.1)
    assert dialog_says(ui, sheet, sheet.ids.previous) == "This is the first page"
    assert dialog_says(ui, sheet, sheet.ids.confirm) == "No number has been called"
    ui.screenshot("refusal-payout-sheet-800x480")
    ui.tap(sheet.ids.next)
    assert sheet.refusal_text == "" and sheet.page == 1
    assert dialog_says(ui, sheet, sheet.ids.next) == "This is the last page"
    every_greyed_says_why(ui, sheet, dialog_says, rl_session.journal)
    sheet.dismiss()


def bj_three_behind(s: BJ, first: str = "5S", second: str = "5H") -> None:
    """Box 2: A calls with B, C and D behind; A's hand is `first` `second` against a 6."""
    for player, cents in (("A", 10_000), ("B", 5_000), ("C", 5_000), ("D", 5_000)):
        s.perform(lambda st, p=player, c=cents: bj.place_bet(st, 2, c, p))
    s.perform(lambda st: bj.shuffle(st))
    s.perform(lambda st: bj.cut_cards(st, 2, 104, 78))
    shoe(s, "9S")
    s.perform(bj.close_betting)
    shoe(s, first, "6D", second)


def test_the_split_chooser_says_who_has_not_chosen(ui: UI, bj_session: BJ) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import BehindChooser

    bj_three_behind(bj_session)
    dealer = bj_screen(ui, bj_session)
    ui.tap(dealer.ids.split)
    chooser = open_dialog(ui, BehindChooser)
    assert dialog_says(ui, chooser, chooser.ids.confirm) == (
        "Players B, C, D have not said which hand they play: both, first or second")
    for player in ("B", "C"):
        ui.tap(next(b for b in chooser.rows[player].ids.options.children
                    if b.choice_value == "both"))
    assert dialog_says(ui, chooser, chooser.ids.confirm) == (
        "Player D has not said which hand they play: both, first or second")
    ui.screenshot("refusal-split-chooser-800x480")
    every_greyed_says_why(ui, chooser, dialog_says, bj_session.journal)
    chooser.dismiss()


def test_the_insurance_amount_says_why(ui: UI, bj_session: BJ) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import InsuranceAmount
    from kiosk.ui.widgets import refusal_words

    bj_ready(bj_session)
    bj_session.perform(bj.close_betting)
    shoe(bj_session, "8H", "AC", "AD", "8C", "KS")
    dealer = bj_screen(ui, bj_session)
    less = next(b for b in dealer.ids.insurance_buttons.children
                if b.less and b.box == 2 and b.player == "A")
    ui.tap(less)
    pad = open_dialog(ui, InsuranceAmount)
    assert dialog_says(ui, pad, pad.ids.undo) == "Nothing to undo: no chip has been tapped yet"
    ui.tap(pad.ids.clear_amount)  # nothing: the rules refuse it (rule 4.7)
    want = refusal_words(refusal(bj.verify_insure, bj_session.state, 2, "A", 0))
    assert want and dialog_says(ui, pad, pad.ids.confirm) == want
    every_greyed_says_why(ui, pad, dialog_says, bj_session.journal)
    pad.dismiss()


@pytest.mark.parametrize("language", ["en", "af"])
def test_the_chip_change_pad_says_why_in_the_dealers_language(
        ui: UI, rl_session: RL, language: str) -> None:
    from kiosk.ui.dealer.roulette import ChipChangePad

    with using(language):
        dealer = rl_screen(ui, rl_session)
        ui.tap(dealer.colour_buttons["pink"])
        ui.tap(dealer.change_button)
        pad = open_dialog(ui, ChipChangePad)
        want = {"en": "A chip change is at least one chip (rule 3.5)",
                "af": "'n Skyfieruil is minstens een skyfie (reël 3.5)"}[language]
        assert dialog_says(ui, pad, pad.ok) == want
        ui.screenshot(f"refusal-chip-change-{language}-800x480")
        every_greyed_says_why(ui, pad, dialog_says, rl_session.journal)
        ui.tap(pad.count_buttons[20])
        assert not pad.ok.disabled and pad.refusal_text == ""
        pad.dismiss()


def test_the_badge_pad_says_a_number_is_needed(ui: UI, bj_session: BJ) -> None:
    from kiosk.ui.dealer.choices import BadgePad

    got: list[str] = []
    pad = BadgePad(title="Inspector attended: badge number", on_done=got.append)
    pad.open()
    ui.pump(0.1)
    assert dialog_says(ui, pad, pad.ok) == "Key in the badge number first"
    ui.tap(next(b for b in pad.ids.pad.children if b.text == "4"))
    assert pad.refusal_text == ""
    ui.tap(pad.ok)
    assert got == ["4"]


def test_call_bets_on_a_double_zero_wheel_say_why(ui: UI, tmp_path: Path) -> None:
    from kiosk.rules.roulette.wheel import Wheel

    session = TableSession(rl.Roulette(), Journal.open(tmp_path / "rl00.db", "RL-02"),
                           rl.RouletteRules(chips=ChipRule(500), wheel=Wheel.DOUBLE_ZERO),
                           "RL-02")
    dealer = rl_screen(ui, session)
    said = every_greyed_says_why(ui, dealer, screen_says, session.journal)
    for call in ("Voisins", "Tiers 5/8", "Orphelins"):
        assert said[f"TableButton({call!r})"] == (
            "Call bets are placed on the single-zero wheel only (rule 3.4)")
    session.journal.close()


# --- the choosers' labels are drawn ---------------------------------------------------------------

CHOOSERS = {
    # action: (the screen's button, the chooser's confirm, each player's options)
    "en": {"split": ("Split", "Split", ["Both", "First", "Second"]),
           "double": ("Double", "Double", ["Doubles", "No"]),
           "surrender": ("Surrender", "Surrender", ["Surrenders", "No"])},
    "af": {"split": ("Verdeel", "Verdeel", ["Albei", "Eerste", "Tweede"]),
           "double": ("Verdubbel", "Verdubbel", ["Verdubbel", "Nee"]),
           "surrender": ("Oorgee", "Oorgee", ["Gee oor", "Nee"])},
}


def drawn_text_pixels(ui: UI, widget: Any, background: tuple[float, ...]) -> int:
    """How many pixels of the middle of `widget` (inside its rounded corners) are not its
    background: the drawn text's."""
    frame = ui.frame()
    x, y, right, top = box(widget)
    inset = widget.height * 0.2
    colours = frame.region_colours(x + inset, y + inset, right - x - 2 * inset,
                                   top - y - 2 * inset, step=1)
    bg = tuple(round(c * 255) for c in background[:3])
    return sum(n for c, n in colours.items()
               if max(abs(a - b) for a, b in zip(c, bg, strict=True)) > 40)


@pytest.mark.parametrize("language", ["en", "af"])
@pytest.mark.parametrize("action", ["split", "double", "surrender"])
def test_the_choosers_buttons_have_drawn_labels(ui: UI, bj_session: BJ, action: str,
                                                 language: str) -> None:
    """The players-behind chooser's confirm once had an empty label: with three players
    behind, each chooser's buttons say their words, and the words are drawn (pixels)."""
    from kiosk.ui.dealer.blackjack_dialogs import BehindChooser
    from tests.ui.conftest import SHOTS

    bj_three_behind(bj_session)
    button_text, confirm_text, options = CHOOSERS[language][action]
    with using(language):
        dealer = bj_screen(ui, bj_session)
        screen_button = dealer.ids[action]
        assert screen_button.text == button_text and not screen_button.disabled
        ui.tap(screen_button)
        chooser = open_dialog(ui, BehindChooser)
        assert sorted(chooser.rows) == ["B", "C", "D"]
        if action == "split":  # confirm waits for every player's hand
            for row in chooser.rows.values():
                ui.tap(row.ids.options.children[-1])  # Both
        ui.pump(0.2)
        confirm = chooser.ids.confirm
        assert confirm.text == confirm_text and not confirm.disabled
        assert confirm.texture is not None and confirm.texture_size[0] > 10
        assert drawn_text_pixels(ui, confirm, theme.GOLD) > 40, "the confirm's words"
        assert chooser.ids.cancel.text == {"en": "Cancel", "af": "Kanselleer"}[language]
        for row in chooser.rows.values():
            buttons = row.ids.options.children[::-1]
            assert [b.text for b in buttons] == options
            for b in buttons:
                assert drawn_text_pixels(ui, b, b.tone) > 20, f"{b.text!r} is not drawn"
        ui.screenshot(f"chooser-{action}-three-behind-{language}-800x480")
        confirm.export_to_png(str(SHOTS / f"chooser-{action}-confirm-{language}.png"))
        chooser.dismiss()


@pytest.mark.parametrize("language", ["en", "af", "pt", "zu"])
def test_a_dialogs_refusal_fits_in_every_language(ui: UI, bj_session: BJ, rl_session: RL,
                                                   language: str) -> None:
    """The dialogs' longest refusals at 800x480, the smallest screen: nothing cut off or
    overlapping, readable against the amber, no text under 1.75 mm (the layout tests'
    checks)."""
    from kiosk.ui.dealer.blackjack_dialogs import (
        BehindChooser,
        due_words,
        keyed_allowed,
        keyed_refused,
    )
    from kiosk.ui.dealer.card_keypad import CardKeypad
    from kiosk.ui.dealer.roulette import ChipChangePad
    from tests.ui.test_layout_dealers import laid_out

    bj_three_behind(bj_session)
    with using(language):
        dealer = bj_screen(ui, bj_session)
        ui.tap(dealer.ids.split)
        chooser = open_dialog(ui, BehindChooser)
        dialog_says(ui, chooser, chooser.ids.confirm)
        laid_out(ui, chooser, (800, 480))
        ui.screenshot(f"refusal-split-chooser-{language}-800x480")
        chooser.dismiss()
        state = bj_session.state
        assert state.shoe is not None
        spent = dataclasses.replace(state, shoe=ShoeContents(
            state.shoe.decks, {Card.parse(f"7{s}"): state.shoe.decks for s in "SHDC"}, 24))
        pad = CardKeypad(state_of=lambda: spent, on_card=lambda card: None,
                         allowed=keyed_allowed, due=due_words, refused=keyed_refused)
        pad.open()
        ui.pump(0.1)
        dialog_says(ui, pad, next(b for b in pad.ids.ranks.children if b.rank == "7"))
        assert pad.refusal_text == {
            "en": "No 7 can come out of this shoe now: every one has been dealt",
            "af": "Geen 7 kan nou meer uit hierdie skoen kom nie: almal is reeds gedeel",
            "pt": "Nenhum 7 pode sair deste sabot agora: já saíram todos",
            "zu": "Ayikho i-7 engaphuma kulawa makhadi manje: zonke sezabiwe"}[language]
        laid_out(ui, pad, (800, 480))
        ui.screenshot(f"refusal-card-keypad-{language}-800x480")
        pad.dismiss()
        roulette = rl_screen(ui, rl_session)
        ui.tap(roulette.colour_buttons["pink"])
        ui.tap(roulette.change_button)
        change = open_dialog(ui, ChipChangePad)
        dialog_says(ui, change, change.ok)
        laid_out(ui, change, (800, 480))
        change.dismiss()
