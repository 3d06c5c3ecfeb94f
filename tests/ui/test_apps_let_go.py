"""An app that stops lets go of everything: its screen, its session and its words' bindings
to the translator. Kivy keeps some things for good (its clock's interval callbacks, a cache
of properties for every class it has seen), so an app that hands one of them a reference
lives on after it stops. In the kiosk that is a sign still switching languages and
redrawing out of sight; in the suite it was every earlier test's screens, bound to the
translator and reacting to every later test's change of language."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from kiosk.rules.registry import GAMES
from tests.ui.conftest import UI, start_app


def _stop(ui: UI) -> None:
    from kivy.app import App

    ui.stop_app()
    assert App.get_running_app() is None
    ui.pump(frames=2)


@pytest.mark.parametrize("game", GAMES.names())
def test_a_stopped_dealer_app_lets_go_of_its_screen_and_session(ui: UI, tmp_path: Path,
                                                                 game: str) -> None:
    from kiosk.assembly import demo_config, open_session
    from kiosk.ui.games import screens
    from kiosk.ui.language import tr

    gc.collect()
    bound = len(tr.get_property_observers("_"))
    cfg = demo_config(tmp_path / "table.db", game)
    session, journal = open_session(cfg, quiet=True)
    app = start_app(ui, screens(session.spec).dealer_app(session, cfg, None, lambda: None))
    assert app.screen is not None and app.screen.parent is ui.window
    gone = [weakref.ref(app), weakref.ref(app.screen), weakref.ref(session)]
    journal.close()
    del session
    _stop(ui)
    del app
    gc.collect()
    assert [ref() for ref in gone] == [None, None, None]
    assert len(tr.get_property_observers("_")) == bound


def test_a_stopped_sign_lets_go_of_everything(ui: UI, tmp_path: Path) -> None:
    """A sign cancels every timer it started when it stops: the watchdog's ping, the strip,
    the floor care, the hours and the next language."""
    from kiosk.i18n import SignLanguages
    from kiosk.ui.language import tr
    from kiosk.ui.signage.app import SignageApp
    from tests.ui.test_signage_screen import _journal_with_history

    gc.collect()
    bound = len(tr.get_property_observers("_"))
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    app = start_app(ui, SignageApp(path, "Salon Privé 7",
                                   languages=SignLanguages(("en", "af"), 20)))
    ui.pump(0.15)
    assert len(tr.get_property_observers("_")) > bound  # its rows' words follow the language
    gone = weakref.ref(app)
    session.journal.close()
    _stop(ui)
    del app
    gc.collect()
    assert gone() is None
    assert len(tr.get_property_observers("_")) == bound
