"""`tableside pit ...`: serve the pit, enrol a table, add an inspector."""

from __future__ import annotations

import copy
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

if TYPE_CHECKING:
    from collections.abc import Callable

    from pit.floor import FloorTimes
    from pit.state import PitState
    from pit.store import NewCard

DEFAULT_DB = "pit.db"
DEFAULT_PORT = 8600


def _db_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--db", "db_url", default=lambda: os.environ.get("TABLESIDE_PIT_DB", DEFAULT_DB),
        show_default=f"$TABLESIDE_PIT_DB or {DEFAULT_DB}",
        help="an SQLite file (one room, no set-up) or postgresql://user@host/dbname")(f)


def _key_option(f: click.decorators.FC) -> click.decorators.FC:
    f = click.option(
        "--key", "key_path", type=click.Path(dir_okay=False), default=None,
        show_default="[pit] key of --config, $TABLESIDE_PIT_KEY, or beside an SQLite pit "
                     "(pit.db: pit.key); a pit on PostgreSQL must name it",
        help="the pit's Ed25519 signing key (PEM, mode 0600; made on the database's first "
             "use, then the only key it signs with)")(f)
    return _config_option(f)


def _config_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--config", "pit_config", type=click.Path(dir_okay=False), default=None,
        envvar="TABLESIDE_PIT_CONFIG", show_default="$TABLESIDE_PIT_CONFIG",
        help="the pit's configuration file (TOML): [pit] db and key, relative to the "
             "file's folder; --db and --key given here go over it")(f)


PIT_SETTINGS = {"db": str, "key": str, "timezone": str, "late_after": int,
                "silent_after": int, "shifts": list}
"""The pit's configuration file's [pit] settings and their types."""


