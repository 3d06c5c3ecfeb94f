"""The Arizona Hold'em sign (the Mpumalanga table game rules, section 6): its words from the
folded state, and the view drawn for real at every sign size and in every language. The
states are played through the engine, as a table plays them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.arizona import engine as az
from kiosk.rules.cards import deck, parse_cards
from kiosk.rules.money import ChipRule
from kiosk.ui.signage.arizona_words import Card, Hand, hand, sign_words
from kiosk.ui.signage.link import Link
from tests.ui.conftest import UI
from tests.ui.layout import SIZES, contrast_problems, problems
from tests.ui.test_layout_signs import (
    CASE_IDS,
    CASES,
    LONGEST_NAME,
    TEN_MILLION,
    shortened,
)

GAME = az.ArizonaHoldem()
RULES = az.ArizonaRules(minimum=1_000, maximum=10_000, boxes=7)
BIG = az.ArizonaRules(minimum=TEN_MILLION // 10, maximum=TEN_MILLION, boxes=7,
                      chips=ChipRule(500))
# One box's hands, dealt in rule 6.2's order (its card, a community card, its card, the
# other community card, its last card), oldest first.
HANDS = (
    ("9S 5C 9H KD 2D", "A pair of nines"),
    ("7S 7C 7H 2D 7D", "Four sevens"),
    ("QS 5S 9S 7S 2S", "A flush, queen high"),
    ("7S 3C 7H KD 3D", "Two pairs, sevens and threes"),
    ("3H 6H 4H 7H 5H", "A straight flush, seven high"),
    ("7S 7D 7H 3C 3D", "A full house, sevens full of threes"),
)


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The sign's words in the language of the test's parameter, English again after."""
    code = str(request.param)
    i18n.use(code)
    yield code
    i18n.use(i18n.SOURCE)


class Table:
    """A table whose every record goes through the engine, as the session's do."""

    def __init__(self, rules: az.ArizonaRules = RULES) -> None:
        self.state = GAME.initial_state(rules, "AZ-1")
        self.do(GAME.open_table(rules, "AZ-1"))

    def do(self, op: Any) -> Any:
        self.state = GAME.apply(self.state, op)
        return op

    def deal(self, codes: str) -> None:
        for card in parse_cards(codes.split()):
            self.do(GAME.shoe_card(self.state, card))

    def antes(self, antes: dict[int, int]) -> None:
        self.do(az.shuffle(self.state))
        for box, amount in antes.items():
            self.do(az.place_bet(self.state, box, amount))
        self.do(az.close_betting(self.state))

    def circle(self, circle: int, raising: bool = True) -> None:
        for box in self.state.boxes:
            act = az.raise_bet if raising else az.check
            self.do(act(self.state, box, circle))

    def one_box_round(self, codes: str) -> None:
        self.antes({1: self.state.rules.minimum})
        self.deal(codes)
        self.circle(1)
        self.do(az.turn_community(self.state))
        self.circle(2)
        self.do(az.turn_community(self.state))
        self.do(az.confirm_payouts(self.state))


def seven_boxes(rules: az.ArizonaRules = BIG, dealt: bool = True) -> Table:
    """Six rounds settled (the hands above), then seven boxes at the largest ante (and the
    deal: 21 cards to the players, two community cards)."""
    t = Table(rules)
    for codes, _words in HANDS:
        t.one_box_round(codes)
    t.antes({box: rules.maximum for box in range(1, 8)})
    if dealt:
        t.deal(" ".join(c.code for c in deck()[:23]))
    return t


# --- the words -----------------------------------------------------------------------------


def test_the_call_follows_rule_6_2() -> None:
    t = Table()
    assert sign_words(t.state).headline == "PLACE YOUR BETS"
    t.antes({2: 1_000, 5: 2_000})
    assert sign_words(t.state).headline == "NO MORE BETS"
    t.deal("AS KS QS JS TS 9S 8S 7S")
    w = sign_words(t.state)
    assert (w.headline, w.detail) == ("CIRCLE 1: RAISE OR CHECK", "Box 2 to decide")
    t.do(az.raise_bet(t.state, 2, 1))
    assert sign_words(t.state).detail == "Box 5 to decide"
    t.do(az.check(t.state, 5, 1))
    assert sign_words(t.state).detail == "The dealer turns a community card"
    t.do(az.turn_community(t.state))
    assert sign_words(t.state).headline == "CIRCLE 2: RAISE OR CHECK"
    t.circle(2, raising=False)
    t.do(az.turn_community(t.state))
    assert sign_words(t.state).headline == "THE REVEAL"


