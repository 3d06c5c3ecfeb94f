"""A table whose SD card died starts again on a new card, and nothing about the old one is
lost or rewritten: the pit keeps the old card's journal whole under a name of its own
(PB-01.card1), off the floor and taking nothing more, and the table's new journal syncs from
row 1 with a new credential, the new card's alert on the floor saying who did it and what
the old card's journal ended with. Before that, a new card's fresh journal is refused as a
journal replaced by another (STOP). On SQLite and PostgreSQL, against a real pit server, with
`tableside pit new-card` as pit staff run it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from itertools import count
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from kiosk.anchor import Anchor, sign, split_credential
from kiosk.cli import main
from kiosk.store.journal import Journal, head_of, iter_entries
from kiosk.sync.client import SyncClient, SyncRefused
from kiosk.table.cash import CashBuyIn
from pit import store as pit_store
from pit.alerts import ANCHOR_BROKEN, NEW_CARD
from pit.app import open_pit
from pit.cash import buy_ins_by_shift
from pit.floor import Floor, FloorTimes
from pit.store import GENESIS, CredentialReplaced, PitStore
from tests.pit.conftest import PitServer
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.test_dashboard_browser import (  # noqa: F401  (the fixture)
    browser,
    open_page,
    shot,
)

MORNING = datetime.combine(datetime.now(UTC).date() - timedelta(days=1), time(9, 0),
                           tzinfo=UTC)
"""Yesterday 09:00 UTC: the two cards' buy-ins, minutes apart, lie in one shift of the pit's
default times (06:00 to 14:00, UTC) whenever the test runs."""


def _card(folder: Path, coups: int, seed: int, cash: int = 0) -> Path:
    """A card's journal of table PB-01: a day of `coups` coups, after a cash buy-in of
    `cash` cents when given, its rows a millisecond apart from MORNING (the new card's
    from ten minutes after it)."""
    folder.mkdir()
    path = folder / "PB-01.db"
    ticks = count(600_000 if folder.name == "new" else 0)
    journal = Journal.open(path, "PB-01",
                           clock=lambda: MORNING + timedelta(milliseconds=next(ticks)))
    if cash:
        op = CashBuyIn("1", cash, cash)
        journal.append(op.kind, op.to_payload())
    Day(journal, seed).play(coups)
    journal.close()
    return path


def _sync(path: Path, url: str, credential: str) -> None:
    client = SyncClient(path, "PB-01", url, credential)
    try:
        client.sync_all()
        client.anchor_now()
    finally:
        client.close()


def _pit_rows(store: PitStore, table_id: str) -> list[tuple[int, str]]:
    return [(int(r[0]), str(r[1])) for r in store.db.query(
        "SELECT seq, hash FROM pit_rows WHERE table_id = ? ORDER BY seq", (table_id,))]


def test_a_dead_cards_table_starts_again_on_a_new_card_and_its_old_journal_is_kept(
        pit_server: Callable[..., PitServer], pit_url: str, tmp_path: Path) -> None:
    server = pit_server()
    store = server.state.store
    credential = store.enroll_with_key("PB-01")
    old = _card(tmp_path / "old", 6, seed=1, cash=10_000)
    _sync(old, server.url, credential)
    synced = head_of(old)
    # Two more coups, anchored at the pit but never uploaded: the card dies with them.
    journal = Journal.open(old, "PB-01")
    Day(journal, 7).play(2)
    journal.close()
    client = SyncClient(old, "PB-01", server.url, credential, batch=1)
    client._pit_head = client._ask_head()
    client.anchor_now()
    client.close()
    anchored = head_of(old)
    assert store.head("PB-01") == synced and store.newest_anchor("PB-01") == anchored
    assert anchored[0] > synced[0]
    # The running pit has folded the old card's rows for the floor and its rounds' pages.
    assert server.state.floor.catch_up("PB-01")["seq"] == synced[0]
    assert len(server.state.rounds.recent("PB-01").rounds) == 6

    # A new card, provisioned with the same table.toml and credential: its fresh journal is
    # not the one the pit holds, so the sync refuses and the pit raises STOP.
    new = _card(tmp_path / "new", 9, seed=2, cash=25_000)  # longer than the old one
    client = SyncClient(new, "PB-01", server.url, credential)
    with pytest.raises(SyncRefused, match=r"the first row that differs is row 1\. If this "
                       r"table is on a new card, pit staff say so at the pit \(tableside pit "
                       r"new-card PB-01\) and give it the new credential"):
        client.step()
    client.close()
    assert ANCHOR_BROKEN in {a.kind for a in store.alerts(table_id="PB-01")}

    # The pit staff's new card waits until an inspector has seen the table's alerts.
    runner = CliRunner()
    cred = tmp_path / "PB-01.credential"
    command = ["pit", "new-card", "PB-01", "--by", "Thandi (IT)", "--db", pit_url,
               "--credential-out", str(cred)]
    refused = runner.invoke(main, command)
    assert refused.exit_code == 2, refused.output
    assert "open alert(s): an inspector acknowledges them on the dashboard" in refused.output
    assert not cred.exists() and store.head("PB-01") == synced
    for alert in store.alerts(table_id="PB-01"):
        assert store.acknowledge(alert.id, "Sipho")

    done = runner.invoke(main, command)
    assert done.exit_code == 0, done.output
    assert "The old card's journal is kept at this pit as PB-01.card1" in done.output
    assert f"tableside journal verify FILE --head {anchored[0]}:{anchored[1]}" in done.output
    assert 'credential_file = "data/PB-01.credential"' in done.output
    assert cred.stat().st_mode & 0o777 == 0o600

    # The new card, with the new credential, syncs its journal from row 1 and anchors it.
    _sync(new, server.url, cred.read_text())
    assert store.head("PB-01") == store.newest_anchor("PB-01") == head_of(new)
    assert _pit_rows(store, "PB-01") == [(e.seq, e.hash) for e in iter_entries(new)]
    # The running pit, told nothing (new-card opened the database on its own, as the
    # command does in its own process), reads the new journal from its row 1: not the old
    # card's rows it kept in memory.
    assert server.state.floor.catch_up("PB-01") == Floor(store).catch_up("PB-01")
    assert server.state.floor.catch_up("PB-01")["seq"] == head_of(new)[0]
    view = server.state.rounds.recent("PB-01")
    assert (len(view.rounds), view.chain_ok, view.head) == (9, True, head_of(new)[0])
    assert server.state.floor.catch_up("PB-01.card1")["seq"] == synced[0]
    # Its rows are kept as the table hashed them, with its id: the chain still holds.
    kept_view = server.state.rounds.recent("PB-01.card1")
    assert (len(kept_view.rounds), kept_view.chain_ok) == (6, True), kept_view.chain_reason
    assert {row.table_id for row in store.rows("PB-01.card1")} == {"PB-01"}
    first = next(iter_entries(old))
    kept_first = store.last_row_of_kind("PB-01.card1", first.kind)
    assert kept_first is not None and kept_first.table_id == "PB-01"
    # The new card's rows the pit quarantined when it took them for a rewrite went too.
    quarantined = store.quarantined("PB-01.card1")
    assert quarantined and store.quarantined("PB-01") == []
    shown = store.quarantined_rows("PB-01.card1", quarantined[0][0])
    assert shown and {row.table_id for row, _, _ in shown} == {"PB-01"}
    # The table's cash adds up over both cards: each card's buy-in, in the one shift.
    (shift,) = buy_ins_by_shift(store, "PB-01", FloorTimes(), datetime.now(UTC))
    assert (shift.buy_ins, shift.cash) == (2, 35_000)
    (kept_shift,) = buy_ins_by_shift(store, "PB-01.card1", FloorTimes(), datetime.now(UTC))
    assert (kept_shift.buy_ins, kept_shift.cash) == (1, 10_000)

    # The old card's journal is kept whole at the pit: every row it sent, its anchors, the
    # rows quarantined and the alerts, under its own name.
    assert store.head("PB-01.card1") == synced
    assert store.newest_anchor("PB-01.card1") == anchored
    assert _pit_rows(store, "PB-01.card1") == [
        (e.seq, e.hash) for e in iter_entries(old) if e.seq <= synced[0]]
    kept = store.alerts(open_only=False, table_id="PB-01.card1")
    assert ANCHOR_BROKEN in {a.kind for a in kept}
    assert all(a.acked_by == "Sipho" for a in kept)

    # The floor: the table once, its one open alert the new card's, saying who and what.
    (floor,) = store.floor()
    assert (floor.table_id, floor.open_alerts) == ("PB-01", 1)
    (alert,) = store.alerts(table_id="PB-01")
    assert alert.kind == NEW_CARD
    assert alert.message.startswith("new card, started by Thandi (IT): the table's journal "
                                    "starts again at row 1. The old card's journal is kept "
                                    f"at the pit as PB-01.card1, its rows to row {synced[0]}")
    assert (f"rows {synced[0] + 1} to {anchored[0]} at least never reached the pit"
            in alert.message)
    assert store.closed_journals("PB-01") == [("PB-01.card1", alert.raised_at)]

    # The old credential stopped working; the closed journal takes none.
    token = split_credential(credential)[0]
    answer = httpx.get(f"{server.url}/api/v1/tables/PB-01/head",
                       headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 401
    closed = runner.invoke(main, ["pit", "enroll", "PB-01.card1", "--db", pit_url])
    assert closed.exit_code == 2
    assert "PB-01.card1 is the closed journal of an old card of table PB-01" in closed.output
    limits = tmp_path / "limits.toml"
    limits.write_text("[punto_banco.limits]\nbanker = { minimum = 100, maximum = 20000 }\n")
    config = runner.invoke(main, ["pit", "config", "PB-01.card1", "--db", pit_url, "--file",
                                  str(limits)])
    assert config.exit_code == 2 and "no table PB-01.card1 is enrolled" in config.output

    # The old card, if it still reads, is checked against what the pit kept of it.
    checked = runner.invoke(main, ["journal", "verify", str(old), "--head",
                                   f"{anchored[0]}:{anchored[1]}"])
    assert checked.exit_code == 0, checked.output
    other = runner.invoke(main, ["journal", "verify", str(new), "--head",
                                 f"{anchored[0]}:{anchored[1]}"])
    assert other.exit_code == 1

    # A second new card keeps the second journal beside the first.
    for alert in store.alerts(table_id="PB-01"):
        store.acknowledge(alert.id, "Sipho")
    again = runner.invoke(main, ["pit", "new-card", "PB-01", "--by", "Thandi (IT)", "--db",
                                 pit_url, "--credential-out", str(tmp_path / "third")])
    assert again.exit_code == 0, again.output
    assert [name for name, _ in store.closed_journals("PB-01")] == ["PB-01.card1",
                                                                     "PB-01.card2"]
    assert store.head("PB-01.card2") == head_of(new) and store.head("PB-01")[0] == 0


def test_new_card_refuses_a_table_not_enrolled_and_a_nameless_start(
        pit_server: Callable[..., PitServer], pit_url: str, tmp_path: Path) -> None:
    server = pit_server()
    server.state.store.enroll_with_key("PB-01")
    runner = CliRunner()
    out = tmp_path / "XX-9.credential"
    nobody = runner.invoke(main, ["pit", "new-card", "XX-9", "--by", "Thandi", "--db", pit_url,
                                  "--credential-out", str(out)])
    assert nobody.exit_code == 2
    assert "table XX-9 is not enrolled at this pit (tableside pit enroll)" in nobody.output
    assert not out.exists()
    blank = runner.invoke(main, ["pit", "new-card", "PB-01", "--by", " ", "--db", pit_url])
    assert blank.exit_code == 2 and "say who starts the new card" in blank.output
    assert server.state.store.closed_journals("PB-01") == []
    # A table whose card died before anything reached the pit: nothing kept, nothing lost.
    card = server.state.store.new_card("PB-01", "Thandi")
    assert (card.closed_as, card.head[0], card.anchor[0]) == ("PB-01.card1", 0, 0)
    (alert,) = server.state.store.alerts(table_id="PB-01")
    assert alert.message == ("new card, started by Thandi: the table's journal starts again "
                             "at row 1. The old card's journal is kept at the pit as "
                             "PB-01.card1, with no rows (none had reached the pit).")


def test_the_dashboard_shows_the_old_cards_journal_closed_and_links_the_two(
        browser: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    """In chromium, as an inspector reads it: the table's page links its earlier card's
    journal, whose page says it is closed, links back, and still shows its rounds; the floor
    shows the table once, with the new card's alert."""
    state = open_pit(str(tmp_path / "pit.db"))
    state.inspectors.add("Thandi", "correct horse battery")
    server = PitServer(state).start()
    try:
        credential = state.store.enroll_with_key("PB-01")
        old = _card(tmp_path / "old", 4, seed=1)
        _sync(old, server.url, credential)
        card = state.store.new_card("PB-01", "Sipho (IT)")
        new = _card(tmp_path / "new", 2, seed=2)
        _sync(new, server.url, card.credential)

        open_page(browser, server, "/tables/PB-01")
        earlier = browser.find_element(By.ID, "earlier-cards")
        assert earlier.text.startswith("Earlier cards' journals: PB-01.card1 (closed ")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#rounds tr")) == 1 + 2
        assert browser.find_element(By.ID, "chain").text.startswith(
            f"Chain at the pit: intact; {head_of(new)[0]} rows")
        assert "New card" in browser.find_element(By.ID, "alerts").text
        shot(browser, "new-card-table")
        earlier.find_element(By.LINK_TEXT, "PB-01.card1").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/tables/PB-01.card1"))
        closed = browser.find_element(By.ID, "closed")
        assert closed.text.startswith("Closed: the journal of an old card of table PB-01, "
                                      "closed ")
        assert closed.text.endswith("It takes no more rows.")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#rounds tr")) == 1 + 4
        # Its rows keep the table id they were hashed with (PB-01): the chain still holds.
        assert browser.find_element(By.ID, "chain").text.startswith(
            f"Chain at the pit: intact; {head_of(old)[0]} rows")
        assert browser.find_elements(By.ID, "config-link") == []  # it takes no configuration
        shot(browser, "new-card-closed-journal")
        closed.find_element(By.LINK_TEXT, "PB-01").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/tables/PB-01"))
        assert browser.find_elements(By.ID, "config-link")
        browser.get(server.url + "/tables/PB-01.card1/config")
        assert ("PB-01.card1 is the closed journal of an old card of table PB-01: it takes no "
                "configuration." in browser.find_element(By.TAG_NAME, "main").text)

        # A search by time over the morning the card was changed in finds the new card's
        # rounds, and points to the old card's journal, which holds rows of that time too,
        # with the same search; and from there back.
        hour = timedelta(hours=1)
        search = f"from={MORNING - hour:%Y-%m-%dT%H:%M}&to={MORNING + hour:%Y-%m-%dT%H:%M}"
        browser.get(f"{server.url}/tables/PB-01?{search}")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#rounds tr")) == 1 + 2
        elsewhere = browser.find_element(By.ID, "elsewhere")
        day = f"{MORNING:%Y-%m-%d}"
        assert elsewhere.text == ("Rows of this time are also in this table's other "
                                  f"journals: PB-01.card1 ({day} 09:00:00 UTC to "
                                  f"{day} 09:00:00 UTC).")
        # The form holds the search, to change one time and search again.
        assert [browser.find_element(By.ID, f"search-{name}").get_attribute("value")
                for name in ("table", "from", "to")] == [
            "PB-01", f"{MORNING - hour:%Y-%m-%dT%H:%M}", f"{MORNING + hour:%Y-%m-%dT%H:%M}"]
        shot(browser, "new-card-search")
        elsewhere.find_element(By.LINK_TEXT, "PB-01.card1").click()
        WebDriverWait(browser, 10).until(lambda d: "/tables/PB-01.card1?" in d.current_url)
        assert browser.find_element(By.ID, "closed")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#rounds tr")) == 1 + 4
        back = browser.find_element(By.ID, "elsewhere")
        assert back.text == ("Rows of this time are also in this table's other journals: "
                             f"PB-01 ({day} 09:10:00 UTC to {day} 09:10:00 UTC).")
        # A time only the new card wrote in points nowhere else: searched from the form.
        browser.get(f"{server.url}/tables/PB-01?{search}")
        since = browser.find_element(By.ID, "search-from")
        since.clear()
        since.send_keys(f"{MORNING + hour / 12:%Y-%m-%dT%H:%M}")
        since.submit()
        WebDriverWait(browser, 10).until(lambda d: "T09%3A05" in d.current_url)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#rounds tr")) == 1 + 2
        assert browser.find_elements(By.ID, "elsewhere") == []

        browser.get(server.url + "/")
        tables = [row.text for row in browser.find_elements(By.CSS_SELECTOR,
                                                               "#floor-table tr td:first-child")]
        assert tables == ["PB-01"]
    finally:
        server.stop()
        state.close()



