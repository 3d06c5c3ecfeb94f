"""Property: any interleaving of plays, sends, lost answers, duplicated requests, restarts of
the table's sync and of the pit ends, once the network is good, with the pit equal to the
table, row for row."""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.store.journal import Journal, head_of
from kiosk.sync.client import PitUnreachable, SyncClient, SyncRefused
from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.test_sync import pit_rows


class Network(httpx.BaseTransport):
    """Real HTTP to the pit, with faults on demand: the request is lost before the pit sees
    it, the answer is lost after the pit acted on it, or the request arrives twice."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.fault = ""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        fault, self.fault = self.fault, ""
        if fault == "drop_request":
            raise httpx.ConnectError("the request was lost", request=request)
        if fault == "duplicate":
            self.inner.handle_request(request).read()
        response = self.inner.handle_request(request)
        response.read()
        if fault == "drop_answer":
            raise httpx.ReadError("the answer was lost", request=request)
        return response


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("play"), st.integers(1, 4)),
    st.tuples(st.sampled_from(["send", "drop_request", "drop_answer", "duplicate",
                               "restart_sync", "restart_pit"]), st.just(0)),
), min_size=1, max_size=30)


class Pit:
    """The pit server the examples share (each example its own table): started once, and
    again only where an example restarts it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.server = PitServer(open_pit(str(path))).start()

    def restart(self) -> PitServer:
        self.stop()
        self.server = PitServer(open_pit(str(self.path)), self.server.port).start()
        return self.server

    def stop(self) -> None:
        self.server.stop()
        self.server.state.store.db.close()


@pytest.fixture(scope="module")
def pit() -> Iterator[Pit]:
    with tempfile.TemporaryDirectory() as folder:
        shared = Pit(Path(folder) / "pit.db")
        yield shared
        shared.stop()


_tables = itertools.count(1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_any_interleaving_ends_with_the_pit_equal_to_the_table(
        pit: Pit, actions: list[tuple[str, int]]) -> None:
    server = pit.server
    table_id = f"T-{next(_tables)}"
    token = server.state.store.enroll(table_id)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.open(Path(folder) / "t.db", table_id)
        day = Day(journal)
        network = Network()

        def sync() -> SyncClient:
            return SyncClient(journal.path, table_id, server.url, token, batch=7,
                              http=httpx.Client(transport=network))

        client = sync()
        try:
            for action, n in actions:
                if action == "play":
                    day.play(n)
                elif action == "restart_sync":
                    client.close()
                    client = sync()
                elif action == "restart_pit":
                    server = pit.restart()
                else:
                    network.fault = "" if action == "send" else action
                    try:
                        client.step()
                    except PitUnreachable:
                        client._pit_head = None  # as the sync's loop does after a failure
                    except SyncRefused as exc:
                        raise AssertionError(f"an honest table was refused: {exc}") from exc
            network.fault = ""
            client._pit_head = None
            client.sync_all()
            assert pit_rows(server, table_id) == wire_rows(journal.path)
            assert server.state.store.head(table_id) == head_of(journal.path)
            assert server.state.store.quarantined(table_id) == []
            assert client.state.head == head_of(journal.path)
        finally:
            client.close()
            journal.close()
