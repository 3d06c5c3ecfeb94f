"""Request limits at the pit: the size of a body and the rate of requests per caller."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

MAX_BODY = 4 * 1024 * 1024
"""Bytes in one request body at most: a batch of 2,000 large rows fits in well under this."""


class TooLarge(ValueError):
    """A body over the limit (HTTP 413)."""


MAX_DEPTH = 64
"""Arrays and objects nested in one JSON text at most. A batch is 3 deep (its payloads are
text), and no record the table journals comes near it; Python's parser gives up with a
RecursionError near 1,000."""


class TooDeep(ValueError):
    """JSON nested deeper than the limit (HTTP 400): refused before it is parsed."""


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """TooDeep if the JSON `text` nests arrays and objects more than `limit` deep.

    Strings are taken out first (a bracket in a string nests nothing), then the brackets
    counted. Up to the first mistake in the text this is the depth the parser would recurse
    to, and the parser stops at that mistake, so invalid JSON is left for it to refuse."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if brackets.count("[") + brackets.count("{") <= limit:
        return
    depth = 0
    for bracket in brackets:
        if bracket in "[{":
            depth += 1
            if depth > limit:
                raise TooDeep(f"the JSON is nested more than {limit} deep")
        else:
            depth -= 1
            if depth < 0:
                return  # a bracket closed that was never opened: the parser stops here


KEPT_CALLERS = 10_000
"""Callers a limiter remembers: past that, those whose bucket has filled again are
forgotten (they would start full anyway)."""


class RateLimiter:
    """A token bucket per caller: `rate` requests a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, caller: str) -> float:
        """0 when the request may go ahead (and it is counted), else the seconds to wait
        before asking again. Checking and counting are one step under the lock, so requests
        that come at once are counted one by one: for a budget of failures, reserve one
        with `allow` before the attempt and `refund` it when the attempt succeeds."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(caller, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens >= 1:
                self._buckets[caller] = (tokens - 1, now)
                self._prune(now)
                return 0.0
            self._buckets[caller] = (tokens, now)
            return (1 - tokens) / self.rate

    def refund(self, caller: str) -> None:
        """Give back one request `allow` counted (a reserved failure that did not happen)."""
        with self._lock:
            if caller in self._buckets:
                tokens, then = self._buckets[caller]
                self._buckets[caller] = (min(float(self.burst), tokens + 1), then)

    def forget(self, caller: str) -> None:
        with self._lock:
            self._buckets.pop(caller, None)

    def _prune(self, now: float) -> None:
        if len(self._buckets) <= KEPT_CALLERS:
            return
        for caller, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.rate >= self.burst:
                del self._buckets[caller]
