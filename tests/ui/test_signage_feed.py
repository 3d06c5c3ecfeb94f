"""The signage's journal feed: it folds what the dealer app journals into the same state, and
keeps the last good state through a missing, locked, restarted or replaced journal.

Also holds the helpers the other signage tests share (coups with chosen cards)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.store.journal import Journal
from kiosk.table.session import DeviceReport
from kiosk.ui.signage.feed import JournalFeed, Link
from tests.table.helpers import Session, open_session

# Cards in the order rule 5.2 deals them: player, banker, player, banker, then draws.
BANKER_7_TO_5 = ("2H", "4D", "3C", "3S", "TS")  # P 2+3=5 draws a ten: 5; B 4+3=7 stands
PLAYER_NATURAL_8_TO_3 = ("5H", "2C", "3D", "AC")  # P 8 is a natural: no cards drawn
TIE_6_TO_6 = ("4H", "3D", "2S", "3C")  # P 6 stands; B 6 stands when the Player stood


def deal(session: Session, codes: Iterable[str]) -> None:
    for code in codes:
        card = Card.parse(code)
        session.perform(lambda st: pb.deal_card(st, card, pb.CardSource.KEYED))  # noqa: B023


def coup(session: Session, codes: Iterable[str], *, settle: bool = True) -> None:
    """One coup: a bet each on banker and player, no more bets, the cards, the payouts."""
    session.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    session.perform(lambda st: pb.place_bet(st, "2", pb.BetKind.PLAYER, 5_000))
    session.perform(pb.close_betting)
    deal(session, codes)
    assert session.state.phase is pb.Phase.PAYING, "the chosen cards must complete the coup"
    if settle:
        session.perform(pb.confirm_payouts)


def random_coups(session: Session, n: int, seed: int = 7) -> None:
    """`n` coups dealt from a seeded shuffle of what is left in the shoe."""
    assert session.state.shoe is not None
    cards = list(session.state.shoe.cards_left())
    random.Random(seed).shuffle(cards)
    for _ in range(n):
        session.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
        session.perform(pb.close_betting)
        while session.state.phase is pb.Phase.DEALING:
            deal(session, [cards.pop().code])
        session.perform(pb.confirm_payouts)


def link(feed: JournalFeed) -> Link:
    """The feed's link now (a call, so a type checker does not keep an earlier answer)."""
    return feed.link


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def feed(journal_path: Path) -> Iterator[JournalFeed]:
    f = JournalFeed(journal_path)
    yield f
    f.close()


def test_waits_for_the_journal_then_folds_the_same_state_as_the_dealer(
        feed: JournalFeed, journal_path: Path) -> None:
    change = feed.poll()  # no file yet: waiting, never an exception
    assert link(feed) is Link.WAITING and feed.state is None and not change.state_changed
    session = open_session(journal_path)
    change = feed.poll()
    assert link(feed) is Link.LIVE and change.link_changed and change.applied == 1
    assert feed.table_id == "PB-01"
    assert feed.state == session.state  # table_opened: the table's own rules (rule 2.2)
    session.perform(pb.shuffle)  # rule 5.5
    coup(session, BANKER_7_TO_5)
    change = feed.poll()
    assert change.applied == session.journal.count() - 1 and change.seq == feed.seq
    assert feed.state == session.state  # the very same fold as the dealer app's
    assert feed.state is not None and feed.state.last_settled is not None
    result = feed.state.last_settled.result
    assert (result.winner, result.banker_total, result.player_total) == ("banker", 7, 5)
    # Nothing new: data_version is unchanged and nothing is read.
    again = feed.poll()
    assert not again.state_changed and again.applied == 0


