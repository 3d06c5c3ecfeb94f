"""The players' screen of a punto banco table, readable from two metres.

What the rules ask signage to show: the table limits for every bet (rule 2.2) and the payment
odds (rule 2.6); and what players need to follow the game: "place your bets" / "no more bets"
(rules 5.2, 5.6), the result of the coup with both hands and totals (rules 5.2, 5.4, 5.7) and
the shoe's history as the five roads. Nothing on it can be touched: it only shows state.

The words come from pure functions (`headline`, `hands_view`, `limit_rows`) over the folded
state, so they are tested without drawing; the widgets lay them out with sizes relative to the
screen's height, the same design at 800x480 and at 1920x1080.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from kivy.graphics.texture import Texture
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

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.outcomes import Winner
from kiosk.rules.baccarat.roads import Roads
from kiosk.ui import theme
from kiosk.ui.card_face import CARD_ASPECT, CardFace
from kiosk.ui.signage import common  # noqa: F401  (the limit lines the .kv uses)
from kiosk.ui.signage.link import LINK_WORDS, Link, link_words
from kiosk.ui.signage.punto_banco_roads import DERIVED_COLOUR, RoadsView
from kiosk.ui.signage.punto_banco_words import (  # noqa: F401  (the sign's words, re-exported)
    HAND_COLOURS,
    KIND_COLOURS,
    TONE_COLOURS,
    HandsView,
    Headline,
    LimitRow,
    Tone,
    coup_words,
    hands_view,
    headline,
    limit_rows,
    result_detail,
    result_words,
    shoe_words,
    tally,
)
from kiosk.ui.text_label import TextLabel  # noqa: F401  (registers the class the .kv uses)

KV = Path(__file__).with_suffix(".kv")
GAME_NAME = "Punto Banco"


# --- Widgets ---------------------------------------------------------------------------------

_FELT_TEXTURE: Any = None


def felt_texture() -> Any:
    """A soft radial shading of the felt (lighter under the lamp, darker at the rail)."""
    global _FELT_TEXTURE
    if _FELT_TEXTURE is None:
        n = 64
        lo, hi = theme.FELT_DARK, theme.FELT_LIGHT
        buf = bytearray()
        for y in range(n):
            for x in range(n):
                d = min(1.0, math.hypot((x - n / 2) / (n / 2), (y - n * 0.42) / (n / 2)))
                k = (1 - d) ** 1.4
                buf += bytes(int(255 * (lo[i] + (hi[i] - lo[i]) * k)) for i in range(3))
        tex = Texture.create(size=(n, n), colorfmt="rgb")
        tex.blit_buffer(bytes(buf), colorfmt="rgb", bufferfmt="ubyte")
        tex.mag_filter = tex.min_filter = "linear"
        _FELT_TEXTURE = tex
    return _FELT_TEXTURE


class SidewaysCard(Widget):  # type: ignore[misc]
    """A third card, laid sideways as the dealer places it (rule 5.2's drawn card)."""

    code = StringProperty("")


class HandPanel(BoxLayout):  # type: ignore[misc]
    """One hand: its name on a band of its colour, the cards, and the total (rule 5.4)."""

    hand = StringProperty("Player")
    colour = ColorProperty(theme.PLAYER)
    cards = ListProperty([])
    total = StringProperty("")
    winner = BooleanProperty(False)
    unit = NumericProperty(10.0)

    def on_kv_post(self, _base: Any) -> None:
        self.ids.cards.bind(pos=self._place_cards, size=self._place_cards)
        self.on_cards(self, self.cards)

    def on_cards(self, _inst: Any, cards: list[str]) -> None:
        if "cards" not in self.ids:
            return
        row = self.ids.cards
        row.clear_widgets()
        # Two places for the first two cards (rule 5.2), the third card sideways when drawn.
        for i in range(max(2, len(cards))):
            code = cards[i] if i < len(cards) else ""
            row.add_widget(SidewaysCard(code=code) if i == 2 else CardFace(code=code))
        self._place_cards()

    def _place_cards(self, *_args: Any) -> None:
        """Cards of one size in both panels, centred; the sideways third as wide as a card
        is tall."""
        row = self.ids.cards
        faces = list(reversed(row.children))
        if not faces or row.width <= 0 or row.height <= 0:
            return
        gap = self.unit * 0.9
        h = min(row.height, (row.width - 4 * gap) / (2 * CARD_ASPECT + 1))
        w = h * CARD_ASPECT
        widths = [h if isinstance(f, SidewaysCard) else w for f in faces]
        x = row.center_x - (sum(widths) + gap * (len(faces) - 1)) / 2
        for face, fw in zip(faces, widths, strict=True):
            if isinstance(face, SidewaysCard):
                face.size = (fw, w)
            else:
                face.size = (fw, h)
            face.pos = (x, row.center_y - face.height / 2)
            x += fw + gap


class AskRoad(BoxLayout):  # type: ignore[misc]
    """One side of the ask road: the marks big eye boy, small road and cockroach pig would
    add if the next coup were this side's (kiosk/rules/baccarat/roads.py `predict`), drawn
    as those roads draw them: a ring, a dot, a slash; a grey dash where a road adds none."""

    text = StringProperty("")
    colour = ColorProperty(theme.BANKER)
    unit = NumericProperty(10.0)
    marks = ListProperty([None, None, None])

    def on_kv_post(self, _base: Any) -> None:
        self.ids.marks.bind(pos=self._draw, size=self._draw)
        self.bind(marks=self._draw, unit=self._draw)

    def _draw(self, *_args: Any) -> None:
        from kivy.graphics import Color, Ellipse, Line

        box = self.ids.marks
        box.canvas.clear()
        r = self.unit * 0.9
        with box.canvas:
            for i, (style, mark) in enumerate(zip(("ring", "dot", "slash"), self.marks,
                                                  strict=True)):
                cx = box.x + r + i * 3 * r
                cy = box.center_y
                if mark is None:
                    Color(*theme.MUTED)
                    Line(points=[cx - r * 0.6, cy, cx + r * 0.6, cy], width=1.2)
                    continue
                Color(*DERIVED_COLOUR[mark])
                if style == "ring":
                    Line(circle=(cx, cy, r, 0, 360, theme.segments(r)),
                         width=max(1.0, r * 0.28))
                elif style == "dot":
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r),
                            segments=theme.segments(r))
                else:
                    Line(points=[cx - r, cy - r, cx + r, cy + r], width=max(1.0, r * 0.28))