def test_a_community_card_is_shown_only_once_turned() -> None:
    t = Table()
    t.antes({1: 1_000})
    assert sign_words(t.state).community == ((Card.EMPTY, ""), (Card.EMPTY, ""))
    t.deal("2C 9D 3C")  # box 1, community 1, box 1
    assert sign_words(t.state).community == ((Card.FACE_DOWN, ""), (Card.EMPTY, ""))
    t.deal("KH 4C")
    assert sign_words(t.state).community == ((Card.FACE_DOWN, ""), (Card.FACE_DOWN, ""))
    t.circle(1)
    assert sign_words(t.state).community == ((Card.FACE_DOWN, ""), (Card.FACE_DOWN, ""))
    t.do(az.turn_community(t.state))
    assert sign_words(t.state).community == ((Card.FACE_UP, "9D"), (Card.FACE_DOWN, ""))
    t.circle(2)
    t.do(az.turn_community(t.state))
    assert sign_words(t.state).community == ((Card.FACE_UP, "9D"), (Card.FACE_UP, "KH"))


def test_the_pay_table_and_the_limits() -> None:
    w = sign_words(Table().state)
    assert w.payouts[0] == ("Royal flush", i18n.odds(250))
    assert w.payouts[-1] == ("Pair of tens or better", i18n.odds(1))
    assert [p for _n, p in w.payouts] == [i18n.odds(n) for n in (250, 50, 25, 12, 10, 8, 3, 2,
                                                                 1)]
    assert dict(w.limits) == {"Ante minimum": "R10", "Ante maximum": "R100"}
    assert w.limit_captions == ("ANTE MIN", "ANTE MAX")
    assert w.raise_words == "Each raise equals the ante"


def test_the_hands_of_the_last_rounds_newest_first() -> None:
    t = Table()
    assert sign_words(t.state).best is None
    for codes, _words in HANDS:
        t.one_box_round(codes)
    w = sign_words(t.state)
    assert t.state.hands[-1] == "a full house, sevens full of threes"  # the engine's words
    assert [h.words for h in w.last] == [words for _c, words in reversed(HANDS)]
    assert w.best == hand("a full house, sevens full of threes")
    assert w.best is not None and w.best.pays == i18n.odds(12)
    assert w.last[-1].pays == "loses"  # a pair of nines: under tens (rule 6.6)
    assert hand("a pair of tens").pays == i18n.odds(1)
    assert hand("a royal flush").pays == i18n.odds(250)
    assert hand("king high").pays == "loses"
    assert hand("something else") == Hand("something else", "")  # as it is, no pay
    assert hand("four jokers").words == "four jokers" and hand("four jokers").pays == ""


def test_the_hands_in_another_language() -> None:
    with i18n.using("pt"):
        assert hand("a full house, kings full of tens").words != \
            "a full house, kings full of tens"
        assert sign_words(Table().state).headline == "FAÇAM AS SUAS APOSTAS"


# --- the view, drawn -----------------------------------------------------------------------


def _card_pixel(ui: UI, face: Any) -> tuple[int, ...]:
    """A point inside a card, near its lower left corner: the back's red, or the face's
    ivory (the suit and rank are drawn elsewhere)."""
    from kiosk.ui.card_face import CARD_ASPECT

    ch = min(face.height, face.width / CARD_ASPECT)
    cw = ch * CARD_ASPECT
    x = face.x + (face.width - cw) / 2 + cw * 0.15
    y = face.y + (face.height - ch) / 2 + ch * 0.15
    return ui.frame().pixel(*face.to_window(x, y))


def _rgb(colour: Any) -> tuple[int, ...]:
    return tuple(round(c * 255) for c in colour[:3])


