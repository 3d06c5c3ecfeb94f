"""`every` (kiosk/ui/every.py): an action on Kivy's clock runs again whatever it returns.

Kivy unschedules an interval callback that returns False; through a lambda that was the
action's own result: the signage's check for SIGTERM (`stop.stopping and app.stop()`) ran
once, and a failed watchdog ping (`notify` returns False) would have been the last one."""

from __future__ import annotations

import time

from kiosk.ui.every import every


def _tick_until(done: list[int], n: int, within: float = 10.0) -> None:
    from kivy.clock import Clock

    deadline = time.monotonic() + within
    while len(done) < n and time.monotonic() < deadline:
        time.sleep(0.02)
        Clock.tick()


def test_an_action_that_returns_false_keeps_running() -> None:
    calls: list[int] = []

    def failed_ping() -> bool:
        calls.append(1)
        return False  # as notify() when the send failed

    event = every(0.01, failed_ping)
    try:
        _tick_until(calls, 3)
    finally:
        event.cancel()
    assert len(calls) >= 3


def test_kivys_own_interval_stops_on_false_which_every_guards_against() -> None:
    """The pitfall itself, so this test fails should Kivy change and `every` be moot."""
    from kivy.clock import Clock

    calls: list[int] = []
    event = Clock.schedule_interval(lambda _dt: calls.append(1) or False, 0.01)
    try:
        _tick_until(calls, 1)
        for _ in range(10):  # ten more chances to run again
            time.sleep(0.02)
            Clock.tick()
    finally:
        event.cancel()
    assert calls == [1]


def test_a_cancelled_action_stops() -> None:
    calls: list[int] = []
    event = every(0.01, lambda: calls.append(1))
    _tick_until(calls, 2)
    event.cancel()
    seen = len(calls)
    _tick_until(calls, seen + 1, within=0.2)
    assert len(calls) == seen >= 2
