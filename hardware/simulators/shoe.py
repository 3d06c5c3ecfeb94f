"""A card shoe simulator that speaks the same bytes as a real shoe (docs/architecture.md).

Spec: docs/protocols/shoe-shuffler.md. The simulator deals a `SeededShoe` as `line`
frames (HELLO and STATE LOADED first, a CARD per card, HB every second, STATE EMPTY at the end)
or as `plain` lines, and can inject the faults a real link shows: noise, dropped frames (a seq
skipped), UNREAD instead of CARD, a retransmitted (duplicated) frame, a corrupt checksum, and the
cutting card at a given position.

`ShoeSimulator` itself does no I/O: it returns bytes, so tests can write them wherever and
whenever they like (`write_next` writes straight to a file descriptor). `PtyLink` and `TcpLink`
carry them over a pseudo-terminal or a 127.0.0.1 listener, and `run_paced` deals at a real
shoe's pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import select
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from hardware.events import SHOE, ShoeState
from hardware.shoe.line_dialect import SEQ_MODULUS, checksum, encode_frame
from kiosk.rules.cards import Card
from kiosk.shoe import SeededShoe

DIALECTS = ("line", "plain")

# Noise never contains `$` (it would open a frame) nor line ends, so each burst of noise is
# exactly one `BadInput` at the reader: tests can count them.
_NOISE_BYTES = bytes(b for b in range(256) if b not in b"$\r\n \t")
_HELLO_REQUEST = re.compile(rb"\$(KIOSK,\d{1,3},HELLO\?)\*([0-9A-Fa-f]{2})")


class Fate(StrEnum):
    """What became of one card's frame on the way to the kiosk."""

    READ = "read"
    DROPPED = "dropped"
    UNREAD = "unread"
    BAD_CHECKSUM = "bad checksum"


@dataclass(frozen=True)
class FaultPlan:
    """Faults to inject: each rate is a chance per card; each `*_at` set names card positions
    (1 = the first card out of the shoe) that always get that fault."""

    noise: float = 0.0
    drop: float = 0.0
    unread: float = 0.0
    duplicate: float = 0.0
    bad_checksum: float = 0.0
    noise_at: frozenset[int] = frozenset()
    drop_at: frozenset[int] = frozenset()
    unread_at: frozenset[int] = frozenset()
    duplicate_at: frozenset[int] = frozenset()
    bad_checksum_at: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        for name in ("noise", "drop", "unread", "duplicate", "bad_checksum"):
            rate = getattr(self, name)
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} rate must be between 0 and 1, not {rate}")


@dataclass(frozen=True, slots=True)
class Dealt:
    """One card the simulator dealt, and what it sent for it (for tests to check against)."""

    position: int
    card: Card
    fate: Fate
    seq: int | None
    noise: bool = False
    duplicated: bool = False


