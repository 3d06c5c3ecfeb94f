"""The technician's self-test: `tableside selftest --config /data/table.toml`.

Each check says what it found in words and passes or fails; the results go on record in the
table's journal (a `selftest` row each, the table's own records), so an auditor sees when the
table was last checked and what was found. Checks:

- each configured serial device: its port opens and the device answers within `--wait`
  seconds (any frame: a HELLO, a heartbeat, a card); a simulated device is skipped;
- the table's panel: the pins open; the tower lamp's green, red and amber, and the minimum
  display, are cycled and read back from the pins; with `--buttons`, each button must be
  pressed within the wait;
- free space on the journal's partition (at least 200 MB);
- the clock: a year no older than this build, and systemd's word on NTP or an RTC present;
- the journal, the configuration, the pit credential and the sync's files are the kiosk
  user's alone (mode 0600, one owner);
- the pit server, when `[sync]` names one: it answers, it knows this table's credential, and
  how far behind it the journal is;
- on the SD image: the boot partition's build id and that its files match the checksums the
  build wrote there, and the update key ("TRIAL UPDATE KEY" fails it: image-build/build
  --trial).

The console's banner (`tableside banner`: the version, the table, its address, the last
self-test) and the technicians' logins on record (`tableside technician-login`, from PAM)
are here too: the SD image's parts.

Both screens and the touch are checked on the self-test screen (`--screen`,
kiosk/ui/selftest_screen.py).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hardware import events as ev
from hardware.gpio.errors import PanelError
from hardware.gpio.panel import LampState, LightState, TablePanel
from hardware.link import SerialLink
from hardware.protocols import protocol
from kiosk.config import TableConfig
from kiosk.store.journal import Journal
from kiosk.table.records import SelfTestResult
from kiosk.table.roles import Role

MIN_FREE_BYTES = 200 * 1024 * 1024
BUILT = 2026  # a clock showing an earlier year is wrong
BUILD_FILE = "tableside-build.txt"
"""On the boot partition: `build <id>` and the version and flavour (image-build/build)."""
SUMS_FILE = "tableside-sums.sha256"
"""On the boot partition: sha256sum's lines for each file the build put there."""
TRIAL_MARK = "TRIAL UPDATE KEY"
"""In /etc/tableside/update-keys of an image built with --trial (a throwaway key)."""


def check_devices(cfg: TableConfig, wait: float) -> list[SelfTestResult]:
    out = []
    for device in cfg.devices:
        name = f"{device.role} ({device.port})"
        if device.port == "simulated":
            out.append(SelfTestResult(f"device {device.role}", True,
                                      f"{name}: simulated, nothing to check"))
            continue
        heard = asyncio.run(_listen(device.port, device.protocol, device.baudrate, wait))
        ok = int(heard["answered"]) > 0
        detail = (f"{name}: port opened, answered with {heard['answered']} message(s)" if ok
                  else f"{name}: port opened but nothing heard in {wait:g} s; check the "
                       f"device's power and cable" if heard["opened"]
                  else f"{name}: the port does not open ({heard['why']}); check the cable "
                       f"and the udev name")
        out.append(SelfTestResult(f"device {device.role}", ok, detail))
    return out


async def _listen(port: str, protocol_name: str, baudrate: int, wait: float
                  ) -> dict[str, int | str]:
    heard: list[object] = []
    link = SerialLink(port, protocol(protocol_name), heard.append, baudrate,
                      retry_interval=wait)
    task = asyncio.create_task(link.run())
    opened = await link.wait_connected(min(wait, 2.0))
    if opened:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and not _answers(heard):
            await asyncio.sleep(0.05)
    link.stop()
    await asyncio.gather(task, return_exceptions=True)
    said = [e.reason for e in heard if isinstance(e, ev.DeviceOffline) and e.reason]
    why = "" if opened else said[0] if said else _why_not(port)  # the link's words first
    return {"opened": int(opened), "answered": len(_answers(heard)), "why": why}


def _answers(heard: list[object]) -> list[object]:
    skip = (ev.DeviceOnline, ev.DeviceOffline, ev.BadInput)
    return [e for e in heard if not isinstance(e, skip)]


def _why_not(port: str) -> str:
    if port.startswith("/dev/") and not os.path.exists(port):
        return f"no such device {port}"
    return "it could not be opened"


