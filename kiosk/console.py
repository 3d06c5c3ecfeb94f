"""The headless table: `tableside demo` and `tableside run --config table.toml`.

The table in a terminal, for a game whose screens module has a `console` (`GameConsole`).
Cards always take the real path: shoe bytes on a serial line (a pseudo-terminal fed by the
shoe simulator when no shoe is attached), the shoe driver, the table session, the journal. In
`demo` a scripted dealer plays rounds; in `run` the dealer types the game's commands (`help`
lists them).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import random
import sys
import tty
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from hardware.link import SerialLink
from hardware.protocols import protocol, simulator_of
from hardware.shoe.reader import ShoeReader
from hardware.simulators.shoe import ShoeSimulator
from kiosk.config import TableConfig
from kiosk.rules.cards import Card
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import Operation
from kiosk.store.journal import Journal
from kiosk.table.session import Alert, TableSession

Session = TableSession[Any]


class SimulatedShoe:
    """A shoe simulator on a pseudo-terminal whose cards the dealer pulls one at a time."""

    def __init__(self, decks: int, seed: int) -> None:
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty stays up between reader reconnects
        self.decks, self.seed = decks, seed
        self.sim = self._new_sim()

    def _new_sim(self) -> ShoeSimulator:
        # The cutting card sits about 14 cards from the back, as a dealer places it.
        return ShoeSimulator(decks=self.decks, seed=self.seed, cut_at=52 * self.decks - 14)

    def place_cutting_card(self, from_back: int) -> None:
        """The dealer put the cutting card `from_back` cards from the back (blackjack's rule
        4.5, shuffle and cut): the simulator sends CUT when it is reached."""
        self.sim.cut_at = 52 * self.decks - from_back

    def new_shoe(self) -> None:
        self.seed += 1
        seq = self.sim.next_seq
        self.sim = self._new_sim()
        self.sim.next_seq = seq  # the link's sequence carries on across shoes
        self.sim.opened = True

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def open(self) -> None:
        self.send(self.sim.opening())
        self.sim.opened = True

    def pull(self) -> Card | None:
        """Deal one card out of the shoe: its frame goes down the line."""
        data = self.sim.step()
        if data is None:
            return None
        self.send(data)
        return self.sim.dealt[-1].card

    async def heartbeat(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.send(self.sim.heartbeat())

    def close(self) -> None:
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def _echo_alert(alert: Alert) -> None:
    way = f" -> {alert.way_forward}" if alert.way_forward else ""
    click.echo(f"  [{alert.severity.value}] {alert.message}{way}")


def open_session(cfg: TableConfig, *, quiet: bool = False) -> tuple[Session, Journal]:
    """The table session for the configured game, folded from its journal."""
    from kiosk.rules.registry import game
    from kiosk.ui.games import screens

    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(cfg.journal, cfg.table_id)
    try:
        session: Session = TableSession(game(cfg.game), journal, cfg.rules, cfg.table_id)
    except BaseException:
        journal.close()
        raise
    seen = 0  # the opening's alerts are printed with the first update

    typed = screens(session.spec).console if session.spec.screens else None
    describe = typed.describe if typed is not None else None

    def show(state: Any, op: Operation | None) -> None:
        nonlocal seen
        if quiet:
            return
        if op is not None and describe is not None:
            text = describe(op, state)
            if text:
                click.echo(text)
        for alert in session.alerts_since(seen):
            _echo_alert(alert)
        seen = session.alerts_raised

    session.listeners.append(show)
    show(session.state, None)  # what opening the table raised (a restart's held cards)
    return session, journal


async def run_demo(cfg: TableConfig, coups: int, seed: int, pace: float) -> Session:
    """The scripted dealer plays `coups` rounds of the table's game in the terminal."""
    session, journal = open_session(cfg)
    console = game_console(session)
    shoe = SimulatedShoe(cfg.rules.decks, seed)
    session.simulated.add("shoe")  # the demo's cards are the simulator's, and say so
    reader = ShoeReader(shoe.path, "line", session.on_device_event)
    reader_task = asyncio.create_task(reader.run())
    beat = asyncio.create_task(shoe.heartbeat())
    rng = random.Random(seed)
    try:
        await reader.wait_connected(5)
        shoe.open()
        if session.replayed:
            click.echo(f"Resumed table {cfg.table_id} from {journal.count()} journal rows "
                       f"at {session.spec.round_word} "
                       f"{session.game.round_number(session.state)}: "
                       f"{session.next_step()}")
            # The simulator cannot resume the old shoe's order: the round in play is void and
            # the shoe changed, so the table's count of cards seen matches the cards it will
            # now be dealt.
            restart_simulated_shoe(session, shoe)
        for _ in range(coups):
            await console.play_round(session, shoe, rng, pace)
    finally:
        beat.cancel()
        reader.stop()
        await asyncio.gather(reader_task, beat, return_exceptions=True)
        shoe.close()
        session.flush_reports()
        journal.close()
    return session


