"""What a table whose cards come from a simulator says on the dealer's screen and the players'
sign, so that nobody takes it for real cards: "SIMULATED SHUFFLER" when the simulated device
is a shuffler that deals (a `[devices.shuffler]` with `deals = true`, or a game whose rules
say its cards come from a shuffler, as mini baccarat's `dealt_from`), else "SIMULATED SHOE"
(a dealing shoe, as mini baccarat's coup goes on from after rule 12.5)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kiosk.i18n import _

SIMULATED_ROLES = frozenset({"shoe", "shuffler"})
"""The dealing devices' roles a session's `simulated` may hold (kiosk/assembly.py)."""


def simulated_words(state: Any, roles: Iterable[str] = ()) -> str:
    """"SIMULATED SHUFFLER" or "SIMULATED SHOE", in the current language: `roles` the
    simulated dealing devices' roles, `state` the game's (its `device`, when it has one)."""
    device = str(getattr(state, "device", "") or "")
    if device == "shuffler" or (not device and "shuffler" in set(roles)):
        return _("SIMULATED SHUFFLER")
    return _("SIMULATED SHOE")
