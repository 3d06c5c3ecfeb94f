"""The SD image booted in qemu-system-aarch64 (tests/image/emulator.py): emulation, not a Pi.

One emulated table for the whole module, in this order: it boots, provisioning applies the
table.toml on its boot partition (with a [sync] pit on the host, reached through qemu's
user network, [network] ntp naming a time server on the host's loopback the same way, and a
technician's SSH key), the services run, the table's rows reach that pit, the clock is
synchronised against that time server, the technician gets in with the key (and without it
does not) and may run `tableside selftest` through sudo and nothing else, the serial console
shows the banner, the root is read-only with what lasts on
the data partition, the dealer app draws on the (virtio) screen, a sign plugged in later
is set up and drawn and one unplugged comes back without a restart, after a hard reset (the
monitor's `system_reset`, while a journal is being written) the journal is intact and the
table comes back, and a signed update is applied and a broken one rolled back. What it
measured goes to OUT/boot-test/figures.json (bench/image.py prints it). Run by
image-build/test (`pytest -m image tests/image/test_boot.py` with TABLESIDE_IMAGE set).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.config import example
from kiosk.update import Target, load_key, make_bundle
from tests.image.emulator import BOARD, SCREENS, Emulator, qemu_available
from tests.image.ntp import TimeServer

pytestmark = [pytest.mark.image,
              pytest.mark.skipif(not qemu_available(), reason="no qemu-system-aarch64")]
OUT = Path(os.environ.get("TABLESIDE_IMAGE", "build/image"))
ROOT = Path(__file__).resolve().parents[2]
BASE = example().replace('journal = "data/PB-01.db"', 'journal = "journal/PB-01.db"')
HOST = "10.0.2.2"  # the host's loopback as qemu's user network shows it to the guest
CONFIG = BASE  # with [sync], [network] and [technicians]: the `table` fixture's
FELT = [(0x0B, 0x5D, 0x3B), (0x07, 0x40, 0x2A), (0x12, 0x78, 0x4D)]  # kiosk/ui/theme.py
BOOT_WAIT = float(os.environ.get("TABLESIDE_BOOT_WAIT", "900"))
FIGURES: dict[str, float | str] = {}


def _as_kiosk(command: str) -> str:
    """The journal's owner reads it (root would leave root-owned -wal/-shm files behind)."""
    return f"runuser -u kiosk -- {command}"


class Host:
    """What the host runs for the table: a pit (SQLite) and a time server on its loopback,
    and the technician's SSH key pair."""

    def __init__(self, work: Path) -> None:
        from pit.app import open_pit
        from tests.pit.conftest import PitServer
        from tests.pit.pg import free_port

        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        self.work = work
        self.state = open_pit(str(work / "pit.db"), key_path=work / "pit.key")
        self.credential = self.state.store.enroll_with_key("PB-01")
        self.pit = PitServer(self.state).start()
        try:  # timesyncd asks port 123: the test runs as root (image-build/test)
            self.ntp = TimeServer("127.0.0.1", 123).start()
        except OSError as exc:
            self.pit.stop()
            raise RuntimeError(f"the boot test's time server cannot listen on 127.0.0.1:123 "
                               f"({exc}): run it as root, with no time server on this "
                               "machine's loopback") from exc
        self.key = work / "technician"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "boot-test",
                        "-f", str(self.key)], check=True)
        self.ssh_port = free_port()

    def config(self) -> str:
        public = self.key.with_suffix(".pub").read_text().strip()
        return (BASE + f'\n[sync]\npit = "http://{HOST}:{self.pit.port}"\n'
                f'credential_file = "secrets/PB-01.credential"\n'
                f'pit_key = "{self.state.configs.public_key}"\n'
                f'\n[network]\nntp = ["{HOST}"]\n'
                f'\n[technicians]\nssh_keys = ["{public}"]\n')

    def stop(self) -> None:
        self.ntp.stop()
        self.pit.stop()
        self.state.close()


HOSTED: dict[str, Host] = {}


@pytest.fixture(scope="module")
def table() -> Iterator[Emulator]:
    global CONFIG
    host = HOSTED["host"] = Host(OUT / "boot-test-host")
    CONFIG = host.config()
    emu = Emulator(OUT, OUT / "boot-test")
    emu.ssh_port = host.ssh_port
    emu.prepare(CONFIG, boot_files={"table.credential": host.credential})
    emu.start()
    try:
        _, uptime = emu.wait_agent(BOOT_WAIT)
        FIGURES["boot_to_agent_s"] = round(emu.elapsed(), 1)
        FIGURES["guest_uptime_at_agent_s"] = uptime
        yield emu
    finally:
        (OUT / "boot-test" / "figures.json").write_text(json.dumps(FIGURES, indent=1) + "\n")
        emu.stop()
        host.stop()


