"""The technician's self-test (kiosk/selftest.py): each check finds what is there, says it in
words, and goes on record in the journal."""

from __future__ import annotations

import os
import re
import threading
import time
import tty
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from hardware.gpio.panel import TablePanel
from hardware.simulators.shoe import ShoeSimulator
from kiosk.cli import main
from kiosk.config import example, parse
from kiosk.selftest import (
    ImageFiles,
    banner,
    check_clock,
    check_devices,
    check_image,
    check_modes,
    check_people,
    ntp_synchronised,
    private_files,
    run_selftest,
    technician_login,
)
from kiosk.store.journal import Journal
from kiosk.table.roles import hash_pin

NOW = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)


PEOPLE = ("\n[people.4471]\nname = \"Thandi\"\nrole = \"dealer\"\npin = \"{pin}\"\n"
          "\n[people.9001]\nname = \"Naidoo\"\nrole = \"inspector\"\npin = \"{pin}\"\n"
          "\n[people.7007]\nname = \"Sipho\"\nrole = \"technician\"\npin = \"{pin}\"\n")


def _config(tmp_path: Path, port: str = "simulated", shuffler: str = "",
            people: str | None = None) -> object:
    """The example table; with its people (a dealer, an inspector, a technician) unless
    `people` says otherwise ("": none)."""
    text = example().replace('journal = "data/PB-01.db"', f'journal = "{tmp_path / "j.db"}"')
    text = text.replace('port = "simulated"', f'port = "{port}"')
    if shuffler:
        text += f'\n[devices.shuffler]\nport = "{shuffler}"\n'
    text += PEOPLE.format(pin=hash_pin("1234", b"s" * 16)) if people is None else people
    return parse(text, tmp_path / "table.toml")


def test_the_people_list_in_force_is_checked(tmp_path: Path) -> None:
    """A table with no people list checks no PIN: its overrides are approved by nobody, and
    the self-test says so; a list with no technician cannot approve the device set-up."""
    full = check_people(_config(tmp_path))  # type: ignore[arg-type]
    assert (full.ok, full.detail) == (
        True, "3 people: 1 dealer(s), 1 inspector(s), 1 technician(s)")
    none = check_people(_config(tmp_path, people=""))  # type: ignore[arg-type]
    assert not none.ok and none.detail.startswith("no people list ([people] in table.toml, "
                                                  "or the pit's): no PIN is checked")
    pin = hash_pin("1234", b"s" * 16)
    short = check_people(_config(tmp_path, people=PEOPLE.format(pin=pin).split(  # type: ignore[arg-type]
        "\n[people.7007]")[0]))
    assert not short.ok and short.detail == (
        "2 people: 1 dealer(s), 1 inspector(s), 0 technician(s); no technician: what only "
        "they may approve cannot be done")


