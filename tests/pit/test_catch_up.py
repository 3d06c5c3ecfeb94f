"""Catch-up after a network cut, and a sync the floor can trust: the sync probes the pit
every few seconds and sends the backlog at once when it answers again; its line says when
it reconnects; an idle sync still beats, carrying the rows waiting; a quarantined batch is
no sync; a stopped sync sends what is left and says it is not running. Counted attempts and
a fake sleep: no timing assertions."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.store.journal import Journal
from kiosk.sync import state as sync_state
from kiosk.sync.client import SyncClient
from kiosk.sync.status import status
from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import wire_rows


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PitServer]:
    state = open_pit(str(tmp_path / "pit.db"))
    running = PitServer(state).start()
    yield running
    running.stop()
    state.close()


class Cut:
    """A network between the table and the pit that can be cut: while `down`, every request
    fails to connect; otherwise it goes to the real pit. Counts the requests that failed."""

    def __init__(self, url: str) -> None:
        self.down = False
        self.refused = 0
        self._real = httpx.Client(base_url=url, timeout=30)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            self.refused += 1
            raise httpx.ConnectError("the network is down", request=request)
        answer = self._real.request(request.method, request.url.raw_path.decode(),
                                    headers=dict(request.headers), content=request.read())
        return httpx.Response(answer.status_code, headers=answer.headers,
                              content=answer.content)


def _table(tmp_path: Path, server: PitServer, coups: int) -> tuple[Journal, str]:
    token = server.state.store.enroll("PB-01")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(coups)
    return journal, token


def test_a_restored_network_is_used_at_once_and_the_backlog_sent_without_a_wait(
        tmp_path: Path, server: PitServer) -> None:
    journal, token = _table(tmp_path, server, 2)
    cut = Cut(server.url)
    waits: list[tuple[float, int, str]] = []  # (wait, rows at the pit, the sync's line)
    client = SyncClient(journal.path, "PB-01", server.url, token, batch=50,
                        http=httpx.Client(transport=httpx.MockTransport(cut)),
                        rng=random.Random(3))

    def sleep(seconds: float) -> None:
        waits.append((seconds, server.state.store.head("PB-01")[0],
                      status(journal.path, client.state).line()))
        if len(waits) == 1:  # synced: now the cut, and play on through it
            cut.down = True
            Day(journal, seed=5).play(12)
        elif len(waits) == 40:  # forty failed probes later, the network is back
            cut.down = False
        elif len(waits) > 40:
            client._stop.set()

    client._sleep = sleep  # type: ignore[assignment]
    client.run()
    during = waits[1:40]
    assert cut.refused == len(during)  # one attempt a wait
    # However long the cut, the next try is a few seconds away at most (it grew to 60 s).
    assert max(w for w, _, _ in during) <= 4.0
    assert 2.0 <= during[-1][0] <= 4.0
    # The sync's line says when it reconnects, in whole seconds, up to the wait.
    seconds = int(during[-1][2].split("reconnecting in ")[1].split(" s")[0])
    assert 1 <= seconds <= 4 and during[-1][2].startswith("Sync not connected, reconnecting in")
    # Back: the whole backlog (more than one batch) before the sync waits again.
    assert journal.count() - waits[0][1] > 2 * client.batch
    assert waits[40][1] == journal.count()
    client.close()
    journal.close()


def test_an_idle_sync_beats_with_its_rows_waiting_and_the_floor_hears_it(
        tmp_path: Path, server: PitServer) -> None:
    journal, token = _table(tmp_path, server, 2)
    times = iter(f"2026-11-28T08:00:{s:02d}.000Z" for s in range(60))
    server.state.store.clock = lambda: next(times)
    client = SyncClient(journal.path, "PB-01", server.url, token, batch=10)
    client.heartbeat_every = 0.0
    assert client.step() == 10
    ((row),) = server.state.store.floor()
    assert row.rows_waiting == journal.count() - 10 and row.last_sync_at is not None
    client.sync_all()  # ends with an idle step: a heartbeat
    beats = client.heartbeats
    heard = server.state.store.floor()[0].last_sync_at
    assert client.step() == 0 and client.heartbeats == beats + 1  # nothing to send: a beat
    row = server.state.store.floor()[0]
    assert row.last_sync_at is not None and heard is not None and row.last_sync_at > heard
    assert row.rows_waiting == 0
    # By default an idle sync beats every 10 s, not on every look at the journal.
    quiet = SyncClient(journal.path, "PB-01", server.url, token)
    quiet.sync_all()
    assert quiet.heartbeats == 1 and quiet.step() == 0 and quiet.heartbeats == 1
    for made in (client, quiet):
        made.close()
    journal.close()


def test_a_quarantined_batch_is_not_a_sync(tmp_path: Path, server: PitServer) -> None:
    journal, _ = _table(tmp_path, server, 6)
    rows = wire_rows(journal.path)
    times = iter(f"2026-11-28T08:00:{s:02d}.000Z" for s in range(60))
    server.state.store.clock = lambda: next(times)
    server.state.store.ingest("PB-01", rows[:20], waiting=len(rows) - 20)
    heard = server.state.store.floor()[0].last_sync_at
    edited = json.loads(rows[25].payload)
    edited["coup"] = 99
    bad = dataclasses.replace(rows[25], payload=json.dumps(edited, sort_keys=True,
                                                           separators=(",", ":")))
    result = server.state.store.ingest("PB-01", [*rows[20:25], bad, *rows[26:]], waiting=0)
    assert result.quarantined and result.stored == 5
    row = server.state.store.floor()[0]
    assert row.last_sync_at == heard  # heard, but not synced
    gap = server.state.store.ingest("PB-01", rows[40:45])  # rows missing before these
    assert gap.expected_seq is not None and server.state.store.floor()[0].last_sync_at == heard
    journal.close()


def test_a_stopped_sync_sends_what_is_left_and_says_it_is_not_running(
        tmp_path: Path, server: PitServer) -> None:
    journal, token = _table(tmp_path, server, 2)
    client = SyncClient(journal.path, "PB-01", server.url, token, idle=3600.0)
    client.start()
    deadline = time.monotonic() + 60  # a bound for a busy machine, not a figure
    while client.state.acked_seq != journal.count():  # sent, then idle for an hour
        assert time.monotonic() < deadline, "the sync did not send the first rows"
        time.sleep(0.02)
    Day(journal, seed=9).play(1)  # the last coup before the dealer types quit
    client.stop()
    assert server.state.store.head("PB-01")[0] == journal.count()  # nothing left waiting
    now = status(journal.path)
    assert (now.running, now.connected, now.waiting) == (False, False, 0)
    assert now.line().startswith("Sync not running (stopped at ")
    toml = tmp_path / "table.toml"
    toml.write_text(f'[table]\nid = "PB-01"\ngame = "punto-banco"\njournal = '
                    f'"{journal.path}"\n[devices.shoe]\nport = "simulated"\n'
                    f'[sync]\npit = "{server.url}"\ncredential_file = "PB-01.credential"\n')
    out = CliRunner().invoke(main, ["sync", "status", "--config", str(toml), "--json"])
    said = json.loads(out.output)
    assert out.exit_code == 1
    assert (said["running"], said["last_error"]) == (False, "the sync was stopped")
    assert sync_state.load(sync_state.state_path(journal.path)).stopped
    journal.close()


def test_the_screens_corner_says_when_the_sync_reconnects(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from kiosk import i18n
    from kiosk.store.canonical import format_wall_time
    from kiosk.ui.sync_words import corner

    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    now = datetime.now(UTC)
    sync_state.save(sync_state.state_path(journal.path), sync_state.SyncState(
        pit="http://pit.test", connected=False, last_attempt_at=format_wall_time(now),
        retry_at=format_wall_time(now + timedelta(seconds=2.2)), last_error="cut"))
    read = status(journal.path, now=now)
    assert read.reconnect_in(now) == 3  # rounded up: never "in 0 s" while still waiting
    assert corner(read, now).startswith("Pit offline, reconnecting in 3 s · ")
    with i18n.using("af"):
        assert corner(read, now).startswith("Pit van lyn af, koppel weer oor 3 s · ")
    assert corner(read, now + timedelta(seconds=10)).startswith("Pit offline, reconnecting "
                                                                "in 0 s")
    journal.close()


def test_a_long_cut_is_not_a_state_file_written_every_probe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.sync import client as sync_client
    from kiosk.sync.client import PitUnreachable

    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    client = SyncClient(journal.path, "T", "http://pit.test", "x", rng=random.Random(2))
    clock = [1000.0]
    monkeypatch.setattr(sync_client.time, "monotonic", lambda: clock[0])
    for _ in range(60):  # four minutes of a cut, a probe every 4 s at most
        client.failures += 1
        wait = client.wait_for(PitUnreachable("down"))
        client._failed("the pit at http://pit.test does not answer", wait=wait)
        clock[0] += wait
    # The first failure at once, then the next try's time once in 10 s (at the first probe
    # 10 s or more after the last write, so at most 14 s apart), not 60 times.
    spent = clock[0] - 1000
    assert spent / 14 <= client.writes <= spent / 10 + 1
    assert client.writes < 20
    client.close()
    journal.close()