def _wait_active(emu: Emulator, unit: str, timeout: float) -> float:
    """Seconds since QEMU started when `unit` was active and running (Type=notify: READY)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = emu.check(f"systemctl show -p ActiveState,SubState --value {unit}")
        if state.split() == ["active", "running"]:
            return emu.elapsed()
        time.sleep(3)
    status = emu.sh(f"systemctl status --no-pager -n 30 {unit}")[1]
    # Why it is not running: its own log since boot, and how it last ended (a start cut
    # short, a watchdog, an exit) with how often it was restarted.
    log = emu.sh(f"journalctl -b -u {unit} -n 150 --no-pager -o short-monotonic")[1]
    ended = emu.sh(f"systemctl show -p NRestarts,Result,ExecMainCode,ExecMainStatus {unit}")[1]
    raise AssertionError(f"{unit} not running after {timeout:g} s:\n{status}\n"
                         f"--- its log since boot:\n{log}\n--- how it ended:\n{ended}")


def test_the_table_boots_provisioned_with_its_services_running(table: Emulator) -> None:
    FIGURES["boot_to_dealer_ready_s"] = round(_wait_active(table, "tableside-dealer", 600), 1)
    # (the agent's answer loses the file's last newline, as $(...) does)
    assert table.check("cat /data/table.toml") == CONFIG.rstrip("\n")
    boot = table.check("ls /boot/firmware").split()
    assert "table.toml.applied" in boot and "table.toml" not in boot
    assert table.check("hostname").strip() == "tableside-pb-01"
    assert table.check("cat /data/etc/hostname").strip() == "tableside-pb-01"
    for unit in ("tableside-units", "tableside-provision", "tableside-hostname"):
        assert table.sh(f"systemctl is-failed {unit}")[1].strip() in ("inactive", "active"), unit
    FIGURES["boot_to_signage_ready_s"] = round(_wait_active(table, "tableside-signage", 600), 1)
    # A [sync] pit: the sync runs (its ExecCondition, `sync configured`, passes)
    FIGURES["boot_to_sync_ready_s"] = round(_wait_active(table, "tableside-sync", 600), 1)
    assert table.check("tableside --version").strip().endswith("0.1.0")
    # the credential moved off the boot partition, to the data partition, the kiosk user's
    assert "table.credential" not in boot
    assert table.check("stat -c '%U %a' /data/secrets/PB-01.credential").split() == [
        "kiosk", "600"]


def _ssh(*command: str, key: Path | None = None) -> subprocess.CompletedProcess[str]:
    host = HOSTED["host"]
    return subprocess.run(
        ["ssh", "-i", str(key or host.key), "-p", str(host.ssh_port), "-o", "BatchMode=yes",
         "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "ConnectTimeout=60",
         "technician@127.0.0.1", *command], capture_output=True, text=True, timeout=600)


def test_the_network_comes_up_and_the_clock_is_synchronised_against_the_hosts_server(
        table: Emulator) -> None:
    """DHCP (no static address in table.toml) from qemu's user network; the time server
    [network] ntp names, the host's loopback, answers timesyncd; the self-test says so."""
    assert HOST in table.check("ip -4 route show default")
    assert table.check("cat /etc/systemd/timesyncd.conf.d/10-tableside.conf").endswith(
        f"NTP={HOST}")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if table.check("timedatectl show -p NTPSynchronized --value").strip() == "yes":
            break
        time.sleep(3)
    FIGURES["boot_to_clock_synchronised_s"] = round(table.elapsed(), 1)
    assert table.check("timedatectl show -p NTPSynchronized --value").strip() == "yes"
    assert HOSTED["host"].ntp.answered > 0
    assert HOST in table.check("timedatectl show-timesync -p ServerAddress --value")


def test_the_tables_rows_reach_the_pit_on_the_host(table: Emulator) -> None:
    verify = table.check(_as_kiosk("tableside journal verify /data/journal/PB-01.db"))
    head = int(verify.split()[1])
    store = HOSTED["host"].state.store
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and store.head("PB-01")[0] < head:
        time.sleep(3)
    FIGURES["rows_at_the_pit"] = store.head("PB-01")[0]
    assert store.head("PB-01")[0] >= head > 0