def check_panel(cfg: TableConfig, press: float | None, factory: str | None = None,
                pause: float = 0.3, opened: Callable[[TablePanel], None] | None = None
                ) -> list[SelfTestResult]:
    """The lamps and display cycled and read back; with `press`, each button pressed.
    `opened` sees the panel once it is open (a test presses the mock pins there)."""
    pressed: list[str] = []
    try:
        panel = TablePanel.open(cfg.gpio, on_no_more_bets=lambda: pressed.append("no more bets"),
                                on_call_inspector=lambda: pressed.append("call inspector"),
                                dispatch=lambda fn: fn(), kind=factory)
    except PanelError as exc:
        return [SelfTestResult("panel", False, f"the table's pins do not open: {exc}")]
    out = []
    if opened is not None:
        opened(panel)
    try:
        seen = []
        for lamp, amber in ((LampState.BETTING_OPEN, False), (LampState.NO_MORE_BETS, False),
                            (LampState.OFF, True)):
            panel.show(lamp, amber)
            time.sleep(pause)
            st = panel.state()
            seen.append((st.green, st.red, st.amber))
        want = [(LightState.ON, LightState.OFF, LightState.OFF),
                (LightState.OFF, LightState.ON, LightState.OFF),
                (LightState.OFF, LightState.OFF, LightState.FLASHING)]
        out.append(SelfTestResult("tower lamp", seen == want,
                                  "green, red and amber each lit in turn" if seen == want
                                  else f"read back {seen}, expected {want}"))
        shown = panel.show_text("8888") and panel.state().display == "8888"
        out.append(SelfTestResult("minimum display", shown, "all segments lit (8888)" if shown
                                  else f"read back {panel.state().display!r}"))
        panel.show_text("")
        panel.show(LampState.OFF, False)
        if press is not None:
            deadline = time.monotonic() + press
            while time.monotonic() < deadline and len(set(pressed)) < 2:
                time.sleep(0.05)
            for button in ("no more bets", "call inspector"):
                ok = button in pressed
                out.append(SelfTestResult(f"button {button}", ok, "pressed" if ok else
                                          f"not pressed within {press:g} s"))
    finally:
        panel.close()
    return out


def check_disk(folder: Path) -> SelfTestResult:
    folder = folder if folder.exists() else folder.parent
    free = shutil.disk_usage(folder).free
    ok = free >= MIN_FREE_BYTES
    return SelfTestResult("free disk", ok, f"{free / 1e6:,.0f} MB free on the journal's "
                          f"partition" + ("" if ok else f"; at least {MIN_FREE_BYTES / 1e6:,.0f}"
                                          f" MB are needed"))


def check_clock(now: datetime, ntp: Callable[[], str | None] | None = None,
                rtc: Path = Path("/dev/rtc0")) -> SelfTestResult:
    """Every journal row carries the time: the clock must be synchronised with the time
    servers (`[network] ntp`, or DHCP's); a real-time clock alone drifts, so it fails too."""
    synced = (ntp or ntp_synchronised)()
    if now.year < BUILT:
        return SelfTestResult("clock", False, f"the clock says {now:%Y-%m-%d %H:%M} UTC: "
                              f"wrong; set it or connect the network for NTP")
    source = ("NTP synchronised" if synced == "yes"
              else "not synchronised with a time server (only a real-time clock: it drifts)"
              if rtc.exists()
              else "not synchronised with a time server and no real-time clock")
    advice = "" if synced == "yes" else ("; check the network and [network] ntp in "
                                         "table.toml (timedatectl timesync-status)")
    return SelfTestResult("clock", synced == "yes",
                          f"{now:%Y-%m-%d %H:%M} UTC, {source}{advice}")


TIMESYNC_SYNCHRONISED = Path("/run/systemd/timesync/synchronized")
"""The flag systemd-timesyncd leaves once it has set the clock from a time server (what
systemd-time-wait-sync waits for)."""


def ntp_synchronised(flag: Path = TIMESYNC_SYNCHRONISED, timeout: float = 30) -> str | None:
    """"yes" once the clock was set from a time server. timesyncd's own flag first: asking
    timedatectl goes through D-Bus and starts systemd-timedated, which took more than 5 s
    on a busy emulated table and made a synchronised clock read as not synchronised."""
    if flag.exists():
        return "yes"
    try:
        proc = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                              capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None


