"""The sign tells the truth: paused, reconnecting, closed and "inspector
attending" replace the betting banner in words; the call comes back when the table does."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.table.records import InspectorAttended, InspectorCalled
from kiosk.ui.signage.interruptions import CLOSED, INSPECTOR, PAUSED, RECONNECTING, interruption
from kiosk.ui.signage.link import CLOSED_AFTER, SILENT_AFTER, Link, heartbeat_path
from tests.table.helpers import open_session
from tests.ui.conftest import UI, start_app


@pytest.mark.parametrize(("link", "called", "expected"), [
    (Link.LIVE, False, None),
    (Link.LIVE, True, INSPECTOR),
    (Link.PAUSED, False, PAUSED),
    (Link.PAUSED, True, PAUSED),  # the table itself is stopped: that comes first
    (Link.CLOSED, False, CLOSED),
    (Link.RECONNECTING, False, RECONNECTING),
    (Link.WAITING, False, None),  # the view's own welcome
])
def test_what_replaces_the_call(link: Link, called: bool, expected: object) -> None:
    assert interruption(link, called) == expected


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(heartbeat_path(path), (then, then))


def test_the_punto_banco_sign_never_shows_a_stale_call(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.app import SignageApp

    path = tmp_path / "t.db"
    session = open_session(path)
    session.perform(pb.shuffle)
    heartbeat_path(path).touch()
    app = start_app(ui, SignageApp(path, "Punto banco 1"))
    ui.pump(0.2)
    ids = app.screen.ids
    assert ids.headline.text == "PLACE YOUR BETS"
    session.call_inspector("button")
    ui.pump(0.2)
    assert (ids.headline.text, ids.detail.text) == ("INSPECTOR ATTENDING",
                                                   "Please wait for the inspector")
    session.record(InspectorAttended("inspector 41"))
    ui.pump(0.2)
    assert ids.headline.text == "PLACE YOUR BETS"
    _age(path, SILENT_AFTER + 5)  # the dealer app stopped
    ui.pump(0.3)
    assert ids.headline.text == "TABLE PAUSED"
    plaques = {p.name: p for p in ids.plaques.children}
    assert plaques["Banker"].ids.max_row.ids.amount.text == "R50,000"  # the limits stay
    ui.screenshot("signage-paused-800x480")
    _age(path, CLOSED_AFTER + 5)
    ui.pump(0.3)
    assert ids.headline.text == "TABLE CLOSED"
    heartbeat_path(path).touch()  # the dealer app is back
    ui.pump(0.3)
    assert ids.headline.text == "PLACE YOUR BETS"
    assert not isinstance(session.journal.last(), InspectorCalled)
    session.journal.close()
