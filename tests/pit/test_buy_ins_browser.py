"""Cash buy-ins (the Mpumalanga table game rules, rule 2.1) summed per shift on the table's
page at the pit, read in a real headless browser, and a round disputed at the table (rule
2.8) acknowledged there; the shifts' boundaries in the casino's zone. Screenshot:
artifacts/screenshots/pit-buy-ins.png."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.store.journal import Journal
from kiosk.table.cash import CashBuyIn, ChipExchange, Exchange
from kiosk.table.disputes import RoundDisputed
from pit.app import open_pit
from pit.cash import shift_of
from pit.floor import FloorTimes
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.test_dashboard_browser import browser, shot

__all__ = ["browser"]  # the fixture, shared
SAST = FloorTimes(timezone="Africa/Johannesburg")


def at(text: str) -> datetime:
    """A local (SAST, UTC+2) time as an aware UTC moment."""
    return (datetime.fromisoformat(text) - timedelta(hours=2)).replace(tzinfo=UTC)


def test_the_shifts_run_06_14_22_in_the_casinos_zone() -> None:
    assert shift_of(at("2026-11-28 05:59:59"), SAST) == (
        at("2026-11-27 22:00").astimezone(SAST.zone()), at("2026-11-28 06:00").astimezone(
            SAST.zone()))
    start, end = shift_of(at("2026-11-28 06:00"), SAST)
    assert (start, end) == (at("2026-11-28 06:00"), at("2026-11-28 14:00"))
    start, _ = shift_of(at("2026-11-28 23:30"), SAST)
    assert start == at("2026-11-28 22:00")


class Clock:
    def __init__(self, when: datetime) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when


def test_the_tables_page_sums_buy_ins_per_shift(browser: WebDriver, tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"), times=SAST)
    state.inspectors.add("Thandi", "correct horse battery")
    state.store.enroll("PB-01")
    # Yesterday's shift at this hour, and the one before it (relative to now: the page sums
    # the last week).
    start, _end = shift_of(datetime.now(UTC) - timedelta(days=1), SAST)
    clock = Clock(start - timedelta(hours=3))
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01", clock=clock)
    Day(journal).play(1)

    def buy_in(when: datetime, cash: int, bet: int = 0) -> None:
        clock.when = when
        op = CashBuyIn("1", cash, cash - bet, bet)
        journal.append(op.kind, op.to_payload())

    buy_in(start - timedelta(minutes=1), 25_000)  # the shift before
    buy_in(start, 50_000, bet=10_000)  # the shift's first minute
    buy_in(start + timedelta(hours=7, minutes=59), 100_000)  # its last
    # A colour-up on record before chips were broken down (two amounts), and a chip change
    # broken down by chip: both on the page, newest first.
    clock.when = start + timedelta(hours=1)
    journal.append("chip_exchange", {"what": "colour_up", "place": "", "taken": 12_500,
                                     "given": 12_500, "colour": "red", "wheel_chips": 25,
                                     "laid_out": True})
    clock.when = start + timedelta(hours=2)
    change = ChipExchange(Exchange.CHANGE, "3", 20_000, 20_000, taken_chips={10_000: 2},
                          given_chips={5_000: 2, 2_500: 4})
    journal.append(change.kind, change.to_payload())
    disputed = RoundDisputed(1, "D101", "dealer", "The payout is queried")
    journal.append(disputed.kind, disputed.to_payload())  # rule 2.8: an alert at the pit
    rows = wire_rows(journal.path)
    assert state.store.ingest("PB-01", rows).stored == len(rows)
    server = PitServer(state).start()
    wait = WebDriverWait(browser, 10, ignored_exceptions=(StaleElementReferenceException,))
    try:
        browser.get(server.url + "/login")
        browser.find_element(By.ID, "name").send_keys("Thandi")
        browser.find_element(By.ID, "password").send_keys("correct horse battery")
        browser.find_element(By.ID, "login").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-table="PB-01"]'))
        browser.get(server.url + "/tables/PB-01")
        table = wait.until(lambda d: d.find_element(By.ID, "buy-ins"))
        cells = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                 for tr in table.find_elements(By.CSS_SELECTOR, "tr.shift")]
        before = start - timedelta(hours=8)
        assert cells == [
            [f"{start:%Y-%m-%d %H:%M}–{start + timedelta(hours=8):%H:%M} SAST", "2",
             "R1,500", "R1,400"],
            [f"{before:%Y-%m-%d %H:%M}–{start:%H:%M} SAST", "1", "R250", "R250"]]
        changes = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")] for tr in
                   browser.find_elements(By.CSS_SELECTOR, "#exchanges tr.exchange")]
        assert changes == [
            [f"{start + timedelta(hours=2):%Y-%m-%d %H:%M} SAST", "Chip change", "3",
             "took 2 x R100 = R200, gave 2 x R50 + 4 x R25 = R200"],
            [f"{start + timedelta(hours=1):%Y-%m-%d %H:%M} SAST", "Colour-up", "",
             "took R125, gave R125"]]
        shot(browser, "buy-ins")
        # The dispute is an alert on the table's page, acknowledged by name.
        row = browser.find_element(By.CSS_SELECTOR, "#alerts tr[id^=alert-]")
        assert "Round disputed" in row.text
        assert "round 1 disputed by the dealer D101: The payout is queried" in row.text
        browser.find_element(By.ID, "ack-" + row.get_attribute("id").removeprefix("alert-")
                             ).click()
        wait.until(lambda d: d.find_elements(By.ID, "no-alerts"))
        (acked,) = state.store.alerts(open_only=False, table_id="PB-01")
        assert (acked.kind, acked.acked_by) == ("round_disputed", "Thandi")
    finally:
        journal.close()
        server.stop()
        state.close()
