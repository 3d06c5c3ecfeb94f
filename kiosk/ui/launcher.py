"""Starting the table: `tableside demo` and `tableside run --config table.toml`.

One asyncio loop carries the Kivy dealer app, the shoe reader, the simulated shoe when no shoe
is attached, and the watchdog of the signage process (docs/architecture.md: one event loop). The
signage is its own process on the second display, reading the same journal, so either can restart
without the other going dark.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.ui.options import KioskOptions as KioskOptions  # where its callers find it
from kiosk.ui.signage.link import HEARTBEAT_EVERY, heartbeat_path
from kiosk.watchdog import notify

log = logging.getLogger(__name__)


def display_available() -> bool:
    """Whether a window can be shown: an X or Wayland display, or SDL told where to draw."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("SDL_VIDEODRIVER"))


def prepare_kivy(opts: KioskOptions) -> None:
    """Settings Kivy reads once, before its window exists."""
    if opts.headless or opts.offscreen:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
        os.environ.pop("DISPLAY", None)
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):
        os.environ.setdefault(name, "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_HOME", str(Path.cwd() / ".kivy"))
    from kivy.config import Config

    width, height = opts.size
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if opts.fullscreen else "0")
    if opts.position is not None and not (opts.headless or opts.offscreen):
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "position", "custom")
        Config.set("graphics", "left", str(opts.position[0]))
        Config.set("graphics", "top", str(opts.position[1]))
        Config.set("graphics", "borderless", "1")
    Config.set("kivy", "exit_on_escape", "0")  # a dealer's stray key must not close the table
    # No multisampling: on llvmpipe it doubles every frame's drawing and costs ~50 MB at
    # 1920x1080 (bench/dealer_screen.py); the screens' edges are drawn without it.
    Config.set("graphics", "multisamples", "0")
    if opts.headless or opts.offscreen:
        for option, _value in list(Config.items("input")):
            Config.remove_option("input", option)
        return
    # One input provider per touch device: Kivy reads each touchscreen itself (probesysfs,
    # mtdev), and a real mouse through SDL. SDL must not also turn a touch into a mouse click:
    # where SDL reads the touchscreen too (its KMS/DRM driver; an X server given the
    # touchscreen, unlike the SD image's, which takes no input), every tap (a chip, a payout)
    # would arrive twice, once from each.
    os.environ["SDL_TOUCH_MOUSE_EVENTS"] = "0"
    for option, _value in list(Config.items("input")):
        Config.remove_option("input", option)
    Config.set("input", "mouse", "mouse")
    Config.set("input", "touchscreens", "probesysfs,provider=mtdev")


STOP_GRACE = 1.5  # seconds the signage has to stop by itself before it is killed


class SignageProcess:
    """The player signage in its own process, restarted if it dies."""

    def __init__(self, journal: Path, name: str, size: tuple[int, int], *,
                 extra: tuple[str, ...] = ()) -> None:
        self.args = [sys.executable, "-m", "kiosk.ui.signage", "--journal", str(journal),
                     "--name", name, "--size", f"{size[0]}x{size[1]}", *extra]
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._stopping = False

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdin=subprocess.DEVNULL)

    async def watch(self) -> None:
        while not self._stopping:
            await asyncio.sleep(1.0)
            if self.proc is not None and self.proc.poll() is not None and not self._stopping:
                log.warning("signage exited with %s; restarting", self.proc.returncode)
                self.restarts += 1
                await asyncio.sleep(1.0)
                self.start()

    def stop(self) -> None:
        self._stopping = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # it stops within STOP_CHECK (kiosk/ui/signage/app.py)
            try:
                self.proc.wait(STOP_GRACE)
            except subprocess.TimeoutExpired:
                log.warning("signage still running %.1f s after SIGTERM: killed", STOP_GRACE)
                self.proc.kill()
                self.proc.wait()


