"""Opening hours (the Mpumalanga table game rules, rule 2.4): casino management sets when
each table opens and closes, and the Gaming Board approves those times.

The approved hours come from the table's configuration (`[hours]`) or, signed, from the pit
like the limits. Outside them the table opens no new round (a round in play is finished), and
the sign says "Table closed" with the next opening time; only the inspector may reopen the
table outside its hours, and that override is on record (`OpenedOutsideHours`) with who, the
role and the reason. Times are the casino's local time (`timezone`); a span that ends at or
before its start runs over midnight and belongs to the day it starts on.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kiosk.rules.errors import NotAllowed, UnreadableInput
from kiosk.rules.operations import TableRecord

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_TIMEZONE = "Africa/Johannesburg"
_SPAN = re.compile(r"([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)")
_DAY = 24 * 60
NO_OPENING_HOLDS = timedelta(hours=12)
"""How long a reopening holds at a table whose hours name no opening at all (every day
closed): half a day, then the inspector reopens it again."""


class HoursError(UnreadableInput):
    """Opening hours that cannot be read; the message says why, `key` which setting."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True, slots=True)
class Span:
    """Open from `start` to `end`, minutes after local midnight; `end` at or before `start`
    runs over midnight into the next day (`start == end`: all day and night)."""

    start: int
    end: int

    @property
    def minutes(self) -> int:
        return (self.end - self.start) % _DAY or _DAY

    def text(self) -> str:
        return f"{_hhmm(self.start)}-{_hhmm(self.end)}"


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_day(text: str) -> tuple[Span, ...]:
    """One day's hours: "18:00-02:00", several spans with commas, or "closed"."""
    words = text.strip().lower()
    if words == "closed":
        return ()
    spans = []
    for part in words.split(","):
        m = _SPAN.fullmatch(part.strip())
        if m is None:
            raise HoursError(f"{text!r} is not opening hours: write \"18:00-02:00\" (local "
                             f"time, over midnight allowed), spans with commas, or \"closed\"")
        start, end = int(m[1]) * 60 + int(m[2]), int(m[3]) * 60 + int(m[4])
        if end > _DAY:
            raise HoursError(f"{part.strip()!r}: a day ends at 24:00")
        spans.append(Span(start, end % _DAY))
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class OpeningHours:
    """The approved hours of one table: a day's spans for each weekday, Monday first."""

    days: tuple[tuple[Span, ...], ...]
    timezone: str = DEFAULT_TIMEZONE

    def __post_init__(self) -> None:
        if len(self.days) != 7:
            raise HoursError("opening hours need the seven days of the week")
        self.zone()

    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise HoursError(f"{self.timezone!r} is not a time zone (an IANA name such as "
                             f"{DEFAULT_TIMEZONE})") from exc

    @classmethod
    def from_mapping(cls, section: dict[str, Any]) -> OpeningHours:
        """From `[hours]`: `daily` for every day, a weekday's own (`sat = "12:00-04:00"`)
        over it, and `timezone`."""
        known = {"daily", "timezone", *WEEKDAYS}
        for key in section:
            if key not in known:
                raise HoursError("not a setting (daily, mon .. sun, timezone)", key)
        if "daily" not in section and not any(d in section for d in WEEKDAYS):
            raise HoursError("give `daily` or a weekday's hours (mon .. sun)")
        days = []
        for day in WEEKDAYS:
            key = day if day in section else "daily"
            value = section.get(key, "closed")
            if not isinstance(value, str):
                raise HoursError('write the hours as text, "18:00-02:00"', key)
            try:
                days.append(parse_day(value))
            except HoursError as exc:
                raise HoursError(str(exc), key) from None
        zone = section.get("timezone", DEFAULT_TIMEZONE)
        try:
            if not isinstance(zone, str):
                raise HoursError(f"an IANA name such as {DEFAULT_TIMEZONE}")
            return cls(tuple(days), zone)
        except HoursError as exc:
            raise HoursError(str(exc), "timezone") from None

    def _starts(self, local: datetime, back: int, ahead: int) -> list[tuple[datetime, Span]]:
        """Each span's start (local) from `back` days before `local`'s day to `ahead` after."""
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        out = []
        for offset in range(-back, ahead + 1):
            day = midnight + timedelta(days=offset)
            for span in self.days[day.weekday()]:
                # Wall-clock arithmetic in the zone, then normalised (a DST gap, if any).
                start = (day + timedelta(minutes=span.start)).replace(tzinfo=None)
                out.append((start.replace(tzinfo=self.zone()), span))
        return sorted(out, key=lambda s: s[0])

    def is_open(self, when: datetime) -> bool:
        """Whether `when` (aware) is within the approved hours: from a span's start,
        inclusive, to its end, exclusive."""
        local = when.astimezone(self.zone())
        for start, span in self._starts(local, 1, 0):
            if start <= local < start + timedelta(minutes=span.minutes):
                return True
        return False

    def next_opening(self, when: datetime) -> datetime | None:
        """The next approved opening after `when` (aware, in the casino's zone), None when
        no day has hours. While open, the opening after the current span."""
        local = when.astimezone(self.zone())
        for start, _span in self._starts(local, 0, 8):
            if start > local:
                return start
        return None

    def text(self) -> str:
        """The week's hours in one line, for the dealer and the pit."""
        words = []
        for day, spans in zip(WEEKDAYS, self.days, strict=True):
            words.append(f"{day} {', '.join(s.text() for s in spans) or 'closed'}")
        return "; ".join(words) + f" ({self.timezone})"