def test_a_shoe_that_answers_one_that_is_silent_and_one_not_there(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    quiet_master, quiet_slave = os.openpty()
    sim = ShoeSimulator(decks=8, seed=1)

    def power_on() -> None:  # the shoe answers the kiosk's HELLO? with its HELLO
        time.sleep(0.3)
        os.write(master, sim.opening())

    threading.Thread(target=power_on, daemon=True).start()
    try:
        cfg = _config(tmp_path, os.ttyname(slave), shuffler=os.ttyname(quiet_slave))
        shoe, shuffler = check_devices(cfg, wait=1.5)  # type: ignore[arg-type]
        missing = _config(tmp_path, "/dev/tableside-shoe")
        gone = check_devices(missing, wait=0.5)[0]  # type: ignore[arg-type]
    finally:
        for fd in (master, slave, quiet_master, quiet_slave):
            os.close(fd)
    assert shoe.ok and re.search(r"port opened, answered with [12] message\(s\)$", shoe.detail)
    assert not shuffler.ok and "nothing heard in 1.5 s" in shuffler.detail
    assert not gone.ok and "no such device /dev/tableside-shoe" in gone.detail


def test_the_panel_lamps_display_and_buttons(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # as scripts/test has it
    cfg = _config(tmp_path)

    def press_both(panel: TablePanel) -> None:
        def press() -> None:
            for gpio in (cfg.gpio.button_no_more_bets,  # type: ignore[attr-defined]
                         cfg.gpio.button_call_inspector):  # type: ignore[attr-defined]
                time.sleep(0.2)
                panel.factory.pin(gpio).drive_low()
                time.sleep(0.1)
                panel.factory.pin(gpio).drive_high()

        threading.Thread(target=press, daemon=True).start()

    results = run_selftest(cfg, wait=0.2, press=3.0, factory="mock",  # type: ignore[arg-type]
                           now=NOW, ntp=lambda: "yes", opened=press_both)
    by = {r.check: r for r in results}
    assert by["tower lamp"].ok
    assert by["tower lamp"].detail == "green, red and amber each lit in turn"
    assert by["minimum display"].ok
    assert by["button no more bets"].ok and by["button call inspector"].ok
    assert by["device shoe"].detail == "shoe (simulated): simulated, nothing to check"
    assert by["clock"].ok and by["file modes"].ok and by["free disk"].ok
    with Journal.open(tmp_path / "j.db", "PB-01") as j:  # on record, one row a check
        rows = [(e.kind, e.payload["check"], e.payload["ok"]) for e in j.entries()]
    assert rows == [("selftest", r.check, r.ok) for r in results]


def test_the_clock_reads_timesyncds_flag_before_asking_timedatectl(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy table timedatectl (D-Bus, starting systemd-timedated) outlasted the old 5 s
    limit and a synchronised clock failed the self-test: timesyncd's flag answers first."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "timedatectl"
    stub.write_text("#!/bin/sh\necho no\n")
    stub.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    flag = tmp_path / "synchronized"
    assert ntp_synchronised(flag) == "no"  # no flag: timedatectl's answer
    flag.touch()
    assert ntp_synchronised(flag) == "yes"


def test_the_clock_and_the_file_modes(tmp_path: Path) -> None:
    assert not check_clock(datetime(1970, 1, 1, tzinfo=UTC), lambda: None).ok
    drifting = check_clock(NOW, lambda: "no", rtc=tmp_path / "rtc0")
    assert not drifting.ok and drifting.detail == (
        "2026-11-24 22:00 UTC, not synchronised with a time server and no real-time clock; "
        "check the network and [network] ntp in table.toml (timedatectl timesync-status)")
    (tmp_path / "rtc0").touch()  # a real-time clock alone drifts: every row carries the time
    rtc = check_clock(NOW, lambda: "no", rtc=tmp_path / "rtc0")
    assert not rtc.ok and "only a real-time clock: it drifts" in rtc.detail
    synced = check_clock(NOW, lambda: "yes", rtc=tmp_path / "rtc0")
    assert synced.ok and synced.detail == "2026-11-24 22:00 UTC, NTP synchronised"
    loose = tmp_path / "table.toml"
    loose.write_text("x")
    loose.chmod(0o644)
    found = check_modes([loose])
    assert not found.ok and found.detail == f"readable by others: {loose} (644)"


def test_the_credential_and_the_sync_files_are_checked_too(tmp_path: Path) -> None:
    """The credentials on the data partition are the kiosk user's, mode 0600."""
    credential = tmp_path / "table.credential"
    text = example().replace('journal = "data/PB-01.db"', f'journal = "{tmp_path / "j.db"}"')
    cfg = parse(text + f'\n[sync]\npit = "http://pit:8600"\ncredential_file = '
                       f'"{credential}"\n', tmp_path / "table.toml")
    assert private_files(cfg) == [tmp_path / "j.db", tmp_path / "j.db-wal",
                                  tmp_path / "j.db-shm", tmp_path / "j.sync.json",
                                  tmp_path / "j.pit-config.json", tmp_path / "table.toml",
                                  credential]
    for p in (tmp_path / "table.toml", tmp_path / "j.sync.json", credential):
        p.write_text("x")
        p.chmod(0o600)
    assert check_modes(private_files(cfg)).ok
    credential.chmod(0o640)
    found = check_modes(private_files(cfg))
    assert not found.ok and found.detail == f"readable by others: {credential} (640)"
    credential.chmod(0o600)
    os.chown(tmp_path / "j.sync.json", 4321, -1)  # left by another user (root here)
    found = check_modes(private_files(cfg))
    owner = tmp_path.stat().st_uid
    assert not found.ok and found.detail == (f"not the journal folder's owner's (user "
                                             f"{owner}): {tmp_path / 'j.sync.json'} (user "
                                             f"4321)")


def test_the_command_prints_each_check_and_fails_on_one(tmp_path: Path) -> None:
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                        .replace('port = "simulated"', 'port = "/dev/tableside-shoe"'))
    cfg_file.chmod(0o600)
    out = CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.3"],
                             env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert out.exit_code == 1
    assert "FAIL  device shoe" in out.output and "no such device /dev/tableside-shoe" in (
        out.output)
    assert "ok    tower lamp" in out.output


# --- the SD image's parts: the boot partition, the update key, the banner, the logins -------

def _image(tmp_path: Path, keys: str = "ab" * 32 + "\n") -> ImageFiles:
    """A boot partition and /etc/tableside as image-build/build writes them."""
    import hashlib

    boot, etc = tmp_path / "boot", tmp_path / "etc-tableside"
    (boot / "overlays").mkdir(parents=True)
    etc.mkdir()
    (boot / "config.txt").write_text("arm_64bit=1\n")
    (boot / "overlays" / "vc4-kms-v3d.dtbo").write_bytes(b"\xd0\x0d\xfe\xed")
    sums = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  ./{p.relative_to(boot)}"
            for p in sorted(boot.rglob("*")) if p.is_file()]
    (boot / "tableside-sums.sha256").write_text("\n".join(sums) + "\n")
    (boot / "tableside-build.txt").write_text("build 20261128T0930Z-3612990\nflavour pi4\n")
    (etc / "flavour").write_text("pi4\n")
    (etc / "update-keys").write_text(keys)
    return ImageFiles(boot, etc)


def test_the_boot_partition_is_the_build_it_says_and_the_key_is_the_casinos(
        tmp_path: Path) -> None:
    files = _image(tmp_path)
    boot, key = check_image(files)
    assert (boot.check, boot.ok, boot.detail) == (
        "boot partition", True, "build 20261128T0930Z-3612990: 2 files match their checksums")
    assert (key.check, key.ok) == ("update key", True)
    (files.boot / "table.toml.applied").write_text("x")  # provisioning's: not the build's
    assert check_image(files)[0].ok
    (files.boot / "config.txt").write_text("arm_64bit=1\ndtoverlay=other\n")
    (files.boot / "overlays" / "vc4-kms-v3d.dtbo").unlink()
    boot = check_image(files)[0]
    assert not boot.ok and boot.detail == ("build 20261128T0930Z-3612990; changed: "
                                           "./config.txt; missing: ./overlays/vc4-kms-v3d.dtbo")
    assert check_image(ImageFiles(tmp_path / "nowhere", tmp_path / "nothing")) == []


def test_a_trial_key_fails_the_selftest_and_shows_on_the_banner(tmp_path: Path) -> None:
    files = _image(tmp_path, "# TRIAL UPDATE KEY: made by image-build/build --trial\n"
                             + "cd" * 32 + "\n")
    key = check_image(files)[1]
    assert not key.ok and key.detail.startswith("TRIAL UPDATE KEY: this image trusts a key")
    cfg = _config(tmp_path)
    text = banner(cfg, "0.1.0", files=files, address=["10.0.2.15"],  # type: ignore[arg-type]
                  hostname="tableside-pb-01")
    assert text.splitlines() == [
        "Tableside 0.1.0, build 20261128T0930Z-3612990",
        "Table: PB-01 (Punto Banco 1)",
        "Address: 10.0.2.15 (tableside-pb-01)",
        "Self-test: not run yet (sudo tableside selftest --config /data/table.toml)",
        "TRIAL UPDATE KEY: updates signed by a throwaway key are trusted"]


def test_the_banner_gives_the_last_selftests_result(tmp_path: Path) -> None:
    files = _image(tmp_path)
    cfg = _config(tmp_path)
    run_selftest(cfg, wait=0.2, factory="mock", now=NOW, ntp=lambda: "no",  # type: ignore[arg-type]
                 image=files)
    text = banner(cfg, "0.1.0", files=files, address=[])  # type: ignore[arg-type]
    assert text.splitlines()[2:] == ["Address: none (no network)",
                                     "Self-test: 9 passed, 1 failed (clock)"]
    technician_login(cfg, "technician", "10.0.2.2")  # type: ignore[arg-type]
    run_selftest(cfg, wait=0.2, factory="mock", now=NOW, ntp=lambda: "yes",  # type: ignore[arg-type]
                 image=files)  # the last run counts
    assert banner(cfg, "0.1.0", files=files, address=[]).splitlines()[3] == (  # type: ignore[arg-type]
        "Self-test: 10 passed, 0 failed")
    none = banner(None, "0.1.0", why_not="no table.toml", files=files, address=["10.1.1.1"])
    assert none.splitlines()[1] == "Table: not set up (no table.toml)"


def test_a_technicians_login_is_on_record_as_a_device_report(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    technician_login(cfg, "technician", "10.0.2.2")  # type: ignore[arg-type]
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"'))
    out = CliRunner().invoke(main, ["technician-login", "--config", str(cfg_file), "--user",
                                    "technician", "--from", "192.168.7.9"])
    assert out.exit_code == 0, out.output
    with Journal.open(tmp_path / "j.db", "PB-01") as j:
        rows = [(e.kind, e.payload) for e in j.entries()]
    assert rows == [("device_report", {"device": "SSH", "event": "technician_login",
                                       "detail": "technician logged in over SSH from 10.0.2.2"}),
                    ("device_report", {"device": "SSH", "event": "technician_login",
                                       "detail": "technician logged in over SSH from "
                                                 "192.168.7.9"})]


def test_the_banner_command_writes_agettys_file_and_says_why_it_cannot(tmp_path: Path) -> None:
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                        .replace('name = "Punto Banco 1"', 'name = "Salon \\\\\\\\ 1"'))
    issue = tmp_path / "tableside.issue"
    out = CliRunner().invoke(main, ["banner", "--config", str(cfg_file), "--out", str(issue)])
    assert out.exit_code == 0, out.output
    lines = issue.read_text().splitlines()
    assert lines[0].startswith("Tableside ") and lines[1] == "Table: PB-01 (Salon \\\\\\\\ 1)"
    assert lines[3].startswith("Self-test: not run yet")
    bad = CliRunner().invoke(main, ["banner", "--config", str(cfg_file), "--out",
                                    str(tmp_path / "nowhere" / "tableside.issue")])
    assert bad.exit_code == 1 and bad.output.endswith(
        "tableside.issue: No such file or directory\n")
    assert len(bad.output.splitlines()) == 1


def test_the_dealer_app_starts_on_a_journal_a_selftest_wrote_to(tmp_path: Path) -> None:
    """A technician runs `tableside selftest`, then the dealer app starts again (a restart,
    a display server that died): it replays the self-test's rows like any table record.
    Seen in the emulator: the self-test's record was known only to a process that had
    imported the self-test, and the dealer app refused the journal for good ("Row 6 of the
    journal (selftest) cannot be replayed")."""
    import subprocess
    import sys

    from tests.processes import ROOT, env

    journal = tmp_path / "j.db"
    toml = tmp_path / "table.toml"
    toml.write_text(example().replace('journal = "data/PB-01.db"', f'journal = "{journal}"'))
    toml.chmod(0o600)
    run = [sys.executable, "-m", "kiosk.cli"]
    subprocess.run([*run, "selftest", "--config", str(toml), "--wait", "0.3"], cwd=ROOT,
                   env=env(tmp_path), capture_output=True, text=True, timeout=120)
    with Journal.open(journal, "PB-01", read_only=True) as j:
        assert "selftest" in {e.kind for e in j.entries()}
    dealer = subprocess.run([*run, "run", "--config", str(toml), "--console"], input="quit\n",
                            cwd=ROOT, env=env(tmp_path), capture_output=True, text=True,
                            timeout=120)
    assert "cannot be replayed" not in dealer.stdout + dealer.stderr
    assert dealer.returncode == 0, dealer.stderr[-2000:]


def test_a_process_that_folds_a_journal_knows_every_record_kind() -> None:
    """Records are known by the class that defines them, once its module is imported. A
    process that folds a journal (the dealer app, the sign, the sync) imports the table's
    session and no more: every kind that any module of kiosk/, hardware/ or pit/ defines
    must be known to it, or a row of that kind stops the table at its next start."""
    import json
    import subprocess
    import sys

    from tests.processes import ROOT

    every_module = (
        "import importlib, pkgutil, kiosk, hardware, pit\n"
        "for pkg in (kiosk, hardware, pit):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        if not m.name.startswith('kiosk.ui') and not m.name.endswith('__main__'):\n"
        "            importlib.import_module(m.name)\n")
    kinds = ("import json\nfrom kiosk.rules.operations import operation_kinds\n"
             "print(json.dumps(sorted(operation_kinds())))")

    def known(prelude: str) -> set[str]:
        out = subprocess.run([sys.executable, "-c", prelude + kinds], cwd=ROOT,
                             capture_output=True, text=True, timeout=120, check=True)
        return set(json.loads(out.stdout))

    defined = known(every_module)
    folding = known("import kiosk.table.session\n")
    assert "selftest" in defined and "software_update" in defined
    assert defined - folding == set()
