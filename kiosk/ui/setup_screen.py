"""The dealer's screen of a table that cannot start: no configuration yet
(a Pi fresh from the SD image), or one with a mistake.

`tableside run --setup-screen` (the SD image's dealer service) shows this instead of exiting:
the reason in words, the last provisioning's refusal first, what to do, and this computer's
name and addresses, so a technician at the table sees why the screen is not the game, and
the service does not start again every two seconds with a black screen. It tells systemd it
is up and alive (READY, WATCHDOG, a STATUS line with the reason), looks at the configuration
again every few seconds, and once it loads ends with RESTART: the command starts itself
again and opens the table.

Its words are English to begin with: with no configuration there is no house language yet.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import _
from kiosk.provision import BOOT_CREDENTIAL, BOOT_FILE, not_set_up
from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel
from kiosk.watchdog import notify

log = logging.getLogger(__name__)

LOOK_EVERY = 2.0
"""Seconds between looks at the configuration (and watchdog notes to systemd)."""


def this_computer() -> str:
    """The computer's name, its network addresses and Tableside's version, for a technician
    who must reach it ("tableside-pb-07, 10.1.4.27, Tableside 0.1.0")."""
    name = socket.gethostname()
    addresses: list[str] = []
    try:
        for info in socket.getaddrinfo(name, None, socket.AF_INET):
            address = str(info[4][0])
            if address not in addresses and not address.startswith("127."):
                addresses.append(address)
    except OSError:
        pass  # no name service: the name alone
    try:
        ours = version("tableside")
    except PackageNotFoundError:
        ours = "?"
    return ", ".join([name, *addresses, f"Tableside {ours}"])


class SetupScreen(BoxLayout):  # type: ignore[misc]
    """The reason the table cannot start, what to do, and this computer."""

    reason = StringProperty("")

    def __init__(self, config: Path, reason: str, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=16, spacing=10, **kwargs)
        self.config = config
        self._sizes: dict[TextLabel, float] = {}
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=lambda *_: setattr(self._bg, "size", self.size))
        self.title = self._text(_("This table is not set up"), bold=True, color=theme.GOLD,
                                font_size=30, size_hint_y=0.16)
        self.why = self._text("", color=theme.IVORY, font_size=18, size_hint_y=0.38)
        self.todo = self._text(
            _("Write %(file)s onto the SD card's boot partition (tableside config example "
              "makes one; put %(credential)s beside it when the table syncs to a pit), put "
              "the card back and restart the table. docs/technician.md, Provisioning.")
            % {"file": BOOT_FILE, "credential": BOOT_CREDENTIAL},
            color=theme.IVORY, font_size=16, size_hint_y=0.3)
        self.machine = self._text(_("This computer: %(about)s") % {"about": this_computer()},
                                  color=theme.MUTED, font_size=14, size_hint_y=0.16)
        self.bind(reason=lambda *_: setattr(self.why, "text", self.reason))
        self.reason = reason
        self.bind(height=lambda *_: self._scale())

    def _text(self, text: str, font_size: float, **kwargs: Any) -> TextLabel:
        label = TextLabel(text=text, halign="left", valign="middle", font_size=font_size,
                          **kwargs)
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self._sizes[label] = font_size
        self.add_widget(label)
        return label

    def _scale(self) -> None:
        """Sizes are given for the 800x480 panel; a bigger screen draws them bigger (a long
        reason is still drawn smaller to fit, never cut: TextLabel)."""
        unit = max(1.0, self.height / 480)
        for label, size in self._sizes.items():
            label.font_size = size * unit
        self.padding = 16 * unit


class SetupApp(App):  # type: ignore[misc]
    """The screen, looking at the configuration every LOOK_EVERY seconds; `ready` turns True
    (and the app stops) once the table can start."""

    def __init__(self, config: Path, reason: str,
                 look: Callable[[Path], str] = not_set_up, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.config_path = config  # (App.config is Kivy's own settings)
        self.first_reason = reason
        self.look_at = look
        self.ready = False
        self.screen: Any = None  # the widget with the `reason` (SetupScreen, ClosedSign)
        self._looking: Any = None  # the Clock event of the looks
        self.title = _("Tableside: this table is not set up")

    def load_kv(self, filename: str | None = None) -> bool:
        return False

    def build(self) -> SetupScreen:
        self.screen = SetupScreen(self.config_path, self.first_reason)
        tell_systemd(self.first_reason, ready=True)
        self.schedule_looks()
        return self.screen

    def schedule_looks(self) -> None:
        self._looking = Clock.schedule_interval(self._look_again, LOOK_EVERY)

    def on_stop(self) -> None:
        self.stop_looking()

    def stop_looking(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            self._looking = None

    def _look_again(self, _dt: float) -> None:
        self.look()  # (a callback that returns False is unscheduled: this returns None)

    def look(self) -> bool:
        """Look at the configuration again: True (and stop) once it loads."""
        try:
            reason = self.look_at(self.config_path)
        except Exception:  # a look that failed is no reason to leave the screen dark
            log.exception("looking at %s", self.config_path)
            return False
        if not reason:
            log.info("%s loads now: starting the table", self.config_path)
            self.ready = True
            self.stop_looking()
            self.stop()
            return True
        if self.screen is not None and reason != self.screen.reason:
            self.screen.reason = reason
            log.warning("the table is still not set up: %s", reason)
        tell_systemd(reason)
        return False


def tell_systemd(reason: str, ready: bool = False) -> None:
    line = reason.splitlines()[0] if reason else ""
    notify(("READY=1\n" if ready else "") + f"WATCHDOG=1\nSTATUS=Not set up: {line}")


async def run_setup_screen(config: Path, reason: str) -> int:
    """Show why the table cannot start until its configuration loads (then RESTART) or a
    stop signal comes (then the signal's exit status). Kivy is prepared by the caller."""
    from kiosk.stopping import StopSignals
    from kiosk.ui.launcher import RESTART
    from kiosk.ui.perf_present import keep_drawn

    stops = StopSignals()
    app = SetupApp(config, reason)
    try:
        if stops.signum is None:
            stops.arm(app.stop)
            redraws = keep_drawn()
            await app.async_run(async_lib="asyncio")
            redraws.cancel()
    finally:
        stops.close()
    if stops.status is not None:
        return stops.status
    return RESTART if app.ready else 0


def show(config: Path, reason: str) -> int:
    """`run_setup_screen` in its own loop, for the command."""
    try:
        return asyncio.run(run_setup_screen(config, reason))
    except KeyboardInterrupt:  # Ctrl-C before the loop listened for it
        from kiosk.stopping import exit_status

        return exit_status(signal.SIGINT)
