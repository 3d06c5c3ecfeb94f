"""The pit's signing key is the pit's, wherever it runs from: its place is part of the pit's
configuration (`--key`, or `[pit] key` in the file `--config` names), the database records
the public key it was first used with, and a pit that would sign with any other key refuses
to start (`pit serve`, `pit key` and `pit config` alike) and says why, publishing nothing.
On both of the pit's databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.signed_config import public_key_hex
from pit.app import open_pit
from pit.configs import SigningKeyError, load_or_create_key
from pit.db import Database, dialect_of
from tests.pit.test_pit_cli import tableside

LIMITS = "[punto_banco.limits]\nbanker = { minimum = 100, maximum = 20000 }\n"


def _versions(url: str) -> list[tuple[object, ...]]:
    db = Database(url)
    try:
        return db.query("SELECT table_id, version FROM pit_configs ORDER BY version")
    finally:
        db.close()


def test_the_database_records_its_key_and_refuses_another(pit_url: str, tmp_path: Path
                                                           ) -> None:
    mine, other = tmp_path / "pit.key", tmp_path / "elsewhere" / "pit.key"
    first = open_pit(pit_url, mine)
    public = first.configs.public_key
    assert public == public_key_hex(load_or_create_key(mine))
    first.store.enroll("T1")
    first.configs.publish("T1", LIMITS, "Thandi")
    row = first.store.db.one("SELECT public_key, key_file FROM pit_signing_key")
    assert row == (public, str(mine))
    # A second pit process with the same key file shares the database.
    second = open_pit(pit_url, mine)
    assert second.configs.public_key == public
    second.close()
    first.close()
    # Another key (a pit.key made in another folder) is refused, with both keys named.
    stranger = public_key_hex(load_or_create_key(other))
    with pytest.raises(SigningKeyError) as refused:
        open_pit(pit_url, other)
    words = str(refused.value)
    assert f"the signing key {other} (public key {stranger}) is not this pit's" in words
    assert f"signed with public key {public}, first used from {mine}" in words
    # A missing key file is not made afresh once the database has a key.
    gone = tmp_path / "nowhere" / "pit.key"
    with pytest.raises(SigningKeyError, match=f"the pit's signing key is not at {gone}"):
        open_pit(pit_url, gone)
    assert not gone.exists()
    assert _versions(pit_url) == [("T1", 1)]  # nothing signed with the wrong key


def test_a_database_from_before_the_record_is_checked_against_its_signatures(
        pit_url: str, tmp_path: Path) -> None:
    state = open_pit(pit_url, tmp_path / "a.key")
    state.store.enroll("T1")
    state.configs.publish("T1", LIMITS, "Thandi")
    state.store.db.execute("DELETE FROM pit_signing_key")  # as a pit before the record left it
    state.close()
    with pytest.raises(SigningKeyError, match="table T1's version 1 here was signed with "
                                              "another key"):
        open_pit(pit_url, tmp_path / "b.key")
    again = open_pit(pit_url, tmp_path / "a.key")  # the key it signed with: taken, recorded
    assert again.store.db.one("SELECT key_file FROM pit_signing_key") == (
        str(tmp_path / "a.key"),)
    again.close()


def test_a_pit_on_postgresql_must_be_told_where_its_key_is(
        pit_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLESIDE_PIT_KEY")
    if dialect_of(pit_url) == "sqlite":
        open_pit(pit_url).close()  # beside its file, as ever
        assert Path(pit_url).with_suffix(".key").exists()
        return
    with pytest.raises(SigningKeyError, match="a pit on PostgreSQL needs its signing key's "
                                              "place: --key FILE or \\[pit\\] key"):
        open_pit(pit_url)


def test_pit_key_and_pit_config_from_another_folder_refuse_another_key(
        pit_url: str, tmp_path: Path) -> None:
    home, other = tmp_path / "pit", tmp_path / "other"
    home.mkdir()
    other.mkdir()
    db = pit_url if "://" in pit_url else str(tmp_path / "pit.db")
    (home / "pit.toml").write_text(f'[pit]\ndb = "{db}"\nkey = "signing.key"\n')
    enrolled = tableside("pit", "enroll", "T1", "--config", "pit.toml", cwd=home)
    assert enrolled.returncode == 0, enrolled.stderr
    public = public_key_hex(load_or_create_key(home / "signing.key"))
    assert f'pit_key = "{public}"' in enrolled.stdout
    # From another folder, through the pit's configuration file: the same key.
    shown = tableside("pit", "key", "--config", str(home / "pit.toml"), cwd=other)
    assert (shown.returncode, shown.stdout) == (0, f"{public}\n"), shown.stderr
    # From another folder with a key of its own there: refused, and nothing published.
    (other / "bj.toml").write_text(LIMITS)
    stranger = public_key_hex(load_or_create_key(other / "pit.key"))
    for args in (["pit", "key", "--db", db, "--key", "pit.key"],
                 ["pit", "config", "T1", "--db", db, "--key", "pit.key", "--file",
                  "bj.toml"]):
        out = tableside(*args, cwd=other)
        assert out.returncode == 2, out.stdout
        assert out.stdout == ""
        assert out.stderr.startswith(f"tableside: the signing key {other / 'pit.key'} "
                                     f"(public key {stranger}) is not this pit's: "), out.stderr
        assert out.stderr.count("\n") == 1
    assert _versions(db) == []
    published = tableside("pit", "config", "T1", "--config", str(home / "pit.toml"),
                          "--file", str(other / "bj.toml"), cwd=other)
    assert published.returncode == 0, published.stderr
    assert _versions(db) == [("T1", 1)]
    if "://" in pit_url:  # PostgreSQL: no silent ./pit.key
        bare = tableside("pit", "key", "--db", db, cwd=other / "..")
        assert bare.returncode == 2
        assert "needs its signing key's place" in bare.stderr
        assert not (tmp_path / "pit.key").exists()
    (other / "typo.toml").write_text('[pit]\nkeys = "pit.key"\n')
    bad = tableside("pit", "key", "--config", "typo.toml", cwd=other)
    assert (bad.returncode, bad.stderr) == (
        2, "tableside: typo.toml: [pit] keys is not a setting of the pit (it has db, key, "
           "timezone, late_after, silent_after, shifts)\n")
