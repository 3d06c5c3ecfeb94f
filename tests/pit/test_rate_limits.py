"""The pit's rate limits: a table's budget is spent only by requests carrying its credential,
requests without a valid one share a budget per client address, and the dashboard's logins
are limited by failures per name and per address. Time is a clock the test moves; the
requests go over HTTP to a real pit server, so every one comes from 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from pit.app import open_pit
from pit.limits import RateLimiter
from pit.state import PitState
from tests.pit.conftest import PitServer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pit(pit_url: str) -> Iterator[tuple[PitState, httpx.Client, Clock, dict[str, str]]]:
    clock = Clock()
    state = open_pit(pit_url)
    server = PitServer(state, lifespan=True)
    try:
        state.rate = RateLimiter(1.0, 3, clock)
        state.anonymous_rate = RateLimiter(1.0, 2, clock)
        state.failed_logins_by_name = RateLimiter(1 / 60, 3, clock)
        state.failed_logins_by_address = RateLimiter(1 / 15, 5, clock)
        tokens = {t: state.store.enroll(t) for t in ("T1", "T2")}
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as web:
            yield state, web, clock, tokens
    finally:
        server.stop()
        state.close()


def _head(web: httpx.Client, table: str, token: str | None) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return web.get(f"/api/v1/tables/{table}/head", headers=headers).status_code


def test_nobody_spends_a_tables_budget_but_the_table(
        pit: tuple[PitState, httpx.Client, Clock, dict[str, str]]) -> None:
    state, web, clock, tokens = pit
    # Without a credential, or with a wrong one, the caller's address runs out, not T1.
    assert [_head(web, "T1", None) for _ in range(2)] == [401, 401]
    assert _head(web, "T1", "guessed") == 429
    answer = web.get("/api/v1/tables/T1/head")
    assert answer.status_code == 429 and answer.headers["Retry-After"] == "1"
    assert answer.json() == {"error": "too many requests from this address without a "
                                      "credential; slow down"}
    # T2's credential on T1's address spends T2's budget (it is T2 asking), not T1's.
    assert [_head(web, "T1", tokens["T2"]) for _ in range(3)] == [403, 403, 403]
    assert _head(web, "T2", tokens["T2"]) == 429
    # T1 has its whole budget, and then it runs out too.
    assert [_head(web, "T1", tokens["T1"]) for _ in range(4)] == [200, 200, 200, 429]
    refused = web.get("/api/v1/tables/T1/head",
                      headers={"Authorization": f"Bearer {tokens['T1']}"})
    assert refused.json() == {"error": "too many requests from this table; slow down"}
    assert refused.headers["Retry-After"] == "1"
    clock.now += 1.0  # one request a second comes back
    assert [_head(web, "T1", tokens["T1"]) for _ in range(2)] == [200, 429]
    assert _head(web, "T1", None) == 401


def _login(web: httpx.Client, name: str, password: str) -> str:
    page = web.get("/login")
    csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
    answer = web.post("/login", data={"name": name, "password": password, "csrf": csrf},
                      follow_redirects=False)
    assert answer.status_code == 303
    return str(answer.headers["location"])


def test_failed_logins_are_limited_per_name_and_per_address(
        pit: tuple[PitState, httpx.Client, Clock, dict[str, str]]) -> None:
    state, web, clock, _ = pit
    state.inspectors.add("Thandi", "correct horse battery")
    state.inspectors.add("Sipho", "another long password")
    wrong = "/login?problem=Wrong%20name%20or%20password."
    assert [_login(web, "Thandi", "guess") for _ in range(3)] == [wrong] * 3
    # The right password is not even checked now, for that name; another name still logs in.
    refused = _login(web, "Thandi", "correct horse battery")
    assert refused.startswith("/login?problem=Too%20many%20failed%20logins%20for%20this%20"
                              "name%20or%20from%20this%20computer%3B%20try%20again%20in%20")
    assert _login(web, "Sipho", "another long password") == "/"
    clock.now += 60  # one more try a minute
    assert _login(web, "Thandi", "correct horse battery") == "/"
    assert _login(web, "Thandi", "guess") == wrong  # a success forgets the name's failures
    # From one address, failures over any names run out too: 5 here (one spent since the
    # address's budget filled up again), each name failing once only.
    assert [_login(web, name, "guess") for name in "abcd"] == [wrong] * 4
    assert _login(web, "Sipho", "another long password").startswith("/login?problem=Too")
    clock.now += 15
    assert _login(web, "Sipho", "another long password") == "/"