@dataclass
class ShoeSimulator:
    """A seeded shoe that turns each card dealt into the bytes a shoe would send.

    Deals at most `cards` cards (None: the whole shoe). `cut_at` sends CUT after that many
    cards. Fault choices come from their own generator seeded by `seed`, so a run repeats.
    """

    decks: int = 8
    seed: int = 0
    dialect: str = "line"
    faults: FaultPlan = field(default_factory=FaultPlan)
    cut_at: int | None = None
    cards: int | None = None
    device: str = SHOE
    model: str = "TABLESIDE-SIM"
    firmware: str = "1.0"
    serial_number: str = "SIM0001"
    shoe: SeededShoe = field(init=False)
    dealt: list[Dealt] = field(init=False, default_factory=list)
    next_seq: int = field(init=False, default=0)
    opened: bool = field(init=False, default=False)
    closed: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        if self.dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {self.dialect!r} (known: {', '.join(DIALECTS)})")
        self.shoe = SeededShoe(decks=self.decks, seed=self.seed)
        # Separate from the shoe's own order so that faults never change which cards come out.
        self._rng = random.Random(self.seed * 1_000_003 + 17)
        self._kiosk_buf = bytearray()

    # -- what is left -------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """No more cards to deal (the shoe is empty or the `cards` limit is reached)."""
        limit_reached = self.cards is not None and len(self.dealt) >= self.cards
        return limit_reached or self.shoe.remaining == 0

    @property
    def read_cards(self) -> list[Card]:
        """The cards whose CARD frame (or plain line) went out intact."""
        return [d.card for d in self.dealt if d.fate is Fate.READ]

    # -- frames ---------------------------------------------------------------------------------

    def _frame(self, frame_type: str, *fields: str) -> tuple[int, bytes]:
        seq = self.next_seq
        self.next_seq = (seq + 1) % SEQ_MODULUS
        return seq, encode_frame(self.device, seq, frame_type, *fields)

    def hello(self) -> bytes:
        """HELLO (spec: sent at power-on and on request); empty in dialect plain."""
        if self.dialect != "line":
            return b""
        return self._frame("HELLO", self.model, self.firmware, self.serial_number)[1]

    def heartbeat(self) -> bytes:
        """HB (spec: every second); empty in dialect plain."""
        if self.dialect != "line":
            return b""
        return self._frame("HB")[1]

    def opening(self) -> bytes:
        """What the shoe sends when it is switched on loaded: HELLO, STATE LOADED."""
        self.opened = True
        if self.dialect != "line":
            return b""
        return self.hello() + self._frame("STATE", ShoeState.LOADED)[1]

    def closing(self) -> bytes:
        """STATE EMPTY once the last card has left the shoe; empty otherwise."""
        if self.closed or self.dialect != "line" or self.shoe.remaining:
            return b""
        self.closed = True
        return self._frame("STATE", ShoeState.EMPTY)[1]

    def _chance(self, rate: float, at: frozenset[int], position: int) -> bool:
        # Draw every time, even when the position decides, so the fault sequence of a seed
        # stays the same whatever positions are forced.
        drawn = self._rng.random() < rate
        return drawn or position in at

    def _noise(self, minimum: int) -> bytes:
        size = self._rng.randint(minimum, 16)
        return bytes(self._rng.choice(_NOISE_BYTES) for _ in range(size))

    def step(self) -> bytes | None:
        """Deal one card and return what the shoe sends for it; None when `done`."""
        if self.done:
            return None
        card = self.shoe.deal()
        position = len(self.dealt) + 1
        plan = self.faults
        noise = self._chance(plan.noise, plan.noise_at, position)
        drop = self._chance(plan.drop, plan.drop_at, position)
        corrupt = self._chance(plan.bad_checksum, plan.bad_checksum_at, position)
        unread = self._chance(plan.unread, plan.unread_at, position)
        duplicate = self._chance(plan.duplicate, plan.duplicate_at, position)
        # One fate per card: a frame that never arrived cannot also be corrupt or unread.
        if drop:
            fate = Fate.DROPPED
        elif corrupt:
            fate = Fate.BAD_CHECKSUM
        elif unread:
            fate = Fate.UNREAD
        else:
            fate = Fate.READ
        out = bytearray()
        if self.dialect == "line":
            if noise:
                out += self._noise(1)
            seq, frame = (
                self._frame("UNREAD") if fate is Fate.UNREAD else self._frame("CARD", card.code)
            )
            if fate is Fate.BAD_CHECKSUM:
                frame = _corrupt_checksum(frame)
            # Only an intact frame is retransmitted; a dropped one never reached the wire.
            duplicate = duplicate and fate in (Fate.READ, Fate.UNREAD)
            if fate is not Fate.DROPPED:
                out += frame * (2 if duplicate else 1)
            if self.cut_at is not None and position == self.cut_at:
                out += self._frame("CUT")[1]
            self.dealt.append(Dealt(position, card, fate, seq, noise, duplicate))
        else:
            # Dialect plain has no seq, checksum or cut card: a corrupt or unread card shows
            # as an unreadable line, and a retransmission cannot be told from a new card, so a
            # plain shoe is never made to send one.
            if noise:
                out += self._noise(3) + b"\r\n"
            if fate is Fate.READ:
                out += card.code.encode("ascii") + b"\r\n"
            elif fate is Fate.UNREAD:
                out += b"??\r\n"
            elif fate is Fate.BAD_CHECKSUM:
                out += b"X" + card.code[1].encode("ascii") + b"\r\n"
            self.dealt.append(Dealt(position, card, fate, None, noise, False))
        return bytes(out)

    def respond(self, data: bytes) -> bytes:
        """What the shoe answers to kiosk frames in `data` (spec "Kiosk to device"): a HELLO
        for each valid `HELLO?`; everything else is ignored, as the spec allows."""
        if self.dialect != "line":
            return b""
        self._kiosk_buf += data
        out = bytearray()
        consumed = 0
        for match in _HELLO_REQUEST.finditer(self._kiosk_buf):
            consumed = match.end()
            if checksum(match.group(1)) == int(match.group(2), 16):
                out += self.hello()
        del self._kiosk_buf[:consumed]
        # A request may arrive split across reads: keep what follows the last `$`, bounded.
        dollar = self._kiosk_buf.rfind(b"$")
        if dollar < 0 or len(self._kiosk_buf) - dollar > 64:
            self._kiosk_buf.clear()
        else:
            del self._kiosk_buf[:dollar]
        return bytes(out)

    def write_next(self, fd: int, n: int) -> int:
        """Write the opening (if not sent yet) and the next `n` cards to `fd` at once, plus
        STATE EMPTY if the shoe ran out. Returns how many cards were dealt."""
        out = bytearray()
        if not self.opened:
            out += self.opening()
        count = 0
        while count < n:
            data = self.step()
            if data is None:
                break
            out += data
            count += 1
        out += self.closing()
        write_all(fd, bytes(out))
        return count


