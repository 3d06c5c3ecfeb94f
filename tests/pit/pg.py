"""A throwaway PostgreSQL server from Debian's packages (initdb and pg_ctl in a temporary
folder, as the postgres user when run as root: PostgreSQL refuses root), for the pit's tests
and benchmarks."""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

_PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def installed() -> bool:
    return bool(_PG_BIN)


@dataclass
class Postgres:
    port: int
    _n: itertools.count[int] = field(default_factory=itertools.count)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self, icu_locale: str = "") -> str:
        """A fresh, empty database on the running server; its URL. With `icu_locale` ("en"),
        it compares text in that language's order, as a database made on a machine whose
        locale is not C does (the server's own is C)."""
        import psycopg

        name = f"pit_{os.getpid()}_{next(self._n)}"
        collation = (f" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '{icu_locale}'"
                     if icu_locale else "")
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}{collation}")
        return self.url(name)


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr or done.stdout}")


@contextmanager
def running_postgres(*, durable: bool = False) -> Iterator[Postgres]:
    """A server on a free port for the length of the block. `durable=False` turns fsync off
    (tests of the pit's logic); benchmarks keep PostgreSQL's defaults."""
    if not _PG_BIN:
        raise RuntimeError("PostgreSQL is not installed (scripts/test installs Debian's "
                           "postgresql)")
    bindir = _PG_BIN[-1].parent
    # Not under pytest's temporary folder: that is private to root; the server runs as postgres.
    root = Path(tempfile.mkdtemp(prefix="tableside-pg-"))
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    _run([*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
          "--auth=trust", "-E", "UTF8", "--no-sync"])
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=300 "
               "-c shared_buffers=128MB" + ("" if durable else " -c fsync=off"))
    _run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"),
          "-o", options, "-w", "start"])
    try:
        yield Postgres(port)
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
