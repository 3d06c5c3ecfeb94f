"""Doing something every so many seconds on Kivy's clock, whatever it returns.

Kivy unschedules an interval callback that returns False, silently. A lambda hands its
action's result back: `lambda _dt: notify("WATCHDOG=1")` stopped the signage's watchdog
pings for good after one failed send (systemd then restarts a healthy sign), and
`lambda _dt: stop.stopping and app.stop()` looked once for SIGTERM and never again (the
signage then left only through its 1.5 s backstop). `every` drops the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def every(seconds: float, action: Callable[[], object]) -> Any:
    """Call `action` every `seconds` from Kivy's clock until the returned event is
    cancelled; what `action` returns is ignored."""
    from kivy.clock import Clock

    def tick(_dt: float) -> None:
        action()

    return Clock.schedule_interval(tick, seconds)
