"""The pit under attack: guesses at an inspector's password sent all at once, a body nested
too deep to parse, pages framed or fed script by another site, and files anyone on the
machine could read."""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.requests import Request
from starlette.responses import Response

from kiosk.cli import main
from kiosk.demo_pit import LocalPit, pit_path
from kiosk.store.journal import Journal
from pit.app import open_pit
from pit.dashboard import COOKIE, LOGIN_COOKIE
from pit.headers import CSP
from tests.pit.conftest import PitServer, free_port
from tests.pit.day import Day
from tests.pit.helpers import wire_rows

RIGHT = "correct horse battery"
GUESSES = 40


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, under which a file made with the default mode is 0644."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- logins -----------------------------------------------------------------------------------


def test_guesses_sent_at_once_are_checked_no_more_than_guesses_sent_one_by_one(
        tmp_path: Path) -> None:
    """40 logins for one name at once, 39 wrong and the right one last, over real
    connections to a real server. The wrong ones are held inside the password check until
    the right one has its answer, so every one of them is in flight when it comes: no more
    are checked than the name's budget of failures (5), and the right one is refused too."""
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)
    checked: list[str] = []
    lock = threading.Lock()
    release = threading.Event()
    check = state.inspectors.login

    def held_check(name: str, password: str) -> str | None:
        with lock:
            checked.append(password)
        if password != RIGHT:
            release.wait(30)
        return check(name, password)

    state.inspectors.login = held_check  # type: ignore[method-assign]
    server = PitServer(state).start()
    try:
        pairs = []
        with httpx.Client(base_url=server.url) as web:
            for _ in range(GUESSES):
                page = web.get("/login")
                token = page.text.split('name="csrf" value="')[1].split('"')[0]
                assert page.cookies[LOGIN_COOKIE] == token
                pairs.append(token)

        def attempt(token: str, password: str) -> httpx.Response:
            return httpx.post(f"{server.url}/login", follow_redirects=False, timeout=60,
                              data={"name": "Thandi", "password": password, "csrf": token},
                              headers={"Cookie": f"{LOGIN_COOKIE}={token}"})

        with ThreadPoolExecutor(GUESSES) as pool:
            wrong: list[Future[httpx.Response]] = [
                pool.submit(attempt, token, f"guess number {i}")
                for i, token in enumerate(pairs[:-1])]
            deadline = time.monotonic() + 30
            while len(checked) + sum(f.done() for f in wrong) < GUESSES - 1:
                assert time.monotonic() < deadline, "the guesses did not all arrive"
                time.sleep(0.01)
            try:
                right = attempt(pairs[-1], RIGHT)
            finally:
                release.set()
            answers = [f.result() for f in wrong]
    finally:
        release.set()
        server.stop()
    too_many = "/login?problem=Too%20many%20failed%20logins%20for%20this%20name"
    assert right.status_code == 303
    assert right.headers["location"].startswith(too_many)
    assert COOKIE not in right.cookies
    assert len(checked) == 5 and RIGHT not in checked
    locations = [a.headers["location"] for a in answers]
    assert locations.count("/login?problem=Wrong%20name%20or%20password.") == 5
    assert sum(place.startswith(too_many) for place in locations) == GUESSES - 1 - 5
    assert state.store.db.one("SELECT count(*) FROM pit_sessions") == (0,)
    state.close()


def test_a_right_password_gives_back_the_failure_it_reserved(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)
    server = PitServer(state, lifespan=True)
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as web:
            for _ in range(30):  # more than the address's 20 failures, all of them successes
                page = web.get("/login")
                token = page.text.split('name="csrf" value="')[1].split('"')[0]
                answer = web.post("/login", data={"name": "Thandi", "password": RIGHT,
                                                  "csrf": token}, follow_redirects=False)
                assert answer.headers["location"] == "/"
    finally:
        server.stop()
        state.close()


