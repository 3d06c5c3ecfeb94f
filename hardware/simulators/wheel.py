"""A Cammegh SS2 wheel controller simulator that speaks the same bytes over a pseudo-terminal
(docs/protocols/wheel-ss2.md): status reports every 500 ms (mode bit 128), the plain winning
number line, the replies to the host's commands, the reversal of direction each game (mode
bit 1) and the start of each game by the host (`*u 1`, mode bit 2), with faults to inject:
a miss-spin, no ball, a failed launch, a component fault, a drop to state 6 in play, noise.

`WheelSimulator` makes the bytes (no I/O: tests compare them); `PtyWheel` puts them on a
pseudo-terminal at the wheel's pace and answers what the host sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import tty
from collections import Counter, deque
from dataclasses import dataclass, field
from fractions import Fraction

from hardware.wheel.ss2 import SPIN_WRAP
from kiosk.rules.roulette.integrity import chi_squared_survival

SINGLE_ZERO = tuple(str(n) for n in range(37))
FAULTS = frozenset({"miss_spin", "no_ball", "launch_fail", "drop_to_6", "component_fault",
                    "noise"})


@dataclass
class WheelSimulator:
    """The controller's side of the line, one packet at a time."""

    pockets: tuple[str, ...] = SINGLE_ZERO
    spin: int = 10  # the counter: the next game is spin + 1
    number: str | None = None  # the last winning number ("  " before the first)
    direction: int = 0
    state: int = 1
    seed: int = 0
    self_test_codes: tuple[int, ...] = (0,)
    silent: bool = False  # `*q 0`
    counts: Counter[str] = field(default_factory=Counter)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def status(self, state: int | None = None, warning: int = 0, speed: int = 165) -> bytes:
        """`*X;state;spin;number;warning;speed;direction` CR LF."""
        st = self.state if state is None else state
        number = (self.number or "").rjust(2)
        return (f"*X;{st};{self.spin:03d};{number};{warning:X};{speed:03d};"
                f"{self.direction}\r\n").encode("ascii")

    def game(self, number: str | None = None, *, faults: tuple[str, ...] = (),
             reports: int = 2) -> list[bytes]:
        """Every packet of one game, in order: state 2 (the wheel speeds up), 3 (the ball in
        the rim, the other way from the last game), 4, the plain number, 5, then 1. Each state
        is held `reports` reports; a fault changes the sequence as the maker describes."""
        unknown = set(faults) - FAULTS
        if unknown:
            raise ValueError(f"unknown fault(s) {sorted(unknown)}; known: {sorted(FAULTS)}")
        if number is None:
            number = self.rng.choice(self.pockets)
        self.spin = self.spin % SPIN_WRAP + 1
        lines: list[bytes] = []
        self.state = 2
        lines += [self.status(2, speed=42 + 50 * i) for i in range(reports)]
        if "launch_fail" in faults:  # the controller retries while warning 8 stands
            lines += [self.status(2, warning=8) for _ in range(8)]
        self.direction ^= 1  # mode bit 1: the other way each game
        self.state = 3
        if "noise" in faults:
            lines.append(b"\x00\xff*X;9;garbage\r\n")
        if "miss_spin" in faults:  # the ball hit something: warning 2 in state 3, a void
            lines += [self.status(3, warning=2) for _ in range(reports)]
            return lines
        if "component_fault" in faults:
            lines.append(self.status(3, warning=4))
        lines += [self.status(3, speed=170) for _ in range(reports)]
        if "drop_to_6" in faults:  # silently to table closed, as a sensor fault does
            self.state = 6
            lines += [self.status(6, speed=0) for _ in range(6)]
            return lines
        self.state = 4
        if "no_ball" in faults:
            lines += [self.status(4, warning=1) for _ in range(10)]
        lines += [self.status(4, speed=168) for _ in range(reports)]
        self.number = number
        self.counts[number] += 1
        lines.append(f"{number:>2}\r\n".encode("ascii"))
        self.state = 5
        lines += [self.status(5) for _ in range(reports)]
        self.state = 1
        lines.append(self.status(1))
        return lines

    def respond(self, packet: bytes) -> list[bytes]:
        """The controller's reply to one host packet (without its line end)."""
        text = packet.decode("ascii", "replace").strip()
        if not text.startswith("*"):
            return []
        cmd = text[1:].strip()
        if cmd == "X":
            return [self.status()]
        if cmd == "R":
            self.state = 1
            return [b"*R OK\r\n"]
        if cmd == "S":
            return [b"*S 2.07\r\n"]
        if cmd == "K":
            return [b"*K CAM\r\n" if self.state in (1, 6) else b"*K OK\r\n"]
        if cmd == "u 1":
            return [b"*u OK\r\n"]
        if cmd in ("P 1", "P 0"):
            self.state = 1 if cmd == "P 1" else 6
            return [b"*P OK\r\n"]
        if cmd in ("q 0", "q 1"):
            self.silent = cmd == "q 0"
            return [b"*q OK\r\n"]
        if cmd == "F":
            if self.state not in (1, 6):
                return [b"*F BUSY\r\n"]
            return [f"*F {c}\r\n".encode("ascii") for c in self.self_test_codes]
        if cmd == "w":
            chi2, percent = self.chi_squared()
            return [f"*w {chi2} {percent}\r\n".encode("ascii")]
        return []

    def chi_squared(self) -> tuple[str, str]:
        """The results' chi-squared and the chance (in percent) of one as large from a fair
        wheel, as text."""
        n = sum(self.counts.values())
        if n == 0:
            return "0.00", "100"
        k = len(self.pockets)
        chi = Fraction(k * sum(c * c for c in self.counts.values()), n) - n
        hundredths = int(chi * 100)
        p = chi_squared_survival(float(chi), k - 1)
        return f"{hundredths // 100}.{hundredths % 100:02d}", str(round(100 * p))


