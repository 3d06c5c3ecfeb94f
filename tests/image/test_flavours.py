"""The image's flavours (image-build/build --flavour pi4|pi4-rpi|pi5, image-build/flavours/),
checked without building, on every run and without the internet: the Raspberry Pi 4 image
is built exactly as before; the Raspberry Pi 5 one names Raspberry Pi's archive, its 2712
kernel and the Pi 5's boot files; the Raspberry Pi 4 one with Raspberry Pi's kernel (for the
DSI touch panel) names the same archive, its v8 kernel and the Pi 4's boot files; an unknown
flavour, an archive that does not answer, a key that is not Raspberry Pi's, an archive
without the kernel are refused in words before anything is built. The archives here are
served on 127.0.0.1 and signed by keys made for the test."""

from __future__ import annotations

import functools
import json
import lzma
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.image import flavours

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "image-build" / "build"
FLAVOURS = ROOT / "image-build" / "flavours"
GOLDEN = ROOT / "tests" / "golden" / "image_pi4_mmdebstrap.json"
RPI_FINGERPRINT = "CF8A1AF502A2AA2D763BAE7E82B129927FA3303E"
APT_HELPER = Path("/usr/lib/apt/apt-helper")
needs_apt = pytest.mark.skipif(not APT_HELPER.exists(), reason="no apt-helper (not Debian)")
needs_gpg = pytest.mark.skipif(shutil.which("gpg") is None or shutil.which("gpgv") is None,
                               reason="no gpg")

PI4_PACKAGES = ("systemd-sysv udev dbus kmod raspi-firmware linux-image-arm64 initramfs-tools "
                "e2fsprogs dosfstools ca-certificates python3 python3-venv libgl1 libegl1 "
                "libgl1-mesa-dri libgles2 libmtdev1 libdrm2 libgbm1 libinput10 "
                "systemd-timesyncd systemd-resolved netbase iproute2 fdisk less openssh-server "
                "sudo overlayroot busybox zstd xserver-xorg-core x11-xserver-utils")
PI4_CONFIG = ["config.txt (append):", "    ",
              "    # Tableside: a Raspberry Pi 4, 64-bit, KMS for the dealer's and the players' "
              "screens.",
              "    arm_64bit=1", "    max_framebuffers=2",
              "    disable_overscan=1", "    enable_uart=1"]


def _build(*args: str, env: dict[str, str] | None = None,
           build: Path = BUILD) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(build), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def _plan(*args: str) -> dict[str, list[str]]:
    """--print-plan's lines, by key; the config.txt block under its own key."""
    proc = _build(*args, "--print-plan")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    plan: dict[str, list[str]] = {}
    lines = proc.stdout.splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("config.txt ("))
    for line in lines[:cut]:
        key, _, value = line.partition(": ")
        plan.setdefault(key, []).append(value)
    plan["config.txt"] = lines[cut:]
    return plan


@pytest.fixture
def stubs(tmp_path: Path) -> Path:
    """Stand-ins for the programs the build runs after its checks, each writing its name to
    calls.log; mmdebstrap also writes its arguments to mmdebstrap.argv and fails, so the
    build stops there."""
    bin_ = tmp_path / "stubs"
    bin_.mkdir()
    log = tmp_path / "calls.log"
    for name in ("dpkg-query", "arch-test", "update-binfmts", "mount", "apt-get"):
        (bin_ / name).write_text(f'#!/bin/sh\necho {name} >> "{log}"\n'
                                 'echo "install ok installed"\n')
    (bin_ / "mmdebstrap").write_text(
        f'#!/bin/sh\necho mmdebstrap >> "{log}"\n'
        f'for a in "$@"; do printf "%s\\0" "$a"; done > "{tmp_path}/mmdebstrap.argv"\nexit 3\n')
    for program in bin_.iterdir():
        program.chmod(0o755)
    return bin_


