"""Starting the table: `tableside demo` and `tableside run --config table.toml`.

One asyncio loop carries the Kivy dealer app, the shoe reader, the simulated shoe when no shoe
is attached, and the watchdog of the signage process (DESIGN.md: one event loop). The signage
is its own process on the second display, reading the same journal, so either can restart
without the other going dark.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.ui.signage.link import HEARTBEAT_EVERY, heartbeat_path

log = logging.getLogger(__name__)


@dataclass
class KioskOptions:
    """How to start the table. `headless` draws offscreen and plays one coup by itself,
    writing screenshots of both screens into `out`."""

    headless: bool = False
    out: Path | None = None
    signage: bool = True
    size: tuple[int, int] = (800, 480)
    signage_size: tuple[int, int] = (960, 540)
    fullscreen: bool = False
    pace: float = 0.6  # seconds between the simulated shoe's cards, like a dealer's hand
    seed: int = 2026
    pin_factory: str | None = None  # None: the config's [gpio] factory; "mock" in the demo
    report: list[str] = field(default_factory=list)  # what the headless run did, for the CLI
    rounds: int = 12  # blackjack --headless: at most this many rounds (stops after a cut-card
    # shuffle)


def display_available() -> bool:
    """Whether a window can be shown: an X or Wayland display, or SDL told where to draw."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("SDL_VIDEODRIVER"))


def prepare_kivy(opts: KioskOptions) -> None:
    """Settings Kivy reads once, before its window exists."""
    if opts.headless:
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
    Config.set("kivy", "exit_on_escape", "0")  # a dealer's stray key must not close the table
    # No multisampling: on llvmpipe it doubles every frame's drawing and costs ~50 MB at
    # 1920x1080 (bench/dealer_screen.py); the screens' edges are drawn without it.
    Config.set("graphics", "multisamples", "0")
    if opts.headless:
        for option, _value in list(Config.items("input")):
            Config.remove_option("input", option)


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
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class SimulatedDealer:
    """With the simulated shoe, the cards that need nobody's decision come out by themselves
    at a dealer's pace (`card_due`), so the dealer only taps what a dealer decides."""

    def __init__(self, session: Any, shoe: Any, pace: float,
                 card_due: Callable[[Any], bool] | None = None) -> None:
        self.session = session
        self.shoe = shoe
        self.pace = pace
        self.card_due = card_due or _punto_banco_card_due

    async def run(self) -> None:
        from kiosk.table.session import Severity

        while True:
            await asyncio.sleep(self.pace)
            before = self.session.state
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


def _punto_banco_card_due(state: Any) -> bool:
    from kiosk.rules import punto_banco as pb

    return (state.phase is pb.Phase.DEALING and state.pending is None
            and pb.next_hand(state) is not None)


def _is_blackjack(cfg: TableConfig) -> bool:
    from kiosk.rules.blackjack.house import BlackjackRules

    return isinstance(cfg.rules, BlackjackRules)