class SimulatedDealer:
    """With the simulated shoe, the cards that need nobody's decision come out by themselves
    at a dealer's pace (`card_due`), so the dealer only taps what a dealer decides."""

    def __init__(self, session: Any, shoe: Any, pace: float,
                 card_due: Callable[[Any], bool] | None = None) -> None:
        self.session = session
        self.shoe = shoe
        self.pace = pace
        self.card_due = card_due or _demo_play(session.spec).card_due

    async def run(self) -> None:
        from kiosk.table.session import Severity

        while True:
            await asyncio.sleep(self.pace)
            before = self.session.state
            if self.session.halted or self.session.unrecorded:
                # The journal cannot record cards: no more come out until it can (the
                # session tries it again with each heartbeat of the shoe).
                continue
            if self.session.held_cards or not self.card_due(before):
                continue
            if self.shoe.pull() is None:
                self.session.alert(Severity.STOP, "The simulated shoe is empty",
                                   "Void the round and load a new shoe")
                await asyncio.sleep(5)
                continue
            for _ in range(200):  # the card comes back through the real driver
                await asyncio.sleep(0.01)
                if self.session.state is not before:
                    break


async def _heartbeat(path: Path) -> None:
    """Touch `path` while the dealer app runs: the signage shows the table paused when it
    stops (kiosk/ui/signage/link.py); and tell systemd's watchdog the app is alive. It runs on
    the app's own loop, so a frozen screen stops both."""
    warned = False
    notify("READY=1")
    while True:
        notify("WATCHDOG=1")
        try:
            path.touch()
        except OSError as exc:
            if not warned:  # a read-only disk: the signage then goes by the journal alone
                log.warning("cannot touch the heartbeat %s: %s", path, exc)
                warned = True
        await asyncio.sleep(HEARTBEAT_EVERY)


async def _watch_pit(configs: Any, app: Any, journal: Path) -> None:
    """Every few seconds from the app's own loop: take up the pit's configuration between
    rounds (kiosk/sync/offers.py), and show the sync's state in a corner of the screen when
    the table syncs to a pit."""
    from kiosk.sync.offers import POLL_EVERY
    from kiosk.ui.sync_words import corner, read

    syncs = bool(configs.base.sync.enabled)
    while True:
        configs.poll()
        screen = getattr(app, "screen", None)
        if screen is not None:
            try:
                now = await asyncio.to_thread(read, journal, syncs)
                if now is not None:
                    screen.sync_status, screen.sync_late = corner(now), now.late()
            except Exception:  # the corner is for technicians: never stop the table for it
                log.exception("sync status")
        await asyncio.sleep(POLL_EVERY)


RESTART = 75
"""`run_kiosk`'s status when a configuration from the pit needs the kiosk started again
(another game, chips or table name): `tableside run` starts itself again at once."""


