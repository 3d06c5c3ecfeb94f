"""The sync against a real pit server, on SQLite and on PostgreSQL: a day of play with the
network cut, refused attacks, and the acknowledged head anchoring the local journal."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from kiosk.store.journal import Journal, head_of, verify
from kiosk.sync.client import PitUnreachable, SyncClient, SyncRefused
from kiosk.sync.state import load, state_path
from pit.alerts import CHAIN_BREAK
from pit.ingest import WireRow
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import rehash_from, rewrite_journal, wire_rows


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def wait_for_rows(client: SyncClient, journal: Journal, stall: float = 60.0) -> None:
    """Until the pit holds every row of the journal, however long a backlog takes on a busy
    machine, as long as the sync keeps moving: fails when no row is acknowledged for `stall`
    seconds (a sync that stopped, not a slow one)."""
    seen, moved = client.state.acked_seq, time.monotonic()
    while client.state.acked_seq != journal.count():
        if client.state.acked_seq != seen:
            seen, moved = client.state.acked_seq, time.monotonic()
        elif time.monotonic() - moved > stall:
            raise AssertionError(f"the sync stopped at row {seen} of {journal.count()} for "
                                 f"{stall:g} s: {client.status()}")
        time.sleep(0.05)


def pit_rows(server: PitServer, table_id: str) -> list[WireRow]:
    out: list[WireRow] = []
    while rows := server.state.store.rows(table_id, out[-1].seq if out else 0, 5000):
        out.extend(rows)
    return out


def post(server: PitServer, table_id: str, token: str, rows: list[WireRow],
         **kw: object) -> httpx.Response:
    return httpx.post(f"{server.url}/api/v1/tables/{table_id}/rows",
                      headers={"Authorization": f"Bearer {token}"},
                      json={"rows": [r.as_json() for r in rows]}, **kw)  # type: ignore[arg-type]


def test_a_day_of_play_with_the_pit_down_arrives_exactly_once(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    day.play(50)
    client = SyncClient(journal.path, "PB-01", server.url, token, max_backoff=0.5)
    client.start()
    wait_for(lambda: client.state.acked_seq == journal.count(), 10, "the first coups synced")
    assert client.status().connected

    server.stop()  # the network is cut for the rest of the day
    played = day.play(2000)
    wait_for(lambda: not client.state.connected, 10, "the table notices the pit is gone")
    status = client.status()
    assert status.waiting == played - status.acked_seq > 15_000
    assert status.oldest_unsent and "not connected" in status.line()

    server = pit_server(server.port)  # the network is back
    wait_for(lambda: client.state.acked_seq == played, 60, "the backlog reaches the pit")
    client.stop()
    assert day.rounds == 2050
    mine = wire_rows(journal.path)
    assert pit_rows(server, "PB-01") == mine  # every row, once, byte for byte
    assert server.state.store.head("PB-01") == head_of(journal.path)
    assert server.state.store.quarantined("PB-01") == []
    assert client.status().waiting == 0
    assert load(state_path(journal.path)).head == head_of(journal.path)
    summary = server.state.floor.catch_up("PB-01")
    assert (summary["game"], summary["round"], summary["problems"]) == ("Punto banco", 2051, 0)
    journal.close()


def test_refused_attacks_change_nothing(pit_server: Callable[..., PitServer],
                                        tmp_path: Path) -> None:
    server = pit_server()
    store = server.state.store
    token = store.enroll("PB-01")
    other = store.enroll("PB-02")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(20)
    rows = wire_rows(journal.path)
    client = SyncClient(journal.path, "PB-01", server.url, token)
    assert client.sync_all() == len(rows)
    client.close()
    before = pit_rows(server, "PB-01")

    # A replayed old batch: stored once already, so nothing is stored again.
    answer = post(server, "PB-01", token, rows[10:60])
    assert answer.status_code == 200
    assert answer.json() == {"head": {"seq": rows[-1].seq, "hash": rows[-1].hash},
                             "stored": 0, "duplicates": 50}

    # An edited row: its content no longer matches its hash.
    payload = json.loads(rows[30].payload)
    edited = WireRow(**{**rows[30].as_json(), "payload": json.dumps(
        {**payload, "amount": 1}, sort_keys=True, separators=(",", ":"))})
    answer = post(server, "PB-01", token, [edited])
    assert answer.status_code == 409
    assert answer.json()["error"] == ("quarantined: row 31 was edited: its content does not "
                                      "match its hash")

    # A re-hashed chain: every hash checks out, but it is not the chain the pit holds.
    forged = rehash_from(rows, 40, {"area": "1", "kind": "banker", "amount": 100})
    answer = post(server, "PB-01", token, forged[40:])
    assert answer.status_code == 409
    assert "row 41 differs from the row 41 the pit already holds" in answer.json()["error"]

    # Another table's credential, and no credential at all.
    answer = post(server, "PB-01", other, rows[-1:])
    assert answer.status_code == 403
    assert answer.json()["error"] == ("this credential is table PB-02's; it cannot write or "
                                      "read table PB-01")
    answer = post(server, "PB-02", other, rows[:1])
    assert answer.status_code == 403 and "writes only table 'PB-02'" in answer.json()["error"]
    assert httpx.post(f"{server.url}/api/v1/tables/PB-01/rows", json={}).status_code == 401
    assert post(server, "PB-01", "forged-token", rows[:1]).status_code == 401

    # An oversized body is refused before it is read.
    huge = {"rows": [], "pad": "x" * (5 * 1024 * 1024)}
    answer = httpx.post(f"{server.url}/api/v1/tables/PB-01/rows", json=huge,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 413

    assert pit_rows(server, "PB-01") == before  # nothing of the attacks got in
    assert pit_rows(server, "PB-02") == []
    quarantined = store.quarantined("PB-01")
    assert {seq for seq, _, _ in quarantined} == {31} | {r.seq for r in forged[40:]}
    breaks = [a for a in store.alerts() if a.kind == CHAIN_BREAK]
    assert sorted(a.seq for a in breaks) == [31, 41]
    # The same forgery sent again is not a new alert.
    post(server, "PB-01", token, forged[40:])
    assert len([a for a in store.alerts() if a.kind == CHAIN_BREAK]) == 2
    journal.close()


def test_a_rehashed_journal_is_caught_by_the_acknowledged_head(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")
    path = tmp_path / "PB-01.db"
    journal = Journal.open(path, "PB-01")
    Day(journal).play(10)
    journal.close()
    client = SyncClient(path, "PB-01", server.url, token)
    client.sync_all()
    client.close()
    acked = load(state_path(path)).head
    assert acked == head_of(path)

    rows = wire_rows(path)
    rewrite_journal(path, rehash_from(rows, 20, {"area": "1", "kind": "banker", "amount": 1}))
    assert verify(path).ok  # the local chain alone cannot tell
    report = verify(path, expected_head=acked)
    assert not report.ok
    assert report.reason == (f"row {acked[0]} is not the row the pit server acknowledged "
                             "(hash differs)")
    # The sync refuses to go on from a journal that no longer holds what the pit holds.
    client = SyncClient(path, "PB-01", server.url, token)
    with pytest.raises(SyncRefused, match=f"row {acked[0]} of this journal differs"):
        client.step()
    client.close()


def test_the_client_backs_off_while_the_pit_is_unreachable(tmp_path: Path) -> None:
    """It probes the pit again within a few seconds however long the cut: the wait doubles
    from 0.5 s to 4 s, no further (it grew to 60 s, and a restored network went unused for
    46.7 s)."""
    journal = Journal.open(tmp_path / "T.db", "T")
    Day(journal).play(1)
    waits: list[float] = []
    client = SyncClient(journal.path, "T", "http://127.0.0.1:9", "x", sleep=waits.append)
    with pytest.raises(PitUnreachable, match="does not answer"):
        client.step()
    for _ in range(8):
        client.failures += 1
        waits.append(client.wait_for(PitUnreachable("cut")))
    caps = [0.5, 1, 2, 4, 4, 4, 4, 4]
    assert all(cap / 2 <= w <= cap for w, cap in zip(waits, caps, strict=True))
    assert len(set(waits)) == len(waits)  # jittered
    # A pit that refuses is asked again more slowly: repeating at once only repeats it.
    client.failures = 20
    assert 30 <= client.wait_for(SyncRefused("chain break")) <= 60
    journal.close()