@dataclass(frozen=True, slots=True)
class OpenedOutsideHours(TableRecord):
    """The inspector reopened the table outside its approved hours (rule 2.4): who, in which
    role, why, and until when (UTC, ISO 8601: the next approved opening, or
    `NO_OPENING_HOLDS` on when the hours name none)."""

    kind = "opened_outside_hours"
    by: str
    role: str
    reason: str
    until: str


def stamp(moment: datetime) -> str:
    """An aware time as the journal writes times: UTC, milliseconds, Z."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def read_stamp(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def override_in_force(until: str, now: datetime) -> bool:
    """Whether an override on record (its `until`) still holds at `now`."""
    if not until:
        return False
    end = read_stamp(until)
    return end is not None and now < end


def opening_words(hours: OpeningHours, now: datetime) -> str:
    """The next opening as the sign and the dealer read it: "Fri 18:00", "" when none."""
    nxt = hours.next_opening(now)
    if nxt is None:
        return ""
    local = nxt.astimezone(hours.zone())
    same_day = local.date() == now.astimezone(hours.zone()).date()
    return f"{local:%H:%M}" if same_day else f"{local:%a %H:%M}"


def verify_open(hours: OpeningHours | None, now: datetime, override_until: str) -> None:
    """Refuses a new round outside the approved hours (rule 2.4) unless the inspector's
    override holds. No hours configured: the table is never closed by the clock."""
    if hours is None or hours.is_open(now) or override_in_force(override_until, now):
        return
    when = opening_words(hours, now)
    if when:
        raise NotAllowed.of("The table is closed: it opens at %(time)s; only the inspector "
                            "may reopen it now", "2.4", time=when)
    raise NotAllowed.of("The table is closed: it has no approved hours; only the inspector "
                        "may reopen it now", "2.4")


def reopening(hours: OpeningHours | None, now: datetime, by: str, role: str,
              reason: str) -> OpenedOutsideHours:
    """The override record for reopening outside the approved hours: the inspector only,
    with a reason; it holds until the next approved opening."""
    if role != "inspector":
        raise NotAllowed.of("Only the inspector may reopen the table outside its hours",
                            "2.4")
    if not by.strip():
        raise NotAllowed.of("Say which inspector reopens the table")
    if not reason.strip():
        raise NotAllowed.of("Give the reason for reopening outside the approved hours")
    if hours is None or hours.is_open(now):
        raise NotAllowed.of("The table is within its approved hours: nothing to reopen")
    nxt = hours.next_opening(now)
    return OpenedOutsideHours(by.strip(), role, reason.strip(),
                              stamp(nxt if nxt is not None else now + NO_OPENING_HOLDS))


def hours_in_body(body: str, otherwise: OpeningHours | None) -> OpeningHours | None:
    """The hours a configuration's body from the pit sets (`[hours]`), else `otherwise`
    (the table's own file's): the sign follows the version in force, which the table
    checked before it took it up."""
    try:
        section = tomllib.loads(body).get("hours")
        return OpeningHours.from_mapping(section) if isinstance(section, dict) else otherwise
    except (tomllib.TOMLDecodeError, HoursError):
        return otherwise
