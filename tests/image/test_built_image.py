"""Offline checks of a built SD image (image-build/build), without a Pi: the partition table,
the boot partition's files, the root's and data's contents, our units verified inside the
root, and the venv importing the kiosk under qemu-user. Run by image-build/test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.image
OUT = Path(os.environ.get("TABLESIDE_IMAGE", "build/image"))
IMAGE = OUT / "tableside-pi4-arm64.img"


def _run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=300).stdout


def test_three_partitions_boot_root_data() -> None:
    table = _run("sfdisk", "--dump", str(IMAGE))
    parts = [line for line in table.splitlines() if line.startswith(str(IMAGE))]
    assert len(parts) == 3
    assert "type=c" in parts[0] and "bootable" in parts[0]
    assert "type=83" in parts[1] and "type=83" in parts[2]


def test_the_boot_partition_holds_firmware_kernel_one_initramfs_and_config() -> None:
    files = _run("mdir", "-b", "-i", str(OUT / "boot.img"), "::/").split()
    names = {Path(f).name.lower() for f in files}
    assert {"config.txt", "cmdline.txt", "start4.elf", "fixup4.dat"} <= names
    assert any(n.startswith("vmlinuz") for n in names)
    assert sum(n.startswith("initrd.img") for n in names) == 1
    config = _run("mtype", "-i", str(OUT / "boot.img"), "::/config.txt")
    assert "arm_64bit=1" in config and "vc4-kms-v3d" in config


def test_the_root_holds_the_venv_units_and_rules() -> None:
    # The image's own units are the vendor's (/usr/lib): an update's go before them in /run.
    listing = _run("debugfs", "-R", "ls -l /usr/lib/systemd/system", str(OUT / "root.img"))
    for unit in ("tableside-dealer.service", "tableside-signage.service",
                 "tableside-provision.service", "tableside-units.service"):
        assert unit in listing
    launcher = _run("debugfs", "-R", "ls -l /opt/tableside/bin", str(OUT / "root.img"))
    assert "tableside-units" in launcher and "tableside-release.sh" in launcher
    keys = _run("debugfs", "-R", "cat /etc/tableside/update-keys", str(OUT / "root.img"))
    assert any(len(line) == 64 for line in keys.splitlines())
    assert _run("debugfs", "-R", "cat /etc/tableside/flavour", str(OUT / "root.img")) == "pi4\n"
    assert "99-tableside.rules" in _run("debugfs", "-R", "ls /etc/udev/rules.d",
                                        str(OUT / "root.img"))
    fsck = subprocess.run(["e2fsck", "-fn", str(OUT / "root.img")], capture_output=True,
                          text=True, timeout=300)
    assert fsck.returncode == 0, fsck.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_our_units_verify_inside_the_root() -> None:
    units = [f"/usr/lib/systemd/system/{u}" for u in (
        "tableside-dealer.service", "tableside-signage.service", "tableside-provision.service",
        "tableside-sync.service", "tableside-units.service")]
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no",
                           f"--root={OUT / 'rootfs'}", *units],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_the_venv_imports_the_kiosk_under_qemu_user() -> None:
    python = OUT / "rootfs" / "opt" / "tableside" / "venv" / "bin" / "python"
    out = _run("chroot", str(OUT / "rootfs"), "/opt/tableside/venv/bin/python", "-c",
               "import platform, kiosk.rules.registry as r, lgpio, kivy; "
               "print(platform.machine(), ','.join(r.GAMES.names()))")
    assert python.exists()
    from kiosk.rules.registry import GAMES  # the games of this checkout, roulette among them

    assert out.split() == ["aarch64", ",".join(GAMES.names())]


def test_the_root_is_read_only_under_an_overlay_and_what_lasts_is_on_data() -> None:
    root, data = str(OUT / "root.img"), str(OUT / "data.img")
    conf = _run("debugfs", "-R", "cat /etc/overlayroot.local.conf", root)
    assert 'overlayroot="tmpfs:recurse=0"' in conf
    link = _run("debugfs", "-R", "stat /etc/hostname", root)
    assert "Type: symlink" in link and '"/data/etc/hostname"' in link
    assert _run("debugfs", "-R", "cat /etc/hostname", data) == "tableside\n"
    for folder in ("/etc", "/log/journal", "/var/timesync"):  # root's, not the kiosk user's
        assert "User:     0" in _run("debugfs", "-R", f"stat {folder}", data), folder
    fstab = _run("debugfs", "-R", "cat /etc/fstab", root)
    assert "/data/log/journal /var/log/journal none bind" in fstab
    initrd = sorted((OUT / "rootfs" / "boot").glob("initrd.img-*"))[0].name
    inside = _run("chroot", str(OUT / "rootfs"), "lsinitramfs", f"/boot/{initrd}")
    assert "scripts/init-bottom/overlayroot" in inside
    assert "scripts/init-bottom/tableside-machine-id" in inside
    assert "/overlay.ko" in inside
