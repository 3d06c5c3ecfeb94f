"""systemd's notify protocol, for the kiosk's services (Type=notify, WatchdogSec=): READY=1
once a process serves, WATCHDOG=1 from its own loop while it runs, so a frozen screen or
event loop is restarted by systemd (image-build/). A datagram to $NOTIFY_SOCKET, written here
in a few lines rather than adding a dependency; without the variable (a developer's machine,
the tests) nothing is sent.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send `message` ("READY=1", "WATCHDOG=1", "STATUS=...") to systemd; True if sent."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False  # systemd gone (a shutdown): nothing to tell
    return True
