"""The dashboard stays live the way inspectors use it, in a real headless browser (Debian's
chromium): many pages open at once, from page to page and Back, the pit restarting, a
session ending, and a browser without shared workers. Every live page hears the pit's events
through one shared worker (pit/dashboard.py `_LIVE_JS`, `_EVENTS_JS`): a browser opens at
most six connections to one pit over HTTP/1.1, and before, each page held one."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from kiosk.store.journal import Journal
from kiosk.sync.client import SyncClient
from pit import dashboard
from pit.app import open_pit
from pit.dashboard import GAP_MS
from pit.db import PitDatabaseError
from pit.inspectors import Session
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.test_dashboard_browser import (  # noqa: F401  (the fixture)
    _hearing,
    browser,
    open_page,
    shot,
)

ROUNDS = "#rounds a"


class Pit:
    """A pit server, and tables whose coups are synced to it one at a time."""

    def __init__(self, folder: Path, tables: tuple[str, ...]) -> None:
        self.state = open_pit(str(folder / "pit.db"))
        self.state.inspectors.add("Thandi", "correct horse battery")
        self.server = PitServer(self.state).start()
        self.tokens = {table: self.state.store.enroll(table) for table in tables}
        self.journals = {table: Journal.open(folder / f"{table}.db", table) for table in tables}
        self.days = {table: Day(journal) for table, journal in self.journals.items()}

    def coup(self, table: str = "PB-01", server: PitServer | None = None) -> None:
        """A coup at `table`, synced to the pit (through `server`, when given)."""
        self.days[table].play(1)
        url = (server or self.server).url
        client = SyncClient(self.journals[table].path, table, url, self.tokens[table])
        try:
            assert client.sync_all() > 0
        finally:
            client.close()

    def start_again(self) -> None:
        """The pit server, stopped, starts again on the same port and database."""
        self.server = PitServer(self.state, self.server.port).start()

    def close(self) -> None:
        for journal in self.journals.values():
            journal.close()
        self.server.stop()
        self.state.close()


@pytest.fixture
def pit(browser: WebDriver, tmp_path: Path  # noqa: F811
        ) -> Iterator[Callable[..., Pit]]:
    """Make a `Pit` (of PB-01 unless told); a fresh login; every tab but one closed after."""
    made: list[Pit] = []

    def make(tables: tuple[str, ...] = ("PB-01",)) -> Pit:
        made.append(Pit(tmp_path, tables))
        return made[-1]

    browser.delete_all_cookies()
    try:
        yield make
    finally:
        for tab in browser.window_handles[1:]:
            browser.switch_to.window(tab)
            browser.close()
        browser.switch_to.window(browser.window_handles[0])
        browser.get("about:blank")  # the pit's pages let go before it stops
        for one in made:
            one.close()


def _wait(browser: WebDriver) -> WebDriverWait[WebDriver]:  # noqa: F811
    return WebDriverWait(browser, 20, ignored_exceptions=(StaleElementReferenceException,))


def _rounds(driver: WebDriver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, ROUNDS))


def _away_for_a_coup(browser: WebDriver, floor: Pit) -> None:  # noqa: F811
    """The pit stops (the open page sees it is away); a coup reaches the database meanwhile,
    through another pit process whose events the page does not hear; the pit starts again."""
    shown = _rounds(browser)
    floor.server.stop()
    _wait(browser).until(lambda d: d.find_element(By.ID, "live").get_attribute(
        "data-events") == "lost")
    other = PitServer(floor.state).start()
    try:
        floor.coup(server=other)
    finally:
        other.stop()
    assert _rounds(browser) == shown  # the page heard nothing of it
    floor.start_again()


def test_an_inspector_goes_page_to_page_and_back_and_every_page_loads_and_stays_live(
        browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """Chrome keeps the pages left behind for Back (six). Each live page held a connection
    to the events, so on a quiet floor the seventh page opened never loaded; a page brought
    back by Back must listen again, or it stays as it was left."""
    floor = pit()
    floor.coup()
    floor.coup()  # then nothing: a quiet pit, whose pages get no event to let go on
    server = floor.server
    open_page(browser, server, "/tables/PB-01")
    pages = (("/", "#floor"), ("/tables/PB-01", "#rounds"))
    for visit in range(12):  # twice the pages a browser keeps, and its connections
        path, part = pages[visit % 2]
        browser.get(server.url + path)  # a page that never loads: TimeoutException
        assert browser.current_url == server.url + path
        assert browser.find_elements(By.CSS_SELECTOR, part)
    _wait(browser).until(lambda d: _rounds(d) == 2)

    browser.execute_script("window.stillThisPage = true")
    browser.get(server.url + "/alerts")
    browser.back()
    _wait(browser).until(lambda d: d.current_url == server.url + "/tables/PB-01")
    # Brought back as it was left (the browser's back/forward cache), not loaded again:
    # so only the page's own script can bring it up to date.
    assert browser.execute_script("return window.stillThisPage === true")
    floor.coup()
    _wait(browser).until(lambda d: _rounds(d) == 3)
    assert "updated" in browser.find_element(By.ID, "live").text


def test_a_page_brought_back_shows_the_coup_synced_before_it_heard_the_events(
        browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """Back brings a page back, and a coup is synced before the page hears the events again
    (here the pit takes 2 s to answer for them): the page shows it once it hears them,
    though the coup's own event went to nobody."""
    floor = pit()
    floor.coup()
    server = floor.server
    events = next(r for r in server.app.router.routes
                  if isinstance(r, Route) and r.path == "/events")

    async def slow_events(request: Request) -> Response:
        await asyncio.sleep(2)
        answer: Response = await events.endpoint(request)
        return answer

    open_page(browser, server, "/tables/PB-01")
    _wait(browser).until(_hearing)
    browser.execute_script("window.stillThisPage = true")
    browser.get(server.url + "/alerts")  # not a live page: nothing listens now
    server.app.router.routes.insert(0, Route("/events", slow_events, methods=["GET"]))
    browser.back()
    _wait(browser).until(lambda d: d.current_url == server.url + "/tables/PB-01")
    assert browser.execute_script("return window.stillThisPage === true")  # not reloaded
    floor.coup()  # while the page waits for its events
    _wait(browser).until(_hearing)
    _wait(browser).until(lambda d: _rounds(d) == 2)


