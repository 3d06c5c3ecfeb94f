"""When the sign must not show the game's call: the table paused, the link to it lost, the
table closed, the inspector attending (issue 14: the sign tells the truth). Each replaces the
betting banner in words, so players never read a stale "PLACE YOUR BETS". Pure: no Kivy."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.ui.signage.link import Link


@dataclass(frozen=True, slots=True)
class Interruption:
    title: str
    detail: str


PAUSED = Interruption("Table paused", "Please wait: the game goes on shortly")
RECONNECTING = Interruption("Reconnecting", "Please wait: the sign is catching up with the "
                                            "table")
CLOSED = Interruption("Table closed", "This table is closed for now")
INSPECTOR = Interruption("Inspector attending", "Please wait for the inspector")


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