def check_pit(cfg: TableConfig, timeout: float = 5.0) -> SelfTestResult:
    """The pit server answers and accepts this table's credential (docs/pit.md)."""
    import httpx

    from kiosk.rules.errors import TablesideError
    from kiosk.store.journal import JournalError, head_of

    if not cfg.sync.enabled:
        return SelfTestResult("pit", True, "no [sync] pit configured: the journal stays on "
                                           "this table")
    url = cfg.sync.pit.rstrip("/")
    from kiosk.anchor import split_credential

    try:
        credential, _ = split_credential(cfg.sync.credential())
    except TablesideError as exc:
        return SelfTestResult("pit", False, str(exc))
    try:
        with httpx.Client(timeout=timeout, verify=cfg.sync.tls()) as web:
            health = web.get(f"{url}/api/v1/health")
            head = web.get(f"{url}/api/v1/tables/{cfg.table_id}/head",
                           headers={"Authorization": f"Bearer {credential}"})
    except httpx.HTTPError as exc:
        return SelfTestResult("pit", False, f"the pit at {url} does not answer ({exc}); "
                                            "check the network and the pit's address")
    if health.status_code != 200:
        return SelfTestResult("pit", False, f"the pit at {url} answered "
                                            f"{health.status_code}")
    if head.status_code in (401, 403, 404):
        try:
            words = str(head.json().get("error", ""))
        except ValueError:
            words = ""
        why = words or str(head.status_code)
        if "tableside pit" not in why:  # the pit's own words may say what to do already
            why += "; enrol it again (tableside pit enroll)"
        return SelfTestResult("pit", False, f"the pit refuses this table: {why}")
    try:
        held = int(head.json()["seq"])
    except (ValueError, KeyError, TypeError):
        return SelfTestResult("pit", False, f"the pit at {url} gave no head")
    try:
        ours = head_of(cfg.journal)[0] if cfg.journal.exists() else 0
    except JournalError:
        ours = 0
    behind = max(0, ours - held)
    return SelfTestResult("pit", True, f"the pit at {url} answers and knows this table; it "
                                       f"holds rows up to {held}, {behind} waiting here")


def private_files(cfg: TableConfig) -> list[Path]:
    """The table's files nobody else may read (mode 0600, the kiosk user's): the
    journal with its WAL, the configuration, the pit credential, the sync's state and the
    pit's configuration offered to the table."""
    from kiosk.sync.pit_config import offer_path
    from kiosk.sync.state import state_path

    files = [cfg.journal, Path(f"{cfg.journal}-wal"), Path(f"{cfg.journal}-shm"),
             state_path(cfg.journal), offer_path(cfg.journal)]
    if cfg.source is not None:
        files.append(cfg.source)
    if cfg.sync.credential_file is not None:
        files.append(cfg.sync.credential_file)
    return files


def check_modes(paths: list[Path]) -> SelfTestResult:
    """Each of `paths` that exists is its owner's alone, and all belong to the owner of the
    first one's folder (the journal's: the kiosk user's on the data partition; a file left
    by root, say after a maintenance command, is one the table may not be able to write)."""
    there = [p for p in paths if p.exists()]
    loose = [f"{p} ({stat.S_IMODE(p.stat().st_mode):o})" for p in there
             if stat.S_IMODE(p.stat().st_mode) & 0o077]
    owner = paths[0].parent.stat().st_uid if paths and paths[0].parent.exists() else None
    others = [f"{p} (user {p.stat().st_uid})" for p in there
              if owner is not None and p.stat().st_uid != owner]
    if loose or others:
        return SelfTestResult("file modes", False, "; ".join(
            ([f"readable by others: {', '.join(loose)}"] if loose else []) +
            ([f"not the journal folder's owner's (user {owner}): {', '.join(others)}"]
             if others else [])))
    return SelfTestResult("file modes", True, "the journal, configuration, credential and "
                          "sync state are the kiosk user's alone")


