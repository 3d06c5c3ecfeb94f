"""Cash buy-ins per shift on a table's page (the Mpumalanga table game rules, rule 2.1): the
table records each cash buy-in with the cash and the chips given (`cash_buy_in` rows); the pit
sums them by shift (the shifts' start times are a pit setting, `[pit] shifts`), in the
casino's time zone, newest shift first. The page lists the chip
changes and colour-ups too (`chip_exchange` rows), each with the chips taken and given broken
down by chip where the row has them. Money is int cents."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from kiosk.rules.amounts import format_money
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import operation_from_record
from kiosk.table.cash import CashBuyIn, ChipExchange, Exchange
from pit.floor import FloorTimes
from pit.store import PitStore

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


def shift_of(moment: datetime, times: FloorTimes) -> tuple[datetime, datetime]:
    """The shift `moment` (aware) falls in: its local start and end. The shifts start at the
    pit's `[pit] shifts` (FloorTimes.shifts; 06:00, 14:00 and 22:00 by default); the last of
    a day runs on past midnight to the next day's first."""
    starts = times.shift_starts()
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
    found = [row for journal in store.journals(table_id) for row in store.db.query(
        "SELECT wall_time, payload FROM pit_rows WHERE table_id = ? AND wall_time >= ? "
        "AND kind = ? ORDER BY seq", (journal, since, CashBuyIn.kind))]
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


@dataclass(frozen=True, slots=True)
class ExchangeLine:
    """One chip change or colour-up on a table's page."""

    when: datetime  # local, aware
    what: str  # "Chip change" or "Colour-up"
    place: str
    words: str  # "took 2 x R100 = R200, gave 4 x R50 = R200"

    def label(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M} {self.when.tzname()}"


def exchanges(store: PitStore, table_id: str, times: FloorTimes, now: datetime,
              days: int = DAYS_SHOWN, currency: str = "R") -> list[ExchangeLine]:
    """The table's chip changes and colour-ups of the last `days`, newest first."""
    since = (now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    found = [row for journal in store.journals(table_id) for row in store.db.query(
        "SELECT wall_time, payload FROM pit_rows WHERE table_id = ? AND wall_time >= ? "
        "AND kind = ? ORDER BY seq DESC", (journal, since, ChipExchange.kind))]
    out = []
    for wall_time, payload in found:
        try:
            moment = datetime.fromisoformat(str(wall_time).replace("Z", "+00:00"))
            op = operation_from_record(ChipExchange.kind, json.loads(str(payload)))
        except (ValueError, UnreadableInput):
            continue  # the ingest checked every row; a row that does not read shows nothing
        if not isinstance(op, ChipExchange):
            continue
        what = "Colour-up" if op.what is Exchange.COLOUR_UP else "Chip change"
        out.append(ExchangeLine(moment.astimezone(times.zone()), what, op.place,
                                op.words(currency)))
    return out