def test_a_community_card_is_drawn_only_once_turned(ui: UI) -> None:
    from kiosk.ui import theme
    from kiosk.ui.signage.arizona_view import ArizonaSignage

    view = ArizonaSignage(size=(1280, 800), size_hint=(None, None))
    ui.window.add_widget(view)
    t = Table()
    t.antes({1: 1_000, 3: 1_000})
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    first, second = view.ids.community_1, view.ids.community_2
    assert _card_pixel(ui, first) == _rgb(theme.FELT_DARK)  # not dealt: an outline only
    players = "2C 5D 9D 3C 6D KH 4C 8S"  # boxes 1, 3, community 1, boxes 1, 3, community 2..
    t.deal(players)
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    assert _card_pixel(ui, first) == _rgb(theme.BANKER)  # dealt face down: its back
    assert _card_pixel(ui, second) == _rgb(theme.BANKER)
    secret = set(players.split())
    assert secret.isdisjoint(view.texts())
    t.circle(1)
    t.do(az.turn_community(t.state))
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    assert first.code == "9D" and _card_pixel(ui, first) == _rgb(theme.IVORY)
    assert _card_pixel(ui, second) == _rgb(theme.BANKER) and second.code == ""
    assert (secret - {"9D"}).isdisjoint(view.texts())
    t.circle(2, raising=False)
    t.do(az.turn_community(t.state))
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    assert second.code == "KH" and _card_pixel(ui, second) == _rgb(theme.IVORY)
    assert (secret - {"9D", "KH"}).isdisjoint(view.texts())  # no player's card, ever
    assert view.ids.headline.text == "THE REVEAL"
    ui.screenshot("arizona-signage-reveal-1280x800")


def test_the_best_hand_shows_at_the_reveal(ui: UI) -> None:
    from kiosk.ui.signage.arizona_view import ArizonaSignage

    view = ArizonaSignage(size=(1920, 1080), size_hint=(None, None))
    view.table_name = "Arizona 1"
    ui.window.add_widget(view)
    t = Table()
    t.one_box_round("TS 2C TD 9H 4C")
    t.antes({1: 1_000})
    t.deal("7S 7D 7H 3C 3D")
    t.circle(1)
    t.do(az.turn_community(t.state))
    t.circle(2)
    t.do(az.turn_community(t.state))
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    assert view.ids.best.name == "A pair of tens"  # the last round's, until this one is paid
    t.do(az.confirm_payouts(t.state))  # the reveal: the Settled record
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    assert view.ids.best.name == "A full house, sevens full of threes"
    assert view.ids.best.pays == i18n.odds(12)
    rows = list(reversed(view.ids.last.children))
    assert [(r.name, r.pays) for r in rows] == [
        ("A full house, sevens full of threes", i18n.odds(12)),
        ("A pair of tens", i18n.odds(1))]
    assert view.ids.headline.text == "PLACE YOUR BETS"
    assert view.ids.game_name.text == "Arizona Hold'em"
    ui.screenshot("arizona-signage-1920x1080")


