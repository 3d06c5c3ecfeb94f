"""A systemd notify socket for a command under test (NOTIFY_SOCKET): what it told systemd
(READY=1, WATCHDOG=1, STATUS=...), note by note, as the units of the SD image hear it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.processes import env


class Notes:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.settimeout(1.0)
        self.got: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self, folder: Path, *args: str) -> subprocess.Popen[str]:
        """`python -m kiosk.cli ARGS` in `folder`, telling this socket, its output piped."""
        e = env(folder)
        e["NOTIFY_SOCKET"] = str(self.path)
        self.proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", *args], cwd=folder,
                                     env=e, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        return self.proc

    def wait_for(self, words: str, within: float = 60.0) -> list[str]:
        """The lines of the first note with `words` in it; fails if none comes in time or
        the command ends first."""
        assert self.proc is not None
        end = time.monotonic() + within
        while time.monotonic() < end and self.proc.poll() is None:
            try:
                self.got.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue
            if words in self.got[-1]:
                return self.got[-1].splitlines()
        raise AssertionError(f"{words!r} not notified; notes {self.got}; "
                             f"exit {self.proc.poll()}")

    def close(self) -> None:
        self.sock.close()