class TallyItem(BoxLayout):  # type: ignore[misc]
    """A coloured dot and a count, above the roads."""

    colour = ColorProperty(theme.WHITE)
    text = StringProperty("")
    unit = NumericProperty(10.0)


class Plaque(BoxLayout):  # type: ignore[misc]
    """One bet kind's limits (rule 2.2) and payout (rule 2.6)."""

    name = StringProperty("")
    colour = ColorProperty(theme.BANKER)
    minimum = StringProperty("")
    maximum = StringProperty("")
    pays = StringProperty("")
    note = StringProperty("")
    unit = NumericProperty(10.0)
    pays_words = StringProperty("")  # "PAYS 19:20", "PAYS 1:1 less 5% commission" (the .kv)


class PuntoBancoSignage(BoxLayout):  # type: ignore[misc]
    """The whole players' screen; call `show(state, link)` whenever either changes."""

    table_name = StringProperty("")
    game_name = StringProperty(GAME_NAME)
    headline = StringProperty("")
    detail = StringProperty("")
    tone = StringProperty(Tone.WAIT)
    banner_fill = ColorProperty(theme.FELT_DARK)
    banner_text = ColorProperty(theme.MUTED)
    banner_border = ColorProperty(theme.MUTED)
    hands_title = StringProperty("")
    hands_detail = StringProperty("")
    coup_text = StringProperty("")
    shoe_text = StringProperty("")
    link = StringProperty(Link.WAITING.value)
    link_text = StringProperty(LINK_WORDS[Link.WAITING])  # in the current language
    tally_banker = NumericProperty(0)  # this shoe's results (see `tally`)
    tally_player = NumericProperty(0)
    tally_tie = NumericProperty(0)
    limits = ObjectProperty(())
    state = ObjectProperty(None, allownone=True)
    notice_shown = BooleanProperty(False)  # the banner holds a notice, not the game's call
    portrait = BooleanProperty(False)  # taller than wide: one column
    unit = NumericProperty(10.0)  # 1% of the screen's height: every size is in units
    felt = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("felt", felt_texture())
        super().__init__(**kwargs)
        self.show(None, Link.WAITING)

    @property
    def roads(self) -> RoadsView:
        return self.ids.roads  # type: ignore[no-any-return]

    def show(self, state: pb.PuntoBancoState | None, link: Link = Link.LIVE) -> None:
        """Show `state` (None: no table opened yet) and how we are linked to the table."""
        self.game_name = GAME_NAME
        self.notice_shown = False
        self.state = state
        self.link, self.link_text = link.value, link_words(link)
        h = headline(state)
        self.headline, self.detail, self.tone = h.text, h.detail, h.tone
        self.banner_fill, self.banner_text, self.banner_border = TONE_COLOURS[h.tone]
        hands = hands_view(state)
        self.hands_title, self.hands_detail = hands.title, hands.detail
        for panel, cards, total, side in (
                (self.ids.player, hands.player_cards, hands.player_total, Winner.PLAYER),
                (self.ids.banker, hands.banker_cards, hands.banker_total, Winner.BANKER)):
            panel.cards = list(cards)
            panel.total = total
            panel.winner = hands.winner is side
        if state is None:
            self.limits, self.coup_text, self.shoe_text = (), "", ""
            self.tally_banker = self.tally_player = self.tally_tie = 0
            self.roads.results = ()
        else:
            self.limits = limit_rows(state.rules)
            self.coup_text = coup_words(state.coup)
            self.shoe_text = shoe_words(state)
            counts = tally(state.results)
            self.tally_banker = counts[Winner.BANKER.value]
            self.tally_player = counts[Winner.PLAYER.value]
            self.tally_tie = counts[Winner.TIE.value]
            self.roads.results = state.results
            roads = Roads.from_results(state.results)
            for ask, winner in (("ask_banker", Winner.BANKER), ("ask_player", Winner.PLAYER)):
                p = roads.predict(winner)
                self.ids[ask].marks = [p.big_eye_boy, p.small_road, p.cockroach_pig]

    def notice(self, text: str, detail: str, link: Link = Link.LIVE) -> None:
        """Words instead of a table (e.g. its game changed and nothing here can show it):
        no limits, cards or roads, which could be another game's or out of date."""
        self.show(None, link)
        self.game_name = ""
        self.notice_shown = True
        self.headline, self.detail, self.tone = text, detail, Tone.WAIT
        # Ivory words in a gold frame: a message for the players, not a table waiting.
        self.banner_fill, self.banner_text, self.banner_border = (
            theme.FELT_DARK, theme.IVORY, theme.GOLD)

    def interrupt(self, title: str, detail: str) -> None:
        """Words in place of the game's call (the table paused, the inspector attending):
        the limits, cards and roads stay."""
        self.headline, self.detail, self.tone = title, detail, Tone.WAIT
        self.banner_fill, self.banner_text, self.banner_border = (
            theme.FELT_DARK, theme.IVORY, theme.WARNING)

    def on_limits(self, _inst: Any, rows: tuple[LimitRow, ...]) -> None:
        box = self.ids.plaques
        box.clear_widgets()
        for row in rows:
            box.add_widget(Plaque(name=row.name, colour=KIND_COLOURS[row.kind],
                                  minimum=row.minimum, maximum=row.maximum, pays=row.pays,
                                  note=row.note, unit=self.unit))

    def on_unit(self, _inst: Any, unit: float) -> None:
        if "plaques" in self.ids:
            for plaque in self.ids.plaques.children:
                plaque.unit = unit


def load_kv() -> None:
    """Load punto_banco_view.kv once (the rules for the classes above)."""
    if str(KV) not in Builder.files:
        Builder.load_file(str(KV))


load_kv()
