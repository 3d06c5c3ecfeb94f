"""The SD image's system files, checked on this machine on every run (the image itself is
built and booted by image-build/; see docs/technician.md): the services verify with
systemd's own checker, each long-running one has its watchdog, the hardware watchdog is at
most 15 s, and the udev rules give the devices the names the configuration uses."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "image-build" / "system"
UNITS = sorted(SYSTEM.glob("*.service"))
RULES = ROOT / "image-build" / "udev" / "99-tableside.rules"
BIN = "/opt/tableside/bin/"  # the launcher and tableside-units (image-build/system/bin)
TABLESIDE = BIN + "tableside"
ONESHOTS = ("tableside-hostname.service", "tableside-provision.service",
            "tableside-screens.service", "tableside-units.service")
DISPLAY = "tableside-display.service"
XORG = "/usr/lib/xorg/Xorg"


def _settings(unit: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    section = ""
    for line in unit.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key}", []).append(value)
    return out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_units_pass_systemds_own_check(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    for name in ("tableside", "tableside-units", "Xorg"):
        program = tmp_path / "bin" / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(0o755)
    copies = []
    for unit in UNITS:  # the programs the image installs, stood in for here
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text().replace(BIN, f"{tmp_path}/bin/")
                        .replace(XORG, f"{tmp_path}/bin/Xorg"))
        copies.append(str(copy))
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no", *copies],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == "", proc.stderr


def test_each_long_running_service_has_its_watchdog_and_restarts() -> None:
    names = [u.name for u in UNITS]
    assert names == ["tableside-dealer.service", DISPLAY, "tableside-hostname.service",
                     "tableside-provision.service", "tableside-screens.service",
                     "tableside-signage.service", "tableside-sync.service",
                     "tableside-units.service"]
    for unit in UNITS:
        s = _settings(unit)
        if unit.name in ONESHOTS:
            assert s["Service.Type"] == ["oneshot"]
            continue
        if unit.name == DISPLAY:  # Xorg: root's, no watchdog protocol; restarted all the same
            assert s["Service.Restart"] == ["always"]
            continue
        # every service runs the version in use through the launcher (kiosk/update/)
        assert s["Service.ExecStart"][0].startswith(TABLESIDE + " ")
        assert s["Service.Type"] == ["notify"] and s["Service.Restart"] == ["always"]
        seconds = int(s["Service.WatchdogSec"][0].removesuffix("s"))
        assert 2 < seconds <= 15  # the apps notify every 2 s (kiosk/watchdog.py)
        assert s["Service.User"] == ["kiosk"] and s["Service.UMask"] == ["0077"]
        if unit.name != "tableside-sync.service":  # the screens: windows on the one display
            # server, placed where `tableside screens` wrote (kiosk/screens.py)
            assert "DISPLAY=:0 SDL_VIDEODRIVER=x11" in " ".join(s["Service.Environment"])
            assert s["Service.EnvironmentFile"] == ["-/run/tableside-screens.env"]
            assert DISPLAY in s["Unit.After"][0].split() and DISPLAY in s["Unit.Wants"][0]
        assert "/data/table.toml" in s["Service.ExecStart"][0]
    # The dealer app leaves the sync to its own service, which the network cannot freeze.
    # ... and the players' signage too: one signage process on the second display, not two.
    # A table not set up (no table.toml yet, or a wrong one) says why on the dealer's screen
    # instead of starting again every 2 s with a black screen (kiosk/ui/setup_screen.py).
    assert _settings(SYSTEM / "tableside-dealer.service")["Service.ExecStart"][0].endswith(
        "--no-sync --no-signage --setup-screen")
    # No second screen (or [display] signage = false): no TABLESIDE_SIGN_AT, and the sign's
    # service is skipped, not failed ($$: the shell's variable, not systemd's).
    assert _settings(SYSTEM / "tableside-signage.service")["Service.ExecCondition"] == [
        "/bin/sh -c 'test -n \"$$TABLESIDE_SIGN_AT\"'"]
    sync = _settings(SYSTEM / "tableside-sync.service")
    assert sync["Service.ExecStart"][0].endswith("sync run --config /data/table.toml")
    # No pit named: the unit is skipped, not failed (`sync configured` exits 1), and if
    # started all the same `sync run` exits 3, which stops the restarts.
    assert sync["Service.ExecCondition"] == [
        TABLESIDE + " sync configured --config /data/table.toml"]
    assert sync["Service.RestartPreventExitStatus"] == ["3"]


def test_one_display_server_drives_both_screens_and_lays_them_out() -> None:
    """A Pi's screens are outputs of one KMS device, which one process drives: Xorg, started
    as root, no TCP, no cursor, never blanking; once it answers `tableside screens` picks and
    places the outputs and writes where each app's window goes (kiosk/screens.py)."""
    s = _settings(SYSTEM / DISPLAY)
    xorg = s["Service.ExecStart"][0].split()
    assert xorg[:3] == [XORG, ":0", "vt7"]
    assert {"-nolisten", "tcp", "-nocursor", "-novtswitch", "-dpms"} <= set(xorg)
    snapshot = ("/bin/sh -c 'cat /sys/class/drm/card*-*/status > /run/tableside-screens.plugged "
                "2>/dev/null || :'")
    assert s["Service.ExecStartPost"] == [
        snapshot,
        TABLESIDE + " screens --config /data/table.toml --env /run/tableside-screens.env "
        "--wait 120"]
    assert s["Service.Environment"] == ["DISPLAY=:0"] and "Service.User" not in s
    conf = (SYSTEM / "xorg.conf.d" / "10-tableside.conf").read_text()
    for option in ('"AutoAddDevices" "false"', '"BlankTime" "0"', '"DontVTSwitch" "true"',
                   '"PrimaryGPU" "true"', 'MatchDriver "vc4"'):
        assert option in conf, option
    replug = _settings(SYSTEM / "tableside-screens.service")
    assert replug["Service.ExecStart"] == [
        TABLESIDE + " screens --config /data/table.toml --env /run/tableside-screens.env "
        "--replug --wait 10"]
    assert replug["Unit.Requisite"] == [DISPLAY] and replug["Unit.After"] == [DISPLAY]
    # only when which connectors are plugged in changed since the screens were laid out
    # (the device's event also comes when nothing was plugged: Xorg starting at boot)
    assert replug["Service.ExecStartPre"] == [snapshot]
    assert replug["Service.ExecCondition"] == [
        "/bin/sh -c 'sleep 1; [ \"$$(cat /sys/class/drm/card*-*/status 2>/dev/null)\" != "
        "\"$$(cat /run/tableside-screens.plugged 2>/dev/null)\" ]'"]
    assert replug["Service.Environment"] == ["DISPLAY=:0"] and "Install.WantedBy" not in replug
    build = (ROOT / "image-build" / "build").read_text()
    assert "install -m 0644 /tmp/system/xorg.conf.d/*.conf /etc/X11/xorg.conf.d/" in build
    assert re.search(r"systemctl enable [^\n]*tableside-display\.service", build)


