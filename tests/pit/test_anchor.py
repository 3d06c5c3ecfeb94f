"""The pit is the journal's anchor: the table's signed heads, kept at the pit, catch a journal
re-hashed by someone with the file, whatever the file beside the journal says. On SQLite and
PostgreSQL, against a real pit server."""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from kiosk.anchor import Anchor, new_key, sign, split_credential
from kiosk.cli import main
from kiosk.store.journal import Journal, head_of, iter_entries, verify
from kiosk.sync import state as sync_state
from kiosk.sync.client import SyncClient, SyncRefused
from pit.alerts import ANCHOR_BROKEN, CHAIN_BREAK
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import rehash_from, rewrite_journal, wire_rows


def _table(tmp_path: Path, server: PitServer, coups: int = 10) -> tuple[Path, str, Path]:
    credential = server.state.store.enroll_with_key("PB-01")
    cred_file = tmp_path / "PB-01.credential"
    cred_file.write_text(credential, encoding="utf-8")
    path = tmp_path / "PB-01.db"
    journal = Journal.open(path, "PB-01")
    Day(journal).play(coups)
    journal.close()
    return path, credential, cred_file


def _forge(path: Path, index: int) -> None:
    """Double the banker's stake of a bet (row `index` + 1) and re-hash every later row, as
    someone with the file and the format would."""
    rows = wire_rows(path)
    payload = next(e.payload for e in iter_entries(path) if e.seq == index + 1)
    assert "amount" in payload, payload
    rewrite_journal(path, rehash_from(rows, index, {**payload,
                                                    "amount": payload["amount"] * 10}))


def _bet_index(path: Path, after: int = 0) -> int:
    """The list index of the first bet row after row `after`."""
    return next(e.seq for e in iter_entries(path) if e.seq > after
                and e.kind.endswith("bet_placed")) - 1


def _open_alerts(server: PitServer, kind: str) -> list[tuple[int | None, str]]:
    return [(a.seq, a.message) for a in server.state.store.alerts(table_id="PB-01")
            if a.kind == kind]


