"""The players' blackjack screen: the words from the state, and drawn for real at 1920x1080
and 800x480 with pixel checks. Rules 2.2 (limits), 2.6 with 4.7 / 7.7 (odds), 4.2 / 7.2 (the
dealer's rule and the calls), 4.1-4.7 shuffle and cut (the burned card is never shown)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.rules.operations import Operation
from kiosk.ui import theme
from tests.ui.conftest import UI

RULES = BlackjackRules(chips=ChipRule(500), minimum=5_000, maximum=1_000_000)
BURNED = "QD"  # the burn card of every state below; it must never reach the screen

Colour = tuple[float, float, float, float]


class Play:
    """A state folded from the engine's own actions."""

    def __init__(self, rules: BlackjackRules = RULES) -> None:
        self.state = bj.apply(bj.initial_state(rules, ""), bj.open_table(rules, "BJ-01"))

    def do(self, action: Callable[[bj.BlackjackState], Operation]) -> Play:
        self.state = bj.apply(self.state, action(self.state))
        return self

    def cards(self, codes: str) -> Play:
        for code in codes.split():
            self.do(lambda s, c=code: bj.shoe_card(s, Card.parse(c)))
        return self

    def ready(self) -> Play:
        half = 26 * self.state.rules.decks  # the middle of the stack (rule 4.4)
        self.do(bj.shuffle).do(lambda s: bj.cut_cards(s, 1, half, min(78, half)))
        return self.cards(BURNED)  # rule 4.7 (shuffle and cut): burned unseen


def _round(play: Play, settle: bool = True) -> Play:
    play.do(lambda s: bj.place_bet(s, 1, 10_000)).do(lambda s: bj.place_bet(s, 3, 5_000))
    play.do(bj.close_betting).cards("TS 9H 6D 8C 7H")  # box 1 18, box 3 16, dealer 6
    play.do(bj.stand).do(bj.stand).cards("TC 4S")  # the dealer: 16 draws, 20
    if settle:
        play.do(bj.confirm_payouts)
    return play


def close_to(pixel: tuple[int, int, int], colour: Colour, tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(pixel, colour[:3], strict=False))


def share(frame: Any, x: float, y: float, w: float, h: float, colour: Colour) -> float:
    counts = frame.region_colours(x, y, w, h, step=3)
    hits = sum(n for c, n in counts.items() if close_to(c, colour))
    return hits / max(1, sum(counts.values()))


# --- the words (no drawing) ---------------------------------------------------------------


def test_the_calls_follow_the_round() -> None:
    from kiosk.ui.signage.blackjack_view import Tone, headline

    assert headline(None).tone is Tone.WAIT
    play = Play()
    assert headline(play.state).text == "Shuffling"  # rule 4.1.1 (shuffle and cut)
    play.do(bj.shuffle)
    assert headline(play.state).text == "Cutting the cards"  # rule 4.2
    play.do(lambda s: bj.cut_cards(s, 1, 104, 78))
    h = headline(play.state)
    assert (h.text, h.detail, h.tone) == ("Place your bets", "Bets R50 – R10,000 per box",
                                          Tone.BETS)  # rule 4.2 item 1, rule 2.2
    play.cards(BURNED)
    play.do(lambda s: bj.place_bet(s, 1, 10_000)).do(bj.close_betting)
    assert headline(play.state).text == "No more bets"  # rule 4.2 item 3
    play.cards("TS AD")
    h = headline(play.state)
    assert h.text == "No more bets"
    play.cards("9S")  # the dealer shows an ace: insurance (rule 4.7)
    h = headline(play.state)
    assert h.text == "Insurance?" and "insurance pays 2:1" in h.detail
    play.do(bj.close_insurance)
    assert headline(play.state).text == "Box 1 to play"
    play.do(bj.stand)
    assert headline(play.state).text == "Dealer's hand"
    play.cards("6C")  # soft 17: stands on all 17s (rule 4.2)
    assert headline(play.state).text == "Dealer 17"
    touch = Play(BlackjackRules.touch_21(chips=ChipRule(500)))
    touch.ready().do(lambda s: bj.place_bet(s, 1, 10_000)).do(bj.close_betting)
    touch.cards("TS 5D 9S")
    assert headline(touch.state).text == "Check your cards"  # rule 7.2 items 4-5


