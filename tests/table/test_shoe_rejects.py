"""No card is dropped without a trace: during an open coup, a card frame with a good checksum
but a code the spec does not write (`ZZ`, `10H`, `1S`, lower case `as`, ` KD`), and a repeated
sequence number carrying another card, were dropped with no row, no alert and nothing in the
log (`as` and ` KD` were even dealt as AS and KD). Each is now a STOP alert and a
`device_report` row, coalesced like the other reports; a bad checksum is counted in the link's
report. Real bytes on a pseudo-terminal, read by the shoe's driver."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from hardware.shoe.line_dialect import encode_frame
from hardware.shoe.reader import ShoeReader
from kiosk.assembly import SimulatedShoe
from kiosk.table.session import Severity
from tests.table.helpers import Session
from tests.table.test_session import _ready


async def _feed(session: Session, frames: list[bytes]) -> None:
    """The simulated shoe says HELLO and deals one card, then `frames` go down the line."""
    shoe = SimulatedShoe(8, seed=5)
    reader = ShoeReader(shoe.path, "line", session.on_device_event)
    task = asyncio.create_task(reader.run())
    try:
        assert await reader.wait_connected(5)
        shoe.open()
        shoe.pull()
        for frame in frames:
            shoe.send(frame)
        stats = reader.stats
        for _ in range(500):  # until the driver has read every frame (HELLO, STATE, CARD..)
            await asyncio.sleep(0.01)
            if stats.frames + stats.bad_total + stats.duplicates >= 3 + len(frames):
                break
    finally:
        reader.stop()
        await asyncio.gather(task, return_exceptions=True)
        shoe.close()


def _reports(session: Session) -> list[dict[str, object]]:
    return [e.payload for e in session.journal.entries() if e.kind == "device_report"
            and e.payload["event"] not in ("hello", "state")]


@pytest.mark.parametrize("code", ["ZZ", "10H", "1S", "as", " KD"])
def test_a_card_code_the_spec_does_not_write_is_a_stop_and_a_row(tmp_path: Path,
                                                                  code: str) -> None:
    s = _ready(tmp_path / "j.db")
    asyncio.run(_feed(s, [encode_frame("SHOE", 3, "CARD", code)]))
    reports = _reports(s)
    assert [r["event"] for r in reports] == ["card_unknown"]
    assert repr(code) in str(reports[0]["detail"])
    assert f"SHOE,3,CARD,{code}" in str(reports[0]["detail"])
    stop = [a for a in s.alerts if a.severity is Severity.STOP]
    assert [a.message for a in stop] == [
        f"The card shoe sent a card the table does not know: $SHOE,3,CARD,{code}*"
        f"{encode_frame('SHOE', 3, 'CARD', code)[-4:-2].decode()}"]
    # Only the simulator's one good card was dealt: `as` is not the ace of spades.
    dealt_rows = [e.payload for e in s.journal.entries() if e.kind == "punto_banco.card_dealt"]
    assert len(dealt_rows) == 1, dealt_rows


def test_a_repeated_seq_with_another_card_is_a_stop_and_a_row(tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    # The simulator sends HELLO 0, STATE 1, the first card as 2: seq 3 twice, other cards.
    asyncio.run(_feed(s, [encode_frame("SHOE", 3, "CARD", "9H"),
                          encode_frame("SHOE", 3, "CARD", "9H"),  # a retransmission
                          encode_frame("SHOE", 3, "CARD", "4C")]))
    reports = _reports(s)
    assert [r["event"] for r in reports] == ["repeat_differs"]
    assert "'SHOE,3,CARD,9H'" in str(reports[0]["detail"])
    assert "SHOE,3,CARD,4C" in str(reports[0]["detail"])
    assert any(a.severity is Severity.STOP and "two messages under one number" in a.message
               for a in s.alerts)
    dealt = [e.payload["card"] for e in s.journal.entries()
             if e.kind == "punto_banco.card_dealt"]
    assert len(dealt) == 2 and dealt[1] == "9H"


def test_bad_checksums_are_counted_in_the_links_report_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s = _ready(tmp_path / "j.db")
    bad = bytearray(encode_frame("SHOE", 3, "CARD", "9H"))
    bad[-3] ^= 1  # the checksum's second digit: one more, or one less
    caplog.set_level(logging.WARNING)
    asyncio.run(_feed(s, [bytes(bad), bytes(bad), encode_frame("SHOE", 4, "CARD", "4C")]))
    reports = _reports(s)
    # One row for the first reject, the second counted; the card lost shows as a gap.
    assert [r["event"] for r in reports] == ["bad_input", "frames_lost"]
    assert str(reports[0]["detail"]).startswith("bad checksum: checksum")
    assert str(reports[0]["detail"]).endswith("(so far: 1 bad checksum)")
    s.flush_reports()
    last = list(s.journal.entries())[-1].payload
    assert last["event"] == "bad_input" and "count" not in last  # one more
    assert "(so far: 2 bad checksum)" in str(last["detail"])
    # The technician's log (journalctl reads the kiosk's stderr) has the reject.
    assert any("SHOE bad_input: bad checksum" in r.getMessage() for r in caplog.records
               if r.levelno >= logging.WARNING)
