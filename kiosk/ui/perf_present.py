"""Finish drawing every frame before the next one starts, as a display's swap does.

A display's buffer swap makes the driver draw the frame, and a vsynced swap waits for it.
SDL's offscreen driver (the headless demo, the tests, the benches) swaps an EGL pbuffer,
which does nothing: a software renderer (Mesa llvmpipe) then keeps queueing frame after
frame, with every texture they use, until something forces it (reading pixels, a texture
updated in place, its queue filling up). That queued work shows up as a frame of 100-200 ms
at a random moment and as 50-90 MB of memory. Only flushing (glFlush) still lets frames pile
up while cards arrive faster than they are drawn; `glFinish` after each frame keeps one
frame in flight. On the Pi's GPU a frame of this UI takes a few ms, so the wait is short.
"""

from __future__ import annotations

from typing import Any

_flushing: set[int] = set()  # ids of the windows already finished after each frame


def flush_each_frame(window: Any = None) -> None:
    """Finish GL after every frame `window` (default: Kivy's window) draws. Idempotent."""
    if window is None:
        from kivy.core.window import Window

        window = Window
    if window is None or id(window) in _flushing:
        return
    from kivy.graphics.opengl import glFinish

    def flush(*_args: Any) -> None:
        glFinish()

    _flushing.add(id(window))
    window.fbind("on_flip", flush)


KEEP_DRAWN_EVERY = 5.0
"""Seconds between the redraws `keep_drawn` asks for."""
FIRST_REDRAW = 0.5
"""Seconds after start of the first of them: a screen shows at once, not 5 s late."""


def keep_drawn(window: Any = None, every: float = KEEP_DRAWN_EVERY) -> Any:
    """Draw `window` (default: Kivy's window) again every `every` seconds, even when
    nothing on it changed; returns the Clock event.

    Kivy draws a frame only when something on the screen changed, and SDL's KMS/DRM driver
    (the SD image, no X) loses the first frame it is given: it makes the window's surface
    anew at the first buffer swap, after the frame was drawn into the old one, and shows a
    black buffer. A still screen (the dealer's between coups, a paused sign) then stayed
    black for good: seen in the emulator (tests/image/test_boot.py), where the same SDL
    runs as on the Pi. A frame drawn again shows it; doing it every few seconds also brings
    a screen back after a display was replugged or switched on late."""
    from kivy.clock import Clock

    if window is None:
        from kivy.core.window import Window

        window = Window

    def redraw(_dt: float) -> None:
        if window is not None:
            window.canvas.ask_update()

    Clock.schedule_once(redraw, FIRST_REDRAW)  # the lost first frame, shown at once
    return Clock.schedule_interval(redraw, every)
