"""`tableside simulate ...`: run a device simulator for the demo, tests and bench checks.

The first line on stdout is the URL a reader opens (a pseudo-terminal path such as
`/dev/pts/5`, or `socket://127.0.0.1:PORT`), flushed at once so a script can read it.
"""

from __future__ import annotations

import asyncio
import signal
import sys

import click

from hardware.protocols import roles, simulator_of
from hardware.simulators.shoe import DIALECTS, FaultPlan, PtyLink, ShoeSimulator, TcpLink, run_paced
from hardware.simulators.shuffler import ShufflerFaults, ShufflerSimulator, run_shuffler
from kiosk.stopping import exit_status, until_signal

_RATE = click.FloatRange(0.0, 1.0)


@click.group()
def simulate() -> None:
    """Simulated devices speaking the real protocols."""


@simulate.command()
@click.option("--decks", type=click.IntRange(1, 16), default=8, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Shoe order and faults.")
@click.option("--dialect", type=click.Choice(DIALECTS), default="line", show_default=True)
@click.option("--pty", "use_pty", is_flag=True, help="Serve a pseudo-terminal (the default).")
@click.option(
    "--listen",
    type=click.IntRange(0, 65535),
    default=None,
    metavar="PORT",
    help="Serve socket://127.0.0.1:PORT instead (0: any free port); dealing starts "
    "when the first client connects.",
)
@click.option(
    "--pace",
    type=click.FloatRange(min=0.0),
    default=1.5,
    show_default=True,
    help="Seconds between cards.",
)
@click.option(
    "--cards",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after N cards (default: the whole shoe).",
)
@click.option("--noise", type=_RATE, default=0.0, help="Chance of noise bytes before a card.")
@click.option("--drop", type=_RATE, default=0.0, help="Chance a card frame is lost.")
@click.option("--unread", type=_RATE, default=0.0, help="Chance of UNREAD instead of CARD.")
@click.option("--duplicate", type=_RATE, default=0.0, help="Chance a frame is retransmitted.")
@click.option("--bad-checksum", type=_RATE, default=0.0, help="Chance of a corrupt checksum.")
@click.option(
    "--cut-at",
    type=click.IntRange(min=0),
    default=None,
    help="CUT after this many cards (default: one deck from the back; 0: none).",
)
@click.option("--wait", is_flag=True, help="With --pty: deal only after a reader's HELLO?.")
@click.option(
    "--linger",
    type=click.FloatRange(min=0.0),
    default=1.0,
    show_default=True,
    help="Seconds to keep the line up after the last card.",
)
def shoe(
    decks: int,
    seed: int,
    dialect: str,
    use_pty: bool,
    listen: int | None,
    pace: float,
    cards: int | None,
    noise: float,
    drop: float,
    unread: float,
    duplicate: float,
    bad_checksum: float,
    cut_at: int | None,
    wait: bool,
    linger: float,
) -> None:
    """Deal a seeded shoe as a card shoe would (spec docs/protocols/shoe-shuffler.md)."""
    if use_pty and listen is not None:
        raise click.UsageError("choose --pty or --listen, not both")
    if cut_at is None:
        cut_at = 52 * (decks - 1)
    simulator = ShoeSimulator(
        decks=decks,
        seed=seed,
        dialect=dialect,
        faults=FaultPlan(
            noise=noise, drop=drop, unread=unread, duplicate=duplicate, bad_checksum=bad_checksum
        ),
        cut_at=cut_at or None,
        cards=cards,
    )
    # SIGINT (Ctrl-C) or SIGTERM ends the run; the links are closed on the way out, and the
    # exit status follows kiosk.stopping's rule (130 after Ctrl-C, 0 after SIGTERM).
    try:
        _, stopped = asyncio.run(
            until_signal(_serve(simulator, listen, pace=pace, wait=wait, linger=linger)))
    except KeyboardInterrupt:  # before the loop was listening for it
        stopped = exit_status(signal.SIGINT)
    dealt = len(simulator.dealt)
    click.echo(f"dealt {dealt} card(s), {len(simulator.read_cards)} read intact", err=True)
    if stopped:
        sys.exit(stopped)


async def _serve(
    simulator: ShoeSimulator, listen: int | None, *, pace: float, wait: bool, linger: float
) -> None:
    if listen is not None:
        tcp = TcpLink(simulator)
        try:
            _announce(await tcp.start(listen))
            await tcp.client_connected.wait()
            await run_paced(simulator, tcp, pace=pace, linger=linger)
        finally:
            await tcp.close()
        return
    pty = PtyLink()
    try:
        _announce(pty.url)
        pty.answer(simulator)
        if wait:
            await pty.hello_requested.wait()
        await run_paced(simulator, pty, pace=pace, linger=linger)
    finally:
        pty.close()


_AFTER = click.IntRange(min=0)


@simulate.command()
@click.option("--decks", type=click.IntRange(1, 16), default=8, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Card order.")
@click.option("--pace", type=click.FloatRange(min=0.0), default=1.5, show_default=True,
              help="Seconds between cards.")
@click.option("--cards", type=click.IntRange(min=1), default=6, show_default=True,
              help="Cards to deal: a coup's worth (at most 6 in punto banco).")
@click.option("--count", type=_AFTER, default=None, metavar="N",
              help="COUNT says N cards, whatever it holds (a wrong count).")
@click.option("--jam-after", type=_AFTER, default=None, metavar="N",
              help="A jam after N cards (0: before the first): FAULT JAM, no more cards.")
@click.option("--damaged-after", type=_AFTER, default=None, metavar="N",
              help="A damaged card after N cards: DAMAGED 1, FAULT DAMAGE, no more cards.")
@click.option("--power-loss-after", type=_AFTER, default=None, metavar="N",
              help="The power goes after N cards: silence, then HELLO as restarted.")
@click.option("--silence", type=click.FloatRange(min=0.0), default=8.0, show_default=True,
              help="Seconds the line stays silent in a power loss.")
@click.option("--wait", is_flag=True, help="Deal only after a reader's HELLO?.")
@click.option("--linger", type=click.FloatRange(min=0.0), default=1.0, show_default=True,
              help="Seconds to keep the line up after the last card.")
def shuffler(decks: int, seed: int, pace: float, cards: int, count: int | None,
             jam_after: int | None, damaged_after: int | None, power_loss_after: int | None,
             silence: float, wait: bool, linger: float) -> None:
    """Shuffle, count and deal a coup as a shuffler would, on a pseudo-terminal (spec
    docs/protocols/shoe-shuffler.md, device SHUF), with the faults asked for."""
    simulator = ShufflerSimulator(
        decks=decks, seed=seed, cards=cards,
        stops=ShufflerFaults(jam_after=jam_after, damaged_after=damaged_after,
                             power_loss_after=power_loss_after, count=count))

    async def serve() -> None:
        pty = PtyLink()
        try:
            _announce(pty.url)
            pty.answer(simulator)
            if wait:
                await pty.hello_requested.wait()
            await run_shuffler(simulator, pty, pace=pace, silence=silence, linger=linger)
        finally:
            pty.close()

    try:
        _, stopped = asyncio.run(until_signal(serve()))
    except KeyboardInterrupt:
        stopped = exit_status(signal.SIGINT)
    why = f"; stopped: {simulator.stopped}" if simulator.stopped else ""
    click.echo(f"dealt {len(simulator.dealt)} card(s){why}", err=True)
    if stopped:
        sys.exit(stopped)


def _announce(url: str) -> None:
    sys.stdout.write(url + "\n")
    sys.stdout.flush()


def _device_command(role: str) -> click.Command:
    """`tableside simulate ROLE` for a device whose protocol registers a simulator (the
    roulette wheel): it serves the device's bytes on a pseudo-terminal until stopped."""

    @click.command(role)
    @click.option("--seed", type=int, default=0, show_default=True, help="Results and faults.")
    @click.option("--period", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
                  help="Seconds between the device's reports.")
    def serve(seed: int, period: float) -> None:
        make = simulator_of(role)
        assert make is not None  # only roles with a simulator get a command
        device = make(seed, period)

        async def run() -> None:
            try:
                _announce(device.path)
                await device.run()
            finally:
                device.close()

        try:
            _, stopped = asyncio.run(until_signal(run()))
        except KeyboardInterrupt:
            stopped = exit_status(signal.SIGINT)
        if stopped:
            sys.exit(stopped)

    serve.help = (f"Serve a simulated {role} on a pseudo-terminal, speaking its registered "
                  f"protocol; the first line is its port.")
    return serve


for _role in roles():  # the shoe's and the shuffler's have their own commands, with faults
    if _role not in simulate.commands and simulator_of(_role) is not None:
        simulate.add_command(_device_command(_role))


if __name__ == "__main__":
    simulate()
