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

from kiosk.replay import load_entries, replay_source
from kiosk.sync.client import to_wire
from pit.app import open_pit
from pit.drawing import card_face, money
from pit.ingest import WireRow
from tests.pit.conftest import PitServer
from tests.pit.test_dashboard_browser import (  # noqa: F401  (the fixture)
    browser,
    open_page,
    shot,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden_journals"
JOURNALS = ("pb", "bj", "t21", "bj_rules", "mixed", "roulette", "az", "pg", "mb_transfer",
            "mb_replace", "mb_terminate", "mb_shoe")


def test_money_is_written_to_the_cent_in_the_tables_currency() -> None:
    assert money(9500, "R") == "R95.00"
    assert money(125000, "R") == "R1,250.00"
    assert money(-12345, "R") == "-R123.45"
    assert money(5, "$") == "$0.05"
    assert (card_face("TS").face, card_face("TS").colour) == ("10♠", "black")
    assert (card_face("7H").face, card_face("7H").colour) == ("7♥", "red")
    assert card_face("??").face == "??"
    assert (card_face("66").face, card_face("66").colour) == ("6·6", "tile")  # a tile's pips


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
    open_page(browser, server, f"/tables/{table_id}/rounds/{first['seq']}")
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
    open_page(browser, pit["pb"], "/tables/DEMO-1/rounds/12")
    assert browser.find_element(By.ID, "winner").text == "player wins, 7 to 0"
    assert _hand(browser, "player").split("\n") == ["player", "7♣ Q♠", "7", "wins"]
    assert _hand(browser, "banker").split("\n") == ["banker", "7♣ 3♦ Q♦", "0"]
    red = browser.find_element(By.CSS_SELECTOR, '.card[title="3D"]')
    assert red.value_of_css_property("color") == "rgba(179, 0, 27, 1)"
    assert _bets(browser) == ["area 6 player R1,250.00 win R1,250.00 R2,500.00 pays 1 to 1",
                              "In all R1,250.00 R1,250.00 R2,500.00"]

    open_page(browser, pit["mixed"], "/tables/T-01/rounds/12")
    assert browser.find_element(By.ID, "winner").text == "banker wins, 7 to 6"
    assert _bets(browser)[0] == "area 1 banker R55.00 win R50.00 R105.00 pays 19 to 20"


def test_blackjack_shows_each_hand_and_its_total(browser: WebDriver,  # noqa: F811
                                                 pit: dict[str, PitServer]) -> None:
    open_page(browser, pit["bj"], "/tables/DEMO-1/rounds/39")
    assert browser.find_element(By.ID, "winner").text == "dealer busts with 26"
    assert _hand(browser, "dealer").split("\n") == ["dealer", "J♦ 6♣ J♠", "bust (26)"]
    assert _hand(browser, "box 6/1").split("\n") == ["box 6/1", "3♥ 7♥ 5♠ 5♥", "20"]
    assert "box 3/1, player A R50.00 lose R0.00 R0.00" in _bets(browser)
    open_page(browser, pit["bj_rules"], "/tables/BJ-T/rounds/16")
    assert _hand(browser, "box 2/1").split("\n") == ["box 2/1", "A♠ K♦", "21", "blackjack"]
    assert "box 2/1, player A R55.00 blackjack R82.00 R137.00 pays 3 to 2" in _bets(browser)


def test_a_void_round_lists_every_bet_handed_back(browser: WebDriver,  # noqa: F811
                                                  pit: dict[str, PitServer]) -> None:
    void = next(c for c in replay_source(GOLDEN / "mixed.jsonl").rounds if c.status == "voided")
    open_page(browser, pit["mixed"], f"/tables/T-01/rounds/{void.seq}")
    assert browser.find_element(By.ID, "winner").text == "void: shoe jammed"
    assert "Bets handed back" in browser.find_element(By.TAG_NAME, "main").text
    assert _bets(browser) == ["box 3/1, player A R50.00 handed back R0.00 R50.00",
                              "In all R50.00 R0.00 R50.00"]

    open_page(browser, pit["roulette"], "/tables/RL-07/rounds/144")
    assert browser.find_element(By.ID, "winner").text == "no spin: inspector's decision"
    rows = _bets(browser)
    assert len(rows) == 26  # 25 bets on the layout, and the sum
    assert "blue: straight 4 R75.00 handed back R0.00 R75.00 3 chips" in rows
    assert rows[-1] == "In all R335.00 R0.00 R335.00"  # R95 + R90 + R150


def test_roulette_shows_the_number_in_its_colour(browser: WebDriver,  # noqa: F811
                                                 pit: dict[str, PitServer]) -> None:
    open_page(browser, pit["roulette"], "/tables/RL-07/rounds/17")
    number = browser.find_element(By.ID, "number")
    assert number.text == "15 black"
    assert number.value_of_css_property("background-color") == "rgba(17, 17, 17, 1)"
    rows = _bets(browser)
    assert "pink: dozen 13-24 R10.00 win R20.00 R30.00 2 chips, pays 2 to 1" in rows
    assert "blue: straight 28 R25.00 lose R0.00 R0.00 1 chip" in rows
    shot(browser, "round-roulette-number")


def _steps(driver: WebDriver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#steps li")]


def test_pai_gow_shows_the_tiles_the_hands_in_words_and_every_payment_with_its_source(
        browser: WebDriver, pit: dict[str, PitServer]) -> None:  # noqa: F811
    # The House banks (rule 13.1): its hands set the house way, each area against them.
    open_page(browser, pit["pg"], "/tables/PG-01/rounds/14")
    assert browser.find_element(By.ID, "winner").text == (
        "house (area 1) banks: area 2 wins, area 3 loses, area 4 stand-off")
    assert _hand(browser, "house (area 1)").split("\n") == [
        "house (area 1)", "5·6 1·5 2·6 3·4", "high 7 (foo) / low 5 (chop bot)",
        "set the house way: no pair: the strongest low hand, 5 (chop bot), with 7 (foo); "
        "confirmed by Thandi (rule 13.1.5)"]
    assert _hand(browser, "area 2").split("\n") == [
        "area 2", "6·6 4·5 5·5 1·6", "high wong / low 7 (mooy)", "wins"]
    assert _hand(browser, "area 4").split("\n") == [
        "area 4", "1·1 1·1 1·3 4·6", "high day pair / low 4 (gor)", "stand-off"]
    tile = browser.find_element(By.CSS_SELECTOR, '.card.tile[title="66"]')
    assert tile.value_of_css_property("color") == "rgba(17, 17, 17, 1)"
    assert _bets(browser) == ["area 2 R50.00 win R45.00 R95.00 commission R5.00",
                              "area 3 R100.00 lose R0.00 R0.00",
                              "area 4 R150.00 stand-off R0.00 R150.00",
                              "In all R300.00 R45.00 R245.00"]
    assert _steps(browser) == [
        "the bank's hands exposed at area 1 (rule 13.1.3)",
        "area 3 loses: its wager to the float R100.00 (rule 13.1.7)",
        "area 2 wins: paid from the float to the player at area 2 R50.00 (rule 13.1.8)",
        "commission from the player at area 2 R5.00 (rule 14.1)",
        "area 4 stand-off: its wager remains (rule 13.1.9)"]

    # A player/banker (rule 13.2): payments from the losing wager area, then from the
    # banker's wager when the losing wager area is short (13.2.8).
    open_page(browser, pit["pg"], "/tables/PG-01/rounds/36")
    assert browser.find_element(By.ID, "winner").text == (
        "banker (area 3) banks: area 4 loses, area 5 wins, area 1 wins")
    assert _hand(browser, "area 1").split("\n") == [
        "area 1", "2·4 1·2 1·5 1·5", "high gee joon pair / low look pair", "wins"]
    assert _bets(browser) == [
        "area 4 R100.00 lose R0.00 R0.00", "area 5 R300.00 win R285.00 R585.00 "
        "commission R15.00", "area 1 R100.00 win R95.00 R195.00 commission R5.00",
        "player/banker at area 3, banker's wager R500.00 lose R0.00 R200.00",
        "In all R1,000.00 R380.00 R980.00"]
    assert _steps(browser) == [
        "the player/banker puts up the banker's wager R500.00 (rule 13.2.2)",
        "the bank's hands exposed at area 3 (rule 13.2.4)",
        "area 4 loses: its wager to the losing wager area R100.00 (rule 13.2.6)",
        "area 5 wins: paid from the losing wager area to the player at area 5 R100.00 "
        "(rule 13.2.7)",
        "area 5: the rest of its payment from the banker's wager R200.00 (rule 13.2.8)",
        "commission from the player at area 5 R15.00 (rule 14.1)",
        "area 1: the rest of its payment from the banker's wager R100.00 (rule 13.2.8)",
        "commission from the player at area 1 R5.00 (rule 14.1)",
        "the banker's wager returned to the player/banker R200.00 (rule 13.2.8)"]

    # The co-bank (rule 13.3): the float's share and the player/banker's.
    open_page(browser, pit["pg"], "/tables/PG-01/rounds/58")
    steps = _steps(browser)
    assert steps[:2] == ["the player/banker puts up the co-bank wager R200.00 (rule 13.3.2)",
                         "the float puts up the co-bank wager R200.00 (rule 13.3.2)"]
    assert "the losing wager area shared: to the float R30.00 (rule 13.3.9)" in steps
    assert _bets(browser)[2] == ("player/banker at area 4, co-bank wager R200.00 win R20.00 "
                                 "R220.00 commission R5.00")
    shot(browser, "round-paigow")

    # A void round: every wager handed back (rule 2.7).
    open_page(browser, pit["pg"], "/tables/PG-01/rounds/63")
    assert browser.find_element(By.ID, "winner").text == "void: tiles dropped at area 2"
    assert "Bets handed back" in browser.find_element(By.TAG_NAME, "main").text
    assert _bets(browser) == ["area 2 R50.00 handed back R0.00 R50.00",
                              "In all R50.00 R0.00 R50.00"]
    assert _steps(browser) == []


DEALER, INSPECTOR = "the dealer", "inspector Thandi Mokoena (badge 4411)"
FAULT = ("shuffler fault after 3 card(s) dealt: JAM: card path blocked, reported by the "
         "shuffler (rule 12.1.2)")


def test_mini_baccarat_shows_the_shuffler_malfunction_its_decisions_and_who_made_them(
        browser: WebDriver, pit: dict[str, PitServer]) -> None:  # noqa: F811
    table = pit["mb_transfer"].state.store.floor()[0].table_id
    # Rule 12.2: no damage, a spare shuffler, the cards transferred, the coup goes on.
    open_page(browser, pit["mb_transfer"], f"/tables/{table}/rounds/31")
    assert browser.find_element(By.ID, "winner").text == "player wins, 7 to 5"
    assert _steps(browser) == [
        FAULT,
        f"{DEALER}: no cards were damaged (rule 12.3)",
        f"{INSPECTOR}: no one was disadvantaged (rule 12.1.3)",
        f"{INSPECTOR}: a spare shuffler is readily available (rule 12.1.4)",
        f"{DEALER}: the cards can be transferred to it (rule 12.1.5)",
        "branch taken: no damage: the cards transferred to the spare shuffler, the coup goes "
        "on (rule 12.2)",
        f"{DEALER}: the cards transferred to the spare shuffler (rule 12.2)",
        f"{DEALER}: the coup goes on from the shuffler (rule 12.2)",
        "the coup completed: player wins, 7 to 5 (rule 12.2)"]

    # Rule 12.3: damaged cards removed, the rest transferred, the damaged replaced.
    open_page(browser, pit["mb_replace"], f"/tables/{table}/rounds/33")
    steps = _steps(browser)
    assert steps[5:] == [
        "branch taken: cards damaged: removed, the rest transferred, the damaged replaced, "
        "the coup goes on (rule 12.3)",
        f"{DEALER}: damaged cards removed from play: QS 7H (rule 12.3.1)",
        f"{DEALER}: the cards transferred to the spare shuffler (rule 12.3.2)",
        f"{INSPECTOR}: 2 damaged card(s) replaced (rule 12.3.3)",
        f"{DEALER}: the coup goes on from the shuffler (rule 12.3)",
        "the coup completed: player wins, 7 to 5 (rule 12.3)"]

    # Rule 12.4: someone disadvantaged, the coup terminated, every wager handed back.
    open_page(browser, pit["mb_terminate"], f"/tables/{table}/rounds/25")
    assert browser.find_element(By.ID, "winner").text == (
        "coup terminated: shuffler fault, rule 12.4")
    assert "Bets handed back" in browser.find_element(By.TAG_NAME, "main").text
    assert _bets(browser) == ["area 1 banker R100.00 handed back R0.00 R100.00",
                              "area 3 player R50.00 handed back R0.00 R50.00",
                              "area 3 tie R10.00 handed back R0.00 R10.00",
                              "area 6 banker R80.00 handed back R0.00 R80.00",
                              "In all R240.00 R0.00 R240.00"]
    assert _steps(browser) == [
        FAULT,
        f"{DEALER}: no cards were damaged (rule 12.3)",
        f"{INSPECTOR}: the casino or a player was disadvantaged (rule 12.1.3)",
        "branch taken: someone disadvantaged: the coup terminated, every wager returned "
        "(rule 12.4)",
        f"{INSPECTOR}: the coup terminated, 4 wager(s) returned R240.00 (rule 12.4)"]
    assert "Recomputed: matches what the table recorded." in browser.find_element(
        By.TAG_NAME, "main").text

    # Rule 12.5: the wagers offered back area by area, a shuffle and cut, a dealing shoe.
    open_page(browser, pit["mb_shoe"], f"/tables/{table}/rounds/38")
    steps = _steps(browser)
    assert steps[5:] == [
        "branch taken: no spare or no transfer: the wagers offered back, a shuffle and cut, "
        "the coup goes on from a dealing shoe (rule 12.5)",
        f"{DEALER}: area 1's wagers offered back (banker R100.00): returned R100.00 "
        "(rule 12.5.1)",
        f"{DEALER}: area 3's wagers offered back (player R50.00, tie R10.00): kept in play "
        "(rule 12.5.1)",
        f"{DEALER}: area 6's wagers offered back (banker R80.00): kept in play (rule 12.5.1)",
        f"{INSPECTOR}: damaged cards removed from play: 9C (rule 12.5.2)",
        f"{INSPECTOR}: 1 damaged card(s) replaced (rule 12.5.2)",
        f"{DEALER}: the cards shuffled again (rule 12.5.3)",
        "seat 6 refused the cut (rule 12.5.3)",
        "the cards cut by seat 3 (rule 12.5.3)",
        f"{DEALER}: the coup goes on from the shoe (rule 12.5)",
        "the coup completed: player wins, 7 to 5 (rule 12.5)"]
    assert _bets(browser) == ["area 3 player R50.00 win R50.00 R100.00 pays 1 to 1",
                              "area 3 tie R10.00 lose R0.00 R0.00",
                              "area 6 banker R80.00 lose R0.00 R0.00",
                              "area 1 banker R100.00 handed back R0.00 R100.00 rule 12.5.1",
                              "In all R240.00 R50.00 R200.00"]
    shot(browser, "round-mini-baccarat-shoe")
    # A coup with no malfunction has no procedure to show.
    open_page(browser, pit["mb_shoe"], f"/tables/{table}/rounds/12")
    assert _steps(browser) == []


def test_the_raw_record_is_one_click_away(browser: WebDriver,  # noqa: F811
                                          pit: dict[str, PitServer]) -> None:
    server = pit["az"]
    open_page(browser, server, "/tables/DEMO-1/rounds/16")
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


def test_a_procedure_replayed_from_a_snapshot_inside_it_keeps_what_the_state_holds() -> None:
    """The pit replays a round from the snapshot before it; one taken inside the malfunction
    procedure (a snapshot every so many rows, wherever they fall) still draws the fault and
    the facts decided before it (who decided them is in the rows before it)."""
    from kiosk.replay import Replay
    from kiosk.table.fold import fold

    entries = load_entries(GOLDEN / "mb_shoe.jsonl")
    cut = 25  # the fault, the damage, the disadvantage, the spare: before it
    start = fold(entries[:cut])
    replay = Replay("mb_shoe", start, (cut, entries[cut - 1].hash))
    coup = next(c for c in replay.feed(entries[cut:]).rounds if c.number == 2)
    assert coup.drawing is not None
    steps = [(s.words, s.clause) for s in coup.drawing.steps]
    assert steps[:6] == [
        ("shuffler fault after 3 card(s) dealt: JAM: card path blocked, reported by the "
         "shuffler", "12.1.2"),
        ("cards were damaged (on record before the rows replayed)", "12.3"),
        ("no one was disadvantaged (on record before the rows replayed)", "12.1.3"),
        ("a spare shuffler is readily available (on record before the rows replayed)",
         "12.1.4"),
        ("the dealer: the cards cannot be transferred", "12.1.5"),
        ("branch taken: no spare or no transfer: the wagers offered back, a shuffle and cut, "
         "the coup goes on from a dealing shoe", "12.5")]
    assert steps[-1] == ("the coup completed: player wins, 7 to 5", "12.5")


def test_a_bank_hand_set_by_the_player_banker_is_not_called_the_house_way() -> None:
    """Rule 13.2.3: a player/banker may set the bank's hands another way; the page says so."""
    from kiosk.rules.paigow import audit as pg_audit, engine as pg
    from kiosk.rules.paigow.tiles import parse_tiles

    journal = replay_source(GOLDEN / "pg.jsonl")
    way = next(c for c in journal.rounds if c.seq == 25)
    assert way.drawing is not None and way.drawing.hands[0].note.startswith(
        "set the house way: no pair")
    # The same round, the player/banker's 44 46 / 13 22 set as 44 13 / 46 22 instead.
    state = pg.PaiGowState(rules=pg.PaiGowRules(), bank=pg.Bank.PLAYER, chung=2,
                           bank_hand=(tuple(parse_tiles("44 13")), tuple(parse_tiles("46 22"))),
                           bank_why="set by the player/banker")  # type: ignore[arg-type]
    drawn = pg_audit.draw(state, way)
    assert drawn.hands[0].note == "set by the player/banker, not the house way"
