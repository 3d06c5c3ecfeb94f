"""The SD image's system files, checked on this machine on every run (the image itself is
built and booted by image-build/; see docs/technician.md): the services verify with
systemd's own checker, each long-running one has its watchdog, the hardware watchdog is at
most 15 s, and the udev rules give the devices the names the configuration uses."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tests.image import flavours

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "image-build" / "system"
UNITS = sorted(SYSTEM.glob("*.service"))
RULES = ROOT / "image-build" / "udev" / "99-tableside.rules"
BIN = "/opt/tableside/bin/"  # the launcher and tableside-units (image-build/system/bin)
TABLESIDE = BIN + "tableside"
ONESHOTS = ("tableside-banner.service", "tableside-devices.service",
            "tableside-grow-data.service", "tableside-hostname.service",
            "tableside-provision.service", "tableside-screens.service", "tableside-units.service")
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
    programs = [p.name for p in (SYSTEM / "bin").iterdir()]
    for name in (*programs, "Xorg", "udevadm"):
        program = tmp_path / "bin" / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(0o755)
    copies = []
    for unit in [*UNITS, *SYSTEM.glob("*.timer")]:  # the programs the image installs, stood
        # in for here
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text().replace(BIN, f"{tmp_path}/bin/")
                        .replace(XORG, f"{tmp_path}/bin/Xorg")
                        .replace("/usr/bin/udevadm", f"{tmp_path}/bin/udevadm"))
        copies.append(str(copy))
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no", *copies],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == "", proc.stderr


def test_each_long_running_service_has_its_watchdog_and_restarts() -> None:
    names = [u.name for u in UNITS]
    assert names == ["tableside-banner.service", "tableside-dealer.service",
                     "tableside-devices.service", DISPLAY, "tableside-grow-data.service",
                     "tableside-hostname.service", "tableside-provision.service",
                     "tableside-screens.service", "tableside-signage.service",
                     "tableside-sync.service", "tableside-units.service"]
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


def test_a_bundle_of_a_wheel_folder_without_tableside_is_refused_in_words(tmp_path: Path
                                                                          ) -> None:
    empty = tmp_path / "wheels"
    empty.mkdir()
    (tmp_path / "k.pem").write_text("key\n")
    proc = subprocess.run([str(ROOT / "image-build" / "bundle"), "--key",
                           str(tmp_path / "k.pem"), "--wheels", str(empty),
                           str(tmp_path / "x.bundle")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == f"image-build/bundle: {empty} must hold one tableside wheel\n"
    assert not (tmp_path / "x.bundle").exists()


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
                 "LABEL=root / ext4 ro,noatime 0 0", "update-initramfs -u -k all"):
        assert line in build, line
    for flavour in flavours.names():  # pi4, pi4-rpi, pi5
        assert {"overlayroot", "busybox"} <= set(flavours.settings(flavour)["packages"]), flavour
    assert "tmpfs /var/log " not in build  # the log lasts now


# --- the card a technician can reach: network, SSH, sudo, banner, overlays, boot, data ------

def test_networkd_timesyncd_and_ssh_read_what_provisioning_wrote_on_the_data_partition(
        ) -> None:
    """The root is read-only: /data/etc's folders are bound where each program reads them,
    and each starts after provisioning wrote them; the card's own default is DHCP, the same
    file provisioning writes for a table.toml without [network]."""
    from kiosk.host import NetworkConfig, network_file

    build = (ROOT / "image-build" / "build").read_text()
    for bind in ("/data/etc/network /etc/systemd/network none bind,nofail",
                 "/data/etc/timesyncd /etc/systemd/timesyncd.conf.d none bind,nofail",
                 "/data/etc/ssh /etc/tableside/ssh none bind,nofail"):
        assert bind in build, bind
    default = SYSTEM / "network" / "10-tableside.network"
    assert default.read_text() == network_file(NetworkConfig())
    assert 'cp "$here/system/network/10-tableside.network" "$out/data/etc/network/"' in build
    assert re.search(r"systemctl enable [^\n]*systemd-networkd\.service[^\n]*"
                     r"systemd-resolved\.service[^\n]*ssh\.service", build)
    for unit in ("systemd-networkd", "systemd-timesyncd", "ssh"):
        dropin = _settings(SYSTEM / "dropins" / f"{unit}.service.conf")
        assert dropin["Unit.After"] == ["tableside-provision.service"], unit
    provision = _settings(SYSTEM / "tableside-provision.service")
    assert {"systemd-networkd.service", "systemd-timesyncd.service", "ssh.service",
            "tableside-devices.service"} <= set(" ".join(provision["Unit.Before"]).split())
    for flavour in flavours.names():
        packages = flavours.settings(flavour)["packages"]
        for package in ("systemd-resolved", "openssh-server", "sudo", "fdisk"):
            assert package in packages, (flavour, package)
        assert not {"ifupdown", "isc-dhcp-client"} & set(packages), flavour


def test_ssh_takes_the_technicians_keys_only_and_runs_only_with_keys() -> None:
    conf = {line.split()[0]: " ".join(line.split()[1:]) for line in
            (SYSTEM / "ssh" / "tableside.conf").read_text().splitlines()
            if line and not line.startswith("#")}
    assert conf == {
        "HostKey": "/etc/tableside/ssh/ssh_host_ed25519_key",
        "AuthorizedKeysFile": "/etc/tableside/ssh/technician_keys",
        "AuthenticationMethods": "publickey", "PubkeyAuthentication": "yes",
        "PasswordAuthentication": "no", "KbdInteractiveAuthentication": "no",
        "PermitEmptyPasswords": "no", "PermitRootLogin": "no", "AllowUsers": "technician",
        "X11Forwarding": "no", "AllowTcpForwarding": "no", "AllowAgentForwarding": "no",
        "PermitTunnel": "no"}
    dropin = _settings(SYSTEM / "dropins" / "ssh.service.conf")
    # no keys provisioned: no SSH server; a host key of this table's own, on /data
    assert dropin["Unit.ConditionFileNotEmpty"] == ["/etc/tableside/ssh/technician_keys"]
    assert dropin["Service.ExecStartPre"][0] == ""  # Debian's own list replaced
    assert "ssh-keygen -q -t ed25519" in dropin["Service.ExecStartPre"][1]
    assert dropin["Service.ExecStartPre"][2] == "/usr/sbin/sshd -t"
    build = (ROOT / "image-build" / "build").read_text()
    assert "rm -f /etc/ssh/ssh_host_*" in build  # no host key shared by every card
    assert "session optional pam_exec.so quiet /opt/tableside/bin/tableside-login" in build
    assert "--password \\\\* technician" in build  # no password: keys only


def test_the_technician_may_run_tableside_and_systemctl_on_its_units_only() -> None:
    sudoers = (SYSTEM / "sudoers.d" / "tableside-technician").read_text()
    rules = [line for line in sudoers.splitlines() if line and not line.startswith("#")]
    assert rules[-1] == "technician ALL=(root) NOPASSWD: TABLESIDE, TABLESIDE_UNITS"
    assert rules[0] == ("Cmnd_Alias TABLESIDE = /opt/tableside/bin/tableside, "
                        "/usr/local/bin/tableside")
    units = rules[1].split(" = ", 1)[1]
    command, _, pattern = units.partition(" ")
    assert command == "/usr/bin/systemctl" and pattern.startswith("^") and pattern.endswith("$")
    allowed = re.compile(pattern)
    for ok in ("restart tableside-dealer.service", "status tableside-sync", "show "
               "tableside-banner.timer", "stop tableside-signage.service"):
        assert allowed.fullmatch(ok), ok
    for refused in ("restart ssh.service", "start tableside-dealer.service ssh.service",
                    "edit tableside-dealer.service", "daemon-reload", "isolate rescue.target",
                    "restart tableside-dealer.service;reboot"):
        assert not allowed.fullmatch(refused), refused
    build = (ROOT / "image-build" / "build").read_text()
    assert "install -m 0440 /tmp/system/sudoers.d/tableside-technician /etc/sudoers.d/" in build
    assert "visudo -c -q -f /etc/sudoers.d/tableside-technician" in build
    if shutil.which("visudo"):
        assert subprocess.run(["visudo", "-c", "-q", "-f", str(SYSTEM / "sudoers.d" /
                                                               "tableside-technician")]
                              ).returncode == 0


def _stub(folder: Path, name: str, body: str = "") -> None:
    program = folder / name
    program.write_text(f'#!/bin/sh\necho "{name} $*" >> "{folder}/calls"\n{body}')
    program.chmod(0o755)


def test_a_technicians_login_is_put_on_record_by_the_kiosk_user(tmp_path: Path) -> None:
    """PAM's pam_exec runs tableside-login as root at each session's opening and closing:
    the opening goes on record, as the journal's owner, by a unit queued and not waited for
    (under emulation the CLI took over 20 s to start, and a time limit lost the record); a
    failure never holds up a login."""
    _stub(tmp_path, "systemd-run")
    _stub(tmp_path, "logger")
    script = SYSTEM / "bin" / "tableside-login"
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "PAM_USER": "technician",
           "PAM_RHOST": "10.0.2.2"}
    assert subprocess.run([str(script)], env={**env, "PAM_TYPE": "close_session"}
                          ).returncode == 0
    assert not (tmp_path / "calls").exists()
    assert subprocess.run([str(script)], env={**env, "PAM_TYPE": "open_session"}
                          ).returncode == 0
    assert (tmp_path / "calls").read_text().splitlines() == [
        "systemd-run --no-block --quiet --collect --uid=kiosk --gid=kiosk "
        "--property=SyslogIdentifier=tableside-login --description=A technician's login on "
        "record -- /opt/tableside/bin/tableside technician-login --config /data/table.toml "
        "--user technician --from 10.0.2.2"]
    _stub(tmp_path, "systemd-run", "exit 1\n")  # the unit could not be queued
    (tmp_path / "calls").unlink()
    assert subprocess.run([str(script)], env={**env, "PAM_TYPE": "open_session"}
                          ).returncode == 0
    assert (tmp_path / "calls").read_text().splitlines()[1] == (
        "logger -t tableside-login the login of technician from 10.0.2.2 could not be put on "
        "record in the journal")


def test_the_console_shows_the_banner_on_the_uart_and_the_screen() -> None:
    build = (ROOT / "image-build" / "build").read_text()
    cmdline = re.search(r'^cmdline="([^"]*)"', build, re.M)
    assert cmdline is not None
    assert cmdline.group(1).split()[:3] == ["console=serial0,115200",
                                            "${serial_console:+$serial_console", "}console=tty1"]
    # the header's UART (GPIO 14 and 15) carries a console on every board. pi4: Debian's
    # kernel calls it ttyS1; pi4-rpi: Raspberry Pi's knows it as serial0; pi5: serial0 is the
    # debug connector's, the header's is uart0 (ttyAMA0), turned on under [pi5]
    assert flavours.settings("pi4")["serial_console"] == ["console=ttyS1,115200"]
    assert flavours.settings("pi4-rpi")["serial_console"] == [""]
    assert flavours.settings("pi5")["serial_console"] == ["console=ttyAMA0,115200"]
    pi5 = flavours.settings("pi5")["config_txt"]
    assert pi5.index("dtparam=uart0=on") < pi5.index("[all]")
    for flavour in flavours.names():
        assert "enable_uart=1" in flavours.settings(flavour)["config_txt"], flavour
    banner = _settings(SYSTEM / "tableside-banner.service")
    assert banner["Service.ExecStart"] == [
        TABLESIDE + " banner --config /data/table.toml --out "
        "/run/tableside-banner/tableside.issue"]
    assert banner["Service.User"] == ["kiosk"]  # the journal's owner reads it
    assert "ln -sf /run/tableside-banner/tableside.issue /etc/issue.d/tableside.issue" in build
    timer = (SYSTEM / "tableside-banner.timer").read_text()
    assert "OnUnitActiveSec=2min" in timer and "tableside-banner.timer" in build


def test_nothing_a_table_should_not_run() -> None:
    """apt's daily timers off on a read-only root, lgpio's pipes off /data, /data 0700 (read
    back from the data partition the build made), the boot partition read-only but while
    provisioning writes it, no fsck asked for the read-only root (overlayroot moves it to
    /media/root-ro, and fstab-generator warned at every boot)."""
    build = (ROOT / "image-build" / "build").read_text()
    assert ("systemctl mask apt-daily.timer apt-daily-upgrade.timer apt-daily.service "
            "apt-daily-upgrade.service") in build
    dealer = _settings(SYSTEM / "tableside-dealer.service")
    assert "LG_WD=/run/tableside-lgpio" in dealer["Service.Environment"]
    assert dealer["Service.RuntimeDirectory"] == ["tableside-lgpio"]
    assert 'debugfs -w -R "sif / mode 040700" "$out/data.img"' in build
    assert "LABEL=BOOT /boot/firmware vfat ro,umask=0022 0 2" in build
    provision = _settings(SYSTEM / "tableside-provision.service")
    assert provision["Service.ExecStartPre"] == ["/bin/mount -o remount,rw /boot/firmware"]
    assert provision["Service.ExecStopPost"] == ["/bin/mount -o remount,ro /boot/firmware"]
    assert "conv=notrunc,sparse" in build and "conv=notrunc status" not in build
    grow = _settings(SYSTEM / "tableside-grow-data.service")
    assert grow["Unit.ConditionPathExists"] == ["!/data/etc/data-grown"]
    assert "tableside-provision.service" in grow["Unit.Before"][0]
    script = (SYSTEM / "bin" / "tableside-grow-data").read_text()
    assert 'sfdisk --quiet --no-reread --no-tell-kernel -N "$number" "$disk"' in script
    assert 'resize2fs "$part"' in script


CHECK_OVERLAYS = ROOT / "image-build" / "check-overlays"


def test_the_build_refuses_a_config_txt_naming_an_overlay_the_card_lacks(tmp_path: Path
                                                                         ) -> None:
    boot = tmp_path / "boot"
    (boot / "overlays").mkdir(parents=True)
    (boot / "config.txt").write_text("arm_64bit=1\ndtoverlay=vc4-kms-v3d,cma-512\n"
                                     "# dtoverlay=commented-out\n[pi5]\n dtoverlay=\n")

    def check(*required: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CHECK_OVERLAYS), str(boot), *required],
                              capture_output=True, text=True)

    missing = check()
    assert missing.returncode == 1 and missing.stderr == (
        "check-overlays: the boot partition lacks overlays/vc4-kms-v3d.dtbo (named by "
        "config.txt or required)\n")
    (boot / "overlays" / "vc4-kms-v3d.dtbo").write_bytes(b"\xd0\x0d\xfe\xed")
    assert check().returncode == 0
    assert check("vc4-kms-dsi-7inch").returncode == 1  # the DSI panel's, required by pi5
    (boot / "overlays" / "vc4-kms-dsi-7inch.dtbo").write_bytes(b"")  # an empty file is none
    assert check("vc4-kms-dsi-7inch").returncode == 1
    build = (ROOT / "image-build" / "build").read_text()
    assert '"$here/check-overlays" "$out/rootfs/boot/firmware" "${required_overlays[@]}"' in build
    assert os.access(CHECK_OVERLAYS, os.X_OK)
    # each flavour's config.txt against the overlays it ships: pi4 (Debian's kernel, none
    # shipped) names none; Raspberry Pi's kernel's flavours name vc4-kms-v3d, require the
    # board's form of it and the DSI panel's, which the firmware loads when a panel is there
    pi4 = flavours.settings("pi4")
    assert pi4["required_overlays"] == []
    assert not any(line.startswith("dtoverlay") for line in pi4["config_txt"])
    for flavour, board in (("pi5", "pi5"), ("pi4-rpi", "pi4")):
        rpi = flavours.settings(flavour)
        assert rpi["required_overlays"] == [f"vc4-kms-v3d-{board}", "vc4-kms-dsi-7inch"]
        assert {"dtoverlay=vc4-kms-v3d", "display_auto_detect=1"} <= set(rpi["config_txt"])


def test_the_boot_partition_carries_its_build_id_and_checksums() -> None:
    build = (ROOT / "image-build" / "build").read_text()
    assert '> "$out/rootfs/boot/firmware/tableside-build.txt"' in build
    assert "xargs -0 sha256sum) > \"$out/tableside-sums.sha256\"" in build
    from kiosk.selftest import BUILD_FILE, SUMS_FILE

    assert (BUILD_FILE, SUMS_FILE) == ("tableside-build.txt", "tableside-sums.sha256")


def test_the_new_scripts_parse() -> None:
    for script in ("bin/tableside-login", "bin/tableside-grow-data"):
        proc = subprocess.run(["sh", "-n", str(SYSTEM / script)], capture_output=True,
                              text=True)
        assert proc.returncode == 0, (script, proc.stderr)
        assert os.access(SYSTEM / script, os.X_OK), script
    assert subprocess.run(["sh", "-n", str(CHECK_OVERLAYS)]).returncode == 0
    if shutil.which("shellcheck"):
        proc = subprocess.run(["shellcheck", "-s", "sh", str(CHECK_OVERLAYS),
                               *(str(SYSTEM / s) for s in ("bin/tableside-login",
                                                          "bin/tableside-grow-data"))],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout


def test_the_emulator_runner_parses_and_says_what_it_needs(tmp_path: Path) -> None:
    run = ROOT / "image-build" / "run"
    assert os.access(run, os.X_OK)
    assert subprocess.run(["bash", "-n", str(run)]).returncode == 0
    usage = subprocess.run([str(run), "--help"], capture_output=True, text=True)
    assert usage.returncode == 0 and "the serial console on this terminal" in usage.stdout
    none = subprocess.run([str(run), str(tmp_path)], capture_output=True, text=True)
    assert none.returncode == 1 and none.stderr == (
        f"image-build/run: no tableside-*-arm64.img in {tmp_path}: build one "
        "(image-build/build --trial)\n")
    text = run.read_text()
    assert "-serial mon:stdio" in text and 'hostfwd=tcp:127.0.0.1:$ssh_port-:22' in text
    assert 'cp --sparse=always "$image" "$work/disk.img"' in text  # the image stays as built


def test_the_data_partition_grows_to_the_end_of_its_disk(tmp_path: Path) -> None:
    """tableside-grow-data finds /data's partition and its disk from sysfs (an SD card's
    mmcblk0p3 is partition 3 of mmcblk0), grows that partition to the disk's end with
    sfdisk, tells the kernel (partx) and grows the filesystem (resize2fs), then notes it."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    _stub(bin_, "findmnt", "echo /dev/mmcblk0p3\n")
    _stub(bin_, "sfdisk", "cat >> \"$0.stdin\"\n")
    _stub(bin_, "partx")
    _stub(bin_, "resize2fs")
    _stub(bin_, "df", "echo Size; [ -e \"$0.once\" ] && echo 29000 || { echo 1500; : > "
                      "\"$0.once\"; }\n")
    sys_ = tmp_path / "sys"
    card = sys_ / "devices" / "mmc" / "mmcblk0"
    (card / "mmcblk0p3").mkdir(parents=True)
    (card / "mmcblk0p3" / "partition").write_text("3\n")
    (sys_ / "class" / "block").mkdir(parents=True)
    (sys_ / "class" / "block" / "mmcblk0p3").symlink_to(card / "mmcblk0p3")
    data = tmp_path / "data"
    (data / "etc").mkdir(parents=True)
    proc = subprocess.run([str(SYSTEM / "bin" / "tableside-grow-data")], capture_output=True,
                          text=True, env={"PATH": f"{bin_}:/usr/bin:/bin",
                                          "TABLESIDE_DATA": str(data),
                                          "TABLESIDE_SYSFS": str(sys_)})
    assert proc.returncode == 0, proc.stderr
    assert (bin_ / "calls").read_text().splitlines() == [
        f"findmnt -n -o SOURCE {data}", f"df -m --output=size {data}",
        "sfdisk --quiet --no-reread --no-tell-kernel -N 3 /dev/mmcblk0",
        "partx --update --nr 3 /dev/mmcblk0", "resize2fs /dev/mmcblk0p3",
        f"df -m --output=size {data}"]
    assert (bin_ / "sfdisk.stdin").read_text() == ", +\n"  # the end: as large as it can be
    assert proc.stderr == "tableside-grow-data: /dev/mmcblk0p3 grown from 1500 MB to 29000 MB\n"
    assert (data / "etc" / "data-grown").read_text().startswith("20")