def _corrupt_checksum(frame: bytes) -> bytes:
    star = frame.rindex(b"*")
    good = int(frame[star + 1 : star + 3], 16)
    return frame[: star + 1] + f"{good ^ 0x5A:02X}".encode("ascii") + frame[star + 3 :]


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, waiting while a non-blocking fd is full."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [], 1.0)
            continue
        view = view[written:]


# -- links ------------------------------------------------------------------------------------


class Link(Protocol):
    """Where a paced simulator sends its bytes."""

    url: str

    async def write(self, data: bytes) -> None: ...


class PtyLink:
    """A pseudo-terminal: the simulator writes the master side; a reader opens `path`.

    The simulator keeps the slave side open itself so that the line stays up (and bytes stay
    buffered) while no reader has it open, as a real shoe's cable would. The slave is put in
    raw mode so no line discipline rewrites CR/LF or echoes frames back.
    """

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.url = self.path
        self._out = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting_writable = False
        self._answering: ShoeSimulator | None = None
        self.hello_requested = asyncio.Event()

    def send(self, data: bytes) -> None:
        """Queue `data` and write as much as the pty takes now, in order."""
        self._out += data
        self._pump()

    async def write(self, data: bytes) -> None:
        self.send(data)
        while self._out and self.master >= 0:
            await asyncio.sleep(0.005)

    def _pump(self) -> None:
        while self._out and self.master >= 0:
            try:
                written = os.write(self.master, self._out)
            except BlockingIOError:
                if not self._waiting_writable:
                    self._loop = self._loop or asyncio.get_running_loop()
                    self._loop.add_writer(self.master, self._pump)
                    self._waiting_writable = True
                return
            except OSError:
                self._out.clear()  # nobody can read it any more
                break
            del self._out[:written]
        if self._waiting_writable and self._loop is not None:
            self._loop.remove_writer(self.master)
            self._waiting_writable = False

    def answer(self, simulator: ShoeSimulator) -> None:
        """Answer the kiosk's `HELLO?` requests from `simulator` (needs a running loop)."""
        self._answering = simulator
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.master, self._on_readable)

    def _on_readable(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except OSError:
            return
        if self._answering is not None and data:
            reply = self._answering.respond(data)
            if reply:
                self.hello_requested.set()
                self.send(reply)

    def close(self) -> None:
        if self.master < 0:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self.master)
            self._loop.remove_writer(self.master)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.master = self.slave = -1