def test_before_a_table_is_opened_and_when_interrupted(ui: UI) -> None:
    from kiosk.ui.signage.arizona_view import ArizonaSignage

    view = ArizonaSignage(size=(1024, 600), size_hint=(None, None))
    ui.window.add_widget(view)
    view.show(None, Link.WAITING)
    ui.pump(0.05)
    assert view.ids.headline.text == "ARIZONA HOLD'EM" and view.ids.title.text == \
        "Arizona Hold'em"
    assert view.ids.community_1.code == "" and not view.ids.community_1.face_down
    view.show(Table().state, Link.LIVE)
    view.interrupt("Table paused", "Back shortly")
    assert (view.ids.headline.text, view.ids.detail.text) == ("TABLE PAUSED", "Back shortly")
    view.notice("Another game", "This journal is not Arizona Hold'em's")
    assert view.ids.headline.text == "Another game"
    assert problems(view) == []


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_arizona_sign_fits(ui: UI, size: tuple[int, int], language: str) -> None:
    """Seven boxes at the largest ante, the longest name, six hands in the list: while the
    cards are dealt, in circle 2 with a community card turned, and at the reveal."""
    from kiosk.ui.signage.arizona_view import ArizonaSignage

    t = seven_boxes()
    view = ArizonaSignage(table_name=LONGEST_NAME)
    ui.window.add_widget(view)
    ui.resize(*size)
    stages = []
    view.show(t.state, Link.LIVE)  # the deal is complete: circle 1
    stages.append(("circle-1", t.state))
    t.circle(1)
    t.do(az.turn_community(t.state))
    stages.append(("circle-2", t.state))
    t.circle(2, raising=False)
    t.do(az.turn_community(t.state))
    stages.append(("reveal", t.state))
    stages.append(("dealing", seven_boxes(dealt=False).state))
    for stage, state in stages:
        view.show(state, Link.RECONNECTING if stage == "dealing" else Link.LIVE)
        ui.pump(0.1)
        ui.screenshot(f"layout-sign-arizona-{stage}-{size[0]}x{size[1]}-{language}")
        amounts = [line.ids.amount.text for line in reversed(view.ids.limits.children)]
        assert amounts == [i18n.money(TEN_MILLION // 10), i18n.money(TEN_MILLION)], stage
        assert len(view.ids.payouts.children) == 9 and len(view.ids.last.children) == 6
        assert problems(view) == [], stage
        assert shortened(view) == [], stage
        assert contrast_problems(ui.shot, view) == [], stage


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_cards_are_large_enough_to_read(ui: UI, size: tuple[int, int]) -> None:
    """The two community cards take at least a fifth of the sign's height on a landscape
    sign (a ninth on a portrait one), both whole on the screen."""
    from kiosk.ui.signage.arizona_view import ArizonaSignage

    t = seven_boxes()
    t.circle(1)
    t.do(az.turn_community(t.state))
    view = ArizonaSignage(table_name=LONGEST_NAME)
    ui.window.add_widget(view)
    ui.resize(*size)
    view.show(t.state, Link.LIVE)
    ui.pump(0.1)
    share = 9 if size[1] > size[0] else 5
    assert problems(view, min_card_height=size[1] / share) == []


@pytest.mark.parametrize("limits", ["usual", "largest"])
def test_the_ante_limits_read_from_three_metres(ui: UI, limits: str) -> None:
    """The ante's limits as tall as the other signs' at 1920x1080 on a 24" panel (15 mm; the
    largest the configuration allows, R10,000,000, at least 14.5 mm)."""
    from kiosk.ui.signage.arizona_view import ArizonaSignage
    from tests.ui.test_sign_legibility import LARGEST_MM, THREE_METRES_MM, _amounts, _short

    state = Table(az.ArizonaRules()).state if limits == "usual" else seven_boxes().state
    view = ArizonaSignage(table_name=LONGEST_NAME)
    view.show(state, Link.LIVE)
    ui.window.add_widget(view)
    ui.resize(1920, 1080)
    ui.pump(0.2)
    found = _amounts(list(reversed(view.ids.limits.children)))
    assert [text for text, _ in found] == (["R50", "R5,000"] if limits == "usual"
                                           else ["R1,000,000", "R10,000,000"])
    assert _short(found, THREE_METRES_MM if limits == "usual" else LARGEST_MM) == []


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_words_that_replace_the_call_fit(ui: UI, size: tuple[int, int],
                                             language: str) -> None:
    """The table paused, reconnecting, closed, the inspector attending: the banner's words
    in place of the call, and the link's, with the worst content."""
    from kiosk.ui.signage.arizona_view import ArizonaSignage
    from kiosk.ui.signage.interruptions import CLOSED, INSPECTOR, PAUSED, RECONNECTING

    state = seven_boxes().state
    view = ArizonaSignage(table_name=LONGEST_NAME)
    ui.window.add_widget(view)
    ui.resize(*size)
    for link, words in ((Link.PAUSED, PAUSED), (Link.RECONNECTING, RECONNECTING),
                        (Link.CLOSED, CLOSED), (Link.LIVE, INSPECTOR)):
        view.show(state, link)
        view.interrupt(*words.words())
        ui.pump(0.05)
        assert view.ids.headline.text == words.words()[0].upper()
        assert problems(view) == [], link
        assert shortened(view) == [], link
    ui.screenshot(f"layout-sign-reconnecting-ArizonaSignage-{size[0]}x{size[1]}-{language}")


def test_every_hand_the_engine_names_is_said_in_every_language() -> None:
    """Each kind of five-card hand (every multiset of ranks, unsuited and, five ranks apart,
    suited), as the engine words it, is read by the sign: it gets its pay, and no English
    rank is left in another language's words."""
    from itertools import combinations_with_replacement

    from kiosk.rules.arizona.hands import POKER_RANK_NAMES, POKER_RANK_PLURALS, evaluate
    from kiosk.rules.cards import RANKS, Card as PlayingCard

    poker_to_code = {(RANKS.index(r) - 1) % 13: r for r in RANKS}
    said = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        unsuited = [PlayingCard.parse(poker_to_code[r] + "SHDC"[i % 4]) for i, r in
                    enumerate(ranks)]
        said.add(evaluate(unsuited).words)
        if len(set(ranks)) == 5:
            said.add(evaluate([PlayingCard.parse(poker_to_code[r] + "S") for r in ranks]).words)
    assert len(said) > 300  # the words name the deciding ranks only
    english = set(POKER_RANK_NAMES + POKER_RANK_PLURALS)
    for code in i18n.available():
        with i18n.using(code):
            for words in sorted(said):
                shown = hand(words)
                assert shown.pays, (code, words)
                if code != i18n.SOURCE:
                    words_shown = set(shown.words.lower().replace(",", " ").split())
                    assert not english & words_shown, (code, words, shown.words)