def _settings(pit_config: str | None) -> dict[str, Any]:
    """The [pit] section of the pit's configuration file ({} without one), checked."""
    if pit_config is None:
        return {}
    import tomllib

    path = Path(pit_config)
    try:
        settings = tomllib.loads(path.read_text(encoding="utf-8")).get("pit", {})
    except OSError as exc:
        _fail(f"cannot read the pit's configuration {path}: {exc.strerror}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        _fail(f"{path} is not TOML: {exc}")
    if not isinstance(settings, dict):
        _fail(f"{path}: [pit] must be a section")
    for name, value in settings.items():
        kind = PIT_SETTINGS.get(name)
        if kind is None:
            _fail(f"{path}: [pit] {name} is not a setting of the pit (it has "
                  f"{', '.join(PIT_SETTINGS)})")
        if kind is str and (not isinstance(value, str) or not value):
            _fail(f"{path}: [pit] {name} must be a text, a path or a database's address")
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            _fail(f"{path}: [pit] {name} must be a whole number of seconds")
        if kind is list and (not isinstance(value, list)
                             or not all(isinstance(v, str) for v in value)):
            _fail(f"{path}: [pit] {name} must be a list of times, like [\"06:00\", "
                  f"\"14:00\", \"22:00\"]")
    return {**settings, "folder": path.parent}


def _places(db_url: str, key_path: str | None, pit_config: str | None
            ) -> tuple[str, str | None]:
    """The database and the signing key's place: --db and --key when given, else the
    pit's configuration file's [pit] db and key (relative to its folder), else the
    defaults."""
    settings = _settings(pit_config)
    if not settings:
        return db_url, key_path
    here = settings["folder"]
    ctx = click.get_current_context()
    if "db" in settings and ctx.get_parameter_source("db_url") in (
            ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
        db = settings["db"]
        db_url = db if "://" in db else str(here / db)
    if key_path is None and "key" in settings:
        key_path = str(here / settings["key"])
    return db_url, key_path


def _times(pit_config: str | None) -> FloorTimes:
    """The floor's time zone, late/silent times and shifts from [pit] (defaults: UTC, 30 s,
    120 s, shifts from 06:00, 14:00 and 22:00)."""
    from pit.floor import FloorTimeError, FloorTimes

    settings = _settings(pit_config)
    try:
        given = {k: settings[k] for k in ("timezone", "late_after", "silent_after")
                 if k in settings}
        if "shifts" in settings:
            given["shifts"] = tuple(settings["shifts"])
        return FloorTimes(**given)
    except FloorTimeError as exc:
        _fail(f"{pit_config}: [pit] {exc}")


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"tableside: {message}", err=True)
    sys.exit(code)


def _open(db_url: str, key_path: str | None = None,
          pit_config: str | None = None) -> PitState:
    from pit.app import open_pit
    from pit.configs import SigningKeyError
    from pit.db import PitDatabaseError

    db_url, key_path = _places(db_url, key_path, pit_config)
    times = _times(pit_config)
    try:
        return open_pit(db_url, key_path, times)
    except (PitDatabaseError, SigningKeyError) as exc:
        _fail(str(exc))


@click.group()
def pit() -> None:
    """The pit server: every table's journal in one place, and the inspectors' dashboard."""


@pit.command("serve")
@_db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on (0.0.0.0: every interface)")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=int)
@_key_option
@click.option("--tls-cert", type=click.Path(dir_okay=False), default=None,
              help="serve HTTPS with this certificate (PEM, the chain after it)")
@click.option("--tls-key", type=click.Path(dir_okay=False), default=None,
              help="the certificate's private key (PEM, unencrypted)")
def serve(db_url: str, host: str, port: int, key_path: str | None, pit_config: str | None,
          tls_cert: str | None, tls_key: str | None) -> None:
    """Run the pit server (the tables' API under /api/v1, the dashboard at /), over HTTPS
    with --tls-cert and --tls-key."""
    import uvicorn

    from pit.app import create_app

    if (tls_cert is None) != (tls_key is None):
        _fail("HTTPS needs both --tls-cert and --tls-key")
    if tls_cert is not None and tls_key is not None:
        _check_tls(tls_cert, tls_key)
    state = _open(db_url, key_path, pit_config)
    db_url = _places(db_url, key_path, pit_config)[0]
    scheme = "https" if tls_cert else "http"
    click.echo(f"Tableside pit on {state.store.db.dialect} ({db_url}): "
               f"dashboard at {scheme}://{host}:{port}/", err=True)
    # One line a request (uvicorn's access log), a stored batch, an anchor, a refusal or an
    # alert (pit.*), and the stop: on stderr, which journald keeps.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    log_config["handlers"]["access"]["stream"] = "ext://sys.stderr"  # one stream, not two
    uvicorn.run(create_app(state), host=host, port=port, log_level="info",
                log_config=log_config, timeout_graceful_shutdown=2, ssl_certfile=tls_cert,
                ssl_keyfile=tls_key)


def _check_tls(cert: str, key: str) -> None:
    """Refuse, in words, a certificate and key that cannot serve HTTPS (before uvicorn
    would, with a traceback)."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as exc:
        _fail(f"--tls-cert {cert} and --tls-key {key} do not make a certificate and its key "
              f"(PEM, the key unencrypted): {exc.reason or exc}")
    except OSError as exc:
        _fail(f"cannot read the certificate or its key: {exc.filename}: {exc.strerror}")


def _credential_out_option(f: click.decorators.FC) -> click.decorators.FC:
    f = click.option("--credential-out", type=click.Path(dir_okay=False, path_type=Path),
                     help="write the credential to this file (mode 0600) instead of "
                          "printing it")(f)
    return click.option("--pit-url", default=f"http://127.0.0.1:{DEFAULT_PORT}",
                        show_default=True, help="the pit's address as the table reaches it")(f)


def _hand_over(table_id: str, credential_out: Path | None, pit_url: str,
               state: PitState, make: Callable[[], str]) -> None:
    """Make the table's credential (`make`, which the pit may refuse: not enrolled, an id it
    cannot take, a new card not yet) and give it to --credential-out (opened first, so a new
    credential is never lost unwritten) or on stderr, then the [sync] section for its
    table.toml on stdout."""
    out = None
    if credential_out is not None:
        try:
            fd = os.open(credential_out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        except OSError as exc:
            _fail(f"cannot write the credential to {credential_out}: {exc.strerror}")
        out = os.fdopen(fd, "w", encoding="utf-8")
    from pit.store import EnrolmentError, NewCardRefused, UnknownTable

    try:
        credential = make()
    except (UnknownTable, EnrolmentError, NewCardRefused) as exc:
        if out is not None:
            out.close()
            credential_out.unlink(missing_ok=True)  # type: ignore[union-attr]
        _fail(f"table {exc.args[0]} is not enrolled at this pit (tableside pit enroll)"
              if isinstance(exc, UnknownTable) else str(exc))
    if out is not None:
        with out:
            out.write(credential)
        click.echo(f"Credential and anchor key of table {table_id} written to "
                   f"{credential_out} (copy it to the table's data partition; keep it secret)",
                   err=True)
    else:
        click.echo(f"Credential of table {table_id}, with its anchor key (shown once; keep "
                   f"it secret; the whole text is its credential file):\n{credential}",
                   err=True)
    click.echo(f'[sync]\npit = "{pit_url}"\ncredential_file = "data/{table_id}.credential"\n'
               f'pit_key = "{state.configs.public_key}"')


@pit.command("enroll")
@click.argument("table_id")
@_db_option
@_credential_out_option
@_key_option
def enroll(table_id: str, db_url: str, pit_url: str, credential_out: Path | None,
           key_path: str | None, pit_config: str | None) -> None:
    """Enrol a table (or give it a new credential and anchor key; the old ones stop working)
    and print the [sync] section for its table.toml, with the pit's public key its
    configurations are checked against. The credential file holds the credential and the
    table's anchor key (Ed25519), which signs the heads it anchors here."""
    state = _open(db_url, key_path, pit_config)
    _hand_over(table_id, credential_out, pit_url, state,
               lambda: state.store.enroll_with_key(table_id))