class TcpLink:
    """A listener on 127.0.0.1 for `socket://` readers; every client gets every byte sent
    after it connected, and answers to its own `HELLO?`."""

    def __init__(self, simulator: ShoeSimulator) -> None:
        self._simulator = simulator
        self._server: asyncio.Server | None = None
        self._clients: set[asyncio.StreamWriter] = set()
        self.client_connected = asyncio.Event()
        self.port = 0
        self.url = ""

    async def start(self, port: int = 0) -> str:
        """Listen on 127.0.0.1:`port` (0: any free port); returns the reader's URL."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.url = f"socket://127.0.0.1:{self.port}"
        return self.url

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._clients.add(writer)
        self.client_connected.set()
        try:
            while data := await reader.read(4096):
                reply = self._simulator.respond(data)
                if reply:
                    writer.write(reply)
        except OSError:
            pass
        finally:
            self._clients.discard(writer)
            writer.close()

    async def write(self, data: bytes) -> None:
        for writer in list(self._clients):
            try:
                writer.write(data)
                await writer.drain()
            except (OSError, RuntimeError):
                self._clients.discard(writer)

    async def close(self) -> None:
        for writer in list(self._clients):
            writer.close()
        self._clients.clear()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


async def run_paced(
    simulator: ShoeSimulator,
    link: Link,
    *,
    pace: float = 1.5,
    heartbeat_interval: float = 1.0,
    linger: float = 1.0,
) -> None:
    """Deal the whole simulated shoe over `link`, one card every `pace` seconds, with an HB
    every `heartbeat_interval` seconds in dialect line; after the last card, keep the
    heartbeat going for `linger` seconds so a reader can take the last bytes."""
    if heartbeat_interval <= 0 or pace < 0:
        raise ValueError("heartbeat_interval must be positive and pace not negative")
    await link.write(simulator.opening())
    next_beat = await deal_paced(simulator, link, pace, heartbeat_interval)
    await close_and_linger(simulator, link, linger, next_beat, heartbeat_interval)


class Paced(Protocol):
    """A simulated dealing device as its paced run drives it (the shoe's, the shuffler's)."""

    def heartbeat(self) -> bytes: ...

    def step(self) -> bytes | None: ...

    def closing(self) -> bytes: ...


async def deal_paced(simulator: Paced, link: Link, pace: float, heartbeat_interval: float,
                     stop: Callable[[], bool] = lambda: False) -> float:
    """Over `link`, one of `simulator`'s steps every `pace` seconds and an HB every
    `heartbeat_interval`, from now until it has none left (`step` None) or `stop()`; returns
    when the next HB is due."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    next_card, next_beat = now + pace, now + heartbeat_interval
    while not stop():
        now = loop.time()
        if now >= next_beat:
            await link.write(simulator.heartbeat())
            next_beat += heartbeat_interval
        if now >= next_card:
            data = simulator.step()
            if data is None:
                break
            await link.write(data)
            next_card += pace
        await asyncio.sleep(max(0.0, min(next_card, next_beat) - loop.time()))
    return next_beat


async def close_and_linger(simulator: Paced, link: Link, linger: float, next_beat: float,
                           heartbeat_interval: float) -> None:
    """The closing line, then the HB kept going for `linger` seconds (from `next_beat`), so
    a reader can take the last bytes."""
    loop = asyncio.get_running_loop()
    await link.write(simulator.closing())
    end = loop.time() + linger
    while (now := loop.time()) < end:
        if now >= next_beat:
            await link.write(simulator.heartbeat())
            next_beat += heartbeat_interval
        await asyncio.sleep(max(0.0, min(end, next_beat) - loop.time()))


__all__ = [
    "Dealt",
    "Fate",
    "FaultPlan",
    "Link",
    "Paced",
    "PtyLink",
    "ShoeSimulator",
    "TcpLink",
    "close_and_linger",
    "deal_paced",
    "run_paced",
    "write_all",
]
