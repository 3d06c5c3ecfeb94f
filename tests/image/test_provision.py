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
        d.mkdir(parents=True)
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
    assert good.output == ("Applied: table PB-01, hostname tableside-pb-01; network by DHCP, "
                           "no technician keys: no SSH server\n")
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


# --- the table's computer: network, time servers, technicians' keys, device names ----------

def _ssh_key(seed: int, comment: str = "tech@laptop") -> str:
    """An OpenSSH ed25519 public key line (the blob: its type and 32 bytes of key)."""
    import base64

    def field(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    blob = field(b"ssh-ed25519") + field(bytes([seed]) * 32)
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {comment}"


def test_without_a_network_section_the_table_takes_its_address_by_dhcp(tmp_path: Path) -> None:
    boot, data, _ = _card(tmp_path)
    etc = data / "etc"
    assert provision(boot, data, etc).applied == "PB-01"
    network = (etc / "network" / "10-tableside.network").read_text()
    body = [line for line in network.splitlines() if line and not line.startswith("#")]
    assert body == ["[Match]", "Type=ether", "[Network]", "DHCP=yes", "LinkLocalAddressing=no",
                    "IPv6AcceptRA=no", "[DHCPv4]", "UseNTP=yes", "UseDNS=yes"]
    assert stat.S_IMODE((etc / "network" / "10-tableside.network").stat().st_mode) == 0o644
    # no time servers named: timesyncd's own (DHCP's, then Debian's); no keys: no SSH server
    assert not (etc / "timesyncd" / "10-tableside.conf").exists()
    assert not (etc / "ssh" / "technician_keys").exists()


def test_a_static_address_its_gateway_dns_and_time_servers(tmp_path: Path) -> None:
    net = ('\n[network]\naddress = "10.20.0.31/24"\ngateway = "10.20.0.1"\n'
           'dns = ["10.20.0.2", "10.20.0.3"]\nntp = ["ntp1.casino.lan", "10.20.0.5"]\n')
    boot, data, _ = _card(tmp_path, CONFIG + net)
    etc = data / "etc"
    assert provision(boot, data, etc).error == ""
    network = (etc / "network" / "10-tableside.network").read_text()
    assert "\n[Network]\nAddress=10.20.0.31/24\nGateway=10.20.0.1\nDNS=10.20.0.2\n" \
           "DNS=10.20.0.3\n" in network and "DHCP" not in network
    assert (etc / "timesyncd" / "10-tableside.conf").read_text().endswith(
        "[Time]\nNTP=ntp1.casino.lan 10.20.0.5\n")
    # provisioned again with DHCP and no time servers: the static setting goes
    (boot / "table.toml").write_text(CONFIG)
    assert provision(boot, data, etc).error == ""
    assert "DHCP=yes" in (etc / "network" / "10-tableside.network").read_text()
    assert not (etc / "timesyncd" / "10-tableside.conf").exists()


def test_network_mistakes_are_refused_with_their_line(tmp_path: Path) -> None:
    cases = {
        'address = "10.20.0.31"\ngateway = "10.20.0.1"\ndns = ["1.1.1.1"]':
            'network.address: \'10.20.0.31\' needs its prefix, like "10.20.0.31/24"',
        'address = "10.20.0.31/24"\ngateway = "10.30.0.1"\ndns = ["1.1.1.1"]':
            "network.gateway: 10.30.0.1 is not in the table's network 10.20.0.0/24",
        'address = "10.20.0.31/24"\ngateway = "10.20.0.1"':
            "network.dns: is required with a static address",
        'gateway = "10.20.0.1"': "network.gateway: only with a static address",
        'address = "static"': "network.address: 'static' is neither \"dhcp\" nor an address",
        'ntp = ["bad host!"]': "network.ntp: 'bad host!' is not a host name or an IP address",
        'ntp = "pool.ntp.org"\nnpt = 1': "network.npt: unknown key (did you mean ntp?)",
    }
    for n, (body, words) in enumerate(cases.items()):
        boot, data, _ = _card(tmp_path / str(n), CONFIG + f"\n[network]\n{body}\n")
        done = provision(boot, data, data / "etc")
        assert done.applied == "" and words in done.error, (body, done.error)
        assert not (data / "etc" / "network").exists()


def test_the_technicians_keys_from_table_toml_and_the_boot_partition(tmp_path: Path) -> None:
    one, two = _ssh_key(1, "anna@laptop"), _ssh_key(2, "ben@laptop")
    boot, data, _ = _card(tmp_path, CONFIG + f'\n[technicians]\nssh_keys = ["{one}"]\n')
    (boot / "technicians.pub").write_text(f"# the second technician\n{two}\n\n{one}\n")
    etc = data / "etc"
    assert provision(boot, data, etc).error == ""
    keys = etc / "ssh" / "technician_keys"
    assert [line for line in keys.read_text().splitlines()
            if not line.startswith("#")] == [one, two]  # each once
    assert stat.S_IMODE(keys.stat().st_mode) == 0o644
    assert (boot / "technicians.pub.applied").exists() and not (boot / "technicians.pub").exists()
    (boot / "table.toml").write_text(CONFIG)  # provisioned again without keys: no SSH server
    assert provision(boot, data, etc).error == "" and not keys.exists()


def test_a_key_that_is_not_one_is_refused_and_nothing_applied(tmp_path: Path) -> None:
    boot, data, _ = _card(tmp_path)
    (boot / "technicians.pub").write_text(_ssh_key(1) + "\nssh-dss AAAAB3NzaC1kc3M= old\n")
    done = provision(boot, data, data / "etc")
    assert done.applied == "" and done.error == (
        "technicians.pub on the boot partition, line 2: 'ssh-dss' is not a public key type "
        "OpenSSH logs in with (ssh-ed25519, ecdsa-sha2-nistp256, ...); give the line of the "
        ".pub file")
    assert (boot / "table.toml").exists() and not (data / "table.toml").exists()
    wrong = _ssh_key(1).replace("ssh-ed25519", "ssh-rsa", 1)  # the blob says ed25519
    boot, data, _ = _card(tmp_path / "b", CONFIG + f'\n[technicians]\nssh_keys = ["{wrong}"]\n')
    done = provision(boot, data, data / "etc")
    assert "technicians.ssh_keys: key 1: ssh-rsa: the key inside is not a ssh-rsa key" in (
        done.error)


def test_device_names_from_usb_port_or_serial_number(tmp_path: Path) -> None:
    text = CONFIG.replace('port = "simulated"', 'port = "/dev/tableside-shoe"\nusb_port = "1.2"')
    text += '\n[devices.shuffler]\nport = "/dev/tableside-shuffler"\nusb_serial = "A10KQ3XY"\n'
    boot, data, _ = _card(tmp_path, text)
    etc = data / "etc"
    assert provision(boot, data, etc).error == ""
    rules = [line for line in (etc / "udev" / "90-tableside-devices.rules").read_text()
             .splitlines() if line and not line.startswith("#")]
    assert rules == [
        'SUBSYSTEM=="tty", ENV{ID_PATH}=="*-usb-0:1.2:1.0", SYMLINK+="tableside-shoe", '
        'GROUP="dialout", MODE="0660"',
        'SUBSYSTEM=="tty", ENV{ID_SERIAL_SHORT}=="A10KQ3XY", SYMLINK+="tableside-shuffler", '
        'GROUP="dialout", MODE="0660"']
    bad = CONFIG.replace('port = "simulated"', 'port = "/dev/ttyUSB0"\nusb_port = "1.2"')
    boot, data, _ = _card(tmp_path / "b", bad)
    assert 'devices.shoe.port: must be "/dev/tableside-shoe"' in provision(
        boot, data, data / "etc").error


def test_the_command_says_what_it_set_up(tmp_path: Path) -> None:
    """What provisioning wrote for the computer, in its one line (the unit's log)."""
    text = CONFIG + ('\n[network]\naddress = "10.20.0.31/24"\ngateway = "10.20.0.1"\n'
                     'dns = ["10.20.0.2"]\nntp = ["ntp1.casino.lan"]\n'
                     f'\n[technicians]\nssh_keys = ["{_ssh_key(1)}", "{_ssh_key(2)}"]\n')
    boot, data, _ = _card(tmp_path, text)
    args = ["provision", "--boot", str(boot), "--data", str(data), "--etc", str(data / "etc")]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0 and out.output == (
        "Applied: table PB-01, hostname tableside-pb-01; network 10.20.0.31/24 via 10.20.0.1, "
        "time from ntp1.casino.lan, 2 technician key(s) for SSH\n")