@dataclass(frozen=True, slots=True)
class ImageFiles:
    """Where the SD image keeps what the self-test reads about itself (a test's folders)."""

    boot: Path = Path("/boot/firmware")
    etc: Path = Path("/etc/tableside")

    @property
    def on_image(self) -> bool:
        """The SD image (image-build/build writes its flavour), not a developer's machine."""
        return (self.etc / "flavour").exists()

    def build_id(self) -> str:
        try:
            text = (self.boot / BUILD_FILE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
        return next((line.split(None, 1)[1].strip() for line in text.splitlines()
                     if line.startswith("build ") and len(line.split()) > 1), "")

    def trial_key(self) -> bool:
        try:
            return TRIAL_MARK in (self.etc / "update-keys").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False


def check_image(files: ImageFiles | None = None) -> list[SelfTestResult]:
    """On the SD image: the boot partition and the update key; elsewhere nothing."""
    files = files or ImageFiles()
    if not files.on_image:
        return []
    return [check_boot(files), check_update_key(files)]


def check_boot(files: ImageFiles) -> SelfTestResult:
    """The boot partition is the build it says: each file the build listed with its SHA-256
    is there and unchanged (files added since, like table.toml.applied, are not its own)."""
    import hashlib

    build = files.build_id()
    try:
        lines = (files.boot / SUMS_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return SelfTestResult("boot partition", False, f"no {SUMS_FILE} on the boot "
                              f"partition ({files.boot}): not a card image-build/build made")
    changed, missing, count = [], [], 0
    for line in lines:
        want, _, name = line.partition("  ")
        if not name or len(want) != 64:
            continue
        count += 1
        path = files.boot / name.removeprefix("./")
        try:
            got = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            missing.append(name)
            continue
        if got != want:
            changed.append(name)
    label = f"build {build}" if build else f"no build id ({BUILD_FILE} missing)"
    if changed or missing or not build:
        words = ([f"changed: {', '.join(changed)}"] if changed else []) + (
            [f"missing: {', '.join(missing)}"] if missing else [])
        return SelfTestResult("boot partition", False, f"{label}; " + "; ".join(
            words or ["its files cannot be told from another build's"]))
    return SelfTestResult("boot partition", True, f"{label}: {count} files match their "
                                                  "checksums")


def check_update_key(files: ImageFiles) -> SelfTestResult:
    """Update bundles are trusted by the casino's key (image-build/build --update-key), not a
    throwaway one made for a trial (--trial)."""
    try:
        text = (files.etc / "update-keys").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    keys = [line for line in text.splitlines()
            if len(line.strip()) == 64 and not line.startswith("#")]
    if TRIAL_MARK in text:
        return SelfTestResult("update key", False, f"{TRIAL_MARK}: this image trusts a key "
                              "made to try updates with; build the table's image with the "
                              "casino's key (image-build/build --update-key)")
    if not keys:
        return SelfTestResult("update key", False, f"no update key in {files.etc}/update-keys: "
                                                   "no update can be applied")
    return SelfTestResult("update key", True, f"{len(keys)} publisher key(s) of the casino's")


def check_people(cfg: TableConfig) -> SelfTestResult:
    """Who may do what (docs/roles.md): the people list in force, the table's `[people]` or
    the last one the pit signed. A table with none checks no PIN, so its overrides (a void,
    a card corrected, a limit changed) are approved by nobody's PIN: it fails here, as does
    a list with no inspector or no technician, whose overrides nobody could then approve."""
    from kiosk.store.journal import JournalError
    from kiosk.sync.offers import effective_file

    try:
        people = effective_file(cfg)[0].people
    except (JournalError, OSError):  # the journal's own check says why
        people = cfg.people
    if not people.checked:
        return SelfTestResult("people", False, "no people list ([people] in table.toml, or "
                              "the pit's): no PIN is checked, so voids, card corrections and "
                              "limit changes are approved by nobody's PIN (tableside pit pin)")
    counts = {role: sum(p.role is role for p in people.persons) for role in Role}
    missing = [role.value for role in (Role.INSPECTOR, Role.TECHNICIAN) if not counts[role]]
    said = (f"{len(people.persons)} people: {counts[Role.DEALER]} dealer(s), "
            f"{counts[Role.INSPECTOR]} inspector(s), {counts[Role.TECHNICIAN]} technician(s)")
    if missing:
        return SelfTestResult("people", False, f"{said}; no {' and no '.join(missing)}: "
                              "what only they may approve cannot be done")
    return SelfTestResult("people", True, said)


def run_selftest(cfg: TableConfig, *, wait: float = 5.0, press: float | None = None,
                 factory: str | None = None, now: datetime | None = None,
                 ntp: Callable[[], str | None] | None = None,
                 opened: Callable[[TablePanel], None] | None = None,
                 image: ImageFiles | None = None) -> list[SelfTestResult]:
    """Every check, each result journaled (the journal must belong to this table)."""
    results = [*check_devices(cfg, wait), *check_panel(cfg, press, factory, opened=opened),
               check_disk(cfg.journal.parent), check_clock(now or datetime.now(UTC), ntp),
               check_pit(cfg), check_people(cfg), *check_image(image)]
    results.append(check_modes(private_files(cfg)))
    record(cfg, results)
    return results


def record(cfg: TableConfig, results: list[SelfTestResult]) -> None:
    """Put `results` on record in the table's journal (the self-test screen's touch and
    players'-screen answers come after the other checks)."""
    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(cfg.journal, cfg.table_id) as journal:
        journal.append_many([(r.kind, r.to_payload()) for r in results])


# --- the console's banner and the technicians' logins (the SD image) -------------------------

def last_selftest(journal: Path, table_id: str, scan: int = 2000) -> list[SelfTestResult]:
    """The last self-test's results on record (its consecutive `selftest` rows), or []."""
    from kiosk.store.journal import JournalError, head_of

    if not journal.exists():
        return []
    try:
        head = head_of(journal)[0]
        with Journal.open(journal, table_id, read_only=True) as j:
            block: list[SelfTestResult] = []
            last: list[SelfTestResult] = []
            for e in j.entries(max(0, head - scan)):
                if e.kind != "selftest":
                    if block:
                        last, block = block, []
                    continue
                p = e.payload
                block.append(SelfTestResult(str(p.get("check", "")), bool(p.get("ok")),
                                            str(p.get("detail", ""))))
            return block or last
    except (JournalError, OSError):
        return []


def addresses() -> list[str]:
    """The table's IPv4 addresses (`ip`), for the banner: what a technician connects to."""
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                             capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [part.split("/")[0] for line in out.splitlines()
            for part in line.split()[3:4]]


def banner(cfg: TableConfig | None, version: str, *, why_not: str = "",
           files: ImageFiles | None = None, address: list[str] | None = None,
           hostname: str = "") -> str:
    """The console's banner: the version and build, the table and where to reach it, the last
    self-test; "TRIAL UPDATE KEY" when the image trusts a throwaway key."""
    files = files or ImageFiles()
    build = files.build_id()
    lines = [f"Tableside {version}" + (f", build {build}" if build else "")]
    if cfg is None:
        lines.append(f"Table: not set up ({why_not})" if why_not else "Table: not set up")
    else:
        lines.append(f"Table: {cfg.table_id} ({cfg.name})")
    where = address if address is not None else addresses()
    lines.append(f"Address: {', '.join(where) if where else 'none (no network)'}"
                 + (f" ({hostname})" if hostname else ""))
    results = last_selftest(cfg.journal, cfg.table_id) if cfg is not None else []
    if results:
        failed = [r.check for r in results if not r.ok]
        lines.append(f"Self-test: {len(results) - len(failed)} passed, {len(failed)} failed"
                     + (f" ({', '.join(failed)})" if failed else ""))
    else:
        lines.append("Self-test: not run yet (sudo tableside selftest --config "
                     "/data/table.toml)")
    if files.trial_key():
        lines.append(f"{TRIAL_MARK}: updates signed by a throwaway key are trusted")
    return "\n".join(lines) + "\n"


def technician_login(cfg: TableConfig, user: str, remote: str) -> None:
    """A technician's login (PAM, image-build/system/bin/tableside-login) on record as a
    device report: the pit sees it with the table's other rows."""
    from kiosk.table.records import DeviceReport

    report = DeviceReport("SSH", "technician_login",
                          f"{user or 'unknown'} logged in over SSH from {remote or 'unknown'}")
    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(cfg.journal, cfg.table_id) as journal:
        journal.append(report.kind, report.to_payload())
