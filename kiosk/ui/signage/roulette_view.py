"""The players' screen of a roulette table, readable from two metres: the state of the spin,
the winning number, the last 20 numbers in their colours, hot and cold numbers, the shares of
the last 100 spins, the limits (rule 2.2) and the payouts (rule 2.6). It only shows state."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.rules.roulette import engine as rl
from kiosk.ui import theme
from kiosk.ui.signage.link import LINK_WORDS, Link
from kiosk.ui.signage.roulette_words import RouletteSign, sign_words
from kiosk.ui.text_label import TextLabel

POCKET = {"red": theme.rgb("#c62828"), "black": theme.rgb("#1b1b1b"),
          "green": theme.rgb("#1b8a45")}


class RouletteSignage(FloatLayout):  # type: ignore[misc]
    """The sign; `show(state, link)` redraws it from the folded state."""

    table_name = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.words: RouletteSign | None = None
        self.link = Link.WAITING

        def label(x: float, y: float, w: float, h: float, **kw: Any) -> TextLabel:
            lbl = TextLabel(size_hint=(w, h), pos_hint={"x": x, "y": y}, **kw)
            lbl.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
            self.add_widget(lbl)
            return lbl

        self.title = label(0.02, 0.9, 0.6, 0.09, bold=True, halign="left", valign="middle")
        self.link_label = label(0.62, 0.9, 0.36, 0.09, halign="right", valign="middle")
        self.headline = label(0.02, 0.74, 0.6, 0.15, bold=True, halign="left",
                              valign="middle")
        self.number = label(0.66, 0.56, 0.3, 0.33, bold=True, halign="center",
                            valign="middle")
        self.shares = label(0.02, 0.36, 0.6, 0.2, halign="left", valign="top")
        self.hotcold = label(0.02, 0.2, 0.6, 0.16, halign="left", valign="top")
        self.limits = label(0.02, 0.01, 0.46, 0.19, halign="left", valign="top")
        self.payouts = label(0.5, 0.01, 0.48, 0.5, halign="left", valign="top")
        self.bind(size=self._draw, pos=self._draw, table_name=lambda *_: self._texts())

    def notice(self, title: str, detail: str = "", link: Link = Link.LIVE) -> None:
        self.words = None
        self.link = link
        self.headline.text = title
        self.shares.text = detail
        self._draw()

    def show(self, state: rl.RouletteState | None, link: Link) -> None:
        self.link = link
        self.words = sign_words(state) if state is not None else None
        self._texts()
        self._draw()

    def _texts(self) -> None:
        h = max(self.height, 1)
        self.title.font_size = h * 0.05
        self.title.text = self.table_name or "American roulette"
        self.link_label.font_size = h * 0.035
        self.link_label.text = LINK_WORDS[self.link]
        w = self.words
        for lbl, size in ((self.headline, 0.09), (self.number, 0.22), (self.shares, 0.04),
                          (self.hotcold, 0.038), (self.limits, 0.036), (self.payouts, 0.04)):
            lbl.font_size = h * size
        if w is None:
            self.headline.text = "AMERICAN ROULETTE"
            self.number.text = self.shares.text = self.hotcold.text = ""
            self.limits.text = self.payouts.text = ""
            return
        self.headline.text = w.headline
        self.number.text = w.number or ""
        pairs = [f"{k} {v}" for k, v in w.shares]
        self.shares.text = (f"Last {w.spins_counted} spins:  " + "   ".join(pairs[:5]) + "\n"
                            + "   ".join(pairs[5:]))
        self.hotcold.text = ("Hot: " + "  ".join(f"{n} ({c})" for n, c in w.hot) + "\n"
                             "Cold: " + "  ".join(f"{n} ({c})" for n, c in w.cold))
        self.limits.text = "\n".join(f"{k}: {v}" for k, v in w.limits)
        self.payouts.text = "Payouts\n" + "\n".join(f"{k}  {v}" for k, v in w.payouts)

    def _draw(self, *_args: Any) -> None:
        self._texts()
        self.canvas.before.clear()
        w = self.words
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            Rectangle(pos=self.pos, size=self.size)
            if w is None:
                return
            x0, y0, W, H = self.x, self.y, self.width, self.height
            if w.number:
                Color(*POCKET[w.number_colour])
                RoundedRectangle(pos=(x0 + W * 0.68, y0 + H * 0.58), size=(W * 0.26, H * 0.29),
                                 radius=[H * 0.03])
            # the last 20 numbers, newest first, in their colours
            cell = W * 0.96 / 20
            for i, (_n, colour) in enumerate(w.last):
                Color(*POCKET[colour])
                Rectangle(pos=(x0 + W * 0.02 + i * cell + 1, y0 + H * 0.61),
                          size=(cell - 2, H * 0.1))
        self._last_numbers()

    def _last_numbers(self) -> None:
        """The numbers on the coloured strip."""
        for child in [c for c in self.children if getattr(c, "is_last", False)]:
            self.remove_widget(child)
        w = self.words
        if w is None:
            return
        for i, (n, _colour) in enumerate(w.last):
            lbl = TextLabel(text=n, bold=True, font_size=self.height * 0.045,
                            size_hint=(0.96 / 20, 0.1),
                            pos_hint={"x": 0.02 + i * 0.96 / 20, "y": 0.61},
                            halign="center", valign="middle")
            lbl.is_last = True
            self.add_widget(lbl)
