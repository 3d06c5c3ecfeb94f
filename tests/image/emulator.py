"""The SD image booted in qemu-system-aarch64 (machine `virt`), for the boot test
(tests/image/test_boot.py) and the bench (bench/image.py). Emulation, not a Pi: the kernel
and initramfs are the image's own, booted directly (`-kernel`, `-initrd`) with the command
line of the image's cmdline.txt plus the emulator's serial console; the card is a copy of the
image as a virtio disk; a virtio GPU stands in for the dealer's HDMI screen (KMS).

The copy differs from the image in these ways, all said here:
- a `table.toml` on its boot partition (as a technician puts one);
- a test agent in its root (a unit and a shell script reading commands from a virtio serial
  port and answering on it), so the test can ask the running table what it does;
- `DROPINS` for the two screens' units: the emulated CPU is 10 to 20 times slower than a
  Pi 4's, so their watchdog waits 300 s instead of 10 s (Kivy's first window takes longer
  than 10 s to open here), and a start may take 900 s, not 120 s (on a loaded machine the
  dealer app's restart after the display server died took over 60 s, so systemd cut each
  start short and restarted it for ever);
- the kernel's command line forces the GPU's second output on (`video=Virtual-2:...e`):
  QEMU connects a virtio GPU's second output only when a display window asks for it, and
  here there is none; on a table the screen plugged in does that.
The screens are as on a Pi: one virtio GPU (one DRM device) with two outputs, the dealer's
800x480 its preferred mode and the players' 1920x1080, both driven by the image's one
display server (tableside-display.service), each app's window on its own output. (A black
dealer screen seen here at first was not the emulation's: SDL's KMS/DRM driver lost the
first frame, and Kivy did not draw a still screen again; kiosk/ui/perf_present.keep_drawn.)
The QEMU monitor (a unix socket) takes `screendump`, `system_reset` and `info status`; the
serial console goes to a file.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

IMAGE = "tableside-pi4-arm64.img"
IPXE = "/usr/lib/ipxe/qemu"
"""Where ipxe-qemu puts the option ROMs QEMU's virtio devices load (efi-virtio.rom)."""
BOARD = "linux,dummy-virt"
"""The device tree's model under QEMU's virt machine (what an update bundle's target must
name to be installed in the emulator)."""

AGENT = r"""#!/bin/sh
# The emulator test's agent (tests/image/emulator.py): not in the SD image, only in the
# emulator's copy of the card. Reads '<id> <base64 command>' lines from a virtio serial port,
# runs each with sh as root, answers '<id> <exit status> <base64 output>'.
port=/dev/virtio-ports/tableside.agent
while [ ! -e "$port" ]; do sleep 1; done
exec 3<>"$port"
echo "hello $(cat /proc/sys/kernel/random/boot_id) $(cut -d' ' -f1 /proc/uptime)" >&3
while read -r id cmd <&3; do
  out=$(printf '%s' "$cmd" | base64 -d | timeout 1500 sh 2>&1)
  rc=$?
  printf '%s %s %s\n' "$id" "$rc" "$(printf '%s' "$out" | base64 -w0)" >&3
done
"""

DROPINS = {
    "tableside-dealer.service": "[Service]\nWatchdogSec=300s\nTimeoutStartSec=900s\n",
    "tableside-signage.service": "[Service]\nWatchdogSec=300s\nTimeoutStartSec=900s\n",
}
GPU = "screens"
"""The virtio GPU's id; `screendump FILE screens HEAD` takes one output's picture."""
SCREENS = (0, 1)
"""The dealer's output and the players' (the GPU's heads: Virtual-1, Virtual-2)."""

AGENT_UNIT = """[Unit]
Description=Emulator test agent (tests/image/emulator.py; not in the SD image)
After=basic.target

[Service]
ExecStart=/usr/local/sbin/tableside-test-agent
Restart=always
RestartSec=1s

[Install]
WantedBy=multi-user.target
"""


def _run(*args: str, timeout: float = 600) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout


@dataclass(frozen=True)
class Frame:
    """A screendump: width, height and RGB bytes (PPM P6)."""

    width: int
    height: int
    rgb: bytes

    @classmethod
    def read(cls, path: Path) -> Frame:
        data = path.read_bytes()
        fields: list[bytes] = []
        at = 0
        while len(fields) < 4:  # P6, width, height, maxval; '#' comments skipped
            while data[at:at + 1].isspace():
                at += 1
            if data[at:at + 1] == b"#":
                at = data.index(b"\n", at) + 1
                continue
            end = at
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[at:end])
            at = end
        if fields[0] != b"P6" or fields[3] != b"255":
            raise ValueError(f"{path}: not a binary PPM with 8-bit channels")
        w, h = int(fields[1]), int(fields[2])
        return cls(w, h, data[at + 1:at + 1 + 3 * w * h])

    def share_near(self, colours: list[tuple[int, int, int]], within: int = 24,
                   step: int = 7) -> float:
        """The share of pixels (sampled every `step`th) within `within` of any colour."""
        near = total = 0
        rgb = self.rgb
        for i in range(0, len(rgb) - 2, 3 * step):
            r, g, b = rgb[i], rgb[i + 1], rgb[i + 2]
            total += 1
            if any(abs(r - cr) <= within and abs(g - cg) <= within and abs(b - cb) <= within
                   for cr, cg, cb in colours):
                near += 1
        return near / max(total, 1)

    def colours(self, step: int = 7) -> int:
        return len({self.rgb[i:i + 3] for i in range(0, len(self.rgb) - 2, 3 * step)})


