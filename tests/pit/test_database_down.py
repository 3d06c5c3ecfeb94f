"""The pit run by IT: when PostgreSQL goes away, the health check says so (503) and the API
answers in words, never a bare 500 (real PostgreSQL: the pit's database is dropped under it,
while a real pit server answers over HTTP)."""

from __future__ import annotations

from pathlib import Path

import httpx
import psycopg

from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.pit.pg import Postgres


def test_health_and_the_api_say_the_database_is_gone(postgres: Postgres, tmp_path: Path) -> None:
    url = postgres.new_database()
    server = PitServer(open_pit(url, tmp_path / "pit.key"))
    token = server.state.store.enroll("PB-01")
    auth = {"Authorization": f"Bearer {token}"}
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as client:
            assert client.get("/api/v1/health").json() == {"ok": True}
            assert client.get("/api/v1/tables/PB-01/head", headers=auth).status_code == 200

            name = url.rsplit("/", 1)[1]
            with psycopg.connect(postgres.url(), autocommit=True) as admin:
                admin.execute(f"DROP DATABASE {name} WITH (FORCE)")

            health = client.get("/api/v1/health")
            assert health.status_code == 503
            assert health.json()["ok"] is False and "database" in health.json()["error"]
            again = client.get("/api/v1/health")  # a new connection: the database is gone
            assert again.status_code == 503 and name in again.json()["error"]
            head = client.get("/api/v1/tables/PB-01/head", headers=auth)
            assert head.status_code == 503
            assert head.json()["error"].startswith("the pit cannot use its database now:")
    finally:
        server.stop()
        server.state.close()
