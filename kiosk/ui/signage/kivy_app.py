"""`SignageApp`: the Kivy App of the players' screen (import it from `kiosk.ui.signage.app`).

It owns one `JournalFeed` polled from Kivy's Clock and shows the sign of the journal's game,
made by the game's screens module (`GameSpec.screens`, kiosk/ui/games/), swapped when the
table opens for another game. Before any table is opened, and while another game's records
come with no opening, the view shown says so (the first game's sign until there is one).
Every change the feed reports is shown at once, so a row
the dealer app commits reaches the players within about 100 ms. Kept apart from `app.py` so
the command line can be imported without Kivy.

With more than one language (`kiosk.i18n.SignLanguages`, table.toml `[display] languages`),
the sign shows the same state in the next language every `seconds`: the view is shown again
from what the feed holds, without reading the journal.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.uix.boxlayout import BoxLayout

from kiosk import i18n
from kiosk.floor_care import SignCare, burn_in_shift, idle
from kiosk.i18n import N_, _
from kiosk.rules.registry import GameSpec, games
from kiosk.sync.pit_config import table_name
from kiosk.sync.status import SyncStatus
from kiosk.table.hours import OpeningHours, hours_in_body, override_in_force
from kiosk.ui import theme
from kiosk.ui.capture import grab, save_png
from kiosk.ui.every import every
from kiosk.ui.games import screens
from kiosk.ui.perf_present import flush_each_frame, keep_drawn
from kiosk.ui.signage.closed import ClosedSign, opens_words
from kiosk.ui.signage.feed import POLL_INTERVAL, FeedChange, JournalFeed
from kiosk.ui.signage.interruptions import interruption
from kiosk.ui.signage.link import Link
from kiosk.ui.signage.window import WindowOptions
from kiosk.ui.simulated_words import simulated_words
from kiosk.ui.sync_words import corner, read
from kiosk.ui.text_label import TextLabel
from kiosk.watchdog import notify

log = logging.getLogger(__name__)

NOTICE_SECONDS = 120.0
"""How long the sign says the table's configuration changed (from the row's time)."""
CARE_EVERY = 15.0
"""Seconds between looks at the shift, the night and the idle screen."""
STRIP_EVERY = 5.0
"""Seconds between looks at the sync's state."""
HOURS_EVERY = 20.0
"""How often the sign looks at the clock against the approved hours (rule 2.4)."""


