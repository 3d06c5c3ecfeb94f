"""`tableside demo` and `tableside run`: the table with its dealer screen and signage.

Kivy is imported only when a screen is about to open, so the other commands stay quick.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from kiosk.config import (
    ConfigError,
    SyncConfig,
    TableConfig,
    journal_refusal,
    load as load_config,
)
from kiosk.demo_pit import DEMO_INSPECTOR, LocalPit, pit_path
from kiosk.program import refuse
from kiosk.rules.errors import TablesideError
from kiosk.rules.registry import GAMES, GameSpec
from kiosk.screens import at_option
from kiosk.stopping import exit_status, received, until_signal
from kiosk.sync.beside import start_sync


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{text!r}: write a size like 800x480") from None
    return w, h


@click.command()
@click.option("--headless", is_flag=True,
              help="draw offscreen, play by touch (as the game's screens module says: a "
                   "coup, or a shoe through the cut-card shuffle), save screenshots, exit")
@click.option("--out", type=click.Path(file_okay=False), default="artifacts/demo",
              show_default=True, help="where --headless writes its screenshots")
@click.option("--console", "console", is_flag=True,
              help="no screens: the scripted dealer plays --rounds rounds in the terminal")
@click.option("--seed", type=int, default=2026, show_default=True, help="shoe order")
@click.option("--pace", type=float, default=0.6, show_default=True,
              help="seconds between the simulated shoe's cards")
@click.option("--journal", "journal_path", type=click.Path(dir_okay=False),
              help="default data/demo.db for the first game listed, data/demo-GAME.db "
                   "otherwise")
@click.option("--fresh", is_flag=True,
              help="start a new journal instead of resuming: deletes the demo's journal and "
                   "its local pit, and refuses a file holding any other table's rows")
@click.option("--no-signage", is_flag=True, help="do not open the player signage")
@click.option("--game", type=click.Choice(GAMES.names()), default=GAMES.names()[0],
              show_default=True, help="`tableside games` lists them")
@click.option("--rounds", type=click.IntRange(1, 10_000), default=None,
              help="rounds (coups, spins, hands: the game's word) to play: --console plays "
                   "them, 10 unless given; --headless, a game that plays a shoe, plays at "
                   "most them (default 12, at most 200; it stops once the cutting card has "
                   "brought a shuffle)")
@click.option("--decks", type=click.IntRange(1, 16),
              help="decks in the shoe instead of the game's default, as many as its rules "
                   "allow (the rules refuse any other count, with the clause)")
@click.option("--no-pit", is_flag=True,
              help="do not start the local pit server (and its dashboard) beside the table")
def demo(headless: bool, out: str, console: bool, seed: int, pace: float,
         journal_path: str | None, fresh: bool, no_signage: bool, game: str,
         rounds: int | None, decks: int | None, no_pit: bool) -> None:
    """The demo table: dealer screen, player signage and a simulated shoe on a
    pseudo-terminal, with mock GPIO, and a local pit server the journal syncs to, with the
    inspectors' dashboard. No hardware needed."""
    from kiosk.assembly import demo_config
    from kiosk.ui.games import screens

    spec = GAMES.get(game)
    front = screens(spec)
    default = "data/demo.db" if game == GAMES.names()[0] else f"data/demo-{game}.db"
    path = Path(journal_path or default)
    cfg = demo_config(path.resolve(), game)
    if decks is not None:
        try:  # the rules check the count for the game (rules 4.5, 5.4, 7.5)
            cfg = dataclasses.replace(cfg, rules=dataclasses.replace(cfg.rules, decks=decks))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--decks'") from exc
    if console and front.console is None:
        refuse(f"--console: {spec.title} has no typed console; it needs the screen (or "
               f"--headless)")
    if fresh:  # only once the options are known to be good
        _start_afresh(path, cfg.table_id)
    why = journal_refusal(path)
    if why:
        refuse(f"--journal: {why}")
    pit = None if no_pit else LocalPit(path.resolve(), cfg.table_id)
    if pit is not None:
        address = pit.start()
        # The demo table checks the local pit's configurations against its key, as a table
        # does with the key from enrolment.
        cfg = dataclasses.replace(cfg, sync=SyncConfig(pit.url, None, pit.public_key))
        click.echo(f"Pit dashboard: {address} (log in as {DEMO_INSPECTOR[0]}, password "
                   f"{DEMO_INSPECTOR[1]}); the journal syncs to it as the table plays, and "
                   f"limits set there reach the table between rounds")
    try:
        status = _demo_table(cfg, spec, front, path, headless, out, console, seed, pace,
                             no_signage, rounds, pit)
    finally:
        if pit is not None:
            pit.stop()
    _exit(status, drop=("--fresh",))


