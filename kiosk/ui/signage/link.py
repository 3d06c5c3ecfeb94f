"""How the signage is linked to the table's journal, shared by the feed and both screens.

Kept apart from `feed.py` so the screens (which show it) import no SQLite."""

from __future__ import annotations

from enum import StrEnum


class Link(StrEnum):
    """How the signage is connected to the table's journal, for a discreet mark on screen."""

    LIVE = "live"  # the journal is readable and folded up to its newest row
    WAITING = "waiting"  # no journal, or no table opened in it, yet
    RECONNECTING = "reconnecting"  # we had one; it is gone, locked or unreadable for now


LINK_WORDS = {Link.LIVE: "", Link.WAITING: "Waiting for the table",
              Link.RECONNECTING: "Reconnecting…"}
"""The words beside the mark (none while live: the green dot says it)."""
