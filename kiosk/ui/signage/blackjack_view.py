"""The players' screen of a blackjack (or Touch 21) table, readable from two metres.

What the rules ask signage to show: the table limits (rule 2.2) and the payment odds (rule
2.6: blackjack 3:2, insurance 2:1, even money 1:1, rules 4.7 and 7.7); and what players need
to follow the game: the dealer's drawing rule (rules 4.2, 7.2), "place your bets" / "no more
bets" (rule 4.2 items 1 and 3), the shuffle and the cut, the dealer's cards and total of the
last round, and how far into the shoe the game is, with the cutting card's place; and, as
on the punto banco signage, a discreet mark of the link to the table (green while live).

The burned card is never shown (rule 4.7 shuffle and cut): nothing here reads it. The inputs
are pure (a `BlackjackRules` and a `BlackjackState`); how they reach the signage process (the
journal, a socket) is not this module's business, so it imports neither SQLite nor the table
session. The words come from pure functions, tested without drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.hands import Total, is_blackjack, total
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.ui import theme
from kiosk.ui.card_face import CARD_ASPECT, CardFace
from kiosk.ui.signage.link import LINK_WORDS, Link

KV = Path(__file__).with_suffix(".kv")


class Tone(StrEnum):
    BETS = "bets"
    CLOSED = "closed"
    SHUFFLE = "shuffle"
    RESULT = "result"
    WAIT = "wait"


# (fill, text, border) of the headline banner per tone.
TONE_COLOURS: dict[Tone, tuple[theme.RGBA, theme.RGBA, theme.RGBA]] = {
    Tone.BETS: (theme.FELT_DARK, theme.GOLD, theme.GOLD),
    Tone.CLOSED: (theme.IVORY, theme.INK, theme.GOLD),
    Tone.SHUFFLE: (theme.FELT_DARK, theme.IVORY, theme.GOLD),
    Tone.RESULT: (theme.BANKER, theme.WHITE, theme.GOLD),
    Tone.WAIT: (theme.FELT_DARK, theme.MUTED, theme.MUTED),
}


@dataclass(frozen=True, slots=True)
class Headline:
    text: str
    detail: str
    tone: Tone


def _round_started(state: bj.BlackjackState) -> bool:
    return bool(state.dealer) or any(h.cards for h in state.hands)


def headline(state: bj.BlackjackState | None) -> Headline:
    """What the players must know now, in the words the dealer calls."""
    if state is None:
        return Headline("Welcome", "The table opens shortly", Tone.WAIT)
    rules = state.rules
    prep = state.prep
    if state.phase is bj.Phase.BETTING and prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE):
        return Headline("Shuffling", "A new shoe is being prepared", Tone.SHUFFLE)  # rule 4.1
    if state.phase is bj.Phase.BETTING and prep.stage is Stage.CUT:
        box = prep.offered_to()
        who = f"Box {box} is offered the cut" if box is not None else "A player cuts the cards"
        return Headline("Cutting the cards", who, Tone.SHUFFLE)  # rules 4.2-4.3
    if state.phase is bj.Phase.BETTING:
        return Headline("Place your bets", f"Bets {rules.limits_text()} per box",
                        Tone.BETS)  # rule 4.2 item 1
    if state.phase is bj.Phase.DEALING:
        return Headline("No more bets", f"Round {state.round}", Tone.CLOSED)  # item 3
    if state.phase is bj.Phase.CHECK:  # Touch 21, rule 7.2 items 4-5
        return Headline("Check your cards", "A blackjack is turned face up", Tone.CLOSED)
    if state.phase is bj.Phase.INSURANCE:  # rule 4.7; rule 7.2 item 6
        odds = dict(rules.odds())
        detail = f"Dealer shows an ace · insurance pays {odds['Insurance']}"
        if rules.even_money:
            detail += " · even money on a blackjack"
        return Headline("Insurance?", detail, Tone.CLOSED)
    if state.phase is bj.Phase.PLAYING:
        cur = state.current
        text = f"Box {cur.box} to play" if cur is not None else "No more bets"
        return Headline(text, "No more bets", Tone.CLOSED)
    if state.phase is bj.Phase.DEALER:
        return Headline("Dealer's hand", rules.dealer_rule, Tone.CLOSED)
    return Headline(dealer_words(state.dealer), "Paying", Tone.RESULT)


def dealer_words(cards: tuple[Any, ...]) -> str:
    """ "Dealer 19", "Dealer blackjack", "Dealer busts with 24"."""
    if not cards:
        return "No dealer card needed"
    t = total(cards)
    if is_blackjack(cards):
        return "Dealer blackjack"
    if t.bust:
        return f"Dealer busts with {t.hard}"
    return f"Dealer {t.best}"


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's cards for the players: this round's while it is played, else the last."""

    title: str
    cards: tuple[str, ...]
    total: str
    words: str


def total_words(t: Total, *, final: bool) -> str:
    """The dealer's total in the big figures: "20"; a soft total still drawing as the pair
    players know, "7/17" (the dealer's words, "soft 17 / 7", do not fit); "Bust"."""
    if t.bust:
        return "Bust"
    if t.soft and t.best != 21 and not final:
        return f"{t.hard}/{t.best}"
    return str(t.best)


def dealer_view(state: bj.BlackjackState | None) -> DealerView:
    if state is not None and _round_started(state):
        final = state.phase is bj.Phase.PAYING  # the headline says the dealer's result
        t = total_words(state.dealer_total, final=final) if state.dealer else ""
        return DealerView(f"Round {state.round}", tuple(c.code for c in state.dealer), t, "")
    last = state.last_settled if state is not None else None
    if last is None:
        return DealerView("Last round", (), "", "")
    cards = last.dealer_cards
    t = total_words(total(cards), final=True) if cards else ""
    return DealerView("Last round", tuple(c.code for c in cards), t, dealer_words(cards))


