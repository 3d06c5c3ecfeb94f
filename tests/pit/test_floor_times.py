"""The floor shows which tables are live, late or silent: times in the casino's time zone
(configured, `[pit] timezone`) with the zone beside them, "last heard" as an age, a table
amber once it has not been heard from for `late_after` seconds and red, with one "Table
silent" alert, after `silent_after`. Checked in a real headless browser: the words on the
page and their colours."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.store.canonical import format_wall_time
from pit.alerts import TABLE_SILENT
from pit.app import open_pit
from pit.floor import FloorTimeError, FloorTimes, ago
from tests.pit.conftest import PitServer
from tests.pit.test_dashboard_browser import browser, shot  # noqa: F401  (the fixture)
from tests.pit.test_pit_cli import tableside


def test_times_in_the_casinos_zone_and_ages_in_words() -> None:
    times = FloorTimes("Africa/Johannesburg", late_after=30, silent_after=120)
    assert times.local("2026-11-28T08:15:03.120Z") == "2026-11-28 10:15:03 SAST"
    assert FloorTimes("Europe/Lisbon").local("2026-07-01T08:15:03.000Z") == \
        "2026-07-01 09:15:03 WEST"
    assert FloorTimes().local("2026-11-28T08:15:03.000Z") == "2026-11-28 08:15:03 UTC"
    now = datetime(2026, 11, 28, 8, 16, 0, tzinfo=UTC)
    assert [times.heard(format_wall_time(now - timedelta(seconds=s)), now).status
            for s in (0, 29, 30, 119, 120)] == ["live", "live", "late", "late", "silent"]
    heard = times.heard("2026-11-28T08:15:48.000Z", now)
    assert (heard.ago, heard.at) == ("12 s ago", "2026-11-28 10:15:48 SAST")
    assert times.heard(None, now).ago == "never"
    assert [ago(s) for s in (0, 59, 60, 3_599, 3_600, 86_400 * 3)] == [
        "0 s ago", "59 s ago", "1 min ago", "59 min ago", "1 h ago", "3 d ago"]
    with pytest.raises(FloorTimeError, match="'Mars/Olympus' is not a time zone"):
        FloorTimes("Mars/Olympus")
    with pytest.raises(FloorTimeError, match="late_after .* below silent_after"):
        FloorTimes(late_after=60, silent_after=60)


def test_a_bad_time_zone_in_the_pits_file_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "pit.toml").write_text('[pit]\ndb = "pit.db"\ntimezone = "Mars/Olympus"\n')
    out = tableside("pit", "key", "--config", "pit.toml", cwd=tmp_path)
    assert (out.returncode, out.stderr) == (
        2, "tableside: pit.toml: [pit] 'Mars/Olympus' is not a time zone (an IANA name such "
           "as Africa/Johannesburg)\n")


def _login(driver: WebDriver, url: str) -> None:
    driver.get(url + "/login")
    driver.find_element(By.ID, "name").send_keys("Thandi")
    driver.find_element(By.ID, "password").send_keys("correct horse battery")
    driver.find_element(By.ID, "login").click()


def _row(driver: WebDriver, table: str) -> list[str]:
    row = driver.find_element(By.CSS_SELECTOR, f'tr[data-table="{table}"]')
    return [td.text for td in row.find_elements(By.TAG_NAME, "td")]


def _colour(driver: WebDriver, table: str) -> str:
    cell = driver.find_elements(By.CSS_SELECTOR, f'tr[data-table="{table}"] td')[5]
    return str(cell.value_of_css_property("color"))


def test_the_floor_shows_live_late_and_silent_tables(browser: WebDriver,  # noqa: F811
                                                     tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"),
                     times=FloorTimes("Africa/Johannesburg", late_after=30, silent_after=120))
    state.inspectors.add("Thandi", "correct horse battery")
    now = datetime.now(UTC)
    for table, seconds in (("PB-01", 2), ("PB-02", 60), ("PB-03", 600)):
        state.store.enroll(table)
        state.store.db.execute("UPDATE pit_tables SET last_sync_at = ? WHERE table_id = ?",
                               (format_wall_time(now - timedelta(seconds=seconds)), table))
    state.store.enroll("PB-04")  # never heard from
    server = PitServer(state).start()
    try:
        _login(browser, server.url)
        WebDriverWait(browser, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-table="PB-03"]'))
        shot(browser, "floor-times")
        header = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#floor-table th")]
        assert header[5] == "Last heard (Africa/Johannesburg)"
        live, late, silent = (_row(browser, t)[5] for t in ("PB-01", "PB-02", "PB-03"))
        assert re.fullmatch(r"\d+ s ago \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d SAST\)", live), live
        assert re.fullmatch(r"1 min ago \(.* SAST\): late", late), late
        assert re.fullmatch(r"10 min ago \(.* SAST\): silent", silent), silent
        assert _row(browser, "PB-04")[5] == "never: silent"
        # A quiet table's rows waiting are what it said when last heard: it may have more.
        assert [_row(browser, t)[6] for t in ("PB-01", "PB-02", "PB-04")] == [
            "0", "0 when last heard", "0"]
        assert _colour(browser, "PB-01") == "rgba(184, 240, 200, 1)"  # green
        assert _colour(browser, "PB-02") == "rgba(255, 201, 64, 1)"  # amber
        assert _colour(browser, "PB-03") == "rgba(255, 107, 90, 1)"  # red
        # PB-03 has one open "Table silent" alert, raised in words with the local time.
        alerts = browser.find_element(By.ID, "alerts").text
        assert "Table silent" in alerts
        assert re.search(r"Table PB-03 not heard from since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d "
                         r"SAST \(10 min ago; silent after 120 s\)", alerts), alerts
        assert _row(browser, "PB-03")[7] == "1"
        browser.refresh()  # seen again: not raised again
        WebDriverWait(browser, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-table="PB-03"]'))
        silent_alerts = [a for a in state.store.alerts() if a.kind == TABLE_SILENT]
        assert [a.table_id for a in silent_alerts] == ["PB-03"]
        # The alert's raised time is shown in the casino's zone too.
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d SAST\s+PB-03\s+Table silent",
                         browser.find_element(By.ID, "alerts").text)
    finally:
        server.stop()
        state.close()


def test_a_table_that_goes_quiet_turns_late_then_silent_with_no_event(
        browser: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    """No row comes from a quiet table, so no live event: the floor is fetched again by
    itself (pit/dashboard.py QUIET_MS) and the table turns late, then silent, unreloaded."""
    state = open_pit(str(tmp_path / "pit.db"),
                     times=FloorTimes("Africa/Johannesburg", late_after=2, silent_after=8))
    state.inspectors.add("Thandi", "correct horse battery")
    state.store.enroll("PB-01")
    state.store.db.execute("UPDATE pit_tables SET last_sync_at = ? WHERE table_id = ?",
                           (format_wall_time(datetime.now(UTC)), "PB-01"))
    server = PitServer(state).start()
    try:
        browser.delete_all_cookies()
        _login(browser, server.url)
        # The floor's rows are replaced as it is fetched again: a row read mid-update is read
        # again.
        wait = WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-table="PB-01"]'))
        page = browser.execute_script("return document.body.dataset.mark = 'same page'")
        assert page == "same page"
        wait.until(lambda d: _row(d, "PB-01")[5].endswith(": late"))
        wait.until(lambda d: _row(d, "PB-01")[5].endswith(": silent"))
        wait.until(lambda d: "Table silent" in d.find_element(By.ID, "floor").text)
        assert browser.execute_script("return document.body.dataset.mark") == "same page"
    finally:
        server.stop()
        state.close()
