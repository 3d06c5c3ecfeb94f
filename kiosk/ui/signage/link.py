"""How the signage is linked to the table's journal, shared by the feed and both screens.

Kept apart from `feed.py` so the screens (which show it) import no SQLite."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from kiosk.i18n import N_, gettext


class Link(StrEnum):
    """How the signage is connected to the table's journal, for a discreet mark on screen."""

    LIVE = "live"  # the journal is readable and folded up to its newest row
    WAITING = "waiting"  # no journal, or no table opened in it, yet
    RECONNECTING = "reconnecting"  # we had one; it is gone, locked or unreadable for now
    PAUSED = "paused"  # the journal reads, but the dealer app has stopped beating
    CLOSED = "closed"  # ... for longer than CLOSED_AFTER: the table is closed


LINK_WORDS = {Link.LIVE: "", Link.WAITING: N_("Waiting for the table"),
              Link.RECONNECTING: N_("Reconnecting…"), Link.PAUSED: N_("Table paused"),
              Link.CLOSED: N_("Table closed")}
"""The words beside the mark (none while live: the green dot says it), in English."""


def link_words(link: Link) -> str:
    """The words beside the mark in the current language."""
    return gettext(LINK_WORDS[link])

HEARTBEAT_EVERY = 2.0  # seconds between the dealer app's beats
SILENT_AFTER = 10.0  # seconds without one before the signage says the table is paused
CLOSED_AFTER = 15 * 60.0  # ... and before it says the table is closed


def heartbeat_path(journal: Path) -> Path:
    """The file the running dealer app touches beside its journal (only its time counts)."""
    return journal.with_name(journal.name + ".alive")