def test_the_technician_gets_in_with_the_key_only_and_may_run_tableside_only(
        table: Emulator, tmp_path: Path) -> None:
    """SSH with the provisioned key works, another key is refused, no password is asked; the
    technician's sudo runs `tableside selftest` and systemctl on the tableside units, not
    `id` nor systemctl on another unit; the login is on record and reaches the pit."""
    _wait_active(table, "ssh", 300)
    assert _ssh("id", "-un").stdout.strip() == "technician"
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)],
                   check=True)
    refused = _ssh("id", key=other)
    assert refused.returncode == 255 and "Permission denied (publickey)" in refused.stderr
    selftest = _ssh("sudo", "-n", "tableside", "selftest", "--config", "/data/table.toml",
                    "--wait", "1")
    assert selftest.returncode in (0, 1), selftest.stderr  # ran: some checks may fail here
    assert re.search(r"^ok    clock +.*NTP synchronised", selftest.stdout, re.M), selftest.stdout
    assert re.search(r"^FAIL  update key +TRIAL UPDATE KEY", selftest.stdout, re.M)
    assert re.search(r"^ok    boot partition +build ", selftest.stdout, re.M)
    assert _ssh("sudo", "-n", "systemctl", "is-active", "tableside-dealer").stdout.strip() == (
        "active")
    for command in (("sudo", "-n", "id"), ("sudo", "-n", "systemctl", "restart", "ssh"),
                    ("sudo", "-n", "systemctl", "is-active", "tableside-dealer", "ssh"),
                    ("sudo", "-n", "cat", "/data/table.toml")):
        denied = _ssh(*command)
        assert denied.returncode != 0 and "password is required" in denied.stderr, command
    # what docs/technician.md says needs no sudo: a unit's status with its last log lines,
    # and the log itself (the technician is in systemd-journal)
    status = _ssh("systemctl", "status", "--no-pager", "-n", "5", "tableside-dealer")
    assert status.returncode == 0, status.stderr  # 0: active
    assert "tableside-dealer.service" in status.stdout and "Active: active" in status.stdout
    assert "insufficient permissions" not in status.stdout + status.stderr
    assert re.search(r"^\w{3} \d{2} \d{2}:\d{2}:\d{2} ", status.stdout, re.M), status.stdout
    log = _ssh("journalctl", "-b", "-u", "tableside-dealer", "-n", "5", "--no-pager")
    assert log.returncode == 0 and "insufficient permissions" not in log.stderr, log.stderr
    assert "-- No entries --" not in log.stdout and len(log.stdout.splitlines()) >= 2, log.stdout
    root = subprocess.run(["ssh", "-i", str(HOSTED["host"].key), "-p",
                           str(HOSTED["host"].ssh_port), "-o", "BatchMode=yes",
                           "-o", "StrictHostKeyChecking=no", "-o",
                           "UserKnownHostsFile=/dev/null", "root@127.0.0.1", "id"],
                          capture_output=True, text=True, timeout=300)
    assert root.returncode == 255 and "Permission denied" in root.stderr
    logins = table.check(_as_kiosk(
        "tableside journal export /data/journal/PB-01.db")).count('"technician_login"')
    assert logins >= 1
    store = HOSTED["host"].state.store

    def at_the_pit() -> list[str]:
        return [row.payload for row in store.rows("PB-01", 0, 100_000)
                if row.kind == "device_report" and "technician_login" in row.payload]

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not at_the_pit():
        time.sleep(3)
    assert at_the_pit() and "technician logged in over SSH from 10.0.2.2" in at_the_pit()[0]


def test_the_serial_console_shows_the_banner(table: Emulator) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and "Table: PB-01" not in table.serial():
        time.sleep(3)
    serial = table.serial()
    assert "Tableside 0.1.0, build " in serial and "Table: PB-01 (Punto Banco 1)" in serial
    assert "TRIAL UPDATE KEY" in serial and "login:" in serial
    issue = table.check("cat /run/tableside-banner/tableside.issue")
    assert re.search(r"^Address: 10\.0\.2\.\d+", issue, re.M), issue


