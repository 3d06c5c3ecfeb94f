"""The casino's shifts are a pit setting (`[pit] shifts`, docs/pit.md): start times HH:MM,
sorted and distinct, 06:00, 14:00 and 22:00 by default; the table page's buy-ins are summed
by them (rule 2.1), a shift spanning midnight included."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.store.journal import Journal
from kiosk.table.cash import CashBuyIn
from pit.app import open_pit
from pit.cash import buy_ins_by_shift, shift_of
from pit.cli import _times
from pit.floor import FloorTimeError, FloorTimes
from tests.pit.helpers import wire_rows

TWO = FloorTimes(timezone="Africa/Johannesburg", shifts=("08:00", "20:00"))


def at(text: str) -> datetime:
    """A local (SAST, UTC+2) time as an aware UTC moment."""
    return (datetime.fromisoformat(text) - timedelta(hours=2)).replace(tzinfo=UTC)


@pytest.mark.parametrize(("shifts", "why"), [
    ((), "at least one start"),
    (("14:00", "06:00"), "in order from midnight, each once: 14:00, 06:00"),
    (("06:00", "06:00"), "in order from midnight, each once"),
    (("6:00",), "'6:00' is not a time of day written HH:MM"),
    (("24:00",), "'24:00' is not a time of day"),
    (("06:60",), "'06:60' is not a time of day"),
])
def test_shifts_are_refused_unless_sorted_distinct_times(shifts: tuple[str, ...],
                                                         why: str) -> None:
    with pytest.raises(FloorTimeError, match=why.replace("(", r"\(")):
        FloorTimes(shifts=shifts)


def test_the_default_and_a_set_of_two_with_one_spanning_midnight() -> None:
    assert FloorTimes().shifts == ("06:00", "14:00", "22:00")
    assert FloorTimes().shift_starts() == (360, 840, 1320)
    zone = TWO.zone()
    night = (at("2026-11-27 20:00").astimezone(zone), at("2026-11-28 08:00").astimezone(zone))
    assert shift_of(at("2026-11-27 23:30"), TWO) == night
    assert shift_of(at("2026-11-28 03:00"), TWO) == night  # after midnight: the same shift
    assert shift_of(at("2026-11-28 07:59:59"), TWO) == night
    assert shift_of(at("2026-11-28 08:00"), TWO)[0] == at("2026-11-28 08:00")
    assert shift_of(at("2026-11-28 19:59"), TWO)[1] == at("2026-11-28 20:00")


def test_the_buy_ins_are_summed_by_the_pits_shifts(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    zone = TWO.zone()
    # Yesterday's night shift (20:00 to 08:00 local): buy-ins either side of midnight.
    local = (now - timedelta(days=2)).astimezone(zone)
    evening = local.replace(hour=20, minute=0, second=0, microsecond=0)
    state = open_pit(str(tmp_path / "pit.db"), times=TWO)
    state.store.enroll("PB-01")
    when = [evening - timedelta(minutes=1)]
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01", clock=lambda: when[0])
    for moment, cash in ((evening - timedelta(minutes=1), 10_000),  # the day shift before
                         (evening + timedelta(hours=1), 20_000),  # 21:00
                         (evening + timedelta(hours=7), 40_000),  # 03:00, the next day
                         (evening + timedelta(hours=12), 80_000)):  # 08:00: the next shift
        when[0] = moment.astimezone(UTC)
        op = CashBuyIn("1", cash, cash)
        journal.append(op.kind, op.to_payload())
    rows = wire_rows(journal.path)
    journal.close()
    assert state.store.ingest("PB-01", rows).stored == len(rows)
    try:
        shifts = buy_ins_by_shift(state.store, "PB-01", TWO, now)
        assert [(s.label(), s.buy_ins, s.cash) for s in shifts] == [
            (f"{evening + timedelta(hours=12):%Y-%m-%d} 08:00–20:00 SAST", 1, 80_000),
            (f"{evening:%Y-%m-%d} 20:00–08:00 SAST", 2, 60_000),
            (f"{evening - timedelta(hours=12):%Y-%m-%d} 08:00–20:00 SAST", 1, 10_000)]
        # The default shifts: 19:59 and 21:00 in the one from 14:00, 03:00 in the one from
        # 22:00 (it spans midnight too), 08:00 in the one from 06:00.
        default = buy_ins_by_shift(state.store, "PB-01",
                                   FloorTimes(timezone="Africa/Johannesburg"), now)
        assert [s.cash for s in default] == [80_000, 40_000, 30_000]
    finally:
        state.close()


def test_the_pits_file_sets_the_shifts(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "pit.toml"
    config.write_text('[pit]\ntimezone = "Africa/Johannesburg"\nshifts = ["08:00", "20:00"]\n')
    assert _times(str(config)) == TWO
    config.write_text('[pit]\nshifts = ["22:00", "06:00"]\n')
    with pytest.raises(SystemExit) as out:
        _times(str(config))
    assert out.value.code == 2
    assert capsys.readouterr().err == (
        f"tableside: {config}: [pit] shifts must be in order from midnight, each once: "
        f"22:00, 06:00\n")
    config.write_text('[pit]\nshifts = "06:00"\n')
    with pytest.raises(SystemExit):
        _times(str(config))
    assert "must be a list of times" in capsys.readouterr().err