async def run_kiosk(cfg: TableConfig, opts: KioskOptions) -> int:
    """Run the table until the dealer app closes, or SIGINT or SIGTERM closes it (then the
    status is kiosk.stopping's rule). Returns the exit status."""
    from kiosk.stopping import StopSignals

    stops = StopSignals()  # before SDL starts: SDL then leaves SIGINT and SIGTERM to us
    prepare_kivy(opts)
    from kivy.clock import Clock

    from kiosk.assembly import (
        SimulatedShoe,
        dealing_link,
        deals_cards,
        open_table,
        other_links,
        restart_simulated_shoe,
        simulated_devices,
    )
    from kiosk.table.panel_link import PanelLink
    from kiosk.table.session import Severity
    from kiosk.ui.games import screens

    restart_to: list[TableConfig] = []
    # The table's own file is the first version; the pit's version in force goes over it,
    # and newer ones are taken up between rounds (kiosk/assembly.py, as the console does).
    table = open_table(cfg, quiet=True, restart=lambda new: restart_for(new))
    session, journal, cfg, configs = table.session, table.journal, table.config, table.configs
    spec = session.spec
    if cfg.source is not None:
        from kiosk.provision import pending_error

        problem = pending_error(cfg.source)
        if problem:  # a new table.toml on the SD card was refused: the table runs as before
            session.alert(Severity.STOP, problem.splitlines()[0],
                          "Call a technician: the table runs its previous configuration")
    play, front = _demo_play(spec), screens(spec)
    shoe: SimulatedShoe | None = None
    links: list[Any] = []
    tasks: list[asyncio.Task[Any]] = []

    def dispatch(fn: Callable[[], None]) -> None:
        Clock.schedule_once(lambda _dt: fn(), 0)

    def new_shoe() -> None:
        if shoe is not None and play.new_shoe_wanted(session.state):
            shoe.new_shoe()

    reader: Any = None
    if deals_cards(spec):  # its shoe, or a shuffler that deals, real or simulated: as the
        # console decides (kiosk/assembly.py)
        reader, shoe = dealing_link(cfg, session, opts.seed)
        links.append(reader)
    from kiosk import i18n

    # The house's language and money style on the dealer screen, before it is built.
    i18n.set_money_style(cfg.display.money_style)
    i18n.use(cfg.display.dealer_language)
    app = front.dealer_app(session, cfg, shoe, new_shoe)
    simulators = simulated_devices(cfg, opts.seed, min(opts.pace, 0.5))
    links += other_links(cfg, session, simulators)
    tasks += [asyncio.create_task(link.run()) for link in links]
    tasks += [asyncio.create_task(sim.run()) for sim in simulators.values()]
    if shoe is not None:
        tasks.append(asyncio.create_task(shoe.heartbeat()))
        tasks.append(asyncio.create_task(
            SimulatedDealer(session, shoe, opts.pace, play.card_due).run()))

    def no_more_bets() -> None:  # the panel's button does what the screen's button does
        if app.screen is not None:
            app.screen.no_more_bets()
        else:
            session.attempt(session.game.close_betting)

    def restart_for(new: TableConfig) -> None:  # the screens cannot take it over live
        restart_to.append(new)
        Clock.schedule_once(lambda _dt: app.stop(), 2.0)  # the dealer reads why first

    tasks.append(asyncio.create_task(_watch_pit(configs, app, Path(cfg.journal))))
    panel = PanelLink.open(cfg.gpio, session, dispatch, opts.pin_factory, no_more_bets)
    tasks.append(asyncio.create_task(_heartbeat(heartbeat_path(Path(cfg.journal)))))
    signage: SignageProcess | None = None
    if opts.signage and not opts.headless:
        # From the table's file when it has one: the house's languages and money style.
        extra = ("--config", str(cfg.source)) if cfg.source is not None else ()
        if shoe is not None:  # the sign says SIMULATED SHOE, as the dealer's screen does
            extra = (*extra, "--simulated-shoe")
        signage = SignageProcess(cfg.journal, cfg.name, opts.signage_size, extra=extra)
        signage.start()
        tasks.append(asyncio.create_task(signage.watch()))
    if opts.headless:
        tasks.append(asyncio.create_task(front.headless_play(app, session, cfg, opts, panel)))
    status = 0
    try:
        if shoe is not None and reader is not None:
            await reader.wait_connected(5)
            shoe.open()
            if session.replayed:
                restart_simulated_shoe(session, shoe)
        elif simulators and session.replayed:  # a simulated device forgot the round in play
            void = play.void_for_restart(session.state)
            if void is not None:
                session.attempt(void)
        if stops.signum is None:
            stops.arm(app.stop)
            from kiosk.ui.perf_present import keep_drawn

            # On a display a still screen is drawn again: KMS/DRM loses the first frame.
            redraws = None if opts.headless or opts.offscreen else keep_drawn()
            try:
                await app.async_run(async_lib="asyncio")
            finally:
                if redraws is not None:
                    redraws.cancel()
        if opts.headless and not any(front.DONE in line for line in opts.report):
            status = 1
        if restart_to:
            status = RESTART
    finally:
        for t in tasks:
            t.cancel()
        for link in links:
            link.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        if signage is not None:
            signage.stop()
        panel.close()
        if shoe is not None:
            shoe.close()
        for sim in simulators.values():
            sim.close()
        session.flush_reports()
        journal.close()
        stops.close()
    return status if stops.status is None else stops.status


def _demo_play(spec: Any) -> Any:
    from kiosk.assembly import demo_play

    return demo_play(spec)