async def run_kiosk(cfg: TableConfig, opts: KioskOptions) -> int:
    """Run the table until the dealer app closes. Returns the exit status."""
    prepare_kivy(opts)
    from kivy.clock import Clock

    from hardware.shoe.reader import ShoeReader
    from kiosk.console import SimulatedShoe, open_session
    from kiosk.rules import punto_banco as pb
    from kiosk.table.panel_link import PanelLink
    from kiosk.ui.dealer.app import DealerApp

    session, journal = open_session(cfg, quiet=True)
    blackjack = _is_blackjack(cfg)
    shoe: SimulatedShoe | None = None
    url, dialect = cfg.shoe.port, cfg.shoe.dialect
    if url == "simulated":
        shoe = SimulatedShoe(cfg.rules.decks, seed=opts.seed)
        url, dialect = shoe.path, "line"

    def dispatch(fn: Callable[[], None]) -> None:
        Clock.schedule_once(lambda _dt: fn(), 0)

    def new_shoe() -> None:
        if shoe is not None and (blackjack or session.state.coup > 1):
            shoe.new_shoe()

    app: Any
    card_due: Callable[[Any], bool] | None = None
    if blackjack:
        from kiosk.rules.blackjack import engine as bj
        from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

        def draw() -> None:
            if shoe is not None:
                shoe.pull()

        def place_cutting_card(_state: Any, op: Any) -> None:
            # The simulated shoe sends CUT where the dealer put the cutting card (rule 4.5).
            if shoe is not None and isinstance(op, bj.CardsCut):
                shoe.place_cutting_card(op.cutting_card_from_back)

        session.listeners.append(place_cutting_card)
        app = BlackjackDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                                 on_new_shoe=new_shoe,
                                 on_draw=draw if shoe is not None else None)
        card_due = bj.card_due_without_decision
        close_betting: Callable[[Any], Any] = bj.close_betting
    else:
        app = DealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                        on_new_shoe=new_shoe)
        close_betting = pb.close_betting
    reader = ShoeReader(url, dialect, session.on_device_event, baudrate=cfg.shoe.baudrate)
    tasks: list[asyncio.Task[Any]] = [asyncio.create_task(reader.run())]
    if shoe is not None:
        tasks.append(asyncio.create_task(shoe.heartbeat()))
        tasks.append(asyncio.create_task(
            SimulatedDealer(session, shoe, opts.pace, card_due).run()))

    def no_more_bets() -> None:  # the panel's button does what the screen's button does
        if app.screen is not None:
            app.screen.no_more_bets()
        else:
            session.attempt(close_betting)

    panel = PanelLink.open(cfg.gpio, session, dispatch, opts.pin_factory, no_more_bets)
    tasks.append(asyncio.create_task(_heartbeat(heartbeat_path(Path(cfg.journal)))))
    signage: SignageProcess | None = None
    if opts.signage and not opts.headless:
        signage = SignageProcess(cfg.journal, cfg.name, opts.signage_size)
        signage.start()
        tasks.append(asyncio.create_task(signage.watch()))
    if opts.headless:
        play = _headless_blackjack if blackjack else _headless_coup
        tasks.append(asyncio.create_task(play(app, session, cfg, opts, panel)))
    status = 0
    try:
        if shoe is not None:
            await reader.wait_connected(5)
            shoe.open()
            if session.replayed:
                _restart_simulated_shoe(session, shoe, blackjack)
        await app.async_run(async_lib="asyncio")
        done = "round settled" if blackjack else "coup settled"
        if opts.headless and not any(done in line for line in opts.report):
            status = 1
    finally:
        for t in tasks:
            t.cancel()
        reader.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        if signage is not None:
            signage.stop()
        panel.close()
        if shoe is not None:
            shoe.close()
        journal.close()
    return status


async def _heartbeat(path: Path) -> None:
    """Touch `path` while the dealer app runs: the signage shows the table paused when it
    stops (kiosk/ui/signage/link.py). It runs on the app's own loop, so a frozen screen
    stops it too."""
    warned = False
    while True:
        try:
            path.touch()
        except OSError as exc:
            if not warned:  # a read-only disk: the signage then goes by the journal alone
                log.warning("cannot touch the heartbeat %s: %s", path, exc)
                warned = True
        await asyncio.sleep(HEARTBEAT_EVERY)


def _restart_simulated_shoe(session: Any, shoe: Any, blackjack: bool) -> None:
    """The simulator cannot resume a half-dealt round's shoe order: the round in play is void
    and the cards are shuffled again (a new simulated shoe)."""
    if blackjack:
        from kiosk.rules.blackjack import engine as bj

        state = session.state
        if state.phase is not bj.Phase.BETTING:
            session.perform(lambda s: bj.void_round(s, "simulated shoe restarted", "demo"))
        if bj.can_shuffle(session.state):
            shoe.new_shoe()
            session.perform(bj.shuffle)
        return
    from kiosk.rules import punto_banco as pb

    if session.state.phase is not pb.Phase.BETTING:
        session.perform(lambda s: pb.void_coup(s, "simulated shoe restarted", "demo"))
    if session.state.shoe is not None:
        shoe.new_shoe()
        session.perform(lambda s: pb.shuffle(s, "hand"))


