"""The pit behind a reverse proxy, as a casino whose web server does TLS runs it: a real nginx
(Debian's), configured with the block docs/pit.md gives ("Behind a reverse proxy"), read
from the docs themselves, and with `proxy_pass` alone, the plainest a technician writes.
The dashboard's live events pass through as they come, and the pit limits failed logins by
each computer's own address, not the proxy's."""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from kiosk.store.journal import Journal
from kiosk.sync.client import SyncClient
from pit.app import open_pit
from pit.limits import RateLimiter
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import listen_to_events
from tests.pit.pg import free_port
from tests.pit.test_rate_limits import Clock, _login

DOCS = Path(__file__).resolve().parents[2] / "docs" / "pit.md"
WAIT = 15.0  # seconds before a missing event fails the test (not a timing target)
RIGHT = "correct horse battery"


def _docs_block() -> str:
    """The `location` block docs/pit.md gives for nginx."""
    found = re.search(r"\n    (location / \{\n(?:        .*\n)+    \})\n", DOCS.read_text())
    assert found, "docs/pit.md gives no nginx location block"
    return "\n".join(line.removeprefix("    ") for line in found.group(1).splitlines())


@contextmanager
def nginx(folder: Path, location: str) -> Iterator[str]:
    """nginx on a free port of the loopback with `location` in its server block; its URL."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        pytest.fail("nginx is not installed (scripts/test installs it)")
    port = free_port()
    folder.mkdir()
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events {}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {folder}/body;\n"
        f"  proxy_temp_path {folder}/proxy;\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n{location}\n  }}\n}}\n")
    process = subprocess.Popen([binary, "-c", str(conf), "-p", str(folder)],
                               stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(url + "/api/v1/health", timeout=1.0)
                break
            except httpx.TransportError:
                if process.poll() is not None:
                    raise RuntimeError(f"nginx did not start: {process.stderr.read()}"
                                       if process.stderr else "nginx did not start") from None
                threading.Event().wait(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize("config", ["docs", "proxy_pass alone"])
def test_the_dashboards_events_pass_through_nginx_as_they_come(config: str,
                                                               tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)
    session = state.inspectors.login("Thandi", RIGHT)
    token = state.store.enroll("PB-01")
    server = PitServer(state).start()
    upstream = f"http://127.0.0.1:{server.port}"
    location = (_docs_block().replace("http://127.0.0.1:8600", upstream) if config == "docs"
                else f"location / {{ proxy_pass {upstream}; }}")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    try:
        with nginx(tmp_path / "nginx", location) as url:
            heard: queue.Queue[dict[str, Any]] = queue.Queue()
            ready = threading.Event()
            threading.Thread(target=listen_to_events, args=(url, session, heard, ready),
                             daemon=True).start()
            # The feed's first line ("retry: 1000") comes through before any event: before
            # X-Accel-Buffering, nginx held even that back.
            assert ready.wait(WAIT), "nothing of the live feed came through nginx"
            Day(journal).play(1)
            client = SyncClient(journal.path, "PB-01", url, token)
            try:
                client.sync_all()
            finally:
                client.close()
            event = heard.get(timeout=WAIT)
            assert (event["type"], event["table_id"]) == ("table", "PB-01")
            assert event["head"] == state.store.head("PB-01")[0] > 0
    finally:
        journal.close()
        server.stop()
        state.close()


def test_behind_nginx_failed_logins_are_counted_by_each_computers_own_address(
        tmp_path: Path) -> None:
    """Five failed logins from one computer (127.0.0.2) lock it out, over any names; another
    computer (127.0.0.3) still logs in. Without the docs' X-Forwarded-For, both are the proxy
    to the pit, and the second would be locked out too."""
    clock = Clock()
    state = open_pit(str(tmp_path / "pit.db"))
    state.failed_logins_by_address = RateLimiter(1 / 15, 5, clock)
    state.inspectors.add("Thandi", RIGHT)
    server = PitServer(state).start()
    location = _docs_block().replace("http://127.0.0.1:8600",
                                     f"http://127.0.0.1:{server.port}")
    try:
        with nginx(tmp_path / "nginx", location) as url:
            def computer(address: str) -> httpx.Client:
                return httpx.Client(base_url=url, timeout=30.0,
                                    transport=httpx.HTTPTransport(local_address=address))

            wrong = "/login?problem=Wrong%20name%20or%20password."
            with computer("127.0.0.2") as one, computer("127.0.0.3") as other:
                assert [_login(one, name, "guess") for name in "abcde"] == [wrong] * 5
                assert _login(one, "Thandi", RIGHT).startswith("/login?problem=Too")
                assert _login(other, "Thandi", RIGHT) == "/"
    finally:
        server.stop()
        state.close()