def test_the_root_is_read_only_and_what_lasts_is_on_the_data_partition(table: Emulator) -> None:
    assert table.check("findmnt -n -o FSTYPE /").strip() == "overlay"
    ro = table.check("findmnt -n -o OPTIONS /media/root-ro").split(",")
    assert "ro" in ro
    assert table.check("findmnt -n -o SOURCE /var/log/journal").strip().endswith(
        "[/log/journal]")
    assert table.check("ls /data/log/journal").strip()  # the system log is kept on /data
    table.check("touch /etc/written-before-reset")  # goes to the tmpfs: gone after a reset


def test_the_dealer_app_draws_on_the_screen(table: Emulator) -> None:
    """A screendump through the QEMU monitor: the dealer screen's felt greens cover a good
    part of it (the text console never does)."""
    shots = OUT / "boot-test"
    deadline = time.monotonic() + 300
    frame = None
    while time.monotonic() < deadline:
        frame = table.screendump(shots / "dealer.ppm")
        if frame.share_near(FELT) > 0.2:
            break
        time.sleep(2)
    assert frame is not None
    FIGURES["first_dealer_frame_by_s"] = round(table.elapsed(), 1)
    FIGURES["frame"] = f"{frame.width}x{frame.height}"
    FIGURES["felt_share"] = round(frame.share_near(FELT), 3)
    if (ROOT / "artifacts").is_dir():
        shutil.copyfile(shots / "dealer.ppm", ROOT / "artifacts" / "emulator-dealer.ppm")
    log = table.sh("journalctl -b -u tableside-dealer --no-pager -n 40")[1]
    assert (frame.width, frame.height) == table.screens[0]
    assert frame.share_near([(0, 0, 0)], within=8) < 0.5, f"a black screen; its log:\n{log}"
    assert frame.share_near(FELT) > 0.2, f"no dealer screen drawn; its log:\n{log}"
    assert frame.colours() >= 8  # words and buttons on the felt, not a flat fill


def test_the_players_screen_draws_on_the_second_screen(table: Emulator) -> None:
    """The signage, its own process on the GPU's second output: not black, not a flat fill
    (the sign's words and panels)."""
    path = OUT / "boot-test" / "players.ppm"
    deadline = time.monotonic() + 300
    frame = table.screendump(path, SCREENS[1])
    while frame.share_near([(0, 0, 0)], within=8) > 0.5 and time.monotonic() < deadline:
        time.sleep(2)
        frame = table.screendump(path, SCREENS[1])
    FIGURES["players_frame"] = f"{frame.width}x{frame.height}"
    log = table.sh("journalctl -b -u tableside-signage --no-pager -n 40")[1]
    assert (frame.width, frame.height) == table.screens[1]
    assert frame.share_near([(0, 0, 0)], within=8) < 0.5, f"a black screen; its log:\n{log}"
    assert frame.colours() >= 8, f"a flat fill; its log:\n{log}"


def test_one_display_device_drives_both_screens(table: Emulator) -> None:
    """As on a Pi: one DRM device with both screens as its outputs, one display server
    driving it, and each app's window on its own output, where `tableside screens` put it
    (kiosk/screens.py)."""
    assert table.check("systemctl show -p ActiveState,SubState --value "
                       "tableside-display").split() == ["active", "running"]
    connectors = table.check("cd /sys/class/drm && for c in card*-*; do "
                             "echo $c $(cat $c/status); done").splitlines()
    connected = [line.split()[0] for line in connectors if line.endswith(" connected")]
    FIGURES["screens"] = " ".join(connected)
    assert connected == ["card0-Virtual-1", "card0-Virtual-2"], connectors
    assert table.check("cat /run/tableside-screens.env").split() == [
        "TABLESIDE_DEALER_SCREEN=Virtual-1", "TABLESIDE_DEALER_AT=0,0",
        "TABLESIDE_SIGN_SCREEN=Virtual-2", f"TABLESIDE_SIGN_AT={table.screens[0][0]},0"]
    xrandr = table.check("DISPLAY=:0 xrandr --query")
    assert re.search(r"^Virtual-1 connected (primary )?800x480\+0\+0 ", xrandr, re.M), xrandr
    assert re.search(r"^Virtual-2 connected 1920x1080\+800\+0 ", xrandr, re.M), xrandr


