"""The table session: journal before state, device events, refusals, resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.store.journal import JournalWriteError, WriteFailure
from kiosk.table.session import Severity
from tests.table.helpers import RULES, Session, cards, kinds, open_session


def _ready(path: Path):  # type: ignore[no-untyped-def]
    s = open_session(path)
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    s.perform(lambda st: pb.place_bet(st, "standing", pb.BetKind.PLAYER, 5_000))
    s.perform(pb.close_betting)
    return s


def test_every_operation_is_journaled_before_state_moves(tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    assert kinds(s) == ["punto_banco.table_opened", "punto_banco.shoe_shuffled",
                        "punto_banco.bet_placed", "punto_banco.bet_placed",
                        "punto_banco.betting_closed"]
    seen: list[int] = []
    # A listener sees state only after its Operation is on disk.
    s.listeners.append(lambda st, op: seen.append(s.journal.count()))
    s.on_device_event(ev.CardRead(device="SHOE", seq=1, card=cards("4H")[0]))
    assert seen == [6]
    assert s.state.player_cards == tuple(cards("4H"))  # rule 5.2: first card to the Player


def test_a_refused_action_writes_nothing(tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    before = s.journal.count()
    with pytest.raises(NotAllowed) as err:
        s.perform(lambda st: pb.place_bet(st, "2", pb.BetKind.TIE, 1_000))
    assert err.value.clause == "5.6"  # no more bets has been called
    assert s.journal.count() == before


def test_full_disk_keeps_state_and_journal_consistent(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    s = _ready(path)
    before_state, before_rows = s.state, s.journal.count()
    conn: sqlite3.Connection = s.journal._db.conn  # type: ignore[attr-defined]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    big = "x" * 20_000  # a refusal message this long needs new pages: SQLITE_FULL
    with pytest.raises(JournalWriteError):
        s.perform(lambda st: pb.void_round(st, big))
    assert s.state == before_state
    conn.execute("PRAGMA max_page_count = 1073741823")
    assert s.halted  # the table stops dealing until the journal writes again
    s.perform(lambda st: pb.void_round(st, "disk freed"))
    # The failure goes on record first, then the action.
    assert s.journal.count() == before_rows + 2 and not s.halted
    failed = list(s.journal.entries())[-2].payload
    assert (failed["device"], failed["event"]) == ("JOURNAL", "write_failed")
    assert failed["detail"].endswith("; cards kept meanwhile: none")
    assert s.journal.verify().ok


def test_coup_from_shoe_events_and_resume_into_same_step(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    s = _ready(path)
    for i, c in enumerate(cards("4H", "3C", "KD")):
        s.on_device_event(ev.CardRead(device="SHOE", seq=i, card=c))
    assert s.next_step() == "Banker's second card"
    s.journal.close()
    # A restart folds the journal into the same coup at the same step.
    again = open_session(path)
    assert again.replayed == 8
    assert again.state == s.state
    assert again.next_step() == "Banker's second card"
    for i, c in enumerate(cards("4S", "2C"), start=3):
        again.on_device_event(ev.CardRead(device="SHOE", seq=i, card=c))
    assert again.state.phase is pb.Phase.PAYING
    op = again.perform(pb.confirm_payouts)
    assert isinstance(op, pb.CoupSettled)
    assert op.result.winner.value == "banker"  # player 6 (4+K+2), banker 7 (3+4)


def test_impossible_card_is_queried_and_later_cards_are_held(tmp_path: Path) -> None:
    rules = pb.PuntoBancoRules(decks=1, chips=RULES.chips)
    s = open_session(tmp_path / "j.db", rules)
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.PLAYER, 5_000))
    s.perform(pb.close_betting)
    s.on_device_event(ev.CardRead(device="SHOE", seq=0, card=cards("AS")[0]))
    s.on_device_event(ev.CardRead(device="SHOE", seq=1, card=cards("AS")[0]))  # 2nd in 1 deck
    assert kinds(s)[-1] == "punto_banco.card_queried"
    assert s.alerts[-1].severity is Severity.STOP
    assert "5.4" in s.alerts[-1].message
    s.on_device_event(ev.CardRead(device="SHOE", seq=2, card=cards("9D")[0]))
    assert list(s.held_cards) == cards("9D")
    # The dealer keys the card the shoe misread; the held card then follows it.
    s.perform(lambda st: pb.deal_card(st, cards("AH")[0], pb.CardSource.KEYED))
    assert s.state.banker_cards == tuple(cards("AH"))
    assert s.state.player_cards == tuple(cards("AS", "9D"))
    assert not s.held_cards


def _held_9d(path: Path) -> pb.PuntoBancoRules:
    return _holding_9d(path)[1]


def _holding_9d(path: Path) -> tuple[Session, pb.PuntoBancoRules]:
    """A queried card (a second ace of spades from one deck, rule 5.4), then the 9D held."""
    rules = pb.PuntoBancoRules(decks=1, chips=RULES.chips)
    s = open_session(path, rules)
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.PLAYER, 5_000))
    s.perform(pb.close_betting)
    for seq, code in enumerate(("AS", "AS", "9D")):
        s.on_device_event(ev.CardRead(device="SHOE", seq=seq, card=cards(code)[0]))
    assert list(s.held_cards) == cards("9D")
    return s, rules


def test_a_held_card_is_on_record_and_survives_a_restart(tmp_path: Path) -> None:
    """The held card has left the shoe: a kiosk restart before the dealer's step must not
    lose it, nor deal it twice."""
    path = tmp_path / "j.db"
    rules = _held_9d(path)
    s = open_session(path, rules)  # the kiosk restarts while the card waits
    assert list(s.held_cards) == cards("9D")
    assert any("held before the restart: 9D" in a.message for a in s.alerts)
    s.perform(lambda st: pb.deal_card(st, cards("AH")[0], pb.CardSource.KEYED))
    assert s.state.player_cards == tuple(cards("AS", "9D"))
    assert s.state.banker_cards == tuple(cards("AH"))
    reports = [(e.payload["event"], e.payload["detail"]) for e in s.journal.entries()
               if e.kind == "device_report"]
    assert reports == [("card_held", "9D"), ("card_released", "9D")]
    again = open_session(path, rules)  # released: not held, not dealt again
    assert not again.held_cards and again.state.player_cards == tuple(cards("AS", "9D"))


def test_a_void_takes_the_held_cards_with_its_coup(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    rules = _held_9d(path)
    s = open_session(path, rules)
    s.perform(lambda st: pb.void_round(st, "misdeal"))
    assert not s.held_cards
    assert s.alerts[-1].message == "Held card(s) 9D go with the void round"
    again = open_session(path, rules)  # and so after a restart, without the old news
    assert not again.held_cards
    assert not any("void round" in a.message for a in again.alerts)


def test_a_held_card_is_released_with_its_own_record_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills as the held card is dealt: the dealer's keyed card is on record and
    stays; the held card stays held, on screen and after a restart, never lost between."""
    path = tmp_path / "j.db"
    s, rules = _holding_9d(path)
    real = s.journal.append_many

    def full(items: Any) -> Any:
        items = list(items)
        if any(p.get("event") == "card_released" for _k, p in items):
            raise JournalWriteError("database or disk is full", WriteFailure.DISK_FULL)
        return real(items)

    monkeypatch.setattr(s.journal, "append_many", full)
    s.perform(lambda st: pb.deal_card(st, cards("AH")[0], pb.CardSource.KEYED))  # no raise
    assert s.state.banker_cards == tuple(cards("AH"))
    assert list(s.held_cards) == cards("9D") and s.state.player_cards == tuple(cards("AS"))
    assert s.alerts[-1].severity is Severity.STOP
    assert s.alerts[-1].message.startswith("A held card could not be recorded")
    monkeypatch.undo()
    again = open_session(path, rules)  # the restart deals it, with its release, at last
    assert not again.held_cards
    assert again.state.player_cards == tuple(cards("AS", "9D"))
    rows = [(e.kind, e.payload.get("event"), e.payload.get("card")) for e in
            again.journal.entries()][-3:]
    assert rows == [("punto_banco.card_dealt", None, "AH"),
                    ("device_report", "card_released", None),
                    ("punto_banco.card_dealt", None, "9D")]


