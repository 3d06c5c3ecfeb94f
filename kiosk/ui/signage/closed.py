"""The players' sign of a table that cannot start: "Table closed", until it can.

A Pi fresh from the SD image has no configuration, or one with a mistake: the dealer's
screen says why (kiosk/ui/setup_screen.py); the players' screen says only that the table is
closed, in the default language (with no configuration there is no house language yet).
It tells systemd it is up and alive, looks at the configuration every few seconds like the
setup screen, and once the table can start, the signage command starts itself again with it.
Before, the signage service refused the configuration and started again every two seconds
with a black screen.

The same sign stands in front of a table outside its approved opening hours (the Mpumalanga
table game rules, rule 2.4), with the next opening time under it (`show`): the signage app
puts it up between rounds while the clock keeps the table closed (kiosk/table/hours.py).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.properties import StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.i18n import N_, _
from kiosk.table.hours import OpeningHours
from kiosk.ui import theme
from kiosk.ui.setup_screen import SetupApp, tell_systemd
from kiosk.ui.text_label import TextLabel

DAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))
"""The weekdays as the sign names the next opening ("Opens at Mon 18:00")."""


def opens_words(hours: OpeningHours, now: datetime) -> str:
    """The next approved opening after `now` in the sign's language: "18:00" later the
    same day, "Mon 18:00" on another; "" when the hours name none."""
    nxt = hours.next_opening(now)
    if nxt is None:
        return ""
    zone = hours.zone()
    local = nxt.astimezone(zone)
    if local.date() == now.astimezone(zone).date():
        return f"{local:%H:%M}"
    return f"{_(DAYS[local.weekday()])} {local:%H:%M}"


class ClosedSign(FloatLayout):  # type: ignore[misc]
    """ "Table closed" on the felt, and that it is closed for now or when it opens next;
    `reason` (why it cannot start) is for the log only."""

    reason = StringProperty("")
    opens = StringProperty("")  # the next opening ("18:00", "Mon 18:00"); "" for now

    def __init__(self, reason: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=lambda *_: setattr(self._bg, "size", self.size))
        self.words = self._line(_("Table closed"), theme.GOLD, 0.58, 0.26, bold=True)
        self.more = self._line(_("This table is closed for now"), theme.IVORY, 0.36, 0.12)
        self.bind(size=lambda *_: self._scale())
        self.reason = reason

    def show(self, opens: str) -> None:
        """The words again in the current language, with the next opening time (rule 2.4;
        "" when there is none to say)."""
        self.opens = opens
        self.words.text = _("Table closed")
        self.more.text = (_("Opens at %(time)s") % {"time": opens} if opens
                          else _("This table is closed for now"))

    def _line(self, text: str, colour: Any, centre: float, share: float,
              bold: bool = False) -> TextLabel:
        label = TextLabel(text=text, bold=bold, color=colour, halign="center",
                          valign="middle", size_hint=(0.9, share),
                          pos_hint={"center_x": 0.5, "center_y": centre})
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(label)
        return label

    def _scale(self) -> None:
        """The words as big as the shorter side allows (a portrait sign too); TextLabel
        draws a long translation smaller to fit, never cut."""
        unit = min(self.height, self.width)
        self.words.font_size = unit / 6
        self.more.font_size = unit / 16


class ClosedSignApp(SetupApp):  # type: ignore[misc]
    """SetupApp's looks at the configuration, with the players' closed sign for a screen."""

    def __init__(self, config: Path, reason: str, **kwargs: Any) -> None:
        super().__init__(config, reason, **kwargs)
        self.title = _("Table closed")

    def build(self) -> ClosedSign:  # type: ignore[override]
        self.screen = ClosedSign(self.first_reason)
        tell_systemd(self.first_reason, ready=True)
        self.schedule_looks()
        return self.screen