def _stub_env(stubs: Path) -> dict[str, str]:
    return {"PATH": f"{stubs}:{os.environ['PATH']}"}


def test_pi4_is_the_default_and_its_plan_is_unchanged() -> None:
    plan = _plan()
    assert plan == _plan("--flavour", "pi4") == _plan("--flavour=pi4")
    assert plan["image"] == ["tableside-pi4-arm64.img"]
    assert plan["source"] == ["deb http://deb.debian.org/debian bookworm main non-free-firmware"]
    assert plan["packages"] == [PI4_PACKAGES]
    assert plan["boot kernel"] == ["vmlinuz-<version>"]
    assert plan["boot initramfs"] == ["initrd.img-<version>"]
    assert plan["boot device tree"] == ["bcm2711-rpi-4-b.dtb"]
    assert plan["/etc/tableside/flavour"] == ["pi4"]
    assert plan["memory pages"] == ["4096"]  # Debian's arm64 kernel's
    assert "archive key" not in plan
    assert plan["config.txt"] == PI4_CONFIG


def test_pi4_gives_mmdebstrap_the_same_command_as_before(tmp_path: Path, stubs: Path) -> None:
    """tests/golden/image_pi4_mmdebstrap.json is what the build passed mmdebstrap before
    the flavours (captured from that script under these stubs), HERE and OUT standing for
    image-build/ and the output folder: a deliberate change to the Pi 4's root changes it
    too."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "image-build", tree / "image-build")
    (tree / "image-build" / "wheels").write_text("#!/bin/sh\nexit 0\n")  # no PyPI here
    out = tmp_path / "out"
    proc = _build("--trial", str(out), env=_stub_env(stubs),
                  build=tree / "image-build" / "build")
    assert proc.returncode == 3, proc.stderr  # the stub mmdebstrap's
    argv = (tmp_path / "mmdebstrap.argv").read_text().split("\0")[:-1]
    here = str(tree / "image-build")
    argv = [a.replace(here, "HERE").replace(str(out), "OUT") for a in argv]
    assert argv == json.loads(GOLDEN.read_text())
    assert (out / "etc-tableside" / "flavour").read_text() == "pi4\n"


def test_pi5_plan_names_raspberry_pis_archive_its_2712_kernel_and_the_pi5_boot_files(
        ) -> None:
    plan = _plan("--flavour", "pi5")
    assert plan["image"] == ["tableside-pi5-arm64.img"]
    assert plan["source"] == [
        "deb http://deb.debian.org/debian bookworm main non-free-firmware",
        "deb [signed-by=/usr/share/keyrings/raspberrypi-archive-keyring.gpg] "
        "http://archive.raspberrypi.com/debian bookworm main"]
    assert plan["archive key"] == [RPI_FINGERPRINT]
    packages = plan["packages"][0].split()
    assert "linux-image-rpi-2712" in packages and "linux-image-arm64" not in packages
    assert {"raspi-firmware", "raspberrypi-archive-keyring", "initramfs-tools",
            "overlayroot", "busybox"} <= set(packages)
    # everything else the Pi 4's root has, the Pi 5's has too
    assert set(PI4_PACKAGES.split()) - {"linux-image-arm64"} <= set(packages)
    assert plan["boot kernel"] == ["kernel_2712.img"]
    assert plan["boot initramfs"] == ["initramfs_2712"]
    assert plan["boot device tree"] == ["bcm2712-rpi-5-b.dtb"]
    assert plan["/etc/tableside/flavour"] == ["pi5"]
    assert plan["memory pages"] == ["16384"]  # the 2712 kernel's: image-build/check-pages
    config = [line.strip() for line in plan["config.txt"]]
    assert config[0] == "config.txt (write):"  # Raspberry Pi's raspi-firmware writes none
    settings = [line for line in config[1:] if line and not line.startswith("#")]
    assert settings[:3] == ["[pi5]", "kernel=kernel_2712.img",
                            "initramfs initramfs_2712 followkernel"]
    assert "[all]" in settings and "dtoverlay=vc4-kms-v3d" in settings
    assert "display_auto_detect=1" in settings  # the DSI panel's overlay, when one is there
    assert not any(line.startswith("kernel=vmlinuz") for line in settings)
    # a mirror of the archive, named
    mirror = _plan("--flavour", "pi5", "--rpi-archive", "http://mirror.example/rpi/")
    assert mirror["source"][1].endswith(" http://mirror.example/rpi bookworm main")


def test_pi4_rpi_plan_names_raspberry_pis_archive_its_v8_kernel_and_the_pi4_boot_files(
        ) -> None:
    """A Raspberry Pi 4 with the official 7" DSI touch panel: Raspberry Pi's kernel for the
    Pi 3 and 4 (v8), the names raspi-firmware gives its files, and the panel's overlay loaded
    by the firmware when a panel is connected."""
    plan = _plan("--flavour", "pi4-rpi")
    pi5 = _plan("--flavour", "pi5")
    assert plan["image"] == ["tableside-pi4-rpi-arm64.img"]
    assert plan["source"] == pi5["source"] and plan["archive key"] == [RPI_FINGERPRINT]
    packages = plan["packages"][0].split()
    assert "linux-image-rpi-v8" in packages
    assert not {"linux-image-rpi-2712", "linux-image-arm64"} & set(packages)
    # the rest of the root is the Pi 5's, kernel for kernel
    assert [p for p in packages if p != "linux-image-rpi-v8"] == [
        p for p in pi5["packages"][0].split() if p != "linux-image-rpi-2712"]
    assert plan["boot kernel"] == ["kernel8.img"]
    assert plan["boot initramfs"] == ["initramfs8"]
    assert plan["boot device tree"] == ["bcm2711-rpi-4-b.dtb"]
    assert plan["/etc/tableside/flavour"] == ["pi4-rpi"]
    assert plan["memory pages"] == ["4096"]  # the v8 kernel's
    config = [line.strip() for line in plan["config.txt"]]
    assert config[0] == "config.txt (write):"
    settings = [line for line in config[1:] if line and not line.startswith("#")]
    assert settings[:4] == ["[pi4]", "kernel=kernel8.img", "initramfs initramfs8 followkernel",
                            "arm_64bit=1"]
    assert settings[4] == "[all]"
    assert {"dtoverlay=vc4-kms-v3d", "display_auto_detect=1", "enable_uart=1",
            "max_framebuffers=2"} <= set(settings[5:])
    # its tables take the Pi 4's bundles
    from kiosk.update.bundle import TAKES

    assert TAKES["pi4-rpi"] == "pi4"


def test_an_unknown_flavour_is_refused_in_words(tmp_path: Path, stubs: Path) -> None:
    for args in (["--flavour", "pi3"], ["--flavour=PI5"], ["--flavour"]):
        proc = _build(*args, str(tmp_path / "out"), env=_stub_env(stubs))
        assert proc.returncode == 2, args
        assert "unknown flavour" in proc.stderr and "pi4 pi4-rpi pi5" in proc.stderr, \
            proc.stderr
    proc = _build("--flavour", "pi5", "--rpi-archive", "archive.raspberrypi.com",
                  str(tmp_path / "out"), env=_stub_env(stubs))
    assert proc.returncode == 2 and "an http:// or https:// address" in proc.stderr
    assert not (tmp_path / "calls.log").exists() and not (tmp_path / "out").exists()


@needs_apt
def test_an_archive_that_does_not_answer_stops_the_pi5_build_before_anything_runs(
        tmp_path: Path, stubs: Path) -> None:
    out = tmp_path / "out"
    proc = _build("--trial", "--flavour", "pi5", "--rpi-archive", "http://127.0.0.1:9/",
                  str(out), env=_stub_env(stubs))
    assert proc.returncode == 1, proc.stderr
    assert ("Raspberry Pi's archive cannot be reached: "
            "http://127.0.0.1:9/dists/bookworm/InRelease") in proc.stderr
    assert "Connection refused" in proc.stderr
    assert "build it on a machine that reaches it" in proc.stderr
    assert "--rpi-archive URL" in proc.stderr and "nothing was built" in proc.stderr
    # no tool was installed, no wheel fetched, no root begun
    assert not (tmp_path / "calls.log").exists()
    assert not out.exists()


def test_the_cheap_refusals_come_before_the_archive_is_asked(tmp_path: Path, stubs: Path
                                                           ) -> None:
    """A missing update key is said at once, not after the archive's check; Raspberry Pi's
    archive options given for the pi4 image are said to be ignored."""
    out = tmp_path / "out"
    proc = _build("--flavour", "pi4-rpi", "--rpi-archive", "http://127.0.0.1:9/", str(out),
                  env=_stub_env(stubs))
    assert proc.returncode == 2 and "no update key" in proc.stderr, proc.stderr
    assert "Raspberry Pi's archive" not in proc.stderr
    proc = _build("--rpi-key", str(tmp_path / "k.gpg"), str(out), env=_stub_env(stubs))
    assert proc.returncode == 2 and "no update key" in proc.stderr
    assert ("--rpi-key and --rpi-archive are for the flavours with Raspberry Pi's kernel "
            "(pi4-rpi, pi5); the pi4 image is built from Debian's archive alone: ignored"
            ) in proc.stderr
    assert not (tmp_path / "calls.log").exists() and not out.exists()


# --- an archive on 127.0.0.1, signed by a key made here ----------------------------------------

def _gpg(home: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["gpg", "--batch", "--quiet", *args], input=stdin, check=True,
                          capture_output=True, timeout=60,
                          env={**os.environ, "GNUPGHOME": str(home)}).stdout


@pytest.fixture
def gnupg(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "g"  # short: gpg-agent's socket path has a length limit
    home.mkdir(mode=0o700)
    yield home
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env={**os.environ, "GNUPGHOME": str(home)},
                   capture_output=True, timeout=30)


def _key(home: Path, name: str) -> tuple[Path, str]:
    """A signing key made for the test: its public keyring file and its fingerprint."""
    _gpg(home, "--passphrase", "", "--quick-gen-key", f"{name} <{name}@example.invalid>",
         "ed25519", "sign", "1d")
    listing = _gpg(home, "--with-colons", "--list-keys", name).decode()
    fingerprint = next(line.split(":")[9] for line in listing.splitlines()
                       if line.startswith("fpr:"))
    keyring = home.parent / f"{name}.gpg"
    keyring.write_bytes(_gpg(home, "--export", fingerprint))
    return keyring, fingerprint


def _archive(root: Path, home: Path, signer: str, packages: list[str]) -> None:
    """dists/bookworm: an InRelease signed by signer, and an arm64 index of packages."""
    binary = root / "dists" / "bookworm" / "main" / "binary-arm64"
    binary.mkdir(parents=True)
    stanzas = "".join(f"Package: {p}\nVersion: 1\nArchitecture: arm64\n\n" for p in packages)
    (binary / "Packages.xz").write_bytes(lzma.compress(stanzas.encode()))
    release = "Suite: bookworm\nCodename: bookworm\nArchitectures: arm64\nComponents: main\n"
    (root / "dists" / "bookworm" / "InRelease").write_bytes(
        _gpg(home, "--local-user", signer, "--clearsign", stdin=release.encode()))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served over HTTP on 127.0.0.1, and its address."""
    root = tmp_path / "archive"
    root.mkdir()

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@needs_apt
@needs_gpg
def test_a_key_that_is_not_raspberry_pis_is_refused_by_its_fingerprint(
        tmp_path: Path, stubs: Path, gnupg: Path, served: tuple[Path, str]) -> None:
    root, url = served
    keyring, fingerprint = _key(gnupg, "other")
    _archive(root, gnupg, "other", ["linux-image-rpi-2712", "raspi-firmware",
                                    "raspberrypi-archive-keyring"])
    out = tmp_path / "out"
    proc = _build("--trial", "--flavour", "pi5", "--rpi-archive", url, "--rpi-key", str(keyring),
                  str(out), env=_stub_env(stubs))
    assert proc.returncode == 1, proc.stderr
    assert (f"is not Raspberry Pi's archive key: its fingerprint is {fingerprint}, "
            f"Raspberry Pi's is {RPI_FINGERPRINT}") in proc.stderr
    assert not (tmp_path / "calls.log").exists() and not out.exists()
    # and with no key at all: where to get one
    if not Path("/usr/share/keyrings/raspberrypi-archive-keyring.gpg").exists():
        proc = _build("--trial", "--flavour", "pi5", "--rpi-archive", url, str(out),
                      env=_stub_env(stubs))
        assert proc.returncode == 1
        assert "no key for Raspberry Pi's archive: give it with --rpi-key FILE" in proc.stderr
        assert RPI_FINGERPRINT in proc.stderr
        assert not (tmp_path / "calls.log").exists() and not out.exists()


