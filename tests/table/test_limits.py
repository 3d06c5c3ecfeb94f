"""A limit change at the table by the inspector (the Mpumalanga table game rules, rule 2.2):
within the bounds the house set (`[limits_bounds]`, from the file or signed by the pit),
between rounds, with an inspector's PIN and a reason; on record as an override, a
`limits_changed` and the game's opening under the new limits; read back after a restart, and
replaced by a newer pit version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.config import ConfigError, TableConfig, parse
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.store.journal import Journal
from kiosk.sync.offers import PitConfigs, effective
from kiosk.sync.pit_config import SignedConfig, public_key_hex, write_offer
from kiosk.table import limits
from kiosk.table.limits import LimitBounds, LimitRefused
from kiosk.table.roles import Role, RoleRefused, people_toml
from kiosk.table.session import TableSession
from tests.table.helpers import Session

PEOPLE = people_toml([("1001", "Thandi", Role.DEALER, "1111"),
                      ("9001", "Naidoo", Role.INSPECTOR, "3333")])
BOUNDS = "[limits_bounds]\nminimum = 10\nmaximum = 100000\n"


def _toml(tmp: Path, *, bounds: str = BOUNDS, people: str = PEOPLE, key: str = "") -> str:
    sync = (f'[sync]\npit = "http://127.0.0.1:9"\ncredential_file = "T1.credential"\n'
            f'pit_key = "{key}"\n') if key else ""
    return (f'[table]\nid = "T1"\ngame = "punto-banco"\njournal = "{tmp / "T1.db"}"\n'
            f'[chips]\nsmallest = 5\n[devices.shoe]\nport = "simulated"\n{sync}{bounds}'
            f'{people}')


def _open(cfg: TableConfig) -> tuple[Session, PitConfigs]:
    """The table as kiosk.assembly opens it: the configuration in force from the journal."""
    run, problem = effective(cfg, Journal.open(cfg.journal, "T1", read_only=True)) \
        if cfg.journal.exists() else (cfg, "")
    assert problem == ""
    s: Session = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1"), run.rules, "T1")
    return s, PitConfigs(s, cfg)


def _banker(s: Session) -> tuple[int, int]:
    lim = next(x for x in s.game.rules_of(s.state).limits if x.kind is pb.BetKind.BANKER)
    return lim.minimum, lim.maximum


def _change(s: Session, pid: str = "9001", pin: str = "3333",
            reason: str = "Inspector's decision", lo: int = 20_000, hi: int = 2_000_000
            ) -> object:
    desk = limits.desk(s)
    assert desk is not None
    return limits.change_limits(s, desk, pid, pin, reason, "banker", lo, hi)


def test_bounds_are_read_from_the_file_and_a_mistake_is_refused_with_its_line(
        tmp_path: Path) -> None:
    assert parse(_toml(tmp_path)).limits_bounds == LimitBounds(1_000, 10_000_000)
    assert parse(_toml(tmp_path, bounds="")).limits_bounds is None
    for wrong, why in (("minimum = 10\n", "maximum: is missing"),
                       ("minimum = 100\nmaximum = 10\n", "at least the minimum"),
                       ("minimum = 10\nmaximum = 100\nmost = 3\n", "unknown key"),
                       ("minimum = 10.5\nmaximum = 100\n", "not a decimal number")):
        with pytest.raises(ConfigError, match=why) as err:
            parse(_toml(tmp_path, bounds=f"[limits_bounds]\n{wrong}"))
        assert "line" in str(err.value)


def test_the_inspector_changes_a_bets_limits_between_rounds_in_force_for_the_next_bet(
        tmp_path: Path) -> None:
    s, configs = _open(parse(_toml(tmp_path)))
    assert _banker(s) == (5_000, 5_000_000)
    _change(s)
    assert _banker(s) == (20_000, 2_000_000)
    rows = [(e.kind, dict(e.payload)) for e in s.journal.entries()][-3:]
    assert [k for k, _p in rows] == ["override", "limits_changed", "coup_table_opened"] or \
        [k for k, _p in rows][:2] == ["override", "limits_changed"]
    override, change = rows[0][1], rows[1][1]
    assert (override["action"], override["role"], override["person"], override["reason"]) \
        == ("limit_change", "inspector", "9001", "Inspector's decision")
    assert (change["bet"], change["minimum"], change["maximum"]) == ("banker", 20_000,
                                                                     2_000_000)
    assert json.loads(str(change["data"]))["limits"]["banker"] == {"minimum": "200",
                                                                    "maximum": "20000"}
    assert configs.config.rules.limits == s.game.rules_of(s.state).limits
    s.perform(pb.shuffle)
    with pytest.raises(NotAllowed, match="2.2"):  # over the new maximum
        s.perform(lambda st: pb.place_bet(st, "2", pb.BetKind.BANKER, 2_500_000))
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    with pytest.raises(NotAllowed, match="R200 minimum") as err:  # under the new minimum
        s.perform(pb.close_betting)
    assert "2.2" in str(err.value)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    s.perform(pb.close_betting)  # R200 on banker: within the new limits


@pytest.mark.parametrize(("pid", "pin", "reason", "lo", "hi", "error", "why"), [
    ("1001", "1111", "Inspector's decision", 20_000, 2_000_000, RoleRefused,
     "needs the inspector's PIN"),
    ("9001", "3334", "Inspector's decision", 20_000, 2_000_000, RoleRefused, "Wrong id or PIN"),
    ("9001", "3333", "  ", 20_000, 2_000_000, RoleRefused, "Give a reason"),
    ("9001", "3333", "Inspector's decision", 500, 2_000_000, LimitRefused,
     "outside the bounds the house set"),
    ("9001", "3333", "Inspector's decision", 20_000, 20_000_000, LimitRefused,
     "outside the bounds the house set"),
    ("9001", "3333", "Inspector's decision", 30_000, 20_000, LimitRefused,
     "at most the maximum"),
    ("9001", "3333", "Inspector's decision", 20_001, 2_000_000, LimitRefused, "whole chips"),
])
def test_a_change_is_refused_without_the_role_a_reason_or_outside_the_bounds(
        tmp_path: Path, pid: str, pin: str, reason: str, lo: int, hi: int,
        error: type[Exception], why: str) -> None:
    s, _configs = _open(parse(_toml(tmp_path)))
    before = s.journal.count()
    with pytest.raises(error, match=why):
        _change(s, pid, pin, reason, lo, hi)
    assert s.journal.count() == before  # nothing on record (a wrong PIN is counted)
    assert _banker(s) == (5_000, 5_000_000)


def test_a_change_is_refused_during_a_round_and_without_bounds_or_people(
        tmp_path: Path) -> None:
    s, _configs = _open(parse(_toml(tmp_path)))
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    before = s.journal.count()
    with pytest.raises(LimitRefused, match="between rounds"):
        _change(s)
    assert s.journal.count() == before and _banker(s) == (5_000, 5_000_000)
    s.journal.close()

    other = tmp_path / "b"
    other.mkdir()
    s, _configs = _open(parse(_toml(other, bounds="")))
    with pytest.raises(LimitRefused, match="no bounds"):
        _change(s)
    s.journal.close()
    third = tmp_path / "c"
    third.mkdir()
    s, _configs = _open(parse(_toml(third, people="")))
    with pytest.raises(RoleRefused, match="no people list"):
        _change(s)
    assert s.journal.count() == 0 or s.journal.last_of_kind("limits_changed") is None


def test_a_change_is_kept_after_a_restart_and_replaced_by_a_newer_pit_version(
        tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    cfg = parse(_toml(tmp_path, key=public_key_hex(key)), tmp_path / "table.toml")
    s, configs = _open(cfg)
    body = "[punto_banco.limits]\nbanker = { minimum = 100, maximum = 30000 }\n" + BOUNDS
    write_offer(cfg.journal, SignedConfig("T1", 1, body, "2026-11-28T10:00:00.000Z",
                                          "Naidoo").signed(key))
    configs.poll()
    assert _banker(s) == (10_000, 3_000_000)
    _change(s)  # after the pit's version 1
    s.journal.close()

    s, configs = _open(cfg)  # a restart: the change stands over version 1
    assert _banker(s) == (20_000, 2_000_000)
    assert configs.config.rules.limits == s.game.rules_of(s.state).limits
    assert configs.version == 1
    write_offer(cfg.journal, SignedConfig("T1", 2, body.replace("30000", "40000"),
                                          "2026-11-28T11:00:00.000Z", "Naidoo").signed(key))
    configs.poll()
    assert _banker(s) == (10_000, 4_000_000)  # the newer version replaces the change
    s.journal.close()
    s, configs = _open(cfg)
    assert _banker(s) == (10_000, 4_000_000)
    desk = limits.desk(s)
    assert desk is not None and desk.bounds == LimitBounds(1_000, 10_000_000)


def test_the_replay_says_who_changed_the_limits_before_the_round(tmp_path: Path) -> None:
    from kiosk.replay import replay
    from kiosk.rules.cards import Card

    s, _configs = _open(parse(_toml(tmp_path)))
    _change(s, reason="A tournament")
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 20_000))
    s.perform(pb.close_betting)
    for code in ("4H", "3C", "KD", "4S", "2C"):
        s.perform(lambda st, c=code: pb.shoe_card(st, Card.parse(c)))
    s.perform(pb.confirm_payouts)
    report = replay(s.journal.entries())
    assert report.ok, report.problems
    assert report.rounds[-1].who() == (
        ("inspector", "9001 Naidoo: limit change (A tournament)"),)
    assert report.rounds[-1].as_json()["overrides"][0]["detail"] == "banker R200 to R20,000"
    from pit.drawing import who_did_what  # what the pit's round page lists

    assert who_did_what(report.rounds[-1]) == (
        ("inspector", "9001 Naidoo: limit change (A tournament)"),)


@pytest.mark.parametrize("game", ["blackjack", "touch-21", "arizona", "paigow",
                                  "mini-baccarat"])
def test_every_game_with_limits_of_this_shape_takes_a_change(tmp_path: Path, game: str) -> None:
    import re

    from kiosk.config import example
    from kiosk.rules.registry import GAMES

    text = re.sub(r'journal = "[^"]*"', f'journal = "{tmp_path / "T1.db"}"', example(game))
    cfg = parse(text + BOUNDS + PEOPLE)
    spec = GAMES.get(game)
    s: Any = TableSession(spec.engine, Journal.open(cfg.journal, cfg.table_id), cfg.rules,
                          cfg.table_id)
    PitConfigs(s, cfg)
    desk = limits.desk(s)
    assert desk is not None
    bet = limits.bet_limits(s.game.rules_of(s.state))[-1].bet
    limits.change_limits(s, desk, "9001", "3333", "A tournament", bet, 2_000, 200_000)
    assert limits.bet_limits(s.game.rules_of(s.state))[-1] == limits.BetLimit(bet, 2_000,
                                                                               200_000)
    s.journal.close()
    again, problem = effective(cfg, Journal.open(cfg.journal, cfg.table_id, read_only=True))
    assert problem == "" and limits.bet_limits(again.rules)[-1].minimum == 2_000


def test_roulette_changes_its_limits_at_the_pit_only(tmp_path: Path) -> None:
    from kiosk.rules.registry import GAMES

    assert limits.bet_limits(GAMES.get("roulette").rules()) == ()
    with pytest.raises(LimitRefused, match="no limits to change"):
        limits.check_change(LimitBounds(1_000, 100_000), (), "", 2_000, 20_000, "R")


def test_the_pit_signs_bounds_and_refuses_bad_ones_before_it_signs() -> None:
    from kiosk.signed_config import check_body

    assert check_body(BOUNDS).limits_bounds == LimitBounds(1_000, 10_000_000)
    with pytest.raises(ConfigError, match="limits_bounds.maximum: must be at least"):
        check_body("[limits_bounds]\nminimum = 100\nmaximum = 10\n")


def test_a_reader_that_loads_no_configuration_knows_the_record(tmp_path: Path) -> None:
    """The replay and the pit read journals without the kiosk's configuration: the record
    is the roles' own, so they know it (a fresh interpreter, to load only what they do)."""
    import subprocess
    import sys

    s, _configs = _open(parse(_toml(tmp_path)))
    _change(s)
    s.journal.close()
    code = ("import sys\nfrom kiosk.replay import replay\nfrom kiosk.store.journal import "
            "Journal\nj = Journal.open(sys.argv[1], 'T1', read_only=True)\n"
            "r = replay(j.entries())\nprint(r.ok, r.problems)\n"
            "assert 'kiosk.config' not in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "T1.db")],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True []"


def test_a_restart_keeps_the_change_over_the_files_other_settings_edited_since(
        tmp_path: Path) -> None:
    cfg = parse(_toml(tmp_path))
    s, _configs = _open(cfg)
    _change(s)
    s.journal.close()
    edited = parse(_toml(tmp_path) + "[punto_banco]\ndecks = 6\n")
    s, configs = _open(edited)
    assert _banker(s) == (20_000, 2_000_000)
    assert s.game.rules_of(s.state).decks == configs.config.rules.decks == 6