def test_the_screens_come_back_after_the_display_server_dies(table: Emulator) -> None:
    """Xorg killed (a crash, not a stop): systemd starts it again, the two apps, their
    windows gone with it, start again too, and both screens are drawn again."""
    def restarts(unit: str) -> int:
        return int(table.check(f"systemctl show -p NRestarts --value {unit}").strip())

    before = {u: restarts(u) for u in ("tableside-dealer", "tableside-signage")}
    started = table.elapsed()
    table.check("systemctl kill -s KILL tableside-display")
    _wait_active(table, "tableside-display", 300)
    for unit in before:
        _wait_active(table, unit, 600)
    shots = OUT / "boot-test"
    deadline = time.monotonic() + 300
    while True:
        dealer = table.screendump(shots / "dealer-after-x.ppm")
        players = table.screendump(shots / "players-after-x.ppm", SCREENS[1])
        drawn = dealer.share_near(FELT) > 0.2 and players.colours() >= 8
        if drawn or time.monotonic() > deadline:
            break
        time.sleep(2)
    FIGURES["screens_back_after_x_died_s"] = round(table.elapsed() - started, 1)
    assert dealer.share_near(FELT) > 0.2 and players.colours() >= 8
    assert all(restarts(u) > n for u, n in before.items()), before


def _hotplug(emu: Emulator, state: str) -> None:
    """The sign's cable out ("off") or in ("on"): the connector's state forced, then the
    display device's hotplug event, as a Pi's HDMI port raises it."""
    emu.check(f"echo {state} > /sys/class/drm/card0-Virtual-2/status && "
              "echo \"change $(cat /proc/sys/kernel/random/uuid) HOTPLUG=1\" "
              "> /sys/class/drm/card0/uevent")


def _replugged(emu: Emulator, runs: int, timeout: float = 180) -> str:
    """Waits until tableside-screens.service has finished `runs` times since boot; its log."""
    deadline = time.monotonic() + timeout
    while True:
        log = emu.sh("journalctl -b -u tableside-screens --no-pager -o cat")[1]
        done = log.count("Finished tableside-screens.service")
        idle = emu.check("systemctl show -p ActiveState --value tableside-screens").strip()
        if done >= runs and idle == "inactive":
            return log
        assert time.monotonic() < deadline, f"tableside-screens ran {done}x:\n{log}"
        time.sleep(2)


def test_a_sign_plugged_in_later_shows_and_an_unplugged_one_comes_back(table: Emulator
                                                                        ) -> None:
    """The table started with the sign's cable out; the sign is plugged in: it is set up and
    the signage starts on it. Then the cleaners pull the cable and put it back: nothing
    restarts and the sign shows again. The dealer app is never restarted."""
    def state(unit: str, prop: str) -> str:
        return table.check(f"systemctl show -p {prop} --value {unit}").strip()

    _wait_active(table, "tableside-signage", 300)
    dealer = state("tableside-dealer", "MainPID")
    # the device's events at boot (Xorg starting) changed no connector: no needless run
    booted = table.sh("journalctl -b -u tableside-screens --no-pager -o cat")[1]
    assert "Finished tableside-screens.service" not in booted, booted
    # started with the cable out: what the display service does at its start, without it
    _hotplug(table, "off")
    runs = _replugged(table, 1).count("Finished tableside-screens.service")
    table.check("DISPLAY=:0 /opt/tableside/bin/tableside screens --config /data/table.toml "
                "--env /run/tableside-screens.env && systemctl restart tableside-signage")
    assert "TABLESIDE_SIGN" not in table.check("cat /run/tableside-screens.env")
    assert state("tableside-signage", "ActiveState") == "inactive"  # skipped: no sign

    plugged = table.elapsed()
    _hotplug(table, "on")
    log = _replugged(table, runs + 1)
    assert ("the sign's screen is now Virtual-2 at 800,0: starting tableside-signage.service "
            "again") in log
    _wait_active(table, "tableside-signage", 300)
    path = OUT / "boot-test" / "players-plugged-in.ppm"
    deadline = time.monotonic() + 300
    while table.screendump(path, SCREENS[1]).colours() < 8:
        assert time.monotonic() < deadline, "the sign plugged in was not drawn"
        time.sleep(2)
    FIGURES["sign_plugged_in_to_drawn_s"] = round(table.elapsed() - plugged, 1)

    signage = state("tableside-signage", "MainPID")
    env = table.check("cat /run/tableside-screens.env")
    _hotplug(table, "off")  # the cleaners
    log = _replugged(table, runs + 2)
    assert "the players' screen Virtual-2 is unplugged" in log
    assert table.check("cat /run/tableside-screens.env") == env
    _hotplug(table, "on")
    _replugged(table, runs + 3)
    xrandr = table.check("DISPLAY=:0 xrandr --current")
    assert re.search(r"^Virtual-2 connected 1920x1080\+800\+0 ", xrandr, re.M), xrandr
    assert table.screendump(path, SCREENS[1]).colours() >= 8
    assert state("tableside-signage", "MainPID") == signage  # not restarted
    assert state("tableside-dealer", "MainPID") == dealer


