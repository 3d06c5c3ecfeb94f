"""The `tableside` command: run the table, the demo, the odds, the journal tools, replay."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from kiosk import program
from kiosk.program import refuse
from kiosk.rules.errors import TablesideError
from kiosk.rules.registry import EXTRA_GAMES, load_games
from kiosk.screens import Layout, at_option

load_games(os.environ.get(EXTRA_GAMES, ""))  # before the commands list the games


def _fail(exc: Exception) -> NoReturn:
    """Refuse what the command was given, with the reason: exit status 2 (kiosk/program.py)."""
    refuse(str(exc))


class _Tableside(click.Group):
    """The `tableside` program: every error in one format, `tableside: <message>`, and one
    exit status for each kind (kiosk/program.py), from whichever command."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        def main() -> Any:
            return super(_Tableside, self).main(args, prog_name, complete_var, False, **extra)

        if not standalone_mode:
            return main()
        program.run(main)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A command of the program, else a game's own (`tableside paigow houseway ...`):
        the `game_command` its screens module may hold, found through the registry."""
        found = super().get_command(ctx, cmd_name)
        return found if found is not None else _game_command(cmd_name)


def _game_command(name: str) -> click.Command | None:
    """`game_command` of the screens module of the game called `name` (None: no such game, or
    it has no commands of its own). Not listed by --help: only the games that have one do."""
    from kiosk.rules.registry import UnknownGame

    try:
        spec = _registry().get(name)
    except UnknownGame:
        return None
    if not spec.screens:
        return None
    from kiosk.ui.games import screens

    command = getattr(screens(spec), "game_command", None)
    return command if isinstance(command, click.Command) else None


@click.group(cls=_Tableside, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tableside", prog_name="tableside")
def main() -> None:
    """Tableside: the computer at a casino gaming table.

    A game may have commands of its own, under its name: `tableside paigow houseway TILES`."""


# --- odds ---------------------------------------------------------------------------------


class _GamesOdds(click.Group):
    """`tableside odds GAME`: each game's own odds command (its screens module's
    `odds_command`, kiosk/ui/games/), found through the registry when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in _registry().names() if self.get_command(ctx, name)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from kiosk.rules.registry import UnknownGame
        from kiosk.ui.games import screens

        try:
            spec = _registry().get(cmd_name)
        except UnknownGame:
            return None
        return screens(spec).odds_command if spec.screens else None


def _registry() -> Any:
    from kiosk.rules.registry import GAMES

    return GAMES


@main.group(cls=_GamesOdds)
def odds() -> None:
    """Exact odds and house edges computed from the engine's own rules."""


# --- journal ------------------------------------------------------------------------------


@main.group()
def journal() -> None:
    """The tamper-evident journal: verify it, export it."""


def _anchor_options(f: Any) -> Any:
    """The outside heads `journal verify` and `replay` check a journal against."""
    f = click.option("--head", help="expected head as SEQ:HASH (default: the head the pit "
                     "acknowledged, kept beside the journal by the sync)")(f)
    f = click.option("--pit", "pit_url", help="check against every head the table anchored "
                     "at this pit (its address, as the table's [sync] pit)")(f)
    f = click.option("--config", "config_path", type=click.Path(dir_okay=False),
                     help="the table's table.toml: its [sync] pit, credential and CA file "
                     "(--pit overrides the address)")(f)
    f = click.option("--credential-file", type=click.Path(dir_okay=False),
                     help="the table's credential file, with --pit and no --config")(f)
    return f


class _Anchors:
    """The heads a journal is checked against, and what to say about them."""

    def __init__(self) -> None:
        self.heads: dict[int, str] = {}
        self.acked: tuple[int, str] | None = None
        self.pit = ""
        self.pit_heads = 0
        self.anchor_file: Path | None = None

    def said(self) -> str:
        parts = []
        if self.acked:
            parts.append(f"row {self.acked[0]} is the row the pit acknowledged")
        if self.pit:
            newest = max(self.heads) if self.heads else 0
            parts.append(f"checked against {self.pit_heads} head(s) anchored at {self.pit} "
                         f"(newest row {newest})")
        return "; " + "; ".join(parts) if parts else ""


