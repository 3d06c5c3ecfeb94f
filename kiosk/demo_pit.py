"""The demo's own pit: a whole pit server on this machine (embedded SQLite, its dashboard),
the demo table enrolled and syncing to it, so one command shows the system. Above both the
pit and the table's sync, which never import each other."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.sync.client import SyncClient

DEMO_INSPECTOR = ("demo", "tableside-demo")
DEMO_PORT = 8600


def _port(preferred: int) -> int:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])


def pit_path(journal: Path) -> Path:
    """The demo pit's database beside the demo journal: data/demo.db -> data/demo-pit.db."""
    return journal.with_name(journal.stem + "-pit.db")


class LocalPit:
    """A pit server on this machine for the demo table, with the table enrolled and syncing."""

    def __init__(self, journal: Path, table_id: str, port: int = DEMO_PORT) -> None:
        self.journal, self.table_id = journal, table_id
        self.port = _port(port)
        self.url = f"http://127.0.0.1:{self.port}"
        self.client: SyncClient | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._state: Any = None
        self.public_key = ""  # the pit's, once started: the demo table checks against it

    def start(self) -> str:
        """Start the pit and the sync; the dashboard's address."""
        import uvicorn

        from pit.app import create_app, open_pit

        self.journal.parent.mkdir(parents=True, exist_ok=True)
        self._state = open_pit(str(pit_path(self.journal)))
        self.public_key = self._state.configs.public_key
        self._state.inspectors.add(*DEMO_INSPECTOR)
        token = self._state.store.enroll_with_key(self.table_id)
        config = uvicorn.Config(create_app(self._state), host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="demo-pit", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        # The demo journal may not exist for a second or two yet: retry soon, not in a minute.
        self.client = SyncClient(self.journal, self.table_id, self.url, token, idle=0.1,
                                 max_backoff=2.0, config_every=1.0)
        self.client.start()
        return self.url + "/"

    def flush(self, seconds: float = 10.0) -> int:
        """Wait until the pit holds the whole journal (or `seconds`); its head seq."""
        from kiosk.store.journal import head_of

        deadline = time.monotonic() + seconds
        while self.client is not None and time.monotonic() < deadline:
            if self.journal.exists() and self.client.state.acked_seq == head_of(self.journal)[0]:
                break
            time.sleep(0.05)
        return self.client.state.acked_seq if self.client else 0

    def stop(self) -> None:
        if self.client is not None:
            self.client.stop()
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(5)
        if self._state is not None:
            self._state.close()