def maker_example() -> bytes:
    """The maker's example game (spec "Status report"), byte for byte: spin 11, result 25."""
    sim = WheelSimulator(spin=10, number="23", direction=0)
    sim.spin = 11
    lines = [sim.status(2, speed=154), sim.status(2, speed=42)]
    sim.direction = 1
    lines += [sim.status(3, speed=170), sim.status(4, speed=168), b"25\r\n"]
    sim.number = "25"
    lines += [sim.status(5, speed=165), sim.status(1, speed=165)]
    return b"".join(lines)


class PtyWheel:
    """The simulator on a pseudo-terminal: `path` is the port a SerialLink opens. `run()`
    sends a status every `period` seconds (the games' packets when a game is on) and answers
    the host; `*u 1` (or `spin()`) starts a game."""

    def __init__(self, *, seed: int = 0, period: float = 0.5, reports: int = 2,
                 sim: WheelSimulator | None = None) -> None:
        self.sim = sim or WheelSimulator(seed=seed)
        self.period = period
        self.reports = reports
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.queue: deque[bytes] = deque()
        self.heard: list[bytes] = []  # every host packet, for tests
        self._buffer = bytearray()
        self._faults: tuple[str, ...] = ()

    def spin(self, number: str | None = None, faults: tuple[str, ...] = ()) -> None:
        """Start a game (what `*u 1` does), with this result and these faults."""
        self.queue.extend(self.sim.game(number, faults=faults or self._faults,
                                        reports=self.reports))
        self._faults = ()

    def next_faults(self, *faults: str) -> None:
        """The next game started by the host has these faults."""
        self._faults = faults

    def send(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.master, data)

    def _read(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        self._buffer += data
        while True:
            cut = min((i for i in (self._buffer.find(b"\r"), self._buffer.find(b"\n"))
                       if i >= 0), default=-1)
            if cut < 0:
                break
            packet = bytes(self._buffer[:cut])
            del self._buffer[:cut + 1]
            if not packet.strip():
                continue
            self.heard.append(packet)
            if packet.strip() in (b"*u 1", b"*K") and self.sim.state in (1, 5):
                self.spin()
            for reply in self.sim.respond(packet):
                self.send(reply)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.master, self._read)
        try:
            while True:
                await asyncio.sleep(self.period)
                if self.queue:
                    line = self.queue.popleft()
                    self.send(line)
                    if self.queue and not self.queue[0].startswith(b"*"):
                        self.send(self.queue.popleft())  # the number line comes at once
                elif not self.sim.silent:
                    self.send(self.sim.status())
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(self.master)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
