"""Alerts from the rules: each game's spec says which of its records raise an alert
(`GameSpec.alerts`), and the pit raises them beside those of the shared records: a roulette
spin the same way as the one before (rule 3.2), a misdeal, mini baccarat's shuffler
malfunction and a coup it terminated (rules 12.1.2, 12.4), a void, a shuffler's fault, a
refused configuration. The alerts page read in chromium."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.rules.arizona.operations import Misdealt
from kiosk.rules.cards import Card
from kiosk.rules.operations import encode
from kiosk.rules.registry import GAMES
from kiosk.store.journal import Journal
from pit.alerts import (
    CONFIG_REFUSED,
    DEVICE_FAULT,
    MISDEAL,
    ROUND_TERMINATED,
    SAME_DIRECTION,
    SHUFFLER_MALFUNCTION,
    VOID,
    alert_for,
)
from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.pit.helpers import wire_rows
from tests.pit.test_dashboard_browser import browser  # noqa: F401  (the fixture)

GOLDEN = Path(__file__).resolve().parents[1] / "golden_journals"


def _spun(spin: int, direction: str, same: bool) -> dict[str, object]:
    return {"direction": direction, "same_direction": same, "source": "wheel", "spin": spin}


def test_each_games_spec_says_which_of_its_records_raise_an_alert() -> None:
    assert alert_for("roulette.ball_spun", _spun(2, "clockwise", False)) is None
    assert alert_for("roulette.ball_spun", _spun(2, "clockwise", True)) == (
        SAME_DIRECTION, "spin 2: the ball was spun clockwise, the same way as the spin "
                        "before (rule 3.2)")
    misdeal = Misdealt(round=4, reason="a card exposed", cards=(Card.parse("AS"),))
    assert alert_for(misdeal.kind, encode(misdeal)) == (
        MISDEAL, "hand 4 misdealt: a card exposed (rule 6.2)")
    # The shared records still raise theirs, whatever the game.
    assert alert_for("roulette.spin_voided", {"spin": 3, "reason": "ball left the wheel"}
                     )[0] == VOID  # type: ignore[index]
    assert alert_for("device_report", {"device": "SHUFFLER", "event": "fault",
                                       "detail": "jammed"}) == (
        DEVICE_FAULT, "shuffler fault: jammed")
    assert alert_for("pit_config_refused", {"version": 2, "reason": "bad signature"}
                     )[0] == CONFIG_REFUSED  # type: ignore[index]
    # A game that says nothing (the default) raises none of its own.
    assert GAMES.get("punto-banco").alerts is None
    assert alert_for("punto_banco.betting_closed", {"coup": 1}) is None


def test_a_spin_the_same_way_as_the_one_before_is_an_alert_on_the_dashboard(
        browser: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    # The golden roulette table, its second spin turned the same way as its first.
    journal = Journal.open(tmp_path / "RL-07.db", "RL-07")
    for line in (GOLDEN / "roulette.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["kind"] == "roulette.ball_spun" and row["payload"]["spin"] == 2:
            row["payload"] = _spun(2, "anticlockwise", True)
        journal.append(row["kind"], row["payload"])
    journal.close()
    rows = wire_rows(journal.path)
    seq = next(r.seq for r in rows if r.kind == "roulette.ball_spun"
               and json.loads(r.payload)["spin"] == 2)
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", "correct horse battery")
    state.store.enroll("RL-07")
    assert not state.store.ingest("RL-07", rows).quarantined
    raised = [(a.kind, a.seq) for a in state.store.alerts(table_id="RL-07")]
    assert (SAME_DIRECTION, seq) in raised
    assert [k for k, _ in raised].count(SAME_DIRECTION) == 1
    assert [k for k, _ in raised].count(VOID) == 1  # the golden table's one void
    server = PitServer(state).start()
    try:
        browser.get(server.url + "/login?next=/alerts")
        browser.find_element(By.ID, "name").send_keys("Thandi")
        browser.find_element(By.ID, "password").send_keys("correct horse battery")
        browser.find_element(By.ID, "login").click()
        WebDriverWait(browser, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#alerts tr[id^=alert-]"))
        texts = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#alerts tr")]
        same = [t for t in texts if "Spun the same way (rule 3.2)" in t]
        assert len(same) == 1
        assert ("spin 2: the ball was spun anticlockwise, the same way as the spin before "
                f"(rule 3.2) row {seq}") in same[0]
    finally:
        server.stop()
        state.close()


def test_mini_baccarats_shuffler_malfunction_and_a_terminated_coup_are_alerts(
        browser: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    # The golden table whose coup 2 the malfunction procedure terminated (rule 12.4).
    journal = Journal.open(tmp_path / "MB.db", "MB-01")
    for line in (GOLDEN / "mb_terminate.jsonl").read_text().splitlines():
        row = json.loads(line)
        journal.append(row["kind"], row["payload"])
    journal.close()
    rows = wire_rows(journal.path)
    fault = next(r.seq for r in rows if r.kind == "mini_baccarat.shuffler_malfunctioned")
    ended = next(r.seq for r in rows if r.kind == "mini_baccarat.coup_terminated")
    payloads = {r.seq: json.loads(r.payload) for r in rows}
    assert alert_for("mini_baccarat.shuffler_malfunctioned", payloads[fault]) == (
        SHUFFLER_MALFUNCTION, "coup 2: the shuffler can no longer operate as intended after 3 "
        "card(s) dealt: JAM: card path blocked; reported by the shuffler (rule 12.1.2)")
    # A terminated coup is the game's own kind of void: its alert says so, not "round voided".
    assert alert_for("mini_baccarat.coup_terminated", payloads[ended]) == (
        ROUND_TERMINATED, "coup 2 terminated by inspector Thandi Mokoena (badge 4411): 4 "
        "wager(s) returned (rule 12.4)")
    # The procedure's other records raise none; punto banco's void still raises its own.
    assert all(alert_for(r.kind, payloads[r.seq]) is None for r in rows
               if r.kind == "mini_baccarat.fact_established")
    assert alert_for("punto_banco.coup_voided", {"coup": 3, "reason": "shoe jammed"}
                     )[0] == VOID  # type: ignore[index]

    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", "correct horse battery")
    state.store.enroll("MB-01")
    assert not state.store.ingest("MB-01", rows).quarantined
    raised = [(a.kind, a.seq) for a in state.store.alerts(table_id="MB-01")]
    assert (SHUFFLER_MALFUNCTION, fault) in raised and (ROUND_TERMINATED, ended) in raised
    assert [k for k, _ in raised].count(VOID) == 0
    server = PitServer(state).start()
    try:
        browser.get(server.url + "/login?next=/alerts")
        browser.find_element(By.ID, "name").send_keys("Thandi")
        browser.find_element(By.ID, "password").send_keys("correct horse battery")
        browser.find_element(By.ID, "login").click()
        WebDriverWait(browser, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#alerts tr[id^=alert-]"))
        texts = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#alerts tr")]
        started = [t for t in texts if "Shuffler malfunction (rule 12.1)" in t]
        assert len(started) == 1 and f"(rule 12.1.2) row {fault}" in started[0]
        terminated = [t for t in texts if "Round terminated (rule 12.4)" in t]
        assert len(terminated) == 1
        assert ("coup 2 terminated by inspector Thandi Mokoena (badge 4411): 4 wager(s) "
                f"returned (rule 12.4) row {ended}") in terminated[0]
    finally:
        server.stop()
        state.close()
