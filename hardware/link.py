"""A serial link to one device: a pyserial URL and a device protocol (hardware/protocols.py).

Spec: docs/protocols/shoe-shuffler.md, "Link" (any pyserial URL: a device path,
`socket://host:port`, a pseudo-terminal), "Frame" (bad input never stops the reader), `HB`
(silence for 5 s = device offline) and "Kiosk to device" (`HELLO?` on connect; a device may
ignore it). The link knows nothing of any device: the protocol gives the parser, the greeting,
the poll and how long a silence may last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import serial_asyncio_fast

from hardware.events import (
    BadInput,
    BadKind,
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    FramesLost,
)
from hardware.ports import problem, why_not

if TYPE_CHECKING:  # the link takes any protocol; it imports none
    from hardware.protocols import DeviceProtocol
    from hardware.shoe.stats import ParserStats

logger = logging.getLogger(__name__)

_READ_SIZE = 4096


class SerialLink:
    """Reads one serial URL with one device protocol and hands every event to `on_event`.

    `run()` keeps going until `stop()`: if the port cannot be opened or goes away it reports
    `DeviceOffline` once and retries every `retry_interval` seconds; `heartbeat_timeout` seconds
    (the protocol's unless given) without a byte also report `DeviceOffline`, and the next
    byte `DeviceOnline` (so the first bytes after start report `DeviceOnline` too). On each
    connection the protocol's greeting is sent, and its poll every `poll_every` seconds.
    `device` (the protocol's label unless given) labels the link events and any bytes that
    name no device. Call `stop()` from the reader's event loop.
    """

    def __init__(
        self,
        url: str,
        protocol: DeviceProtocol,
        on_event: Callable[[DeviceEvent], None],
        baudrate: int = 9600,
        heartbeat_timeout: float | None = None,
        *,
        device: str | None = None,
        retry_interval: float = 1.0,
        ask_hello: bool = True,
    ) -> None:
        self.url = url
        self.protocol = protocol
        self.baudrate = baudrate
        self.heartbeat_timeout = (protocol.heartbeat_timeout if heartbeat_timeout is None
                                  else heartbeat_timeout)
        self.device = device or protocol.label
        self.retry_interval = retry_interval
        self.ask_hello = ask_hello and protocol.greeting is not None
        self.parser = protocol.make_parser(self.device)
        self._on_event = on_event
        self._stop = asyncio.Event()
        self._connected = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None
        self._status: Literal["unknown", "online", "offline"] = "unknown"
        self._kiosk_seq = 0
        self._quiet_since = 0.0  # when the current silence began (loop time)

    @property
    def stats(self) -> ParserStats:
        return self.parser.stats

    @property
    def online(self) -> bool | None:
        """True while bytes arrive, False once reported offline, None before either."""
        return None if self._status == "unknown" else self._status == "online"

    @property
    def connected(self) -> bool:
        """The port is open (which says nothing about a device answering on it)."""
        return self._connected.is_set()

    def send(self, data: bytes) -> bool:
        """Write `data` to the device now; False when the port is not open."""
        writer = self._writer
        if writer is None:
            return False
        try:
            writer.write(data)
        except (OSError, RuntimeError) as exc:
            logger.info("cannot write to %s: %s", self.url, exc)
            return False
        return True

    def command(self, name: str) -> bool:
        """Send one of the protocol's named commands ("start"); False if it has none such
        or the port is not open."""
        data = self.protocol.commands.get(name)
        return data is not None and self.send(data)

    async def wait_connected(self, timeout: float | None = None) -> bool:
        """Wait until the port is open; False if `timeout` passed first."""
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def stop(self) -> None:
        """Ask `run()` to close the port and return."""
        self._stop.set()
        if self._writer is not None:
            # Closing the transport ends the pending read with EOF, so run() notices at once.
            self._writer.close()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self._quiet_since = loop.time()
        while not self._stop.is_set():
            try:
                reader, writer = await serial_asyncio_fast.open_serial_connection(
                    url=self.url, baudrate=self.baudrate
                )
            except (OSError, ValueError) as exc:
                # SerialException is an OSError; a malformed URL is a ValueError.
                logger.debug("cannot open %s: %s", self.url, exc)
                self._go_offline(loop.time(), why_not(exc, self.url))
                await self._pause(self.retry_interval)
                continue
            self._writer = writer
            self._connected.set()
            if self._status != "offline":
                self._quiet_since = loop.time()
            poller = None
            gone = f"{self.url}: the port closed"
            try:
                if not self._stop.is_set():
                    self._ask_hello(writer)
                    if self.protocol.poll is not None and self.protocol.poll_every > 0:
                        poller = asyncio.create_task(self._poll(writer))
                    await self._pump(reader, loop)
            except OSError as exc:
                logger.info("%s went away: %s", self.url, exc)
                gone = f"{self.url}: {problem(exc)}"
            finally:
                if poller is not None:
                    poller.cancel()
                self._connected.clear()
                self._writer = None
                self._deliver(self.parser.reset())
                await self._close(writer)
            if not self._stop.is_set():
                self._go_offline(loop.time(), gone)
                await self._pause(self.retry_interval)

    async def _pump(self, reader: asyncio.StreamReader, loop: asyncio.AbstractEventLoop) -> None:
        while not self._stop.is_set():
            timeout = None
            if self._status != "offline":
                timeout = max(0.0, self._quiet_since + self.heartbeat_timeout - loop.time())
            try:
                data = await asyncio.wait_for(reader.read(_READ_SIZE), timeout)
            except TimeoutError:
                self._go_offline(loop.time())
                continue
            if not data:
                return  # EOF: the other end closed (a socket), or stop() closed the port
            self._quiet_since = loop.time()
            if self._status != "online":
                self._status = "online"
                self._deliver([DeviceOnline(device=self.device)])
            self._deliver(self._parse(data))

    def _parse(self, data: bytes) -> list[DeviceEvent]:
        try:
            return self.parser.feed(data)
        except Exception as exc:
            # The parsers are fuzzed never to raise; should one still, the shoe must keep being
            # read (spec: "Bad input never stops the reader"), so report the bytes and go on.
            logger.exception("parser failed on %r", data)
            events = self.parser.reset()
            return [
                *events,
                BadInput(
                    device=self.device,
                    seq=None,
                    raw=data,
                    reason=f"driver error: {exc!r}",
                    kind=BadKind.MALFORMED,
                ),
            ]

    def _deliver(self, events: list[DeviceEvent]) -> None:
        for event in events:
            if isinstance(event, BadInput):
                logger.info("%s: skipped %s: %s %r", self.url, event.kind, event.reason, event.raw)
            elif isinstance(event, FramesLost):
                logger.warning(
                    "%s: %d frame(s) lost from %s (expected seq %d, got %d)",
                    self.url,
                    event.missing,
                    event.device,
                    event.expected_seq,
                    event.got_seq,
                )
            self._on_event(event)
            if self.protocol.answer is not None:
                reply = self.protocol.answer(event)
                if reply is not None and not self.send(reply):
                    logger.warning("%s: could not answer %r", self.url, event)

    def _go_offline(self, now: float, reason: str = "") -> None:
        if self._status == "offline":
            return
        self._status = "offline"
        silent = round(now - self._quiet_since, 3)
        # Once for each time it goes offline (the retries after it log at debug level).
        logger.warning("%s (%s) offline: %s", self.device, self.url,
                       reason or f"silent for {silent:g} s")
        self._deliver([DeviceOffline(device=self.device, silent_seconds=silent,
                                     reason=reason)])

    def _ask_hello(self, writer: asyncio.StreamWriter) -> None:
        if not self.ask_hello or self.protocol.greeting is None:
            return
        self._send(writer, self.protocol.greeting(self._kiosk_seq), "greet")

    def _send(self, writer: asyncio.StreamWriter, data: bytes, what: str) -> None:
        try:
            writer.write(data)
        except (OSError, RuntimeError) as exc:
            logger.debug("cannot %s %s: %s", what, self.url, exc)
        self._kiosk_seq = (self._kiosk_seq + 1) % self.protocol.seq_modulus

    async def _poll(self, writer: asyncio.StreamWriter) -> None:
        """The protocol's poll, every `poll_every` seconds while the port is open."""
        assert self.protocol.poll is not None
        while not self._stop.is_set():
            await asyncio.sleep(self.protocol.poll_every)
            self._send(writer, self.protocol.poll(self._kiosk_seq), "poll")

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    async def _close(self, writer: asyncio.StreamWriter) -> None:
        try:
            writer.close()
            await asyncio.wait_for(writer.wait_closed(), 1.0)
        except Exception as exc:
            # The port may already be gone (the reason we are closing); nothing to do about it.
            logger.debug("closing %s: %r", self.url, exc)