def test_an_inspector_watches_the_floor_and_seven_tables_in_tabs_and_each_updates_live(
        browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """An inspector watching six tables and more, each in a tab beside the floor's: every
    page loads, and every one shows its table's next coup live. Before, the floor and five
    tables held all six connections, and the sixth table's page never loaded."""
    tables = tuple(f"PB-0{n}" for n in range(1, 8))
    floor = pit(tables)
    for table in tables:
        floor.coup(table)
    open_page(browser, floor.server, "/")
    tabs = {}
    for table in tables:
        browser.switch_to.new_window("tab")
        browser.get(f"{floor.server.url}/tables/{table}")  # a page that never loads: Timeout
        assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, ROUNDS)] == ["1"]
        tabs[table] = browser.current_window_handle
    assert len(browser.window_handles) == 1 + len(tables)

    for table in tables:
        floor.coup(table)
    for table, tab in tabs.items():
        browser.switch_to.window(tab)
        _wait(browser).until(lambda d: [a.text for a in d.find_elements(By.CSS_SELECTOR,
                                                                        ROUNDS)] == ["2", "1"])
        assert "updated" in browser.find_element(By.ID, "live").text, table
    shot(browser, "seventh-table-tab")

    # A table's page fetches its rounds again for its own table's events, not for every
    # table's: a coup at PB-07 leaves PB-01's page as it was, though it heard the event.
    fetches = ("return performance.getEntriesByType('resource').filter("
               "(e) => e.name.includes('/fragments/tables/')).length")
    browser.switch_to.window(tabs["PB-01"])
    before = browser.execute_script(fetches)
    floor.coup("PB-07")
    _wait(browser).until(lambda d: "(table PB-07, row" in d.find_element(By.ID, "live").text)
    time.sleep(2 * GAP_MS / 1000)  # a fetch for that event would be on its way by now
    assert browser.execute_script(fetches) == before
    assert _rounds(browser) == 2
    browser.switch_to.window(tabs["PB-07"])
    _wait(browser).until(lambda d: _rounds(d) == 3)


