"""A still screen is drawn again (kiosk/ui/perf_present.keep_drawn): SDL's KMS/DRM driver
loses the first frame, and Kivy draws only when something changed."""

from __future__ import annotations

import time

from kiosk.ui.perf_present import keep_drawn


class _Canvas:
    def __init__(self) -> None:
        self.asked = 0

    def ask_update(self) -> None:
        self.asked += 1


class _Window:
    def __init__(self) -> None:
        self.canvas = _Canvas()


def test_a_still_window_is_asked_to_draw_again_until_cancelled() -> None:
    from kivy.clock import Clock

    window = _Window()
    event = keep_drawn(window, every=0.01)
    deadline = time.monotonic() + 10
    while window.canvas.asked < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
        Clock.tick()
    assert window.canvas.asked >= 3
    event.cancel()
    asked = window.canvas.asked
    for _ in range(5):
        time.sleep(0.02)
        Clock.tick()
    assert window.canvas.asked == asked


def test_the_first_redraw_comes_soon_after_the_start() -> None:
    """The frame KMS/DRM lost is drawn again within FIRST_REDRAW, not `every` seconds later."""
    from kivy.clock import Clock

    from kiosk.ui.perf_present import FIRST_REDRAW

    window = _Window()
    event = keep_drawn(window, every=3600)
    deadline = time.monotonic() + FIRST_REDRAW + 5
    while window.canvas.asked == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
        Clock.tick()
    event.cancel()
    assert window.canvas.asked == 1