def odds_rows(rules: BlackjackRules) -> tuple[tuple[str, str], ...]:
    """Rule 2.6 with rules 4.7 / 7.7, from the table's own configuration."""
    return rules.odds()


def shoe_words(state: bj.BlackjackState | None) -> str:
    if state is None or state.shoe is None:
        return "New shoe"
    text = f"{round(100 * state.penetration)}% of the shoe dealt"
    if state.prep.cutting_card_from_back:
        text += f" · cutting card at {round(100 * state.cutting_card_at)}%"
    return text


# --- Widgets ---------------------------------------------------------------------------------


class BjSignCards(Widget):  # type: ignore[misc]
    """A row of cards, centred, of one size."""

    codes = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._layout, size=self._layout)

    def on_codes(self, _inst: Any, codes: list[str]) -> None:
        self.clear_widgets()
        for code in codes or [""]:
            self.add_widget(CardFace(code=code))
        self._layout()

    def _layout(self, *_args: Any) -> None:
        faces = list(reversed(self.children))
        if not faces or self.width <= 0 or self.height <= 0:
            return
        n = len(faces)
        h = self.height
        w = h * CARD_ASPECT
        gap = w * 0.1
        if n * w + (n - 1) * gap > self.width:
            w = (self.width - (n - 1) * gap) / n
            h = w / CARD_ASPECT
        x = self.center_x - (n * w + (n - 1) * gap) / 2
        for face in faces:
            face.size = (w, h)
            face.pos = (x, self.center_y - h / 2)
            x += w + gap


class BjShoeBar(Widget):  # type: ignore[misc]
    """How far into the shoe the game is (gold) and where the cutting card waits (red)."""

    dealt = NumericProperty(0.0)  # 0..1, a display fraction (not money)
    cut_at = NumericProperty(1.0)
    unit = NumericProperty(10.0)


class BjOddsRow(BoxLayout):  # type: ignore[misc]
    name = StringProperty("")
    pays = StringProperty("")
    unit = NumericProperty(10.0)


class BlackjackSignage(BoxLayout):  # type: ignore[misc]
    """The whole players' screen; call `show(rules, state)` whenever either changes."""

    table_name = StringProperty("")
    game_name = StringProperty("Blackjack")
    headline = StringProperty("")
    detail = StringProperty("")
    banner_fill = ColorProperty(theme.FELT_DARK)
    banner_text = ColorProperty(theme.MUTED)
    banner_border = ColorProperty(theme.MUTED)
    dealer_title = StringProperty("")
    dealer_total = StringProperty("")
    dealer_words = StringProperty("")
    dealer_rule = StringProperty("")
    limits = StringProperty("")
    minimum = StringProperty("")
    maximum = StringProperty("")
    shoe_text = StringProperty("")
    dealt = NumericProperty(0.0)
    cut_at = NumericProperty(1.0)
    odds = ObjectProperty(())
    link = StringProperty(Link.LIVE.value)
    link_text = StringProperty(LINK_WORDS[Link.LIVE])
    unit = NumericProperty(10.0)  # 1% of the screen's height: every size is in units

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(height=self._unit)
        self._unit()

    def _unit(self, *_args: Any) -> None:
        self.unit = max(4.0, self.height / 100)

    def show(self, rules: BlackjackRules | None, state: bj.BlackjackState | None,
             link: Link = Link.LIVE) -> None:
        """Show the table's rules and state (None: nothing known yet) and how we are linked
        to the table."""
        from kiosk.rules.money import format_money

        self.link, self.link_text = link.value, LINK_WORDS[link]
        h = headline(state)
        self.headline, self.detail = h.text, h.detail
        self.banner_fill, self.banner_text, self.banner_border = TONE_COLOURS[h.tone]
        d = dealer_view(state)
        self.dealer_title, self.dealer_total, self.dealer_words = d.title, d.total, d.words
        self.ids.dealer_cards.codes = list(d.cards)
        if rules is None:
            self.game_name, self.dealer_rule, self.limits = "Blackjack", "", ""
            self.minimum = self.maximum = ""
            self.odds = ()
        else:
            self.game_name = rules.game_name
            self.dealer_rule = rules.dealer_rule
            self.limits = rules.limits_text()
            self.minimum = format_money(rules.minimum, rules.currency)
            self.maximum = format_money(rules.maximum, rules.currency)
            self.odds = odds_rows(rules)
        self.shoe_text = shoe_words(state)
        self.dealt = float(state.penetration) if state is not None else 0.0
        self.cut_at = float(state.cutting_card_at) if state is not None else 1.0

    def on_odds(self, _inst: Any, rows: tuple[tuple[str, str], ...]) -> None:
        box = self.ids.odds
        box.clear_widgets()
        for name, pays in rows:
            row = BjOddsRow(name=name, pays=pays, unit=self.unit)
            self.bind(unit=row.setter("unit"))
            box.add_widget(row)

    def texts(self) -> list[str]:
        """Every text on the screen (for checks that nothing secret is shown)."""
        out = []
        for w in self.walk():
            text = getattr(w, "text", None)
            if isinstance(text, str):
                out.append(text)
            code = getattr(w, "code", None)
            if isinstance(code, str):
                out.append(code)
        return out


def load_kv() -> None:
    if str(KV) not in Builder.files:
        Builder.load_file(str(KV))


load_kv()