def test_a_rehashed_journal_with_its_sync_file_rewritten_is_a_stop_alert_at_the_pit(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, credential, cred_file = _table(tmp_path, server)
    client = SyncClient(path, "PB-01", server.url, credential)
    client.sync_all()
    assert client.anchor_now() == head_of(path)  # the head, anchored and signed
    client.close()
    anchored = head_of(path)

    index = _bet_index(path, 20)
    _forge(path, index)
    forged_head = head_of(path)
    # The forger also rewrites the acknowledged head beside the journal.
    sync_state.save(sync_state.state_path(path),
                    sync_state.SyncState(acked_seq=forged_head[0], acked_hash=forged_head[1]))
    assert verify(path, expected_head=forged_head).ok  # the file alone cannot tell
    runner = CliRunner()
    local = runner.invoke(main, ["journal", "verify", str(path)])
    assert local.exit_code == 0  # what the file beside it says is the forger's word

    # Checked against the pit, both commands find it.
    pit_args = ["--pit", server.url, "--credential-file", str(cred_file)]
    checked = runner.invoke(main, ["journal", "verify", str(path), *pit_args])
    assert checked.exit_code == 1, checked.output
    assert checked.output.startswith(f"BROKEN at row {anchored[0]}: row {anchored[0]} is not "
                                     "the row the pit server acknowledged")
    replayed = runner.invoke(main, ["replay", str(path), *pit_args])
    assert replayed.exit_code == 1 and "chain BROKEN" in replayed.output

    # The next sync reads the anchored head from the pit, refuses, and the pit raises STOP
    # with the first row that differs.
    client = SyncClient(path, "PB-01", server.url, credential)
    with pytest.raises(SyncRefused, match=f"the first row that differs is row {index + 1}"):
        client.step()
    client.close()
    stops = _open_alerts(server, ANCHOR_BROKEN)
    assert [seq for seq, _ in stops] == [index + 1]
    assert f"the first row that differs is row {index + 1}" in stops[0][1]
    # The rows shown to the pit were compared with its own and quarantined, never merged.
    assert [seq for seq, _ in _open_alerts(server, CHAIN_BREAK)] == [index + 1]
    assert server.state.store.head("PB-01") == anchored
    (floor,) = server.state.store.floor()
    assert floor.open_alerts == 2


def test_rows_forged_before_an_anchor_never_reach_the_pit_as_intact(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    """A table that anchored its head but never sent its rows (the upload far behind): the
    forged rows, re-hashed and sent, are quarantined with a STOP alert, none stored."""
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=6)
    client = SyncClient(path, "PB-01", server.url, credential, batch=1)
    client._pit_head = client._ask_head()
    client.anchor_now()
    client.close()
    anchored = head_of(path)
    assert server.state.store.head("PB-01")[0] == 0  # no row has reached the pit

    index = _bet_index(path, 10)
    _forge(path, index)
    rows = wire_rows(path)
    token = split_credential(credential)[0]
    answer = httpx.post(f"{server.url}/api/v1/tables/PB-01/rows",
                        headers={"Authorization": f"Bearer {token}"},
                        json={"rows": [r.as_json() for r in rows]})
    assert answer.status_code == 409
    assert server.state.store.head("PB-01")[0] == 0  # nothing of it stored as intact
    stops = _open_alerts(server, ANCHOR_BROKEN)
    assert [seq for seq, _ in stops] == [1]
    assert (f"row {anchored[0]} is not the row the table anchored at the pit"
            in stops[0][1])
    assert f"one of rows 1–{anchored[0]}" in stops[0][1]
    # The sync on the forged journal says where the change is, as far as anchors tell.
    client = SyncClient(path, "PB-01", server.url, credential)
    with pytest.raises(SyncRefused, match=f"row {anchored[0]} of this journal differs from "
                                          f"the row the pit anchored: the journal was "
                                          f"changed; the rows that differ "
                                          f"are among rows 1–{anchored[0]}"):
        client.step()
    with pytest.raises(SyncRefused):
        client.step()  # the sync retrying: no new alert
    client.close()
    # The rows' STOP (from the first row quarantined) and the sync's (the anchored row).
    assert sorted(seq or 0 for seq, _ in _open_alerts(server, ANCHOR_BROKEN)) == [
        1, anchored[0]]


def test_a_journal_cut_short_after_its_anchor_is_a_stop_alert(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=4)
    client = SyncClient(path, "PB-01", server.url, credential)
    client._pit_head = client._ask_head()
    client.anchor_now()
    client.close()
    anchored = head_of(path)
    rows = wire_rows(path)
    rewrite_journal(path, rows[:-5])
    client = SyncClient(path, "PB-01", server.url, credential)
    with pytest.raises(SyncRefused, match=f"the pit anchored rows up to {anchored[0]} but "
                                          f"this journal ends at row {anchored[0] - 5}"):
        client.step()
    client.close()
    (stop,) = _open_alerts(server, ANCHOR_BROKEN)
    assert f"now ends at row {anchored[0] - 5}" in stop[1]


def test_the_pit_refuses_an_anchor_not_signed_by_the_tables_key(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=1)
    token = split_credential(credential)[0]
    seq, digest = head_of(path)
    made = Anchor("PB-01", seq, digest, 0, "0" * 64)
    stranger, _ = new_key()
    url = f"{server.url}/api/v1/tables/PB-01/anchor"
    headers = {"Authorization": f"Bearer {token}"}
    refused = httpx.post(url, headers=headers, json=made.to_json(sign(stranger, made)))
    assert refused.status_code == 403
    assert refused.json()["error"] == "the anchor is not signed by table PB-01's anchor key"
    unsigned = httpx.post(url, headers=headers, json={**made.to_json("x"), "signature": ""})
    assert unsigned.status_code == 400
    # A signature over another head does not pass for this one.
    other = Anchor("PB-01", seq, "f" * 64, 0, "0" * 64)
    key = split_credential(credential)[1]
    assert key is not None
    moved = httpx.post(url, headers=headers, json=made.to_json(sign(key, other)))
    assert moved.status_code == 403
    assert server.state.store.newest_anchor("PB-01") == (0, "0" * 64)
    good = httpx.post(url, headers=headers, json=made.to_json(sign(key, made)))
    assert good.status_code == 200 and good.json()["anchor"] == {"seq": seq, "hash": digest}
    assert base64.b64decode(sign(key, made))  # base64, as the document says


def test_a_table_enrolled_before_anchors_keeps_syncing_and_its_anchors_are_refused(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")  # an old enrolment: no anchor key
    path = tmp_path / "PB-01.db"
    journal = Journal.open(path, "PB-01")
    Day(journal).play(3)
    client = SyncClient(path, "PB-01", server.url, token)
    assert client.sync_all() == journal.count()
    assert client.anchors_sent == 0 and "enrol the table again" in client.anchor_problem
    assert client.status().line().endswith(
        "; 0 rows waiting; no anchors sent: no anchor key in the credential file (enrolled "
        "before anchors): enrol the table again")
    made = Anchor("PB-01", *head_of(path), 0, "0" * 64)
    key, _ = new_key()
    refused = httpx.post(f"{server.url}/api/v1/tables/PB-01/anchor",
                         headers={"Authorization": f"Bearer {token}"},
                         json=made.to_json(sign(key, made)))
    assert refused.status_code == 403 and "no anchor key" in refused.json()["error"]
    client.close()
    # A credential file whose key does not read: the rows still go, in words why no anchors.
    Day(journal, seed=4).play(1)
    client = SyncClient(path, "PB-01", server.url,
                        token + "\n-----BEGIN PRIVATE KEY-----\nnot a key\n")
    assert client.sync_all() > 0 and server.state.store.head("PB-01") == head_of(path)
    assert client.anchor_problem.startswith("the credential file's anchor key does not read")
    client.close()
    journal.close()


def test_the_sync_anchors_after_every_settled_round_even_with_the_upload_behind(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=3)
    journal = Journal.open(path, "PB-01")
    client = SyncClient(path, "PB-01", server.url, credential, batch=2)
    client.anchor_every = 1e9  # no anchor for time's sake in this test: rounds only
    client.step()  # connects, anchors the head at once (the first), sends two rows
    assert server.state.store.newest_anchor("PB-01") == head_of(path)
    assert server.state.store.head("PB-01")[0] == 2  # the upload is far behind
    # Rows with no settled round: no new anchor.
    journal.append("device_report", {"device": "SHOE", "event": "hello", "detail": ""})
    client.step()
    assert server.state.store.newest_anchor("PB-01")[0] == head_of(path)[0] - 1
    # A settled round: anchored on the next step, though the upload is still behind.
    Day(journal, seed=9).play(1)
    client.step()
    assert server.state.store.newest_anchor("PB-01") == head_of(path)
    assert server.state.store.head("PB-01")[0] == 6
    # Time alone: with the interval passed, rows with no round are anchored too.
    journal.append("device_report", {"device": "SHOE", "event": "hello", "detail": ""})
    client.anchor_every = 0.0
    client.step()
    assert server.state.store.newest_anchor("PB-01") == head_of(path)
    assert client.anchors_sent == 3
    assert sync_state.load(sync_state.state_path(path)).anchored_seq == head_of(path)[0]
    assert f"; anchored at the pit up to row {head_of(path)[0]}" in client.status().line()
    client.close()
    journal.close()


def test_a_table_that_lost_its_journal_file_is_told_by_the_pit(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    """The sync's state file is not trusted: deleting it (or editing it) changes nothing."""
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=2)
    client = SyncClient(path, "PB-01", server.url, credential)
    client.sync_all()
    client.anchor_now()
    client.close()
    sync_state.state_path(path).unlink()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM journal").fetchone()[0] == head_of(path)[0]
    conn.close()
    client = SyncClient(path, "PB-01", server.url, credential)
    assert client.step() == 0  # nothing changed: nothing to say
    client.close()
    assert _open_alerts(server, ANCHOR_BROKEN) == []


def test_verify_against_a_pit_that_holds_nothing_of_the_table_says_so(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, _, cred_file = _table(tmp_path, server, coups=1)
    out = CliRunner().invoke(main, ["journal", "verify", str(path), "--pit", server.url,
                                    "--credential-file", str(cred_file)])
    assert out.exit_code == 0
    assert (f"Not checked against the pit: the pit at {server.url} holds no anchored head "
            "and no row of this table yet.") in out.output
    refused = CliRunner().invoke(main, ["replay", str(path), "--pit", server.url])
    assert refused.exit_code == 2
    assert "--pit needs the table's credential" in refused.output


def test_on_reconnecting_the_running_sync_reads_its_anchor_from_the_pit(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    """The network is cut; meanwhile the journal is rewritten (and the file beside it); when
    the pit is back, the running sync's reconnect finds it and the pit raises STOP."""
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=5)
    client = SyncClient(path, "PB-01", server.url, credential, max_backoff=0.5, idle=0.05)
    client.start()
    _wait(lambda: server.state.store.newest_anchor("PB-01") == head_of(path)
          and client.state.acked_seq == head_of(path)[0], "the head anchored and synced")
    held = head_of(path)
    server.stop()
    index = _bet_index(path, 12)
    _forge(path, index)
    journal = Journal.open(path, "PB-01")  # the table carries on, the pit out of reach
    journal.append("device_report", {"device": "SHOE", "event": "hello", "detail": ""})
    journal.close()
    forged = head_of(path)
    sync_state.save(sync_state.state_path(path),
                    sync_state.SyncState(acked_seq=forged[0], acked_hash=forged[1]))
    _wait(lambda: not client.state.connected, "the sync notices the pit is gone")
    server = pit_server(server.port)
    _wait(lambda: bool(_open_alerts(server, ANCHOR_BROKEN)), "the STOP alert at the pit")
    client.stop()
    ((seq, message),) = _open_alerts(server, ANCHOR_BROKEN)
    assert seq == index + 1 and f"the first row that differs is row {index + 1}" in message
    assert f"the first row that differs is row {index + 1}" in client.state.last_error \
        or client.state.last_error == "the sync was stopped"
    assert server.state.store.head("PB-01") == held  # its own rows, not the forgery
    assert server.state.store.rows("PB-01")[index].payload != \
        next(e for e in iter_entries(path) if e.seq == index + 1).payload


def _wait(check: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Until `check()` holds (a generous bound for a busy machine: not a timing figure)."""
    import time

    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.05)


def test_the_next_coup_after_a_rewrite_while_connected_raises_stop_with_the_row(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    path, credential, _ = _table(tmp_path, server, coups=5)
    client = SyncClient(path, "PB-01", server.url, credential, max_backoff=0.5, idle=0.05)
    client.start()
    _wait(lambda: server.state.store.newest_anchor("PB-01") == head_of(path)
          and client.state.acked_seq == head_of(path)[0], "the head anchored and synced")
    held = head_of(path)
    index = _bet_index(path, 12)
    _forge(path, index)
    journal = Journal.open(path, "PB-01")
    Day(journal, seed=7).play(1)  # the next coup, settled: an anchor is due at once
    journal.close()
    _wait(lambda: index + 1 in [seq for seq, _ in _open_alerts(server, ANCHOR_BROKEN)],
          "the STOP alert naming the first row that differs")
    client.stop()
    assert server.state.store.head("PB-01") == held
    assert server.state.store.newest_anchor("PB-01") == held
    assert server.state.store.quarantined("PB-01")[0][0] == index + 1
