"""The table's assembly: its session over the journal, the serial links to its devices (each
to its simulator when the file says "simulated"), and the simulated card shoe of the demo.

The typed console (kiosk/console.py) and the dealer's screen (kiosk/ui/launcher.py) both
build the table from here, so the screen and the console run one table, not two: both open
it with `open_table`, which opens with the pit's signed configuration version in force (the
table's file is only the first version) and takes up new ones between rounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import tty
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import click

from hardware.link import SerialLink
from hardware.protocols import protocol, simulator_of
from hardware.simulators.shoe import ShoeSimulator
from hardware.simulators.shuffler import ShufflerSimulator
from kiosk.config import DeviceConfig, TableConfig, parse
from kiosk.rules.cards import Card
from kiosk.rules.operations import Operation
from kiosk.rules.registry import GAMES
from kiosk.store.journal import Journal
from kiosk.sync.offers import POLL_EVERY, PitConfigs, effective_file
from kiosk.table.session import Alert, Severity, TableSession

Session = TableSession[Any]


class SimulatedShoe:
    """A card device's simulator on a pseudo-terminal whose cards the dealer pulls one at a
    time: the card shoe's, or with `role="shuffler"` a shuffler that deals (device SHUF)."""

    def __init__(self, decks: int, seed: int, role: str = "shoe") -> None:
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty stays up between reader reconnects
        self.decks, self.seed, self.role = decks, seed, role
        self.sim = self._new_sim()

    def _new_sim(self) -> ShoeSimulator:
        if self.role == "shuffler":  # no cutting card: the shuffler shuffles again
            return ShufflerSimulator(decks=self.decks, seed=self.seed)
        # The cutting card sits about 14 cards from the back, as a dealer places it.
        return ShoeSimulator(decks=self.decks, seed=self.seed, cut_at=52 * self.decks - 14)

    def place_cutting_card(self, from_back: int) -> None:
        """The dealer put the cutting card `from_back` cards from the back (blackjack's rule
        4.5, shuffle and cut): the simulator sends CUT when it is reached."""
        if self.role != "shuffler":
            self.sim.cut_at = 52 * self.decks - from_back

    def new_shoe(self) -> None:
        self.seed += 1
        seq = self.sim.next_seq
        self.sim = self._new_sim()
        self.sim.next_seq = seq  # the link's sequence carries on across shoes
        self.sim.opened = True
        if isinstance(self.sim, ShufflerSimulator):  # it shuffles and counts again
            self.send(self.sim.shuffled())

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


def _say_if_closed(session: Session) -> None:
    """A table started outside its approved hours says so at once, in the words its first
    round would be refused with (rule 2.4)."""
    from kiosk.rules.errors import NotAllowed
    from kiosk.table.hours import verify_open

    try:
        verify_open(session.hours, session.journal.now(),
                    session.folded.facts.outside_hours_until)
    except NotAllowed as exc:
        session.refused(exc)


def open_session(cfg: TableConfig, *, quiet: bool = False,
                 describe: Callable[[Operation, Any], str | None] | None = None
                 ) -> tuple[Session, Journal]:
    """The table session for the configured game, folded from its journal; unless `quiet`,
    each record is printed as `describe` words it (the game's typed console's) and each
    alert as it is raised."""
    from kiosk.rules.registry import game

    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(cfg.journal, cfg.table_id)
    try:
        session: Session = TableSession(game(cfg.game), journal, cfg.rules, cfg.table_id)
        session.hours = cfg.hours  # rule 2.4: no new round outside the approved hours
        session.set_people(cfg.people)  # who may do what (kiosk/table/roles.py)
        _say_if_closed(session)
    except BaseException:
        journal.close()
        raise
    seen = 0  # the opening's alerts are printed with the first update

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


@dataclass(frozen=True)
class OpenTable:
    """A table as `open_table` opens it: its session and journal, the configuration it runs
    (its file with the pit's version in force over it) and what takes up the pit's next
    versions."""

    session: Session
    journal: Journal
    config: TableConfig
    configs: PitConfigs


def open_table(base: TableConfig, *, quiet: bool = False,
               describe: Callable[[Operation, Any], str | None] | None = None,
               restart: Callable[[TableConfig], None] | None = None) -> OpenTable:
    """Open the table as every way of running it does (the screen, `--headless`, the
    console, a start after a crash or a restart): with the last signed configuration the
    journal holds from the pit over `base`, the table's own file, so no start quietly goes
    back to the file's limits. `configs.poll()` (see `take_up`) then takes up the pit's
    newer versions between rounds; `restart` is called when one needs the table started
    again (another game, chips or name)."""
    cfg, problem = effective_file(base)
    session, journal = open_session(cfg, quiet=quiet, describe=describe)
    if problem:
        session.alert(Severity.WARNING, problem, "Tell the pit")
    try:
        configs = PitConfigs(session, base, restart)
    except BaseException:
        journal.close()
        raise
    return OpenTable(session, journal, cfg, configs)


async def take_up(configs: PitConfigs, every: float = POLL_EVERY) -> None:
    """Look at the pit's offered configuration every `every` seconds, for as long as the
    table runs (cancel it to stop): a new version is applied between rounds."""
    while True:
        configs.poll()
        await asyncio.sleep(every)


