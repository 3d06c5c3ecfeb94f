"""`SignageApp`: the Kivy App of the players' screen (import it from `kiosk.ui.signage.app`).

It owns one `JournalFeed` polled from Kivy's Clock and one `SignageScreen`; every change the
feed reports is shown at once, so a row the dealer app commits reaches the players within
about 100 ms. Kept apart from `app.py` so the command line can be imported without Kivy.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window

from kiosk.ui.capture import grab, save_png
from kiosk.ui.perf_present import flush_each_frame
from kiosk.ui.signage.app import WindowOptions
from kiosk.ui.signage.feed import POLL_INTERVAL, FeedChange, JournalFeed
from kiosk.ui.signage.signage import SignageScreen

log = logging.getLogger(__name__)


class SignageApp(App):  # type: ignore[misc]
    """The players' screen following the journal at `journal`.

    `name` is the table's name as players see it (default: "Table <table id>").
    `window` resizes or places an existing window (before the window exists, use
    `options.configure_window` instead). `trace` gets one JSON line per state change;
    `screenshot` saves the screen `screenshot_after` seconds after start, then stops the app.
    """

    def __init__(self, journal: str | Path, name: str = "", *,
                 window: WindowOptions | None = None, trace: TextIO | None = None,
                 screenshot: str | Path | None = None, screenshot_after: float = 2.0,
                 poll_interval: float = POLL_INTERVAL, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = "Tableside signage"
        self.journal_path = Path(journal)
        self.display_name = name
        self.window_options = window
        self.trace = trace
        self.screenshot_path = Path(screenshot) if screenshot else None
        self.screenshot_after = screenshot_after
        self.poll_interval = poll_interval
        self.feed = JournalFeed(self.journal_path)
        self.screen: SignageScreen | None = None
        self.screenshot_saved: Path | None = None

    def load_kv(self, filename: str | None = None) -> bool:
        # Kivy would also load signage.kv here (it is named after this App); the screen's
        # module loads it once already.
        return False

    def build(self) -> SignageScreen:
        if self.window_options is not None:
            self.window_options.apply(Window)
        flush_each_frame(Window)  # each frame drawn before the next, not queued (perf_present)
        self.screen = SignageScreen(table_name=self.display_name)
        self.feed.subscribe(self._on_feed)
        self.feed.start(self.poll_interval)
        self._show()
        if self.screenshot_path is not None:
            Clock.schedule_once(self._shoot_after_next_frame, self.screenshot_after)
        return self.screen

    def on_stop(self) -> None:
        self.feed.close()

    # --- feed -> screen ----------------------------------------------------------------

    def _on_feed(self, feed: JournalFeed, change: FeedChange) -> None:
        self._show()
        if change.state_changed and self.trace is not None:
            state = feed.state
            line = {"seq": feed.seq, "t": time.monotonic(),
                    "phase": state.phase.value if state is not None else None,
                    "coup": state.coup if state is not None else None,
                    "table_id": feed.table_id, "applied": change.applied,
                    "refolded": change.refolded, "link": feed.link.value}
            self.trace.write(json.dumps(line) + "\n")
            self.trace.flush()

    def _show(self) -> None:
        if self.screen is None:
            return
        if not self.display_name:
            self.screen.table_name = (f"Table {self.feed.table_id}" if self.feed.table_id
                                      else "")
        self.screen.show(self.feed.state, self.feed.link)

    # --- --screenshot ------------------------------------------------------------------

    def _shoot_after_next_frame(self, _dt: float) -> None:
        # Read the pixels right after a frame is drawn, as the tests do.
        Window.bind(on_flip=self._shoot)
        Window.canvas.ask_update()

    def _shoot(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._shoot)
        assert self.screenshot_path is not None
        try:
            self.screenshot_saved = save_png(grab(), self.screenshot_path)
        except Exception as exc:  # report and stop rather than hang the headless demo
            log.exception("signage: cannot save the screenshot")
            print(f"signage: cannot save the screenshot: {exc}", file=sys.stderr)
        self.stop()
