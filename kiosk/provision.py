"""First-boot provisioning: the table's configuration from the SD card's boot partition.

A technician writes `table.toml` onto the FAT boot partition (any computer can) and puts the
card in the Pi. At boot, before the dealer app starts (image-build/, tableside-provision
service), `tableside provision` checks it with the same checks as `tableside config check`;
a good file is copied to the data partition (mode 0600, written whole or not at all), the
hostname is set from the table id, and the file on the boot partition is renamed
`table.toml.applied`, so the next boot keeps the table as it is. A file with a mistake is
left where it is, and the reason, in words, goes to `provision-error.txt` beside the data
configuration, which the dealer screen shows. Re-provisioning is the same: a new `table.toml`
on the boot partition. A journal left by another table is kept for audit under a new name,
never overwritten and never continued.

With `etc` (the image's /data/etc) the table's computer is set up from the same file
(kiosk/host.py): the network (`network/`, systemd-networkd's: DHCP unless `[network]` gives
a static address), the time servers (`timesyncd/`), the technicians' SSH keys (`ssh/`, from
`[technicians] ssh_keys` and a `technicians.pub` beside table.toml on the boot partition;
none: no SSH server runs) and the serial devices' names (`udev/`, from `[devices.<role>]`
usb_port or usb_serial). The root is read-only: the image binds these folders where each
program reads them (image-build/build).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kiosk import host
from kiosk.config import TableConfig, load, parse
from kiosk.rules.errors import TablesideError

BOOT_FILE = "table.toml"
APPLIED = "table.toml.applied"
ERROR_FILE = "provision-error.txt"
BOOT_CREDENTIAL = "table.credential"
"""The table's pit credential (`tableside pit enroll --credential-out`), put beside
table.toml on the boot partition: moved to the data partition's `[sync] credential_file`
(0600, the kiosk user's) and removed from the boot partition, which anyone can read."""
BOOT_KEYS = "technicians.pub"
"""The technicians' SSH public keys (one a line, as in a .pub file), beside table.toml on the
boot partition: added to `[technicians] ssh_keys`, then renamed `technicians.pub.applied`."""


@dataclass(frozen=True, slots=True)
class Provisioned:
    """What one run did: `applied` the table's id, or `error` why nothing was."""

    applied: str = ""
    error: str = ""
    hostname: str = ""
    archived: Path | None = None  # another table's journal, kept under this name
    host: str = ""  # with `etc`: the network, time servers and SSH keys written, in words


def hostname_for(table_id: str) -> str:
    """A hostname from the table id: `tableside-pb-01` (RFC 1123: letters, digits, '-')."""
    name = re.sub(r"[^a-z0-9-]+", "-", table_id.lower()).strip("-")
    return f"tableside-{name}"[:63].rstrip("-")


def provision(boot: Path, data: Path, etc: Path | None = None,
              now: datetime | None = None, owner: tuple[int, int] | None = None
              ) -> Provisioned:
    """Apply `boot/table.toml` to `data/table.toml`; set `etc/hostname` when `etc` is given.
    `owner` (uid, gid): who the applied file belongs to (the kiosk user; provisioning runs as
    root). Nothing to do (no new file) is `Provisioned()`; never raises for a bad file."""
    source = boot / BOOT_FILE
    if not source.exists():
        return Provisioned()
    error_file = data / ERROR_FILE
    target = data / BOOT_FILE
    try:
        text = source.read_text(encoding="utf-8")
        cfg = parse(text, target)
    except (OSError, UnicodeDecodeError, TablesideError) as exc:
        why = (f"{exc}" if isinstance(exc, TablesideError)
               else f"{source}: cannot read the new configuration: {exc}")
        why = why.replace(str(target), f"{BOOT_FILE} on the SD card's boot partition")
        _write(error_file, f"The table was not set up: {why}\n"
                           f"Correct {BOOT_FILE} on the boot partition and restart.\n",
               owner=owner)
        return Provisioned(error=why)
    keys_source = boot / BOOT_KEYS
    try:
        boot_keys = (host.keys_from_file(keys_source.read_text(encoding="utf-8"),
                                         f"{BOOT_KEYS} on the boot partition")
                     if keys_source.exists() else ())
    except (OSError, UnicodeDecodeError, host.SshKeyError) as exc:
        why = (str(exc) if isinstance(exc, host.SshKeyError)
               else f"{BOOT_KEYS} on the boot partition cannot be read: {exc}")
        _write(error_file, f"The table was not set up: {why}\n"
                           f"Correct {BOOT_KEYS} on the boot partition and restart.\n",
               owner=owner)
        return Provisioned(error=why)
    credential = boot / BOOT_CREDENTIAL
    if credential.exists():
        if cfg.sync.credential_file is None or not cfg.sync.enabled:
            why = (f"{BOOT_CREDENTIAL} is on the boot partition but {BOOT_FILE} names no "
                   "[sync] pit to use it with")
            _write(error_file, f"The table was not set up: {why}\n", owner=owner)
            return Provisioned(error=why)
        try:
            token = credential.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            why = f"{BOOT_CREDENTIAL} on the boot partition cannot be read: {exc}"
            _write(error_file, f"The table was not set up: {why}\n", owner=owner)
            return Provisioned(error=why)
        cfg.sync.credential_file.parent.mkdir(parents=True, exist_ok=True)
        _write(cfg.sync.credential_file, token + "\n", owner=owner)
        _shred(credential)
    archived = _archive_other_journal(cfg, now or datetime.now(UTC))
    _write(target, text, owner=owner)
    hostname = hostname_for(cfg.table_id)
    host_words = ""
    if etc is not None:
        _write(etc / "hostname", hostname + "\n", mode=0o644)
        write_host(etc, cfg.host, boot_keys)
        keys = len(dict.fromkeys((*cfg.host.ssh_keys, *boot_keys)))
        net = cfg.host.network
        host_words = (("network by DHCP" if net.dhcp else f"network {net.address} via "
                       f"{net.gateway}")
                      + (f", time from {', '.join(net.ntp)}" if net.ntp else "")
                      + (f", {keys} technician key(s) for SSH" if keys
                         else ", no technician keys: no SSH server"))
    with contextlib.suppress(FileNotFoundError):
        error_file.unlink()
    source.replace(boot / APPLIED)
    if keys_source.exists():
        keys_source.replace(boot / f"{BOOT_KEYS}.applied")
    return Provisioned(applied=cfg.table_id, hostname=hostname, archived=archived,
                       host=host_words)


def write_host(etc: Path, cfg: host.HostConfig, more_keys: tuple[str, ...] = ()) -> None:
    """The table's computer's files under `etc` (root's, 0644; a file for a setting
    table.toml no longer has is removed: the file on the boot partition says it all)."""
    files = {
        etc / "network" / host.NETWORK_FILE: host.network_file(cfg.network),
        etc / "timesyncd" / host.TIMESYNC_FILE: host.timesync_file(cfg.network),
        etc / "ssh" / host.KEYS_FILE: host.keys_file((*cfg.ssh_keys, *more_keys)),
        etc / "udev" / host.DEVICES_RULES: host.devices_rules(cfg.device_names),
    }
    for path, text in files.items():
        if text:
            _write(path, text, mode=0o644)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _shred(path: Path) -> None:
    """Overwrite a secret on the boot partition before removing it (FAT keeps a deleted
    file's bytes until they are reused)."""
    with contextlib.suppress(OSError):
        size = path.stat().st_size
        with path.open("r+b") as fh:
            fh.write(b"\0" * size)
            fh.flush()
            os.fsync(fh.fileno())
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def pending_error(config: Path) -> str:
    """The last provisioning's reason for not applying a new file, for the dealer screen."""
    try:
        return (config.parent / ERROR_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def not_set_up(config: Path) -> str:
    """Why the table cannot start from `config`, in words for the dealer screen and the
    technician, or "" when it can: the file is missing or has a mistake, and when a new
    table.toml on the boot partition was refused, that reason first (it is what the
    technician just did)."""
    refused = pending_error(config)
    try:
        load(config)
    except TablesideError as exc:
        return "\n".join(w for w in (refused, str(exc)) if w)
    return ""


def _archive_other_journal(cfg: TableConfig, now: datetime) -> Path | None:
    """A journal at the configured path written by another table is renamed, kept for audit:
    the new table starts its own (a journal never changes table)."""
    path = cfg.journal
    if not path.exists():
        return None
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            row = conn.execute(
                "SELECT table_id FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        row = ("?",)  # not a journal we can read: keep it aside all the same
    if row is None or row[0] == cfg.table_id:
        return None
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    kept = path.with_name(f"{path.stem}.{row[0]}.{stamp}{path.suffix}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(path) + suffix)
        if part.exists():
            part.replace(Path(str(kept) + suffix))
    return kept


def _write(path: Path, text: str, mode: int = 0o600,
           owner: tuple[int, int] | None = None) -> None:
    """`text` into `path` whole or not at all: a temporary file, synced, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, mode)
    if owner is not None:
        os.chown(tmp, *owner)
    tmp.replace(path)
    with contextlib.suppress(OSError):  # the folder's entry on disk too (a power cut)
        dirfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
