"""The headless table: `tableside demo` and `tableside run --config table.toml`.

The table in a terminal, for a game whose screens module has a `console` (`GameConsole`),
built by the table's assembly (kiosk/assembly.py) as the dealer's screen builds it.
Cards always take the real path: shoe bytes on a serial line (a pseudo-terminal fed by the
shoe simulator when no shoe is attached), the shoe driver, the table session, the journal; a
game that deals no cards (its spec needs no card shoe: pai gow) opens no card device. In
`demo` a scripted dealer plays rounds; in `run` the dealer types the game's commands (`help`
lists them). Either way the table opens with the pit's signed configuration in force and
takes up the pit's newer versions between rounds, as the screen does (`open_table`).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import AsyncIterator

import click

from hardware.link import SerialLink
from kiosk.assembly import (
    GameConsole,
    Session,
    SimulatedShoe,
    dealing_link,
    deals_cards,
    demo_play,
    open_table,
    other_links,
    restart_simulated_shoe,
    take_up,
)
from kiosk.config import TableConfig
from kiosk.rules.errors import TablesideError
from kiosk.table.roles import RoleRefused, needs_words


async def run_demo(cfg: TableConfig, rounds: int, seed: int, pace: float) -> Session:
    """The scripted dealer plays `rounds` rounds of the table's game in the terminal."""
    console = game_console(cfg)
    table = open_table(cfg, describe=console.describe)
    session, journal, cfg = table.session, table.journal, table.config
    # The demo's cards are the simulator's, and say so; a game that deals no cards opens no
    # card device at all.
    reader: SerialLink | None = None
    shoe: SimulatedShoe | None = None
    if deals_cards(session.spec):
        reader, shoe = dealing_link(cfg, session, seed, simulate=True,
                                    simulator=SimulatedShoe)
        assert shoe is not None
    reader_task = asyncio.create_task(reader.run()) if reader else None
    beat = asyncio.create_task(shoe.heartbeat()) if shoe else None
    rng = random.Random(seed)
    try:
        if reader and shoe:
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
        for _ in range(rounds):
            table.configs.poll()  # between rounds: the pit's newer version, if any
            if table.configs.restart_wanted is not None:
                break  # another game: the demo's next start opens with it
            await console.play_round(session, shoe, rng, pace)
    finally:
        if beat:
            beat.cancel()
        if reader:
            reader.stop()
        await asyncio.gather(*(t for t in (reader_task, beat) if t), return_exceptions=True)
        if shoe:
            shoe.close()
        session.flush_reports()
        journal.close()
    return session


def game_console(cfg: TableConfig) -> GameConsole:
    """The typed console of the configured game (its screens module's `console`)."""
    from kiosk.rules.registry import GAMES
    from kiosk.ui.games import screens

    spec = GAMES.get(cfg.game)
    console = screens(spec).console if spec.screens else None
    if console is None:
        raise click.ClickException(f"{spec.title} has no typed console; run it with its "
                                   f"screen")
    return console


async def run_console(cfg: TableConfig) -> int:
    """The dealer types the game's commands until `quit` or the end of stdin (0), or until
    a configuration from the pit needs the table started again (`RESTART`)."""
    console = game_console(cfg)
    restart = asyncio.Event()
    table = open_table(cfg, describe=console.describe, restart=lambda _new: restart.set())
    session, journal, cfg = table.session, table.journal, table.config
    reader: SerialLink | None = None
    shoe: SimulatedShoe | None = None
    if deals_cards(session.spec):  # a game that deals no cards opens no card device
        reader, shoe = dealing_link(cfg, session, int.from_bytes(os.urandom(4), "big"),
                                    simulator=SimulatedShoe)
    url = cfg.dealer.port
    others = other_links(cfg, session)
    reader_task = asyncio.create_task(reader.run()) if reader else None
    other_tasks = [asyncio.create_task(link.run()) for link in others]
    beat = asyncio.create_task(shoe.heartbeat()) if shoe else None
    watch = asyncio.create_task(take_up(table.configs))
    status = 0
    try:
        if reader and shoe:
            await reader.wait_connected(5)
            shoe.open()
        role = cfg.dealer.role
        where = f"SIMULATED {role.upper()}" if shoe else url
        device = (f"{role} {where}" if reader else
                  f"no card device ({session.spec.title} deals no cards)")
        click.echo(f"Table {cfg.table_id} ({cfg.name}), journal {cfg.journal}, {device}")
        click.echo(console.status(session))
        async for line in _until(restart, typed_lines()):
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
                    needed = session.override_needed(action)
                    if needed is not None:  # who may do what: docs/roles.md
                        raise RoleRefused(f"{needs_words(needed)}: on the dealer "
                                          "screen's PIN pad, with a reason")
                    session.perform(action)
                await _deal_on(session, console, shoe)
            except (TablesideError, click.BadParameter, ValueError) as exc:
                click.echo(f"  refused: {exc}")
            table.configs.poll()  # a round just ended: the pit's newer version, at once
            if restart.is_set():
                break
            click.echo(_stopped(session) or f"Next: {session.next_step()}")
        if restart.is_set():
            status = RESTART
    finally:
        watch.cancel()
        if beat:
            beat.cancel()
        if reader:
            reader.stop()
        for link in others:
            link.stop()
        await asyncio.gather(watch, *other_tasks, *(t for t in (reader_task, beat) if t),
                             return_exceptions=True)
        if shoe:
            shoe.close()
        session.flush_reports()
        if session.unrecorded:  # said, never dropped silently (the log has them too)
            click.echo(f"  NOT RECORDED: {session.waiting()}: out of the shoe while the "
                       f"journal could not be written", err=True)
        journal.close()
    return status


RESTART = 75  # kiosk.ui.launcher.RESTART: `tableside run` starts itself again at once


async def _until(stop: asyncio.Event, lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The typed lines until `stop` is set (even while waiting for one)."""
    stopped = asyncio.ensure_future(stop.wait())
    line: asyncio.Future[str] | None = None
    try:
        while True:
            line = asyncio.ensure_future(anext(lines))
            await asyncio.wait({line, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not line.done():
                return
            try:
                text = line.result()
            except StopAsyncIteration:
                return
            yield text
    finally:  # stopped, or cancelled by a signal: the read waiting for a line ends too
        for waiting in (line, stopped):
            if waiting is not None and not waiting.done():
                waiting.cancel()
        await asyncio.gather(*(w for w in (line, stopped) if w is not None),
                             return_exceptions=True)


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