@pit.command("new-card")
@click.argument("table_id")
@click.option("--by", required=True, help="who starts the new card: it goes on record")
@_db_option
@_credential_out_option
@_key_option
def new_card(table_id: str, by: str, db_url: str, pit_url: str, credential_out: Path | None,
             key_path: str | None, pit_config: str | None) -> None:
    """Start an enrolled table again on a new SD card, its old card dead or lost: the
    journal the pit holds of it is closed and kept as TABLE_ID.card1 (then .card2, ...), off
    the floor, and the table starts again from row 1 with a new credential and anchor key.
    Refused while the table has open alerts. Prints the [sync] section, as enroll does, and
    what the old card's journal ended with."""
    state = _open(db_url, key_path, pit_config)
    made: list[NewCard] = []

    def make() -> str:
        made.append(state.store.new_card(table_id, by))
        return made[0].credential

    _hand_over(table_id, credential_out, pit_url, state, make)
    card = made[0]
    last = card.last_known
    click.echo(f"The old card's journal is kept at this pit as {card.closed_as}: rows to "
               f"{card.head[0]}, anchored to {card.anchor[0]}.", err=True)
    if last[0]:
        click.echo(f"Check the old card, if it still reads: tableside journal verify "
                   f"FILE --head {last[0]}:{last[1]}", err=True)


@pit.command("inspector")
@click.argument("name")
@_db_option
@_config_option
@click.option("--password-stdin", is_flag=True, help="read the password from stdin")
def inspector(name: str, db_url: str, pit_config: str | None, password_stdin: bool) -> None:
    """Add an inspector who can log in to the dashboard (or set a new password)."""
    from pit.db import Database, PitDatabaseError
    from pit.inspectors import Inspectors, LoginError
    from pit.store import PitStore

    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    db_url = _places(db_url, None, pit_config)[0]
    try:  # no signing key: an inspector signs nothing
        store = PitStore(Database(db_url))
    except PitDatabaseError as exc:
        _fail(str(exc))
    try:
        Inspectors(store).add(name, password)
    except LoginError as exc:
        _fail(str(exc))
    finally:
        store.db.close()
    click.echo(f"Inspector {name} can log in to the dashboard")


@pit.command("pin")
@click.argument("person_id")
@click.option("--name", default="", help="the person's name as the table shows it")
@click.option("--role", type=click.Choice(["dealer", "inspector", "technician"]),
              default="dealer", show_default=True)
@click.option("--pin-stdin", is_flag=True, help="read the PIN from stdin")
def pin(person_id: str, name: str, role: str, pin_stdin: bool) -> None:
    """Print a person's [people] entry for a table's configuration, the PIN hashed with
    scrypt (docs/roles.md); the pit signs it with the limits (pit config)."""
    from kiosk.table.roles import Role, RoleRefused, people_toml

    if pin_stdin:
        secret = sys.stdin.readline().rstrip("\n")
    else:
        secret = click.prompt("PIN", hide_input=True, confirmation_prompt=True)
    try:
        text = people_toml([(person_id, name or person_id, Role(role), secret)])
    except RoleRefused as exc:
        _fail(str(exc))
    click.echo(text.split("\n", 3)[3], nl=False)  # the person's sub-table alone


@pit.command("key")
@_db_option
@_key_option
def key(db_url: str, key_path: str | None, pit_config: str | None) -> None:
    """Print the pit's public key (a table's `[sync] pit_key`): the key this database
    signs with (a key file that is not its key is refused, with the reason)."""
    click.echo(_open(db_url, key_path, pit_config).configs.public_key)


@pit.command("config")
@click.argument("table_id")
@_db_option
@_key_option
@click.option("--file", "body_file", type=click.File("r", encoding="utf-8"),
              help="publish this TOML as the table's next version: [table] game, name, "
                   "currency; [chips]; the game's section (- reads stdin)")
@click.option("--by", default=lambda: os.environ.get("USER", "pit"), show_default="$USER",
              help="who publishes it (on record at the table)")
def config(table_id: str, db_url: str, key_path: str | None, pit_config: str | None,
           body_file: Any, by: str) -> None:
    """Show a table's configuration versions, or publish a new one (signed with the pit's
    key; the table takes it up between rounds)."""
    from pit.configs import BadConfig
    from pit.store import UnknownTable

    state = _open(db_url, key_path, pit_config)
    if body_file is not None:
        try:
            doc = state.configs.publish(table_id, body_file.read(), by)
        except BadConfig as exc:
            _fail(f"not published: {exc}")
        except UnknownTable:
            _fail(f"no table {table_id} is enrolled here (tableside pit enroll {table_id})")
        click.echo(f"Table {table_id}: version {doc.version} published and signed; the table "
                   "takes it up between rounds")
        return
    versions = state.configs.versions(table_id)
    if not versions:
        click.echo(f"Table {table_id} runs its own table.toml: the pit has no version for it")
        return
    for doc in versions:
        click.echo(f"# version {doc.version}, {doc.created_at} by {doc.created_by}")
    click.echo(f"\n# the newest, version {versions[0].version}:\n{versions[0].body}")
