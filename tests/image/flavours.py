"""An image flavour's settings as image-build/build reads them: the flavour's file sourced
the way the build sources it (image-build/flavours/NAME.sh, with what the build sets
first), and its variables read back."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLAVOURS = ROOT / "image-build" / "flavours"
SETTINGS = ("flavour_title", "image_name", "packages", "rpi_packages", "boot_kernel",
            "boot_initramfs", "boot_dtb", "config_txt_mode", "config_txt", "serial_console",
            "required_overlays")


def names() -> list[str]:
    """The flavours the build offers: image-build/flavours/*.sh."""
    return sorted(f.stem for f in FLAVOURS.glob("*.sh"))


def settings(flavour: str) -> dict[str, list[str]]:
    """Each of SETTINGS as the flavour sets it: an array's items, or a plain variable's one
    value (config.txt's lines for config_txt); a variable it leaves unset is absent."""
    script = f"""set -euo pipefail
here={ROOT / "image-build"}; flavour={flavour}
mirror=http://deb.debian.org/debian; suite=bookworm
rpi_archive=http://archive.raspberrypi.com/debian; rpi_key=
source "$here/flavours/{flavour}.sh"
for name in {' '.join(SETTINGS)}; do
  declare -p "$name" >/dev/null 2>&1 || continue
  eval 'value=("${{'"$name"'[@]}}")'
  printf '%s\\0' "$name" "${{#value[@]}}" "${{value[@]}}"
done
"""
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          check=True)
    fields = proc.stdout.split("\0")[:-1]
    found: dict[str, list[str]] = {}
    while fields:
        name, count = fields[0], int(fields[1])
        found[name] = fields[2:2 + count]
        fields = fields[2 + count:]
    if "config_txt" in found:
        found["config_txt"] = found["config_txt"][0].splitlines()
    return found
