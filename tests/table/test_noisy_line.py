"""A noisy serial line must not flood the journal: repeated device reports are one record a
minute with a count, one alert; a burn or a card the game cannot take now is refused, never
journaled as if it happened (issue: 13,001 frames of garbage had written 1,104
device_report rows and 15 card_burned rows while no shoe was loaded)."""

from __future__ import annotations

import asyncio
import os
import random
import tty
from collections import Counter
from pathlib import Path

from hardware import events as ev
from hardware.shoe.line_dialect import encode_frame
from hardware.shoe.reader import ShoeReader
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.table.session import COALESCE_SECONDS
from tests.table.helpers import RULES, open_session


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _session(path: Path, clock: Clock):  # type: ignore[no-untyped-def]
    from kiosk.rules.registry import game
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession

    return TableSession(game("punto-banco"), Journal.open(path, "PB-01"), RULES, "PB-01",
                        clock=clock)


def test_a_burn_with_no_shoe_loaded_is_refused_once_not_journaled(tmp_path: Path) -> None:
    clock = Clock()
    s = _session(tmp_path / "j.db", clock)
    for n in range(15):
        s.on_device_event(ev.CardBurned(device="SHOE", seq=n, card=None))
    rows = Counter(e.kind for e in s.journal.entries())
    assert rows["punto_banco.card_burned"] == 0  # it never happened at the table
    reports = [e.payload for e in s.journal.entries() if e.kind == "device_report"]
    assert reports == [{"device": "SHOE", "event": "burn_refused",
                        "detail": "No shoe is loaded: a card cannot be burned before the "
                                  "cards are shuffled (rule 5.5)"}]
    assert [a.message for a in s.alerts].count(reports[0]["detail"]) == 1  # one alert
    # A minute later the next one goes on record with the count of those in between.
    clock.now += COALESCE_SECONDS
    s.on_device_event(ev.CardBurned(device="SHOE", seq=99, card=None))
    last = list(s.journal.entries())[-1]
    assert last.payload["count"] == 15 and "14 more like it" in last.payload["detail"]


def test_a_burn_is_still_taken_when_the_shoe_is_loaded(tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db", Clock())
    s.perform(pb.shuffle)
    s.on_device_event(ev.CardBurned(device="SHOE", seq=1, card=Card.parse("9S")))
    assert s.state.burned == 1 and list(s.journal.entries())[-1].kind == "punto_banco.card_burned"


def test_reports_of_one_kind_are_one_record_a_minute_with_a_count(tmp_path: Path) -> None:
    clock = Clock()
    s = _session(tmp_path / "j.db", clock)
    start = s.journal.count()
    for n in range(1000):
        s.on_device_event(ev.FramesLost(device="SHOE", seq=n, expected_seq=n, got_seq=n + 5,
                                        missing=5))
        clock.now += 0.01  # ten seconds of noise
    assert s.journal.count() == start + 1
    assert s.alerts_raised == 1
    s.flush_reports()
    last = list(s.journal.entries())[-1]
    assert last.kind == "device_report" and last.payload["count"] == 999
    s.flush_reports()  # nothing left to put on record
    assert s.journal.count() == start + 2


async def _flood(path: Path, frames: int, seed: int) -> Counter[str]:
    master, slave = os.openpty()
    tty.setraw(master)
    session = open_session(path)
    reader = ShoeReader(os.ttyname(slave), "line", session.on_device_event)
    task = asyncio.create_task(reader.run())
    rng = random.Random(seed)
    kinds = ["CARD", "BURN", "UNREAD", "CUT", "HB", "STATE", "HELLO", "XYZ"]
    try:
        await reader.wait_connected(5)
        for n in range(frames):
            if rng.random() < 0.5:  # bytes that are no frame at all
                data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            else:  # well-formed frames with jumping sequence numbers and random contents
                kind = rng.choice(kinds)
                fields = [Card.parse(rng.choice(["AS", "TD", "9H", "KC"])).code] if kind in (
                    "CARD", "BURN") else []
                if kind == "STATE":
                    fields = [rng.choice(["LOADED", "EMPTY", "REMOVED"])]
                data = encode_frame("SHOE", rng.randrange(1000), kind, *fields)
            os.write(master, data)
            if n % 200 == 0:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)
    finally:
        reader.stop()
        await asyncio.gather(task, return_exceptions=True)
        os.close(master)
        os.close(slave)
    rows = Counter(e.kind for e in session.journal.entries())
    rows["alerts"] = session.alerts_raised
    session.journal.close()
    return rows


def test_thirteen_thousand_frames_of_garbage_write_a_handful_of_rows(tmp_path: Path) -> None:
    rows = asyncio.run(_flood(tmp_path / "j.db", 13_001, seed=7))
    print(dict(rows))
    # No shoe loaded, no coup open: nothing dealt or burned.
    assert rows["punto_banco.card_burned"] == 0 and rows["punto_banco.card_dealt"] == 0
    # One record and one alert per device and kind of report within the minute the flood
    # took: hello/restarted, frames lost, state, card/burn/unread/cut refused.
    assert rows["device_report"] <= 10, rows
    assert rows["alerts"] <= 10, rows


def test_the_shufflers_reports_are_journaled_and_shown(tmp_path: Path) -> None:
    """Faults, damaged cards and counts from the shuffler were parsed and dropped; they are
    on record now, a fault and a wrong count stop the dealer (the mini baccarat shuffler
    malfunction procedure), a right count is only recorded."""
    s = _session(tmp_path / "j.db", Clock())
    before = s.alerts_raised
    s.on_device_event(ev.ShuffleCount(device="SHUF", seq=1, cards=416))  # 8 decks: right
    s.on_device_event(ev.ShuffleCount(device="SHUF", seq=2, cards=415))
    s.on_device_event(ev.ShufflerFault(device="SHUF", seq=3, code=ev.FaultCode.JAM,
                                       text="card jam at the elevator"))
    s.on_device_event(ev.CardsDamaged(device="SHUF", seq=4, cards=2))
    reports = [(e.payload["device"], e.payload["event"], e.payload["detail"])
               for e in s.journal.entries() if e.kind == "device_report"]
    assert reports == [
        ("SHUF", "count", "416 cards counted"),
        ("SHUF", "count_wrong", "415 cards counted, 416 in 8 decks"),
        ("SHUF", "fault", "JAM: card jam at the elevator"),
        ("SHUF", "damaged", "2 damaged card(s)"),
    ]
    shown = [(a.severity.value, a.message) for a in list(s.alerts)[-3:]]
    assert s.alerts_raised - before == 3
    assert shown == [("stop", "The shuffler counted 415 cards; 8 decks are 416"),
                     ("stop", "The shuffler reports a fault: JAM: card jam at the elevator"),
                     ("warning", "The shuffler found 2 damaged card(s)")]
