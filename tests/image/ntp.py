"""A time server for the boot test (tests/image/test_boot.py): SNTP (RFC 4330) on the host's
loopback, which qemu's user network gives the guest as 10.0.2.2, so the table's
systemd-timesyncd synchronises against it and nothing leaves the machine. It answers each
client request (mode 3) with the host's clock as a stratum 1 server (mode 4), the request's
transmit time as the answer's origin (timesyncd checks it), and counts the answers."""

from __future__ import annotations

import socket
import struct
import threading
import time

NTP_EPOCH = 2_208_988_800  # seconds from 1900-01-01 to 1970-01-01


def ntp_time(t: float) -> bytes:
    """`t` (Unix seconds) as NTP's 64-bit fixed point timestamp."""
    seconds = int(t) + NTP_EPOCH
    return struct.pack("!II", seconds & 0xFFFFFFFF, int((t % 1) * 2**32) & 0xFFFFFFFF)


def answer(request: bytes, now: float) -> bytes | None:
    """The server's reply to one request, or None if it is not an NTP client's."""
    if len(request) < 48 or request[0] & 0x07 != 3:
        return None
    version = (request[0] >> 3) & 0x07
    head = struct.pack("!BBbb", (0 << 6) | (version << 3) | 4, 1, request[2], -20)
    root = struct.pack("!II", 0, 0x10)  # root delay 0, dispersion ~0.25 ms
    stamp = ntp_time(now)
    return head + root + b"LOCL" + stamp + request[40:48] + stamp + ntp_time(time.time())


class TimeServer:
    """SNTP on `host`:`port` in a thread; `answered` counts the replies sent."""

    def __init__(self, host: str = "127.0.0.1", port: int = 123) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((host, port))
        self.sock.settimeout(0.5)
        self.answered = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> TimeServer:
        self._thread.start()
        return self

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                request, client = self.sock.recvfrom(512)
            except TimeoutError:
                continue
            except OSError:
                return
            reply = answer(request, time.time())
            if reply is not None:
                self.sock.sendto(reply, client)
                self.answered += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()
