"""The technician's self-test as a screen on the dealer's touchscreen:
`tableside selftest --config table.toml --screen`.

It runs the command's checks (devices, panel, disk, clock, file modes, the pit) and lists
each result in words as it comes; then the checks only a person can make: five targets to
tap, in the corners and the middle (the touchscreen answers everywhere), and a question about
the players' screen, which shows the table's sign while the test runs. Every result, the
person's included, goes on record in the journal like the command's.

The screen's own words are in the dealer's language (`[display] dealer_language`: it is the
dealer's display); the checks' results and what goes on record are English, for technicians.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout

from kiosk import i18n
from kiosk.config import TableConfig
from kiosk.i18n import N_, _
from kiosk.selftest import record, run_selftest
from kiosk.table.records import SelfTestResult
from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel
from kiosk.ui.widgets import TableButton

# TRANSLATORS: where the self-test's touch targets are on the screen.
TARGETS = ((N_("bottom left"), 0.0, 0.0), (N_("top left"), 0.0, 1.0), (N_("middle"), 0.5, 0.5),
           (N_("top right"), 1.0, 1.0), (N_("bottom right"), 1.0, 0.0))
"""Each target: where it is (in English: the journal's words; shown translated), x, y."""


class TouchTarget(TableButton):  # type: ignore[misc]
    """A target to tap; it turns green and says so when the touchscreen felt it."""

    where = StringProperty("")  # English: the record's words
    hit = BooleanProperty(False)

    def on_press(self) -> None:
        self.hit = True
        self.tone = theme.TIE
        self.text = _("%(where)s: felt") % {"where": _(self.where)}


class SelfTestScreen(BoxLayout):  # type: ignore[misc]
    """The checks' results, the touch targets and the players'-screen question."""

    unit = NumericProperty(1.0)
    summary = StringProperty("")

    def __init__(self, cfg: TableConfig, *, check: Callable[[], list[SelfTestResult]]
                 | None = None, on_done: Callable[[list[SelfTestResult]], Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=8, spacing=6, **kwargs)
        self.summary = _("Checking the devices, the panel, the disk, the clock and the pit…")
        self.cfg = cfg
        self.results: list[SelfTestResult] = []
        self.on_done = on_done
        self.sign_answer: bool | None = None
        self.done = False
        title = TextLabel(text=_("Self-test: table %(id)s (%(name)s)") % {
                              "id": cfg.table_id, "name": cfg.name}, bold=True,
                          color=theme.GOLD, font_size=22, size_hint_y=None, height=34,
                          halign="left", valign="middle")
        title.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(title)
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=lambda *_: setattr(self._bg, "size", self.size))
        self.lines = TextLabel(text=self.summary, color=theme.IVORY, font_size=15,
                               halign="left", valign="top", size_hint_y=0.42)
        self.lines.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.lines)
        self.board = FloatLayout()
        self.targets: list[TouchTarget] = []
        for where, x, y in TARGETS:
            t = TouchTarget(where=where, text=_("Tap: %(where)s") % {"where": _(where)},
                            font_size=15,
                            size_hint=(0.22, 0.3),
                            pos_hint={"x": x * 0.78, "y": y * 0.7})
            t.bind(hit=lambda *_: self._touched())
            self.targets.append(t)
            self.board.add_widget(t)
        self.add_widget(self.board)
        row = BoxLayout(size_hint_y=None, height=52, spacing=6)
        question = TextLabel(text=_("Does the players' screen show the table's sign?"),
                             color=theme.IVORY, font_size=15, halign="left", valign="middle",
                             size_hint_x=1.6)
        question.bind(size=lambda w, s: setattr(w, "text_size", s))
        row.add_widget(question)
        self.yes = TableButton(text=_("Yes"), tone=theme.TIE, font_size=17)
        self.no = TableButton(text=_("No"), tone=theme.STOP, font_size=17)
        self.yes.bind(on_release=lambda *_: self.answer(True))
        self.no.bind(on_release=lambda *_: self.answer(False))
        self.finish = TableButton(text=_("Done"), tone=theme.GOLD, color=theme.INK,
                                  font_size=17)
        self.finish.bind(on_release=lambda *_: self.complete())
        for b in (self.yes, self.no, self.finish):
            row.add_widget(b)
        self.add_widget(row)
        runner = check or (lambda: run_selftest(cfg))
        threading.Thread(target=lambda: self._checked(runner()), daemon=True,
                         name="selftest").start()

    def _checked(self, results: list[SelfTestResult]) -> None:
        Clock.schedule_once(lambda _dt: self._show(results), 0)  # Kivy's thread only

    def _show(self, results: list[SelfTestResult]) -> None:
        self.results = list(results)
        failed = sum(not r.ok for r in results)
        head = _("%(passed)s checks passed, %(failed)s failed. Now tap each target and "
                 "answer for the players' screen.") % {"passed": len(results) - failed,
                                                      "failed": failed}
        self.lines.text = head + "\n" + "\n".join(
            f"{'ok  ' if r.ok else 'FAIL'}  {r.check}: {r.detail}" for r in results)

    def _touched(self) -> None:
        left = [t.where for t in self.targets if not t.hit]
        if not left:
            self.summary = _("The touchscreen felt all five targets")

    def answer(self, shown: bool) -> None:
        self.sign_answer = shown
        self.yes.selected, self.no.selected = shown, not shown

    def person_results(self) -> list[SelfTestResult]:
        """The checks a person makes: the touch and the players' screen."""
        left = [t.where for t in self.targets if not t.hit]
        touch = SelfTestResult("touch", not left, "all five targets felt" if not left else
                               "not felt: " + ", ".join(left))
        sign = SelfTestResult("players' screen", bool(self.sign_answer),
                              {True: "the technician saw the table's sign on it",
                               False: "the technician did not see the sign on it",
                               None: "not answered"}[self.sign_answer])
        return [touch, sign]

    def complete(self) -> list[SelfTestResult]:
        """Put the person's checks on record (the others are already) and close."""
        if self.done:
            return self.results
        self.done = True
        mine = self.person_results()
        record(self.cfg, mine)
        self.results += mine
        if self.on_done is not None:
            self.on_done(self.results)
        return self.results


class SelfTestApp(App):  # type: ignore[misc]
    def __init__(self, cfg: TableConfig, check: Callable[[], list[SelfTestResult]]
                 | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cfg = cfg
        self.check = check
        i18n.use(cfg.display.dealer_language)  # the dealer's display, the dealer's language
        self.title = _("Tableside self-test: %(id)s") % {"id": cfg.table_id}
        self.results: list[SelfTestResult] = []
        self.screen: SelfTestScreen | None = None

    def load_kv(self, filename: str | None = None) -> bool:
        return False

    def build(self) -> SelfTestScreen:
        def done(results: list[SelfTestResult]) -> None:
            self.results = results
            self.stop()

        self.screen = SelfTestScreen(self.cfg, check=self.check, on_done=done)
        return self.screen