def simulated_devices(cfg: TableConfig, seed: int, period: float = 0.5) -> dict[str, Any]:
    """A simulator on a pseudo-terminal for each device besides the card shoe whose
    `[devices.<role>]` says "simulated" and whose protocol registers one (the roulette
    wheel); the shoe's is the demo's own (`SimulatedShoe`)."""
    sims: dict[str, Any] = {}
    for device in cfg.devices:
        make = simulator_of(device.role)
        if device.role != "shoe" and device.port == "simulated" and make is not None:
            sims[device.role] = make(seed, period)
    return sims


def other_links(cfg: TableConfig, session: Any, simulators: dict[str, Any] | None = None
                ) -> list[SerialLink]:
    """A serial link for each configured device besides the card shoe (a shuffler, a
    wheel), with the protocol its `[devices.<role>]` names, to its simulator when it is
    simulated (a simulated device with no simulator is not started). The session may then
    command each device by its role."""
    links = []
    sims = simulators or {}
    for device in cfg.devices:
        if device.role == "shoe":
            continue
        url = device.port
        if url == "simulated":
            if device.role not in sims:
                continue
            url = sims[device.role].path
        link = SerialLink(url, protocol(device.protocol), session.on_device_event,
                          baudrate=device.baudrate)
        session.device_commands[device.role] = link.command
        links.append(link)
    return links


def restart_simulated_shoe(session: Any, shoe: SimulatedShoe) -> None:
    """The simulator cannot resume a half-dealt round's shoe order: the round in play is void
    and the cards are shuffled again (a new simulated shoe), as the game's demo says."""
    play = demo_play(session.spec)
    void = play.void_for_restart(session.state)
    if void is not None:
        session.perform(void)
    shuffle = play.reshuffle(session.state)
    if shuffle is not None:
        shoe.new_shoe()
        session.perform(shuffle)


def demo_play(spec: Any) -> Any:
    """The game's simulated-dealer module (`GameSpec.demo`)."""
    return importlib.import_module(spec.demo)


@dataclass(frozen=True)
class GameConsole:
    """A game's typed console and scripted demo dealer: its screens module's `console`."""

    help: str
    command: Callable[[str], Callable[[Any], Operation] | None]  # a typed line -> an action
    status: Callable[[Any], str]  # the session -> what `status` prints
    describe: Callable[[Operation, Any], str | None]  # a record -> a line, or nothing
    dealing: Callable[[Any], bool]  # the state -> cards are due from the shoe
    deal: Callable[[Any, SimulatedShoe, float], Awaitable[None]]
    play_round: Callable[[Any, SimulatedShoe, Any, float], Awaitable[None]]


def game_console(session: Any) -> GameConsole:
    from kiosk.ui.games import screens

    console = screens(session.spec).console
    if console is None:
        raise click.ClickException(f"{session.spec.title} has no typed console; run it with "
                                   f"its screen")
    return console


