"""Opening hours (the Mpumalanga table game rules, rule 2.4), with a fake clock: the
boundaries, a span over midnight, the inspector's override on record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.config import ConfigError, parse
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.store.journal import Journal
from kiosk.table import acts
from kiosk.table.hours import HoursError, OpenedOutsideHours, OpeningHours, parse_day
from kiosk.table.roles import RoleRefused
from kiosk.table.session import TableSession
from tests.table.helpers import RULES
from tests.table.test_roles import PEOPLE, PINS

SAST = timedelta(hours=2)  # Africa/Johannesburg: UTC+2 all year


def local(text: str) -> datetime:
    """A local (SAST) time as the aware UTC moment: "2026-11-27 18:00" is a Friday."""
    return (datetime.fromisoformat(text) - SAST).replace(tzinfo=UTC)


SHOE = '[devices.shoe]\nport = "simulated"\n'
NIGHTS = OpeningHours.from_mapping({"daily": "18:00-02:00", "sun": "closed"})


@pytest.mark.parametrize(("when", "is_open"), [
    ("2026-11-27 17:59:59", False),  # Friday, a second before opening
    ("2026-11-27 18:00:00", True),  # opening: inclusive
    ("2026-11-27 23:59:59", True),
    ("2026-11-28 00:00:00", True),  # Friday's span runs over midnight into Saturday
    ("2026-11-28 01:59:59", True),
    ("2026-11-28 02:00:00", False),  # closing: exclusive
    ("2026-11-29 01:00:00", True),  # Saturday night's span, on Sunday morning
    ("2026-11-29 20:00:00", False),  # Sunday: closed
    ("2026-11-30 01:00:00", False),  # ... so nothing runs into Monday morning
    ("2026-11-30 18:00:00", True),
])
def test_a_span_over_midnight_at_its_boundaries(when: str, is_open: bool) -> None:
    assert NIGHTS.is_open(local(when)) is is_open


def test_the_next_opening_skips_a_closed_day() -> None:
    assert NIGHTS.next_opening(local("2026-11-29 03:00")) == local("2026-11-30 18:00")
    assert NIGHTS.next_opening(local("2026-11-27 17:00")) == local("2026-11-27 18:00")
    closed = OpeningHours.from_mapping({"daily": "closed"})
    assert closed.next_opening(local("2026-11-27 17:00")) is None


def test_hours_that_do_not_read_are_refused_in_words() -> None:
    with pytest.raises(HoursError, match="18:00-02:00"):
        parse_day("6pm-2am")
    assert parse_day("00:00-24:00")[0].minutes == 24 * 60
    with pytest.raises(ConfigError, match=r"line 6: hours.daily"):
        parse('[table]\nid = "PB-01"\n' + SHOE + '[hours]\ndaily = "25:00-02:00"\n')
    with pytest.raises(ConfigError, match=r"hours.timezone"):
        parse('[table]\nid = "PB-01"\n' + SHOE
              + '[hours]\ndaily = "18:00-02:00"\ntimezone = "Mars"\n')
    cfg = parse('[table]\nid = "PB-01"\n' + SHOE + '[hours]\ndaily = "18:00-02:00"\n')
    assert cfg.hours == OpeningHours.from_mapping({"daily": "18:00-02:00"})
    assert parse('[table]\nid = "PB-01"\n' + SHOE).hours is None


class Clock:
    def __init__(self, when: datetime) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when


def _session(path: Path, clock: Clock) -> TableSession[pb.PuntoBancoState]:
    s = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01", clock=clock), RULES, "PB-01")
    s.hours = NIGHTS
    s.perform(pb.shuffle)
    return s


def _bet(s: TableSession[pb.PuntoBancoState], area: str = "1") -> None:
    s.perform(lambda st: pb.place_bet(st, area, pb.BetKind.BANKER, 10_000))


def test_no_round_opens_outside_the_hours_and_one_in_play_is_finished(tmp_path: Path) -> None:
    clock = Clock(local("2026-11-28 01:59"))
    s = _session(tmp_path / "j.db", clock)
    _bet(s)  # within the hours: the coup opens
    clock.when = local("2026-11-28 02:00")  # closing time, the coup still in play
    _bet(s, "2")  # a round in play is finished
    rows = s.journal.count()
    s.perform(pb.close_betting)
    assert s.journal.count() == rows + 1
    # The next coup may not open: refused, nothing written.
    s2 = _session(tmp_path / "k.db", clock)
    before = s2.journal.count()
    with pytest.raises(NotAllowed) as err:
        _bet(s2)
    assert err.value.clause == "2.4"
    assert "opens at 18:00" in str(err.value)
    assert s2.journal.count() == before
    assert acts.table_closed(s2)


def test_the_inspector_reopens_outside_hours_on_record_until_the_next_opening(
        tmp_path: Path) -> None:
    clock = Clock(local("2026-11-29 20:00"))  # Sunday: closed all day
    s = _session(tmp_path / "j.db", clock)
    s.set_people(PEOPLE)
    rows = s.journal.count()
    with pytest.raises(RoleRefused, match="needs the inspector's PIN"):
        acts.reopen_outside_hours(s, "D1", PINS["D1"], "a private game")  # a dealer's PIN
    with pytest.raises(RoleRefused, match="reason"):
        acts.reopen_outside_hours(s, "I1", PINS["I1"], " ")
    with pytest.raises(RoleRefused, match="Wrong id or PIN"):
        acts.reopen_outside_hours(s, "I1", "9999", "a tournament")
    assert s.journal.count() == rows  # nothing refused is on record
    with pytest.raises(NotAllowed):
        _bet(s)
    op = acts.reopen_outside_hours(s, "I1", PINS["I1"], "a tournament approved by the board")
    assert op == OpenedOutsideHours("I1", "inspector", "a tournament approved by the board",
                                    "2026-11-30T16:00:00.000Z")
    override, reopened = s.journal.entries(rows)
    assert override.kind == "override" and override.payload["action"] == \
        "reopen_outside_hours" and override.payload["person"] == "I1"
    assert reopened.kind == "opened_outside_hours" and reopened.payload["by"] == "I1"
    _bet(s)  # the override holds
    assert not acts.table_closed(s)
    # A restart folds the override back from the journal.
    s.journal.close()
    again = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "j.db", "PB-01", clock=clock),
                         RULES, "PB-01")
    again.hours = NIGHTS
    assert again.folded.facts.outside_hours_until == "2026-11-30T16:00:00.000Z"
    assert not acts.table_closed(again)
    clock.when = local("2026-11-30 02:30")  # it holds through the closed hours ...
    assert not acts.table_closed(again)
    clock.when = local("2026-12-01 03:00")  # ... to the next approved opening, not beyond
    assert acts.table_closed(again)


def test_a_table_with_no_people_list_records_who_the_screen_names(tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db", Clock(local("2026-11-29 20:00")))
    op = acts.reopen_outside_hours(s, "Thandi", "", "a tournament")
    assert (op.by, op.role, op.reason) == ("Thandi", "inspector", "a tournament")


def test_reopening_within_the_hours_is_refused(tmp_path: Path) -> None:
    s = _session(tmp_path / "j.db", Clock(local("2026-11-27 20:00")))
    s.set_people(PEOPLE)
    with pytest.raises(NotAllowed, match="within its approved hours"):
        acts.reopen_outside_hours(s, "I1", PINS["I1"], "why not")


def test_the_pit_signs_hours_like_the_limits() -> None:
    cfg = parse('[table]\nid = "PB-01"\n' + SHOE)
    from kiosk.config import with_pit
    from kiosk.signed_config import check_body
    from kiosk.sync.offers import describe

    body = '[hours]\ndaily = "12:00-04:00"\nsun = "closed"\n'
    assert check_body(body).hours is not None  # the pit reads it before it signs
    new = with_pit(cfg, body)
    assert new.hours == OpeningHours.from_mapping({"daily": "12:00-04:00", "sun": "closed"})
    assert "opening hours mon 12:00-04:00" in describe(cfg, new)
    with pytest.raises(ConfigError, match="hours.daily"):
        with_pit(cfg, '[hours]\ndaily = "noon"\n')


def test_the_hours_from_the_pit_are_taken_up_between_rounds_and_kept(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from kiosk.sync.offers import PitConfigs
    from kiosk.sync.pit_config import SignedConfig, public_key_hex, write_offer
    from tests.table.test_roles import _toml

    key = Ed25519PrivateKey.generate()
    cfg = parse(_toml(tmp_path, key=public_key_hex(key)), tmp_path / "table.toml")
    clock = Clock(local("2026-11-29 20:00"))  # Sunday
    s = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1", clock=clock), cfg.rules,
                     "T1")
    configs = PitConfigs(s, cfg)
    assert s.hours is None
    body = '[hours]\ndaily = "18:00-02:00"\nsun = "closed"\n'
    write_offer(cfg.journal, SignedConfig("T1", 1, body, "2026-11-28T10:00:00.000Z",
                                          "Thandi").signed(key))
    configs.poll()
    assert s.hours == NIGHTS
    applied = s.journal.last_of_kind("pit_config_applied")
    assert applied is not None and "opening hours" in str(applied.payload["summary"])
    with pytest.raises(NotAllowed) as err:
        s.perform(pb.shuffle)
        s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    assert err.value.clause == "2.4"
    s.journal.close()  # a restart keeps the signed hours (from the journal)
    again = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1", clock=clock),
                         cfg.rules, "T1")
    PitConfigs(again, cfg)
    assert again.hours == NIGHTS


def test_a_reopening_of_a_table_with_no_opening_holds_half_a_day(tmp_path: Path) -> None:
    clock = Clock(local("2026-11-29 20:00"))
    s = _session(tmp_path / "j.db", clock)
    s.hours = OpeningHours.from_mapping({"daily": "closed"})
    op = acts.reopen_outside_hours(s, "Thandi", "", "a private game")
    assert op.until == "2026-11-30T06:00:00.000Z"  # 20:00 SAST + 12 h, in UTC
    clock.when = local("2026-11-30 07:59")
    assert not acts.table_closed(s)
    clock.when = local("2026-11-30 08:00")
    assert acts.table_closed(s)


def test_a_table_started_outside_its_hours_says_so_at_once(tmp_path: Path) -> None:
    from kiosk.assembly import open_session

    cfg = parse(f'[table]\nid = "PB-01"\njournal = "{tmp_path / "j.db"}"\n' + SHOE
                + '[hours]\ndaily = "closed"\n')
    session, journal = open_session(cfg, quiet=True)
    try:
        assert session.hours == cfg.hours
        assert session.alerts[-1].message.startswith("The table is closed: it has no "
                                                      "approved hours")
    finally:
        journal.close()
