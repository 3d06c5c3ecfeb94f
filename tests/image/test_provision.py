"""First-boot provisioning (kiosk/provision.py): a table.toml on the boot partition is
checked, applied to the data partition (mode 0600), the hostname set, and renamed applied; a
file with a mistake is left, with the reason in words for the dealer screen."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import example, load
from kiosk.provision import ERROR_FILE, hostname_for, pending_error, provision
from kiosk.store.journal import Journal

CONFIG = example().replace('journal = "data/PB-01.db"', 'journal = "journal/PB-01.db"')


def _card(tmp_path: Path, text: str = CONFIG) -> tuple[Path, Path, Path]:
    boot, data, etc = tmp_path / "boot", tmp_path / "data", tmp_path / "etc"
    for d in (boot, data, etc):
        d.mkdir()
    (boot / "table.toml").write_text(text)
    return boot, data, etc


def test_a_good_file_is_applied_once(tmp_path: Path) -> None:
    boot, data, etc = _card(tmp_path)
    done = provision(boot, data, etc)
    assert (done.applied, done.hostname, done.error) == ("PB-01", "tableside-pb-01", "")
    applied = data / "table.toml"
    assert applied.read_text() == CONFIG and stat.S_IMODE(applied.stat().st_mode) == 0o600
    assert (etc / "hostname").read_text() == "tableside-pb-01\n"
    assert not (boot / "table.toml").exists() and (boot / "table.toml.applied").exists()
    assert load(applied).journal == data / "journal" / "PB-01.db"
    again = provision(boot, data, etc)  # the next boot: nothing new, nothing changed
    assert again.applied == "" and again.error == "" and applied.read_text() == CONFIG


def test_a_file_with_a_mistake_is_left_and_explained(tmp_path: Path) -> None:
    boot, data, etc = _card(tmp_path, CONFIG.replace("commission_mode", "comission_mode"))
    (data / "table.toml").write_text(CONFIG)  # the table's configuration before
    done = provision(boot, data, etc)
    assert done.applied == "" and "comission_mode: unknown key" in done.error
    assert (boot / "table.toml").exists() and not (boot / "table.toml.applied").exists()
    assert (data / "table.toml").read_text() == CONFIG  # the table runs as before
    assert not (etc / "hostname").exists()
    words = pending_error(data / "table.toml")
    assert words.startswith("The table was not set up: table.toml on the SD card's boot "
                            "partition, line 13: punto_banco.comission_mode: unknown key")
    assert words.endswith("Correct table.toml on the boot partition and restart.")
    (boot / "table.toml").write_text(CONFIG)  # the technician corrects it
    assert provision(boot, data, etc).applied == "PB-01"
    assert not (data / ERROR_FILE).exists() and pending_error(data / "table.toml") == ""


def test_another_tables_journal_is_kept_for_audit(tmp_path: Path) -> None:
    boot, data, etc = _card(tmp_path)
    old = data / "journal" / "PB-01.db"
    old.parent.mkdir()
    with Journal.open(old, "BJ-07") as j:  # the Pi came from another table
        j.append("note", {"text": "from BJ-07"})
    done = provision(boot, data, etc, now=datetime(2026, 11, 24, 22, 0, tzinfo=UTC))
    assert done.archived == data / "journal" / "PB-01.BJ-07.20261124T220000Z.db"
    assert not old.exists()
    with Journal.open(done.archived, "BJ-07", read_only=True) as kept:
        assert [e.payload for e in kept.entries()] == [{"text": "from BJ-07"}]


def test_the_command_says_what_it_did(tmp_path: Path) -> None:
    boot, data, etc = _card(tmp_path, CONFIG.replace('id = "PB-01"', 'id = "PB 01!"'))
    args = ["provision", "--boot", str(boot), "--data", str(data), "--etc", str(etc)]
    bad = CliRunner().invoke(main, args)
    assert bad.exit_code == 1 and "not applied" in bad.output and "table.id" in bad.output
    (boot / "table.toml").write_text(CONFIG)
    good = CliRunner().invoke(main, args)
    assert good.exit_code == 0
    assert good.output == "Applied: table PB-01, hostname tableside-pb-01\n"
    assert CliRunner().invoke(main, args).output.startswith("No new table.toml")


def test_hostnames_from_table_ids() -> None:
    assert hostname_for("PB-01") == "tableside-pb-01"
    assert hostname_for("Salon_Privé.3") == "tableside-salon-priv-3"
    assert len(hostname_for("X" * 32)) <= 63


def test_the_applied_file_belongs_to_the_kiosk_user(tmp_path: Path) -> None:
    """Provisioning runs as root; the dealer app, as the kiosk user, must read the file
    (seen when the image first booted in an emulator: the app could not start)."""
    import os

    boot, data, etc = _card(tmp_path)
    if os.geteuid() != 0:  # only root gives files away
        return
    done = provision(boot, data, etc, owner=(4242, 4343))
    applied = (data / "table.toml").stat()
    assert done.applied == "PB-01" and (applied.st_uid, applied.st_gid) == (4242, 4343)
    assert stat.S_IMODE(applied.st_mode) == 0o600


def test_the_pit_credential_moves_from_the_boot_partition_to_the_data_partition(
        tmp_path: Path) -> None:
    """Provisioning carries the pit enrolment (address, credential, the
    pit's public key); the credential never stays on the boot partition, which anyone with
    the card can read."""
    sync = ('[sync]\npit = "https://pit.casino.lan:8600"\n'
            'credential_file = "secrets/PB-01.credential"\npit_key = "' + "ab" * 32 + '"\n')
    boot, data, etc = _card(tmp_path, CONFIG + "\n" + sync)
    (boot / "table.credential").write_text("s3cret-token\n")
    done = provision(boot, data, etc)
    assert done.applied == "PB-01" and done.error == ""
    moved = data / "secrets" / "PB-01.credential"
    assert moved.read_text() == "s3cret-token\n"
    assert stat.S_IMODE(moved.stat().st_mode) == 0o600
    assert not (boot / "table.credential").exists()
    cfg = load(data / "table.toml")
    assert cfg.sync.credential() == "s3cret-token" and cfg.sync.pit_key == "ab" * 32


def test_the_anchor_key_moves_with_the_credential_and_stays_private(tmp_path: Path) -> None:
    """The credential file from enrolment holds the table's anchor key (Ed25519) after the
    credential's line: it reaches the data partition whole, mode 0600, and reads back."""
    from kiosk.anchor import credential_text, new_key, public_hex, split_credential

    key, public = new_key()
    text = credential_text("s3cret-token", key)
    sync = ('[sync]\npit = "https://pit.casino.lan:8600"\n'
            'credential_file = "secrets/PB-01.credential"\npit_key = "' + "ab" * 32 + '"\n')
    boot, data, etc = _card(tmp_path, CONFIG + "\n" + sync)
    (boot / "table.credential").write_text(text)
    assert provision(boot, data, etc).error == ""
    moved = data / "secrets" / "PB-01.credential"
    assert moved.read_text() == text.strip() + "\n"
    assert stat.S_IMODE(moved.stat().st_mode) == 0o600
    token, read = split_credential(load(data / "table.toml").sync.credential())
    assert token == "s3cret-token" and read is not None and public_hex(read) == public


def test_a_credential_without_a_pit_to_use_it_with_is_refused(tmp_path: Path) -> None:
    boot, data, etc = _card(tmp_path)
    (boot / "table.credential").write_text("s3cret-token\n")
    done = provision(boot, data, etc)
    assert done.applied == "" and "names no [sync] pit" in done.error
    assert (boot / "table.toml").exists() and (boot / "table.credential").exists()


def test_with_a_read_only_root_the_hostname_is_kept_on_the_data_partition(
        tmp_path: Path) -> None:
    """The image runs `provision --etc /data/etc`: /etc is on the read-only root, where
    /etc/hostname links to /data/etc/hostname (tableside-hostname.service sets it)."""
    boot, data, _ = _card(tmp_path)
    done = provision(boot, data, data / "etc")
    assert done.applied == "PB-01"
    kept = data / "etc" / "hostname"
    assert kept.read_text() == "tableside-pb-01\n" and stat.S_IMODE(kept.stat().st_mode) == 0o644