def test_pages_open_when_a_session_ended_update_again_once_the_inspector_logs_in(
        browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """The pit restarts after the inspector's session ended (it expired, say): the open
    page's events are refused (401), which a browser does not ask for again by itself. The
    page says so; logging in again in another tab, that tab updates, and so does the page
    left open before."""
    floor = pit()
    floor.coup()
    open_page(browser, floor.server, "/tables/PB-01")
    before = browser.current_window_handle
    _wait(browser).until(_hearing)

    floor.server.stop()
    floor.state.store.db.execute("DELETE FROM pit_sessions")  # the session ended
    floor.start_again()
    _wait(browser).until(lambda d: d.find_element(By.ID, "live").get_attribute(
        "data-events") == "refused")
    assert browser.find_element(By.ID, "live").text == "not updating: log in again"

    browser.switch_to.new_window("tab")
    open_page(browser, floor.server, "/tables/PB-01")  # logs in again on the way
    _wait(browser).until(_hearing)
    floor.coup()
    for tab in (browser.current_window_handle, before):
        browser.switch_to.window(tab)
        _wait(browser).until(lambda d: _rounds(d) == 2)
        assert "updated" in browser.find_element(By.ID, "live").text


def test_what_happened_while_the_pit_was_away_shows_once_it_is_back(
        browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """The pit stops; a coup reaches the database meanwhile (through another pit process
    on it, whose events this page does not hear); the pit starts again. The page shows the
    coup once it hears the events again, though no event told it of the coup."""
    floor = pit()
    floor.coup()
    open_page(browser, floor.server, "/tables/PB-01")
    _wait(browser).until(_hearing)
    _away_for_a_coup(browser, floor)
    _wait(browser).until(lambda d: _rounds(d) == 2)
    assert browser.find_element(By.ID, "live").text == "live"


@pytest.mark.parametrize("worker", ["absent", "its script fails"])
def test_without_a_shared_worker_each_page_listens_on_its_own(
        worker: str, browser: WebDriver, pit: Callable[..., Pit]) -> None:  # noqa: F811
    """Without shared workers (some browsers, or one that blocks them), or when the worker's
    script does not load, a page listens on its own connection: it updates live, and catches
    up after the pit was away."""
    hide = "delete window.SharedWorker;" if worker == "absent" else ""
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": hide})

    async def missing(request: Request) -> Response:
        return Response("no", status_code=404)

    try:
        floor = pit()
        if worker != "absent":
            floor.server.app.router.routes.insert(0, Route("/static/events.js", missing))
        floor.coup()
        open_page(browser, floor.server, "/tables/PB-01")
        assert browser.execute_script("return typeof SharedWorker") == (
            "undefined" if worker == "absent" else "function")
        _wait(browser).until(_hearing)
        floor.coup()
        _wait(browser).until(lambda d: _rounds(d) == 2)
        assert "updated" in browser.find_element(By.ID, "live").text
        _away_for_a_coup(browser, floor)
        _wait(browser).until(lambda d: _rounds(d) == 3)
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                {"identifier": added["identifier"]})


def test_a_page_left_open_stops_updating_once_the_inspector_logs_out_even_on_a_busy_floor(
        browser: WebDriver, pit: Callable[..., Pit],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An inspector logs out in one tab and walks away; a table's page left open in another
    stops hearing the floor and says so, though events keep coming (the feed looks at its
    session every KEEPALIVE seconds, 15, here half a second, busy or not). The pit itself
    sends an event every 50 ms meanwhile, so no quiet half second comes."""
    monkeypatch.setattr(dashboard, "KEEPALIVE", 0.5)
    floor = pit()
    floor.coup()
    done = threading.Event()

    async def busy(request: Request) -> Response:
        sent = 0
        while not done.is_set() and sent < 1200:  # a minute at most
            await floor.state.tell({"type": "table", "table_id": "PB-01", "head": 1})
            sent += 1
            await asyncio.sleep(0.05)
        return Response(str(sent))

    floor.server.app.router.routes.insert(0, Route("/busy", busy))
    open_page(browser, floor.server, "/tables/PB-01")
    left_open = browser.current_window_handle
    _wait(browser).until(_hearing)
    sent: list[str] = []
    playing = threading.Thread(
        target=lambda: sent.append(httpx.get(floor.server.url + "/busy", timeout=None).text))
    playing.start()
    try:
        browser.switch_to.new_window("tab")
        browser.get(floor.server.url + "/")
        browser.find_element(By.XPATH, "//button[text()='Log out']").click()
        _wait(browser).until(lambda d: "/login" in d.current_url)
        browser.switch_to.window(left_open)
        _wait(browser).until(lambda d: d.find_element(By.ID, "live").get_attribute(
            "data-events") == "refused")
        assert browser.find_element(By.ID, "live").text == "not updating: log in again"
        assert playing.is_alive()  # the floor was busy all along
    finally:
        done.set()
        playing.join(30)
    assert not playing.is_alive() and int(sent[0]) > 0


def test_the_feed_goes_on_while_the_database_cannot_say_whose_session_it_is(
        browser: WebDriver, pit: Callable[..., Pit],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The feed looks at its session every KEEPALIVE (here half a second). When the database
    cannot answer then (PostgreSQL restarting, say), the feed goes on and looks again: the
    page keeps hearing and showing coups. Cut instead, it would ask again, be answered 503,
    and stop."""
    monkeypatch.setattr(dashboard, "KEEPALIVE", 0.5)
    floor = pit()
    floor.coup()
    real = dashboard._session
    looks: list[str] = []

    async def session(request: Request) -> Session | None:
        if request.url.path == "/events":
            looks.append(request.url.path)
            if len(looks) > 1:  # the feed's own looks, after the one that let it in
                raise PitDatabaseError("the pit's database is away")
        return await real(request)

    monkeypatch.setattr(dashboard, "_session", session)
    open_page(browser, floor.server, "/tables/PB-01")
    _wait(browser).until(_hearing)
    _wait(browser).until(lambda d: len(looks) >= 4)  # three looks refused by the database
    assert _hearing(browser)
    floor.coup()
    _wait(browser).until(lambda d: _rounds(d) == 2)
    assert _hearing(browser) and "updated" in browser.find_element(By.ID, "live").text