def test_dealer_rule_odds_and_last_round() -> None:
    from kiosk.ui.signage.blackjack_words import dealer_view, dealer_words, odds_rows

    assert dict(odds_rows(RULES)) == {"Blackjack": "3:2", "Insurance": "2:1",
                                      "Even money": "1:1"}  # rules 2.6, 4.7
    assert RULES.dealer_rule == "Dealer draws to 16, stands on all 17s"
    assert BlackjackRules.touch_21().dealer_rule.startswith("Dealer draws to soft 17")
    play = _round(Play().ready())
    view = dealer_view(play.state)
    assert (view.title, view.cards, view.total, view.words) == (
        "Last round", ("6D", "TC", "4S"), "20", "Dealer 20")
    assert dealer_words(tuple(Card.parse(c) for c in ("AS", "KD"))) == "Dealer blackjack"
    assert dealer_words(tuple(Card.parse(c) for c in ("TS", "6D", "9C"))) == \
        "Dealer busts with 25"


def test_the_view_imports_neither_sqlite_nor_the_session() -> None:
    from kiosk.ui.signage import blackjack_view

    tree = ast.parse(Path(blackjack_view.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {m for m in names if "sqlite" in m or m.startswith(("kiosk.table",
                                                                   "kiosk.store"))}


# --- drawn ----------------------------------------------------------------------------------


def _mount(ui: UI, size: tuple[int, int], rules: BlackjackRules | None,
           state: bj.BlackjackState | None) -> Any:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage

    view = BlackjackSignage(table_name="Salon Privé 3")
    view.show(rules, state)
    ui.window.add_widget(view)
    ui.resize(*size)
    ui.pump(0.05)
    assert tuple(view.size) == size
    return view


def _no_burned_card(view: Any) -> None:
    texts = view.texts()
    assert texts, "the view shows text"
    for t in texts:
        assert BURNED not in t and "queen of diamonds" not in t.lower(), t


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)])
def test_signage_after_a_round(ui: UI, size: tuple[int, int]) -> None:
    w, h = size
    play = _round(Play().ready())
    play.do(lambda s: bj.place_bet(s, 2, 5_000))
    view = _mount(ui, size, play.state.rules, play.state)
    ids = view.ids
    assert ids.headline.text == "PLACE YOUR BETS"
    assert ids.table_name.text == "Salon Privé 3" and ids.game_name.text == "BLACKJACK"
    assert (ids.min_line.ids.amount.text, ids.max_line.ids.amount.text) == (
        "R50", "R10,000")  # rule 2.2
    rows = {r.name: r.pays for r in ids.odds.children}
    assert rows == {"Blackjack": "3:2", "Insurance": "2:1", "Even money": "1:1"}  # 2.6
    assert ids.dealer_rule.text == "Dealer draws to 16, stands on all 17s"
    assert [c.code for c in reversed(ids.dealer_cards.children)] == ["6D", "TC", "4S"]
    assert ids.dealer_total.text == "20" and ids.dealer_words.text == "Dealer 20"
    # 1 burned + 9 dealt of 312; the cutting card 78 cards from the back (rule 4.5)
    assert ids.shoe_text.text == "3% of the shoe dealt · cutting card at 75%"
    _no_burned_card(view)
    frame = ui.frame()
    ui.screenshot(f"bj-signage-{w}x{h}")
    # The felt covers much of the screen; the limits plaque is ivory; the call is in gold.
    assert share(frame, 0, 0, w, h, theme.FELT) > 0.1
    lim = ids.limits
    assert share(frame, lim.x, lim.y, lim.width, lim.height, theme.IVORY) > 0.4
    for label in (ids.headline, ids.table_name, ids.min_line.ids.amount, ids.dealer_total):
        counts = frame.region_colours(label.x, label.y, label.width, label.height, step=2)
        assert len(counts) > 3, f"{label.text!r} is not drawn"
    hl = ids.headline
    assert share(frame, hl.x, hl.y, hl.width, hl.height, theme.GOLD) > 0.02
    # Everything is inside the screen; the headline fits its banner.
    for wid in (ids.banner, ids.dealer, ids.odds_panel, ids.limits, ids.shoe_bar):
        assert wid.x >= 0 and wid.y >= 0 and wid.right <= w + 1 and wid.top <= h + 1, wid
    assert hl.texture_size[0] <= hl.width + 1
    if size == (1920, 1080):
        assert hl.texture_size[1] >= 0.06 * h  # readable from two metres
    # The shoe bar: dealt part in gold at its start, the cutting card's marker in red.
    bar = ids.shoe_bar
    assert close_to(frame.pixel(bar.x + bar.height * 0.6, bar.center_y), theme.GOLD)
    assert close_to(frame.pixel(bar.x + bar.width * 0.5, bar.center_y), theme.FELT_DARK)
    cx = bar.x + bar.width * float(play.state.cutting_card_at)
    assert close_to(frame.pixel(cx, bar.center_y), theme.BANKER)


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)])
def test_signage_while_shuffling_and_during_a_round(ui: UI, size: tuple[int, int]) -> None:
    w, h = size
    view = _mount(ui, size, None, None)
    assert view.ids.headline.text == "WELCOME" and view.ids.min_line.ids.amount.text == ""
    play = Play(BlackjackRules.touch_21(chips=ChipRule(500)))
    view.show(play.state.rules, play.state)
    ui.pump(frames=2)
    assert view.ids.headline.text == "SHUFFLING" and view.ids.game_name.text == "TOUCH 21"
    assert view.ids.dealer_rule.text == "Dealer draws to soft 17, stands on hard 17"  # 7.2
    frame = ui.frame()
    bn = view.ids.banner
    assert close_to(frame.pixel(bn.x + view.unit * 0.9, bn.center_y), theme.FELT_DARK)
    ui.screenshot(f"bj-signage-shuffling-{w}x{h}")
    play.ready().do(lambda s: bj.place_bet(s, 1, 10_000)).do(bj.close_betting)
    play.cards("TS 7D")
    view.show(play.state.rules, play.state)
    ui.pump(frames=2)
    assert view.ids.headline.text == "NO MORE BETS"
    assert [c.code for c in reversed(view.ids.dealer_cards.children)] == ["7D"]
    _no_burned_card(view)
    frame = ui.frame()
    # "No more bets" is an ivory banner (as on the punto banco signage).
    assert close_to(frame.pixel(bn.x + view.unit * 0.9, bn.center_y), theme.IVORY)
    ui.screenshot(f"bj-signage-no-more-bets-{w}x{h}")


def test_the_dealers_total_fits_its_place() -> None:
    from kiosk.rules.blackjack.hands import Total
    from kiosk.ui.signage.blackjack_view import dealer_view, total_words

    # A soft total while the dealer draws, as players know it; the final total as a number.
    assert total_words(Total(7, True), final=False) == "7/17"
    assert total_words(Total(9, True), final=True) == "19"
    assert total_words(Total(11, True), final=False) == "21"
    assert total_words(Total(24, False), final=True) == "Bust"
    touch = Play(BlackjackRules.touch_21(chips=ChipRule(500))).ready()
    touch.do(lambda s: bj.place_bet(s, 1, 10_000)).do(bj.close_betting)
    touch.cards("TS 6D 8S").do(bj.check_blackjacks).do(bj.stand).cards("AC")
    assert dealer_view(touch.state).total == "7/17"  # rule 7.2: draws to soft 17
    touch.cards("2D").do(bj.confirm_payouts)
    view = dealer_view(touch.state)
    assert (view.cards, view.total, view.words) == (("6D", "AC", "2D"), "19", "Dealer 19")
