"""A full disk stops the table cleanly. `run --console` with a simulated shoe kept pulling cards
it could not record ("Could not record a CardRead" every 2.5 s, each card lost), and `status`,
`void` and `quit` got no answer while it did. Now the first failed write stops the dealing with
one STOP alert, the card that could not be recorded waits in memory, the console answers, and
the card goes on record once there is space again. The disk is really full: the journal lives
on a small tmpfs that the test fills (mounting needs root, as the SD image's tests do)."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import assembly, console
from kiosk.config import parse
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import iter_entries, verify


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Every byte of the small disk taken by one file (removed to give the space back)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_stops_the_dealing_and_the_console_still_answers(
        small_disk: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    journal = small_disk / "PB-01.db"
    cfg = parse(f'[table]\nid = "PB-01"\ngame = "punto-banco"\njournal = "{journal}"\n'
                '[chips]\nsmallest = 5\n[devices.shoe]\nport = "simulated"\n')
    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read_end, "r"))
    sessions: list[Any] = []
    shoes: list[Any] = []
    filler: list[Path] = []
    real_open = assembly.open_session  # what the console's open_table opens the table with

    def open_session(cfg: Any, **kwargs: Any) -> Any:
        session, j = real_open(cfg, **kwargs)
        sessions.append(session)

        def fill_after_the_first_card(_state: Any, op: Any) -> None:
            if isinstance(op, pb.CardDealt) and not filler:
                filler.append(fill(small_disk))  # the next write finds the disk full

        session.listeners.append(fill_after_the_first_card)
        return session, j

    class Shoe(console.SimulatedShoe):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            shoes.append(self)

    monkeypatch.setattr(assembly, "open_session", open_session)
    monkeypatch.setattr(console, "SimulatedShoe", Shoe)
    said: list[str] = []

    def out() -> str:
        said.append(capsys.readouterr().out)
        return "".join(said)

    async def until(test: Callable[[], bool], what: str) -> None:
        for _ in range(3000):  # generous: a busy machine; never a timed assertion
            if test():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never: {what}\n{out()}")

    def typed(line: str) -> None:
        os.write(write_end, line.encode() + b"\n")

    async def scenario() -> None:
        task = asyncio.create_task(console.run_console(cfg))
        typed("shuffle")
        typed("bet 1 banker 100")
        typed("close")
        await until(lambda: bool(sessions) and bool(sessions[0].halted), "a failed write")
        s, shoe = sessions[0], shoes[0]
        assert "disk_full" in s.halted or "full" in s.halted.lower()
        # The card that could not be recorded waits; the one before it is on record.
        assert s.waiting() == shoe.sim.dealt[-1].card.code
        assert len(shoe.sim.dealt) == 2
        stops = [a for a in s.alerts if "journal cannot be written" in a.message]
        assert len(stops) == 1 and stops[0].severity.value == "stop"
        # No more cards are pulled: the old console pulled one every 2.3 s.
        await asyncio.sleep(2.6)
        assert len(shoe.sim.dealt) == 2 and len(s.unrecorded) == 1
        # The console answers while the disk is full.
        typed("status")
        await until(lambda: "STOPPED: the journal cannot be written" in out(), "status")
        assert f"Waiting to be recorded: {shoe.sim.dealt[-1].card.code}." in out()
        typed("void the disk is full")
        await until(lambda: "refused: Cannot write the journal" in out(), "void answered")
        assert s.state.phase is pb.Phase.DEALING  # nothing shown that is not on record
        # Space comes back: the failure and the waiting card go on record, the coup goes on.
        filler[0].unlink()
        typed("status")
        await until(lambda: not s.halted and not s.unrecorded, "the card recorded")
        await until(lambda: s.state.phase is pb.Phase.PAYING, "the coup dealt to its end")
        assert "The journal writes again: 1 card(s) that waited are recorded now" in out()
        typed("quit")
        await asyncio.wait_for(task, 30)

    asyncio.run(scenario())
    os.close(write_end)
    assert verify(journal).ok
    rows = list(iter_entries(journal))
    dealt = [e.payload["card"] for e in rows if e.kind == "punto_banco.card_dealt"]
    assert dealt == [d.card.code for d in shoes[0].sim.dealt]  # every card, in order
    failed = next(i for i, e in enumerate(rows) if e.payload.get("event") == "write_failed")
    second = [i for i, e in enumerate(rows) if e.kind == "punto_banco.card_dealt"][1]
    assert failed < second  # the failure on record before the card it held back
    assert f"cards kept meanwhile: {dealt[1]}" in rows[failed].payload["detail"]


def test_the_screens_simulated_dealer_pulls_no_card_while_the_journal_cannot_write(
        small_disk: Path) -> None:
    """The dealer screen's simulated shoe (kiosk/ui/launcher.py) stops too, and a card that
    comes out of a real shoe meanwhile waits and goes on record, in order, once it can."""
    from hardware import events as ev
    from kiosk.rules.cards import Card
    from kiosk.ui.launcher import SimulatedDealer
    from tests.table.helpers import open_session

    s = open_session(small_disk / "PB-01.db")
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    s.perform(pb.close_betting)
    s.on_device_event(ev.CardRead(device="SHOE", seq=1, card=Card.parse("4H")))
    filler = fill(small_disk)
    for seq, code in ((2, "3C"), (3, "KD")):  # out of a real shoe while the disk is full
        s.on_device_event(ev.CardRead(device="SHOE", seq=seq, card=Card.parse(code)))
    s.on_device_event(ev.CardBurned(device="SHOE", seq=4, card=None))  # a burn waits too
    assert s.halted and s.waiting() == "3C, KD, burn"
    assert len(s.state.player_cards) + len(s.state.banker_cards) == 1

    class Shoe:
        pulled = 0

        def pull(self) -> Card | None:
            self.pulled += 1
            return None

    shoe = Shoe()

    async def deal_a_while() -> None:
        task = asyncio.create_task(SimulatedDealer(s, shoe, 0.01, lambda _st: True).run())
        await asyncio.sleep(0.3)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(deal_a_while())
    assert shoe.pulled == 0
    filler.unlink()
    assert s.retry_journal(now=True)
    assert not s.halted and not s.unrecorded
    dealt = [e.payload["card"] for e in s.journal.entries() if e.kind == "punto_banco.card_dealt"]
    assert dealt == ["4H", "3C", "KD"]
    # The burn after them is on record too: refused mid-coup, as it would have been then.
    last = list(s.journal.entries())[-1].payload
    assert (last["event"], last["device"]) == ("burn_refused", "SHOE")
    asyncio.run(deal_a_while())
    assert shoe.pulled > 0  # dealing goes on
    s.journal.close()