def test_held_cards_are_set_aside_on_record_when_the_table_changes_game(
        tmp_path: Path) -> None:
    """A punto banco card held at a restart as blackjack must not become blackjack's burn
    card (rule 4.7 shuffle and cut) or any other card of the new game."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession

    path = tmp_path / "j.db"
    s, _rules = _holding_9d(path)
    s.journal.close()
    t = TableSession(bj.Blackjack(), Journal.open(path, "PB-01"), BlackjackRules(), "PB-01")
    assert not t.held_cards
    assert any(a.message == "Held card(s) 9D set aside: the table now runs another game"
               for a in t.alerts)
    last = [(e.kind, e.payload.get("event"), e.payload.get("detail"))
            for e in t.journal.entries()][-2:]
    assert last == [("device_report", "held_set_aside",
                     "9D: the table now runs another game"), ("blackjack.table_opened", None, None)]
    t.perform(bj.shuffle)
    t.perform(lambda st: bj.cut_cards(st, 1, 156, 78))
    t.on_device_event(ev.CardRead(device="SHOE", seq=9, card=cards("KH")[0]))
    burned = [e.payload for e in t.journal.entries() if e.kind == "blackjack.burned"]
    assert burned == [{"card": "KH"}]


def test_device_trouble_is_recorded_and_never_raises(tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    s.on_device_event(ev.BadInput(device="SHOE", seq=None, raw=b"\x00garbage",
                                  reason="noise", kind=ev.BadKind.NOISE))
    s.on_device_event(ev.FramesLost(device="SHOE", seq=12, expected_seq=10, got_seq=12,
                                    missing=2))
    s.on_device_event(ev.DeviceOffline(device="SHOE", seq=None, silent_seconds=5.0))
    s.on_device_event(ev.DeviceOffline(device="SHOE", seq=None, silent_seconds=6.0))
    s.on_device_event(ev.DeviceOnline(device="SHOE", seq=None))
    reports = [e.payload for e in s.journal.entries() if e.kind == "device_report"]
    # The noise is on record too (the link's report, with its count so far).
    assert [r["event"] for r in reports] == ["bad_input", "frames_lost", "offline", "online"]
    assert reports[0]["detail"] == "noise: noise: \\x00garbage (so far: 1 noise)"
    assert reports[1]["detail"] == "2 frame(s) lost between 10 and 12"
    assert s.bad_input == 1
    assert any("lost 2 message" in a.message for a in s.alerts)


def test_a_shoe_that_powers_on_again_asks_the_dealer_to_check_the_cards(
        tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    hello = {"device": "SHOE", "seq": 0, "model": "ACME-X", "firmware": "2.1",
             "serial_number": "SN42"}
    s.on_device_event(ev.ShoeHello(**hello))  # asked for, or at the first connection
    assert not s.alerts or "restarted" not in s.alerts[-1].message
    s.on_device_event(ev.ShoeHello(**hello, restarted=True))
    assert s.alerts[-1].severity is Severity.WARNING
    assert s.alerts[-1].message == "The card shoe restarted"
    assert "key in any card that is missing" in s.alerts[-1].way_forward
    reports = [e.payload["event"] for e in s.journal.entries() if e.kind == "device_report"]
    assert reports == ["hello", "restarted"]


def test_a_failing_button_action_is_a_red_alert_not_a_crash(tmp_path: Path) -> None:
    """A press from the panel or the console goes through `attempt`: a refusal is an amber
    alert; anything else (a bug) a red one, and nothing is recorded."""
    s = _ready(tmp_path / "j.db")
    rows = s.journal.count()
    assert s.attempt(pb.close_betting) is None  # closed already (rule 5.6)
    assert s.alerts[-1].severity is Severity.WARNING and "5.6" in s.alerts[-1].message

    def a_bug(_state: pb.PuntoBancoState) -> pb.Operation:
        raise KeyError("banker")

    assert s.attempt(a_bug) is None
    assert s.alerts[-1].severity is Severity.STOP
    assert s.alerts[-1].message == "Not recorded: 'banker'"
    assert s.journal.count() == rows


def test_card_before_no_more_bets_is_refused_and_recorded(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    s.perform(pb.shuffle)
    s.on_device_event(ev.CardRead(device="SHOE", seq=0, card=cards("QH")[0]))
    last = list(s.journal.entries())[-1]
    assert last.kind == "device_report" and last.payload["event"] == "card_refused"
    assert "QH" in last.payload["detail"]
    assert s.state.player_cards == ()


def test_unread_card_waits_for_the_keyed_card(tmp_path: Path) -> None:
    s = _ready(tmp_path / "j.db")
    s.on_device_event(ev.CardUnread(device="SHOE", seq=0))
    assert s.next_step() == "Key in the unread Player card"
    s.on_device_event(ev.CardRead(device="SHOE", seq=1, card=cards("5C")[0]))
    assert list(s.held_cards) == cards("5C")
    s.perform(lambda st: pb.deal_card(st, cards("2D")[0], pb.CardSource.KEYED))
    assert s.state.player_cards == tuple(cards("2D"))
    assert s.state.banker_cards == tuple(cards("5C"))


def test_changed_configuration_is_journaled_and_keeps_the_coup(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    s = _ready(path)
    s.journal.close()
    new_rules = pb.PuntoBancoRules(chips=RULES.chips, areas=9)
    again = open_session(path, new_rules)
    assert kinds(again)[-1] == "punto_banco.table_opened"
    assert again.state.rules.areas == 9
    assert again.state.bets == s.state.bets and again.state.phase is pb.Phase.DEALING


def test_alerts_keep_counting_past_the_kept_history(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    for i in range(60):
        s.alert(Severity.INFO, f"alert {i}")
    assert s.alerts_raised == 60
    assert len(s.alerts) == 50 and s.alerts[-1].message == "alert 59"
