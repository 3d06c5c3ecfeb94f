"""Push-button debounce: one physical press acts once, however the contacts bounce.

Our own logic rather than gpiozero's `bounce_time`, because mock pins ignore `bounce_time`
(so it could not be tested) and the real drivers differ in what it means. It works on edges
alone, with no timer thread:

- a press edge acts at once, if the button was released;
- after that the button counts as held until a release edge is followed by at least
  `window_s` of quiet: a press edge sooner than that after a release is contact bounce (or the
  release was), and is ignored;
- a button that stays down sends no edges, so it never repeats.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Debouncer:
    """Turns one button's raw edges into at most one action per press.

    `pressed` is the button's state when watching starts: a button already down (stuck, or
    held through a restart) must be released before it can act.
    """

    def __init__(self, window_s: float = 0.05, clock: Callable[[], float] = time.monotonic,
                 *, pressed: bool = False) -> None:
        if window_s < 0:
            raise ValueError(f"debounce window must be 0 s or more, not {window_s}")
        self.window_s = window_s
        self._clock = clock
        # True from an acted press until a release is known to have been stable.
        self._latched = pressed
        self._released_at: float | None = None
        # Edges arrive on the GPIO driver's thread; the lock keeps a press and a release
        # delivered from two threads (possible with some pin factories) from interleaving.
        self._lock = threading.Lock()

    def press(self) -> bool:
        """A press edge; True when it should act."""
        with self._lock:
            now = self._clock()
            if (self._latched and self._released_at is not None
                    and now - self._released_at >= self.window_s):
                self._latched = False
            # Any press edge cancels a pending release: if that release was stable it has been
            # counted above; if not, it was bounce.
            self._released_at = None
            if self._latched:
                return False
            self._latched = True
            return True

    def release(self) -> None:
        """A release edge; it only counts once `window_s` passes with no press edge."""
        with self._lock:
            self._released_at = self._clock()
