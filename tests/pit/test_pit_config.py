"""Configuration from the pit: versioned, signed with Ed25519, checked by the
table against the key from enrolment, applied only between rounds and on record (old version
-> new), refused on record and alerted at the pit when it is not the pit's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.config import ConfigError, TableConfig, parse, with_pit
from kiosk.replay import load_entries, replay
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.rules.registry import GAMES
from kiosk.store.journal import Journal
from kiosk.sync.client import SyncClient
from kiosk.sync.offers import PitConfigs, effective_file
from kiosk.sync.pit_config import (
    PitConfigError,
    SignedConfig,
    offer_path,
    public_key_hex,
    read_offer,
    verify,
    write_offer,
)
from kiosk.table.records import PitConfigApplied, PitConfigRefused
from kiosk.table.session import Severity, TableSession
from pit.app import open_pit
from pit.configs import BadConfig, load_or_create_key
from tests.pit.conftest import PitServer

LIMITS_V1 = """\
[punto_banco.limits]
banker = { minimum = 100, maximum = 20000 }
player = { minimum = 100, maximum = 20000 }
tie = { minimum = 20, maximum = 2000 }
"""


def _table_toml(tmp: Path, pit_url: str = "", key: str = "") -> str:
    sync = (f'[sync]\npit = "{pit_url}"\ncredential_file = "T1.credential"\n'
            f'pit_key = "{key}"\n') if pit_url else ""
    return (f'[table]\nid = "T1"\nname = "Punto banco 1"\ngame = "punto-banco"\n'
            f'journal = "{tmp / "T1.db"}"\n[chips]\nsmallest = 5\n'
            f'[devices.shoe]\nport = "simulated"\n[devices.wheel]\nport = "simulated"\n'
            f'{sync}')


def _session(cfg: TableConfig) -> TableSession[pb.PuntoBancoState]:
    cfg, problem = effective_file(cfg)
    assert problem == ""
    return TableSession(GAMES.get(cfg.game), Journal.open(cfg.journal, cfg.table_id),
                        cfg.rules, cfg.table_id)


# --- signing -------------------------------------------------------------------------------


def _doc(key: Ed25519PrivateKey, version: int = 1, table: str = "T1",
         body: str = LIMITS_V1) -> SignedConfig:
    return SignedConfig(table, version, body, "2026-11-25T10:00:00.000Z", "Thandi").signed(key)


def test_a_signed_configuration_passes_and_any_change_to_it_fails() -> None:
    key = Ed25519PrivateKey.generate()
    public = public_key_hex(key)
    doc = _doc(key)
    verify(doc, public, "T1")  # the pit's own: passes
    for field, value in (("body", LIMITS_V1.replace("20000", "200000")), ("version", 2),
                         ("table_id", "T2"), ("created_by", "someone"),
                         ("created_at", "2026-11-25T10:00:01.000Z")):
        forged = dataclasses.replace(doc, **{field: value})
        with pytest.raises(PitConfigError, match="not signed by this table's pit"):
            verify(forged, public, str(forged.table_id))
    with pytest.raises(PitConfigError, match="not signed by this table's pit"):
        verify(doc, public_key_hex(Ed25519PrivateKey.generate()), "T1")  # another pit's key
    with pytest.raises(PitConfigError, match="is not signed"):
        verify(dataclasses.replace(doc, signature=""), public, "T1")
    with pytest.raises(PitConfigError, match="malformed"):
        verify(dataclasses.replace(doc, signature="zz" * 64), public, "T1")
    with pytest.raises(PitConfigError, match="table T2's"):  # signed, but for another table
        verify(_doc(key, table="T2"), public, "T1")
    with pytest.raises(PitConfigError, match="no pit_key"):
        verify(doc, "", "T1")


def test_the_signature_covers_a_domain_line_not_just_the_fields() -> None:
    key = Ed25519PrivateKey.generate()
    doc = _doc(key)
    assert doc.message().startswith(b"tableside pit configuration v1\n")
    assert json.loads(doc.message().split(b"\n", 1)[1]) == {
        "table_id": "T1", "version": 1, "body": LIMITS_V1,
        "created_at": "2026-11-25T10:00:00.000Z", "created_by": "Thandi"}


# --- reading a body over the table's own file ------------------------------------------------


def test_the_pits_sections_replace_the_tables_own_and_nothing_else(tmp_path: Path) -> None:
    cfg = parse(_table_toml(tmp_path).replace('[devices.shoe]\nport = "simulated"',
                                              '[devices.shoe]\nport = "/dev/ttyUSB3"'))
    new = with_pit(cfg, LIMITS_V1 + '[table]\nname = "High limit 1"\n[chips]\nsmallest = 10\n')
    assert new.rules.limit(pb.BetKind.BANKER).maximum == 2_000_000  # R20,000 in cents
    assert new.rules.limit(pb.BetKind.BANKER).minimum == 10_000
    assert new.name == "High limit 1" and new.rules.chips.smallest_chip == 1_000
    assert new.table_id == "T1" and new.journal == cfg.journal  # the table's own
    assert new.shoe.port == "/dev/ttyUSB3"
    assert cfg.rules.limit(pb.BetKind.BANKER).maximum == 5_000_000  # the file, untouched


@pytest.mark.parametrize(("body", "words"), [
    ('[devices.shoe]\nport = "/dev/ttyS0"\n', r"\[devices\]: the pit sets"),
    ('[table]\nid = "T9"\n', r"table.id: the pit may not set it"),
    ('[table]\njournal = "/tmp/x.db"\n', r"table.journal: the pit may not set it"),
    ("[punto_banco]\nareas = 20\n", r"line 2: punto_banco.areas"),
    ("[punto_banco.limits]\nbanker = { minimum = 100, maximum = 12.5 }\n", r"line 2"),
    ("[chips\n", r"not valid TOML"),
])
def test_a_body_the_table_cannot_run_is_refused_with_its_line(tmp_path: Path, body: str,
                                                               words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        with_pit(parse(_table_toml(tmp_path)), body)


# --- the pit's versions ------------------------------------------------------------------


def test_versions_are_numbered_signed_and_checked_before_they_are_kept(
        pit_url: str, tmp_path: Path) -> None:
    state = open_pit(pit_url, tmp_path / "pit.key")
    state.store.enroll("T1")
    one = state.configs.publish("T1", LIMITS_V1, "Thandi")
    two = state.configs.publish("T1", "[chips]\nsmallest = 10\n", "Sipho")
    assert (one.version, two.version) == (1, 2)
    verify(two, state.configs.public_key, "T1")
    with pytest.raises(BadConfig, match="line 2: punto_banco.areas"):
        state.configs.publish("T1", "[punto_banco]\nareas = 20\n", "Thandi")
    assert [d.version for d in state.configs.versions("T1")] == [2, 1]
    assert state.configs.latest("T1") == two
    assert state.configs.latest("T2") is None


def test_the_signing_key_is_kept_in_its_own_file_and_reused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLESIDE_PIT_KEY")
    path = tmp_path / "pit.key"
    first = load_or_create_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert public_key_hex(load_or_create_key(path)) == public_key_hex(first)
    pit = open_pit(str(tmp_path / "pit.db"))  # beside an SQLite pit by default
    assert (tmp_path / "pit.key").exists()
    assert pit.configs.public_key == public_key_hex(first)


def test_the_api_gives_a_table_only_its_own_newer_version(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    t1, t2 = state.store.enroll("T1"), state.store.enroll("T2")
    server = PitServer(state).start()
    try:
        url = f"{server.url}/api/v1/tables/T1/config"
        auth = {"Authorization": f"Bearer {t1}"}
        assert httpx.get(url, headers=auth).status_code == 204  # nothing yet
        state.configs.publish("T1", LIMITS_V1, "Thandi")
        got = httpx.get(url, headers=auth)
        assert got.status_code == 200
        verify(SignedConfig.from_json(got.json()), state.configs.public_key, "T1")
        assert httpx.get(url, headers=auth, params={"after": 1}).status_code == 204
        assert httpx.get(url, headers=auth, params={"after": "x"}).status_code == 400
        other = httpx.get(url, headers={"Authorization": f"Bearer {t2}"})
        assert other.status_code == 403 and "T2's" in other.json()["error"]
        assert httpx.get(url).status_code == 401
    finally:
        server.stop()


# --- the table takes it up between rounds ----------------------------------------------------


def _bet(state: pb.PuntoBancoState, cents: int) -> pb.Operation:
    return pb.place_bet(state, "1", pb.BetKind.BANKER, cents)


def test_a_new_version_waits_for_the_round_then_goes_on_record(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("T1")
    server = PitServer(state).start()
    (tmp_path / "T1.credential").write_text(token)
    cfg = parse(_table_toml(tmp_path, server.url, state.configs.public_key),
                tmp_path / "table.toml")
    try:
        session = _session(cfg)
        configs = PitConfigs(session, cfg)
        session.perform(pb.shuffle)
        session.perform(lambda s: _bet(s, 3_000_000))  # R30,000: the file's limit is R50,000
        state.configs.publish("T1", LIMITS_V1, "Thandi")
        client = SyncClient(cfg.journal, "T1", server.url, token)
        assert client.fetch_config()
        assert read_offer(cfg.journal).version == 1  # type: ignore[union-attr]
        configs.poll()
        # A round is in play: the bet stands under the limits it was placed under.
        assert configs.pending is not None
        assert session.journal.last_of_kind(PitConfigApplied.kind) is None
        assert session.alerts[-1].severity is Severity.INFO
        assert "version 1" in session.alerts[-1].message
        assert "takes effect when this coup is over" in session.alerts[-1].way_forward
        session.perform(lambda s: pb.void_round(s, "Inspector's decision"))
        configs.poll()
        rows = list(session.journal.entries(session.journal.count() - 2))
        assert [r.kind for r in rows] == ["pit_config_applied", "punto_banco.table_opened"]
        applied = rows[0].payload
        assert (applied["previous"], applied["version"], applied["signed_by"]) == (0, 1,
                                                                                 "Thandi")
        assert applied["summary"] == "limits R100 to R20,000"
        assert applied["body"] == LIMITS_V1
        assert session.state.rules.limit(pb.BetKind.BANKER).maximum == 2_000_000
        with pytest.raises(NotAllowed, match="20,000"):
            session.perform(lambda s: _bet(s, 3_000_000))
        session.perform(lambda s: _bet(s, 1_000_000))
        # A restart runs the version in force, with nothing re-opened.
        count = session.journal.count()
        session.journal.close()
        again = _session(cfg)
        assert again.journal.count() == count
        assert again.state.rules.limit(pb.BetKind.BANKER).maximum == 2_000_000
        assert PitConfigs(again, cfg).version == 1
        # The rows reach the pit; its floor shows the new limits; replay agrees.
        client.sync_all()
        client.close()
        assert state.floor.catch_up("T1")["limits"] == "R100 to R20,000"
        report = replay(load_entries(cfg.journal))
        assert report.ok, report.problems
        again.journal.close()
    finally:
        server.stop()


def test_a_forged_or_stale_version_is_refused_on_record_and_alerted_at_the_pit(
        tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("T1")
    server = PitServer(state).start()
    cfg = parse(_table_toml(tmp_path, server.url, state.configs.public_key),
                tmp_path / "table.toml")
    try:
        session = _session(cfg)
        configs = PitConfigs(session, cfg)
        state.configs.publish("T1", LIMITS_V1, "Thandi")
        # Someone with the pit's database (not its key) raises the limits of version 2.
        state.configs.publish("T1", LIMITS_V1, "Thandi")
        state.store.db.execute("UPDATE pit_configs SET body = ? WHERE version = 2",
                               (LIMITS_V1.replace("20000", "900000"),))
        client = SyncClient(cfg.journal, "T1", server.url, token)
        assert client.fetch_config()
        configs.poll()
        refused = session.journal.last_of_kind(PitConfigRefused.kind)
        assert refused is not None and refused.payload["version"] == 2
        assert "not signed by this table's pit" in refused.payload["reason"]
        assert session.alerts[-1].severity is Severity.STOP
        assert session.state.rules.limit(pb.BetKind.BANKER).maximum == 5_000_000  # unchanged
        configs.poll()  # the same document again: refused once, not on every look
        assert session.journal.count() == refused.seq
        # An unsigned document, and a stale one, are refused too.
        unsigned = dataclasses.replace(_doc(state.key, version=3), signature="")
        write_offer(cfg.journal, unsigned)
        configs.poll()
        assert "is not signed" in session.journal.last().payload["reason"]  # type: ignore
        write_offer(cfg.journal, _doc(state.key, version=4))
        configs.poll()  # a good one: between rounds, at once
        assert configs.version == 4
        write_offer(cfg.journal, _doc(state.key, version=3))
        configs.poll()
        assert "older than version 4" in session.journal.last().payload["reason"]  # type: ignore
        offer_path(cfg.journal).write_text("{not json")
        configs.poll()
        assert "not JSON" in session.journal.last().payload["reason"]  # type: ignore
        client.sync_all()
        client.close()
        alerts = [a for a in state.store.alerts() if a.kind == "config_refused"]
        assert len(alerts) == 4
        assert any("not signed by this table's pit" in a.message for a in alerts)
        session.journal.close()
    finally:
        server.stop()


def test_another_game_from_the_pit_restarts_the_kiosk_into_it(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    cfg = parse(_table_toml(tmp_path, "http://pit.invalid", public_key_hex(key)),
                tmp_path / "table.toml")
    session = _session(cfg)
    restarted: list[TableConfig] = []
    configs = PitConfigs(session, cfg, restarted.append)
    write_offer(cfg.journal, _doc(key, body='[table]\ngame = "blackjack"\n'
                                            "[blackjack]\nminimum = 25\nmaximum = 5000\n"))
    configs.poll()
    applied = session.journal.last()
    assert applied is not None and applied.kind == "pit_config_applied"
    assert applied.payload["summary"] == "the table now runs blackjack; limits R25 to R5,000"
    assert [c.game for c in restarted] == ["blackjack"]
    assert session.spec.name == "punto-banco"  # this session's screens end; a new start
    assert session.alerts[-1].way_forward == "The dealer screen restarts for it"
    session.journal.close()
    again = _session(cfg)  # what `tableside run` does when it starts again
    assert again.spec.name == "blackjack"
    assert again.state.rules.minimum == 2_500
    assert again.journal.last().kind == "blackjack.table_opened"  # type: ignore[union-attr]
    assert replay(load_entries(cfg.journal)).ok
    again.journal.close()


def test_limits_alone_change_live_without_a_restart(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    cfg = parse(_table_toml(tmp_path, "http://pit.invalid", public_key_hex(key)))
    session = _session(cfg)
    restarted: list[TableConfig] = []
    configs = PitConfigs(session, cfg, restarted.append)
    write_offer(cfg.journal, _doc(key))
    configs.poll()
    assert configs.version == 1 and restarted == []
    write_offer(cfg.journal, _doc(key, version=2, body="[chips]\nsmallest = 5\n"
                                                       "values = [5, 25, 100]\n"))
    configs.poll()  # other chip buttons: the screen is built again
    assert [c.chip_values for c in restarted] == [(500, 2_500, 10_000)]
    session.journal.close()


@pytest.mark.parametrize(("game", "body", "restarts"), [
    ("punto-banco", LIMITS_V1, False),
    ("punto-banco", '[punto_banco]\ncommission_mode = "commission"\n', True),
    ("blackjack", "[blackjack]\nminimum = 25\nmaximum = 5000\n", False),
    ("blackjack", "[blackjack]\nsurrender = true\n", True),
    ("blackjack", '[table]\ngame = "touch-21"\n', True),  # the same family, another game
    ("touch-21", "[blackjack]\ndecks = 1\n", True),
    ("roulette", "[roulette.limits]\nminimum_chip = 10\nstraight_up_maximum = 1000\n"
                 "outside_maximum = 10000\ntable_maximum = 40000\n", False),
    ("roulette", '[roulette]\nwheel = "double-zero"\n', True),
    ("roulette", '[table]\nname = "High limit 1"\n', True),
])
def test_only_a_change_the_screens_show_live_is_taken_without_a_restart(
        tmp_path: Path, game: str, body: str, restarts: bool) -> None:
    from kiosk.sync.offers import needs_restart

    cfg = parse(_table_toml(tmp_path).replace('game = "punto-banco"', f'game = "{game}"'))
    new = with_pit(cfg, body)
    assert cfg.rules != new.rules or cfg.name != new.name or cfg.game != new.game
    assert needs_restart(cfg, new) is restarts
    assert needs_restart(cfg, cfg) is False


# --- what config check refuses, neither side takes -------------------------------------------


def test_a_signed_version_config_check_refuses_is_refused_on_record_and_alerted(
        tmp_path: Path) -> None:
    """The pit's own key signs `[chips] smallest = 0` (the pit would not; a pit of an older
    version did): the table refuses it on record with the line and the reason, as `config
    check` does, and the pit raises "Configuration refused"; no traceback, no WARNING."""
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("T1")
    server = PitServer(state).start()
    cfg = parse(_table_toml(tmp_path, server.url, state.configs.public_key),
                tmp_path / "table.toml")
    try:
        session = _session(cfg)
        configs = PitConfigs(session, cfg)
        write_offer(cfg.journal, _doc(state.key, body="[chips]\nsmallest = 0\n"))
        configs.poll()
        refused = session.journal.last()
        assert refused is not None and refused.kind == PitConfigRefused.kind
        assert refused.payload["version"] == 1
        assert refused.payload["reason"] == (
            "the pit's configuration version 1, line 2: chips.smallest: must be positive, an "
            "amount from 0.01 to 10_000, not 0")
        assert [a.severity for a in session.alerts] == [Severity.STOP]
        assert configs.version == 0 and configs.pending is None
        assert session.state.rules.chips.smallest_chip == 500  # the table's own
        write_offer(cfg.journal, _doc(state.key, version=2, body=(
            "[punto_banco.limits]\nbanker = { minimum = 100, maximum = 1"
            + "0" * 30 + " }\n")))
        configs.poll()
        assert "line 2: punto_banco.limits.banker.maximum: must be an amount from 0.01 to " \
               "10_000_000" in session.journal.last().payload["reason"]  # type: ignore
        client = SyncClient(cfg.journal, "T1", server.url, token)
        client.sync_all()
        client.close()
        alerts = [a for a in state.store.alerts() if a.kind == "config_refused"]
        assert len(alerts) == 2
        assert any("version 1, line 2: chips.smallest: must be positive" in a.message
                   for a in alerts)
        session.journal.close()
    finally:
        server.stop()


def _governed(game: str) -> str:
    """The part of `game`'s example the pit may set: [chips] and the game's own sections."""
    from kiosk.config import example

    own = ("chips", GAMES.get(game).config.section)
    keep, out = False, []
    for line in example(game).splitlines():
        if line.startswith("["):
            keep = line[1:].split("]")[0].split(".")[0] in own
        if keep:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("game", GAMES.names())
def test_the_pit_never_signs_what_config_check_refuses(tmp_path: Path, game: str) -> None:
    """Each number the pit may set, just outside its range: `config check` refuses the
    table's file with it, and the pit refuses to sign it, with or without [table] game
    (a game's section alone is read as that game's, whatever the default game is)."""
    from kiosk.config import example
    from pit.configs import check_body
    from tests.test_config_ranges import _settings, _with

    body = _governed(game)
    check_body(body)  # the example's own values: signed
    check_body(f'[table]\ngame = "{game}"\n' + body)
    lines = body.splitlines()
    tried = 0
    for n, key, _value, span in _settings(body):
        assert span is not None
        lo, hi = span
        for outside in (lo - (1 if lo == int(lo) else lo.__class__("0.01")), hi + 1):
            edited = lines.copy()
            edited[n - 1] = _with(lines[n - 1], key, outside)
            bad = "\n".join(edited) + "\n"
            whole = example(game).replace(lines[n - 1], edited[n - 1], 1)
            with pytest.raises(ConfigError):
                parse(whole)  # config check refuses it ...
            for text in (bad, f'[table]\ngame = "{game}"\n' + bad):
                with pytest.raises(BadConfig, match=r"the configuration, line \d+: "):
                    check_body(text)  # ... and so does the pit
            tried += 1
    assert tried >= 4


def test_pit_config_file_refuses_a_bad_body_in_one_line_and_publishes_nothing(
        tmp_path: Path) -> None:
    from tests.pit.test_pit_cli import tableside

    assert tableside("pit", "enroll", "T1", "--db", "pit.db", cwd=tmp_path).returncode == 0
    (tmp_path / "bad.toml").write_text("[chips]\nsmallest = 0\n")
    out = tableside("pit", "config", "T1", "--db", "pit.db", "--file", "bad.toml",
                    cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("tableside: not published: the configuration, line 2: "
                          "chips.smallest: must be positive, an amount from 0.01 to 10_000, "
                          "not 0\n")
    (tmp_path / "bj.toml").write_text("[blackjack]\nminimum = 0\n")  # no [table] game
    out = tableside("pit", "config", "T1", "--db", "pit.db", "--file", "bj.toml",
                    cwd=tmp_path)
    assert out.returncode == 2 and "line 2: blackjack.minimum: must be positive" in out.stderr
    listed = tableside("pit", "config", "T1", "--db", "pit.db", cwd=tmp_path)
    assert listed.stdout == "Table T1 runs its own table.toml: the pit has no version for it\n"
