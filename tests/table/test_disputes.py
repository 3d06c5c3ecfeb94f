"""Disputes (the Mpumalanga table game rules, rule 2.8): a round flagged by the dealer or the
inspector, on record, in the replay report of the database and of its export, recomputed for
the inspector (at the pit: tests/pit/test_disputes_pit.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.replay import load_entries, replay, replay_round, replay_source
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.store.export import export_jsonl_file
from kiosk.table import acts
from kiosk.table.disputes import RoundDisputed
from kiosk.table.roles import RoleRefused
from tests.table.helpers import Session, cards, open_session
from tests.table.test_roles import PEOPLE, PINS


def _coup(s: Session) -> None:
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 5_500))
    s.perform(pb.close_betting)
    for c in cards("4H", "3C", "KD", "4S", "2C"):
        s.perform(lambda st, c=c: pb.shoe_card(st, c))
    s.perform(pb.confirm_payouts)


def _disputed(path: Path) -> Session:
    s = open_session(path)
    s.perform(pb.shuffle)
    _coup(s)
    acts.flag_dispute(s, 1, "the player says the 2C was dealt late", person_id="Sipho")
    return s


def test_only_the_dealer_or_the_inspector_flags_a_round_with_a_note(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    s.set_people(PEOPLE)
    s.perform(pb.shuffle)
    _coup(s)
    rows = s.journal.count()
    with pytest.raises(RoleRefused, match="Sign in as the dealer"):
        acts.flag_dispute(s, 1, "a note")  # nobody signed in, no PIN
    with pytest.raises(RoleRefused, match="Only the dealer or the inspector"):
        acts.flag_dispute(s, 1, "a note", person_id="T1", pin=PINS["T1"])  # a technician
    with pytest.raises(RoleRefused, match="Wrong id or PIN"):
        acts.flag_dispute(s, 1, "a note", person_id="I1", pin="0000")
    with pytest.raises(NotAllowed, match="note"):
        acts.flag_dispute(s, 1, "  ", person_id="I1", pin=PINS["I1"])
    with pytest.raises(NotAllowed, match="no round 7"):
        acts.flag_dispute(s, 7, "which one?", person_id="I1", pin=PINS["I1"])
    assert s.journal.count() == rows  # nothing refused is on record
    op = acts.flag_dispute(s, 1, "payout queried", person_id="I1", pin=PINS["I1"])
    assert op == RoundDisputed(1, "I1", "inspector", "payout queried")
    assert s.alerts[-1].message == "Round 1 flagged as disputed"
    s.sign_in("D1", PINS["D1"])
    assert acts.flag_dispute(s, 1, "the player asks again") == RoundDisputed(
        1, "D1", "dealer", "the player asks again")


def test_a_dispute_round_trips_through_export_and_replay(tmp_path: Path) -> None:
    s = _disputed(tmp_path / "j.db")
    last = s.journal.entry(s.journal.count())
    assert last is not None and last.kind == "round_disputed"
    assert last.payload == {"round": 1, "by": "Sipho", "role": "dealer",
                            "note": "the player says the 2C was dealt late"}
    s.journal.close()
    out = tmp_path / "j.jsonl"
    export_jsonl_file(tmp_path / "j.db", out)
    line = (f"row {last.seq} ({last.wall_time}): round 1 disputed by the dealer Sipho: "
            "the player says the 2C was dealt late")
    for source in (tmp_path / "j.db", out):
        report = replay_source(source)
        assert report.ok and report.disputes == [line]
        assert report.as_json()["disputes"] == [line]
    text = CliRunner().invoke(main, ["replay", str(out)])
    assert text.exit_code == 0 and f"dispute: {line}" in text.output
    as_json = json.loads(CliRunner().invoke(main, ["replay", str(out), "--json"]).output)
    assert as_json["disputes"] == [line]
    # The recomputation the inspector sees on the table's screen.
    (coup,) = replay_round(load_entries(out), 1)
    assert coup.player_cards == ["4H", "KD", "2C"] and coup.banker_cards == ["3C", "4S"]
    assert coup.settlements[0]["paid"] == 5000 and not coup.differences


def test_a_journal_with_no_dispute_reports_as_before(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    s.perform(pb.shuffle)
    _coup(s)
    s.journal.close()
    assert "disputes" not in replay(load_entries(tmp_path / "j.db")).as_json()

