"""Real Kivy rendering with no display: SDL's offscreen driver on Mesa llvmpipe.

The environment must be set before Kivy is first imported, so it is set here at import time.
Screenshots go to artifacts/screenshots/, which CI keeps."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.pop("DISPLAY", None)
for _name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):
    os.environ.setdefault(_name, "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", str(ROOT / ".kivy"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


FRAME_GAP = 0.004
"""Seconds slept between the frames of a timed pump: 250 frames a second at most."""
GL_SIZE = (800, 480)
"""The size the offscreen window is made at; its GL surface keeps it whatever it is told."""


class UI:
    """Drives the one Kivy window: taps, frames, pixels, screenshots."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.size: tuple[int, int] = tuple(int(v) for v in window.size)  # type: ignore[assignment]
        self.whole_window = False
        self.shot: Any = None  # the last screenshot's frame

    def stop_app(self) -> None:
        """End the running app and clear the window, as the kiosk's own exit or restart
        does (and this fixture's teardown)."""
        from kivy.app import App

        app = App.get_running_app()
        if app is not None:
            app.stop()
        for child in list(self.window.children):
            self.window.remove_widget(child)

    def resize(self, width: int, height: int) -> None:
        """Lay the screen out at another size. SDL's offscreen window cannot be resized once
        made, so the app's root widget takes the size and `frame()` draws it off-screen."""
        self.size = (width, height)
        for child in self.window.children:
            child.size_hint = (None, None)
            child.size = (width, height)
            child.pos = (0, 0)
        self.pump(0.05)

    def resize_window(self, width: int, height: int) -> None:
        """Lay everything out at another size, dialogs too: the window itself takes the size
        (as a screen of that size would give it), so the app's root and every dialog opened
        over it size themselves from it; `frame()` draws them all off-screen, as the GL
        surface keeps the size it was made at."""
        self.size = (width, height)
        self.whole_window = True
        self.window.size = (width, height)
        self.pump(0.05)

    def pump(self, seconds: float = 0.0, frames: int = 3) -> None:
        """Draw at least `frames` frames and keep drawing for `seconds` of clock time.

        Between the frames of those seconds the test sleeps a little, as a screen waiting for
        its next frame does: spinning through frames took a core from the table's own thread
        and from the other worker on a two-core machine, for nothing drawn."""
        import time

        from kivy.base import EventLoop

        end = time.monotonic() + seconds
        n = 0
        while n < frames or time.monotonic() < end:
            EventLoop.idle()
            n += 1
            if n >= frames:
                left = end - time.monotonic()
                if left > 0:
                    time.sleep(min(FRAME_GAP, left))

    def tap(self, widget: Any) -> None:
        """Touch the middle of `widget` and lift, as a finger does."""
        from kivy.tests.common import UnitTestTouch

        assert widget.get_root_window() is not None, f"{widget!r} is not on screen"
        assert not getattr(widget, "disabled", False), f"{widget!r} is disabled"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(frames=1)
        touch.touch_up()
        self.pump(0.1)  # buttons keep their pressed look for min_state_time

    def frame(self) -> Any:
        from kiosk.ui.capture import grab, render, render_window

        self.pump(frames=2)
        if self.size == GL_SIZE:
            return grab()
        if self.whole_window:
            return render_window(self.window)  # the screen and the dialogs over it
        return render(self.window.children[-1])  # the app's root, at its own size

    def screenshot(self, name: str) -> Path:
        """Save the current frame as artifacts/screenshots/NAME.png; refuse a blank one."""
        from kiosk.ui.capture import save_png

        frame = self.frame()
        assert not frame.is_blank(), f"screenshot {name} is blank: the window stopped drawing"
        self.shot = frame  # for a check of the same frame, without drawing it again
        return save_png(frame, SHOTS / f"{name}.png")


@pytest.fixture(scope="session")
def kivy_window() -> Any:
    # A worker that draws hundreds of screens holds a million objects (the widgets Kivy
    # keeps), and spent a sixth of its time in garbage collections going over them again:
    # the young generation is collected after 20,000 allocations, not 700.
    gc.set_threshold(20_000, 10, 10)
    from kivy.config import Config

    Config.set("graphics", "width", str(GL_SIZE[0]))
    Config.set("graphics", "height", str(GL_SIZE[1]))
    Config.set("graphics", "maxfps", "0")
    Config.set("kivy", "exit_on_escape", "0")
    for option, _value in list(Config.items("input")):
        Config.remove_option("input", option)
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


@pytest.fixture
def ui(kivy_window: Any) -> Iterator[UI]:
    """A clean window at 800×480 for each test; apps attached with `start_app`."""
    from kivy.base import EventLoop

    # An App that was stopped leaves the loop "closed" and it silently stops drawing.
    EventLoop.quit = False
    EventLoop.status = "started"
    if hasattr(EventLoop, "stopping"):
        EventLoop.stopping = False
    kivy_window.size = GL_SIZE
    driver = UI(kivy_window)
    yield driver
    driver.stop_app()
    EventLoop.quit = False
    EventLoop.status = "started"


def start_app(ui: UI, app: Any) -> Any:
    """Attach `app` to the window without App.run(), as the kiosk's own loop would."""
    app._run_prepare()
    ui.pump(0.05)
    return app
