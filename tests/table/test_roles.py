"""Who may do what at the table (the Mpumalanga table game rules, section 2): dealers sign in
with an id and a PIN, overrides need the right role's PIN and a reason and go on record with
their act, five wrong PINs lock an id out, and the people list comes signed from the pit."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.config import ConfigError, parse
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import Journal
from kiosk.sync.offers import PitConfigs
from kiosk.sync.pit_config import SignedConfig, public_key_hex, write_offer
from kiosk.table.fold import fold
from kiosk.table.roles import (
    NEEDS,
    LockedOut,
    Override,
    People,
    Person,
    Role,
    RoleRefused,
    check_pin,
    hash_pin,
    people_toml,
)
from kiosk.table.session import Severity, TableSession
from pit.alerts import PIN_LOCKOUT, alert_for
from tests.table.helpers import RULES, Session, kinds, open_session

PINS = {"D1": "1111", "D2": "2222", "I1": "3333", "T1": "4444"}
ROLES = {"D1": Role.DEALER, "D2": Role.DEALER, "I1": Role.INSPECTOR, "T1": Role.TECHNICIAN}
NAMES = {"D1": "Thandi", "D2": "Pieter", "I1": "Inspector Naidoo", "T1": "Tech Sipho"}
PEOPLE = People(tuple(Person(pid, NAMES[pid], ROLES[pid], hash_pin(PINS[pid], b"s" * 16))
                      for pid in PINS), lockout_after=5, lockout_seconds=900, checked=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _session(path: Path, clock: Clock | None = None) -> Session:
    s = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), RULES, "PB-01",
                     clock=clock or Clock())
    s.set_people(PEOPLE)
    return s


def _in_play(s: Session) -> None:
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))


def _payloads(s: Session, kind: str) -> list[dict[str, object]]:
    return [dict(e.payload) for e in s.journal.entries() if e.kind == kind]


def test_pins_are_hashed_with_scrypt_and_checked() -> None:
    stored = hash_pin("1234")
    assert stored.startswith("scrypt$16384$8$1$") and "1234" not in stored
    assert check_pin("1234", stored) and not check_pin("1235", stored)
    assert not check_pin("1234", "md5$abc")  # a hash of another scheme never passes


def test_a_dealer_signs_in_and_out_on_record_and_each_round_records_its_dealer(
        tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db")
    with pytest.raises(RoleRefused, match="Wrong id or PIN"):
        s.sign_in("D1", "1112")
    with pytest.raises(RoleRefused, match="not on this table's list as a dealer"):
        s.sign_in("I1", PINS["I1"])
    assert s.sign_in("D1", PINS["D1"]).name == "Thandi"
    _in_play(s)
    assert _payloads(s, "dealer_signed_in") == [{"dealer": "D1", "name": "Thandi"}]
    # The round's dealer goes on record with its first act, once.
    assert _payloads(s, "round_dealer") == [{"round": 1, "dealer": "D1", "name": "Thandi"}]
    s.perform(lambda st: pb.place_bet(st, "2", pb.BetKind.PLAYER, 10_000))
    assert len(_payloads(s, "round_dealer")) == 1
    s.perform(lambda st: pb.void_round(st, "Inspector's decision"))
    s.sign_out()
    s.sign_in("D2", PINS["D2"])
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    assert _payloads(s, "round_dealer")[-1] == {"round": 2, "dealer": "D2", "name": "Pieter"}
    assert _payloads(s, "dealer_signed_out") == [{"dealer": "D1", "name": "Thandi"}]
    # A restart keeps who is signed in (the fold), and replay folds the new rows.
    s.journal.close()
    again = _session(tmp_path / "j.db")
    assert again.dealer is not None and again.dealer.id == "D2"
    assert fold(Journal.open(tmp_path / "j.db", "PB-01").entries()).facts.dealer == "D2"


def test_a_table_with_no_sign_in_records_no_dealer_rows(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    _in_play(s)
    assert kinds(s) == ["punto_banco.table_opened", "punto_banco.shoe_shuffled",
                        "punto_banco.bet_placed"]


@pytest.mark.parametrize("action", list(Override))
def test_each_override_is_refused_without_its_role(tmp_path: Path, action: Override) -> None:
    s = _session(tmp_path / "j.db")
    _in_play(s)
    before = s.journal.count()
    wrong = [pid for pid in PINS if ROLES[pid] is not NEEDS[action]]
    for pid in wrong:  # the right PIN of the wrong role
        with pytest.raises(RoleRefused, match=f"{pid} may not do this: it needs the "
                                              f"{NEEDS[action]}"):
            s.override(action, pid, PINS[pid], "the shoe misread it")
    right = next(pid for pid in PINS if ROLES[pid] is NEEDS[action])
    with pytest.raises(RoleRefused, match="Give a reason"):
        s.override(action, right, PINS[right], "   ")
    with pytest.raises(RoleRefused, match="Wrong id or PIN"):
        s.override(action, right, "0000", "the shoe misread it")
    with pytest.raises(RoleRefused, match="Wrong id or PIN"):
        s.override(action, "nobody", "0000", "the shoe misread it")
    assert s.journal.count() == before  # nothing on record
    s.override(action, right, PINS[right], "  the shoe\nmisread it ")
    assert _payloads(s, "override") == [{
        "action": str(action), "role": str(NEEDS[action]), "person": right,
        "name": NAMES[right], "reason": "the shoe misread it", "detail": ""}]


def test_an_override_goes_on_record_with_its_act_in_one_transaction(tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db")
    _in_play(s)
    with pytest.raises(RoleRefused):
        s.override(Override.VOID, "D1", PINS["D1"], "Card exposed or dropped",
                   lambda st: pb.void_round(st, "Card exposed or dropped"))
    assert s.state.bets  # not voided
    s.override(Override.VOID, "I1", PINS["I1"], "Card exposed or dropped",
               lambda st: pb.void_round(st, "Card exposed or dropped"))
    last = list(s.journal.entries(s.journal.count() - 2))
    assert [e.kind for e in last] == ["override", "punto_banco.coup_voided"]
    assert last[0].payload["person"] == "I1"
    assert not s.state.bets


def test_a_table_with_no_people_list_runs_its_acts_as_before(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    _in_play(s)
    assert s.may(Override.VOID)
    s.override(Override.VOID, "", "", "", lambda st: pb.void_round(st, "Misdeal"))
    assert "override" not in kinds(s) and not s.state.bets
    with pytest.raises(RoleRefused, match="no people list"):
        s.override(Override.REOPEN_HOURS, "", "", "late game")


def test_may_greys_an_override_nobody_on_the_list_can_give(tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db")
    assert s.may(Override.VOID) and not s.may(Override.VOID, allowed=False)
    s.set_people(People(tuple(p for p in PEOPLE.persons if p.role is not Role.INSPECTOR),
                        checked=True))
    assert not s.may(Override.VOID) and s.may(Override.SELF_TEST)


def test_five_wrong_pins_lock_the_id_out_for_the_set_time(tmp_path: Path) -> None:
    clock = Clock()
    s = _session(tmp_path / "j.db", clock)
    for n in range(4):
        with pytest.raises(RoleRefused, match=f"{4 - n} more wrong before a lockout"):
            s.sign_in("D1", "9999")
    assert "pin_locked_out" not in kinds(s)
    with pytest.raises(LockedOut, match="D1 is locked out .* 15 minute"):
        s.sign_in("D1", "9999")
    assert _payloads(s, "pin_locked_out") == [{"person": "D1", "attempts": 5,
                                              "seconds": 900}]
    assert s.alerts[-1].severity is Severity.STOP
    assert "D1 locked out for 15 minute(s) after 5 wrong PINs" in s.alerts[-1].message
    # The right PIN does not open it while the lockout runs; another id is not locked.
    clock.now += 899
    with pytest.raises(LockedOut, match="1 minute"):
        s.sign_in("D1", PINS["D1"])
    assert s.sign_in("D2", PINS["D2"]).id == "D2"
    clock.now += 1
    assert s.sign_in("D1", PINS["D1"]).id == "D1"
    assert len(_payloads(s, "pin_locked_out")) == 1
    # The count starts again after the lockout (and after a right PIN).
    for _ in range(4):
        with pytest.raises(RoleRefused):
            s.override(Override.VOID, "D1", "9999", "x")
    s.sign_in("D1", PINS["D1"])
    with pytest.raises(RoleRefused, match="4 more wrong"):
        s.sign_in("D1", "9999")


def test_the_pit_raises_a_lockout_as_an_alert() -> None:
    assert alert_for("pin_locked_out", {"person": "D1", "attempts": 5, "seconds": 900}) == (
        PIN_LOCKOUT, "D1 locked out for 15 minute(s) after 5 wrong PINs")


_ATTEMPT = st.tuples(st.sampled_from(list(Override)), st.sampled_from([*PINS, "X9"]),
                     st.booleans(), st.sampled_from(["", " ", "card exposed", "\t", "misread"]))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(attempts=st.lists(_ATTEMPT, max_size=8))
def test_no_override_is_journaled_without_its_role_and_a_reason(
        tmp_path_factory: pytest.TempPathFactory,
        attempts: list[tuple[Override, str, bool, str]]) -> None:
    s = _session(tmp_path_factory.mktemp("p") / "j.db")
    for action, pid, right_pin, reason in attempts:
        with contextlib.suppress(RoleRefused):
            s.override(action, pid, PINS.get(pid, "0000") if right_pin else "0001", reason)
    for row in _payloads(s, "override"):
        person = PEOPLE.get(str(row["person"]))
        assert person is not None and str(row["reason"]).strip()
        assert row["role"] == NEEDS[Override(str(row["action"]))] == person.role


# --- the list from the table's file and from the pit --------------------------------------


def _toml(tmp: Path, people: str = "", key: str = "") -> str:
    sync = (f'[sync]\npit = "http://127.0.0.1:9"\ncredential_file = "T1.credential"\n'
            f'pit_key = "{key}"\n') if key else ""
    return (f'[table]\nid = "T1"\ngame = "punto-banco"\njournal = "{tmp / "T1.db"}"\n'
            f'[devices.shoe]\nport = "simulated"\n{sync}{people}')


def test_a_table_reads_its_people_from_its_file(tmp_path: Path) -> None:
    cfg = parse(_toml(tmp_path, people_toml([("1001", "Thandi", Role.DEALER, "1111"),
                                             ("9001", "Naidoo", Role.INSPECTOR, "3333")],
                                            lockout_minutes=10)))
    assert cfg.people.checked and cfg.people.lockout_seconds == 600
    person = cfg.people.get("9001")
    assert person is not None and person.role is Role.INSPECTOR
    assert check_pin("3333", person.pin_hash)
    assert not parse(_toml(tmp_path)).people.checked


@pytest.mark.parametrize(("section", "why"), [
    ('[people.1001]\nname = "A"\nrole = "dealer"\npin = "1234"\n', "hashed with scrypt"),
    ('[people.1001]\nname = "A"\nrole = "boss"\npin = "scrypt$1$2$3$4$5"\n', "one of dealer"),
    ('[people.1001]\nname = "A"\nrole = "dealer"\npin = "scrypt$1$2$3$4$5"\nrank = 2\n',
     "unknown key"),
    ('[people]\nlockout_after = 0\n', "lockout_after"),
    # The PIN pad keys digits only: an id with letters could never be keyed at the table.
    ('[people.D1]\nname = "A"\nrole = "dealer"\npin = "scrypt$1$2$3$4$5"\n',
     "badge number of 1 to 8 digits"),
    ('[people.123456789]\nname = "A"\nrole = "dealer"\npin = "scrypt$1$2$3$4$5"\n',
     "badge number of 1 to 8 digits"),
])
def test_a_people_section_with_a_mistake_is_refused_with_its_line(
        tmp_path: Path, section: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as err:
        parse(_toml(tmp_path, section))
    assert "line" in str(err.value)


def test_ids_with_letters_are_refused_before_the_pit_signs_them() -> None:
    from kiosk.signed_config import check_body

    with pytest.raises(RoleRefused, match="D1: an id is a badge number"):
        people_toml([("D1", "Thandi", Role.DEALER, "1111")])
    body = '[people.D1]\nname = "A"\nrole = "dealer"\npin = "scrypt$1$2$3$4$5"\n'
    with pytest.raises(ConfigError, match="digits only.*'D1'"):
        check_body(body)  # what the pit checks before it signs
    assert check_body(people_toml([("4471", "Thandi", Role.DEALER, "1111")])
                      ).people.get("4471") is not None


def test_the_people_list_from_the_pit_is_taken_up_between_rounds_and_another_key_refused(
        tmp_path: Path) -> None:
    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    cfg = parse(_toml(tmp_path, key=public_key_hex(key)), tmp_path / "table.toml")
    s: Session = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1"), cfg.rules, "T1")
    configs = PitConfigs(s, cfg)
    assert not s.people.checked
    body = people_toml([("1001", "Thandi", Role.DEALER, "1111"),
                        ("9001", "Naidoo", Role.INSPECTOR, "3333")])

    def offer(signer: Ed25519PrivateKey, version: int) -> None:
        write_offer(cfg.journal, SignedConfig("T1", version, body, "2026-11-28T10:00:00.000Z",
                                              "Thandi").signed(signer))

    offer(other, 1)  # signed by another key: refused on record, the list unchanged
    configs.poll()
    assert s.journal.last_of_kind("pit_config_refused") is not None
    assert "not signed by this table's pit" in str(
        s.journal.last_of_kind("pit_config_refused").payload["reason"])  # type: ignore[union-attr]
    assert not s.people.checked
    _in_play(s)
    offer(key, 2)
    configs.poll()
    assert configs.pending is not None and not s.people.checked  # a round is in play
    s.perform(lambda st: pb.void_round(st, "Misdeal"))
    configs.poll()
    assert s.people.checked and s.people.get("9001") is not None
    applied = s.journal.last_of_kind("pit_config_applied")
    assert applied is not None and "people and PINs changed" in str(applied.payload["summary"])
    # A restart that cannot reach the pit keeps the last signed list (from the journal).
    s.journal.close()
    again: Session = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1"), cfg.rules,
                                  "T1")
    PitConfigs(again, cfg)
    assert again.people.get("1001") is not None
    assert again.sign_in("1001", "1111").name == "Thandi"


def test_replay_says_who_dealt_each_round_and_who_approved_what(tmp_path: Path) -> None:
    from kiosk.replay import replay

    s = _session(tmp_path / "j.db")
    s.sign_in("D1", PINS["D1"])
    _in_play(s)
    s.override(Override.VOID, "I1", PINS["I1"], "Card exposed or dropped",
               lambda st: pb.void_round(st, "Card exposed or dropped", "inspector I1"))
    report = replay(s.journal.entries())
    assert report.ok, report.problems
    coup = report.rounds[-1].as_json()
    assert coup["status"] == "voided" and coup["dealer"] == "D1 Thandi"
    assert coup["overrides"] == [{"action": "void_round", "role": "inspector",
                                  "person": "I1", "name": "Inspector Naidoo",
                                  "reason": "Card exposed or dropped", "detail": ""}]
    assert "dealer D1 Thandi  void_round by inspector I1: Card exposed or dropped" in (
        report.rounds[-1].line())
    assert report.rounds[-1].who() == (
        ("dealer", "D1 Thandi"),
        ("inspector", "I1 Inspector Naidoo: void round (Card exposed or dropped)"))


def test_a_lockout_on_record_still_runs_after_a_restart(tmp_path: Path) -> None:
    from datetime import datetime, timedelta

    s = _session(tmp_path / "j.db")
    for _ in range(5):
        with contextlib.suppress(RoleRefused):
            s.sign_in("D1", "9999")
    row = s.journal.last_of_kind("pin_locked_out")
    assert row is not None
    at = datetime.fromisoformat(row.wall_time.replace("Z", "+00:00"))
    s.journal.close()

    def restarted(after: float) -> Session:
        again = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "j.db", "PB-01"), RULES,
                             "PB-01", clock=Clock(),
                             wall_clock=lambda: at + timedelta(seconds=after))
        again.set_people(PEOPLE)
        return again

    again = restarted(600)  # 5 of its 15 minutes left
    with pytest.raises(LockedOut, match="5 minute"):
        again.sign_in("D1", PINS["D1"])
    assert again.sign_in("D2", PINS["D2"]).id == "D2"
    again.journal.close()
    again = restarted(900)
    assert again.sign_in("D1", PINS["D1"]).id == "D1"
    again.journal.close()


def test_the_pit_checks_a_people_list_before_it_signs_it() -> None:
    from kiosk.signed_config import check_body

    body = people_toml([("9001", "Naidoo", Role.INSPECTOR, "3333")])
    person = check_body(body).people.get("9001")
    assert person is not None and person.role is Role.INSPECTOR
    with pytest.raises(ConfigError, match="hashed with scrypt"):
        check_body('[people.9001]\nname = "Naidoo"\nrole = "inspector"\npin = "3333"\n')


def test_an_act_that_needs_an_override_is_told_by_its_record(tmp_path: Path) -> None:
    """The typed console refuses these on a table with a people list (the dealer screen's
    PIN pad takes them), whatever the game: told by the record the act would make."""
    s = _session(tmp_path / "j.db")
    _in_play(s)
    assert s.override_needed(lambda st: pb.void_round(st, "Misdeal")) is Override.VOID
    assert s.override_needed(lambda st: pb.place_bet(st, "2", pb.BetKind.PLAYER, 10_000)) \
        is None
    s.perform(pb.close_betting)
    from kiosk.rules.cards import Card

    def keyed(st: pb.PuntoBancoState) -> pb.Operation:
        return pb.deal_card(st, Card.parse("4H"), pb.CardSource.KEYED)

    assert s.override_needed(keyed) is None  # no shoe linked: keying in is the way
    s.device_commands["shoe"] = lambda _c: True
    assert s.override_needed(keyed) is Override.MANUAL_CARD
    s.device_online["SHOE"] = False
    assert s.override_needed(keyed) is None
    s.set_people(People())
    assert s.override_needed(lambda st: pb.void_round(st, "Misdeal")) is None


def test_a_dealer_change_signs_the_one_before_out_in_the_same_transaction(
        tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db")
    s.sign_in("D1", PINS["D1"])
    s.sign_in("D2", PINS["D2"])
    assert kinds(s)[-3:] == ["dealer_signed_in", "dealer_signed_out", "dealer_signed_in"]
    assert _payloads(s, "dealer_signed_out") == [{"dealer": "D1", "name": "Thandi"}]
    assert s.dealer is not None and s.dealer.id == "D2"


def test_a_card_the_shoe_could_not_read_is_keyed_in_by_the_dealer(tmp_path: Path) -> None:
    from hardware import events as ev
    from kiosk.rules.cards import Card

    s = _session(tmp_path / "j.db")
    _in_play(s)
    s.perform(pb.close_betting)
    s.device_commands["shoe"] = lambda _c: True
    assert s.keyed_over_shoe()
    s.on_device_event(ev.CardUnread(device="SHOE", seq=1))
    assert s.state.pending is not None and s.state.pending.reason == "unread"
    assert not s.keyed_over_shoe()
    assert s.override_needed(
        lambda st: pb.deal_card(st, Card.parse("4H"), pb.CardSource.KEYED)) is None


def test_two_processes_on_one_journal_count_towards_one_lockout(tmp_path: Path) -> None:
    """The running table and the self-test (or a second table process) on the same journal
    file: the self-test's wrong PINs on record count at the table's next PIN check, not at
    its next start, and a lockout either puts on record holds in the other at once."""
    from datetime import UTC, datetime

    from kiosk.table.roles import check_on_record

    path = tmp_path / "j.db"
    kiosk = _session(path)
    for _ in range(2):  # two wrong at the table (its own count)
        with pytest.raises(RoleRefused):
            kiosk.sign_in("D1", "9999")
    with Journal.open(path, "PB-01") as selftest:  # another process's connection
        # Two wrong at the self-test, on record (the table's own wrong PINs are not on
        # record: a wrong PIN at the table leaves nothing there, so the self-test counts its
        # own and the lockouts).
        for left in (4, 3):
            with pytest.raises(RoleRefused, match=f"{left} more wrong before a lockout"):
                check_on_record(selftest, PEOPLE, "D1", "9999", datetime.now(UTC))
    # The fifth in a row, at the table: locked out now (the table counted 2 + 2 + 1).
    with pytest.raises(LockedOut, match="D1 is locked out"):
        kiosk.sign_in("D1", "9999")
    assert _payloads(kiosk, "pin_locked_out") == [{"person": "D1", "attempts": 5,
                                                   "seconds": 900}]
    # The self-test honours the table's lockout at once, even for the right PIN.
    with Journal.open(path, "PB-01") as selftest, pytest.raises(LockedOut):
        check_on_record(selftest, PEOPLE, "D1", PINS["D1"],
                        datetime.now(UTC))
    # Two table sessions on one file: the other's lockout holds at the first's next check.
    other = _session(path)
    for _ in range(5):
        with contextlib.suppress(RoleRefused):
            other.sign_in("D2", "9999")
    with pytest.raises(LockedOut, match="D2 is locked out"):
        kiosk.sign_in("D2", PINS["D2"])
    # A right PIN starts the count again, the rows on record before it included.
    with Journal.open(path, "PB-01") as selftest, pytest.raises(RoleRefused):
        check_on_record(selftest, PEOPLE, "I1", "9999", datetime.now(UTC))
    assert kiosk.check_pin("I1", PINS["I1"]).id == "I1"
    with pytest.raises(RoleRefused, match="4 more wrong"):
        kiosk.check_pin("I1", "9999")
    other.journal.close()
    kiosk.journal.close()