def test_reads_rows_only_when_another_connection_committed(
        feed: JournalFeed, journal_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = open_session(journal_path)
    feed.poll()
    reads: list[int] = []
    real = Journal.entries

    def counting(self: Journal, after_seq: int = 0) -> Iterator[object]:
        reads.append(after_seq)
        return real(self, after_seq)

    monkeypatch.setattr(Journal, "entries", counting)
    for _ in range(20):
        feed.poll()
    assert reads == [], "an unchanged journal must cost one PRAGMA, not a read"
    session.perform(pb.shuffle)
    assert feed.poll().applied == 1
    assert reads == [0], "read from one row back (the hash check) and no further"


def test_rows_of_other_layers_and_unknown_kinds_are_skipped(
        feed: JournalFeed, journal_path: Path) -> None:
    session = open_session(journal_path)
    session.perform(pb.shuffle)
    session.perform(lambda _s: DeviceReport("SHOE", "hello", "model X"))
    session.journal.append("inspector_note", {"by": "pit boss", "text": "all good"})
    session.journal.append("punto_banco.bet_placed", {"not": "a bet"})  # a payload unfit
    coup(session, TIE_6_TO_6)
    change = feed.poll()
    assert change.seq == session.journal.count() and link(feed) is Link.LIVE
    assert feed.state == session.state


def test_keeps_the_last_state_while_the_journal_is_missing_then_carries_on(
        feed: JournalFeed, journal_path: Path, tmp_path: Path) -> None:
    session = open_session(journal_path)
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    feed.poll()
    shown = feed.state
    session.journal.close()  # the dealer app stops ...
    away = tmp_path / "away"
    away.mkdir()
    for f in tmp_path.glob("table.db*"):
        shutil.move(f, away / f.name)  # ... and the file is gone for a moment
    change = feed.poll()
    assert link(feed) is Link.RECONNECTING and change.link_changed
    assert feed.state is shown, "the players keep seeing the last good state"
    # It comes back as a copy (a new inode); the feed reopens it and needs no refold.
    for f in away.iterdir():
        shutil.copy(f, tmp_path / f.name)
    change = feed.poll()
    assert link(feed) is Link.LIVE and not change.refolded and feed.state is shown
    session = open_session(journal_path)  # the dealer app is back: same coup, same step
    coup(session, PLAYER_NATURAL_8_TO_3)
    change = feed.poll()
    assert change.applied > 0 and not change.refolded
    assert feed.state == session.state


def test_survives_a_writer_restart_and_a_locked_database(
        feed: JournalFeed, journal_path: Path, tmp_path: Path) -> None:
    session = open_session(journal_path)
    session.perform(pb.shuffle)
    coup(session, TIE_6_TO_6, settle=False)
    feed.poll()
    assert feed.state is not None and feed.state.phase is pb.Phase.PAYING
    session.journal.close()  # the dealer app restarts ...
    assert feed.poll().applied == 0 and link(feed) is Link.LIVE
    # ... and while it recovers it holds the file locked against our reconnection.
    os.rename(journal_path, tmp_path / "moved.db")
    feed.poll()
    os.rename(tmp_path / "moved.db", journal_path)
    locker = sqlite3.connect(journal_path, isolation_level=None)
    try:
        locker.execute("PRAGMA locking_mode=EXCLUSIVE")
        locker.execute("BEGIN EXCLUSIVE")
        kept = feed.state
        for _ in range(3):
            change = feed.poll()  # returns within the short busy timeout, never raises
            assert link(feed) is Link.RECONNECTING and feed.state is kept
        assert "locked" in feed.problem
        locker.execute("COMMIT")
    finally:
        locker.close()
    session = open_session(journal_path)
    assert session.replayed > 0 and session.state.phase is pb.Phase.PAYING
    session.perform(pb.confirm_payouts)
    change = feed.poll()
    assert link(feed) is Link.LIVE and change.applied == 1
    assert feed.state == session.state


def test_a_different_journal_in_its_place_is_folded_from_scratch(
        feed: JournalFeed, journal_path: Path, tmp_path: Path) -> None:
    first = open_session(journal_path)
    first.perform(pb.shuffle)
    random_coups(first, 3)
    feed.poll()
    first.journal.close()
    # The same table, but a shorter journal (seq went backwards): refold.
    shorter = tmp_path / "shorter.db"
    s2 = open_session(shorter)
    s2.perform(pb.shuffle)
    s2.journal.close()
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"table.db{suffix}").unlink(missing_ok=True)
    shutil.copy(shorter, journal_path)
    change = feed.poll()
    assert change.refolded and feed.seq == 2
    assert feed.state is not None and feed.state.results == ()
    # The same table and more rows, but not the rows we folded (their hashes differ).
    longer = tmp_path / "longer.db"
    s4 = open_session(longer)
    s4.perform(lambda _s: DeviceReport("SHOE", "hello", "a different row 2"))
    s4.perform(pb.shuffle)
    coup(s4, TIE_6_TO_6)
    rows = s4.journal.count()
    s4.journal.close()
    os.replace(longer, journal_path)
    change = feed.poll()
    assert change.refolded and feed.seq == rows
    assert feed.state == open_session_state(journal_path, "PB-01")
    assert feed.state is not None and [r.winner for r in feed.state.results] == ["tie"]
    # Another table altogether: refold under its id.
    other = tmp_path / "other.db"
    s3 = Session(pb.PuntoBanco(), Journal.open(other, "PB-02"),
                 pb.PuntoBancoRules(tie_odds=Fraction(9)), "PB-02")
    s3.perform(pb.shuffle)
    coup(s3, BANKER_7_TO_5)
    s3.journal.close()
    os.replace(other, journal_path)
    change = feed.poll()
    assert change.refolded and feed.table_id == "PB-02"
    assert feed.state is not None and feed.state.rules.tie_odds == 9
    assert feed.state == open_session_state(journal_path, "PB-02")


