"""The pit's tests run on both of its databases: SQLite (a file) and a real PostgreSQL,
started here from Debian's packages with initdb and pg_ctl in a temporary folder, as the
`postgres` user when the tests run as root (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from pit.app import create_app, open_pit
from pit.state import PitState

_PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Postgres:
    port: int
    bindir: Path
    as_user: list[str]
    _n: itertools.count[int]

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh, empty database on the running server; its URL."""
        import psycopg

        name = f"pit_{os.getpid()}_{next(self._n)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr or done.stdout}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if not _PG_BIN:
        pytest.fail("PostgreSQL is not installed (scripts/test installs Debian's postgresql)")
    bindir = _PG_BIN[-1].parent
    # Not under pytest's own temporary folder: that is private to root, and the server runs
    # as the postgres user.
    root = Path(tempfile.mkdtemp(prefix="tableside-pg-"))
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    _run([*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
          "--auth=trust", "-E", "UTF8", "--no-sync"])
    # fsync off: these are tests of the pit's logic, not of PostgreSQL's durability.
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c max_connections=300 -c shared_buffers=64MB")
    _run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"),
          "-o", options, "-w", "start"])
    try:
        yield Postgres(port, bindir, as_user, itertools.count())
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def pit_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh pit database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "pit.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_database()


class PitServer:
    """A real pit server (uvicorn) on a free port, in a thread of this process."""

    def __init__(self, state: PitState, port: int | None = None) -> None:
        self.state = state
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> PitServer:
        config = uvicorn.Config(create_app(self.state), host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
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
        server.state.store.db.close()