def _check(url: str, key: Path, fingerprint: str, flavour: str = "pi5"
           ) -> subprocess.CompletedProcess[str]:
    """A flavour's flavour_check as the build runs it, but trusting fingerprint for the
    test's archive; it prints the sources and hooks it gives mmdebstrap."""
    script = f"""set -euo pipefail
here={ROOT / "image-build"}; mirror=http://deb.debian.org/debian; suite=bookworm
rpi_archive={url}; rpi_key={key}; flavour={flavour}
say() {{ printf 'image-build: %s\\n' "$*" >&2; }}
source "$here/flavours/{flavour}.sh"
rpi_fingerprint={fingerprint}
flavour_check
printf 'source: %s\\n' "${{sources[@]}}"
printf 'hook: %s\\n' "${{flavour_hooks[@]}}"
"""
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)


@needs_apt
@needs_gpg
@pytest.mark.parametrize(("flavour", "kernel", "other"), [("pi5", "2712", "v8"),
                                                          ("pi4-rpi", "v8", "2712")])
def test_the_rpi_check_passes_a_signed_archive_with_the_kernel_and_refuses_what_is_not(
        gnupg: Path, served: tuple[Path, str], flavour: str, kernel: str, other: str) -> None:
    root, url = served
    keyring, fingerprint = _key(gnupg, "archive")
    _, _ = _key(gnupg, "stranger")
    needed = [f"linux-image-rpi-{kernel}", "raspi-firmware", "raspberrypi-archive-keyring"]
    _archive(root, gnupg, "archive", [*needed, f"linux-image-rpi-{other}"])
    proc = _check(url, keyring, fingerprint, flavour)
    assert proc.returncode == 0, proc.stderr
    assert f"image-build: {flavour}: Raspberry Pi's archive answers, signed by {fingerprint}, " \
        f"with {' '.join(needed)}" in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "source: deb http://deb.debian.org/debian bookworm main non-free-firmware"
    # the build's apt reads the key checked here (the image's sources name the package's)
    assert lines[1].startswith("source: deb [signed-by=/") and lines[1].endswith(
        f"/keyring.gpg] {url.rstrip('/')} bookworm main")
    assert lines[2].startswith("hook: --customize-hook=") and "rpi-customize" in lines[2]
    assert lines[2].endswith(f"/keyring.gpg\" {kernel}")  # the hook is told which kernel

    shutil.rmtree(root / "dists")  # the flavour's kernel is not in this one
    _archive(root, gnupg, "archive", ["raspi-firmware", "raspberrypi-archive-keyring",
                                      f"linux-image-rpi-{other}"])
    proc = _check(url, keyring, fingerprint, flavour)
    assert proc.returncode == 1
    assert f"bookworm main (arm64) lacks linux-image-rpi-{kernel}" in proc.stderr

    shutil.rmtree(root / "dists")  # signed by another key than the one given
    _archive(root, gnupg, "stranger", needed)
    proc = _check(url, keyring, fingerprint, flavour)
    assert proc.returncode == 1
    assert "dists/bookworm/InRelease is not signed by Raspberry Pi's key" in proc.stderr


