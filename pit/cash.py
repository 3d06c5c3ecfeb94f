"""Cash buy-ins per shift on a table's page (the Mpumalanga table game rules, rule 2.1): the
table records each cash buy-in with the cash and the chips given (`cash_buy_in` rows); the pit
sums them by shift, in the casino's time zone, newest shift first. Money is int cents."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from kiosk.rules.amounts import format_money
from kiosk.table.cash import CashBuyIn
from pit.floor import FloorTimes
from pit.store import PitStore

SHIFT_STARTS = (6 * 60, 14 * 60, 22 * 60)
"""When the casino's shifts start, minutes after local midnight: three of eight hours."""
DAYS_SHOWN = 7
"""How far back the table's page sums buy-ins."""


@dataclass(frozen=True, slots=True)
class ShiftCash:
    """The buy-ins of one shift at one table."""

    start: datetime  # local, aware
    end: datetime
    buy_ins: int
    cash: int  # cents tendered
    chips: int  # cents of chips given (cash less bets placed at once)

    def label(self) -> str:
        return f"{self.start:%Y-%m-%d %H:%M}–{self.end:%H:%M} {self.start.tzname()}"

    def money(self, cents: int, currency: str = "R") -> str:
        return format_money(cents, currency)


def shift_of(moment: datetime, times: FloorTimes,
             starts: tuple[int, ...] = SHIFT_STARTS) -> tuple[datetime, datetime]:
    """The shift `moment` (aware) falls in: its local start and end."""
    local = moment.astimezone(times.zone())
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    bounds = [midnight + timedelta(days=d, minutes=m) for d in (-1, 0, 1) for m in starts]
    for begin, end in pairwise(bounds):
        if begin <= local < end:
            return begin, end
    raise ValueError(f"no shift holds {moment}")  # the bounds cover the whole day


def buy_ins_by_shift(store: PitStore, table_id: str, times: FloorTimes, now: datetime,
                     days: int = DAYS_SHOWN) -> list[ShiftCash]:
    """The table's cash buy-ins of the last `days`, summed per shift, newest first."""
    since = (now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    found = store.db.query(
        "SELECT wall_time, payload FROM pit_rows WHERE table_id = ? AND wall_time >= ? "
        "AND kind = ? ORDER BY seq", (table_id, since, CashBuyIn.kind))
    sums: dict[datetime, list[int]] = {}
    ends: dict[datetime, datetime] = {}
    for wall_time, payload in found:
        try:
            moment = datetime.fromisoformat(str(wall_time).replace("Z", "+00:00"))
            data = json.loads(str(payload))
            cash, chips = int(data["cash"]), int(data["chips"])
        except (ValueError, KeyError, TypeError):
            continue  # the ingest checked every row; a row that does not read adds nothing
        start, end = shift_of(moment, times)
        ends[start] = end
        total = sums.setdefault(start, [0, 0, 0])
        total[0] += 1
        total[1] += cash
        total[2] += chips
    return [ShiftCash(start, ends[start], *sums[start]) for start in sorted(sums, reverse=True)]
