"""When the sign must not show the game's call: the table paused, the link to it lost, the
table closed, the inspector attending (the sign tells the truth). Each replaces the
betting banner in words, so players never read a stale "PLACE YOUR BETS". Pure: no Kivy."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.i18n import N_, gettext
from kiosk.ui.signage.link import Link


@dataclass(frozen=True, slots=True)
class Interruption:
    """The words, in English; `words()` gives them in the current language."""

    title: str
    detail: str

    def words(self) -> tuple[str, str]:
        return gettext(self.title), gettext(self.detail)


PAUSED = Interruption(N_("Table paused"), N_("Please wait: the game goes on shortly"))
RECONNECTING = Interruption(N_("Reconnecting"),
                            N_("Please wait: the sign is catching up with the table"))
CLOSED = Interruption(N_("Table closed"), N_("This table is closed for now"))
INSPECTOR = Interruption(N_("Inspector attending"), N_("Please wait for the inspector"))


def interruption(link: Link, inspector_called: bool) -> Interruption | None:
    """What replaces the game's call now, or None when the call stands."""
    if link is Link.CLOSED:
        return CLOSED
    if link is Link.PAUSED:
        return PAUSED
    if link is Link.RECONNECTING:
        return RECONNECTING
    if inspector_called:
        return INSPECTOR
    return None