def _anchors(path: str, head: str | None, pit_url: str | None, config_path: str | None,
             credential_file: str | None) -> _Anchors:
    """The acknowledged head (beside the journal, or --head) and, with --pit or --config,
    every head the table anchored at the pit, read from the pit itself."""
    from kiosk.sync.state import load, state_path

    out = _Anchors()
    if head:
        seq, _, digest = head.partition(":")
        if not seq.isdigit() or len(digest) != 64:
            _fail(ValueError("--head is SEQ:HASH, a row number and its 64-digit hash"))
        out.acked = (int(seq), digest)
    else:
        out.anchor_file = state_path(path)
        out.acked = load(out.anchor_file).head
    if out.acked:
        out.heads[out.acked[0]] = out.acked[1]
    if pit_url or config_path:
        from kiosk.anchor import fetch_anchors, pit_reader

        try:
            reader = pit_reader(path, pit_url, config_path, credential_file)
            out.pit = reader.url
            pit_heads = fetch_anchors(reader)
        except TablesideError as exc:
            _fail(exc)
        out.pit_heads = len(pit_heads)
        for row, anchored in pit_heads.items():
            out.heads[row] = anchored
            if out.acked and row == out.acked[0] and anchored != out.acked[1]:
                out.acked = None  # the pit's word, not the file beside the journal
    return out


@journal.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
@_anchor_options
def journal_verify(path: str, head: str | None, pit_url: str | None,
                   config_path: str | None, credential_file: str | None) -> None:
    """Recompute the hash chain (of the database or its JSONL export) and name the first bad
    row. Every head the pit acknowledged or the table anchored there (--pit) must still be
    there, unchanged: an edit before it that re-hashes the chain shows."""
    from kiosk.store.source import verify_source

    anchors = _anchors(path, head, pit_url, config_path, credential_file)
    try:
        report = verify_source(path, anchors=anchors.heads)
    except TablesideError as exc:
        _fail(exc)
    if report.ok:
        click.echo(f"OK: {report.rows} rows, head {report.head_hash}{anchors.said()}")
        if anchors.pit and not anchors.pit_heads:
            click.echo(f"Not checked against the pit: the pit at {anchors.pit} holds no "
                       "anchored head and no row of this table yet.")
        elif not anchors.heads and anchors.anchor_file is not None:
            click.echo(_unanchored(anchors.anchor_file))
        return
    click.echo(f"BROKEN at row {report.first_bad_seq}: {report.reason} "
               f"({report.rows} good rows before it)")
    sys.exit(1)


def _unanchored(anchor_file: Path) -> str:
    """Why the check above did not reach the pit's head, in words: a deleted state file
    must not turn the check off silently."""
    if not anchor_file.exists():
        return (f"Not checked against the pit: {anchor_file} (the head the pit acknowledged) "
                "is missing. If this table syncs to a pit, a journal re-hashed before that "
                "head would pass this check: check it against the pit's anchors with "
                "--pit URL (or --config table.toml), or give the head the pit holds for "
                "this table with --head SEQ:HASH.")
    return (f"Not checked against the pit: {anchor_file} holds no acknowledged head yet "
            "(nothing has reached the pit). The file beside the journal can be rewritten "
            "by whoever has the journal: --pit URL checks against the pit itself.")


@journal.command("export")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="file (default: stdout)")
def journal_export(path: str, out: str | None) -> None:
    """Write the journal as JSONL (docs/journal.md)."""
    from kiosk.store.export import export_jsonl, export_jsonl_file

    if out:
        n = export_jsonl_file(path, out)
        click.echo(f"{n} rows written to {out}", err=True)
    else:
        export_jsonl(path, sys.stdout)