CUSTOMIZE = FLAVOURS / "rpi-customize"


def _rpi_root(tmp_path: Path, version: str, dtbs: tuple[str, ...], overlays: tuple[str, ...]
              ) -> tuple[Path, Path, Path]:
    """A root laid out as Raspberry Pi's kernel package and raspi-firmware lay it out
    (/boot/vmlinuz-<v>, /usr/lib/linux-image-<v>/broadcom and overlays,
    /usr/lib/raspi-firmware), with the build's apt source naming the verified key: the root,
    its lib folder, the key."""
    root = tmp_path / "root"
    lib = root / "usr" / "lib" / f"linux-image-{version}"
    (lib / "broadcom").mkdir(parents=True)
    (lib / "overlays").mkdir()
    (root / "usr" / "lib" / "raspi-firmware").mkdir()
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "etc" / "apt").mkdir(parents=True)
    (root / "boot" / f"vmlinuz-{version}").write_bytes(b"kernel")
    (root / "boot" / f"initrd.img-{version}").write_bytes(b"initramfs")
    for dtb in dtbs:
        (lib / "broadcom" / dtb).write_bytes(dtb.encode())
    for overlay in overlays:
        (lib / "overlays" / overlay).write_bytes(b"overlay")
    keyring = tmp_path / "work" / "keyring.gpg"
    keyring.parent.mkdir()
    keyring.write_bytes(b"key")
    (root / "etc" / "apt" / "sources.list").write_text(
        "deb http://deb.debian.org/debian bookworm main non-free-firmware\n"
        f"deb [signed-by={keyring}] http://archive.raspberrypi.com/debian bookworm main\n")
    return root, lib, keyring