async def _tap(widget: Any, settle: float = 0.15) -> None:
    """A finger on the widget's centre: down, up, and time for the screen to follow."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    await asyncio.sleep(0.03)
    touch.touch_up()
    await asyncio.sleep(settle)


async def _headless_blackjack(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                              panel: Any) -> None:
    """Play rounds by touching the blackjack screen through a cut-card shuffle (rules
    4.1-4.7, shuffle and cut), then screenshot both screens. Cards come from the simulated
    shoe over the pseudo-terminal; the players hit below 17 and stand from 17."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.cut import Stage
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    tap = _tap
    shuffles = 0

    async def until(test: Callable[[], bool], seconds: float = 30.0) -> bool:
        for _ in range(int(seconds / 0.05)):
            if test():
                return True
            await asyncio.sleep(0.05)
        return False

    async def prepare_shoe(screen: Any) -> None:
        nonlocal shuffles
        prep = session.state.prep
        if prep.stage is Stage.READY:
            return
        shuffles += 1
        report.append(f"shuffle {shuffles}: {bj.next_step(session.state)}")
        if prep.stage is Stage.SHUFFLE:
            if session.state.rules.shuffler:
                await tap(screen.ids.hand_shuffle)
                await tap(screen.ids.into_shuffler)
            else:
                await tap(screen.ids.shuffled)
        if session.state.prep.stage is Stage.CUT:
            who = bj.prep_now(session.state).offered_to() or 1
            # The cutting card as deep as rule 4.5 allows (half way), so the demo reaches it.
            while not screen.ids.back_more.disabled and \
                    screen.from_back < 52 * session.state.rules.decks // 2:
                await tap(screen.ids.back_more)
            await tap(screen.tile(who))
            await tap(screen.ids.box_cuts)
            report.append(f"cut by box {who}: {session.state.prep.cut_at} cards, cutting "
                          f"card {session.state.prep.cutting_card_from_back} from the back")
        await until(lambda: session.state.prep.stage is Stage.READY, 10)

    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)
        # Each box bets the minimum in as few chips as the buttons allow (rule 2.2): the
        # biggest chip that does not go over it, else the smallest.
        minimum = session.state.rules.minimum
        chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
        chip = max((c for c in chips if c.value <= minimum), key=lambda c: c.value,
                   default=chips[0])
        for n in range(1, opts.rounds + 1):
            await prepare_shoe(screen)
            for box in (1, 2, 3, 5, 6, 7):
                if screen.alert_shown:  # e.g. "cutting card out": read, then carry on
                    report.append(f"alert: {screen.alert_text}")
                    await tap(screen.ids.alert_ok)
                await tap(screen.tile(box))
                for _ in range(20):
                    if session.state.stake_of(box, "A") >= session.state.rules.minimum:
                        break
                    await tap(chip)
                else:
                    report.append(f"could not bet on box {box}: player {screen.player}, "
                                  f"{bj.next_step(session.state)}")
                    return
            if n == 1:
                save_png(render(screen), out / "dealer-betting-800x480.png")
            for _ in range(600):  # a round's steps, by touch, until its payouts are shown
                s = session.state
                if screen.alert_shown:
                    report.append(f"alert: {screen.alert_text}")
                    await tap(screen.ids.alert_ok)
                if s.phase is bj.Phase.PAYING or s.pending is not None:
                    break
                if s.prep.stage is not Stage.READY and not s.round_cards:
                    await prepare_shoe(screen)  # the cutting card came first (rule 4.1.2)
                elif s.phase is bj.Phase.BETTING:
                    await tap(screen.ids.primary)  # no more bets
                    if session.state.phase is bj.Phase.BETTING:
                        await asyncio.sleep(0.2)
                elif s.phase in (bj.Phase.CHECK, bj.Phase.INSURANCE):
                    await tap(screen.ids.primary)
                elif s.phase is bj.Phase.PLAYING and bj.decisions(s):
                    h = s.current
                    if h is not None and h.total.best < 17 and screen.can_draw:
                        await tap(screen.ids.draw)
                        await until(lambda before=s: session.state is not before, 5)
                    else:
                        await tap(screen.ids.stand)
                elif s.phase is bj.Phase.PLAYING and bj.can_pay_blackjack(s):
                    await tap(screen.ids.pay_blackjack)
                else:
                    await asyncio.sleep(0.1)
            await asyncio.sleep(0.3)
            if n == 1:
                save_png(render(screen), out / "dealer-paying-800x480.png")
                save_png(_render_at(screen, (1920, 1080)), out / "dealer-1920x1080.png")
            report.append(f"round {n}: {screen.step}")
            await asyncio.sleep(0.3)  # let the screen lay out again after the big render
            await until(lambda: not screen.ids.primary.disabled, 5)
            await tap(screen.ids.primary)
            settled = session.state.last_settled
            if settled is None or settled.round != session.state.round - 1:
                report.append(f"round {n} not settled: {bj.next_step(session.state)}")
                return
            net = sum(r.net for r in (*settled.settlements, *settled.paid_earlier))
            report.append(f"round settled: round {settled.round}, players' net {net}")
            if session.state.prep.stage is not Stage.READY:
                break  # the cutting card came out: the shoe has been played through
        await prepare_shoe(screen)  # the cut-card shuffle, as the next shoe starts
        report.append(f"shuffles: {shuffles}")
        save_png(render(screen), out / "dealer-800x480.png")
        await _signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless round")
        report.append(f"error: {exc}")
    finally:
        app.stop()


