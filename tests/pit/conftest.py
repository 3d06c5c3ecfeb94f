"""The pit's tests run on both of its databases: SQLite (a file) and a real PostgreSQL,
started here from Debian's packages with initdb and pg_ctl in a temporary folder, as the
`postgres` user when the tests run as root (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette

from pit.app import create_app, open_pit
from pit.floor import SilenceWatch
from pit.state import PitState
from tests.pit.pg import Postgres, free_port, installed, running_postgres

__all__ = ["PitServer", "free_port"]


@pytest.fixture(scope="session", autouse=True)
def _signing_key_out_of_the_checkout(tmp_path_factory: pytest.TempPathFactory
                                     ) -> Iterator[None]:
    """A pit on PostgreSQL keeps its signing key in ./pit.key unless told otherwise: here,
    a temporary folder, never the checkout."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TABLESIDE_PIT_KEY", str(tmp_path_factory.mktemp("pitkey") / "pit.key"))
        yield


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if not installed():
        pytest.fail("PostgreSQL is not installed (scripts/test installs Debian's postgresql)")
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def pit_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh pit database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "pit.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_database()


class PitServer:
    """A real pit server (uvicorn) on a free port, in a thread of this process.

    With `lifespan`, uvicorn runs the app's lifespan as `tableside pit serve` does: `watch`
    (create_app's default if None) looks for silent tables while the server runs, and the
    server's stop closes `state`. Without it (the default) neither happens."""

    def __init__(self, state: PitState, port: int | None = None, *,
                 watch: SilenceWatch | None = None, lifespan: bool = False) -> None:
        self.state = state
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app: Starlette = create_app(state, watch)
        self.lifespan = lifespan
        self._server: uvicorn.Server | None = None
        self._ran: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> PitServer:
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on" if self.lifespan else "off",
                                timeout_graceful_shutdown=2)  # as `tableside pit serve`
        self._server = self._ran = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the pit server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(10)
            self._server = None

    @property
    def stopped(self) -> bool:
        """Started and stopped cleanly: uvicorn's thread has ended and, with the lifespan,
        the app's shutdown ran to its end (uvicorn only logs a shutdown that raised)."""
        if self._ran is None or self._thread is None or self._thread.is_alive():
            return False
        lifespan = self._ran.lifespan  # uvicorn's LifespanOn has these flags; LifespanOff not
        return not (getattr(lifespan, "shutdown_failed", False)
                    or getattr(lifespan, "error_occurred", False))


@pytest.fixture
def pit_server(pit_url: str) -> Iterator[Callable[..., PitServer]]:
    """Start (and restart, on the same port) a pit server on one database."""
    servers: list[PitServer] = []

    def start(port: int | None = None) -> PitServer:
        server = PitServer(open_pit(pit_url), port).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
        server.state.close()
