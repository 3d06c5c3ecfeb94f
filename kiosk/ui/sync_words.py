"""The sync's corner on the dealer screen and on the sign, for a technician: the
link, the last row the pit acknowledged and when, the rows waiting and the oldest's age, in
the language on screen. No Kivy, no reading: made from a `SyncStatus` already read (the sign
reads it off its Kivy thread; a new language only says it again)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from kiosk.i18n import _, number
from kiosk.sync.state import state_path
from kiosk.sync.status import SyncStatus, status


def _age(seconds: float) -> str:
    if seconds < 120:
        # TRANSLATORS: an age in seconds in the sync's corner ("45 s").
        return _("%(n)s s") % {"n": f"{seconds:.0f}"}
    if seconds < 7200:
        # TRANSLATORS: an age in minutes in the sync's corner ("12 min").
        return _("%(n)s min") % {"n": f"{seconds / 60:.0f}"}
    # TRANSLATORS: an age in hours in the sync's corner ("3.5 h").
    return _("%(n)s h") % {"n": f"{seconds / 3600:.1f}"}


def corner(now: SyncStatus, at: datetime | None = None) -> str:
    """A few words: "Pit connected · row 1,234 acknowledged 10:02:03 UTC · 0 waiting" (`at`:
    the time to measure ages from, now by default)."""
    if not now.running:
        # TRANSLATORS: the sync to the pit server stopped (or the table was off).
        link = _("Sync not running")
    elif now.connected:
        link = _("Pit connected")
    elif (wait := now.reconnect_in(at)) is not None:
        # TRANSLATORS: the pit server cannot be reached; the sync tries it again in this many
        # seconds ("Pit offline, reconnecting in 3 s").
        link = _("Pit offline, reconnecting in %(n)s s") % {"n": number(wait)}
    else:
        link = _("Pit offline")
    if now.acked_seq:
        # The time of day, and the date too when it was not today (UTC, as the journal).
        today = (at or datetime.now(UTC)).strftime("%Y-%m-%d")
        when = now.acked_at
        if len(when) >= 19:
            when = (when[11:19] if when[:10] == today else f"{when[:10]} {when[11:19]}") + " UTC"
        # TRANSLATORS: the last journal row the pit server acknowledged, and when (UTC).
        acked = _("row %(seq)s acknowledged %(time)s") % {"seq": number(now.acked_seq),
                                                          "time": when}
    else:
        acked = _("nothing acknowledged yet")
    age = now.age_seconds(at)
    if now.waiting and age is not None:
        # TRANSLATORS: journal rows not yet at the pit server, and the oldest one's age.
        waiting = _("%(rows)s waiting, oldest %(age)s") % {"rows": number(now.waiting),
                                                           "age": _age(age)}
    else:
        waiting = _("%(rows)s waiting") % {"rows": number(now.waiting)}
    return f"{link} · {acked} · {waiting}"


def read(journal: str | Path, syncs: bool) -> SyncStatus | None:
    """The sync's status to show for the table whose journal is at `journal` (it reads the
    journal and the state file: off Kivy's thread), or None when there is nothing to show:
    no state file and `syncs` false (no [sync] pit). A table with a pit but no state file
    shows its sync as not running (it never started, or its file was deleted)."""
    if not syncs and not state_path(journal).exists():
        return None
    return status(journal)
