"""The signage window's size and place, set in Kivy's Config before the window exists.

Its own module so that the launcher (`app.py`, which must not import Kivy) and the Kivy app
(`kivy_app.py`) both take it from below, and neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEFAULT_SIZE = (1920, 1080)


@dataclass(frozen=True, slots=True)
class WindowOptions:
    """The signage window: size in pixels, fullscreen, and its top-left corner on the
    desktop (for a second monitor to the right of the dealer's, e.g. 800,0)."""

    size: tuple[int, int] = DEFAULT_SIZE
    fullscreen: bool = False
    position: tuple[int, int] | None = None
    multisamples: int = 0
    """Samples per pixel for antialiasing. Kivy's default (2) multiplies every buffer of the
    window: at 1920x1080 a bare Kivy app takes 195 MB with it and 127 MB without on the
    software renderer, and draws at half the speed; the signage is read from metres away."""

    def configure(self) -> None:
        """Set Kivy's Config for the window; call before Kivy creates the window."""
        from kivy.config import Config

        Config.set("graphics", "width", str(self.size[0]))
        Config.set("graphics", "height", str(self.size[1]))
        Config.set("graphics", "multisamples", str(self.multisamples))
        Config.set("graphics", "fullscreen", "auto" if self.fullscreen else "0")
        Config.set("graphics", "show_cursor", "0")  # nothing to point at on the players' side
        if self.position is not None:
            Config.set("graphics", "position", "custom")
            Config.set("graphics", "left", str(self.position[0]))
            Config.set("graphics", "top", str(self.position[1]))
            Config.set("graphics", "borderless", "1")
        # Nothing on the signage is interactive: no touch or mouse providers at all.
        for option, _value in list(Config.items("input")):
            Config.remove_option("input", option)

    def apply(self, window: Any) -> None:
        """Resize and place a window that already exists."""
        window.size = self.size
        if self.position is not None:
            window.left, window.top = self.position
        if self.fullscreen:
            window.fullscreen = "auto"
