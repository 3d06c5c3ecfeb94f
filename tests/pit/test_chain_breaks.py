"""A chain break is inspectable: the alert leads to the quarantined row beside the row the
pit holds, with what differs; the table's page never says the chain is intact while the
break's alert is open. Read in chromium."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from pit.app import open_pit
from pit.breaks import Difference, compare
from tests.pit.conftest import PitServer
from tests.pit.helpers import day_journal, rehash_from, wire_rows
from tests.pit.test_dashboard_browser import browser, shot  # noqa: F401  (the fixture)


def test_what_differs_is_listed_field_by_field_and_value_by_value(tmp_path: Path) -> None:
    day_journal(tmp_path / "t.db", "PB-01", 2).close()
    rows = wire_rows(tmp_path / "t.db")
    held = json.loads(rows[2].payload)
    forged = rehash_from(rows, 2, {**held, "amount": 1})
    found = compare(forged[2], rows[2], rows[1])
    assert found[0] == Difference("payload.amount", str(held["amount"]), "1")
    assert [d.where for d in found] == ["payload.amount", "hash"]
    # A row after the pit's head that does not link to it: its link is what differs.
    assert compare(forged[3], None, rows[2]) == (
        Difference("prev_hash (the hash of row 3)", rows[2].hash, forged[2].hash),)


def test_the_chain_break_alert_leads_to_the_quarantined_row_beside_the_pits(
        browser: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", "correct horse battery")
    state.store.enroll("PB-01")
    day_journal(tmp_path / "t.db", "PB-01", 3).close()
    rows = wire_rows(tmp_path / "t.db")
    assert not state.store.ingest("PB-01", rows).quarantined
    held = json.loads(rows[2].payload)
    # The journal edited at row 3 and its chain re-hashed, then sent again.
    result = state.store.ingest("PB-01", rehash_from(rows, 2, {**held, "amount": 1})[2:])
    assert result.quarantined == len(rows) - 2
    server = PitServer(state).start()
    wait = WebDriverWait(browser, 10)
    try:
        browser.get(server.url + "/login?next=/alerts")
        browser.find_element(By.ID, "name").send_keys("Thandi")
        browser.find_element(By.ID, "password").send_keys("correct horse battery")
        browser.find_element(By.ID, "login").click()
        link = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#alerts a.break-link"))
        assert link.text == "row 3: what differs"
        link.click()
        table = wait.until(lambda d: d.find_element(By.ID, "break-1"))
        differing = [r.text.split(" ")[0] for r in
                     table.find_elements(By.CSS_SELECTOR, "tr.differs")]
        assert differing == ["payload", "hash"]
        assert table.find_elements(By.TAG_NAME, "tr")[0].text == (
            "Field The row 3 the pit holds The quarantined row 3")
        items = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#differences-1 li")]
        assert items[0] == (f"payload.amount: the pit holds {held['amount']}; the quarantined "
                            "row has 1")
        assert items[1].startswith(f"hash: the pit holds {rows[2].hash};")
        assert "differs from the row 3 the pit already holds" in browser.page_source
        shot(browser, "chain-break")

        # The rows the pit holds replay cleanly, but the table's page says the chain is
        # broken while the alert is open, and links to the break.
        browser.get(server.url + "/tables/PB-01")
        chain = browser.find_element(By.ID, "chain").text
        assert chain.startswith("Chain at the pit: BROKEN: row 3 differs")
        assert "intact" not in chain
        assert "Row 3: what differs" in chain
    finally:
        server.stop()
        state.close()