def _age(wall_time: str) -> float:
    try:
        then = datetime.strptime(wall_time, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    except ValueError:
        return float("inf")
    return (datetime.now(UTC) - then).total_seconds()


GAME_CHANGED = (N_("Game changing"), N_("Limits and odds follow when the table opens"))
"""What the players read while the journal holds one game's table and another game's
operations (see `JournalFeed.other_game`), in English."""


def shown_texts(widget: Any) -> list[str]:
    """Every text and card code in `widget` and its children, hidden or not (for --trace,
    and the check that the burned card never reaches the screen)."""
    out = []
    for w in widget.walk():
        for name in ("text", "code"):
            value = getattr(w, name, None)
            if isinstance(value, str) and value:
                out.append(value)
    return out


class SignageRoot(BoxLayout):  # type: ignore[misc]
    """The window's root: holds the view of the journal's game, one at a time."""


class SignageFrame(BoxLayout):  # type: ignore[misc]
    """The game's view above a strip for what every table's sign says the same way: a new
    configuration from the pit (for players: the limits changed), and the sync's state in a
    corner (for technicians). The strip takes no room while it has nothing to say."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.holder = SignageRoot()
        self.strip = BoxLayout(size_hint_y=None, height=0, padding=(8, 0), spacing=12)
        with self.strip.canvas.before:
            Color(*theme.RAIL)
            band = Rectangle()
        self.strip.bind(pos=lambda w, v: setattr(band, "pos", v),
                        size=lambda w, v: setattr(band, "size", v))
        self.notice = TextLabel(color=theme.GOLD, bold=True, halign="left", valign="middle",
                                shorten=True, shorten_from="right")
        self.sync = TextLabel(color=theme.MUTED, halign="right", valign="middle",
                              shorten=True)
        for label in (self.notice, self.sync):
            label.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
            self.strip.add_widget(label)
        self.add_widget(self.holder)
        self.add_widget(self.strip)
        self.late = False
        # A new size keeps the words and the sync's warning colour.
        self.bind(size=lambda *_: self.show(self.notice.text, self.sync.text, self.late))
        self.brightness = 1.0
        with self.canvas.before:
            PushMatrix()
            self._shift = Translate(0, 0)
        with self.canvas.after:
            PopMatrix()
            self._veil_colour = Color(0, 0, 0, 0)
            self._veil = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: self.dim(self.brightness),
                  size=lambda *_: self.dim(self.brightness))

    def shift(self, dx: int, dy: int) -> None:
        """Move the whole picture by (dx, dy) pixels (the burn-in shift)."""
        self._shift.xy = (dx, dy)

    def dim(self, level: float) -> None:
        """Draw the picture at `level` of its brightness (1.0: as it is; the night's)."""
        self._veil_colour.rgba = (0, 0, 0, max(0.0, 1.0 - level))
        self._veil.pos, self._veil.size = self.pos, self.size
        self.brightness = level

    def show(self, notice: str, sync: str, late: bool = False) -> None:
        """The notice on the left and the sync's line on the right; both at once, one above
        the other (the sync's line is too long to share a row at its size)."""
        self.notice.text, self.sync.text, self.late = notice, sync, late
        self.sync.color = theme.WARNING if late else theme.MUTED
        tall = max(18.0, self.height * 0.045)
        both = bool(notice and sync)
        self.strip.orientation = "vertical" if both else "horizontal"
        self.strip.height = tall * (2 if both else 1) if (notice or sync) else 0
        self.notice.size_hint_x = 1 if notice else 0
        self.sync.size_hint_x = 1 if sync else 0
        self.notice.font_size = self.sync.font_size = tall * 0.62
        self.strip.opacity = 1 if (notice or sync) else 0


class IdleView(BoxLayout):  # type: ignore[misc]
    """The idle screen: the table, its game and its limits in large type, when no round has
    been played for the house's `idle_minutes`. It is never the game's
    call: it comes back with the first row the table writes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=40, spacing=10, **kwargs)
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            self._bg = Rectangle()
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=self._resize)
        self.lines = [TextLabel(bold=True, halign="center", valign="middle", color=ink)
                      for ink in (theme.GOLD, theme.IVORY, theme.IVORY, theme.MUTED)]
        for label in self.lines:
            label.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
            self.add_widget(label)

    def _resize(self, *_args: Any) -> None:
        self._bg.size = self.size
        unit = min(self.height / 100, self.width / 100)
        for label, size in zip(self.lines, (11, 7, 8, 4), strict=True):
            label.font_size = unit * size

    def show(self, name: str, game: str, limits: str) -> None:
        words = (name, game.upper(), limits, _("Join us: place your bets"))
        for label, text in zip(self.lines, words, strict=True):
            label.text = text


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
                 poll_interval: float = POLL_INTERVAL,
                 languages: i18n.SignLanguages | None = None,
                 care: SignCare | None = None, syncs: bool = False,
                 simulated: bool = False, hours: OpeningHours | None = None,
                 simulated_device: str = "shoe", **kwargs: Any) -> None:
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
        self.holder: SignageRoot | None = None
        self.screen: Any = None  # the view shown now
        # Each game's view (by its screens module), made on first use and kept for a switch
        # back.
        self.views: dict[str, Any] = {}
        self.screenshot_saved: Path | None = None
        self._other_game: str | None = None
        self.frame: SignageFrame | None = None
        self._pit_config = 0
        self.languages = languages or i18n.SignLanguages()
        self._language = 0  # which of `languages.codes` is shown
        self._notice: tuple[str, str] | None = None  # the pit's summary, its row's time
        self._sync: SyncStatus | None = None  # as last read (None: no sync state)
        self.syncs = syncs  # the table has a [sync] pit: its corner shows even with no file
        self.simulated = simulated  # the cards come from the shoe simulator: the sign says so
        self.simulated_device = simulated_device  # "shoe", or "shuffler" (one that deals)
        self._simulated_said = ""  # the words the strip shows for it now
        self._sync_reading: threading.Thread | None = None
        self.pit_name = ""  # the table's name the pit's version in force sets ("": none)
        self._before = (i18n.current(), i18n.money_style())  # put back when the app stops
        # Every clock event the sign starts, cancelled when it stops: Kivy's clock holds
        # `every`'s callbacks strongly, so a timer left running keeps a stopped sign alive,
        # redrawing and bound to the translator, for as long as the process lives.
        self._timers: list[Any] = []
        self.care = care or SignCare(burn_in_shift=False, idle_minutes=0)
        self.idle_view: IdleView | None = None
        self.idle_shown = False
        # The approved opening hours (rule 2.4): the file's, or the pit's version in force
        # when it sets them; outside them, between rounds, the sign says "Table closed".
        self.hours = self.file_hours = hours
        self.closed_view: ClosedSign | None = None
        self._started = time.monotonic()

    def load_kv(self, filename: str | None = None) -> bool:
        # Kivy would look for signage.kv here (named after this App); each game's view
        # module loads its own .kv once.
        return False

    def build(self) -> SignageFrame:
        if self.window_options is not None:
            self.window_options.apply(Window)
        flush_each_frame(Window)  # each frame drawn before the next, not queued (perf_present)
        self.languages.apply()  # the house's money style and the first language
        # KMS/DRM loses the first frame: a still sign is drawn again.
        self._timers.append(keep_drawn(Window))
        self.frame = SignageFrame()
        self.holder = self.frame.holder
        self.feed.subscribe(self._on_feed)
        self.feed.start(self.poll_interval)
        # systemd's watchdog hears from the players' screen's own clock (kiosk/watchdog.py).
        notify("READY=1")
        self._timers.append(every(2.0, lambda: notify("WATCHDOG=1")))
        self._show()
        self._strip()
        self._timers.append(every(STRIP_EVERY, self._strip))
        if self.languages.alternates:
            self._timers.append(every(self.languages.seconds, self.next_language))
        if self.care != SignCare(burn_in_shift=False, idle_minutes=0):
            self._care()
            self._timers.append(every(CARE_EVERY, self._care))
        # the clock opens and closes the table (rule 2.4)
        self._timers.append(every(HOURS_EVERY, self._show))
        if self.screenshot_path is not None:
            Clock.schedule_once(self._shoot_after_next_frame, self.screenshot_after)
        return self.frame

    # --- a sign left on all day ------------------------------------------------------------

    def _care(self, now: datetime | None = None) -> None:
        """The burn-in shift, the night's dimming and the idle screen, as the house set them
        (`SignCare`); every CARE_EVERY seconds."""
        if self.frame is None:
            return
        now = now or datetime.now(UTC).astimezone()
        if self.care.burn_in_shift:
            self.frame.shift(*burn_in_shift(time.monotonic() - self._started))
        night = self.care.night
        self.frame.dim(night.brightness(now.time()) if night is not None else 1.0)
        self._show(now)

    def _closed_by_hours(self, now: datetime | None) -> str | None:
        """The next opening time to show under "Table closed" while the approved hours
        keep the table closed (rule 2.4): outside them, no round in play and no
        inspector's reopening in force ("" when no opening is set); None while it is open."""
        feed, hours = self.feed, self.hours
        if hours is None or feed.game is None or feed.state is None \
                or feed.link is not Link.LIVE:
            return None
        moment = (now or datetime.now(UTC)).astimezone(UTC)
        if not feed.game.engine.between_rounds(feed.state) or hours.is_open(moment) \
                or override_in_force(feed.outside_hours_until, moment):
            return None
        return opens_words(hours, moment)

    def _idle(self, now: datetime | None) -> bool:
        """No round for the house's minutes, the table live and nothing on it."""
        feed, minutes = self.feed, self.care.idle_minutes
        if not minutes or feed.link is not Link.LIVE or feed.game is None or feed.state is None:
            return False
        engine = feed.game.engine
        if feed.inspector_called or not engine.between_rounds(feed.state):
            return False
        row = feed.row(feed.seq)
        if row is None:
            return False
        try:
            last = datetime.strptime(row.wall_time, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        except ValueError:
            return False
        return idle(last, now or datetime.now(UTC), minutes)

    def on_stop(self) -> None:
        self.feed.close()
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        i18n.use(self._before[0])
        i18n.set_money_style(self._before[1])

    # --- feed -> screen ----------------------------------------------------------------

    def _on_feed(self, feed: JournalFeed, change: FeedChange) -> None:
        self._show()
        if feed.pit_config != self._pit_config:
            self._strip()
        elif self.simulated and self._simulated_said != simulated_words(
                feed.state, (self.simulated_device,)):
            self._strip_words()  # a shuffler's coup went on from a dealing shoe (rule 12.5)
        if change.state_changed and self.trace is not None:
            state = feed.state
            game = feed.game
            line = {"seq": feed.seq, "t": time.monotonic(),
                    "phase": state.phase.value if state is not None else None,
                    "round": game.engine.round_number(state) if game and state else None,
                    "game": game.family if game is not None else None,
                    "other_game": feed.other_game,
                    "table_id": feed.table_id, "applied": change.applied,
                    "refolded": change.refolded, "link": feed.link.value,
                    "view": type(self.screen).__name__,
                    "shown": shown_texts(self.screen) if self.screen is not None else []}
            self.trace.write(json.dumps(line) + "\n")
            self.trace.flush()

    def next_language(self) -> None:
        """Show the sign in the next of the house's languages (the state the feed holds:
        the journal is not read for it)."""
        codes = self.languages.codes
        self._language = (self._language + 1) % len(codes)
        i18n.use(codes[self._language])
        self._show()
        self._strip_words()

    def _strip(self) -> None:
        """The pit's new configuration for a while after it took effect (and the table's
        name it sets), and the sync's state, read on a thread of its own (the journal and
        the state file are read there, not on Kivy's clock)."""
        if self.frame is None:
            return
        seq = self._pit_config = self.feed.pit_config
        self._notice = None
        name = ""
        if seq:
            row = self.feed.row(seq)
            if row is not None:
                self._notice = (str(row.payload.get("summary", "")), row.wall_time)
                name = table_name(str(row.payload.get("body", "")))
        hours = self.file_hours
        if seq and row is not None:
            hours = hours_in_body(str(row.payload.get("body", "")), self.file_hours)
        if name != self.pit_name or hours != self.hours:
            self.pit_name, self.hours = name, hours
            self._show()
        self._strip_words()
        if self._sync_reading is None or not self._sync_reading.is_alive():
            self._sync_reading = threading.Thread(target=self._read_sync, daemon=True,
                                                  name="signage-sync-status")
            self._sync_reading.start()

    def _read_sync(self) -> None:
        """The sync's state, off Kivy's thread; shown from the clock."""
        now: SyncStatus | None = None
        try:
            now = read(self.journal_path, self.syncs)
        except Exception:  # the corner is for technicians; the sign goes on
            log.exception("signage: sync status")
        Clock.schedule_once(lambda _dt: self._show_sync(now), 0)

    def _show_sync(self, now: SyncStatus | None) -> None:
        self._sync = now
        self._strip_words()

    def _strip_words(self) -> None:
        """The strip in the current language. The pit's summary is its own words; the
        sync's corner is said again from the state last read (`corner`)."""
        if self.frame is None:
            return
        notice = ""
        if self._notice is not None and _age(self._notice[1]) < NOTICE_SECONDS:
            notice = _("New table configuration: %(summary)s") % {"summary": self._notice[0]}
        if self.simulated:  # no real cards: nobody may take this table for a real one
            self._simulated_said = simulated_words(self.feed.state, (self.simulated_device,))
            notice = " · ".join(w for w in (self._simulated_said, notice) if w)
        sync = self._sync
        self.frame.show(notice, corner(sync) if sync is not None else "",
                        sync is not None and sync.late())

    def _view(self, spec: GameSpec) -> tuple[Any, Any]:
        """The sign of `spec`'s game (made once), and its screens module."""
        front = screens(spec)
        view = self.views.get(spec.screens)
        if view is None:
            view = self.views[spec.screens] = front.sign()
        return view, front

    def _show(self, now: datetime | None = None) -> None:
        """Show the feed's state in the view of its game, swapping views if the game
        changed (or the idle screen, when the table has been idle for the house's
        minutes)."""
        if self.holder is None:
            return
        feed = self.feed
        opens = self._closed_by_hours(now)
        if opens is not None:
            if self.closed_view is None:
                self.closed_view = ClosedSign()
            self.closed_view.show(opens)
            if self.screen is not self.closed_view:
                self.holder.clear_widgets()
                self.holder.add_widget(self.closed_view)
                self.screen = self.closed_view
            return
        if self._idle(now):
            if self.idle_view is None:
                self.idle_view = IdleView()
            engine = feed.game.engine  # type: ignore[union-attr]
            rules = engine.rules_of(feed.state)
            currency = str(getattr(rules, "currency", "R"))
            limits = _("Bets from %(min)s to %(max)s") % {
                "min": i18n.money(engine.table_minimum(rules), currency),
                "max": i18n.money(engine.table_maximum(rules), currency)}
            self.idle_view.show(self.pit_name or self.display_name or feed.table_id,
                                _(feed.game.title), limits)  # type: ignore[union-attr]
            if self.screen is not self.idle_view:
                self.holder.clear_widgets()
                self.holder.add_widget(self.idle_view)
                self.screen = self.idle_view
            self.idle_shown = True
            return
        self.idle_shown = False
        state, link, game = feed.state, feed.link, feed.game
        other = feed.other_game
        if other != self._other_game:
            self._other_game = other
            if other is not None:  # for the technician: the dealer app's config changed
                log.warning("signage: %s operations follow the opening of a %s table with no "
                            "opening of their own; showing %r", other,
                            game.family if game else "no", GAME_CHANGED[0])
        if game is not None and other is None:
            view, front = self._view(game)
            front.show_sign(view, state, link)
            stop = interruption(link, feed.inspector_called)
            if stop is not None:  # never a stale call: the words replace the banner
                view.interrupt(*stop.words())
        else:  # no table yet, or another game's records: the view shown says so
            view = self.screen if hasattr(self.screen, "notice") else None
            if view is None:
                view, front = self._view(games()[0])
            if other is not None:
                view.notice(*(_(words) for words in GAME_CHANGED), link=link)
            else:
                front = screens(games()[0])
                front.show_sign(view, None, link)
        view.table_name = self.pit_name or self.display_name or (
            _("Table %(id)s") % {"id": feed.table_id} if feed.table_id else "")
        if view is not self.screen:
            self.holder.clear_widgets()
            self.holder.add_widget(view)
            self.screen = view

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
