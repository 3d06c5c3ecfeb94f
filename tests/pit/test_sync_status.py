"""The sync's state file and status: written only when a reader would see a
change (not on every idle look: an SD card wears), stale when the sync stops or the table is
off, a pit's 429 waited for as its Retry-After says, and `journal verify` saying when it
could not check against the pit's head. Against a pit answering from httpx.MockTransport."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.store.canonical import format_wall_time
from kiosk.store.journal import Journal, head_of
from kiosk.sync import client as sync_client, state as sync_state
from kiosk.sync.client import PitBusy, SyncClient, retry_after
from kiosk.sync.status import STALE_AFTER, status
from tests.pit.day import Day


class FakePit:
    """The pit's head and rows endpoints, holding whatever it is sent; `busy` answers 429
    with that Retry-After."""

    def __init__(self) -> None:
        self.head = {"seq": 0, "hash": sync_state.GENESIS}
        self.busy: str | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if self.busy is not None:
            return httpx.Response(429, headers={"Retry-After": self.busy},
                                  json={"error": "slow down"})
        if request.url.path.endswith("/head"):
            return httpx.Response(200, json=self.head)
        if request.url.path.endswith("/rows"):
            import json

            rows = json.loads(request.content)["rows"]
            if rows:  # none: a heartbeat
                self.head = {"seq": rows[-1]["seq"], "hash": rows[-1]["hash"]}
            return httpx.Response(200, json={"head": self.head})
        return httpx.Response(204)


def _client(tmp_path: Path, pit: FakePit, **kw: Any) -> tuple[Journal, SyncClient]:
    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(3)
    client = SyncClient(journal.path, "T", "http://pit.test", "x",
                        http=httpx.Client(transport=httpx.MockTransport(pit)), **kw)
    return journal, client


def test_an_idle_sync_writes_its_state_only_when_something_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[sync_state.SyncState] = []
    real = sync_state.save

    def counted(path: Any, state: sync_state.SyncState) -> None:
        writes.append(state)
        real(path, state)

    monkeypatch.setattr(sync_state, "save", counted)
    pit = FakePit()
    journal, client = _client(tmp_path, pit)
    assert client.step() > 0  # the rows reach the pit: the new head is written
    assert len(writes) == 1 and writes[-1].acked_seq == journal.count()
    for _ in range(100):  # 20 s of idle looks at 0.2 s: nothing new to write
        time.sleep(0.001)  # each look's time differs
        assert client.step() == 0
    assert len(writes) == 1
    assert client.state.last_attempt_at > writes[-1].last_attempt_at  # kept, in memory
    # A new row acknowledged: written at once.
    Day(journal, seed=2).play(1)
    client.step()
    assert len(writes) == 2 and writes[-1].acked_seq == journal.count()
    # Idle for FRESH_EVERY: written once more, to show the sync still runs.
    monkeypatch.setattr(sync_client.time, "monotonic",
                        lambda real=time.monotonic: real() + sync_client.FRESH_EVERY)
    client.step()
    client.step()
    assert len(writes) == 3 and writes[-1].acked_seq == writes[-2].acked_seq
    # The pit refusing: the link's change is written; the same failure again is not.
    pit.busy = "1"
    for _ in range(3):  # as `run` does after each failure
        client._pit_head = None
        with pytest.raises(PitBusy) as caught:
            client.step()
        client._failed(str(caught.value))
    assert len(writes) == 4 and writes[-1].last_error
    client.close()
    journal.close()


def _state(path: Path, *, connected: bool, touched: datetime | None) -> None:
    sync_state.save(sync_state.state_path(path), sync_state.SyncState(
        pit="http://pit.test", connected=connected,
        last_attempt_at=format_wall_time(touched) if touched else ""))


def test_a_state_file_left_long_ago_reads_as_the_sync_not_running(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    now = datetime.now(UTC)
    _state(journal.path, connected=True, touched=now - timedelta(seconds=10))
    fresh = status(journal.path)
    assert fresh.connected and fresh.running and not fresh.late()
    assert fresh.line().startswith("Sync connected: ")
    _state(journal.path, connected=True, touched=now - timedelta(seconds=STALE_AFTER + 5))
    stale = status(journal.path)
    assert not stale.connected and not stale.running and stale.late()
    assert stale.line().startswith("Sync not running (no word from it since ")
    _state(journal.path, connected=True, touched=None)  # never written by a running sync
    assert not status(journal.path).running
    # `tableside sync status` says so, and exits 1.
    toml = tmp_path / "table.toml"
    toml.write_text(f'[table]\nid = "T"\ngame = "punto-banco"\njournal = "{journal.path}"\n'
                    '[devices.shoe]\nport = "simulated"\n'
                    '[sync]\npit = "http://pit.test"\ncredential_file = "T.credential"\n')
    out = CliRunner().invoke(main, ["sync", "status", "--config", str(toml)])
    assert out.exit_code == 1 and "Sync not running" in out.output
    _state(journal.path, connected=True, touched=now)
    out = CliRunner().invoke(main, ["sync", "status", "--config", str(toml)])
    assert out.exit_code == 0 and "Sync connected" in out.output
    journal.close()


def test_a_stopped_sync_says_it_is_not_connected(tmp_path: Path) -> None:
    pit = FakePit()
    journal, client = _client(tmp_path, pit, idle=0.01)
    client.start()
    deadline = time.monotonic() + 10
    while not status(journal.path).connected and time.monotonic() < deadline:
        time.sleep(0.01)  # the file, as another process reads it
    assert status(journal.path).connected
    client.stop()
    left = sync_state.load(sync_state.state_path(journal.path))
    assert not left.connected and left.last_error == "the sync was stopped"
    assert left.head == head_of(journal.path)  # the acknowledged head stays
    assert not status(journal.path).connected
    journal.close()


def test_a_busy_pit_is_waited_for_as_its_retry_after_says(tmp_path: Path) -> None:
    pit = FakePit()
    waits: list[float] = []
    journal, client = _client(tmp_path, pit, max_backoff=60, rng=random.Random(1),
                              sleep=waits.append)
    for header, wait in (("7", 7.0), ("3600", 60.0), ("0", 0.5)):
        pit.busy = header
        with pytest.raises(PitBusy, match="slow down") as caught:
            client.step()
        assert client.wait_for(caught.value) == wait  # bounded by BASE and max_backoff
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 28 <= (retry_after(later) or 0) <= 30
    assert retry_after("soon") is None and retry_after(None) is None
    pit.busy = "soon"  # no Retry-After that reads: the usual backoff
    with pytest.raises(PitBusy) as caught:
        client.step()
    client.failures = 1
    assert 0.25 <= client.wait_for(caught.value) <= 0.5
    # The loop sleeps that long, and the pit (which answered) counts as connected.
    pit.busy = "12"
    client._sleep = lambda s: (waits.append(s), client._stop.set())  # type: ignore[assignment]
    client.run()
    assert waits[-1] == 12.0
    assert client.state.connected and "retry after 12 s" in client.state.last_error
    client.close()
    journal.close()


def test_journal_verify_says_when_it_could_not_check_the_pits_head(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(2)
    journal.close()
    runner = CliRunner()
    out = runner.invoke(main, ["journal", "verify", str(journal.path)])
    assert out.exit_code == 0
    assert "Not checked against the pit" in out.output and "T.sync.json" in out.output
    assert "is missing" in out.output
    seq, digest = head_of(journal.path)
    sync_state.save(sync_state.state_path(journal.path),
                    sync_state.SyncState(acked_seq=seq, acked_hash=digest))
    out = runner.invoke(main, ["journal", "verify", str(journal.path)])
    assert out.exit_code == 0 and "Not checked" not in out.output
    assert f"row {seq} is the row the pit acknowledged" in out.output


def test_the_screens_corner_is_in_the_screens_language(tmp_path: Path) -> None:
    from kiosk import i18n
    from kiosk.ui.sync_words import corner

    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    now = datetime.now(UTC)
    _state(journal.path, connected=True, touched=now)
    read = status(journal.path)
    english = corner(read, now)
    assert english.startswith("Pit connected · nothing acknowledged yet · ")
    assert f"{i18n.number(journal.count())} waiting, oldest " in english
    for code, words in (("pt", "Pit ligado"), ("af", "Pit gekoppel"),
                        ("zu", "I-pit ixhunyiwe")):
        with i18n.using(code):
            said = corner(read, now)
        assert said.startswith(words) and said != english
    journal.close()


def test_a_table_with_a_pit_and_no_state_file_shows_its_sync_not_running(
        tmp_path: Path) -> None:
    from kiosk.ui.sync_words import corner, read

    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    assert read(journal.path, syncs=False) is None  # no pit: no corner at all
    never = read(journal.path, syncs=True)  # a pit, but the sync never wrote its file
    assert never is not None and not never.running and never.late()
    assert corner(never).startswith("Sync not running · nothing acknowledged yet · ")
    _state(journal.path, connected=True, touched=datetime.now(UTC))
    written = read(journal.path, syncs=False)  # a file says the table syncs
    assert written is not None and written.connected
    journal.close()


def test_the_corner_gives_the_date_of_an_acknowledgement_before_today() -> None:
    from kiosk.i18n import number
    from kiosk.sync.status import SyncStatus
    from kiosk.ui.sync_words import corner

    at = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    today = SyncStatus(True, 1234, "2026-11-27T08:59:58.000Z", 0, "", "")
    assert corner(today, at) == (f"Pit connected · row {number(1234)} acknowledged 08:59:58 UTC"
                                 " · 0 waiting")  # the count as the language writes it
    before = SyncStatus(False, 7, "2026-11-25T23:10:00.000Z", 3, "2026-11-25T23:10:01.000Z",
                        "refused")
    assert corner(before, at) == ("Pit offline · row 7 acknowledged 2026-11-25 23:10:00 UTC · "
                                  "3 waiting, oldest 33.8 h")