def test_the_hardware_watchdog_is_at_most_15_seconds() -> None:
    text = (SYSTEM / "system.conf.d" / "tableside-watchdog.conf").read_text()
    found = re.search(r"^RuntimeWatchdogSec=(\d+)s$", text, re.M)
    assert found is not None and int(found.group(1)) <= 15


RULE_PART = re.compile(r'^(ACTION|SUBSYSTEM|KERNEL|ENV\{[A-Z_]+\}|ATTRS\{[a-zA-Z]+\}|SYMLINK|'
                       r'GROUP|MODE|RUN)(==|\+=|=)"[^"]*"$')


def test_the_udev_rules_are_well_formed_and_name_the_devices() -> None:
    links = []
    for n, line in enumerate(RULES.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(",")]
        bad = [p for p in parts if not RULE_PART.match(p)]
        assert bad == [], f"line {n}: {bad}"
        assert any(p.startswith("SUBSYSTEM==") for p in parts), f"line {n}: no SUBSYSTEM"
        links += re.findall(r'SYMLINK\+="([^"]+)"', line)
        if "SYMLINK" in line:
            assert 'GROUP="dialout"' in line and 'MODE="0660"' in line
    assert links == ["tableside-shoe", "tableside-shuffler", "tableside-wheel"]
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio"' in RULES.read_text()
    # a screen plugged in or out: the screens set up again, each keeping its role
    assert ('ACTION=="change", SUBSYSTEM=="drm", KERNEL=="card[0-9]*", RUN+="/bin/systemctl '
            '--no-block restart tableside-screens.service"') in RULES.read_text()


