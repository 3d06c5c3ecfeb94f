"""The sign's limits read from three metres ("about 15 mm cap height at
1080p on a 24-inch panel"). At 1920x1080 on a 24" panel the usual limits' figures stand at
least 15 mm tall (15.2 mm measured on every sign), and the largest the configuration allows
(R10,000,000, eleven characters, drawn a little smaller rather than cut) at least 14.5 mm
(14.9 mm on the baccarat sign's plaques). They stood at 13.5 mm on the baccarat sign and
14.8 mm on the roulette sign until the plaques and the limits panel were given their height:
a row's height, not its width, set the figures' size."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from kiosk.ui.fonts import cap_height
from tests.ui.conftest import UI, start_app
from tests.ui.test_layout_signs import LONGEST_NAME, _bj_state, _pb_journal, _rl_state

PANEL_MM = 24 * 25.4 * 16 / math.hypot(16, 9)  # a 24" 16:9 panel is 531 mm wide
PX_PER_MM = 1920 / PANEL_MM
THREE_METRES_MM = 15.0
LARGEST_MM = 14.5


def _tall(label: Any) -> float:
    return float(cap_height(label.font_size)) / PX_PER_MM


def _amounts(rows: list[Any]) -> list[tuple[str, float]]:
    return [(row.ids.amount.text, round(_tall(row.ids.amount), 1)) for row in rows]


def _short(found: list[tuple[str, float]], least: float = THREE_METRES_MM) -> list[str]:
    return [f"{text} is {mm} mm tall" for text, mm in found if mm < least]


def _pb_usual(path: Path) -> Any:
    from kiosk.rules.baccarat import engine as pb
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession

    session = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), pb.PuntoBancoRules(),
                           "PB-01")
    session.perform(pb.shuffle)
    return session


@pytest.mark.parametrize(("limits", "least", "shown"), [
    ("usual", THREE_METRES_MM, {"R50", "R10", "R50,000", "R5,000"}),
    ("largest", LARGEST_MM, {"R1,000", "R10,000", "R1,000,000", "R10,000,000"})])
def test_the_punto_banco_limits_read_from_three_metres(ui: UI, tmp_path: Path, limits: str,
                                                       least: float, shown: set[str]) -> None:
    from kiosk.ui.signage.app import SignageApp

    path = tmp_path / "t.db"
    session = _pb_usual(path) if limits == "usual" else _pb_journal(path)
    app = start_app(ui, SignageApp(path, LONGEST_NAME))
    ui.resize(1920, 1080)
    ui.pump(0.2)
    plaques = list(app.screen.ids.plaques.children)
    found = _amounts([row for p in plaques for row in (p.ids.min_row, p.ids.max_row)])
    assert {text for text, _ in found} == shown
    assert _short(found, least) == []
    session.journal.close()


@pytest.mark.parametrize("limits", ["usual", "largest"])
def test_the_blackjack_limits_read_from_three_metres(ui: UI, limits: str) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from tests.ui.test_signage_blackjack import RULES, Play

    rules, state = (RULES, Play(RULES).ready().state) if limits == "usual" else _bj_state()
    view = BlackjackSignage(table_name=LONGEST_NAME)
    view.show(rules, state)
    ui.window.add_widget(view)
    ui.resize(1920, 1080)
    ui.pump(0.2)
    found = _amounts([view.ids.min_line, view.ids.max_line])
    assert [text for text, _ in found] == (["R50", "R10,000"] if limits == "usual"
                                           else ["R1,000,000", "R10,000,000"])
    assert _short(found) == []


@pytest.mark.parametrize("limits", ["usual", "largest"])
def test_the_roulette_limits_read_from_three_metres(ui: UI, limits: str) -> None:
    from kiosk.rules.roulette import engine as rl
    from kiosk.ui.signage.link import Link
    from kiosk.ui.signage.roulette_view import RouletteSignage

    state = (rl.RouletteState(rl.RouletteRules(), "RL-01") if limits == "usual"
             else _rl_state())
    view = RouletteSignage(table_name=LONGEST_NAME)
    view.show(state, Link.LIVE)
    ui.window.add_widget(view)
    ui.resize(1920, 1080)
    ui.pump(0.2)
    found = _amounts(list(reversed(view.ids.limits.children)))
    assert [text for text, _ in found] == (
        ["R5", "R500", "R5,000", "R20,000"] if limits == "usual"
        else ["R1,000", "R1,000,000", "R10,000,000", "R10,000,000"])
    assert _short(found, THREE_METRES_MM if limits == "usual" else LARGEST_MM) == []
