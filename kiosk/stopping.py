"""Stopping on SIGINT and SIGTERM: every long-running `tableside` command stops within 2 s,
cleanly (links stopped, children ended, the journal closed), and exits by one rule.

The rule (docs/technician.md, "Stopping"): a stop asked for with SIGTERM (systemd's stop,
`kill`) exits 0, a clean stop; Ctrl-C (SIGINT) exits 130, as shells expect of an interrupted
command. Nothing here imports Kivy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any, TypeVar

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGINT, signal.SIGTERM)
T = TypeVar("T")
_received: list[int] = []  # every stop signal this process handled, first first


def received() -> int | None:
    """The first stop signal this process handled, or None: after a stop, a command skips
    what would keep it waiting (the demo's wait for the pit to catch up)."""
    return _received[0] if _received else None


def exit_status(signum: int) -> int:
    """The exit status of a command stopped by `signum`: 130 for Ctrl-C, 0 for SIGTERM."""
    return 128 + signal.SIGINT if signum == signal.SIGINT else 0


def _name(signum: int) -> str:
    return signal.Signals(signum).name


class StopSignals:
    """SIGINT and SIGTERM on the running asyncio loop: the first one is recorded and calls
    the action given to `arm` (an app's stop); until then it is only recorded, for the code
    to see before it starts anything long. Later signals are ignored while the first stop
    cleans up. `close()` gives the signals back to their defaults."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._stop: Callable[[], None] | None = None
        self._loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            try:
                self._loop.add_signal_handler(sig, self._received, sig)
            except (ValueError, RuntimeError):  # not the main thread (a test's loop)
                log.debug("%s left as it was: not the main thread", _name(sig))

    @property
    def status(self) -> int | None:
        """The exit status the stop asks for; None when no signal came."""
        return None if self.signum is None else exit_status(self.signum)

    def arm(self, stop: Callable[[], None]) -> None:
        """From now on a signal calls `stop` (at once if one already came)."""
        self._stop = stop
        if self.signum is not None:
            stop()

    def _received(self, signum: int) -> None:
        if self.signum is not None:
            log.info("%s again: the table is already stopping", _name(signum))
            return
        self.signum = signum
        _received.append(signum)
        log.warning("%s received: stopping", _name(signum))
        if self._stop is not None:
            self._stop()

    def close(self) -> None:
        for sig in SIGNALS:
            with contextlib.suppress(RuntimeError, ValueError):
                self._loop.remove_signal_handler(sig)


async def until_signal(coro: Coroutine[Any, Any, T]) -> tuple[T | None, int | None]:
    """Run `coro` until it returns, or until SIGINT or SIGTERM cancels it (its `finally:`
    blocks clean up). Returns its result, or None and the exit status for the signal."""
    task: asyncio.Task[T] = asyncio.ensure_future(coro)
    stops = StopSignals()

    def cancel() -> None:
        task.cancel()

    stops.arm(cancel)
    try:
        return await task, None
    except asyncio.CancelledError:
        if stops.signum is None or not task.cancelled():
            raise  # cancelled by something else: not ours to swallow
        return None, stops.status
    finally:
        stops.close()


class SignalStop:
    """SIGINT and SIGTERM for a program whose main loop is not asyncio's (the signage's
    Kivy loop): the handler only records the signal, and the loop asks `stopping` now and
    then and stops itself. Should the main thread be stuck (a read, a driver call) and the
    process still be there `grace` seconds after the signal, a thread ends it with the exit
    status for the signal: it can do that because nothing it holds needs saving. The thread
    hears the signal through Python's wakeup fd, which the C-level handler writes at once,
    however busy the main thread is. Call from the main thread; `close()` undoes it."""

    def __init__(self, grace: float = 1.5) -> None:
        self.signum: int | None = None
        self.grace = grace
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._old_fd = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._old = {sig: signal.signal(sig, self._received) for sig in SIGNALS}
        self._done = threading.Event()
        threading.Thread(target=self._backstop, name="stop-backstop", daemon=True).start()

    @property
    def stopping(self) -> bool:
        return self.signum is not None

    @property
    def status(self) -> int | None:
        return None if self.signum is None else exit_status(self.signum)

    def _received(self, signum: int, _frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum
            _received.append(signum)
            log.warning("%s received: stopping", _name(signum))

    def _backstop(self) -> None:
        while True:
            try:
                data = os.read(self._read, 64)
            except OSError:
                return  # closed: the program ended by itself
            got = [b for b in data if b in SIGNALS]
            if not data or self._done.is_set():
                return
            if got:
                break
        if self._done.wait(self.grace):
            return
        # The main thread did not get back to its loop in time: end the process here.
        os.write(2, f"tableside: still busy {self.grace:g} s after {_name(got[0])}: "
                    f"stopping now\n".encode())
        os._exit(exit_status(got[0]))

    def close(self) -> None:
        """The program is ending by itself: signals back to what they were."""
        self._done.set()
        signal.set_wakeup_fd(self._old_fd)
        for sig, old in self._old.items():
            signal.signal(sig, old)
        with contextlib.suppress(OSError):
            os.write(self._write, b"\0")  # wake the thread so it sees _done