def test_after_login_the_inspector_goes_to_a_page_of_this_pit_only(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)
    went = {}
    server = PitServer(state, lifespan=True)
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as web:
            for nxt in ("/alerts", "//evil.example/", "/\\evil.example/", "/\tevil",
                        "https://e.x/", "/tables/PB-01?from=2026-11-25T18:00"):
                page = web.get("/login")
                token = page.text.split('name="csrf" value="')[1].split('"')[0]
                answer = web.post("/login", follow_redirects=False, data={
                    "name": "Thandi", "password": RIGHT, "csrf": token, "next": nxt})
                went[nxt] = answer.headers["location"]
    finally:
        server.stop()
        state.close()
    assert went == {"/alerts": "/alerts", "//evil.example/": "/", "/\\evil.example/": "/",
                    "/\tevil": "/", "https://e.x/": "/",
                    "/tables/PB-01?from=2026-11-25T18:00": "/tables/PB-01?from=2026-11-25T18:00"}


# --- bodies -----------------------------------------------------------------------------------


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[httpx.Client, str, PitServer]]:
    """A real pit server with table PB-01 enrolled, a client of it, and PB-01's credential.
    A bug in a page is a 500 from the server, as a browser would get it."""
    state = open_pit(str(tmp_path / "pit.db"))
    server = PitServer(state, lifespan=True)
    try:
        token = state.store.enroll("PB-01")
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as client:
            yield client, token, server
    finally:
        server.stop()
        state.close()


def _log_in(client: httpx.Client, name: str) -> None:
    """Log `name` in on `client`: its session cookie stays with the client."""
    page = client.get("/login")
    csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
    answer = client.post("/login", data={"name": name, "password": RIGHT, "csrf": csrf})
    assert (answer.status_code, answer.headers["location"]) == (303, "/")
    assert COOKIE in client.cookies


def test_a_body_nested_100000_deep_is_refused_before_it_is_parsed(
        web: tuple[httpx.Client, str, PitServer]) -> None:
    client, token, _ = web
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    body = "[" * 100_000 + "]" * 100_000
    answer = client.post("/api/v1/tables/PB-01/rows", content=body, headers=auth)
    assert answer.status_code == 400
    assert answer.json() == {"error": "the body is not a batch: the JSON is nested more than "
                                      "64 deep"}
    # A bracket inside a string nests nothing; a body just deep enough is read as usual.
    shallow = json.dumps({"rows": [], "note": "[" * 100_000})
    answer = client.post("/api/v1/tables/PB-01/rows", content=shallow, headers=auth)
    assert answer.status_code == 200 and answer.json()["stored"] == 0
    answer = client.post("/api/v1/tables/PB-01/rows", content="[" * 64 + "]" * 64,
                         headers=auth)
    assert answer.json() == {"error": 'the body must be a JSON object with a list "rows"'}


def test_an_anchor_nested_2000_deep_is_refused_before_it_is_parsed(
        web: tuple[httpx.Client, str, PitServer]) -> None:
    """The anchor's body is at most 4 KiB: enough brackets for the parser to recurse out."""
    client, token, _ = web
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    answer = client.post("/api/v1/tables/PB-01/anchor", content="[" * 2000 + "]" * 2000,
                         headers=auth)
    assert answer.status_code == 400
    assert answer.json() == {"error": "the body is not an anchor: the JSON is nested more "
                                      "than 64 deep"}