def simulated_devices(cfg: TableConfig, seed: int, period: float = 0.5) -> dict[str, Any]:
    """A simulator on a pseudo-terminal for each device besides the dealing one (the card
    shoe, or a shuffler that deals) whose `[devices.<role>]` says "simulated" and whose
    protocol registers one (the roulette wheel, a shuffler that only shuffles); the dealing
    device's is the demo's own (`SimulatedShoe`, `dealing_link`)."""
    sims: dict[str, Any] = {}
    for device in cfg.devices:
        make = simulator_of(device.role)
        if not _deals(cfg, device) and device.port == "simulated" and make is not None:
            sims[device.role] = make(seed, period)
    return sims


def _deals(cfg: TableConfig, device: DeviceConfig) -> bool:
    return device.role == cfg.dealer.role


def deals_cards(spec: Any) -> bool:
    """Whether the table opens a device that deals cards (the card shoe, or a shuffler that
    deals), real or simulated: only for a game whose spec needs the card shoe. A game with
    none (pai gow: its tiles are keyed in) opens no card device at all."""
    return "shoe" in spec.devices


def dealing_link(cfg: TableConfig, session: Any, seed: int, *, simulate: bool = False,
                 simulator: Callable[[int, int, str], SimulatedShoe] | None = None
                 ) -> tuple[SerialLink, SimulatedShoe | None]:
    """The serial link to the device that deals the cards (`TableConfig.dealer`: the card
    shoe, or a shuffler that deals), with its protocol; to its simulator when its section
    says "simulated" (then its cards go on record as the simulator's). The session then
    names it in the records of cards it holds, releases or sets aside. `simulate`: the
    simulator whatever the file says (the scripted demo's)."""
    device = cfg.dealer
    url, dialect = device.port, device.dialect
    shoe: SimulatedShoe | None = None
    if url == "simulated" or simulate:  # only when the file (or the demo) says so
        shoe = (simulator or SimulatedShoe)(cfg.rules.decks, seed, device.role)
        url, dialect = shoe.path, "line"
        session.simulated.add(device.role)
    found = protocol(f"{device.role}-{dialect}")
    session.dealing_device = found.label
    return SerialLink(url, found, session.on_device_event, baudrate=device.baudrate), shoe


def other_links(cfg: TableConfig, session: Any, simulators: dict[str, Any] | None = None
                ) -> list[SerialLink]:
    """A serial link for each configured device besides the dealing one (a shuffler, a
    wheel), with the protocol its `[devices.<role>]` names, to its simulator when it is
    simulated (a simulated device with no simulator is not started). The session may then
    command each device by its role."""
    links = []
    sims = simulators or {}
    for device in cfg.devices:
        if _deals(cfg, device):
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


def restart_simulated_shoe(session: Any, shoe: SimulatedShoe | None) -> None:
    """The simulator cannot resume a half-dealt round's shoe order: the round in play is void
    and the cards are shuffled again (a new simulated shoe), as the game's demo says (a game
    with no shoe, None: its demo's void and reshuffle only)."""
    play = demo_play(session.spec)
    void = play.void_for_restart(session.state)
    if void is not None:
        session.perform(void)
    shuffle = play.reshuffle(session.state)
    if shuffle is not None:
        if shoe is not None:
            shoe.new_shoe()
        session.perform(shuffle)


def demo_play(spec: Any) -> Any:
    """The game's simulated-dealer module (`GameSpec.demo`)."""
    return importlib.import_module(spec.demo)


def typed_amount(text: str) -> int:
    """An amount a dealer typed in the console, in whole units or like 12.50: its cents."""
    try:
        cents = Decimal(text) * 100
    except InvalidOperation:
        raise click.BadParameter(f"{text!r} is not an amount") from None
    if not cents.is_finite():  # "Infinity" and "NaN" read as decimals
        raise click.BadParameter(f"{text!r} is not an amount")
    if cents != cents.to_integral_value():
        raise click.BadParameter(f"{text!r} is not a whole number of cents")
    return int(cents)


@dataclass(frozen=True)
class GameConsole:
    """A game's typed console and scripted demo dealer: its screens module's `console`."""

    help: str
    command: Callable[[str], Callable[[Any], Operation] | None]  # a typed line -> an action
    status: Callable[[Any], str]  # the session -> what `status` prints
    describe: Callable[[Operation, Any], str | None]  # a record -> a line, or nothing
    dealing: Callable[[Any], bool]  # the state -> cards are due from the shoe
    deal: Callable[[Any, SimulatedShoe | None, float], Awaitable[None]]
    play_round: Callable[[Any, SimulatedShoe | None, Any, float], Awaitable[None]]
    """The shoe is None for a game that deals no cards (`deals_cards`)."""


def demo_config(journal: Path, game: str = "") -> TableConfig:
    """The demo's table (DEMO-1): the game's devices simulated, and its file says so."""
    spec = GAMES.get(game or GAMES.names()[0])
    name = " ".join(w.capitalize() for w in spec.title.split())
    # The demo's devices are simulated, and its file says so: only such a file runs them.
    devices = "".join(f'[devices.{role}]\nport = "simulated"\n' for role in spec.devices)
    return parse(f'[table]\nid = "DEMO-1"\nname = "{name} demo"\ngame = "{spec.name}"\n'
                 f'journal = "{journal}"\n[chips]\nsmallest = 5\n{devices}')
