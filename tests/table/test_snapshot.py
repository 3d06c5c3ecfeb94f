"""Snapshots keep start-up flat as the journal grows: the session writes one every
SNAPSHOT_EVERY rows, start-up folds from the last one, and replay checks each against its own
fold from the first row."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.replay import load_entries, replay
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import Journal
from kiosk.table import session as session_module, snapshot
from kiosk.table.fold import fold
from kiosk.table.records import Snapshot
from tests.table.helpers import cards, open_session
from tests.test_replay import _rechain

BANKER_7_TO_5 = cards("4H", "3C", "KD", "4S", "2C")


def _coups(s, n: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(n):
        s.perform(pb.shuffle)  # the same five cards each coup: a fresh shoe each time
        s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 5_500))
        s.perform(pb.close_betting)
        for c in BANKER_7_TO_5:
            s.perform(lambda st, c=c: pb.shoe_card(st, c))
        s.perform(pb.confirm_payouts)


@pytest.fixture
def every_20(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 20)


def test_start_up_folds_only_the_rows_after_the_last_snapshot(every_20: None,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    s = open_session(path)
    _coups(s, 10)  # 91 rows of play
    full = fold(s.journal.entries())
    s.journal.close()
    rows = load_entries(path)
    snaps = [e for e in rows if e.kind == Snapshot.kind]
    assert [e.seq for e in snaps] == [21, 42, 63, 84]  # one after every 20 rows of play
    assert snaps[-1].payload["covers"] == 83 and snaps[-1].payload["game"] == "punto-banco"
    with Journal.open(path, "PB-01") as j:
        folded_rows: list[int] = []
        real = j.entries

        def counting(after: int = 0):  # type: ignore[no-untyped-def]
            folded_rows.append(after)
            return real(after)

        j.entries = counting  # type: ignore[method-assign]
        started = snapshot.fold_journal(j)
    assert folded_rows == [84]  # from the last snapshot on, not from row 1
    assert started.state == full.state and started.seq == full.seq == len(rows)
    again = open_session(path)
    assert again.state == full.state and again.state.coup == 11
    assert replay(rows).ok  # every snapshot matches the fold from the first row


def test_a_forged_snapshot_is_found_by_replay_and_an_unreadable_one_ignored(
        every_20: None, tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    s = open_session(path)
    _coups(s, 3)
    s.journal.close()
    rows = load_entries(path)
    i = next(n for n, e in enumerate(rows) if e.kind == Snapshot.kind)
    rows[i].payload["state"] = rows[i].payload["state"].replace('"coup":3', '"coup":9')
    assert rows[i].payload["state"] != load_entries(path)[i].payload["state"]
    report = replay(_rechain(rows))
    assert report.chain_ok and not report.ok
    assert report.problems == [f"row {rows[i].seq}: the snapshot of row {rows[i].seq - 1} "
                               f"differs from the table the journal folds to there"]
    # A snapshot start-up cannot read (a newer layout) is passed over: fold from row 1.
    with Journal.open(path, "PB-01") as j:
        last = j.last()
        assert last is not None
        j.append(Snapshot.kind, {**rows[i].payload, "covers": last.seq, "layout": 99})
        assert snapshot.fold_journal(j).state == fold(rows).state


def test_the_signage_feed_starts_from_the_last_snapshot(every_20: None,
                                                        tmp_path: Path) -> None:
    from kiosk.ui.signage.feed import JournalFeed

    path = tmp_path / "j.db"
    s = open_session(path)
    _coups(s, 5)
    feed = JournalFeed(path)
    change = feed.poll()
    assert change.refolded is False and change.seq == s.journal.count()
    last_snapshot = max(e.seq for e in load_entries(path) if e.kind == Snapshot.kind)
    assert change.applied == s.journal.count() - last_snapshot  # only the rows after it
    assert feed.state == s.state and feed.game is not None and feed.game.name == "punto-banco"
    _coups(s, 1)  # and it follows on from there, row by row
    assert feed.poll().applied == 9 and feed.state == s.state
    feed.close()
    s.journal.close()
