"""What a sign left on 18 hours a day needs: the picture moves by a pixel a
minute against burn-in, an idle (attract) screen takes over when no round has been played
for a while, and the sign dims at night on the house's schedule. Pure: times in, offsets and
levels out (the signage app applies them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time

SHIFT_PX = 4
"""The most the picture moves from its place, in pixels: too little to notice from the
floor, enough that no pixel shows the same edge all day."""
SHIFT_EVERY = 60.0
"""Seconds between one-pixel steps."""


def burn_in_shift(seconds: float, amplitude: int = SHIFT_PX, every: float = SHIFT_EVERY
                  ) -> tuple[int, int]:
    """The picture's offset after `seconds`: it walks the edge of a square of ±`amplitude`
    pixels, one pixel every `every` seconds, and round again."""
    if amplitude <= 0:
        return 0, 0
    side = 2 * amplitude
    k = int(seconds // every) % (4 * side)
    if k < side:
        return -amplitude + k, -amplitude
    k -= side
    if k < side:
        return amplitude, -amplitude + k
    k -= side
    if k < side:
        return amplitude - k, amplitude
    k -= side
    return -amplitude, amplitude - k


def idle(last_round: datetime | None, now: datetime, minutes: float) -> bool:
    """Whether no round has been played for `minutes` (0: never idle)."""
    if minutes <= 0 or last_round is None:
        return False
    return (now - last_round).total_seconds() >= minutes * 60


@dataclass(frozen=True, slots=True)
class Night:
    """The house's night hours and how bright the sign is then (1.0: full)."""

    start: time
    end: time
    level: float

    def brightness(self, now: time) -> float:
        """The sign's brightness at `now` (hours past midnight wrap round)."""
        if self.start <= self.end:
            inside = self.start <= now < self.end
        else:
            inside = now >= self.start or now < self.end
        return self.level if inside else 1.0


_HOURS = re.compile(r"^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$")


def parse_night(text: str, level: float) -> Night:
    """ "22:00-06:00" and a level from 0.2 to 1.0; ValueError in words otherwise."""
    found = _HOURS.match(text.strip())
    if not found:
        raise ValueError(f"{text!r} is not night hours like \"22:00-06:00\"")
    h1, m1, h2, m2 = (int(g) for g in found.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError(f"{text!r}: hours go from 00:00 to 23:59")
    if (h1, m1) == (h2, m2):
        raise ValueError(f"{text!r}: the night starts and ends at the same time")
    if not 0.2 <= level <= 1.0:
        raise ValueError(f"a night brightness of {level:g} is not from 0.2 to 1.0")
    return Night(time(h1, m1), time(h2, m2), level)


@dataclass(frozen=True, slots=True)
class SignCare:
    """What the house set for a sign left on all day (table.toml `[display]`)."""

    burn_in_shift: bool = True
    idle_minutes: int = 10  # the idle screen after this long with no round; 0: never
    night: Night | None = None  # dim on this schedule; None: never