def test_the_build_recipe_parses_and_keeps_the_known_pitfalls_away() -> None:
    """What was seen to go wrong when this recipe was tried (issue: the SD image): a config
    prompt stopping dpkg, the firmware's CMA setting, initramfs built for every package, and
    lgpio's placeholder wheel on PyPI."""
    build = ROOT / "image-build" / "build"
    assert subprocess.run(["bash", "-n", str(build)], capture_output=True).returncode == 0
    text = build.read_text()
    assert "--dpkgopt=force-confold" in text
    assert 'echo "CMA=0" > "$1/etc/default/raspi-firmware"' in text
    assert "update_initramfs=no" in text and "update-initramfs -c" not in text
    assert "initrd.img-* | wc -l)\" = 1" in text  # the build stops if there are two
    wheels = (ROOT / "image-build" / "wheels").read_text()
    assert "manylinux_2_34_aarch64" in wheels and "  lgpio  #" in wheels
    pins = (ROOT / "image-build" / "constraints.txt").read_text().splitlines()
    assert "lgpio==0.2.2.0" in pins and '-c "$top/image-build/constraints.txt"' in wheels
    assert '"$here/wheels"' in text
    for script in ("build", "test", "wheels", "bundle"):
        assert os.access(ROOT / "image-build" / script, os.X_OK), script


def test_the_scripts_parse_and_every_unit_starts_after_the_units_of_the_version_in_use(
        ) -> None:
    """tableside-units puts the units of the version in use in place (an update's, or none)
    and undoes an update left on trial: it must run before any Tableside service."""
    for script in ("bin/tableside", "bin/tableside-units", "bin/tableside-release.sh",
                   "initramfs/tableside-machine-id"):
        proc = subprocess.run(["sh", "-n", str(SYSTEM / script)], capture_output=True,
                              text=True)
        assert proc.returncode == 0, (script, proc.stderr)
    for script in ("bundle", "wheels"):
        assert subprocess.run(["bash", "-n", str(ROOT / "image-build" / script)]).returncode == 0
    first = " ".join(_settings(SYSTEM / "tableside-units.service")["Unit.Before"])
    for unit in UNITS:
        if unit.name != "tableside-units.service":
            assert unit.name in first, unit.name


def test_the_root_is_read_only_and_what_must_last_is_on_the_data_partition() -> None:
    """The root under a tmpfs overlay (Debian's overlayroot, only / overlaid), and
    what must outlive a reboot on /data: the hostname (provisioning writes /data/etc, the
    root's /etc/hostname links there and tableside-hostname sets it once /data is mounted),
    the system log (bound to /data/log/journal, at most 64 MB) and the clock's last time."""
    conf = (SYSTEM / "overlayroot.local.conf").read_text()
    assert re.search(r'^overlayroot="tmpfs:recurse=0"$', conf, re.M)
    provision = _settings(SYSTEM / "tableside-provision.service")["Service.ExecStart"][0]
    assert provision.endswith("--etc /data/etc --owner kiosk")
    host = _settings(SYSTEM / "tableside-hostname.service")
    assert host["Service.ExecStart"] == ["/usr/bin/hostname -F /data/etc/hostname"]
    assert "tableside-provision.service" in host["Unit.After"][0]
    journald = (SYSTEM / "journald.conf.d" / "tableside.conf").read_text()
    assert "Storage=persistent" in journald and "SystemMaxUse=64M" in journald
    build = (ROOT / "image-build" / "build").read_text()
    for line in ("ln -sf /data/etc/hostname /etc/hostname",
                 "/data/log/journal /var/log/journal none bind,nofail",
                 "/data/var/timesync /var/lib/systemd/timesync none bind,nofail",
                 "LABEL=root / ext4 ro,noatime 0 1", "update-initramfs -u -k all"):
        assert line in build, line
    for flavour in sorted((ROOT / "image-build" / "flavours").glob("*.sh")):  # pi4, pi5
        assert "overlayroot busybox" in flavour.read_text(), flavour.name
    assert "tmpfs /var/log " not in build  # the log lasts now