def _start_afresh(journal: Path, demo_id: str) -> None:
    """`--fresh`: delete the demo's journal and its local pit, and only a demo's: a journal
    (or pit) holding any other table's rows, or a file that is not one, is refused with the
    reason before anything is deleted (a copy of a real table's journal is never lost)."""
    pit = pit_path(journal)
    for path, what, query in ((journal, "journal", "SELECT DISTINCT table_id FROM journal"),
                              (pit, "demo pit", "SELECT table_id FROM pit_tables")):
        why = _not_the_demos(path, what, query, demo_id)
        if why:
            refuse(f"--fresh deletes only the demo's own journal and pit: {why}; it is left "
                   "as it is (name another --journal)")
    for base in (journal, pit):
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(base) + suffix)
            try:
                part.unlink(missing_ok=True)
            except OSError as exc:
                refuse(f"--fresh: cannot delete {part}: {exc.strerror or exc}")


def _not_the_demos(path: Path, what: str, query: str, demo_id: str) -> str:
    """Why `path` is not the demo's own (table `demo_id`'s) `what`, "" when it is or is not
    there (an empty file holds nothing to lose)."""
    try:
        if not path.exists() or path.stat().st_size == 0:
            return ""
        if not path.is_file():
            return f"{path} is not a file"
        ids = _table_ids(path, query)
    except (OSError, sqlite3.Error) as exc:
        return f"{path} cannot be read as a Tableside {what} ({exc})"
    others = sorted(ids - {demo_id})
    if others:
        return f"{path} holds table {', '.join(others)}'s rows, not the demo's ({demo_id})"
    return ""


def _table_ids(path: Path, query: str) -> set[str]:
    """The table ids `query` finds in the SQLite file `path`, read only. A file on a
    read-only mount with no write-ahead log beside it is read as it lies (SQLite cannot
    open a WAL database there otherwise); one with a log is not guessed at."""
    base = path.resolve().as_uri()
    try:
        with contextlib.closing(sqlite3.connect(f"{base}?mode=ro", uri=True)) as conn:
            return {str(row[0]) for row in conn.execute(query)}
    except sqlite3.OperationalError:
        wal = Path(str(path) + "-wal")
        if os.access(path.parent, os.W_OK) or (wal.exists() and wal.stat().st_size):
            raise
    with contextlib.closing(sqlite3.connect(f"{base}?mode=ro&immutable=1", uri=True)) as conn:
        return {str(row[0]) for row in conn.execute(query)}


def _demo_table(cfg: TableConfig, spec: GameSpec, front: Any, path: Path, headless: bool,
                out: str, console: bool, seed: int, pace: float, no_signage: bool,
                rounds: int | None, pit: LocalPit | None) -> int:
    from kiosk.console import run_demo

    def synced() -> None:
        if pit is not None and pit.client is not None:
            head = pit.flush()
            click.echo(f"Pit: holds the journal up to row {head}; "
                       f"{pit.client.status().line()}")

    if console:
        try:
            session, stopped = asyncio.run(until_signal(run_demo(cfg, rounds or 10, seed,
                                                                       pace)))
        except TablesideError as exc:
            raise click.ClickException(str(exc)) from exc
        except KeyboardInterrupt:  # Ctrl-C before the loop was listening for it
            return exit_status(signal.SIGINT)
        if session is None or stopped is not None:
            click.echo(f"Stopped; journal {path}")
            return stopped or 0
        played = session.game.round_number(session.state) - 1
        click.echo(f"Played to {spec.round_word} {played}; journal {path}")
        synced()
        return 0
    import os

    from kiosk.ui.launcher import KioskOptions, display_available

    # gpiozero's composite devices look for a default factory even when given one.
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

    if not headless and not display_available():
        click.echo(f"No display here (DISPLAY is not set): playing {front.PLAYS} offscreen "
                   f"instead and saving screenshots of both screens in {out}/")
        headless = True
    opts = KioskOptions(headless=headless, out=Path(out), signage=not no_signage,
                        fullscreen=False,
                        pace=front.HEADLESS_PACE if headless else pace,
                        seed=seed,
                        pin_factory="mock", rounds=min(rounds or 12, 200),
                        report=_Told())
    if headless:
        click.echo(f"Playing {front.PLAYS} offscreen by touch:")
    status = _run(cfg, opts)
    if headless:
        shots = sorted(p.name for p in Path(out).glob("*.png"))
        click.echo(f"Screenshots in {out}/: {', '.join(shots) or 'none'}")
        if received() is None:  # stopped by a signal: no waiting for the pit
            synced()
    return status


class _Told(list[str]):
    """The headless demo's report (`KioskOptions.report`): each line is printed, and
    flushed, the moment the touch script adds it, so the terminal follows the play."""

    def append(self, line: str, /) -> None:
        super().append(line)
        click.echo(f"  {line}")

    def extend(self, lines: Iterable[str], /) -> None:
        for line in lines:
            self.append(line)


@click.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
@click.option("--console", "console", is_flag=True,
              help="no screens: type the dealer's commands in the terminal")
@click.option("--windowed", is_flag=True, help="a window instead of the full screen")
@click.option("--headless", is_flag=True,
              help="no display: draw the screens offscreen (the table runs; nobody sees it)")
