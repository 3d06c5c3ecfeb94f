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

A technician at the table acts here too (the Mpumalanga table game rules, section 2;
docs/roles.md): "Try the devices again" reads the configuration again, opens each configured
device and starts the table once it loads and they all open; "Run the self-test" runs the
self-test's checks and shows their results on the screen. Each asks for a reason, then the
technician's id and PIN on the PIN pad the inspector's overrides use. The people list is the
last one the pit signed when the journal holds one, else the file's own `[people]` section,
read even when the rest of the file has a mistake (`technicians`); the table's journal,
when it has one, gets the technician's approval
(`override`, role technician) and every wrong PIN (`pin_refused`, counted towards the
lockout with the self-test command's and the table's). A dealer's or an inspector's PIN is
refused on the pad with the reason; with no technician on the list both buttons are greyed
and say which role they need.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import N_, _, said
from kiosk.provision import BOOT_CREDENTIAL, BOOT_FILE, not_set_up
from kiosk.store.journal import Journal, JournalError
from kiosk.table.records import SelfTestResult
from kiosk.table.roles import (
    NO_LIST,
    Gate,
    Override,
    People,
    Person,
    Role,
    RoleRefused,
    approval,
    check_on_record,
    needs_words,
    read_people,
)
from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel
from kiosk.ui.widgets import TableButton
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


@dataclass(frozen=True, slots=True)
class Technicians:
    """Who may set the table up here, from the configuration file even when it does not
    load: its `[people]`, or the list the pit signed last when the journal holds one (NO_LIST
    when there is none or it cannot be read), its journal's file
    (None when the table has none yet: nothing goes on record) and the table's id."""

    people: People = NO_LIST
    journal: Path | None = None
    table_id: str = ""


class _Unreadable(ValueError):
    pass


def technicians(config: Path) -> Technicians:
    """`Technicians` from `config`: the `[people]` section and `[table]`'s id and journal,
    each read on its own, so that a mistake elsewhere in the file (the reason the table
    cannot start) leaves the technician able to act."""
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return Technicians()

    def fail(section: str, key: str, reason: str) -> None:
        raise _Unreadable(f"{section}.{key}: {reason}")

    section = data.get("people")
    try:
        people = read_people(section, fail) if isinstance(section, dict) else NO_LIST
    except _Unreadable as exc:
        log.warning("the technician's list cannot be read: %s", exc)
        people = NO_LIST
    table = data.get("table")
    table = table if isinstance(table, dict) else {}
    table_id = table.get("id")
    if not isinstance(table_id, str) or not table_id:
        return Technicians(people)
    where = table.get("journal", f"data/{table_id}.db")
    journal = Path(where) if isinstance(where, str) else None
    if journal is not None and not journal.is_absolute():
        journal = config.parent / journal
    if journal is None or not journal.is_file():
        return Technicians(people, None, table_id)
    signed = _signed_people(journal, table_id, fail)
    return Technicians(signed if signed is not None else people, journal, table_id)


def _signed_people(journal: Path, table_id: str,
                   fail: Callable[[str, str, str], None]) -> People | None:
    """The people list of the pit's configuration the journal last put in force, over the
    file's own (as the running table takes it); None when there is none or it cannot be
    read (the file's list then stands)."""
    from kiosk.store.journal import Journal, JournalError
    from kiosk.sync.offers import in_force

    try:
        with Journal.open(journal, table_id, read_only=True) as opened:
            applied = in_force(opened)
        section = tomllib.loads(applied.body).get("people") if applied is not None else None
        return read_people(section, fail) if isinstance(section, dict) else None
    except (JournalError, OSError, tomllib.TOMLDecodeError, _Unreadable) as exc:
        log.warning("the pit's people list on record cannot be read: %s", exc)
        return None


TECHNICIAN_REASONS = (N_("Device replaced"), N_("Device fault"),
                      N_("Cable or power put right"), N_("Routine check"))
"""The reasons a technician acts at the set-up screen with (English: the journal's words)."""


