"""`tableside update ...`: the commands.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from kiosk.update.applying import Updater, journal_recorder
from kiosk.update.bundle import MODELS, Outcome, Recorder, Target
from kiosk.update.keys import load_key, new_key
from kiosk.update.making import make_bundle
from kiosk.update.releases import Releases


def _refuse(message: str) -> NoReturn:
    from kiosk.program import refuse

    refuse(message)


@click.group()
def update() -> None:
    """Signed update bundles: make one (the publisher), apply one (on the table), see which
    version runs, go back to the image's own."""


@update.command("keygen")
@click.argument("key", type=click.Path(dir_okay=False, path_type=Path))
def update_keygen(key: Path) -> None:
    """A new publisher key in KEY (keep it off the tables); prints the public half for
    /etc/tableside/update-keys (image-build/build --update-key)."""
    try:
        click.echo(new_key(key))
    except FileExistsError:
        _refuse(f"{key} exists: a publisher key is never overwritten")


@update.command("make")
@click.option("--version", "version", required=True, help="Tableside's version in the bundle")
@click.option("--wheels", type=click.Path(file_okay=False, exists=True, path_type=Path),
              required=True, help="a folder with every wheel to install")
@click.option("--units", type=click.Path(file_okay=False, exists=True, path_type=Path),
              default=None, help="a folder of tableside-*.service units (default: none)")
@click.option("--key", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              required=True, help="the publisher's key (tableside update keygen)")
@click.option("--flavour", type=click.Choice(sorted(MODELS)), default="pi4", show_default=True)
@click.option("--model", "models", multiple=True,
              help="a board the bundle is for, as the device tree's model begins (default: "
                   "the flavour's boards); repeat for several")
@click.option("--python", "python", default="3.11", show_default=True)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def update_make(version: str, wheels: Path, units: Path | None, key: Path, flavour: str,
                models: tuple[str, ...], python: str, out: Path) -> None:
    """Make a signed bundle OUT from the wheels and units."""
    target = Target("aarch64", flavour, models or MODELS[flavour], python)
    manifest = make_bundle(out, version, sorted(wheels.glob("*.whl")),
                           sorted(units.glob("tableside-*.service")) if units else [],
                           load_key(key), target)
    click.echo(f"{out}: version {version} for {target.describe()}; {len(manifest.wheels)} "
               f"wheels, {len(manifest.units)} units, {out.stat().st_size / 1e6:.1f} MB")


@update.command("apply")
@click.argument("bundle", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("/data/table.toml"), show_default=True,
              help="the table's configuration: its journal gets the outcome")
@click.option("--wait", type=float, default=90.0, show_default=True,
              help="seconds the dealer app has to report ready")
@click.option("--settle", type=float, default=10.0, show_default=True,
              help="seconds it must then stay up")
@click.option("--allow-older", is_flag=True, help="go back to an older version on purpose")
def update_apply(bundle: Path, config: Path, wait: float, settle: float,
                 allow_older: bool) -> None:
    """Check BUNDLE, install it beside the version in use, switch, and go back if the dealer
    app does not start. Exit status 2 when the bundle is refused, 1 when it was rolled back
    or could not be installed."""
    done = _updater(config, wait, settle).apply(bundle, allow_older)
    _report(done)


@update.command("revert")
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("/data/table.toml"), show_default=True)
@click.option("--wait", type=float, default=90.0, show_default=True)
@click.option("--settle", type=float, default=10.0, show_default=True)
def update_revert(config: Path, wait: float, settle: float) -> None:
    """Go back to the version the SD image came with (checked as an update is)."""
    _report(_updater(config, wait, settle).revert())


@update.command("status")
def update_status() -> None:
    """The version in use, the versions on the data partition, the last outcomes."""
    rel = Releases()
    in_use = rel.in_use()
    own = rel.version(rel.factory)
    click.echo(f"in use: {rel.version(in_use) or '?'} "
               f"({'the image' + chr(39) + 's own' if in_use == rel.factory else in_use})")
    click.echo(f"the image's own: {own or '?'} ({rel.factory})")
    for release in rel.installed():
        click.echo(f"installed: {release.name} ({release})")
    if rel.on_trial():
        click.echo("an update is being tried (or was cut short: the next boot goes back)")
    for h in rel.history():
        click.echo(f"{h.get('at', '?')} {h.get('outcome', '?')}: {h.get('version') or '-'} "
                   f"(was {h.get('previous') or '-'}): {h.get('detail', '')}")


def _updater(config: Path, wait: float, settle: float) -> Updater:
    if os.geteuid() != 0:
        _refuse("an update is applied as root (sudo tableside update ...)")
    recorder: Recorder = journal_recorder(config) if config.exists() else (lambda o: None)
    return Updater(record=recorder, wait=wait, settle=settle,
                   say=lambda words: click.echo(words, err=True))


def _report(done: Outcome) -> None:
    from kiosk.program import say

    if done.ok:
        click.echo(f"{done.outcome.capitalize()}: {done.version} ({done.detail})")
        return
    if done.outcome == "refused":
        _refuse(f"refused: {done.detail}")
    say(f"{done.outcome}: {done.version}: {done.detail}")
    sys.exit(1)