@click.option("--no-sync", is_flag=True,
              help="do not sync from this process (a separate `tableside sync run` does it)")
@click.option("--no-signage", is_flag=True,
              help="do not start the player signage from this process (a separate "
                   "`tableside signage` does it, as the SD image's service)")
@click.option("--setup-screen", is_flag=True,
              help="when the configuration is missing or wrong, say why on the dealer's "
                   "screen and wait for a good one (the SD image's dealer service)")
@click.option("--position", default=None, callback=at_option, metavar="X,Y",
              envvar="TABLESIDE_DEALER_AT",
              help="the dealer's window: borderless, of the configured size, its top-left "
                   "corner here on a desktop of several screens [default: "
                   "$TABLESIDE_DEALER_AT, which the SD image's `tableside screens` sets]")
def run(config_path: str, console: bool, windowed: bool, headless: bool, no_sync: bool,
        no_signage: bool, setup_screen: bool, position: tuple[int, int] | None) -> None:
    """Run the table from its configuration file: dealer screen, signage, shoe, panel, and
    the sync to the pit when [sync] names one."""
    from kiosk.ui.launcher import display_available

    # The technician's log: warnings (a device's rejects, the dealer's alerts) on stderr,
    # which systemd keeps in the journal (`journalctl -u tableside-dealer`), named and levelled.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")

    try:
        cfg = load_config(config_path)
    except ConfigError as exc:
        if not (setup_screen and not console and (headless or display_available())):
            refuse(str(exc))
        _exit(_not_set_up(Path(config_path), fullscreen=not windowed, offscreen=headless,
                          position=position))
        return  # stopped by a signal (RESTART starts the command again)

    if not (console or headless or display_available()):
        raise click.ClickException(
            "no display here (DISPLAY and WAYLAND_DISPLAY are not set): connect the screens "
            "and start it from the kiosk session, or use --console (typed commands) or "
            "--headless")
    if console:
        from kiosk.ui.games import screens

        spec = GAMES.get(cfg.game)
        if screens(spec).console is None:
            refuse(f"--console: {spec.title} has no typed console; run it with its screen")
    client = None
    if not no_sync:
        client, how = start_sync(cfg)
        click.echo(f"Sync: {how}", err=True)
    try:
        if console:
            from kiosk.console import run_console

            try:
                done, stopped = asyncio.run(until_signal(run_console(cfg)))
            except KeyboardInterrupt:  # Ctrl-C before the loop was listening for it
                done, stopped = None, exit_status(signal.SIGINT)
            status = stopped or done or 0  # RESTART: a configuration from the pit
        else:
            from kiosk.ui.launcher import KioskOptions

            d = cfg.display
            opts = KioskOptions(size=(d.width, d.height),
                                fullscreen=d.fullscreen and not windowed,
                                position=position,
                                signage=d.signage and not headless and not no_signage,
                                signage_size=(d.signage_width, d.signage_height),
                                offscreen=headless)
            status = _run(cfg, opts)
    finally:
        if client is not None:  # stopping: a batch in flight is sent again next time
            client.stop(1.0 if received() is not None else 5.0)
    _exit(status)


def _not_set_up(config: Path, fullscreen: bool, offscreen: bool,
                position: tuple[int, int] | None = None) -> int:
    """The dealer's screen says why the table cannot start (kiosk/ui/setup_screen.py) until
    its configuration loads: then RESTART, and the table opens."""
    from kiosk.provision import not_set_up
    from kiosk.ui.launcher import KioskOptions, prepare_kivy

    reason = not_set_up(config)
    if not reason:  # put right since it was read
        return RESTART
    click.echo(f"tableside: the table is not set up: {reason.splitlines()[0]}; the dealer's "
               f"screen says why until {config} loads", err=True)
    prepare_kivy(KioskOptions(fullscreen=fullscreen, offscreen=offscreen, position=position))
    from kiosk.ui.setup_screen import show

    return show(config, reason)


RESTART = 75  # kiosk.ui.launcher.RESTART (not imported here: it would import Kivy's side)


def _exit(status: int, drop: tuple[str, ...] = ()) -> None:
    """Exit with `status`; RESTART starts this very command again at once (a configuration
    from the pit that the screens cannot take over live), without the options in `drop`."""
    if status == RESTART:
        click.echo("The table's configuration from the pit needs a restart: restarting",
                   err=True)
        args = [a for a in sys.argv[1:] if a not in drop]
        os.execv(sys.executable, [sys.executable, "-m", "kiosk.cli", *args])
    if status:
        sys.exit(status)


def _run(cfg: TableConfig, opts: object) -> int:
    from kiosk.ui.launcher import KioskOptions, run_kiosk

    assert isinstance(opts, KioskOptions)
    try:
        return asyncio.run(run_kiosk(cfg, opts))
    except KeyboardInterrupt:  # Ctrl-C before the table was listening for it
        return exit_status(signal.SIGINT)
    except TablesideError as exc:
        raise click.ClickException(str(exc)) from exc
