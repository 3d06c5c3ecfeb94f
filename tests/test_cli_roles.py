"""The technician's self-test and the PINs' command (docs/roles.md): a table with a people
list runs the self-test only for a technician's id and PIN, with their approval on record
before the results; `pit pin` prints a person's entry with the PIN hashed."""

from __future__ import annotations

from pathlib import Path

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
        assert _kinds(tmp_path) == []  # nothing ran, nothing on record
    out = CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.2",
                                    "--reason", "shoe replaced"], input="7001\n4444\n",
                             env=env)
    assert "device shoe" in out.output, out.output
    with Journal.open(tmp_path / "j.db", "PB-01") as journal:
        rows = list(journal.entries())
    assert rows[0].kind == "override"
    assert dict(rows[0].payload) == {"action": "self_test", "role": "technician",
                                     "person": "7001", "name": "Sipho",
                                     "reason": "shoe replaced", "detail": ""}
    assert {r.kind for r in rows[1:]} == {"selftest"}


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
