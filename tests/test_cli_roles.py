"""The technician's self-test and the PINs' command (docs/roles.md): a table with a people
list runs the self-test only for a technician's id and PIN, with their approval on record
before the results; `pit pin` prints a person's entry with the PIN hashed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import example, parse
from kiosk.store.journal import Journal
from kiosk.table.roles import Role, check_pin, people_toml


def _table(tmp_path: Path) -> Path:
    cfg_file = tmp_path / "table.toml"
    people = people_toml([("4471", "Thandi", Role.DEALER, "1111"),
                          ("7001", "Sipho", Role.TECHNICIAN, "4444")])
    cfg_file.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                        + people)
    cfg_file.chmod(0o600)
    return cfg_file


def _kinds(tmp_path: Path) -> list[str]:
    if not (tmp_path / "j.db").exists():
        return []
    with Journal.open(tmp_path / "j.db", "PB-01") as journal:
        return [e.kind for e in journal.entries()]


def test_the_self_test_needs_a_technicians_pin_and_puts_it_on_record(tmp_path: Path) -> None:
    cfg_file = _table(tmp_path)
    env = {"GPIOZERO_PIN_FACTORY": "mock"}
    for who, pin, why in (("7001", "4445", "Wrong id or PIN"),
                          ("4471", "1111", "4471 may not do this: it needs the technician's")):
        out = CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.2",
                                        "--technician", who], input=f"{pin}\n", env=env)
        assert out.exit_code == 2, out.output
        assert why in out.output and "device shoe" not in out.output
        # Nothing ran; only the wrong PIN is on record (it counts towards the lockout).
        assert _kinds(tmp_path) == ["pin_refused"]
    out = CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.2",
                                    "--reason", "shoe replaced"], input="7001\n4444\n",
                             env=env)
    assert "device shoe" in out.output, out.output
    with Journal.open(tmp_path / "j.db", "PB-01") as journal:
        rows = list(journal.entries())
    assert [r.kind for r in rows[:2]] == ["pin_refused", "override"]
    assert dict(rows[0].payload) == {"person": "7001"}  # the id, never the PIN
    assert dict(rows[1].payload) == {"action": "self_test", "role": "technician",
                                     "person": "7001", "name": "Sipho",
                                     "reason": "shoe replaced", "detail": ""}
    assert {r.kind for r in rows[2:]} == {"selftest"}


def _selftest(cfg_file: Path, who: str, pin: str) -> Any:
    return CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.2",
                                     "--technician", who], input=f"{pin}\n",
                              env={"GPIOZERO_PIN_FACTORY": "mock"})


def test_the_self_tests_wrong_pins_count_towards_the_lockout(tmp_path: Path) -> None:
    cfg_file = _table(tmp_path)
    for left in (4, 3, 2, 1):  # one try a run, counted across runs
        out = _selftest(cfg_file, "7001", "0000")
        assert out.exit_code == 2
        assert f"Wrong id or PIN ({left} more wrong before a lockout)" in out.output
    out = _selftest(cfg_file, "7001", "0000")  # the fifth in a row: locked out, on record
    assert out.exit_code == 2 and "7001 is locked out after too many wrong PINs: 15" in (
        out.output)
    with Journal.open(tmp_path / "j.db", "PB-01") as journal:
        locked = journal.last_of_kind("pin_locked_out")
        assert locked is not None
        assert dict(locked.payload) == {"person": "7001", "attempts": 5, "seconds": 900}
    out = _selftest(cfg_file, "7001", "4444")  # even the right PIN, while it runs
    assert out.exit_code == 2 and "locked out" in out.output and "device shoe" not in (
        out.output)
    assert "selftest" not in _kinds(tmp_path)
    # The running table honours the self-test's lockout on a restart (its own restore).
    from kiosk.rules.baccarat import engine as pb
    from kiosk.table.roles import LockedOut
    from kiosk.table.session import TableSession

    cfg = parse(cfg_file.read_text(), cfg_file)
    with Journal.open(cfg.journal, cfg.table_id) as journal:
        session: Any = TableSession(pb.PuntoBanco(), journal, cfg.rules, cfg.table_id)
        session.set_people(cfg.people)
        with pytest.raises(LockedOut):
            session.check_pin("7001", "4444")


def test_a_right_pin_starts_the_self_tests_count_again(tmp_path: Path) -> None:
    cfg_file = _table(tmp_path)
    for _ in range(4):
        assert _selftest(cfg_file, "7001", "0000").exit_code == 2
    assert "device shoe" in _selftest(cfg_file, "7001", "4444").output
    out = _selftest(cfg_file, "7001", "0000")
    assert "Wrong id or PIN (4 more wrong before a lockout)" in out.output


def test_pit_pin_prints_an_entry_with_the_pin_hashed(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["pit", "pin", "9001", "--name", "Naidoo", "--role",
                                    "inspector", "--pin-stdin"], input="3333\n")
    assert out.exit_code == 0, out.output
    assert "3333" not in out.output
    cfg = parse('[table]\nid = "T1"\n[devices.shoe]\nport = "simulated"\n[people]\n'
                + out.output)
    person = cfg.people.get("9001")
    assert person is not None and person.role is Role.INSPECTOR and person.name == "Naidoo"
    assert check_pin("3333", person.pin_hash)
    out = CliRunner().invoke(main, ["pit", "pin", "9001", "--pin-stdin"], input="12\n")
    assert out.exit_code == 2 and "a PIN is 4 to 8 digits" in out.output