def open_session_state(path: Path, table_id: str) -> pb.PuntoBancoState:
    """The state folded by a fresh dealer session (read-only, as a cross-check)."""
    from kiosk.rules.operations import operation_from_record

    state = pb.initial_state(pb.PuntoBancoRules(), "")
    with Journal.open(path, table_id, read_only=True) as j:
        for e in j.entries():
            state = pb.apply(state, operation_from_record(e.kind, e.payload))
    return state


def test_an_empty_or_foreign_file_is_waited_on(feed: JournalFeed, journal_path: Path) -> None:
    journal_path.write_bytes(b"")  # the dealer app is creating it right now
    feed.poll()
    assert link(feed) is Link.WAITING and feed.state is None
    journal_path.write_bytes(b"this is not a database at all" * 100)
    feed.poll()
    assert link(feed) is Link.WAITING and feed.state is None and feed.problem
    journal_path.unlink()
    session = open_session(journal_path)
    feed.poll()
    assert link(feed) is Link.LIVE and feed.state == session.state


def test_the_table_shows_paused_when_the_dealer_app_stops_beating(
        feed: JournalFeed, journal_path: Path) -> None:
    """The journal alone cannot tell a quiet table from a dealer app that crashed: the app
    touches a file beside it every couple of seconds, and the signage says "Table paused"
    once that stops. With no such file (a copied journal) the journal decides alone."""
    import asyncio
    import time

    from kiosk.ui.launcher import _heartbeat
    from kiosk.ui.signage.link import LINK_WORDS, SILENT_AFTER, heartbeat_path

    open_session(journal_path)
    assert feed.poll().link_changed and link(feed) is Link.LIVE  # no heartbeat file yet
    beat = heartbeat_path(journal_path)
    assert beat == journal_path.with_name("table.db.alive")

    async def beat_once() -> None:
        task = asyncio.create_task(_heartbeat(beat))
        await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(beat_once())  # the dealer app's own beat
    assert abs(beat.stat().st_mtime - time.time()) < 5
    assert not feed.poll().link_changed and link(feed) is Link.LIVE
    then = time.time() - SILENT_AFTER - 20
    os.utime(beat, (then, then))  # the app stopped half a minute ago
    change = feed.poll()  # nothing new in the journal, yet the link changes
    assert change.link_changed and not change.state_changed
    assert link(feed) is Link.PAUSED and LINK_WORDS[Link.PAUSED] == "Table paused"
    assert feed.problem.startswith("the dealer app has not run for 3")
    asyncio.run(beat_once())  # it runs again
    assert feed.poll().link_changed and link(feed) is Link.LIVE
