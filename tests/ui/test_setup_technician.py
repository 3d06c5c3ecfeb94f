"""The technician acts at the set-up screen (docs/roles.md, the Mpumalanga table game rules,
section 2): "Try the devices again" and "Run the self-test", each behind a reason and the
technician's id and PIN on the PIN pad, by touch. A dealer's or an inspector's PIN is
refused on the pad with the reason and nothing is approved; a wrong PIN counts towards the
lockout (on record when the table has a journal); with no technician on the list both
controls are greyed and say which role they need. Screenshots of each step are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.config import example
from kiosk.provision import not_set_up
from kiosk.store.journal import Journal
from kiosk.table.records import SelfTestResult
from kiosk.table.roles import Override, Role, people_toml
from kiosk.ui.setup_screen import SetupApp, SetupScreen, technicians
from tests.ui.conftest import UI
from tests.ui.layout import problems
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, language
from tests.ui.test_layout_dialogs import dialog_fits, the_dialog

__all__ = ["language"]  # the fixture, used by name

CONFIG = example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "PB-01.db"')
BROKEN = CONFIG.replace("commission_mode", "comission_mode")
PEOPLE = people_toml([("4471", "Thandi", Role.DEALER, "1111"),
                      ("9001", "Naidoo", Role.INSPECTOR, "3333"),
                      ("7001", "Sipho", Role.TECHNICIAN, "4444")])
NO_TECHNICIAN = people_toml([("4471", "Thandi", Role.DEALER, "1111")])


def _setup(tmp_path: Path, text: str, *, journal: bool = True,
           check: Any = None) -> tuple[SetupApp, SetupScreen, Path]:
    config = tmp_path / "table.toml"
    config.write_text(text)
    if journal:
        Journal.open(tmp_path / "PB-01.db", "PB-01").close()
    app = SetupApp(config, not_set_up(config), check=check)
    screen = app.build()
    app.stop_looking()  # the test looks itself
    return app, screen, config


def _key(ui: UI, pad: Any, digits: str) -> None:
    keys = {b.key: b for b in pad.keys}
    for d in digits:
        ui.tap(keys[d])
    ui.tap(keys["OK"])


def _rows(tmp_path: Path, kind: str) -> list[dict[str, Any]]:
    with Journal.open(tmp_path / "PB-01.db", "PB-01", read_only=True) as j:
        return [dict(e.payload) for e in j.entries() if e.kind == kind]


def test_the_list_is_read_from_a_file_that_does_not_load(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(BROKEN + PEOPLE)
    assert not_set_up(config)  # the table cannot start
    staff = technicians(config)
    assert staff.people.holds(Role.TECHNICIAN) and staff.table_id == "PB-01"
    assert staff.journal is None  # none yet: nothing goes on record
    Journal.open(tmp_path / "PB-01.db", "PB-01").close()
    assert technicians(config).journal == tmp_path / "PB-01.db"
    config.write_text("not = [toml")
    assert not technicians(config).people.checked


def test_the_list_the_pit_signed_last_stands_over_the_files(tmp_path: Path) -> None:
    """A table whose people come from the pit: the set-up screen takes the list on record in
    its journal (the last the pit signed), as the running table does; the file's own list
    stands when the journal holds none."""
    from kiosk.table.records import PitConfigApplied

    config = tmp_path / "table.toml"
    config.write_text(BROKEN + NO_TECHNICIAN)
    with Journal.open(tmp_path / "PB-01.db", "PB-01") as j:
        assert not technicians(config).people.holds(Role.TECHNICIAN)
        applied = PitConfigApplied(0, 3, "[limits]\n" + PEOPLE, "sig", "pit", "now", "people")
        j.append(applied.kind, applied.to_payload())
    staff = technicians(config)
    assert staff.people.holds(Role.TECHNICIAN) and staff.people.get("7001") is not None
    assert staff.journal == tmp_path / "PB-01.db"


def test_a_technician_tries_the_devices_again_by_touch(ui: UI, tmp_path: Path) -> None:
    app, screen, config = _setup(tmp_path, BROKEN + PEOPLE)
    ui.window.add_widget(screen)
    ui.pump(0.2)
    assert not screen.retry.disabled and not screen.selftest.disabled
    ui.screenshot("setup-technician-controls")
    ui.tap(screen.retry)
    pad = the_dialog(ui, "PinPad")
    assert pad.needs == "Needs the technician's PIN"
    ui.tap(pad.reason_buttons[0])  # "Device replaced"
    # The inspector's PIN is right, and refused: the act needs the technician's.
    _key(ui, pad, "9001")
    _key(ui, pad, "3333")
    assert pad.refusal_text == "9001 may not do this: it needs the technician's PIN"
    ui.screenshot("setup-technician-refused")
    # A wrong PIN counts towards the lockout, on record.
    _key(ui, pad, "9999")
    assert pad.refusal_text == "Wrong id or PIN (4 more wrong before a lockout)"
    assert _rows(tmp_path, "override") == []
    assert _rows(tmp_path, "pin_refused") == [{"person": "9001"}]
    pad.go("id")
    _key(ui, pad, "7001")
    _key(ui, pad, "4444")
    ui.pump(0.5)
    assert _rows(tmp_path, "override") == [
        {"action": "device_setup", "role": "technician", "person": "7001", "name": "Sipho",
         "reason": "Device replaced", "detail": ""}]
    assert screen.result.text == ("The configuration still does not load, so the table "
                                  "cannot start (above)")
    assert not app.ready
    ui.screenshot("setup-technician-still-not-loading")
    # The file put right: the next try opens the devices and starts the table.
    config.write_text(CONFIG + PEOPLE)
    screen.ask(Override.DEVICE_SETUP)
    pad = the_dialog(ui, "PinPad")
    ui.tap(pad.reason_buttons[3])  # "Routine check"
    _key(ui, pad, "7001")
    _key(ui, pad, "4444")
    assert (pad.person, pad.refusal_text) == ("7001", "")
    assert screen.result.text == "The devices answer: the table starts" and app.ready
    assert [r["reason"] for r in _rows(tmp_path, "override")] == ["Device replaced",
                                                                  "Routine check"]


def test_a_technician_runs_the_self_test_and_reads_it_on_screen(ui: UI,
                                                                tmp_path: Path) -> None:
    ran: list[Path] = []

    def check(config: Path) -> list[SelfTestResult]:
        ran.append(config)
        return [SelfTestResult("disk", True, "3.1 GB free"),
                SelfTestResult("device shoe", False, "no such device /dev/tableside-shoe")]

    _app, screen, config = _setup(tmp_path, BROKEN + PEOPLE, check=check)
    ui.window.add_widget(screen)
    ui.pump(0.2)
    ui.tap(screen.selftest)
    pad = the_dialog(ui, "PinPad")
    ui.tap(pad.reason_buttons[1])
    _key(ui, pad, "4471")  # a dealer: refused, nothing runs
    _key(ui, pad, "1111")
    assert pad.refusal_text == "4471 may not do this: it needs the technician's PIN"
    assert ran == []
    pad.go("id")
    _key(ui, pad, "7001")
    _key(ui, pad, "4444")
    for _ in range(30):
        ui.pump(0.1)
        if "checks passed" in screen.result.text:
            break
    assert ran == [config]
    assert screen.result.text.splitlines() == [
        "1 checks passed, 1 failed", "ok    disk: 3.1 GB free",
        "FAIL  device shoe: no such device /dev/tableside-shoe"]
    assert [r["action"] for r in _rows(tmp_path, "override")] == ["self_test"]
    from tests.ui.test_layout_dialogs import dialogs
    assert [(d.title, d.stage) for d in dialogs(ui)] == []
    ui.screenshot("setup-technician-selftest")


def test_without_a_journal_wrong_pins_still_lock_the_id_out(ui: UI, tmp_path: Path) -> None:
    _app, screen, _config = _setup(tmp_path, BROKEN + PEOPLE, journal=False)
    ui.window.add_widget(screen)
    pad = screen.ask(Override.SELF_TEST)
    pad.choose("Routine check")
    refusals = []
    for _ in range(6):
        pad.go("id")
        for d in "7001":
            pad.press(d)
        pad.press("OK")
        for d in "0000":
            pad.press(d)
        pad.press("OK")
        refusals.append(pad.refusal_text)
    assert refusals[0] == "Wrong id or PIN (4 more wrong before a lockout)"
    assert refusals[4] == refusals[5] and "locked out" in refusals[5]
    pad.go("id")
    for d in "7001":
        pad.press(d)
    pad.press("OK")
    for d in "4444":
        pad.press(d)
    pad.press("OK")  # the right PIN, refused while the lockout runs
    assert "locked out" in pad.refusal_text
    assert not (tmp_path / "PB-01.db").exists()
    pad.dismiss(animation=False)


def test_greyed_without_a_technician_and_says_which_role(ui: UI, tmp_path: Path) -> None:
    _app, screen, _config = _setup(tmp_path, BROKEN + NO_TECHNICIAN)
    ui.window.add_widget(screen)
    ui.pump(0.2)
    assert screen.retry.disabled and screen.selftest.disabled
    screen.retry.on_touch_down(_Touch(screen.retry))
    assert screen.result.text == ("Needs the technician's PIN: nobody on this table's list "
                                  "can give it")
    ui.pump(0.1)
    ui.screenshot("setup-technician-greyed")


class _Touch:
    """A touch on the middle of a widget (a greyed one: UI.tap refuses those)."""

    def __init__(self, widget: Any) -> None:
        self.pos = widget.center
        self.x, self.y = self.pos


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_setup_screen_and_its_pad_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                          language: str) -> None:
    _app, screen, _config = _setup(tmp_path, BROKEN + PEOPLE)
    ui.window.add_widget(screen)
    ui.resize_window(*size)
    ui.pump(0.2)
    screen.outcome = "\n".join(["FAIL  device shoe: no such device /dev/tableside-shoe"] * 3)
    ui.pump(0.1)
    assert problems(screen) == [], problems(screen)
    ui.screenshot(f"setup-technician-{_case((size, language))}")
    pad = screen.ask(Override.DEVICE_SETUP)
    dialog_fits(ui, the_dialog(ui, "PinPad"), (size, language), "setup-technician-pad")
    del pad