# --- replay -------------------------------------------------------------------------------


@main.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@_anchor_options
def replay(source: str, as_json: bool, head: str | None, pit_url: str | None,
           config_path: str | None, credential_file: str | None) -> None:
    """Recompute every coup of a journal (database or JSONL export) and report differences
    from what was recorded (rule 2.8). The chain is checked as `journal verify` checks it,
    against the same heads. Exit status 1 when anything differs."""
    from kiosk.replay import replay_source

    anchors = _anchors(source, head, pit_url, config_path, credential_file)
    try:
        report = replay_source(source, anchors.heads)
    except TablesideError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        chain = "intact" if report.chain_ok else f"BROKEN: {report.chain_reason}"
        click.echo(f"{source}: table {report.table_id}, {report.entries} rows, chain {chain}"
                   f"{anchors.said() if report.chain_ok else ''}")
        for c in report.rounds:
            click.echo(c.line())
        for p in report.problems:
            click.echo(f"problem: {p}")
        for d in report.disputes:
            click.echo(f"dispute: {d}")
        for x in report.exchanges:
            click.echo(f"exchange: {x}")
        click.echo(f"{report.differences} difference(s)")
    sys.exit(0 if report.ok else 1)


# --- integrity ----------------------------------------------------------------------------


@main.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def integrity(source: str, as_json: bool) -> None:
    """The integrity figures of the game a journal's table last opened, for technicians
    (a roulette wheel: chi-squared of its results, direction alternation, games per hour)."""
    from kiosk.replay import load_entries
    from kiosk.rules.operations import TableOpening, operation_from_record
    from kiosk.rules.registry import GAMES
    from kiosk.ui.games import screens

    try:
        entries = load_entries(source)
        openings = [op for op in (operation_from_record(e.kind, e.payload) for e in entries
                                  if "table_opened" in e.kind) if isinstance(op, TableOpening)]
    except TablesideError as exc:
        _fail(exc)
    if not openings:
        _fail(TablesideError(f"{source}: no table was opened in this journal"))
    opening = openings[-1]
    spec = GAMES.opened(opening)
    report = screens(spec).integrity_report
    if report is None:
        _fail(TablesideError(f"{spec.title} has no integrity figures"))
    figures = report(entries, opening.rules)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    click.echo(f"{source}: {spec.title}, table {opening.table_id}")
    for key, value in figures.items():
        if key != "counts":
            click.echo(f"  {key.replace('_', ' ')}: {value}")
    counts = figures.get("counts")
    if isinstance(counts, dict):
        click.echo("  counts: " + " ".join(f"{k}:{v}" for k, v in counts.items()))


# --- config -------------------------------------------------------------------------------


@main.group()
def config() -> None:
    """Table configuration files."""


def game_names() -> list[str]:
    """The registered games' names, for --game choices."""
    from kiosk.rules.registry import games as registered

    return [g.name for g in registered()]


@config.command("example")
@click.option("--game", type=click.Choice(game_names()), default=game_names()[0],
              show_default=True)
def config_example(game: str) -> None:
    """Print a commented example table.toml."""
    from kiosk.config import example

    click.echo(example(game), nl=False)