async def _signage_shots(cfg: TableConfig, out: Path, report: list[str]) -> None:
    for size in ((1920, 1080), (800, 480)):
        name = f"signage-{size[0]}x{size[1]}.png"
        args = SignageProcess(cfg.journal, cfg.name, size, extra=(
            "--screenshot", str(out / name), "--after", "1.5")).args
        proc = await asyncio.create_subprocess_exec(*args)
        code = await proc.wait()
        report.append(f"signage screenshot {name}: exit {code}")


async def _headless_coup(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                         panel: Any) -> None:
    """Play one coup by touching the dealer screen, then screenshot both screens."""
    from kiosk.rules import punto_banco as pb
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)

        tap = _tap

        def chip(rank: int) -> Any:
            chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
            return chips[min(rank, len(chips) - 1)]

        if session.state.shoe is None:
            await tap(screen.ids.new_shoe)
        rules = session.state.rules
        areas = rules.area_ids()
        for area, kind, presses in ((areas[0], "banker", (3, 3, 0)),
                                    (areas[2], "player", (3, 2)),
                                    (areas[3], "banker", (4,)), (areas[3], "tie", (2,))):
            tile = next(t for t in screen.ids.areas.children if t.area == area)
            await tap(tile)
            await tap(screen.ids[f"kind_{kind}"])
            for p in presses:
                if not chip(p).disabled:
                    await tap(chip(p))
        report.append(f"bets placed: {len(session.state.bets)}")
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        if session.state.phase is not pb.Phase.DEALING:
            report.append(f"no more bets refused: {screen.step_detail or screen.alert_text}")
            return
        report.append(f"lamp after no more bets: {panel.describe()}")
        for _ in range(600):  # the simulated shoe deals through the pty at a dealer's pace
            if session.state.phase is pb.Phase.PAYING:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        report.append(f"result: {screen.step}")
        save_png(render(screen), out / "dealer-paying-800x480.png")
        big = _render_at(screen, (1920, 1080))
        save_png(big, out / "dealer-1920x1080.png")
        await asyncio.sleep(0.2)
        await tap(screen.ids.primary)
        if session.state.last_settled is not None:
            report.append(f"coup settled: coup {session.state.last_settled.coup}")
        await asyncio.sleep(0.3)
        save_png(render(screen), out / "dealer-800x480.png")
        await _signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless coup")
        report.append(f"error: {exc}")
    finally:
        app.stop()


def _render_at(widget: Any, size: tuple[int, int]) -> Any:
    """Lay the screen out at another size, draw it off-screen, and put it back."""
    from kivy.base import EventLoop

    from kiosk.ui.capture import render

    old_hint, old_size = widget.size_hint, tuple(widget.size)
    widget.size_hint = (None, None)
    widget.size = size
    for _ in range(3):
        EventLoop.idle()
    frame = render(widget)
    widget.size_hint = old_hint
    widget.size = old_size
    return frame

