"""Offline checks of a built SD image (image-build/build), without a Pi: the partition table,
the boot partition's files, the root's and data's contents, our units verified inside the
root, and the venv importing the kiosk under qemu-user. Run by image-build/test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

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
    assert "bcm2711-rpi-4-b.dtb" in names
    config = _run("mtype", "-i", str(OUT / "boot.img"), "::/config.txt")
    settings = [line.strip() for line in config.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    # Debian's raspi-firmware names the kernel and initramfs the firmware loads: both are here.
    kernel = next(s.split("=", 1)[1] for s in settings if s.startswith("kernel="))
    initramfs = next(s.split()[1] for s in settings if s.startswith("initramfs "))
    assert kernel.startswith("vmlinuz-") and kernel.lower() in names
    assert initramfs.startswith("initrd.img-") and initramfs.lower() in names
    # ours, appended: 64-bit, two framebuffers for the two screens, the UART's console
    assert {"arm_64bit=1", "max_framebuffers=2", "disable_overscan=1",
            "enable_uart=1"} <= set(settings)
    # The Pi 4 image's device tree (mainline) has KMS in it; Debian ships none of Raspberry
    # Pi's overlays, so config.txt names none (image-build/flavours/pi4.sh).
    assert not [s for s in settings if s.startswith("dtoverlay")], settings


def test_the_initramfs_is_zstd(tmp_path: Path) -> None:
    """zstd is on the card (image-build/flavours/table-packages), so initramfs-tools keeps
    its own choice and does not fall back to gzip: zstd's magic number opens the file."""
    names = _run("mdir", "-b", "-i", str(OUT / "boot.img"), "::/").split()
    initramfs = next(Path(f).name for f in names if Path(f).name.lower().startswith("initrd"))
    subprocess.run(["mcopy", "-i", str(OUT / "boot.img"), f"::/{initramfs}",
                    str(tmp_path / "initramfs")], check=True, timeout=300)
    assert (tmp_path / "initramfs").read_bytes()[:4] == bytes.fromhex("28b52ffd")


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


# --- what a technician relies on, read from the built image (image-build/test builds it with
# --trial) ---------------------------------------------------------------------------------

def test_data_is_the_kiosk_users_alone() -> None:
    """mke2fs -d does not copy the top folder's mode: the build sets it, read back here."""
    stat = _run("debugfs", "-R", "stat /", str(OUT / "data.img"))
    assert "Mode:  0700" in stat, stat
    network = _run("debugfs", "-R", "cat /etc/network/10-tableside.network",
                   str(OUT / "data.img"))
    assert "DHCP=yes" in network  # until provisioning says otherwise


def test_every_overlay_config_txt_names_is_on_the_boot_partition(tmp_path: Path) -> None:
    boot = tmp_path / "boot"
    boot.mkdir()
    _run("mcopy", "-s", "-i", str(OUT / "boot.img"), "::/", str(boot))
    found = boot if (boot / "config.txt").exists() else next(boot.iterdir())
    check = Path(__file__).resolve().parents[2] / "image-build" / "check-overlays"
    proc = subprocess.run([str(check), str(found)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    # the build id and the checksums of all the boot partition holds, as the self-test reads
    from kiosk.selftest import ImageFiles, check_boot

    etc = tmp_path / "etc"
    etc.mkdir()
    result = check_boot(ImageFiles(found, etc))
    assert result.ok, result.detail


def test_every_program_on_the_card_would_load_on_the_pi5s_16_kb_pages() -> None:
    """The Pi 5's kernel has 16 KB memory pages. Its image takes the same Debian packages
    and the same wheels (Kivy and the libraries it carries, lgpio, cryptography) as this
    one: every arm64 program and library here must be aligned to 16 KB or more."""
    check = Path(__file__).resolve().parents[2] / "image-build" / "check-pages"
    proc = subprocess.run([str(check), str(OUT / "rootfs"), "16384"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    read = int(proc.stderr.split()[1])
    assert read > 1000, proc.stderr  # Python, Mesa, SDL, Xorg and the wheels' libraries


def test_the_bmap_maps_under_half_of_the_image() -> None:
    """The partitions are written sparse: bmaptool writes only the blocks with data."""
    # parsed as XML: the file's opening comment names both tags in its prose
    bmap = ElementTree.parse(OUT / "tableside-pi4-arm64.img.bmap").getroot()
    mapped = int(bmap.findtext("MappedBlocksCount", "").strip())
    blocks = int(bmap.findtext("BlocksCount", "").strip())
    size = int(bmap.findtext("BlockSize", "").strip())
    assert blocks * size == IMAGE.stat().st_size
    ranges = [r.text.strip().split("-") for r in bmap.iter("Range") if r.text]
    assert sum(int(r[-1]) - int(r[0]) + 1 for r in ranges) == mapped
    assert 0 < mapped < blocks / 2, (mapped, blocks)


def test_the_update_key_is_a_trial_one_and_says_so() -> None:
    keys = _run("debugfs", "-R", "cat /etc/tableside/update-keys", str(OUT / "root.img"))
    assert keys.startswith("# TRIAL UPDATE KEY")
    assert "TRIAL UPDATE KEY" in _run("mtype", "-i", str(OUT / "boot.img"),
                                      "::/tableside-build.txt")
    assert (OUT / "update-signing.pem").exists()


def test_the_technicians_way_in_is_in_the_root() -> None:
    root = str(OUT / "root.img")
    assert "AllowUsers technician" in _run("debugfs", "-R",
                                           "cat /etc/ssh/sshd_config.d/tableside.conf", root)
    assert "ssh_host_" not in _run("debugfs", "-R", "ls /etc/ssh", root)
    assert "tableside-login" in _run("debugfs", "-R", "cat /etc/pam.d/sshd", root)
    sudoers = _run("debugfs", "-R", "stat /etc/sudoers.d/tableside-technician", root)
    assert "Mode:  0440" in sudoers
    assert "technician:*:" in _run("debugfs", "-R", "cat /etc/shadow", root)
    masked = _run("debugfs", "-R", "stat /etc/systemd/system/apt-daily.timer", root)
    assert '"/dev/null"' in masked
    cmdline = _run("mtype", "-i", str(OUT / "boot.img"), "::/cmdline.txt")
    assert "console=serial0,115200" in cmdline
    fstab = _run("debugfs", "-R", "cat /etc/fstab", root)
    assert "LABEL=BOOT /boot/firmware vfat ro," in fstab and "LABEL=root / ext4 ro,noatime 0 0" \
        in fstab
