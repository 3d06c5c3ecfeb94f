"""Each round's page draws the round for an inspector: the cards as cards, the totals, the
winner, a roulette number in its colour, every bet with its place, stake, outcome and the
amounts paid in the table's currency, a void's bets handed back, and the raw record to
download. Every game's golden journal (tests/golden_journals) goes through a real pit and its
pages are read in chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.replay import load_entries, replay_source
from kiosk.sync.client import to_wire
from pit.app import open_pit
from pit.drawing import card_face, money
from pit.ingest import WireRow
from tests.pit.conftest import PitServer
from tests.pit.test_dashboard_browser import browser, shot  # noqa: F401  (the fixture)

GOLDEN = Path(__file__).resolve().parents[1] / "golden_journals"
JOURNALS = ("pb", "bj", "t21", "bj_rules", "mixed", "roulette", "az")


def test_money_is_written_to_the_cent_in_the_tables_currency() -> None:
    assert money(9500, "R") == "R95.00"
    assert money(125000, "R") == "R1,250.00"
    assert money(-12345, "R") == "-R123.45"
    assert money(5, "$") == "$0.05"
    assert (card_face("TS").face, card_face("TS").colour) == ("10♠", "black")
    assert (card_face("7H").face, card_face("7H").colour) == ("7♥", "red")
    assert card_face("??").face == "??"


@pytest.fixture(scope="module")
def pit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, PitServer]]:
    """One pit a golden journal (several share a table id), every row ingested."""
    servers = {}
    for name in JOURNALS:
        state = open_pit(str(tmp_path_factory.mktemp(name) / "pit.db"))
        state.inspectors.add("Thandi", "correct horse battery")
        rows = [WireRow(**to_wire(e)) for e in load_entries(GOLDEN / f"{name}.jsonl")]
        state.store.enroll(rows[0].table_id)
        for start in range(0, len(rows), 500):
            result = state.store.ingest(rows[0].table_id, rows[start:start + 500])
            assert not result.quarantined, result.break_reason
        servers[name] = PitServer(state).start()
    yield servers
    for server in servers.values():
        server.stop()
        server.state.close()


def _open(driver: WebDriver, server: PitServer, path: str) -> None:
    driver.get(server.url + path)
    if "/login" in driver.current_url:
        driver.find_element(By.ID, "name").send_keys("Thandi")
        driver.find_element(By.ID, "password").send_keys("correct horse battery")
        driver.find_element(By.ID, "login").click()
        WebDriverWait(driver, 10).until(lambda d: "/login" not in d.current_url)
        if not driver.current_url.endswith(path):
            driver.get(server.url + path)


def _bets(driver: WebDriver) -> list[str]:
    return [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#bets tr")[1:]]


def _hand(driver: WebDriver, name: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, f'.hand[data-hand="{name}"]').text


def _replayed(name: str) -> list[dict[str, object]]:
    coups = json.loads((GOLDEN / f"{name}.replay.json").read_text())["rounds"]
    assert isinstance(coups, list)
    return coups


@pytest.mark.parametrize("name", JOURNALS)
def test_every_games_rounds_are_drawn_with_their_money(browser: WebDriver,  # noqa: F811
                                                       pit: dict[str, PitServer],
                                                       name: str) -> None:
    server = pit[name]
    table_id = server.state.store.floor()[0].table_id
    settled = [c for c in _replayed(name) if c["status"] == "settled"]
    first = settled[0]
    _open(browser, server, f"/tables/{table_id}/rounds/{first['seq']}")
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Recomputed: matches what the table recorded." in page
    assert "{" not in page and not re.search(r"\d{3,}/1", page)  # no JSON, no "9500/1"
    rows = _bets(browser)
    # Every bet settled in the round is a row of its own, in the table's currency.
    for s in first["settlements"]:
        assert isinstance(s, dict)
        if "stake" in s:
            assert any(money(int(s["stake"]), "R") in row for row in rows), (s, rows)
    shot(browser, f"round-{name}")


def test_punto_banco_shows_both_hands_the_totals_the_winner_and_each_bet(
        browser: WebDriver, pit: dict[str, PitServer]) -> None:  # noqa: F811
    _open(browser, pit["pb"], "/tables/DEMO-1/rounds/12")
    assert browser.find_element(By.ID, "winner").text == "player wins, 7 to 0"
    assert _hand(browser, "player").split("\n") == ["player", "7♣ Q♠", "7", "wins"]
    assert _hand(browser, "banker").split("\n") == ["banker", "7♣ 3♦ Q♦", "0"]
    red = browser.find_element(By.CSS_SELECTOR, '.card[title="3D"]')
    assert red.value_of_css_property("color") == "rgba(179, 0, 27, 1)"
    assert _bets(browser) == ["area 6 player R1,250.00 win R1,250.00 R2,500.00 pays 1 to 1",
                              "In all R1,250.00 R1,250.00 R2,500.00"]

    _open(browser, pit["mixed"], "/tables/T-01/rounds/12")
    assert browser.find_element(By.ID, "winner").text == "banker wins, 7 to 6"
    assert _bets(browser)[0] == "area 1 banker R55.00 win R50.00 R105.00 pays 19 to 20"


def test_blackjack_shows_each_hand_and_its_total(browser: WebDriver,  # noqa: F811
                                                 pit: dict[str, PitServer]) -> None:
    _open(browser, pit["bj"], "/tables/DEMO-1/rounds/39")
    assert browser.find_element(By.ID, "winner").text == "dealer busts with 26"
    assert _hand(browser, "dealer").split("\n") == ["dealer", "J♦ 6♣ J♠", "bust (26)"]
    assert _hand(browser, "box 6/1").split("\n") == ["box 6/1", "3♥ 7♥ 5♠ 5♥", "20"]
    assert "box 3/1, player A R50.00 lose R0.00 R0.00" in _bets(browser)
    _open(browser, pit["bj_rules"], "/tables/BJ-T/rounds/16")
    assert _hand(browser, "box 2/1").split("\n") == ["box 2/1", "A♠ K♦", "21", "blackjack"]
    assert "box 2/1, player A R55.00 blackjack R82.00 R137.00 pays 3 to 2" in _bets(browser)


def test_a_void_round_lists_every_bet_handed_back(browser: WebDriver,  # noqa: F811
                                                  pit: dict[str, PitServer]) -> None:
    void = next(c for c in replay_source(GOLDEN / "mixed.jsonl").rounds if c.status == "voided")
    _open(browser, pit["mixed"], f"/tables/T-01/rounds/{void.seq}")
    assert browser.find_element(By.ID, "winner").text == "void: shoe jammed"
    assert "Bets handed back" in browser.find_element(By.TAG_NAME, "main").text
    assert _bets(browser) == ["box 3/1, player A R50.00 handed back R0.00 R50.00",
                              "In all R50.00 R0.00 R50.00"]

    _open(browser, pit["roulette"], "/tables/RL-07/rounds/144")
    assert browser.find_element(By.ID, "winner").text == "no spin: inspector's decision"
    rows = _bets(browser)
    assert len(rows) == 26  # 25 bets on the layout, and the sum
    assert "blue: straight 4 R75.00 handed back R0.00 R75.00 3 chips" in rows
    assert rows[-1] == "In all R335.00 R0.00 R335.00"  # R95 + R90 + R150


def test_roulette_shows_the_number_in_its_colour(browser: WebDriver,  # noqa: F811
                                                 pit: dict[str, PitServer]) -> None:
    _open(browser, pit["roulette"], "/tables/RL-07/rounds/17")
    number = browser.find_element(By.ID, "number")
    assert number.text == "15 black"
    assert number.value_of_css_property("background-color") == "rgba(17, 17, 17, 1)"
    rows = _bets(browser)
    assert "pink: dozen 13-24 R10.00 win R20.00 R30.00 2 chips, pays 2 to 1" in rows
    assert "blue: straight 28 R25.00 lose R0.00 R0.00 1 chip" in rows
    shot(browser, "round-roulette-number")


def test_the_raw_record_is_one_click_away(browser: WebDriver,  # noqa: F811
                                          pit: dict[str, PitServer]) -> None:
    server = pit["az"]
    _open(browser, server, "/tables/DEMO-1/rounds/16")
    assert _hand(browser, "box 4").split("\n") == ["box 4", "5♥ 6♦ 2♣", "ace high"]
    assert _bets(browser)[0].startswith("box 4 R100.00 lose R0.00 R0.00 ace high")
    link = browser.find_element(By.ID, "raw")
    assert link.get_attribute("download") is not None
    cookie = browser.get_cookie("pit_session")
    assert cookie is not None
    answer = httpx.get(str(link.get_attribute("href")),
                       cookies={"pit_session": cookie["value"]})
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == (
        'attachment; filename="DEMO-1-round-1-row-16.json"')
    body = answer.json()
    assert body["round"]["round"] == 1
    # The round's rows, from the table's opening (no round before it) to its settling row,
    # each as the table hashed it.
    assert [r["seq"] for r in body["rows"]] == list(range(1, 17))
    assert body["rows"] == [r.as_json() for r in server.state.store.rows("DEMO-1", 0, 16)]
    second = next(c for c in _replayed("az") if c["round"] == 2)
    answer = httpx.get(f"{server.url}/tables/DEMO-1/rounds/{second['seq']}/raw",
                       cookies={"pit_session": cookie["value"]})
    assert [r["seq"] for r in answer.json()["rows"]] == list(range(17, int(second["seq"]) + 1))
    assert httpx.get(f"{server.url}/tables/DEMO-1/rounds/16/raw").status_code == 303  # no login


def test_who_did_what_comes_from_the_round_once_tables_name_people() -> None:
    from kiosk.rules.audit import RoundDrawing, RoundReplay
    from pit.drawing import who_did_what

    plain = RoundReplay(1, "settled", 12, "2026-11-28T08:00:00.000Z")
    assert who_did_what(plain) == ()

    class Signed(RoundReplay):
        def who(self) -> tuple[tuple[str, str], ...]:
            return (("dealer", "4471 Thandi M."),)

    assert who_did_what(Signed(1, "settled", 12, "t")) == (("dealer", "4471 Thandi M."),)
    drawn = RoundReplay(1, "settled", 12, "t", drawing=RoundDrawing(
        "R", by=(("inspector", "0012 Sipho K."),)))
    assert who_did_what(drawn) == (("inspector", "0012 Sipho K."),)
