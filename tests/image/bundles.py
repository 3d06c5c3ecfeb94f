"""Fake Tableside wheels for the update tests: a real wheel (zip, dist-info, RECORD, a
`tableside` console script) that pip installs offline in a second, whose program prints its
version, and, made `broken`, fails as a service would (`run` exits 1)."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

PROGRAM = '''import sys

VERSION = {version!r}
BROKEN = {broken!r}


def main() -> None:
    if "--version" in sys.argv:
        print(f"tableside, version {{VERSION}}")
        return
    if BROKEN and "run" in sys.argv:
        print("tableside: this build cannot start", file=sys.stderr)
        sys.exit(1)
    print(f"tableside {{VERSION}}: {{' '.join(sys.argv[1:])}}")
'''


def fake_wheel(folder: Path, version: str, broken: bool = False,
               name: str = "tableside") -> Path:
    """A pure-Python wheel of `name` at `version` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    module = f"fake_{name.replace('-', '_')}"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": PROGRAM.format(version=version, broken=broken),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
        f"{info}/entry_points.txt": f"[console_scripts]\n{name} = {module}:main\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return wheel