class Emulator:
    """One emulated table: `prepare`, `start`, then the monitor, the agent and the serial
    console; `stop` ends QEMU."""

    def __init__(self, out: Path, work: Path, memory_mb: int = 2048, cpus: int = 2,
                 screens: tuple[tuple[int, int], tuple[int, int]] = ((800, 480), (1920, 1080))
                 ) -> None:
        """`screens`: the dealer's and the players' screens' preferred modes (the table's
        [display] sizes: the official 7" touchscreen is 800x480)."""
        self.out, self.work = out, work
        self.screens = screens
        self.memory_mb, self.cpus = memory_mb, cpus
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self._agent: socket.socket | None = None
        self._pending = b""
        self._next = 0
        self.share = work / "share"
        self.ssh_port = 0  # set before start: the host's port forwarded to the guest's 22

    # --- the card -----------------------------------------------------------------------

    def prepare(self, table_toml: str, dropins: dict[str, str] | None = None,
                boot_files: dict[str, str] | None = None) -> None:
        """The copy of the card: the image with `table.toml` (and `boot_files`, like
        table.credential or technicians.pub) on its boot partition and the agent in its root;
        the kernel and initramfs beside it."""
        if self.work.exists():
            shutil.rmtree(self.work)
        self.work.mkdir(parents=True)
        self.share.mkdir()
        boot, root = self.work / "boot.img", self.work / "root.img"
        shutil.copyfile(self.out / "boot.img", boot)
        names = _run("mdir", "-b", "-i", str(boot), "::/").split()
        self.kernel = self.work / "vmlinuz"
        self.initrd = self.work / "initrd.img"
        for prefix, dest in (("vmlinuz", self.kernel), ("initrd.img", self.initrd)):
            found = [n for n in names if Path(n).name.lower().startswith(prefix)]
            _run("mcopy", "-n", "-i", str(boot), f"::/{Path(found[0]).name}", str(dest))
        self.cmdline = _run("mtype", "-i", str(boot), "::/cmdline.txt").strip()
        (self.work / "table.toml").write_text(table_toml)
        _run("mcopy", "-i", str(boot), str(self.work / "table.toml"), "::/table.toml")
        for name, text in (boot_files or {}).items():
            (self.work / name).write_text(text)
            _run("mcopy", "-i", str(boot), str(self.work / name), f"::/{name}")
        _run("cp", "--sparse=always", str(self.out / "root.img"), str(root))
        (self.work / "agent").write_text(AGENT)
        (self.work / "agent.service").write_text(AGENT_UNIT)
        cmds = [f"write {self.work / 'agent'} /usr/local/sbin/tableside-test-agent",
                "sif /usr/local/sbin/tableside-test-agent mode 0100755",
                f"write {self.work / 'agent.service'} "
                "/etc/systemd/system/tableside-test-agent.service",
                "symlink /etc/systemd/system/multi-user.target.wants/tableside-test-agent."
                "service /etc/systemd/system/tableside-test-agent.service"]
        for unit, text in (DROPINS if dropins is None else dropins).items():
            conf = self.work / f"{unit}.conf"
            conf.write_text(text)
            cmds += [f"mkdir /etc/systemd/system/{unit}.d",
                     f"write {conf} /etc/systemd/system/{unit}.d/emulator.conf"]
        (self.work / "debugfs.cmds").write_text("\n".join(cmds) + "\n")
        _run("debugfs", "-w", "-f", str(self.work / "debugfs.cmds"), str(root))
        disk = self.work / "disk.img"
        _run("cp", "--sparse=always", str(self.out / IMAGE), str(disk))
        starts = [int(m) for m in re.findall(r"start=\s*(\d+)",
                                             _run("sfdisk", "--dump", str(disk)))]
        for part, start in ((boot, starts[0]), (root, starts[1])):
            _run("dd", f"if={part}", f"of={disk}", "bs=4M", f"seek={start * 512}",
                 "oflag=seek_bytes", "conv=notrunc,sparse", "status=none")
        boot.unlink()
        root.unlink()

    # --- running ------------------------------------------------------------------------

    def start(self) -> None:
        w = self.work
        for sock in ("monitor.sock", "agent.sock"):
            with contextlib.suppress(FileNotFoundError):
                (w / sock).unlink()
        # The virtio NIC's option ROM is ipxe-qemu's; Debian's qemu-system-data links it into
        # /usr/share/qemu only when installed with its recommends.
        roms = ["-L", IPXE] if Path(IPXE, "efi-virtio.rom").exists() else []
        args = ["qemu-system-aarch64", *roms, "-M", "virt", "-cpu", "cortex-a72",
                "-smp", str(self.cpus), "-m", str(self.memory_mb),
                "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                "-append", f"{self.cmdline} console=ttyAMA0 "
                           f"video=Virtual-2:{self.screens[1][0]}x{self.screens[1][1]}e",
                "-drive", f"file={w / 'disk.img'},format=raw,if=none,id=card",
                "-device", "virtio-blk-pci,drive=card",
                "-device", f"virtio-gpu-pci,id={GPU},max_outputs=2,"
                           f"xres={self.screens[0][0]},yres={self.screens[0][1]}",
                "-display", "none",
                "-device", "virtio-rng-pci",
                # qemu's user network: the guest reaches the host's loopback at 10.0.2.2 (a
                # pit, a time server), and the host the guest's SSH at 127.0.0.1:ssh_port
                "-netdev", "user,id=net" + (f",hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22"
                                            if self.ssh_port else ""),
                "-device", "virtio-net-pci,netdev=net",
                "-chardev", f"file,id=serial,path={w / 'serial.log'}",
                "-serial", "chardev:serial",
                "-monitor", f"unix:{w / 'monitor.sock'},server=on,wait=off",
                "-chardev", f"socket,id=agent,path={w / 'agent.sock'},server=on,wait=off",
                "-device", "virtio-serial-pci",
                "-device", "virtserialport,chardev=agent,name=tableside.agent",
                "-virtfs", f"local,path={self.share},mount_tag=hostshare,"
                           "security_model=none,readonly=on"]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(args, stdout=open(w / "qemu.out", "wb"),  # noqa: SIM115
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not (w / "agent.sock").exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"QEMU did not start: {(w / 'qemu.out').read_text()}")
            time.sleep(0.1)
        self._agent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._agent.connect(str(w / "agent.sock"))

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def stop(self) -> None:
        if self._agent is not None:
            self._agent.close()
            self._agent = None
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(Exception):
                self.monitor("quit", timeout=10)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def serial(self) -> str:
        try:
            return (self.work / "serial.log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    # --- the monitor --------------------------------------------------------------------

    def monitor(self, command: str, timeout: float = 60) -> str:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as mon:
            mon.settimeout(timeout)
            mon.connect(str(self.work / "monitor.sock"))
            got = b""
            while not got.endswith(b"(qemu) "):
                got += mon.recv(4096)
            mon.sendall(command.encode() + b"\n")
            said = b""
            if command == "quit":
                with contextlib.suppress(OSError):
                    said = mon.recv(4096)
                return said.decode(errors="replace")
            while not said.endswith(b"(qemu) "):
                chunk = mon.recv(4096)
                if not chunk:
                    break
                said += chunk
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", said.decode(errors="replace"))
        lines = [ln for ln in text.replace("\r", "").splitlines()
                 if ln.strip() and not ln.startswith("(qemu)") and ln.strip() != command]
        return "\n".join(lines)

    def screendump(self, path: Path, screen: int = SCREENS[0]) -> Frame:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        said = self.monitor(f"screendump {path} {GPU} {screen}")
        if not path.exists():
            raise RuntimeError(f"screendump made no file: {said}")
        return Frame.read(path)

    # --- the agent ----------------------------------------------------------------------

    def _line(self, timeout: float) -> str:
        assert self._agent is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the agent said nothing in {timeout:g} s")
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError("QEMU has stopped")
            self._agent.settimeout(min(left, 5.0))
            try:
                chunk = self._agent.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise RuntimeError("the agent's socket closed")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(errors="replace").strip()

    def wait_agent(self, timeout: float) -> tuple[str, float]:
        """The next boot's agent greeting: its boot id and the guest's uptime then."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._line(max(deadline - time.monotonic(), 0.1))
            if line.startswith("hello "):
                _, boot_id, uptime = line.split()
                return boot_id, float(uptime)

    def sh(self, command: str, timeout: float = 300) -> tuple[int, str]:
        """Run `command` with sh as root in the guest: its exit status and output."""
        assert self._agent is not None
        self._next += 1
        ident = str(self._next)
        self._agent.sendall(f"{ident} {base64.b64encode(command.encode()).decode()}\n"
                            .encode())
        deadline = time.monotonic() + timeout
        while True:
            line = self._line(max(deadline - time.monotonic(), 0.1))
            parts = line.split(" ", 2)
            if parts[0] == ident and len(parts) >= 2:
                out = base64.b64decode(parts[2]).decode(errors="replace") if len(parts) == 3 \
                    else ""
                return int(parts[1]), out

    def check(self, command: str, timeout: float = 300) -> str:
        rc, out = self.sh(command, timeout)
        if rc != 0:
            raise AssertionError(f"in the emulator, {command!r} exited {rc}: {out}")
        return out


def qemu_available() -> bool:
    return shutil.which("qemu-system-aarch64") is not None and os.access("/dev/null", os.W_OK)