def test_a_row_whose_payload_is_nested_100000_deep_is_quarantined_not_a_crash(
        web: tuple[httpx.Client, str, PitServer], tmp_path: Path) -> None:
    client, token, _ = web
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(1)
    row = wire_rows(journal.path)[0].as_json()
    journal.close()
    row["payload"] = '{"a":' + "[" * 100_000 + "]" * 100_000 + "}"
    answer = client.post("/api/v1/tables/PB-01/rows", json={"rows": [row]},
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 409
    assert answer.json()["reason"] == ("row 1's payload is not valid JSON (the JSON is nested "
                                       "more than 64 deep)")


# --- headers ----------------------------------------------------------------------------------


def _assert_guarded(answer: httpx.Response, what: str) -> None:
    assert answer.headers.get("content-security-policy") == CSP, what
    assert "frame-ancestors 'none'" in CSP
    assert answer.headers.get("x-frame-options") == "DENY", what
    assert answer.headers.get("x-content-type-options") == "nosniff", what


def test_every_page_error_page_and_api_answer_carries_the_security_headers(
        web: tuple[httpx.Client, str, PitServer]) -> None:
    client, token, server = web
    server.state.inspectors.add("Thandi", RIGHT)

    async def boom(request: Request) -> Response:
        raise RuntimeError("a bug in a page")

    server.app.router.add_route("/boom", boom)
    anonymous = {
        "/login": 200, "/": 303, "/fragments/floor": 401, "/events": 401, "/nowhere": 404,
        "/api/v1/health": 200, "/api/v1/openapi.json": 200, "/api/v1/tables/PB-01/head": 401,
        "/static/pit.css": 200, "/static/live.js": 200,
        "/static/events.js": 200, "/boom": 500}
    for path, status in anonymous.items():
        # After a bug's 500, uvicorn closes the connection (the page's exception reaches it
        # after the answer went out): the bug's request asks for a connection of its own, or
        # the next request here could go out on the closing one and be reset.
        close = {"Connection": "close"} if path == "/boom" else {}
        answer = client.get(path, follow_redirects=False, headers=close)
        assert answer.status_code == status, path
        _assert_guarded(answer, path)
    answer = client.post("/api/v1/health")
    assert answer.status_code == 405
    _assert_guarded(answer, "POST /api/v1/health")
    answer = client.post("/login", data={"csrf": "forged"})
    assert answer.status_code == 403
    _assert_guarded(answer, "POST /login, forged")
    answer = client.get("/api/v1/tables/PB-01/head", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    _assert_guarded(answer, "the table's head")

    _log_in(client, "Thandi")
    for path, status in {"/": 200, "/alerts": 200, "/fragments/floor": 200,
                         "/tables/PB-01": 200, "/tables/PB-01/config": 200,
                         "/tables/PB-01/rounds/1": 200, "/tables/NOPE": 404,
                         "/tables/PB-01/rounds/x": 404, "/tables/PB-01?from=never": 400}.items():
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == status, path
        _assert_guarded(answer, path)
        assert "<script>" not in answer.text and "<style>" not in answer.text, path


def test_the_live_feed_carries_the_security_headers(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)
    token = state.inspectors.login("Thandi", RIGHT)
    server = PitServer(state).start()
    try:
        with httpx.stream("GET", f"{server.url}/events", timeout=10,
                          headers={"Cookie": f"{COOKIE}={token}"}) as answer:
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("text/event-stream")
            # Behind a proxy doing TLS, each event passes as it comes (nginx buffers else).
            assert answer.headers["x-accel-buffering"] == "no"
            assert answer.headers["cache-control"] == "no-store"
            _assert_guarded(answer, "/events")
    finally:
        server.stop()
        state.close()


# --- files ------------------------------------------------------------------------------------


def test_the_pit_database_and_its_wal_and_shm_are_the_pits_alone(
        tmp_path: Path, umask_022: None) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", RIGHT)  # a password hash in the database, and its WAL
    files = {name: _mode(tmp_path / name) for name in ("pit.db", "pit.db-wal", "pit.db-shm")}
    state.close()
    assert files == {"pit.db": 0o600, "pit.db-wal": 0o600, "pit.db-shm": 0o600}


def test_an_older_pits_database_readable_by_all_is_made_private(
        tmp_path: Path, umask_022: None) -> None:
    old = tmp_path / "old.db"
    open_pit(str(old)).close()
    old.chmod(0o644)
    open_pit(str(old)).close()
    assert _mode(old) == 0o600
    group = tmp_path / "group.db"  # given to a group to read (backups): left so
    open_pit(str(group)).close()
    group.chmod(0o640)
    open_pit(str(group)).close()
    assert _mode(group) == 0o640


def test_the_demo_pit_is_the_demos_alone(tmp_path: Path, umask_022: None,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "data" / "demo.db"
    pit = LocalPit(journal, "PB-01", port=free_port())
    pit.start()
    try:
        modes = {p.name: _mode(p) for p in sorted(journal.parent.glob("demo-pit.db*"))}
    finally:
        pit.stop()
    assert pit_path(journal).name == "demo-pit.db"
    assert modes == {"demo-pit.db": 0o600, "demo-pit.db-shm": 0o600, "demo-pit.db-wal": 0o600}


def test_a_journal_export_is_as_private_as_the_journal(tmp_path: Path, umask_022: None) -> None:
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(2)
    journal.close()
    out = tmp_path / "PB-01.jsonl"
    done = CliRunner().invoke(main, ["journal", "export", str(journal.path), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert _mode(out) == 0o600
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seq"] for r in rows] == list(range(1, len(wire_rows(journal.path)) + 1))
    out.chmod(0o644)  # an export written before, overwritten now
    done = CliRunner().invoke(main, ["journal", "export", str(journal.path), "-o", str(out)])
    assert done.exit_code == 0 and _mode(out) == 0o600


def test_a_configuration_nested_2000_deep_is_refused_in_words_not_a_crash(
        web: tuple[httpx.Client, str, PitServer]) -> None:
    client, _, server = web
    state = server.state
    state.inspectors.add("Thandi", RIGHT)
    _log_in(client, "Thandi")
    page = client.get("/tables/PB-01/config")
    csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
    body = "[punto_banco]\nareas = " + "[" * 2000 + "]" * 2000 + "\n"
    answer = client.post("/tables/PB-01/config", data={"csrf": csrf, "body": body})
    assert answer.status_code == 400
    assert ("Not published: the configuration: arrays or inline tables are nested too deep to "
            "read") in answer.text
    assert state.configs.versions("PB-01") == []


# --- pages ------------------------------------------------------------------------------------

SCRIPT = '<script>alert("x")</script>'


def test_what_an_inspector_types_is_escaped_on_every_page(tmp_path: Path) -> None:
    """An inspector named with a script, who publishes a configuration with one in it and
    acknowledges an alert: on no page does the script come back as markup."""
    from tests.pit.test_pit_config import LIMITS_V1

    state = open_pit(str(tmp_path / "pit.db"))
    state.store.enroll("PB-01")
    name = f"Thandi{SCRIPT}"
    state.inspectors.add(name, RIGHT)
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(1)
    journal.append("inspector_called", {"source": "screen"})
    state.store.ingest("PB-01", wire_rows(journal.path))
    journal.close()
    server = PitServer(state, lifespan=True)
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as client:
            _log_in(client, name)
            page = client.get("/")
            csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
            # The acknowledgement sends the inspector back to the page it came from: followed
            # there, as a browser does.
            acked = client.post("/alerts/1/ack", data={"csrf": csrf}, follow_redirects=True)
            assert acked.status_code == 200
            published = client.post("/tables/PB-01/config", follow_redirects=False, data={
                "csrf": csrf, "body": f"# {SCRIPT}\n{LIMITS_V1}"})
            assert published.status_code == 303
            refused = client.post("/tables/PB-01/config", data={
                "csrf": csrf, "body": f"</textarea>{SCRIPT}"})
            assert refused.status_code == 400
            pages = {path: client.get(path) for path in (
                "/", "/alerts", "/fragments/floor", "/tables/PB-01", "/tables/PB-01/config",
                "/tables/PB-01/rounds/1", f"/login?problem={SCRIPT}&next={SCRIPT}")}
            pages["refused configuration"] = refused
    finally:
        server.stop()
        state.close()
    escaped = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"
    for path, answer in pages.items():
        assert SCRIPT not in answer.text, path
        assert "<script>" not in answer.text, path
        if path != "/fragments/floor":  # no header, and no open alert: nothing he typed
            assert escaped in answer.text, path
    assert f"acknowledged by Thandi{escaped}" in pages["/alerts"].text
    config = pages["/tables/PB-01/config"].text
    assert f"<td>Thandi{escaped}</td>" in config  # who signed version 1
    assert f'<textarea name="body" id="config-body" rows="16" cols="80"># {escaped}\n' in config
    assert f"&lt;/textarea&gt;{escaped}</textarea>" in pages["refused configuration"].text


def test_the_wheel_carries_every_page_template() -> None:
    """The SD image installs the project as a wheel: pyproject's package-data for `pit` must
    take every template the pages are made from."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    with (root / "pyproject.toml").open("rb") as f:
        globs = tomllib.load(f)["tool"]["setuptools"]["package-data"]["pit"]
    templates = sorted((root / "pit" / "templates").iterdir())
    assert len(templates) >= 10
    for path in templates:
        rel = path.relative_to(root / "pit").as_posix()
        assert any(fnmatch.fnmatchcase(rel, g) for g in globs), rel
