"""Outside the approved opening hours (the Mpumalanga table game rules, rule 2.4) the players'
sign says "Table closed" and the next opening time, between rounds, in the sign's languages
and at every sign size; within the hours, or once the inspector reopened the table, it shows
the game. Drawn for real; screenshots signage-hours-closed-*.png."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table import acts
from kiosk.table.hours import OpeningHours
from kiosk.table.session import TableSession
from kiosk.ui import theme
from kiosk.ui.signage.closed import ClosedSign, opens_words
from kiosk.ui.signage.link import heartbeat_path
from tests.ui.conftest import UI, start_app
from tests.ui.layout import contrast_problems, problems
from tests.ui.test_signage_screen import share

RULES = pb.PuntoBancoRules(chips=ChipRule(500))
NIGHTS = OpeningHours.from_mapping({"daily": "18:00-02:00", "sun": "closed"})


def local(text: str) -> datetime:
    """A SAST time (UTC+2) as an aware UTC moment; 2026-11-27 is a Friday."""
    return (datetime.fromisoformat(text) - timedelta(hours=2)).replace(tzinfo=UTC)


def _sign(ui: UI, path: Path) -> Any:
    from kiosk.ui.signage.app import SignageApp

    beat = heartbeat_path(path)  # the dealer app runs: the link is live, and stays so
    beat.touch()  # however long a busy machine takes (a beat older than 10 s pauses it)
    soon = datetime.now(UTC).timestamp() + 3600
    os.utime(beat, (soon, soon))
    app = start_app(ui, SignageApp(path, "Punto banco 1", hours=NIGHTS))
    ui.pump(0.2)
    return app


def test_outside_the_hours_the_sign_says_closed_and_when_it_opens(ui: UI,
                                                                   tmp_path: Path) -> None:
    when = local("2026-11-27 03:00")
    journal = Journal.open(tmp_path / "t.db", "PB-01", clock=lambda: when)
    session = TableSession(pb.PuntoBanco(), journal, RULES, "PB-01")
    session.hours = NIGHTS
    session.perform(pb.shuffle)
    app = _sign(ui, tmp_path / "t.db")
    try:
        app._show(local("2026-11-27 17:59"))
        ui.pump(0.1)
        sign = app.screen
        assert isinstance(sign, ClosedSign)
        assert (sign.words.text, sign.more.text) == ("Table closed", "Opens at 18:00")
        for size in ((1920, 1080), (800, 480), (1080, 1920)):
            ui.resize(*size)
            ui.pump(0.2)
            assert problems(sign) == [] and contrast_problems(ui.frame(), sign) == []
            assert share(ui.frame(), sign.more, theme.IVORY, step=2) > 0.01  # drawn
            ui.screenshot(f"signage-hours-closed-{size[0]}x{size[1]}")
        app._show(local("2026-11-29 03:00"))  # Sunday, closed all day: Monday's opening
        assert app.screen.more.text == "Opens at Mon 18:00"
        app._show(local("2026-11-27 18:00"))  # opening time: the game's sign
        ui.pump(0.1)
        assert type(app.screen).__name__ == "PuntoBancoSignage"
        # The inspector reopens the table outside its hours: the game's sign again.
        acts.reopen_outside_hours(session, "Thandi", "", "a tournament")
        ui.pump(0.3)
        app._show(local("2026-11-27 03:05"))
        assert type(app.screen).__name__ == "PuntoBancoSignage"
    finally:
        journal.close()


@pytest.mark.parametrize("language", ["af", "pt", "zu"])
def test_the_closed_sign_says_when_it_opens_in_each_language(ui: UI, language: str) -> None:
    sign = ClosedSign()
    ui.window.add_widget(sign)
    try:
        i18n.use(language)
        sign.show("18:00")
        ui.resize(800, 480)
        ui.pump(0.2)
        assert sign.words.text != "Table closed"
        assert "18:00" in sign.more.text and not sign.more.text.startswith("Opens at")
        sign.show(opens_words(NIGHTS, local("2026-11-29 03:00")))
        assert "18:00" in sign.more.text and "Mon" not in sign.more.text
        assert problems(sign) == []
        ui.screenshot(f"signage-hours-closed-{language}-800x480")
    finally:
        i18n.use("en")
        ui.window.remove_widget(sign)
