"""The dealer's Arizona Hold'em screen, rendered for real and driven by synthetic touches: a
whole hand from the antes to the confirmed payouts, the raise and check buttons enabled only
for the box whose player decides (rule 6.2, each in turn), a keyed card going to the next
place of the deal, a misdeal, and the layout at every dealer size with the busiest content
(seven boxes at the largest limits), in every language at the smallest size."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk import i18n
from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.config import ArizonaRules
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.rules.registry import EXTRA_GAMES, GAMES
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui.dealer.base import refusal
from tests.ui.conftest import UI, start_app
from tests.ui.layout import LANDSCAPE
from tests.ui.test_layout_dealers import check, laid_out
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION

RULES = ArizonaRules(minimum=5_000, maximum=500_000, chips=ChipRule(500))
Session = TableSession[az.ArizonaState]
DEAL = ("TS", "2C", "TD", "9H", "4C", "KD", "3S", "7D")
"""Boxes 1 and 3 in rule 6.2's order: box 1 holds T 9 3, box 3 holds 2 4 7, the community
T K: box 1 a pair of tens (1 to 1, rule 6.6), box 3 king high (every bet loses)."""


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """The game in the registry for these tests only (the journal opens its table through
    it), unless this build registers it already."""
    import kiosk.ui.games  # noqa: F401  (the screens' check, as the kiosk has it)
    from kiosk.rules.arizona.spec import SPEC

    ours = SPEC.name not in GAMES.names()
    if ours:
        GAMES.register(SPEC)
    yield
    if ours:
        GAMES.unregister(SPEC.name)


def shoe(session: Session, *codes: str) -> None:
    for code in codes:
        session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def kinds(session: Session) -> list[str]:
    return [e.kind.removeprefix("arizona.") for e in session.journal.entries()]


def open_session(path: Path, rules: ArizonaRules = RULES) -> Session:
    return TableSession(az.ArizonaHoldem(), Journal.open(path, "AZ-01"), rules, "AZ-01")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = open_session(tmp_path / "t.db")
    yield s
    s.journal.close()


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp

    return start_app(ui, ArizonaDealerApp(session, table_name="Arizona 1")).screen


def chip(dealer: Any, value: int) -> Any:
    return next(c for c in dealer.ids.chips.children if int(c.value) == value)


def modal(ui: UI, cls: type) -> Any:
    found = [w for w in ui.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} open"
    return found[0]


def tap_greyed(ui: UI, widget: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    assert widget.disabled, f"{widget!r} is not greyed out"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    ui.pump(frames=1)
    touch.touch_up()
    ui.pump(0.1)


def antes_closed(ui: UI, session: Session, dealer: Any) -> None:
    """Shuffled, R50 on box 1 and R25 + R25 on box 3 by touch, no more bets."""
    ui.tap(dealer.ids.shuffle)
    ui.tap(dealer.tile(1))
    ui.tap(chip(dealer, 5_000))
    ui.tap(dealer.tile(3))
    ui.tap(chip(dealer, 2_500))
    ui.tap(chip(dealer, 2_500))
    ui.tap(dealer.ids.primary)
    assert session.state.phase is az.Phase.DEALING


def test_a_whole_hand_by_touch(ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.payouts import PayoutSheet

    assert dealer.ids.primary.disabled and dealer.ids.shuffle.disabled is False
    assert dealer.step == "Place your bets. Shuffle the cards for this hand (rule 6.5)"
    antes_closed(ui, session, dealer)
    assert session.state.antes == ((1, 5_000), (3, 5_000))
    assert dealer.tile(3).detail == "A R50"
    ui.screenshot("arizona-dealer-dealing-800x480")
    assert dealer.tile(1).ids.cards.children[-1].highlight  # box 1's first card comes first
    shoe(session, *DEAL)
    ui.pump(frames=2)
    assert session.state.phase is az.Phase.FIRST_RAISE
    assert dealer.step == "Box 1: raise in circle 1, or check"
    faces = [f for f in dealer.tile(1).ids.cards.children[::-1]]
    assert [(f.code, f.face_down) for f in faces] == [("", True)] * 3  # face down (rule 6.2)
    assert not dealer.tile(1).raise_button.disabled and dealer.tile(3).raise_button.disabled
    ui.screenshot("arizona-dealer-circle-1-800x480")
    ui.tap(dealer.tile(1).raise_button)  # box 1 raises circle 1, box 3 checks
    ui.tap(dealer.tile(3).check_button)
    assert (dealer.tile(1).detail, dealer.tile(3).detail) == ("A R50\nraise 1", "A R50")
    assert dealer.ids.turn.text == "Turn 1st card"
    ui.tap(dealer.ids.turn)
    assert dealer.ids.community_1.code == "TD" and dealer.ids.community_2.face_down
    ui.tap(dealer.tile(1).check_button)  # circle 2: box 1 checks, box 3 raises
    ui.tap(dealer.tile(3).raise_button)
    ui.tap(dealer.ids.turn)
    assert session.state.phase is az.Phase.REVEAL
    assert dealer.step == "Reveal the hands left to right, pay and confirm"
    assert dealer.ids.community_2.code == "KD"
    assert [f.code for f in dealer.tile(1).ids.cards.children[::-1]] == ["TS", "9H", "3S"]
    assert (dealer.tile(1).detail, dealer.tile(3).detail) == (
        "PAY R100\nA pair of tens", "TAKE R100\nKing high")
    assert dealer.ids.primary.text == "Confirm payouts" and not dealer.ids.primary.disabled
    # The reveal: every box's payouts open by themselves in large type over the screen.
    ui.pump(0.2)
    sheet = modal(ui, PayoutSheet)
    ui.tap(sheet.ids.done)
    ui.pump(0.2)
    ui.screenshot("arizona-dealer-reveal-800x480")
    # A box tapped opens them again.
    ui.tap(dealer.tile(3))
    ui.pump(0.2)
    sheet = modal(ui, PayoutSheet)
    assert sheet.title == "Hand 1: pay and take"
    assert [p.title for p in sheet.panels] == ["Box 1: TS 9H 3S + TD KD",
                                               "Box 3: 2C 4C 7D + TD KD"]
    assert sheet.panels[0].lines() == [
        ("A pair of tens", "1:1"), ("Ante R50 wins 1:1", "PAY R50"),
        ("Raise 1 R50 wins 1:1", "PAY R50"), ("Box in all", "PAY R100")]
    assert sheet.panels[1].lines() == [
        ("King high", "LOSES"), ("Ante R50 loses", "TAKE R50"),
        ("Raise 2 R50 loses", "TAKE R50"), ("Box in all", "TAKE R100")]
    ui.screenshot("arizona-dealer-payouts-800x480")
    ui.tap(sheet.ids.confirm)
    assert session.state.round == 2 and session.state.phase is az.Phase.BETTING
    assert kinds(session) == [
        "table_opened", "shuffled", "ante_placed", "ante_placed", "ante_placed",
        "betting_closed", *["card_dealt"] * 8, "raised", "checked", "community_turned",
        "checked", "raised", "community_turned", "round_settled"]
    settled = list(session.journal.entries())[-1].payload
    assert [(b["box"], b["hand"], b["odds"], b["net"]) for b in settled["boxes"]] == [
        (1, "a pair of tens", 1, 10_000), (3, "king high", None, -10_000)]
    ui.pump(frames=2)
    assert dealer.step == "Place your bets. Shuffle the cards for this hand (rule 6.5)"
    assert not dealer.ids.shuffle.disabled  # a new shuffle for the next hand (rule 6.5)


def test_raise_and_check_are_enabled_only_for_the_box_in_turn(
        ui: UI, session: Session, dealer: Any) -> None:
    antes_closed(ui, session, dealer)
    for box in (1, 3):  # no decision while the cards come
        assert dealer.tile(box).raise_button.opacity == 0
    shoe(session, *DEAL)
    ui.pump(frames=2)
    rows = session.journal.count()
    t1, t3 = dealer.tile(1), dealer.tile(3)
    assert (t1.raise_button.disabled, t1.check_button.disabled) == (False, False)
    assert (t3.raise_button.disabled, t3.check_button.disabled) == (True, True)
    assert dealer.tile(2).raise_button.opacity == 0  # no ante, no decision
    # Box 3 greyed, tapped: the engine's sentence, and nothing recorded.
    tap_greyed(ui, t3.raise_button)
    want = refusal(az.verify_raise_bet, session.state, 3, 1)
    assert want == "Box 1 decides first: each player in turn (rule 6.2)"
    assert dealer.alert_shown and dealer.alert_text == want
    assert session.journal.count() == rows
    dealer.dismiss_alert()
    # The turn community card waits for every decision.
    tap_greyed(ui, dealer.ids.turn)
    assert dealer.alert_text == "Box 1 decides first: each player in turn (rule 6.2)"
    ui.tap(t1.check_button)
    ui.pump(frames=2)
    assert t1.raise_button.disabled and not t3.raise_button.disabled
    assert t3.turn and not t1.turn
    ui.tap(t3.raise_button)
    ui.pump(frames=2)
    assert t1.raise_button.disabled and t3.raise_button.disabled
    tap_greyed(ui, t1.raise_button)
    assert dealer.alert_text == ("Every player has decided on circle 1: turn the community "
                                 "card (rule 6.2)")
    assert kinds(session)[-2:] == ["checked", "raised"]
    assert session.state.raise_of(3, 1) == 5_000  # the ante's amount (rule 6.2)


def test_a_keyed_card_goes_to_the_next_place(ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.card_keypad import CardKeypad

    antes_closed(ui, session, dealer)
    shoe(session, "TS", "2C")  # boxes 1 and 3: the first community card is next
    ui.pump(frames=2)
    assert dealer.step == "Deal the first community card face down"
    assert dealer.ids.community_1.highlight and not dealer.tile(1).ids.cards.children[-2].highlight
    ui.tap(dealer.ids.key_card)
    pad = modal(ui, CardKeypad)
    assert pad.title == "Key in the card for the first community card"
    ui.tap(next(b for b in pad.ids.ranks.children if b.text == "9"))
    ui.tap(next(b for b in pad.ids.suits.children if b.text == "Hearts"))
    ui.screenshot("arizona-dealer-card-pad-800x480")
    ui.tap(pad.ids.deal)
    ui.pump(frames=2)
    last = list(session.journal.entries())[-1]
    assert (last.kind, last.payload["box"], last.payload["slot"], last.payload["card"]) == \
        ("arizona.card_dealt", 0, 0, "9H")
    assert dealer.ids.community_1.face_down and not dealer.ids.community_1.highlight
    assert dealer.tile(1).ids.cards.children[-2].highlight  # box 1's second card is next
    # One deck: the ten of spades cannot come again (rule 6.4); its key is grey.
    ui.tap(dealer.ids.key_card)
    pad = modal(ui, CardKeypad)
    assert pad.title == "Key in the card for box 1"
    ui.tap(next(b for b in pad.ids.ranks.children if b.text == "10"))
    spades = next(b for b in pad.ids.suits.children if b.text == "Spades")
    assert spades.disabled
    pad.dismiss()


def test_a_misdeal_keeps_the_antes_and_needs_a_new_shuffle(ui: UI, session: Session,
                                                           dealer: Any) -> None:
    from kiosk.ui.dealer.choices import ReasonPicker

    assert dealer.ids.misdeal.disabled
    antes_closed(ui, session, dealer)
    shoe(session, "TS", "2C", "TD")
    ui.pump(frames=2)
    ui.tap(dealer.ids.misdeal)
    picker = modal(ui, ReasonPicker)
    ui.tap(next(b for b in picker.ids.reasons.children if b.text == "Card exposed"))
    ui.pump(frames=2)
    last = list(session.journal.entries())[-1]
    assert (last.kind, last.payload["reason"]) == ("arizona.misdealt", "Card exposed")
    assert session.state.antes == ((1, 5_000), (3, 5_000)) and not session.state.dealt
    assert dealer.step == "Shuffle the cards for this hand (rule 6.5)"
    assert dealer.ids.key_card.disabled and not dealer.ids.shuffle.disabled
    ui.tap(dealer.ids.shuffle)
    assert dealer.step == "Deal a card face down to box 1"


def test_undo_takes_back_the_ante_of_the_box(ui: UI, session: Session, dealer: Any) -> None:
    ui.tap(dealer.tile(2))
    ui.tap(chip(dealer, 1_000))
    ui.tap(chip(dealer, 2_500))
    assert session.state.antes == ((2, 3_500),)
    assert dealer.step_detail == ("Box 2: the ante of R35 is under the table minimum of R50 "
                                  "(rule 2.2)")
    ui.tap(dealer.ids.undo)
    assert session.state.antes == () and dealer.ids.undo.disabled
    assert kinds(session)[-1] == "ante_taken_back"


# --- the layout, with the busiest content -----------------------------------------------------

BIG = ArizonaRules(minimum=100_000, maximum=TEN_MILLION, boxes=7, chips=ChipRule(500))
BUSY_DEAL = ("KS", "KH", "QS", "JS", "TS", "9S", "8S", "AS",
             "KD", "KC", "QH", "JH", "TH", "9H", "8H", "AH",
             "KH", "QC", "JC", "TC", "9C", "8C", "7C")


def busy(path: Path, until: az.Phase) -> Session:
    """Seven boxes at the table maximum, every circle raised: the longest words and amounts."""
    session = open_session(path, BIG)
    session.perform(az.shuffle)
    for box in range(1, 8):
        session.perform(lambda s, b=box: az.place_bet(s, b, TEN_MILLION))
    session.perform(az.close_betting)
    for code in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "AD",
                 "KS", "2H", "3H", "4H", "5H", "6H", "7H", "KD",
                 "QS", "2D", "3D", "4D", "5D", "6D", "7D"):
        session.perform(lambda s, c=code: az.shoe_card(s, Card.parse(c)))
    while session.state.phase is not until:
        state = session.state
        box = az.legal_actions(state)
        turn = next((b for b in state.boxes if az.can_raise_bet(state, b, 1)
                     or az.can_raise_bet(state, b, 2)), None)
        if turn is None:
            session.perform(az.turn_community)
        else:
            circle = 1 if state.phase is az.Phase.FIRST_RAISE else 2
            session.perform(lambda s, b=turn, c=circle: az.raise_bet(s, b, c))
        assert box is not None
    return session


SIZES_AND_LANGUAGES = [*((size, "en") for size in LANDSCAPE),
                       *(((800, 480), code) for code in ("af", "pt", "zu"))]


def _case(case: tuple[tuple[int, int], str]) -> str:
    (w, h), code = case
    return f"{w}x{h}" + ("" if code == "en" else f"-{code}")


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code: str = request.param
    with i18n.using(code):
        yield code


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_arizona_dealer_screen_fits_deciding(ui: UI, tmp_path: Path, size: tuple[int, int],
                                                 language: str) -> None:
    """Circle 2 in play: seven boxes with their raise and check buttons, an alert shown."""
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp

    session = busy(tmp_path / "d.db", az.Phase.SECOND_RAISE)
    session.perform(lambda s: az.raise_bet(s, 1, 2))
    app = start_app(ui, ArizonaDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    ui.resize_window(*size)
    ui.pump(0.2)
    tap_greyed(ui, screen.tile(7).raise_button)
    assert screen.alert_shown
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-arizona-deciding-{_case((size, language))}")
    laid_out(ui, screen, size, cards=True, frame=ui.shot)
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_arizona_dealer_screen_fits_at_the_reveal(ui: UI, tmp_path: Path,
                                                      size: tuple[int, int],
                                                      language: str) -> None:
    """The reveal: seven boxes' cards face up, then their payouts in large type."""
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp

    session = busy(tmp_path / "r.db", az.Phase.REVEAL)
    app = start_app(ui, ArizonaDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    ui.pump(0.2)
    sheets = [w for w in ui.window.children if type(w).__name__ == "PayoutSheet"]
    assert len(sheets) == 1, "the reveal: the payouts open by themselves"
    sheets[0].dismiss()
    ui.resize_window(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-arizona-reveal-{_case((size, language))}")
    laid_out(ui, screen, size, cards=True, frame=ui.shot)
    sheet = screen.open_payouts(1)
    ui.pump(0.3)
    ui.screenshot(f"layout-dealer-arizona-payouts-{_case((size, language))}")
    check(ui, sheet, size)
    sheet.dismiss()
    session.journal.close()


# --- every greyed control says why ------------------------------------------------------------


def _antes(s: Session) -> None:
    s.perform(az.shuffle)
    s.perform(lambda st: az.place_bet(st, 1, 5_000))
    s.perform(lambda st: az.place_bet(st, 3, 2_500))


def _dealing(s: Session) -> None:
    _antes(s)
    s.perform(lambda st: az.place_bet(st, 3, 2_500))
    s.perform(az.close_betting)
    shoe(s, *DEAL[:3])


def _circle_1(s: Session) -> None:
    _dealing(s)
    shoe(s, *DEAL[3:])


def _decided(s: Session) -> None:
    _circle_1(s)
    s.perform(lambda st: az.raise_bet(st, 1, 1))
    s.perform(lambda st: az.check(st, 3, 1))


def _reveal(s: Session) -> None:
    _decided(s)
    s.perform(az.turn_community)
    s.perform(lambda st: az.check(st, 1, 2))
    s.perform(lambda st: az.check(st, 3, 2))
    s.perform(az.turn_community)


STATES = {"not shuffled": lambda s: None, "antes under the minimum": _antes,
          "dealing": _dealing, "circle 1": _circle_1, "every player decided": _decided,
          "reveal": _reveal}

WORDS = {
    "not shuffled": {
        "TableButton('No more bets')": "No ante on the layout yet: place your bets",
        "TableButton('Misdeal')": "A misdeal is called while the cards are dealt, before "
        "anyone raises (rule 6.2)",
        "TableButton('Void hand')": "No round to void: no bet is on the layout",
        "TableButton('Key card')": "No card is dealt now: the deal is complete or not yet "
        "begun (rule 6.2)"},
    "antes under the minimum": {
        "TableButton('No more bets')": "Box 3: the ante of R25 is under the table minimum "
        "of R50 (rule 2.2)",
        "TableButton('Shuffle')": "The cards were shuffled for this hand already"},
    "dealing": {
        "ChipButton('5')": "No more bets: the round is being dealt (rule 6.2)",
        "TableButton('Shuffle')": "The hand is being played: shuffle before the next one "
        "(rule 6.5)",
        "TableButton('Turn 1st card')": "No community card is turned now (rule 6.2)"},
    "circle 1": {
        "TableButton('Raise')": "Box 1 decides first: each player in turn (rule 6.2)",
        "TableButton('Check')": "Box 1 decides first: each player in turn (rule 6.2)"},
    "every player decided": {
        "TableButton('Misdeal')": "A misdeal is called while the cards are dealt, before "
        "anyone raises (rule 6.2)"},
    "reveal": {
        "TableButton('Turn 2nd card')": "No community card is turned now (rule 6.2)"},
}
"""Some of each state's reasons, word for word."""


@pytest.mark.parametrize("state", list(STATES))
def test_every_greyed_control_says_why(ui: UI, session: Session, state: str) -> None:
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp
    from tests.ui.test_refusals import every_greyed_says_why, screen_says

    STATES[state](session)
    dealer = start_app(ui, ArizonaDealerApp(session, table_name="Arizona 1")).screen
    ui.pump(0.1)
    if dealer.sheet is not None:  # the reveal's payouts, over the screen
        dealer.sheet.dismiss()
        ui.pump(0.2)
    said = every_greyed_says_why(ui, dealer, screen_says, session.journal)
    for control, words in WORDS[state].items():
        assert said[control] == words, control


# --- the headless demo ----------------------------------------------------------------------


@pytest.mark.slow
def test_the_headless_demo_plays_a_hand_by_touch(tmp_path: Path) -> None:
    """`tableside demo --game arizona --headless`: the screens module's touch script plays a
    hand from the shuffle to the confirmed payouts and saves the screenshots."""
    from kiosk.store.source import load_entries

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env.update({EXTRA_GAMES: "tests.ui.arizona_game", "SDL_VIDEODRIVER": "offscreen",
                "GPIOZERO_PIN_FACTORY": "mock"})
    out = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", "arizona", "--headless",
         "--no-signage", "--fresh", "--journal", str(tmp_path / "demo.db"), "--out",
         str(tmp_path / "shots")],
        cwd=root, env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    assert "hand settled: hand 1" in out.stdout, out.stdout
    assert sum(line.startswith("  Box ") for line in out.stdout.splitlines()) == 3  # payouts
    assert "signage screenshot signage-800x480.png: exit 0" in out.stdout, out.stdout
    for name in ("dealer-betting-800x480", "dealer-deciding-800x480", "dealer-reveal-800x480",
                 "dealer-payouts-800x480", "dealer-800x480"):
        assert (tmp_path / "shots" / f"{name}.png").stat().st_size > 1000, name
    entries = load_entries(tmp_path / "demo.db")
    kinds = [e.kind.removeprefix("arizona.") for e in entries]
    assert kinds.count("card_dealt") == 3 * 3 + 2  # three boxes, two community cards
    assert kinds.count("community_turned") == 2 and kinds[-1] == "round_settled"
    settled = entries[-1].payload
    assert [b["box"] for b in settled["boxes"]] == [1, 3, 5]


def test_a_raise_out_of_turn_is_refused_in_afrikaans_and_recorded_in_english(
        ui: UI, session: Session) -> None:
    from kiosk.table.session import Severity
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp

    _circle_1(session)
    with i18n.using("af"):
        dealer = start_app(ui, ArizonaDealerApp(session, table_name="Arizona 1")).screen
        ui.pump(frames=2)
        assert dealer.step == "Vak 1: verhoog in sirkel 1, of pas"
        assert dealer.tile(3).raise_button.text == "Verhoog"
        tap_greyed(ui, dealer.tile(3).raise_button)
        assert dealer.alert_text == "Vak 1 besluit eerste: elke speler op sy beurt (reël 6.2)"
        alert = session.alerts[-1]
        assert (alert.severity, alert.message) == (
            Severity.WARNING, "Box 1 decides first: each player in turn (rule 6.2)")
        ui.screenshot("arizona-dealer-refusal-af-800x480")


# --- the words, without drawing -----------------------------------------------------------------


def test_the_words_of_a_box_and_of_the_deal() -> None:
    from kiosk.rules.arizona.fold import apply
    from kiosk.ui.dealer.arizona_words import box_detail, due_words, reveal_blocks

    state = az.initial_state(RULES, "AZ-01")
    state = apply(state, az.shuffle(state))
    assert box_detail(state, 2) == "no ante" and due_words(state) == ""
    for act in (lambda s: az.place_bet(s, 2, 5_000), lambda s: az.place_bet(s, 6, 10_000),
                az.close_betting):
        state = apply(state, act(state))
    assert due_words(state) == "box 2"
    for code in ("AH", "AD"):
        state = apply(state, az.shoe_card(state, Card.parse(code)))
    assert due_words(state) == "the first community card"
    for code in ("KS", "AS", "AC", "QD", "2C", "3C"):
        state = apply(state, az.shoe_card(state, Card.parse(code)))
    assert due_words(state) == ""  # the deal is complete
    state = apply(state, az.check(state, 2, 1))
    state = apply(state, az.raise_bet(state, 6, 1))
    state = apply(state, az.turn_community(state))
    state = apply(state, az.raise_bet(state, 2, 2))
    state = apply(state, az.raise_bet(state, 6, 2))
    assert box_detail(state, 2) == "A R50\nraise 2" and box_detail(state, 6) == "A R100\nraise 1, 2"
    state = apply(state, az.turn_community(state))
    # Box 2: A A 2 + K Q: a pair of aces (1 to 1); box 6: A A 3 + K Q, the same.
    blocks = reveal_blocks(state)
    assert [b.title for b in blocks] == ["Box 2: AH AS 2C + KS QD", "Box 6: AD AC 3C + KS QD"]
    assert [(r.caption, r.amount, r.tone) for r in blocks[1].rows] == [
        ("A pair of aces", "1:1", "even"), ("Ante R100 wins 1:1", "PAY R100", "pay"),
        ("Raise 1 R100 wins 1:1", "PAY R100", "pay"),
        ("Raise 2 R100 wins 1:1", "PAY R100", "pay"), ("Box in all", "PAY R300", "pay")]
    with i18n.using("pt"):
        assert [(r.caption, r.amount) for r in reveal_blocks(state)[0].rows] == [
            ("Um par de ases", "1:1"), ("Ante R50 ganha 1:1", "PAGAR R50"),
            ("Aumento 2 R50 ganha 1:1", "PAGAR R50"), ("Posição no total", "PAGAR R100")]


def test_a_card_read_before_the_shuffle_is_a_query_and_the_shuffle_is_lit(
        ui: UI, session: Session, dealer: Any) -> None:
    ui.tap(dealer.tile(1))
    ui.tap(chip(dealer, 5_000))
    ui.tap(dealer.ids.primary)  # no more bets, but the cards were not shuffled (rule 6.5)
    assert dealer.step == "Shuffle the cards for this hand (rule 6.5)"
    assert dealer.shoe_status == "Not shuffled yet" and not dealer.ids.shuffle.disabled
    shoe(session, "AS")
    ui.pump(frames=2)
    assert kinds(session)[-1] == "card_queried" and session.state.dealt == ()
    assert dealer.alert_shown and "shuffle" in dealer.alert_text
    assert dealer.ids.key_card.disabled
    ui.screenshot("arizona-dealer-not-shuffled-800x480")
    ui.tap(dealer.ids.shuffle)
    shoe(session, "AS")
    ui.pump(frames=2)
    assert session.state.dealt == ((1, 0, Card.parse("AS")),)
    assert dealer.shoe_status == "Shuffled for this hand"
