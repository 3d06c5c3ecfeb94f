"""Payout panels the dealer pays from: the punto banco area panel beside the
areas, and a sheet over the blackjack screen with every hand of a box. Each line says what a
bet is in small type and what to do with it (PAY, TAKE, PUSH ...) in large type, in words and
in a colour that stands out from the felt."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from kiosk.i18n import _
from kiosk.ui import theme
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow
from kiosk.ui.text_label import TextLabel  # noqa: F401  (registers the class the .kv uses)
from kiosk.ui.widgets import SaysWhyHere

Builder.load_file(str(Path(__file__).with_name("payouts.kv")))

INK = {"bet": theme.IVORY, "pay": theme.PAY, "take": theme.TAKE, "even": theme.IVORY,
       "owe": theme.WARNING}


class PanelLine(BoxLayout):  # type: ignore[misc]
    """One bet: what it is, and what to do, in large type."""

    caption = StringProperty("")
    amount = StringProperty("")
    ink = ColorProperty(theme.IVORY)
    unit = NumericProperty(1.0)


class PayoutPanel(BoxLayout):  # type: ignore[misc]
    """A title and its lines; made again only when the words change."""

    title = StringProperty("")
    empty_text = StringProperty("")
    unit = NumericProperty(1.0)

    def show(self, title: str, rows: Sequence[PanelRow], empty: str = "") -> None:
        self.title, self.empty_text = title, "" if rows else empty
        wanted = [(r.caption, r.amount, r.tone) for r in rows]
        if wanted == getattr(self, "_shown", None):
            return
        self._shown = wanted
        box = self.ids.rows
        box.clear_widgets()
        for r in rows:
            box.add_widget(PanelLine(caption=r.caption, amount=r.amount, ink=INK[r.tone],
                                     unit=self.unit))

    def on_unit(self, _inst: Any, unit: float) -> None:
        if "rows" in self.ids:
            for line in self.ids.rows.children:
                line.unit = unit

    def lines(self) -> list[tuple[str, str]]:
        """(caption, amount) of each line, top to bottom (for checks)."""
        return [(w.ids.caption.text, w.ids.amount.text) for w in self.ids.rows.children[::-1]]


PER_PAGE = 2
"""Blocks side by side on one page of a sheet: two hands of four players each still pay
from 4 mm type at 800x480; a box split to four hands takes two pages."""


class PayoutSheet(SaysWhyHere, ModalView):  # type: ignore[misc]
    """Every block of a box (its hands, its insurance) in panels over the screen, two at a
    time (Previous and Next turn the pages); Done closes it. `unit` and `touch` come from
    the screen. A grey Previous, Next or Confirm, tapped, says why on the sheet."""

    title = StringProperty("")
    heading = StringProperty("")
    unit = NumericProperty(1.0)
    touch = NumericProperty(48.0)
    columns = NumericProperty(2)
    page = NumericProperty(0)
    pages = NumericProperty(1)
    confirms = BooleanProperty(False)  # the sheet carries "Confirm payouts"
    can_confirm = BooleanProperty(False)  # ... and the rules allow it now

    def __init__(self, title: str, blocks: Sequence[PanelBlock], *, unit: float,
                 touch: float, per_page: int = PER_PAGE,
                 on_confirm: Callable[[], Any] | None = None,
                 confirm_refused: Callable[[], str] | None = None, **kwargs: Any) -> None:
        """`on_confirm`: the sheet also carries the screen's "Confirm payouts" (roulette's,
        whose sheet covers the layout); `confirm_refused()`: the rules' sentence when they
        refuse it now ("" when they allow it), which greys it."""
        self.blocks = list(blocks)
        self.per_page = per_page
        self.on_confirm = on_confirm
        self.confirm_refused = confirm_refused or (lambda: "")
        kwargs.setdefault("confirms", on_confirm is not None)
        kwargs.setdefault("can_confirm", on_confirm is not None and not self.confirm_refused())
        pages = max(1, -(-len(self.blocks) // per_page))
        super().__init__(heading=title, unit=unit, touch=touch, pages=pages,
                         columns=1 if len(self.blocks) <= 1 else 2, **kwargs)
        self._show()

    def confirm(self) -> None:
        if not self.can_confirm:
            return
        self.dismiss()
        if self.on_confirm is not None:
            self.on_confirm()

    def turn(self, step: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + step))
        self.refusal_text = ""
        self._show()

    def why_not(self, widget: Any) -> str:
        if widget is self.ids.previous.__self__:
            return _("This is the first page")
        if widget is self.ids.next.__self__:
            return _("This is the last page")
        if widget is self.ids.confirm.__self__:
            return self.confirm_refused()
        return ""

    def _show(self) -> None:
        grid = self.ids.blocks
        grid.clear_widgets()
        start = self.page * self.per_page
        for block in self.blocks[start:start + self.per_page]:
            panel = PayoutPanel(unit=self.unit)
            panel.show(block.title, block.rows)
            grid.add_widget(panel)
        shown = (" " + _("(%(page)s of %(pages)s)") % {"page": self.page + 1,
                                                        "pages": self.pages}
                 if self.pages > 1 else "")
        self.title = self.heading + shown

    @property
    def panels(self) -> list[PayoutPanel]:
        """The panels on the page shown."""
        return list(self.ids.blocks.children[::-1])
