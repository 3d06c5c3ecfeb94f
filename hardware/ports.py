"""Why a serial port does not open, in a technician's words, and a quick try of a port.

The link (hardware/link.py) reports the reason with `DeviceOffline`, so the dealer's alert
and the log say "no such device /dev/tableside-shoe" or "permission denied" rather than only
that the device is not answering; `tableside config check` tries each configured port.
"""

from __future__ import annotations

import errno
import termios

import serial  # type: ignore[import-untyped]

_WORDS = {
    errno.ENOENT: "no such device",
    errno.ENODEV: "no such device",
    errno.ENXIO: "no device behind it (unplugged?)",
    errno.EACCES: "permission denied (the kiosk user needs the dialout group)",
    errno.EPERM: "permission denied (the kiosk user needs the dialout group)",
    errno.EBUSY: "busy: another program holds it",
    errno.EIO: "input/output error (the adapter went away?)",
    errno.ECONNREFUSED: "connection refused",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ETIMEDOUT: "no answer (timed out)",
    errno.ENOTTY: "not a serial port",
}


def _errno(exc: BaseException) -> int | None:
    """The OS error number behind `exc`: pyserial wraps the OSError of its open() in a
    SerialException whose errno is set, or chains it."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            break
        number = getattr(seen, "errno", None)
        if isinstance(number, int):
            return number
        if isinstance(seen, termios.error) and seen.args and isinstance(seen.args[0], int):
            return int(seen.args[0])  # pyserial's "could not configure port"
        seen = seen.__cause__ or seen.__context__
    return None


def problem(exc: BaseException) -> str:
    """Why a port did not open, in a few words: "no such device", "permission denied (...)".
    """
    number = _errno(exc)
    if isinstance(exc, TimeoutError):
        number = errno.ETIMEDOUT
    words = _WORDS.get(number) if number is not None else None
    if words is not None:
        return words
    if "device disconnected" in str(exc):  # pyserial: the port's far end has gone
        return "disconnected"
    strerror = getattr(exc, "strerror", None)
    if isinstance(exc, ValueError) and not isinstance(exc, OSError):
        return f"not a port address ({exc})"
    if isinstance(strerror, str) and strerror:
        return strerror[0].lower() + strerror[1:]
    return str(exc) or type(exc).__name__


def why_not(exc: BaseException, url: str) -> str:
    """Why `url` did not open, naming it: "no such device /dev/ttyUSB0", "/dev/ttyUSB0:
    permission denied (...)"."""
    words = problem(exc)
    return f"{words} {url}" if words == "no such device" else f"{url}: {words}"


def try_open(url: str, baudrate: int = 9600, timeout: float = 0.5) -> str | None:
    """Open the port at `url` and close it at once: None when it opens, else why not (a few
    words, as `problem` says them)."""
    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout,
                                     write_timeout=timeout)
    except (OSError, ValueError) as exc:  # SerialException is an OSError
        return problem(exc)
    port.close()
    return None
