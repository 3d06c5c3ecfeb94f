"""The players' screen of a roulette table, readable from three metres: the state of the spin,
the winning number, the last 20 numbers in their colours, hot and cold numbers, the shares of
the last 100 spins, the limits (rule 2.2) and the payouts (rule 2.6). It only shows state.

Its words come from `roulette_words.sign_words` (pure); the layout (roulette_view.kv) is in
units of `sign_unit`, in one column on a portrait sign, and every text fits its box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.rules.roulette import engine as rl
from kiosk.ui import theme
from kiosk.ui.signage.common import LimitLine
from kiosk.ui.signage.link import Link, link_words
from kiosk.ui.signage.roulette_words import RouletteSign, sign_words
from kiosk.ui.text_label import TextLabel

KV = Path(__file__).with_suffix(".kv")
POCKET = {"red": theme.rgb("#c62828"), "black": theme.rgb("#1b1b1b"),
          "green": theme.rgb("#167a3b")}


class RlPayRow(BoxLayout):  # type: ignore[misc]
    """One bet and what it pays (rule 3.5)."""

    name = StringProperty("")
    pays = StringProperty("")
    unit = NumericProperty(10.0)


class RlNumberCell(TextLabel):  # type: ignore[misc]
    """One of the last 20 numbers on its pocket's colour."""

    fill = ColorProperty(theme.FELT)


class RouletteSignage(BoxLayout):  # type: ignore[misc]
    """The sign; `show(state, link)` shows the folded state."""

    table_name = StringProperty("")
    headline = StringProperty("AMERICAN ROULETTE")
    headline_ink = ColorProperty(theme.GOLD)
    detail = StringProperty("")
    number = StringProperty("")
    number_fill = ColorProperty(theme.FELT)
    shares_text = StringProperty("")
    hot_cold_text = StringProperty("")
    link_text = StringProperty("")
    unit = NumericProperty(10.0)
    portrait = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.words: RouletteSign | None = None
        self.link = Link.WAITING
        self._shown_rows: tuple[Any, Any, Any] | None = None
        self.ids.last.bind(width=self._strip_font)
        self._shown_last: tuple[tuple[str, str], ...] | None = None

    def notice(self, title: str, detail: str = "", link: Link = Link.LIVE) -> None:
        self.show(None, link)
        self.headline, self.detail = title, detail

    def show(self, state: rl.RouletteState | None, link: Link) -> None:
        self.link = link
        self.link_text = link_words(link)
        self.detail, self.headline_ink = "", theme.GOLD
        w = self.words = sign_words(state) if state is not None else None
        if w is None:
            self.headline, self.number, self.number_fill = "AMERICAN ROULETTE", "", theme.FELT
            self.shares_text = self.hot_cold_text = ""
            self._rows((), (), ())
            self._last(())
            return
        self.headline = w.headline
        self.number = w.number or ""
        self.number_fill = POCKET[w.number_colour] if w.number else theme.FELT
        self.shares_text = w.shares_text
        self.hot_cold_text = w.hot_cold_text
        self._rows(w.limits, w.limit_captions, w.payouts)
        self._last(w.last)

    def interrupt(self, title: str, detail: str) -> None:
        """Words in place of the game's call (the table paused, the inspector attending)."""
        self.headline, self.detail, self.headline_ink = title.upper(), detail, theme.WARNING

    def _rows(self, limits: tuple[tuple[str, str], ...], captions: tuple[str, ...],
              payouts: tuple[tuple[str, str], ...]) -> None:
        """The limit lines and payout rows, made again only when they change (a new
        configuration, another language): a sign left on all day makes no widgets per
        spin."""
        if (limits, captions, payouts) == self._shown_rows:
            return
        self._shown_rows = (limits, captions, payouts)
        box, grid = self.ids.limits, self.ids.payouts
        box.clear_widgets()
        grid.clear_widgets()
        for (_name, amount), caption in zip(limits, captions, strict=True):
            box.add_widget(LimitLine(caption=caption, amount=amount, caption_units=17))
        for name, pays in payouts:
            grid.add_widget(RlPayRow(name=name, pays=pays))
        self.on_unit(self, self.unit)

    def _last(self, last: tuple[tuple[str, str], ...]) -> None:
        if last == self._shown_last:
            return
        self._shown_last = last
        strip = self.ids.last
        strip.clear_widgets()
        for n, colour in last:
            strip.add_widget(RlNumberCell(text=n, fill=POCKET[colour]))
        self._strip_font()

    def on_unit(self, _inst: Any, unit: float) -> None:
        if "limits" not in self.ids:
            return
        for line in self.ids.limits.children:
            line.unit = unit
        for row in self.ids.payouts.children:
            row.unit = unit
        self._strip_font()

    def _strip_font(self, *_args: Any) -> None:
        """One size for every number on the strip: the largest at which "36" fits a cell."""
        strip = self.ids.last
        cells = strip.children
        if not cells:
            return
        size = min(self.unit * 4.2, strip.width / len(cells) * 0.5)
        for cell in cells:
            cell.font_size = size

    # The words a test or a technician reads (as the old view's labels were named).
    @property
    def shares(self) -> Any:
        return self.ids.shares

    @property
    def limits(self) -> Any:
        return self.ids.limits


if str(KV) not in Builder.files:
    Builder.load_file(str(KV))