WRITER = """
import sys, time
from kiosk.store.journal import Journal
with Journal.open("/data/journal/reset-test.db", "RESET-TEST") as j:
    n = 0
    while True:
        n += 1
        j.append("note", {"n": n, "text": "written before the reset"})
        time.sleep(0.02)
"""


COUNT = """
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
print(db.execute("SELECT count(*) FROM journal").fetchone()[0])
"""


def _in_venv(args: str) -> str:
    """`python ARGS` with the venv of the version in use (an update's or the image's)."""
    return ("sh -c '. /opt/tableside/bin/tableside-release.sh; "
            f"exec \"$(release_in_use)/venv/bin/python\" {args}'")


def test_a_journal_written_when_the_power_goes_is_intact_after_it(table: Emulator) -> None:
    """`system_reset` while a journal is being written: every row committed before it is
    there after the reboot, the chain is whole, and the table comes back as it was (the
    root's changes gone, the data partition's kept)."""
    table.check(f"cat > /tmp/writer.py <<'EOF'\n{WRITER}\nEOF\nchmod 0644 /tmp/writer.py")
    # A unit of its own: a background job of the agent's shell does not outlive it.
    table.check("systemd-run --unit=reset-writer --uid=kiosk --gid=kiosk "
                + _in_venv("/tmp/writer.py"))
    table.check(f"cat > /tmp/count.py <<'EOF'\n{COUNT}\nEOF\nchmod 0644 /tmp/count.py")
    count = ("test -e /data/journal/reset-test.db || { echo 0; exit 0; }; "
             + _as_kiosk(_in_venv("/tmp/count.py /data/journal/reset-test.db")))
    deadline = time.monotonic() + 300  # Python starts slowly under emulation
    while time.monotonic() < deadline:
        said = table.sh(count)[1].strip()
        if said.isdigit() and int(said) >= 20:
            break
        time.sleep(2)
    head = table.check(_as_kiosk("tableside journal verify /data/journal/reset-test.db"))
    committed = int(head.split()[1])
    assert committed >= 20, head
    boot_before = table.check("cat /proc/sys/kernel/random/boot_id").strip()
    assert "running" in table.monitor("info status")
    table.monitor("system_reset")
    reset_at = table.elapsed()
    boot_after, _ = table.wait_agent(BOOT_WAIT)
    assert boot_after != boot_before
    FIGURES["reset_to_agent_s"] = round(table.elapsed() - reset_at, 1)
    FIGURES["reset_to_dealer_ready_s"] = round(
        _wait_active(table, "tableside-dealer", 600) - reset_at, 1)
    verify = table.check(_as_kiosk("tableside journal verify /data/journal/reset-test.db"))
    assert verify.startswith("OK: ") and int(verify.split()[1]) >= committed, verify
    FIGURES["rows_committed_before_reset"] = committed
    FIGURES["rows_found_after_reset"] = int(verify.split()[1])
    dealer = table.check(_as_kiosk("tableside journal verify /data/journal/PB-01.db"))
    assert dealer.startswith("OK: "), dealer
    assert table.sh("test -e /etc/written-before-reset")[0] == 1  # the tmpfs is gone
    assert table.check("hostname").strip() == "tableside-pb-01"  # the data partition's
    rows = table.check(_as_kiosk("tableside journal export /data/journal/reset-test.db"))
    numbers = [json.loads(r)["payload"]["n"] for r in rows.splitlines()]
    assert numbers[:committed] == list(range(1, committed + 1))  # each row, in order


