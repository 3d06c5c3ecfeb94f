"""The players' screen of an Arizona Hold'em table (the Mpumalanga table game rules, section
6), readable from three metres: the game, the call (place your bets, no more bets, each
circle's raise or check, the reveal), the two community cards (face down until turned), the
best hand of the last round and the hands of the rounds before, the ante's limits (rule
2.2; each raise equals the ante, rule 6.2) and rule 6.6's pay table. It only shows state,
and never a player's card.

Its words come from `arizona_words.sign_words` (pure); the layout (arizona_view.kv) is in
units of `sign_unit`, in one column on a portrait sign, and every text fits its box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.rules.arizona.state import ArizonaState
from kiosk.ui import theme
from kiosk.ui.card_face import CardFace  # noqa: F401  (registers the class the .kv uses)
from kiosk.ui.signage.arizona_words import GAME_NAME, ArizonaSign, Card, Hand, sign_words
from kiosk.ui.signage.common import LimitLine
from kiosk.ui.signage.link import Link, link_words

KV = Path(__file__).with_suffix(".kv")


class AzHandRow(BoxLayout):  # type: ignore[misc]
    """A hand, or a line of the pay table, and what it pays (rule 6.6)."""

    name = StringProperty("")
    pays = StringProperty("")
    unit = NumericProperty(10.0)
    font = NumericProperty(3.2)  # in units
    tall = NumericProperty(0.0)  # the row's height in units (0: a share of its box's)


class ArizonaSignage(BoxLayout):  # type: ignore[misc]
    """The sign; `show(state, link)` shows the folded state (None: no table opened yet)."""

    table_name = StringProperty("")
    game_name = StringProperty(GAME_NAME)
    headline = StringProperty(GAME_NAME.upper())
    headline_ink = ColorProperty(theme.GOLD)
    detail = StringProperty("")
    best_words = StringProperty("")
    best_pays = StringProperty("")
    raise_words = StringProperty("")
    link_text = StringProperty("")
    unit = NumericProperty(10.0)
    portrait = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.words: ArizonaSign | None = None
        self.link = Link.WAITING
        self._shown_rows: tuple[Any, ...] | None = None
        self._shown_last: tuple[Hand, ...] | None = None

    def notice(self, title: str, detail: str = "", link: Link = Link.LIVE) -> None:
        self.show(None, link)
        self.headline, self.detail = title, detail

    def show(self, state: ArizonaState | None, link: Link) -> None:
        self.link = link
        self.link_text = link_words(link)
        self.detail, self.headline_ink = "", theme.GOLD
        w = self.words = sign_words(state) if state is not None else None
        if w is None:
            self.headline = GAME_NAME.upper()
            self.best_words = self.best_pays = self.raise_words = ""
            self._community(((Card.EMPTY, ""), (Card.EMPTY, "")))
            self._rows((), (), ())
            self._last(())
            return
        self.headline, self.detail = w.headline, w.detail
        self._community(w.community)
        self.best_words = w.best.words if w.best is not None else ""
        self.best_pays = w.best.pays if w.best is not None else ""
        self.raise_words = w.raise_words
        self._rows(w.limits, w.limit_captions, w.payouts)
        self._last(w.last)

    def interrupt(self, title: str, detail: str) -> None:
        """Words in place of the game's call (the table paused, the inspector attending)."""
        self.headline, self.detail, self.headline_ink = title.upper(), detail, theme.WARNING

    def _community(self, places: tuple[tuple[Card, str], ...]) -> None:
        """Each community place: a dashed outline, a card's back, or (turned) its face."""
        for face, (how, code) in zip((self.ids.community_1, self.ids.community_2), places,
                                     strict=True):
            face.face_down = how is Card.FACE_DOWN
            face.code = code if how is Card.FACE_UP else ""

    def _rows(self, limits: tuple[tuple[str, str], ...], captions: tuple[str, ...],
              payouts: tuple[tuple[str, str], ...]) -> None:
        """The limit lines and pay rows, made again only when they change (a new
        configuration, another language): a sign left on all day makes no widgets per
        hand."""
        if (limits, captions, payouts) == self._shown_rows:
            return
        self._shown_rows = (limits, captions, payouts)
        box, grid = self.ids.limits, self.ids.payouts
        box.clear_widgets()
        grid.clear_widgets()
        for (_name, amount), caption in zip(limits, captions, strict=True):
            box.add_widget(LimitLine(caption=caption, amount=amount, caption_units=17))
        for name, pays in payouts:
            grid.add_widget(AzHandRow(name=name, pays=pays))
        self.on_unit(self, self.unit)

    def _last(self, last: tuple[Hand, ...]) -> None:
        if last == self._shown_last:
            return
        self._shown_last = last
        box = self.ids.last
        box.clear_widgets()
        for h in last:
            box.add_widget(AzHandRow(name=h.words, pays=h.pays, unit=self.unit, font=2.8,
                                   tall=3.6))

    def on_unit(self, _inst: Any, unit: float) -> None:
        # The rows are made again in each language: set their unit rather than bind them
        # to ours, which would keep every row ever made alive.
        if "limits" not in self.ids:
            return
        for box in (self.ids.limits, self.ids.payouts, self.ids.last):
            for row in box.children:
                row.unit = unit

    def texts(self) -> list[str]:
        """Every text and card on the screen (for checks that no player's card is shown)."""
        out = []
        for w in self.walk():
            for name in ("text", "code"):
                value = getattr(w, name, None)
                if isinstance(value, str) and value:
                    out.append(value)
        return out


if str(KV) not in Builder.files:
    Builder.load_file(str(KV))
