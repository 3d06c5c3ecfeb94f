"""`tableside sync ...`: the sync's status, and the sync on its own (the image's unit)."""

from __future__ import annotations

import json
import signal
import sys
import threading
from dataclasses import asdict
from typing import Any

import click

from kiosk.watchdog import notify

NOTHING_TO_SYNC = 3
"""`sync run`'s exit status when table.toml names no pit (the image's unit stays stopped)."""
WATCHDOG_EVERY = 2.0


def _config(path: str) -> Any:
    from kiosk.config import load
    from kiosk.rules.errors import TablesideError

    try:
        return load(path)
    except TablesideError as exc:
        click.echo(f"tableside: {exc}", err=True)
        sys.exit(2)


@click.group()
def sync() -> None:
    """The sync of this table's journal to the pit server."""


@sync.command("status")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def sync_status(config_path: str, as_json: bool) -> None:
    """Connected or not, the last row the pit acknowledged and when, rows waiting and the
    age of the oldest. Exit status 1 when the sync is not connected, or not running (its
    state file not written for 2 minutes: the sync stopped, or the table was off)."""
    from kiosk.sync.client import status

    cfg = _config(config_path)
    now = status(cfg.journal)
    if as_json:
        click.echo(json.dumps({**asdict(now), "oldest_unsent_age_s": now.age_seconds(),
                               "reconnect_in_s": now.reconnect_in(), "pit": cfg.sync.pit},
                              indent=2))
    else:
        if not cfg.sync.enabled:
            click.echo("This table has no [sync] pit configured; its journal stays here.")
        click.echo(now.line())
    sys.exit(0 if now.connected else 1)


@sync.command("configured")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
def sync_configured(config_path: str) -> None:
    """Exit status 0 when table.toml names a pit to sync to, 1 when it names none or cannot
    be read: the SD image's sync unit checks it first (ExecCondition), so a table without a
    pit leaves the unit skipped, not failed."""
    from kiosk.config import load
    from kiosk.rules.errors import TablesideError

    try:
        cfg = load(config_path)
    except TablesideError as exc:
        click.echo(f"No sync: {exc}")
        sys.exit(1)
    if not cfg.sync.enabled:
        click.echo("No sync: the configuration has no [sync] pit; the journal stays here")
        sys.exit(1)
    click.echo(f"Syncs to {cfg.sync.pit}")


@sync.command("run")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
def sync_run(config_path: str) -> None:
    """Send the journal to the pit until stopped (SIGINT or SIGTERM)."""
    from kiosk.rules.errors import TablesideError
    from kiosk.sync.client import SyncClient

    cfg = _config(config_path)
    if not cfg.sync.enabled:  # exit 3: systemd does not restart it (RestartPreventExitStatus)
        click.echo("tableside: the configuration has no [sync] pit; nothing to sync", err=True)
        sys.exit(NOTHING_TO_SYNC)
    try:
        credential = cfg.sync.credential()
    except TablesideError as exc:
        click.echo(f"tableside: {exc}", err=True)
        sys.exit(2)
    client = SyncClient(cfg.journal, cfg.table_id, cfg.sync.pit, credential,
                        verify=cfg.sync.tls())
    done = threading.Event()

    def stop(signum: int, frame: Any) -> None:
        done.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    client.start()
    notify("READY=1")
    click.echo(f"Syncing table {cfg.table_id} to {cfg.sync.pit}", err=True)
    while not done.wait(WATCHDOG_EVERY):
        if not client.alive:  # the sending thread is gone: exit and let systemd restart us
            click.echo("tableside: the sync stopped; exiting to be restarted", err=True)
            client.stop()
            sys.exit(1)
        notify("WATCHDOG=1")
    client.stop()
    click.echo(client.status().line(), err=True)