def test_a_batch_or_an_anchor_let_in_before_a_new_card_is_not_kept_after_it(
        pit_server: Callable[..., PitServer], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The old card, still running, sends while pit staff start the new card: its request
    was let in with the old credential, and reaches the table's lock after the new card
    committed. The pit checks the credential and the anchor key again under the lock, so the
    new card's journal never takes the old card's rows or heads."""
    server = pit_server()
    store = server.state.store
    credential = store.enroll_with_key("PB-01")
    token, key = split_credential(credential)
    assert key is not None
    old = _card(tmp_path / "old", 2, seed=1)
    rows = wire_rows(old)
    assert store.authenticate("PB-01", token)  # let in
    store.new_card("PB-01", "Thandi")  # committed before the batch is written
    with pytest.raises(CredentialReplaced, match="credential was replaced while this batch"):
        store.ingest("PB-01", rows, credential=token)
    assert store.head("PB-01") == (0, GENESIS) and _pit_rows(store, "PB-01") == []

    # An anchor signed with the old key, its signature checked just before the new card.
    for alert in store.alerts(table_id="PB-01"):
        store.acknowledge(alert.id, "Sipho")
    credential = store.new_card("PB-01", "Thandi").credential  # a key the pit knows now
    token, key = split_credential(credential)
    assert key is not None
    made = Anchor("PB-01", *head_of(old), 0, GENESIS)
    checked = pit_store.signed_by

    def then_a_new_card(public: str, anchor: Anchor, signature: str) -> bool:
        good = checked(public, anchor, signature)
        for alert in store.alerts(table_id="PB-01"):
            store.acknowledge(alert.id, "Sipho")
        store.new_card("PB-01", "Thandi")
        return good

    monkeypatch.setattr(pit_store, "signed_by", then_a_new_card)
    with pytest.raises(CredentialReplaced, match="anchor key was replaced while this anchor"):
        store.anchor(made, sign(key, made))
    assert store.newest_anchor("PB-01") == (0, GENESIS)

    # Over HTTP: the batch is let in, a new card is started, and the answer is a 401 in
    # words, nothing kept.
    monkeypatch.undo()
    for alert in store.alerts(table_id="PB-01"):
        store.acknowledge(alert.id, "Sipho")
    token = split_credential(store.new_card("PB-01", "Thandi").credential)[0]
    let_in = store.authenticate

    def then_another_card(table_id: str, given: str) -> bool:
        good = let_in(table_id, given)
        for alert in store.alerts(table_id="PB-01"):
            store.acknowledge(alert.id, "Sipho")
        store.new_card("PB-01", "Thandi")
        return good

    monkeypatch.setattr(store, "authenticate", then_another_card)
    answer = httpx.post(f"{server.url}/api/v1/tables/PB-01/rows",
                        headers={"Authorization": f"Bearer {token}"},
                        json={"rows": [r.as_json() for r in rows], "waiting": 0})
    assert answer.status_code == 401
    assert answer.json()["error"] == ("table PB-01's credential was replaced while this batch "
                                      "was on its way; nothing of it was kept")
    assert store.head("PB-01") == (0, GENESIS)