def _customize(root: Path, keyring: Path, kernel: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CUSTOMIZE), str(root), str(keyring), kernel],
                          capture_output=True, text=True, timeout=60)


def _refused_without(root: Path, keyring: Path, kernel: str, *gone: Path) -> str:
    """rpi-customize run again once `gone` are removed (from the kernel's folders and the
    boot partition): it refuses, and this is what it said."""
    for path in gone:
        path.unlink()
    proc = _customize(root, keyring, kernel)
    assert proc.returncode == 1, proc.stderr
    return proc.stderr


def _image_trusts_the_keyring_package(root: Path) -> None:
    assert ("deb [signed-by=/usr/share/keyrings/raspberrypi-archive-keyring.gpg] "
            "http://archive.raspberrypi.com/debian bookworm main") in (
        root / "etc" / "apt" / "sources.list").read_text()
    # the keyring package's key absent, the verified one is put in its place
    assert (root / "usr/share/keyrings/raspberrypi-archive-keyring.gpg").read_bytes() == b"key"


def test_rpi_customize_puts_the_pi5_boot_files_on_the_boot_partition(tmp_path: Path) -> None:
    root, lib, keyring = _rpi_root(
        tmp_path, "6.6.74+rpt-rpi-2712",
        ("bcm2712-rpi-5-b.dtb", "bcm2712d0-rpi-5-b.dtb", "bcm2712-rpi-cm5-cm5io.dtb",
         "bcm2711-rpi-4-b.dtb"), ("vc4-kms-v3d-pi5.dtbo", "overlay_map.dtb"))
    proc = _customize(root, keyring, "2712")
    assert proc.returncode == 0, proc.stderr
    firmware = root / "boot" / "firmware"
    assert (firmware / "kernel_2712.img").read_bytes() == b"kernel"
    assert (firmware / "initramfs_2712").read_bytes() == b"initramfs"
    assert (firmware / "bcm2712-rpi-5-b.dtb").exists()
    assert (firmware / "bcm2712d0-rpi-5-b.dtb").exists()  # the D0 stepping's board
    assert not (firmware / "bcm2711-rpi-4-b.dtb").exists()  # another board's
    assert (firmware / "overlays" / "vc4-kms-v3d-pi5.dtbo").exists()
    _image_trusts_the_keyring_package(root)
    assert "WARNING: Mesa (none) predates the Pi 5's GPU" in proc.stderr

    # without the firmware's overlay map vc4-kms-v3d would be another board's: refused
    said = _refused_without(root, keyring, "2712", lib / "overlays" / "overlay_map.dtb",
                            firmware / "overlays" / "overlay_map.dtb")
    assert "the boot partition has no overlays/overlay_map.dtb" in said
    (lib / "overlays" / "overlay_map.dtb").write_bytes(b"map")

    said = _refused_without(root, keyring, "2712", lib / "broadcom" / "bcm2712-rpi-5-b.dtb",
                            firmware / "bcm2712-rpi-5-b.dtb")
    assert "image-build: pi5: the boot partition has no bcm2712-rpi-5-b.dtb" in said

    (root / "boot" / "vmlinuz-6.6.80+rpt-rpi-2712").write_bytes(b"another")
    proc = _customize(root, keyring, "2712")
    assert proc.returncode == 1 and "one rpi-2712 kernel expected" in proc.stderr


