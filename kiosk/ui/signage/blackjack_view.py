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

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.i18n import money
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.ui import theme
from kiosk.ui.card_face import CARD_ASPECT, CardFace
from kiosk.ui.signage.blackjack_words import (  # noqa: F401  (the sign's words, re-exported)
    TONE_COLOURS,
    DealerView,
    Headline,
    Tone,
    dealer_rule,
    dealer_view,
    headline,
    hole_card,
    limits_words,
    odds_rows,
    shoe_words,
    total_words,
)
from kiosk.ui.signage.common import sign_unit
from kiosk.ui.signage.link import LINK_WORDS, Link, link_words

KV = Path(__file__).with_suffix(".kv")


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
    hole_card = StringProperty("")  # no hole card, and what a dealer blackjack takes
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

    portrait = BooleanProperty(False)  # taller than wide: one column

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(size=self._unit)
        self._unit()

    def _unit(self, *_args: Any) -> None:
        self.unit = sign_unit(self.width, self.height)

    def show(self, rules: BlackjackRules | None, state: bj.BlackjackState | None,
             link: Link = Link.LIVE) -> None:
        """Show the table's rules and state (None: nothing known yet) and how we are linked
        to the table."""
        self.link, self.link_text = link.value, link_words(link)
        h = headline(state)
        self.headline, self.detail = h.text, h.detail
        self.banner_fill, self.banner_text, self.banner_border = TONE_COLOURS[h.tone]
        d = dealer_view(state)
        self.dealer_title, self.dealer_total, self.dealer_words = d.title, d.total, d.words
        self.ids.dealer_cards.codes = list(d.cards)
        if rules is None:
            self.game_name, self.dealer_rule, self.limits = "Blackjack", "", ""
            self.hole_card = ""
            self.minimum = self.maximum = ""
            self.odds = ()
        else:
            self.game_name = rules.game_name
            self.dealer_rule = dealer_rule(rules)
            self.hole_card = hole_card(rules)
            self.limits = limits_words(rules)
            self.minimum = money(rules.minimum, rules.currency)
            self.maximum = money(rules.maximum, rules.currency)
            self.odds = odds_rows(rules)
        self.shoe_text = shoe_words(state)
        self.dealt = float(state.penetration) if state is not None else 0.0
        self.cut_at = float(state.cutting_card_at) if state is not None else 1.0

    def interrupt(self, title: str, detail: str) -> None:
        """Words in place of the game's call (the table paused, the inspector attending):
        the limits, odds and cards stay."""
        self.headline, self.detail = title, detail
        self.banner_fill, self.banner_text, self.banner_border = (
            theme.FELT_DARK, theme.IVORY, theme.WARNING)

    def on_odds(self, _inst: Any, rows: tuple[tuple[str, str], ...]) -> None:
        box = self.ids.odds
        box.clear_widgets()
        for name, pays in rows:
            box.add_widget(BjOddsRow(name=name, pays=pays, unit=self.unit))

    def on_unit(self, _inst: Any, unit: float) -> None:
        # The rows are made again in each language: set their unit rather than bind them
        # to ours, which would keep every row ever made alive.
        if "odds" in self.ids:
            for row in self.ids.odds.children:
                row.unit = unit

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