def test_the_image_test_builds_a_trial_image_when_asked(tmp_path: Path) -> None:
    """`image-build/test --build OUT` runs `image-build/build --trial OUT` first (a stand-in
    build here, which stops the script)."""
    tree = tmp_path / "tree"
    (tree / "image-build").mkdir(parents=True)
    test = tree / "image-build" / "test"
    test.write_text((ROOT / "image-build" / "test").read_text())
    test.chmod(0o755)
    build = tree / "image-build" / "build"
    build.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/built"\nexit 7\n')
    build.chmod(0o755)
    out = tmp_path / "out"
    proc = subprocess.run([str(test), "--build", str(out)], capture_output=True, text=True)
    assert proc.returncode == 7  # the build's: set -e stops there
    assert (tmp_path / "built").read_text() == f"--trial {out}\n"
    # pointed at another flavour's build: said, not every check skipped and called a pass
    out.mkdir()
    (out / "tableside-pi5-arm64.img").write_bytes(b"")
    proc = subprocess.run([str(test), str(out)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert (f"no tableside-pi4-arm64.img in {out} (it holds tableside-pi5-arm64.img): these "
            "checks are for the pi4 image") in proc.stderr


CHECK_PAGES = ROOT / "image-build" / "check-pages"


def _elf(path: Path, *segments: tuple[int, int, int], machine: int = 183,
         kind: int = 3, wide: bool = True) -> None:
    """An ELF file for `machine` (183: arm64, 40: 32-bit arm) with a loadable segment for
    each (address, offset, alignment) of `segments`, and a note segment, which is not
    loaded (its address and offset differ by 4)."""
    headers = [(1, *segment) for segment in segments] + [(4, 4, 0, 4)]
    ident = b"\x7fELF" + bytes([2 if wide else 1, 1, 1]) + bytes(9)
    if wide:
        header = ident + struct.pack("<HHIQQQIHHHHHH", kind, machine, 1, 0, 64, 0, 0, 64, 56,
                                     len(headers), 64, 0, 0)
        table = b"".join(struct.pack("<IIQQQQQQ", ptype, 5, offset, address, 0, 0, 0, align)
                         for ptype, address, offset, align in headers)
    else:
        header = ident + struct.pack("<HHIIIIIHHHHHH", kind, machine, 1, 0, 52, 0, 0, 52, 32,
                                     len(headers), 40, 0, 0)
        table = b"".join(struct.pack("<IIIIIIII", ptype, offset, address, 0, 0, 0, 5, align)
                         for ptype, address, offset, align in headers)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + table)


def test_the_build_refuses_a_program_that_would_not_load_on_the_flavours_memory_pages(
        tmp_path: Path) -> None:
    """The Pi 5's kernel has 16 KB memory pages: a program or library laid out for 4 KB
    does not load there, which only a Pi 5 at a table would show."""
    k64 = 65536
    root = tmp_path / "root"
    _elf(root / "usr" / "bin" / "python3.11", (0, 0, k64), (0x1FC90, 0xFC90, k64))
    _elf(root / "usr" / "lib" / "raspi-firmware" / "start4.elf", (0, 0, 32), machine=137)
    _elf(root / "usr" / "lib" / "modules" / "af_key.ko", kind=1)  # relocatable: not loaded
    (root / "usr" / "bin" / "tableside").write_text("#!/bin/sh\n")
    (root / "usr" / "lib" / "libc.so").symlink_to("nowhere")
    os.mkfifo(root / "usr" / "lib" / "a-fifo")  # never opened: the check would wait on it

    def check(page: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CHECK_PAGES), str(root), str(page)],
                              capture_output=True, text=True, timeout=60)

    assert check(16384).returncode == 0
    assert check(16384).stderr == ("check-pages: 1 programs and libraries, each loads on a "
                                   "kernel with 16384-byte pages\n")
    lib = root / "opt" / "tableside" / "venv" / "lib"
    # Built for 4 KB pages: its second segment 4 KB on from its offset in the file.
    _elf(lib / "libSDL2.so", (0, 0, 4096), (0x50C90, 0x4FC90, 4096))
    # Said to be aligned to 64 KB, but the address and offset of one segment disagree (a
    # library a tool rewrote): mapping it on 16 KB pages is refused all the same.
    _elf(lib / "libpatched.so", (0, 0, k64), (0x11000, 0x10000, k64))
    # Agreeing by chance, but laid out for 4 KB: its segments would share a 16 KB page.
    _elf(lib / "libsmall.so", (0, 0, 4096), (0x4000, 0x4000, 4096))
    _elf(lib / "armhf" / "helper", (0, 0, k64), machine=40, wide=False)  # 32-bit arm
    (lib / "cut-short.so").write_bytes((lib / "libSDL2.so").read_bytes()[:80])
    refused = check(16384)
    assert refused.returncode == 1
    assert refused.stderr == (
        "check-pages: 5 of 6 programs and libraries would not load on a kernel with "
        "16384-byte pages: /opt/tableside/venv/lib/armhf/helper (a 32-bit arm program); "
        "/opt/tableside/venv/lib/cut-short.so (its program headers lie outside it); "
        "/opt/tableside/venv/lib/libSDL2.so (a segment's address and offset differ by "
        "4096 modulo 16384); /opt/tableside/venv/lib/libpatched.so (a segment's address "
        "and offset differ by 4096 modulo 16384); /opt/tableside/venv/lib/libsmall.so "
        "(segments aligned to 4096 bytes)\n")
    # On 4 KB pages (pi4, pi4-rpi) all but the cut-short file load, the 32-bit one too.
    four = check(4096)
    assert four.returncode == 1 and "5 of 6" not in four.stderr
    assert four.stderr.startswith("check-pages: 1 of 6 programs and libraries would not load")
    assert subprocess.run([str(CHECK_PAGES), str(tmp_path / "none"), "4096"],
                          capture_output=True, text=True).returncode == 2
    build = (ROOT / "image-build" / "build").read_text()
    assert '"$here/check-pages" "$out/rootfs" "$page_size" || pages=$?' in build
    assert os.access(CHECK_PAGES, os.X_OK)