def test_rpi_customize_puts_the_pi4_boot_files_and_firmware_on_the_boot_partition(
        tmp_path: Path) -> None:
    """pi4-rpi: kernel8.img and initramfs8 (raspi-firmware's names for a v8 kernel), the
    Pi 4's device trees, the overlays with the DSI panel's, and the Pi 4's firmware, which
    its bootloader loads from the card (the Pi 5's is in its EEPROM)."""
    root, lib, keyring = _rpi_root(
        tmp_path, "6.6.74+rpt-rpi-v8",
        ("bcm2711-rpi-4-b.dtb", "bcm2711-rpi-400.dtb", "bcm2711-rpi-cm4.dtb",
         "bcm2712-rpi-5-b.dtb"),
        ("vc4-kms-v3d-pi4.dtbo", "vc4-kms-dsi-7inch.dtbo", "overlay_map.dtb"))
    firmware = root / "boot" / "firmware"
    raspi_firmware = root / "usr" / "lib" / "raspi-firmware"
    (raspi_firmware / "start4.elf").write_bytes(b"start4")
    (raspi_firmware / "fixup4.dat").write_bytes(b"fixup4")
    proc = _customize(root, keyring, "v8")
    assert proc.returncode == 0, proc.stderr
    assert (firmware / "kernel8.img").read_bytes() == b"kernel"
    assert (firmware / "initramfs8").read_bytes() == b"initramfs"
    assert {p.name for p in firmware.glob("*.dtb")} == {
        "bcm2711-rpi-4-b.dtb", "bcm2711-rpi-400.dtb", "bcm2711-rpi-cm4.dtb"}
    assert {p.name for p in (firmware / "overlays").iterdir()} == {
        "vc4-kms-v3d-pi4.dtbo", "vc4-kms-dsi-7inch.dtbo", "overlay_map.dtb"}
    assert (firmware / "start4.elf").read_bytes() == b"start4"
    assert (firmware / "fixup4.dat").read_bytes() == b"fixup4"
    _image_trusts_the_keyring_package(root)
    assert "image-build: pi4-rpi: boot partition: kernel8.img and initramfs8 of " \
        "6.6.74+rpt-rpi-v8" in proc.stderr
    assert "Mesa" not in proc.stderr  # the Pi 4's GPU is Debian 12's Mesa's

    # a board the card is for without its device tree: refused
    said = _refused_without(root, keyring, "v8", lib / "broadcom" / "bcm2711-rpi-cm4.dtb",
                            firmware / "bcm2711-rpi-cm4.dtb")
    assert "image-build: pi4-rpi: the boot partition has no bcm2711-rpi-cm4.dtb" in said
    (lib / "broadcom" / "bcm2711-rpi-cm4.dtb").write_bytes(b"cm4")
    # no device tree at all
    broadcom = lib / "broadcom"
    broadcom.rename(lib / "elsewhere")
    proc = _customize(root, keyring, "v8")
    assert proc.returncode == 1 and "the kernel has no bcm2711 device trees" in proc.stderr
    (lib / "elsewhere").rename(broadcom)

    # the Pi 4's firmware nowhere: the card would not start
    said = _refused_without(root, keyring, "v8", *(folder / name
                                                   for folder in (raspi_firmware, firmware)
                                                   for name in ("start4.elf", "fixup4.dat")))
    assert "image-build: pi4-rpi: the boot partition has no start4.elf" in said
    # a kernel neither flavour uses
    proc = _customize(root, keyring, "v7")
    assert proc.returncode == 2 and "unknown kernel v7 (2712 or v8)" in proc.stderr


