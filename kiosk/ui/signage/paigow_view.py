"""The players' screen of a pai gow tiles table (the Mpumalanga table game rules, section 13),
readable from three metres: who banks and where the chung is, the call, the limits of a
wager (rule 2.2), the commission on winning wagers, and the banker's hands of the last
rounds, their tiles drawn, with what they did against the players. It only shows state,
and never a player's tiles.

Its words come from `paigow_words` (pure); the layout (paigow_view.kv) is in units of
`sign_unit`, in one column on a portrait sign, and every text fits its box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from kiosk.ui import theme
from kiosk.ui.signage.common import LimitLine
from kiosk.ui.signage.link import Link, link_words
from kiosk.ui.signage.paigow_words import GAME_NAME, LastHand, PaiGowSign
from kiosk.ui.tile_face import TileFace  # noqa: F401  (registers the class the .kv uses)

KV = Path(__file__).with_suffix(".kv")


class PgLastRow(BoxLayout):  # type: ignore[misc]
    """A settled round: the banker's low and high hands drawn, their names, and what they
    did against the players."""

    low = ListProperty(["", ""])
    high = ListProperty(["", ""])
    words = StringProperty("")
    outcome = StringProperty("")
    unit = NumericProperty(10.0)


class PaiGowSignage(BoxLayout):  # type: ignore[misc]
    """The sign; `show(state, link)` shows the folded state (None: no table opened yet);
    `show_words` shows words made already."""

    table_name = StringProperty("")
    game_name = StringProperty(GAME_NAME)
    headline = StringProperty(GAME_NAME.upper())
    headline_ink = ColorProperty(theme.GOLD)
    detail = StringProperty("")
    banker = StringProperty("")
    chung = StringProperty("")
    commission = StringProperty("")
    link_text = StringProperty("")
    unit = NumericProperty(10.0)
    portrait = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.words: PaiGowSign | None = None
        self.link = Link.WAITING
        self._shown_limits: tuple[Any, ...] | None = None
        self._shown_last: tuple[LastHand, ...] | None = None

    def notice(self, title: str, detail: str = "", link: Link = Link.LIVE) -> None:
        self.show(None, link)
        self.headline, self.detail = title, detail

    def show(self, state: Any, link: Link) -> None:
        """The folded state of the table (None: no table opened yet)."""
        from kiosk.ui.signage.paigow_words import sign_words

        self.show_words(sign_words(state) if state is not None else None, link)

    def show_words(self, words: PaiGowSign | None, link: Link) -> None:
        self.link = link
        self.link_text = link_words(link)
        self.detail, self.headline_ink = "", theme.GOLD
        self.words = words
        if words is None:
            self.headline = GAME_NAME.upper()
            self.banker = self.chung = self.commission = ""
            self._limits((), ())
            self._last(())
            return
        self.headline, self.detail = words.headline, words.detail
        self.banker, self.chung = words.banker, words.chung
        self.commission = words.commission
        self._limits(words.limits, words.limit_captions)
        self._last(words.last)

    def interrupt(self, title: str, detail: str) -> None:
        """Words in place of the game's call (the table paused, the inspector attending)."""
        self.headline, self.detail, self.headline_ink = title.upper(), detail, theme.WARNING

    def _limits(self, limits: tuple[tuple[str, str], ...], captions: tuple[str, ...]) -> None:
        """The limit lines, made again only when they change (a new configuration, another
        language): a sign left on all day makes no widgets per round."""
        if (limits, captions) == self._shown_limits:
            return
        self._shown_limits = (limits, captions)
        box = self.ids.limits
        box.clear_widgets()
        for (_name, amount), caption in zip(limits, captions, strict=True):
            box.add_widget(LimitLine(caption=caption, amount=amount, caption_units=9,
                                     unit=self.unit))

    def _last(self, last: tuple[LastHand, ...]) -> None:
        if last == self._shown_last:
            return
        self._shown_last = last
        box = self.ids.last
        box.clear_widgets()
        for h in last:
            box.add_widget(PgLastRow(low=list(h.low), high=list(h.high), words=h.words,
                                     outcome=h.outcome, unit=self.unit))

    def on_unit(self, _inst: Any, unit: float) -> None:
        # The rows are made again in each language: set their unit rather than bind them
        # to ours, which would keep every row ever made alive.
        if "limits" not in self.ids:
            return
        for box in (self.ids.limits, self.ids.last):
            for row in box.children:
                row.unit = unit

    def texts(self) -> list[str]:
        """Every text and tile on the screen (for checks that no player's tile is shown)."""
        out = []
        for w in self.walk():
            for name in ("text", "code"):
                value = getattr(w, name, None)
                if isinstance(value, str) and value:
                    out.append(value)
        return out


if str(KV) not in Builder.files:
    Builder.load_file(str(KV))