@config.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
def config_check(path: str) -> None:
    """Check a table.toml; print the line and the reason when it is not valid. Then try
    each configured device's port (not "simulated"): it opens, or a warning says why not
    (the table still runs, by hand)."""
    from kiosk.config import load, try_devices
    from kiosk.rules.registry import game

    try:
        cfg = load(path)
    except TablesideError as exc:
        _fail(exc)
    spec = game(cfg.game)
    decks = getattr(cfg.rules, "decks", None)
    shoe = f"{decks} decks, " if decks else ""
    click.echo(f"OK: table {cfg.table_id} ({cfg.name}), {cfg.game}, {shoe}"
               f"{spec.places.count(cfg.rules)} {spec.places.word}, journal {cfg.journal}")
    for tried in try_devices(cfg):
        click.echo(tried.line())


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def games_command(as_json: bool) -> None:
    """The games this build runs, with the rule sections each implements."""
    import kiosk.ui.games  # noqa: F401 (each game's screens module is checked, too)
    from kiosk.rules.registry import games

    rows = [{"name": g.name, "title": g.title, "aliases": list(g.aliases),
             "rules": g.rule_sections, "config_section": g.config.section,
             "devices": list(g.devices), "family": g.family} for g in games()]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(str(r["name"])) for r in rows)  # every title in one column
    for r in rows:
        also = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        click.echo(f"{r['name']:<{width}}  {r['title']}{also}: rules {r['rules']}; "
                   f"[{r['config_section']}], devices: {', '.join(r['devices']) or 'none'}")


@main.command()
@click.option("--boot", type=click.Path(file_okay=False, path_type=Path),
              default=Path("/boot/firmware"), show_default=True,
              help="the SD card's boot partition, where a new table.toml is put")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path),
              default=Path("/data"), show_default=True, help="the data partition")
@click.option("--etc", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where to write the hostname, the network, the time servers, the "
                   "technicians' SSH keys and the devices' names (the image: /data/etc)")
@click.option("--owner", default=None, metavar="USER",
              help="who the applied configuration belongs to (the image: kiosk)")
def provision(boot: Path, data: Path, etc: Path | None, owner: str | None) -> None:
    """First boot: check a new table.toml from the boot partition and apply it (docs/
    technician.md). Exit status 1 when the file has a mistake (the reason is also left
    for the dealer screen)."""
    from kiosk.provision import provision as apply

    ids = None
    if owner:
        import pwd

        try:
            user = pwd.getpwnam(owner)
        except KeyError:
            _fail(ValueError(f"no user {owner!r} on this machine"))
        ids = (user.pw_uid, user.pw_gid)
    done = apply(boot, data, etc, owner=ids)
    if done.error:
        program.say(f"not applied: {done.error}")
        sys.exit(1)
    if not done.applied:
        click.echo("No new table.toml on the boot partition: nothing to do")
        return
    kept = f"; the journal of the table before kept as {done.archived}" if done.archived else ""
    host = f"; {done.host}" if done.host else ""
    click.echo(f"Applied: table {done.applied}, hostname {done.hostname}{host}{kept}")


@main.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True,
              help="the table's table.toml: [display] sizes and dealer_screen")
@click.option("--env", "env_path", type=click.Path(dir_okay=False), default=None,
              help="write where each window goes here (TABLESIDE_DEALER_AT, ..._SIGN_AT)")
@click.option("--wait", type=float, default=30.0, show_default=True,
              help="seconds the display server has to answer")
@click.option("--dry-run", is_flag=True, help="print the xrandr command; change nothing")
@click.option("--replug", is_flag=True,
              help="a screen was plugged in or out (udev runs this): each screen keeps the "
                   "role --env says it had, and the app whose screen changed starts again")
