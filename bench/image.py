"""Benchmark: the SD image, printed (figures only, no pass/fail).

    .venv/bin/python bench/image.py [OUT] [--build] [--no-boot]    (as root; OUT: build/image)

- the build's times (wheels, root filesystem under qemu-user, assembly) and the image's size
  raw and compressed; with --build it runs image-build/build --trial OUT and times each of its
  steps from the lines it prints (kept in OUT/figures.json for later runs);
- a boot of the image in qemu-system-aarch64 (machine virt, TCG: an emulated Cortex-A72 on
  this machine's x86 cores): from QEMU's start to the test agent
  (systemd's multi-user units starting), to the dealer app's READY=1 to systemd, and to the
  first screendump showing the dealer screen. Emulation, not a Pi: no Pi is available here,
  and an emulated CPU is many times slower than a Pi 4's;
- what the boot test (tests/image/test_boot.py) measured last, if it ran (an update's
  install and rollback, a reboot after `system_reset`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.image.emulator

from kiosk.config import example
from tests.image.emulator import IMAGE, Emulator, qemu_available

FELT = [(0x0B, 0x5D, 0x3B), (0x07, 0x40, 0x2A), (0x12, 0x78, 0x4D)]  # kiosk/ui/theme.py


STEPS = {"wheels for aarch64": "wheels_s", "root filesystem": "rootfs_s",
         "assembling the image": "assembly_s"}
"""image-build/build's own words at the start of each step, and the figure each times."""


def build(out: Path) -> None:
    """Run image-build/build OUT, timing each step from the line that starts it."""
    top = Path(__file__).resolve().parents[1]
    started = time.monotonic()
    marks: list[tuple[str, float]] = []
    # --trial: a throwaway update key (the boot test signs its updates with it)
    with subprocess.Popen([str(top / "image-build" / "build"), "--trial", str(out)], text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            for words, key in STEPS.items():
                if line.startswith(f"image-build: {words}"):
                    marks.append((key, time.monotonic()))
    if proc.returncode != 0:
        sys.exit(f"bench/image.py: image-build/build exited {proc.returncode}")
    ended = time.monotonic()
    fig: dict[str, object] = {"cores": os.cpu_count(), "date": time.strftime("%Y-%m-%d"),
                              "total_s": round(ended - started)}
    for (key, at), (_, until) in zip(marks, [*marks[1:], ("end", ended)], strict=True):
        fig[key] = round(until - at)
    (out / "figures.json").write_text(json.dumps(fig, indent=1) + "\n")


def build_figures(out: Path) -> None:
    print(f"image: {out / IMAGE}")
    try:
        fig = json.loads((out / "figures.json").read_text())
    except (OSError, ValueError):
        fig = {}
        print("  build times: not recorded for this build (bench/image.py --build runs the "
              "build and records them in OUT/figures.json)")
    if fig:
        print(f"  build on {fig.get('cores', '?')} cores, arm64 under qemu-user: wheels "
              f"{fig.get('wheels_s', '?')} s, root filesystem {fig.get('rootfs_s', '?')} s, "
              f"assembly {fig.get('assembly_s', '?')} s, total {fig.get('total_s', '?')} s "
              f"({fig.get('date', '?')})")
    raw = (out / IMAGE).stat().st_size
    xz = out / f"{IMAGE}.xz"
    print(f"  size: {raw / 1e6:,.0f} MB raw, "
          + (f"{xz.stat().st_size / 1e6:,.0f} MB xz" if xz.exists() else "no .xz"))


def boot(out: Path) -> None:
    print("boot in qemu-system-aarch64 -M virt (TCG emulation on "
          f"{os.cpu_count()} x86 cores; not a Pi: none is available here)")
    emu = Emulator(out, out / "bench-boot")
    config = example().replace('journal = "data/PB-01.db"', 'journal = "journal/PB-01.db"')
    emu.prepare(config)
    emu.start()
    marks: dict[str, float] = {}
    try:
        deadline = time.monotonic() + 1200
        emu.wait_agent(1200)
        marks["agent"] = emu.elapsed()
        while time.monotonic() < deadline and ("ready" not in marks or "frame" not in marks):
            if "ready" not in marks:
                state = emu.sh("systemctl show -p ActiveState,SubState --value "
                               "tableside-dealer")[1].split()
                if state == ["active", "running"]:
                    marks["ready"] = emu.elapsed()
            if "frame" not in marks:
                frame = emu.screendump(emu.work / "bench.ppm")
                if frame.share_near(FELT) > 0.2:
                    marks["frame"] = emu.elapsed()
            time.sleep(1)
    finally:
        emu.stop()
    words = {"agent": "systemd's units running (agent)",
             "ready": "dealer app READY=1", "frame": "first dealer frame on the screen"}
    for key, said in words.items():
        print(f"  {said:<36} " + (f"{marks[key]:6.1f} s" if key in marks else "not seen"))


def last_test(out: Path) -> None:
    try:
        fig = json.loads((out / "boot-test" / "figures.json").read_text())
    except (OSError, ValueError):
        return
    print("the boot test's last run (emulation):")
    for key, value in fig.items():
        print(f"  {key}: {value}")


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    out = Path(args[0] if args else "build/image")
    if "--build" in argv:
        build(out)
    if not (out / IMAGE).exists():
        sys.exit(f"bench/image.py: no image in {out}: run image-build/build first")
    build_figures(out)
    if "--no-boot" not in argv:
        if qemu_available():
            boot(out)
        else:
            print("boot: qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)")
    last_test(out)


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main(sys.argv[1:])
