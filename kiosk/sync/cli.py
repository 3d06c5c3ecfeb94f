"""`tableside sync ...`: the sync's status, and the sync on its own (the image's unit)."""

from __future__ import annotations

import json
import signal
import sys
import threading
from dataclasses import asdict
from typing import Any

import click


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
    age of the oldest. Exit status 1 when the sync is not connected."""
    from kiosk.sync.client import status

    cfg = _config(config_path)
    now = status(cfg.journal)
    if as_json:
        click.echo(json.dumps({**asdict(now), "oldest_unsent_age_s": now.age_seconds(),
                               "pit": cfg.sync.pit}, indent=2))
    else:
        if not cfg.sync.enabled:
            click.echo("This table has no [sync] pit configured; its journal stays here.")
        click.echo(now.line())
    sys.exit(0 if now.connected else 1)


@sync.command("run")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
def sync_run(config_path: str) -> None:
    """Send the journal to the pit until stopped (SIGINT or SIGTERM)."""
    from kiosk.rules.errors import TablesideError
    from kiosk.sync.client import SyncClient

    cfg = _config(config_path)
    if not cfg.sync.enabled:
        click.echo("tableside: the configuration has no [sync] pit", err=True)
        sys.exit(2)
    try:
        credential = cfg.sync.credential()
    except TablesideError as exc:
        click.echo(f"tableside: {exc}", err=True)
        sys.exit(2)
    client = SyncClient(cfg.journal, cfg.table_id, cfg.sync.pit, credential)
    done = threading.Event()

    def stop(signum: int, frame: Any) -> None:
        done.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    client.start()
    click.echo(f"Syncing table {cfg.table_id} to {cfg.sync.pit}", err=True)
    while not done.wait(1.0):
        pass
    client.stop()
    click.echo(client.status().line(), err=True)