def _wheel_at(version: str, work: Path, broken: bool = False) -> Path:
    """Tableside's wheel at `version` from this checkout (a copy: pyproject's version
    changed; `broken`: `tableside run` fails as a dealer app that does not start)."""
    src = work / f"src-{version}"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("kiosk", "hardware", "pit", "assets"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pyproject = (src / "pyproject.toml").read_text()
    (src / "pyproject.toml").write_text(pyproject.replace('version = "0.1.0"',
                                                         f'version = "{version}"'))
    if broken:
        cli = src / "kiosk" / "cli.py"
        text = cli.read_text()
        cli.write_text(text.replace("\n_attach_optional()\n", "\n_attach_optional()\n\n\n"
                                    "def _cannot_start(**_: object) -> None:\n"
                                    "    raise SystemExit('tableside: this build cannot start"
                                    " (the emulator test)')\n\n\n"
                                    "main.commands['run'].callback = _cannot_start\n"))
    out = work / f"wheels-{version}"
    subprocess.run([str(OUT / "buildenv" / "bin" / "pip"), "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(out), str(src)], check=True,
                   timeout=600)
    return next(out.glob(f"tableside-{version}-*.whl"))


def _emulator_bundle(table: Emulator, version: str, broken: bool = False) -> str:
    """A bundle signed with the build's own key, for the emulator's board; put where the
    emulator sees it (9p, read-only). Its path in the emulator."""
    work = OUT / "boot-test" / "bundles"
    work.mkdir(parents=True, exist_ok=True)
    own = _wheel_at(version, work, broken)
    deps = [w for w in (OUT / "wheels").glob("*.whl") if not w.name.startswith("tableside-")]
    units = sorted((ROOT / "image-build" / "system").glob("tableside-*.service"))
    units = [u for u in units if u.name != "tableside-units.service"]
    name = f"tableside-{version}{'-broken' if broken else ''}.bundle"
    make_bundle(table.share / name, version, [own, *deps], units,
                load_key(OUT / "update-signing.pem"),
                Target(models=("Raspberry Pi 4", BOARD)), "the emulator test")
    return f"/mnt/share/{name}"


def _on_board(table: Emulator, command: str) -> str:
    """`command` where the device tree names a board. A Pi's device tree has a model
    ('Raspberry Pi 4 Model B ...'), which an update's target is checked against; QEMU's virt
    machine may give none. Then, in the emulator only, the command runs in a mount namespace
    of its own where the device tree's folder is a tmpfs whose model says BOARD."""
    if table.sh("test -s /proc/device-tree/model")[0] == 0:
        return command
    return ("unshare -m sh -c 'mount -t tmpfs emulator /sys/firmware/devicetree/base && "
            f"printf \"%s\\0\" {BOARD} > /sys/firmware/devicetree/base/model && {command}'")


def test_an_update_is_applied_and_a_broken_one_is_rolled_back(table: Emulator) -> None:
    if not (OUT / "update-signing.pem").exists():
        pytest.skip("the image was built with --update-key: no private key here to sign with")
    good = _emulator_bundle(table, "0.1.1")
    broken = _emulator_bundle(table, "0.1.2", broken=True)
    table.check("mkdir -p /mnt/share && mountpoint -q /mnt/share || "
                "mount -t 9p -o trans=virtio,version=9p2000.L,ro hostshare /mnt/share")
    started = time.monotonic()
    rc, said = table.sh(_on_board(table, f"tableside update apply {good} --wait 600 "
                                         "--settle 20"), timeout=1500)
    FIGURES["update_apply_s"] = round(time.monotonic() - started, 1)
    assert rc == 0 and "Applied: 0.1.1" in said, said
    assert table.check("tableside --version").strip().endswith("0.1.1")
    assert table.check("readlink /data/tableside/current").strip() == "releases/0.1.1"
    started = time.monotonic()
    rc, said = table.sh(_on_board(table, f"tableside update apply {broken} --wait 120 "
                                         "--settle 20"), timeout=1500)
    FIGURES["update_rollback_s"] = round(time.monotonic() - started, 1)
    assert rc == 1 and "rolled back: 0.1.2: the dealer app did not report ready" in said, said
    assert "0.1.1 runs again" in said
    assert table.check("tableside --version").strip().endswith("0.1.1")
    _wait_active(table, "tableside-dealer", 300)
    rows = table.check(_as_kiosk("tableside journal export /data/journal/PB-01.db"))
    updates = [json.loads(r)["payload"] for r in rows.splitlines()
               if json.loads(r)["kind"] == "software_update"]
    assert [(u["version"], u["outcome"]) for u in updates] == [("0.1.1", "applied"),
                                                                ("0.1.2", "rolled back")]
    refused = table.sh(_on_board(table, f"tableside update apply {good}"))
    assert refused[0] == 2 and "version 0.1.1 is not newer than 0.1.1" in refused[1]
