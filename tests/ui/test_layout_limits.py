"""The inspector's limit change at the table (rule 2.2) on the dealer's screen, at every dealer
size and in every dealer language at 800x480: the "Change limits" button of the general
rules' panel, its dialog (a bet, its minimum and maximum on an amount pad, the house's
bounds), then the PIN pad; nothing cut off, overlapping or off the window, and what it says
goes on record by touch. Greyed without bounds, it says why. Screenshots
layout-dialog-floor-limits-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.config import parse
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import Journal
from kiosk.sync.offers import PitConfigs
from kiosk.table.session import TableSession
from tests.table.test_limits import _toml
from tests.ui.conftest import UI, start_app
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, language
from tests.ui.test_layout_dialogs import dialog_fits, dialogs, the_dialog
from tests.ui.test_layout_signs import LONGEST_NAME

__all__ = ["language"]  # the fixture, used by name


def _table(tmp: Path, bounds: bool = True) -> Any:
    cfg = parse(_toml(tmp) if bounds else _toml(tmp, bounds=""))
    session = TableSession(pb.PuntoBanco(), Journal.open(cfg.journal, "T1"), cfg.rules, "T1")
    PitConfigs(session, cfg)  # as the kiosk opens it: the bounds for the screens
    return session


def _tap(ui: UI, widget: Any) -> None:
    widget.dispatch("on_release")
    ui.pump(0.1)


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_limit_dialog_fits_and_records_by_touch(ui: UI, tmp_path: Path,
                                                    size: tuple[int, int],
                                                    language: str) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen, case = app.screen, (size, language)
    screen.open_floor()
    panel = the_dialog(ui, "FloorPanel")
    assert not panel.limits.disabled
    dialog_fits(ui, panel, case, "floor-panel-limits")
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").limits)
    dialog = the_dialog(ui, "LimitDialog")
    _tap(ui, dialog.bet_buttons["tie"])
    _tap(ui, dialog.field_buttons["minimum"])
    for key in "20":
        dialog.press(key)
    _tap(ui, dialog.field_buttons["maximum"])
    for key in "2000":
        dialog.press(key)
    assert dialog.amounts == {"minimum": 2_000, "maximum": 200_000}
    assert "2,000" in dialog.field_buttons["maximum"].text
    dialog_fits(ui, dialog, case, "floor-limits")

    # Outside the house's bounds: said on the dialog, no PIN asked.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").limits)
    dialog = the_dialog(ui, "LimitDialog")
    _tap(ui, dialog.bet_buttons["tie"])
    _tap(ui, dialog.field_buttons["maximum"])
    for key in "200000":
        dialog.press(key)
    _tap(ui, dialog.change)
    assert dialog.refusal_text and [type(d).__name__ for d in dialogs(ui)] == ["LimitDialog"]
    dialog.dismiss(animation=False)
    ui.pump(0.1)

    # Within them: the inspector's reason and PIN, then on record.
    screen.open_floor()
    _tap(ui, the_dialog(ui, "FloorPanel").limits)
    dialog = the_dialog(ui, "LimitDialog")
    _tap(ui, dialog.bet_buttons["tie"])
    _tap(ui, dialog.field_buttons["maximum"])
    for key in "2000":
        dialog.press(key)
    rows = session.journal.count()
    _tap(ui, dialog.change)
    pad = the_dialog(ui, "PinPad")
    _tap(ui, pad.reason_buttons[0])
    for key in [*"9001", "OK", *"3333", "OK"]:
        pad.press(key)
    ui.pump(0.2)
    assert dialogs(ui) == []
    kinds = [e.kind for e in session.journal.entries(rows)]
    assert kinds[:2] == ["override", "limits_changed"]
    tie = next(x for x in session.game.rules_of(session.state).limits
               if x.kind is pb.BetKind.TIE)
    assert (tie.minimum, tie.maximum) == (1_000, 200_000)  # the minimum as it was
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES[:1], indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES[:1]])
def test_without_bounds_the_control_is_greyed_and_says_why(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path, bounds=False)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    app.screen.open_floor()
    panel = the_dialog(ui, "FloorPanel")
    assert panel.limits.disabled
    panel.explain_refusal(panel.limits)
    assert "no bounds" in panel.refusal_text
    session.journal.close()


@pytest.mark.parametrize("code", ["af", "pt", "zu"])
def test_limits_not_in_whole_chips_are_refused_in_the_dealers_language(
        ui: UI, tmp_path: Path, code: str) -> None:
    """The smallest chip is R5: a tie maximum of R2,002 is no whole number of chips. The
    dialog refuses it before the PIN is asked, in the table's language (it came through as
    the configuration reader's English before)."""
    from kiosk import i18n
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _table(tmp_path)
    with i18n.using(code):
        app = start_app(ui, PuntoBancoDealerApp(session, table_name="T1"))
        app.screen.open_floor()
        _tap(ui, the_dialog(ui, "FloorPanel").limits)
        dialog = the_dialog(ui, "LimitDialog")
        _tap(ui, dialog.bet_buttons["tie"])
        _tap(ui, dialog.field_buttons["maximum"])
        for key in "2002":
            dialog.press(key)
        rows = session.journal.count()
        _tap(ui, dialog.change)
        assert [type(d).__name__ for d in dialogs(ui)] == ["LimitDialog"]  # no PIN asked
        said = dialog.refusal_text
        ui.screenshot(f"limits-not-whole-chips-{code}")
    assert session.journal.count() == rows
    want = {"af": "is nie heel fiches nie", "pt": "não são fichas inteiras",
            "zu": "akuwona amashibhi aphelele"}[code]
    assert want in said and "whole chips" not in said, said
    assert "R2" in said.replace(" ", "") and "R5" in said.replace(" ", "")
    dialog.dismiss(animation=False)
    session.journal.close()