def test_the_flavour_files_parse_and_the_hook_is_executable() -> None:
    for flavour in sorted(FLAVOURS.glob("*.sh")):
        assert subprocess.run(["bash", "-n", str(flavour)]).returncode == 0, flavour.name
    assert subprocess.run(["bash", "-n", str(FLAVOURS / "raspberrypi-archive")]).returncode == 0
    assert subprocess.run(["sh", "-n", str(CUSTOMIZE)]).returncode == 0
    assert os.access(CUSTOMIZE, os.X_OK)
    assert flavours.names() == ["pi4", "pi4-rpi", "pi5"]


def test_a_tables_image_needs_the_casinos_update_key(tmp_path: Path, stubs: Path) -> None:
    """Without --update-key the build refuses (a throwaway key would sit beside the image);
    --trial makes one, and the image says TRIAL UPDATE KEY; the casino's key goes in as
    given."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "image-build", tree / "image-build")
    (tree / "image-build" / "wheels").write_text("#!/bin/sh\nexit 0\n")  # no PyPI here
    build = tree / "image-build" / "build"
    out = tmp_path / "out"
    refused = _build(str(out), env=_stub_env(stubs), build=build)
    assert refused.returncode == 2 and not out.exists()
    assert "no update key: a table's image trusts the casino's update key, --update-key FILE" \
        in refused.stderr and "nothing was built" in refused.stderr
    both = _build("--trial", "--update-key", str(tmp_path / "k"), str(out),
                  env=_stub_env(stubs), build=build)
    assert both.returncode == 2 and "give one" in both.stderr
    junk = tmp_path / "junk.pub"
    junk.write_text("not a key\n")
    bad = _build("--update-key", str(junk), str(out), env=_stub_env(stubs), build=build)
    assert bad.returncode == 2 and "no public key (64 hex digits a line)" in bad.stderr
    if shutil.which("openssl"):
        trial = _build("--trial", str(out), env=_stub_env(stubs), build=build)
        assert trial.returncode == 3, trial.stderr  # on to the stub mmdebstrap
        keys = (out / "etc-tableside" / "update-keys").read_text().splitlines()
        assert keys[0].startswith("# TRIAL UPDATE KEY: made by image-build/build --trial")
        assert len(keys[-1]) == 64 and (out / "update-signing.pem").exists()
    casino = tmp_path / "casino.pub"
    casino.write_text("ab" * 32 + "\n")
    given = _build("--update-key", str(casino), str(out), env=_stub_env(stubs), build=build)
    assert given.returncode == 3, given.stderr
    assert (out / "etc-tableside" / "update-keys").read_text() == "ab" * 32 + "\n"
    assert not (out / "update-signing.pem").exists()