def screens(config_path: str, env_path: str | None, wait: float, dry_run: bool,
            replug: bool) -> None:
    """Lay the table's screens out on the display server (the SD image's display service):
    the dealer's touchscreen and the players' sign, each at its configured size, side by
    side (docs/technician.md, "Screens and touch")."""
    from kiosk.config import ConfigError, DisplayConfig, load
    from kiosk.screens import Roles, arrange, moved, parse_xrandr, query, run_command

    before = ""
    if replug:
        if env_path is None:
            raise click.UsageError("--replug needs --env: the roles the screens had")
        with contextlib.suppress(OSError):
            before = Path(env_path).read_text()

    try:
        shown = load(config_path).display
    except ConfigError as exc:  # the setup screen says why; lay out the default sizes
        shown = DisplayConfig()
        click.echo(f"tableside screens: {config_path} does not load ({exc}); the screens "
                   "get the default sizes", err=True)
    try:
        outputs = parse_xrandr(query(wait, run_command))
    except RuntimeError as exc:
        _fail(TablesideError(str(exc)))
    layout = arrange(outputs, (shown.width, shown.height),
                     (shown.signage_width, shown.signage_height) if shown.signage else None,
                     shown.dealer_screen, Roles.read(before) if replug else None)
    for problem in layout.problems:
        click.echo(f"tableside screens: {problem}", err=True)
    command = ["xrandr", *layout.xrandr_args()]
    click.echo(" ".join(command))
    if not dry_run and layout.dealer is not None:
        status, said = run_command(command)
        if status != 0:
            click.echo(f"tableside screens: xrandr refused the layout: {said.strip()}", err=True)
    if env_path is not None:  # whole or not at all: a replug may stop this one half-way
        path = Path(env_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = path.with_name(path.name + ".new")
        fresh.write_text(layout.env())
        os.replace(fresh, path)
    click.echo(layout.env(), nl=False)
    if replug and not dry_run:
        _start_again(moved(before, layout.env()), layout)


def _start_again(roles: list[str], layout: Layout) -> None:
    """After a replug: start again the app whose screen changed (its window goes where the
    environment file now says); the other one is left alone."""
    from kiosk.update import DEALER, SIGNAGE, Systemd, UpdateFailed

    for role in roles:
        unit = DEALER if role == "dealer" else SIGNAGE
        placed = layout.dealer if role == "dealer" else layout.sign
        where = f"{placed.output} at {placed.at[0]},{placed.at[1]}" if placed else "none"
        click.echo(f"tableside screens: the {role}'s screen is now {where}: starting {unit} "
                   "again")
        try:
            Systemd().restart(unit)
        except UpdateFailed as exc:
            click.echo(f"tableside screens: {unit} not started again: {exc}", err=True)


@main.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
@click.option("--wait", type=float, default=5.0, show_default=True,
              help="seconds each device has to answer")
@click.option("--buttons", type=float, default=None, metavar="SECONDS",
              help="also ask for each panel button to be pressed within SECONDS")
@click.option("--screen", is_flag=True,
              help="on the dealer's touchscreen: the results, five targets to tap and the "
                   "players' screen to confirm (stop the dealer service first)")
@click.option("--position", default=None, callback=at_option, metavar="X,Y",
              envvar="TABLESIDE_DEALER_AT",
              help="--screen: the window's top-left corner on a desktop of several screens, "
                   "borderless [default: $TABLESIDE_DEALER_AT, as the dealer app's]")
@click.option("--technician", default=None, metavar="ID",
              help="a table with [people]: the technician's id (asked for when not given); "
                   "the PIN is asked for (docs/roles.md)")
@click.option("--reason", default="routine self-test", show_default=True,
              help="why the self-test is run, on record with the technician's id")
def selftest(config_path: str, wait: float, buttons: float | None, screen: bool,
             position: tuple[int, int] | None, technician: str | None, reason: str) -> None:
    """The technician's self-test: devices answer, panel lamps and display, buttons, free
    disk, the clock, file modes, the pit; each result on record in the journal. Exit status
    1 if any check fails. A table with [people] asks for a technician's id and PIN first,
    and puts their approval on record before the results (docs/roles.md)."""
    from kiosk.config import load
    from kiosk.selftest import run_selftest

    try:
        cfg = load(config_path)
    except TablesideError as exc:
        _fail(exc)
    if cfg.people.checked:
        _technician_approves(cfg, technician, reason)
    if buttons is not None:
        click.echo(f"Press each of the table's two buttons within {buttons:g} s")
    if screen:
        from kiosk.ui.launcher import KioskOptions, display_available, prepare_kivy

        if not display_available():
            _fail(TablesideError("--screen needs the dealer's display (none here)"))
        prepare_kivy(KioskOptions(size=(cfg.display.width, cfg.display.height),
                                  fullscreen=cfg.display.fullscreen, position=position))
        from kiosk.ui.selftest_screen import SelfTestApp

        app = SelfTestApp(cfg, check=lambda: run_selftest(cfg, wait=wait, press=buttons))
        app.run()
        results = app.results
    else:
        results = run_selftest(cfg, wait=wait, press=buttons)
    for r in results:
        click.echo(f"{'ok  ' if r.ok else 'FAIL'}  {r.check:<22} {r.detail}")
    failed = sum(not r.ok for r in results)
    click.echo(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def _technician_approves(cfg: Any, technician: str | None, reason: str) -> None:
    """The technician's id and PIN checked against the table's people list, and their
    approval of the self-test on record (`override`, kiosk/table/roles.py); a wrong one is
    refused in one line and nothing runs."""
    from datetime import UTC, datetime

    from kiosk.store.journal import Journal
    from kiosk.table.roles import Override, RoleRefused, approval, check_on_record

    pid = (technician or click.prompt("Technician's id")).strip()
    secret = click.prompt("PIN", hide_input=True)
    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(cfg.journal, cfg.table_id) as journal:
        try:  # a wrong PIN counts towards the id's lockout, on record (docs/roles.md)
            person = check_on_record(journal, cfg.people, pid, secret, datetime.now(UTC))
            record = approval(person, Override.SELF_TEST, reason)
        except RoleRefused as exc:
            _fail(TablesideError(f"{exc}: the self-test does not run"))
        journal.append(record.kind, record.to_payload())


@main.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write it to this file (agetty's /etc/issue.d) instead of printing it")
def banner(config_path: str, out: Path | None) -> None:
    """The console's banner on the SD image: the version, the table, its address and the
    last self-test (and TRIAL UPDATE KEY on a trial image)."""
    import importlib.metadata
    import socket

    from kiosk.config import load
    from kiosk.selftest import banner as words

    try:
        cfg, why = load(config_path), ""
    except TablesideError as exc:
        cfg, why = None, str(exc)
    text = words(cfg, importlib.metadata.version("tableside"), why_not=why,
                 hostname=socket.gethostname())
    if out is None:
        click.echo(text, nl=False)
        return
    tmp = out.with_name(f".{out.name}.new")
    try:
        tmp.write_text(text.replace("\\", "\\\\"), encoding="utf-8")  # agetty's escapes
        tmp.replace(out)
    except OSError as exc:  # could not do its job: exit status 1
        raise TablesideError(f"cannot write the banner to {out}: {exc.strerror or exc}"
                             ) from exc


@main.command("technician-login")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), required=True)
@click.option("--user", default="", help="who logged in (PAM_USER)")
@click.option("--from", "remote", default="", help="from where (PAM_RHOST)")
def technician_login(config_path: str, user: str, remote: str) -> None:
    """Put a technician's SSH login on record in the table's journal (a device report, which
    the sync takes to the pit); run by PAM on the SD image."""
    from kiosk.config import load
    from kiosk.selftest import technician_login as record

    try:  # a mistake in table.toml: exit status 2; the journal not written: 1
        record(load(config_path), user, remote)
    except OSError as exc:
        raise TablesideError(f"cannot put the login on record: {exc.strerror or exc}"
                             ) from exc


def _attach_optional() -> None:
    from hardware.simulators.cli import simulate
    from kiosk.commands import demo, run
    from kiosk.sync.cli import sync
    from kiosk.ui.signage.app import signage
    from kiosk.update import update
    from pit.cli import pit

    main.add_command(pit)
    main.add_command(sync)
    main.add_command(simulate)
    main.add_command(run)
    main.add_command(demo)
    main.add_command(signage)
    main.add_command(update)


_attach_optional()


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="tableside")  # `python -m kiosk.cli` is the same program