class SetupScreen(BoxLayout):  # type: ignore[misc]
    """The reason the table cannot start, what to do, this computer, and the technician's
    two controls with the line that says how they went."""

    reason = StringProperty("")
    outcome = StringProperty("")

    def __init__(self, config: Path, reason: str, *, staff: Technicians | None = None,
                 on_retry: Callable[[], str] | None = None,
                 on_selftest: Callable[[Callable[[str], None]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=16, spacing=10, **kwargs)
        self.config = config
        self.staff = staff if staff is not None else Technicians()
        self.on_retry = on_retry
        self.on_selftest = on_selftest
        self.gate = Gate(self.staff.people, clock)  # wrong PINs, when there is no journal
        self.pad: Any = None
        self._sizes: dict[TextLabel, float] = {}
        with self.canvas.before:
            Color(*theme.FELT_DARK)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos),
                  size=lambda *_: setattr(self._bg, "size", self.size))
        self.title = self._text(_("This table is not set up"), bold=True, color=theme.GOLD,
                                font_size=30, size_hint_y=0.13)
        self.why = self._text("", color=theme.IVORY, font_size=18, size_hint_y=0.27)
        self.todo = self._text(
            _("Write %(file)s onto the SD card's boot partition (tableside config example "
              "makes one; put %(credential)s beside it when the table syncs to a pit), put "
              "the card back and restart the table. docs/technician.md, Provisioning.")
            % {"file": BOOT_FILE, "credential": BOOT_CREDENTIAL},
            color=theme.IVORY, font_size=16, size_hint_y=0.2)
        self.result = self._text("", color=theme.IVORY, font_size=14, size_hint_y=0.17)
        row = BoxLayout(spacing=10, size_hint_y=0.14)
        self.retry = TableButton(text=_("Try the devices again"), font_size=17)
        self.selftest = TableButton(text=_("Run the self-test"), font_size=17)
        self.retry.bind(on_release=lambda *_: self.ask(Override.DEVICE_SETUP))
        self.selftest.bind(on_release=lambda *_: self.ask(Override.SELF_TEST))
        for b in (self.retry, self.selftest):
            b.disabled = not self.staff.people.holds(Role.TECHNICIAN)
            row.add_widget(b)
        self._buttons = row
        self.add_widget(row)
        self.machine = self._text(_("This computer: %(about)s") % {"about": this_computer()},
                                  color=theme.MUTED, font_size=14, size_hint_y=0.09)
        self.bind(reason=lambda *_: setattr(self.why, "text", self.reason))
        self.bind(outcome=lambda *_: setattr(self.result, "text", self.outcome))
        self.reason = reason
        self.bind(height=lambda *_: self._scale())

    # --- the technician's controls ---------------------------------------------------------

    def explain_refusal(self, widget: Any) -> None:
        """A greyed control, tapped: which role it needs, and that nobody can give it."""
        action = Override.DEVICE_SETUP if widget is self.retry else Override.SELF_TEST
        self.outcome = _("%(needs)s: nobody on this table's list can give it") % {
            "needs": said(needs_words(action).sentence, str(needs_words(action)))}

    def ask(self, action: Override) -> Any:
        """The PIN pad for `action`: the reason, then the technician's id and PIN."""
        from kiosk.ui.dealer.pin_pad import PinPad

        title = (_("Try the devices again") if action is Override.DEVICE_SETUP
                 else _("Run the self-test"))
        needs = needs_words(action)
        self.pad = PinPad(title, said(needs.sentence, str(needs)),
                          lambda pid, pin, reason: self.approve(action, pid, pin, reason),
                          reasons=TECHNICIAN_REASONS)
        self.pad.open()
        return self.pad

    def approve(self, action: Override, person_id: str, pin: str, reason: str) -> None:
        """The PIN checked (wrong ones counted towards the lockout: on record when the table
        has a journal), the technician's role and the reason; the approval on record, then
        the act. Raises `RoleRefused` in the dealer's words: the pad says it."""
        try:
            self._approved(action, person_id.strip(), pin, reason)
        except RoleRefused as exc:
            raise RoleRefused(said(exc.sentence, str(exc))) from exc
        if action is Override.DEVICE_SETUP:
            self.outcome = _("Trying the devices again…")
            if self.on_retry is not None:
                self.outcome = self.on_retry()
        else:
            self.outcome = _("Running the self-test…")
            if self.on_selftest is not None:
                self.on_selftest(self._show_later)

    def _show_later(self, text: str) -> None:
        Clock.schedule_once(lambda _dt: setattr(self, "outcome", text), 0)  # Kivy's thread

    def _approved(self, action: Override, person_id: str, pin: str, reason: str) -> None:
        staff = self.staff
        if staff.journal is None or not staff.journal.is_file():
            person: Person = self._checked_here(person_id, pin)
            approval(person, action, reason)
            return
        try:
            with Journal.open(staff.journal, staff.table_id) as journal:
                person = check_on_record(journal, staff.people, person_id, pin,
                                         datetime.now(UTC))
                record = approval(person, action, reason)
                journal.append(record.kind, record.to_payload())
        except JournalError as exc:  # a journal it cannot write: the PIN is checked here
            log.warning("the technician's approval is not on record: %s", exc)
            approval(self._checked_here(person_id, pin), action, reason)

    def _checked_here(self, person_id: str, pin: str) -> Person:
        person, locked = self.gate.check(person_id, pin)
        if locked:
            raise RoleRefused.of("%(who)s is locked out after too many wrong PINs: "
                                 "%(minutes)s minute(s) left", who=person_id,
                                 minutes=self.staff.people.lockout_seconds // 60)
        return person

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
        for b in self._buttons.children:
            b.font_size = 17 * unit
        self.padding = 16 * unit


class SetupApp(App):  # type: ignore[misc]
    """The screen, looking at the configuration every LOOK_EVERY seconds; `ready` turns True
    (and the app stops) once the table can start."""

    def __init__(self, config: Path, reason: str,
                 look: Callable[[Path], str] = not_set_up,
                 check: Callable[[Path], list[SelfTestResult]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.config_path = config  # (App.config is Kivy's own settings)
        self.first_reason = reason
        self.look_at = look
        self.check = check or selftest_here
        self.ready = False
        self.screen: Any = None  # the widget with the `reason` (SetupScreen, ClosedSign)
        self._looking: Any = None  # the Clock event of the looks
        self.title = _("Tableside: this table is not set up")

    def load_kv(self, filename: str | None = None) -> bool:
        return False

    def build(self) -> SetupScreen:
        self.screen = SetupScreen(self.config_path, self.first_reason,
                                  staff=technicians(self.config_path),
                                  on_retry=self.try_devices_again,
                                  on_selftest=self.run_selftest)
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


    def try_devices_again(self) -> str:
        """The technician's "Try the devices again": the configuration read again and each
        configured device opened; the table starts (RESTART) once it loads and every device
        opens. Else what stands in the way, in words."""
        from kiosk.config import ConfigError, load, try_devices

        reason = self.look_at(self.config_path)
        if reason:
            if self.screen is not None:
                self.screen.reason = reason
            return _("The configuration still does not load, so the table cannot start "
                     "(above)")
        try:
            cfg = load(self.config_path)
        except ConfigError as exc:
            return str(exc)
        closed = [t.line() for t in try_devices(cfg) if t.problem]
        if closed:
            return "\n".join(closed)
        log.info("%s loads and its devices open: starting the table", self.config_path)
        self.ready = True
        self.stop_looking()
        Clock.schedule_once(lambda _dt: self.stop(), 1.0)  # the technician reads it first
        return _("The devices answer: the table starts")

    def run_selftest(self, show: Callable[[str], None]) -> None:
        """The technician's "Run the self-test", in a thread (a device is given seconds to
        answer); `show` gets the results in words."""
        def run() -> None:
            try:
                results = self.check(self.config_path)
            except Exception as exc:  # a check that broke is said, not a dark screen
                log.exception("the self-test")
                show(_("The self-test could not run: %(why)s") % {"why": exc})
                return
            failed = sum(not r.ok for r in results)
            head = _("%(passed)s checks passed, %(failed)s failed") % {
                "passed": len(results) - failed, "failed": failed}
            show(head + "\n" + "\n".join(f"{'ok  ' if r.ok else 'FAIL'}  {r.check}: "
                                          f"{r.detail}" for r in results))

        threading.Thread(target=run, daemon=True, name="setup-selftest").start()


def selftest_here(config: Path) -> list[SelfTestResult]:
    """The self-test from the set-up screen: every check with a configuration that loads
    (on record, as the command's); without one, the checks that need none (the disk, the
    clock, the SD image), not on record."""
    from kiosk.config import ConfigError, load
    from kiosk.selftest import check_clock, check_disk, check_image, run_selftest as run_all

    try:
        cfg = load(config)
    except ConfigError:
        return [check_disk(config.parent), check_clock(datetime.now(UTC)), *check_image()]
    return run_all(cfg, wait=2.0)


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
            try:
                await app.async_run(async_lib="asyncio")
            finally:
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