async def run_console(cfg: TableConfig) -> None:
    session, journal = open_session(cfg)
    console = game_console(session)
    shoe: SimulatedShoe | None = None
    url, dialect = cfg.shoe.port, cfg.shoe.dialect
    if url == "simulated":  # only when the file says so (kiosk/config.py)
        shoe = SimulatedShoe(cfg.rules.decks, seed=int.from_bytes(os.urandom(4), "big"))
        url, dialect = shoe.path, "line"
        session.simulated.add("shoe")
    reader = ShoeReader(url, dialect, session.on_device_event, baudrate=cfg.shoe.baudrate)
    others = other_links(cfg, session)
    reader_task = asyncio.create_task(reader.run())
    other_tasks = [asyncio.create_task(link.run()) for link in others]
    beat = asyncio.create_task(shoe.heartbeat()) if shoe else None
    try:
        if shoe:
            await reader.wait_connected(5)
            shoe.open()
        where = "SIMULATED SHOE" if shoe else url
        click.echo(f"Table {cfg.table_id} ({cfg.name}), journal {cfg.journal}, shoe {where}")
        click.echo(console.status(session))
        async for line in typed_lines():
            if line.strip().lower() in ("quit", "exit"):
                break
            text = line.strip()
            session.retry_journal(now=True)  # a full disk: tried again at every command
            if text in ("help", "?"):
                click.echo(console.help)
                continue
            if text == "status":
                click.echo(console.status(session))
                click.echo(_stopped(session))
                await _deal_on(session, console, shoe)  # space came back: the coup goes on
                continue
            try:
                action = console.command(text)
                if action is not None:
                    if (text.startswith("shuffle") and shoe
                            and demo_play(session.spec).new_shoe_wanted(session.state)):
                        shoe.new_shoe()
                    session.perform(action)
                await _deal_on(session, console, shoe)
            except (TablesideError, click.BadParameter, ValueError) as exc:
                click.echo(f"  refused: {exc}")
            click.echo(_stopped(session) or f"Next: {session.next_step()}")
    finally:
        if beat:
            beat.cancel()
        reader.stop()
        for link in others:
            link.stop()
        await asyncio.gather(reader_task, *other_tasks, *(t for t in [beat] if t),
                             return_exceptions=True)
        if shoe:
            shoe.close()
        session.flush_reports()
        if session.unrecorded:  # said, never dropped silently (the log has them too)
            click.echo(f"  NOT RECORDED: {session.waiting()}: out of the shoe while the "
                       f"journal could not be written", err=True)
        journal.close()


def _stopped(session: Session) -> str:
    """What `status` adds while the journal cannot be written ("" while it can)."""
    if not session.halted:
        return ""
    waiting = session.waiting() or "none"
    return (f"STOPPED: the journal cannot be written; no cards are dealt. Waiting to be "
            f"recorded: {waiting}.\n  {session.halted}")


async def _deal_on(session: Session, console: GameConsole, shoe: SimulatedShoe | None
                   ) -> None:
    """The simulated shoe deals while the coup wants cards, and stops at once when the
    journal cannot record them (the dealer's commands are read again then)."""
    if shoe is None or session.halted or session.unrecorded:
        return
    if not console.dealing(session.state):
        return
    dealing: asyncio.Future[None] = asyncio.ensure_future(console.deal(session, shoe, 0.3))
    try:
        while not dealing.done():
            await asyncio.wait({dealing}, timeout=0.02)
            if session.halted:
                dealing.cancel()
                break
    finally:
        await asyncio.gather(dealing, return_exceptions=True)
    failed = None if dealing.cancelled() else dealing.exception()
    if failed is not None:  # a refusal while dealing (a keyed card): said like any other
        raise failed


async def typed_lines() -> AsyncIterator[str]:
    """The lines typed on stdin, until its end. Read on the event loop, not in a thread: a
    thread blocked reading the terminal would keep the process from ending when SIGINT or
    SIGTERM stops the console, until someone pressed Enter."""
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    try:
        fd = sys.stdin.fileno()

        def readable() -> None:
            try:
                data = os.read(fd, 4096)
            except OSError:  # the terminal hung up: the same as its end
                data = b""
            if not data:
                loop.remove_reader(fd)
            chunks.put_nowait(data)

        loop.add_reader(fd, readable)
    except (OSError, ValueError):  # a regular file (or none): reading it never waits
        for text in sys.stdin:
            yield text
        return
    pending = b""
    try:
        while True:
            data = await chunks.get()
            if not data:
                if pending:
                    yield pending.decode(errors="replace")
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                yield line.decode(errors="replace") + "\n"
    finally:
        loop.remove_reader(fd)


def _demo_config(journal: Path, game: str = "") -> TableConfig:
    from kiosk.config import parse
    from kiosk.rules.registry import GAMES

    spec = GAMES.get(game or GAMES.names()[0])
    name = " ".join(w.capitalize() for w in spec.title.split())
    # The demo's devices are simulated, and its file says so: only such a file runs them.
    devices = "".join(f'[devices.{role}]\nport = "simulated"\n' for role in spec.devices)
    return parse(f'[table]\nid = "DEMO-1"\nname = "{name} demo"\ngame = "{spec.name}"\n'
                 f'journal = "{journal}"\n[chips]\nsmallest = 5\n{devices}')
