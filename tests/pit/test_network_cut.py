"""A network cut that is a cut, not a stopped server (every table's journal reaches
the pit when the network is back): between the table and the pit a TCP relay that, when cut,
keeps accepting connections and swallows every byte without an answer (a pulled cable or a
dead switch: no "connection refused", only silence until the client's timeout), and one that
lets requests through but loses every answer (the pit stores a batch the table never hears
acknowledged). Either way, once the network is back, every row is at the pit exactly once
and the heads are equal. On SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kiosk.store.journal import Journal, head_of
from kiosk.sync.client import SyncClient
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.test_sync import pit_rows, wait_for, wait_for_rows

PASS, SILENT, LOST_ACKS = "pass", "silent", "lost acknowledgements"


class Relay:
    """127.0.0.1:port -> the pit. `mode`: PASS carries both ways; SILENT swallows both ways
    (a connection is accepted and read, nothing reaches the pit, nothing comes back);
    LOST_ACKS carries every request to the pit and its answers back, except the answer to
    a batch of rows (a POST), which is lost with everything after it on that connection.
    Connections live on across a change of mode, as TCP connections do across a cable
    pulled and plugged back."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.mode = PASS
        self.swallowed = 0  # bytes lost, both ways
        self.acks_lost = 0
        self._listen = socket.create_server(("127.0.0.1", 0))
        self.port = self._listen.getsockname()[1]
        self._closing = False
        self._socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listen.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            self._socks += [client, server]
            lose = threading.Event()  # this connection's answers are lost from now on
            threading.Thread(target=self._carry, args=(client, server, True, lose),
                             daemon=True).start()
            threading.Thread(target=self._carry, args=(server, client, False, lose),
                             daemon=True).start()

    def _carry(self, source: socket.socket, sink: socket.socket, request: bool,
               lose: threading.Event) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                with contextlib.suppress(OSError):
                    sink.shutdown(socket.SHUT_WR)
                return
            if request and self.mode == LOST_ACKS and data.startswith(b"POST ") \
                    and not lose.is_set():
                lose.set()
                self.acks_lost += 1
            if self.mode == SILENT or (not request and lose.is_set()):
                self.swallowed += len(data)
                continue
            try:
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._closing = True
        self._listen.close()
        for s in self._socks:
            with contextlib.suppress(OSError):
                s.close()


@contextmanager
def relay_to(server: PitServer) -> Iterator[Relay]:
    relay = Relay(server.port)
    try:
        yield relay
    finally:
        relay.close()


def test_a_silent_network_and_lost_answers_lose_and_double_nothing(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    day.play(20)
    with relay_to(server) as relay:
        client = SyncClient(journal.path, "PB-01", f"http://127.0.0.1:{relay.port}", token,
                            timeout=1.0, max_backoff=0.5)
        client.start()
        try:
            wait_for_rows(client, journal)
            assert client.status().connected

            # The cable is pulled: connections open, bytes vanish, nothing is refused.
            relay.mode = SILENT
            day.play(150)
            wait_for(lambda: not client.state.connected, 20, "the table notices the silence")
            assert relay.swallowed > 0
            stored_before = server.state.store.head("PB-01")[0]
            assert stored_before == client.state.acked_seq < journal.count()  # none got through

            # Half a network: batches reach the pit, their acknowledgements are lost.
            relay.mode = LOST_ACKS
            wait_for(lambda: server.state.store.head("PB-01")[0] > stored_before,
                     30, "a batch reaches the pit whose answer is lost")
            assert relay.acks_lost >= 1  # the pit stored a batch the table did not hear of
            day.play(50)

            relay.mode = PASS  # the network is back
            wait_for_rows(client, journal)
        finally:
            client.stop()
    assert pit_rows(server, "PB-01") == wire_rows(journal.path)  # every row, once
    assert server.state.store.head("PB-01") == head_of(journal.path)
    assert server.state.store.quarantined("PB-01") == []
    journal.close()
