"""Long-running `tableside` commands as real processes, each in its own session the way a
terminal or systemd runs it: started, waited on until really up, stopped by a signal, and
checked for what they left behind. Used by tests/test_cli_signals.py and bench/stopping.py."""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main

ROOT = Path(__file__).resolve().parents[1]
HANG = 10.0  # seconds: a command still running this long after the signal is hung
UP_WITHIN = 60.0  # seconds to start (Kivy, the window, llvmpipe): generous on 2 cores


def env(tmp: Path) -> dict[str, str]:
    e = dict(os.environ)
    e.pop("DISPLAY", None)
    e.pop("WAYLAND_DISPLAY", None)
    kivy_home = tmp / "kivy"
    kivy_home.mkdir(exist_ok=True)
    e.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1",
             KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON", KIVY_HOME=str(kivy_home),
             GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return e


class Proc:
    """A command in its own session, its output read line by line as it comes."""

    def __init__(self, args: list[str], tmp: Path) -> None:
        self.args = args
        self.p = subprocess.Popen(args, cwd=tmp, env=env(tmp), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, test: Callable[[], bool], what: str, within: float = UP_WITHIN
                 ) -> None:
        end = time.monotonic() + within
        while time.monotonic() < end:
            self._drain()
            if test():
                return
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        self._drain()
        pytest.fail(f"{what}: not within {within} s (exit {self.p.poll()}); output:\n"
                    + "\n".join(self.seen[-40:]))

    def wait_for_line(self, words: str, within: float = UP_WITHIN) -> None:
        self.wait_for(lambda: any(words in line for line in self.seen), f"{words!r} printed",
                      within)

    def _drain(self) -> None:
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                return

    def stop(self, sig: int, *, group: bool = False) -> tuple[int, float]:
        """Send `sig` (to the whole group: Ctrl-C at a terminal); the exit status and the
        seconds it took to exit; still running HANG seconds after it fails (and is killed)."""
        t0 = time.monotonic()
        if group:
            os.killpg(self.p.pid, sig)
        else:
            self.p.send_signal(sig)
        try:
            status = self.p.wait(HANG)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            pytest.fail(f"{' '.join(self.args[2:])} still running {HANG:.0f} s after {sig!r}")
        took = time.monotonic() - t0
        time.sleep(0.2)  # the reader thread's last lines
        self._drain()
        return status, took

    def left(self) -> list[str]:
        """The processes of its session still running (none once it stopped cleanly)."""
        return session_members(self.p.pid)

    def kill(self) -> None:
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
        for pid in session_pids(self.p.pid):
            os.kill(pid, signal.SIGKILL)


def session_pids(sid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        state, session = fields[0], int(fields[3])
        if session == sid and state != "Z":
            out.append(int(entry.name))
    return out


def session_members(sid: int) -> list[str]:
    out = []
    for pid in session_pids(sid):
        try:
            out.append((Path("/proc") / str(pid) / "cmdline").read_bytes()
                       .replace(b"\0", b" ").decode())
        except OSError:
            continue
    return out


def tableside(tmp: Path, procs: list[Proc], *args: str) -> Proc:
    proc = Proc([sys.executable, "-m", "kiosk.cli", *args], tmp)
    procs.append(proc)
    return proc


def expected(sig: int) -> int:
    return 130 if sig == signal.SIGINT else 0


def verified(journal: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "journal", "verify",
                          str(journal)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("OK: ")
    return out.stdout


def table_toml(tmp: Path, game: str = "blackjack") -> tuple[Path, Path]:
    """A table's configuration from `config example`, its journal in `tmp`, the signage
    window small."""
    text = CliRunner().invoke(main, ["config", "example", "--game", game]).output
    journal = tmp / "journal.db"
    lines = []
    for line in text.splitlines():
        key = line.split("=")[0].strip()
        if key == "journal":
            line = f'journal = "{journal}"'
        elif key in ("signage_width", "fullscreen"):
            line = {"signage_width": "signage_width = 800", "fullscreen": "fullscreen = false"}[
                key]
        elif key == "signage_height":
            line = "signage_height = 480"
        lines.append(line)
    path = tmp / "table.toml"
    path.write_text("\n".join(lines) + "\n")
    return path, journal


def rows(journal: Path) -> int:
    if not journal.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=0.1)
        try:
            return int(con.execute("SELECT count(*) FROM journal").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def app_running(journal: Path) -> Callable[[], bool]:
    """The dealer app's loop is turning: the journal has the shoe's greeting (sent just
    before the app starts) and the heartbeat file beside it was touched again since."""
    alive = journal.with_name(journal.name + ".alive")
    first: list[float] = []

    def test() -> bool:
        if rows(journal) < 2 or not alive.exists():
            return False
        mtime = alive.stat().st_mtime
        if not first:
            first.append(mtime)
        return mtime > first[0]  # beats every 2 s from the app's loop

    return test


# Each long-running command, started and waited on until it is really up: (it, its journal).

def up_run(tmp: Path, procs: list[Proc], mode: str, game: str = "blackjack"
           ) -> tuple[Proc, Path]:
    """`tableside run --headless`, `--windowed` (with its signage child) or `--console`."""
    config, journal = table_toml(tmp, game)
    # --console: stdin is a pipe nobody writes to; it waits for a line, as at a terminal
    proc = tableside(tmp, procs, "run", "--config", str(config), mode)
    if mode == "--console":
        assert game == "punto-banco", "the console is up once punto banco's status shows"
        proc.wait_for_line("Commission owed")
        return proc, journal
    proc.wait_for(app_running(journal), "the dealer app running")
    if mode == "--windowed":
        proc.wait_for(lambda: any("kiosk.ui.signage" in c for c in proc.left()),
                      "the signage child started")
    return proc, journal


def up_signage(tmp: Path, procs: list[Proc]) -> tuple[Proc, Path]:
    """`python -m kiosk.ui.signage` on a punto banco journal, once it drew the table."""
    from tests.test_replay import _journal

    journal = _journal(tmp / "table.db")
    proc = Proc([sys.executable, "-m", "kiosk.ui.signage", "--journal", str(journal),
                 "--size", "800x480", "--trace"], tmp)
    procs.append(proc)
    proc.wait_for_line('"table_id": "PB-01"')
    return proc, journal


def up_demo(tmp: Path, procs: list[Proc]) -> tuple[Proc, Path]:
    """`tableside demo --headless`: the pit, the table, the screens and the script."""
    journal = tmp / "demo.db"
    proc = tableside(tmp, procs, "demo", "--headless", "--journal", str(journal),
                     "--out", str(tmp / "shots"))
    proc.wait_for_line("bets placed:")
    return proc, journal


def up_shoe(tmp: Path, procs: list[Proc]) -> Proc:
    """`tableside simulate shoe`, its pty printed and a few cards dealt."""
    proc = tableside(tmp, procs, "simulate", "shoe", "--pace", "0.1")
    proc.wait_for(lambda: bool(proc.seen) and proc.seen[0].startswith("/dev/pts/"),
                  "the pty's path printed")
    time.sleep(0.5)
    return proc


def backstopped(proc: Proc) -> bool:
    """Whether its stop fell back on a backstop (kiosk/stopping.py's, or `run` killing its
    signage) instead of the program's own loop ending it."""
    return any(("still busy" in line and "stopping now" in line)
               or "signage still running" in line for line in proc.seen)
