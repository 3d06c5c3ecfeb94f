"""The tableside services under systemd, and waiting for the dealer app to be ready.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.update.bundle import UNITS_SCRIPT, UpdateFailed


@dataclass(frozen=True, slots=True)
class ServiceState:
    active: str = "inactive"
    sub: str = "dead"
    pid: int = 0
    restarts: int = 0
    result: str = ""

    def words(self) -> str:
        said = f"{self.active}/{self.sub}"
        if self.result and self.result != "success":
            said += f", {self.result}"
        return said + (f", restarted {self.restarts} time(s)" if self.restarts else "")


class Services(Protocol):
    """What an update asks of systemd (a fake stands in for it in the tests)."""

    def units(self) -> None: ...  # the units of the version in use, reloaded
    def restart(self, unit: str) -> None: ...
    def try_restart(self, unit: str) -> None: ...  # restarted only if it runs
    def state(self, unit: str) -> ServiceState: ...


@dataclass(frozen=True, slots=True)
class Systemd:
    """`systemctl` (a fake one on PATH in the tests) and `tableside-units`."""

    systemctl: str = "systemctl"
    units_script: str = str(UNITS_SCRIPT)
    env: dict[str, str] = field(default_factory=dict)

    def _run(self, *args: str) -> str:
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, **self.env})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UpdateFailed(f"{args[0]} {args[1] if len(args) > 1 else ''}: {exc}") from None
        if proc.returncode != 0:
            raise UpdateFailed(f"{' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
        return proc.stdout

    def units(self) -> None:
        self._run(self.units_script)

    def restart(self, unit: str) -> None:
        self._run(self.systemctl, "restart", "--no-block", unit)

    def try_restart(self, unit: str) -> None:
        self._run(self.systemctl, "try-restart", "--no-block", unit)

    def state(self, unit: str) -> ServiceState:
        out = self._run(self.systemctl, "show", "--property=ActiveState,SubState,MainPID,"
                        "NRestarts,Result", unit)
        got = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

        def number(key: str) -> int:
            value = got.get(key, "0")
            return int(value) if value.isdigit() else 0

        return ServiceState(got.get("ActiveState", "unknown"), got.get("SubState", "unknown"),
                            number("MainPID"), number("NRestarts"), got.get("Result", ""))


def wait_ready(services: Services, unit: str, wait: float, settle: float,
               before: ServiceState | None = None, poll: float = 0.5,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> str:
    """"" once `unit` (Type=notify) is active and running, in a process other than the one
    `before` (told READY=1 to systemd), within `wait` seconds, and stays so `settle`
    seconds more; otherwise why not, in words."""
    deadline = clock() + wait
    while True:
        st = services.state(unit)
        fresh = before is None or st.pid != before.pid
        if st.active == "active" and st.sub == "running" and st.pid and fresh:
            break
        if clock() >= deadline:
            return (f"the dealer app did not report ready within {wait:g} s "
                    f"({st.words()})")
        sleep(poll)
    ready = st
    until = clock() + settle
    while clock() < until:
        sleep(poll)
        st = services.state(unit)
        if st.active != "active" or st.pid != ready.pid:
            return (f"the dealer app reported ready, then stopped within {settle:g} s "
                    f"({st.words()})")
    return ""


