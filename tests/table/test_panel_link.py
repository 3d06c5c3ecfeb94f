"""The table's buttons and lamps follow the session, on gpiozero's mock pins.

A press of "no more bets" puts `betting_closed` in the journal, as the screen's button does;
"call inspector" is journaled and flashes the amber lamp; the lamp shows each table state
and the display the table minimum (rule 2.2)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.gpio import LampState, LightState, PinMap
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.table.panel_link import PanelLink, lamp_for
from tests.table.helpers import RULES, Session, kinds, open_session

PINS = PinMap()


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = open_session(tmp_path / "t.db")
    yield s
    s.journal.close()


@pytest.fixture
def link(session: Session) -> Iterator[PanelLink]:
    Device.pin_factory = MockFactory()
    queued: list[Callable[[], None]] = []
    link = PanelLink.open(PINS, session, queued.append, "mock")
    link.queued = queued  # type: ignore[attr-defined]
    yield link
    link.close()
    Device.pin_factory.reset()
    Device.pin_factory = None


def press(link: PanelLink, pin: int) -> None:
    """Press and release a button wired to ground, then run what it handed to the UI."""
    assert link.panel is not None
    mock = link.panel.factory.pin(pin)  # the panel's own mock factory
    mock.drive_low()
    time.sleep(0.06)  # held past the 50 ms debounce window, as a finger does
    mock.drive_high()
    time.sleep(0.06)
    queued = link.queued  # type: ignore[attr-defined]
    while queued:
        queued.pop(0)()


def test_no_more_bets_button_closes_betting_in_the_journal(session: Session,
                                                           link: PanelLink) -> None:
    assert link.panel is not None
    session.perform(lambda s: pb.shuffle(s))
    session.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 5000))
    assert link.panel.state().green is LightState.ON
    assert link.panel.state().red is LightState.OFF
    press(link, PINS.button_no_more_bets)
    assert kinds(session)[-1] == "punto_banco.betting_closed"  # rule 5.6
    assert session.state.phase is pb.Phase.DEALING
    st = link.panel.state()
    assert (st.green, st.red) == (LightState.OFF, LightState.ON)
    # A second press while dealing is refused by the engine, in words, and journals nothing.
    rows = len(kinds(session))
    press(link, PINS.button_no_more_bets)
    assert len(kinds(session)) == rows
    assert "already closed" in session.alerts[-1].message


def test_call_inspector_button_is_journaled_once_and_flashes_amber(session: Session,
                                                                   link: PanelLink) -> None:
    assert link.panel is not None
    assert link.panel.state().amber is LightState.OFF
    press(link, PINS.button_call_inspector)
    press(link, PINS.button_call_inspector)  # still called: not journaled twice
    assert kinds(session).count("inspector_called") == 1
    assert link.panel.state().amber is LightState.FLASHING
    session.inspector_attended("inspector 4411")
    assert kinds(session)[-1] == "inspector_attended"
    assert link.panel.state().amber is LightState.OFF


def test_lamp_for_each_table_state(session: Session, link: PanelLink) -> None:
    assert link.panel is not None
    seen: list[tuple[LampState, LightState, LightState]] = []

    def note() -> None:
        st = link.panel.state()  # type: ignore[union-attr]
        seen.append((lamp_for(session.game, session.state), st.green, st.red))

    note()  # no shoe: the table is not open for bets
    session.perform(lambda s: pb.shuffle(s))
    note()
    session.perform(lambda s: pb.place_bet(s, "2", pb.BetKind.PLAYER, 5000))
    session.perform(pb.close_betting)
    note()
    for code in ("9S", "2H", "KD", "3C"):  # player natural 9
        session.perform(lambda s, c=code: pb.deal_card(s, Card.parse(c)))
    note()  # paying
    session.perform(pb.confirm_payouts)
    note()
    off, on = LightState.OFF, LightState.ON
    assert seen == [
        (LampState.OFF, off, off),
        (LampState.BETTING_OPEN, on, off),
        (LampState.NO_MORE_BETS, off, on),
        (LampState.NO_MORE_BETS, off, on),
        (LampState.BETTING_OPEN, on, off),
    ]


def test_display_shows_the_table_minimum(link: PanelLink) -> None:
    assert link.panel is not None
    assert pb.PuntoBanco().table_minimum(RULES) == 5000
    assert link.panel.state().display.strip() == "50"


def test_a_panel_that_cannot_open_is_reported_and_the_table_goes_on(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    # Real GPIO asked for on a machine that has none (this one): a clear message, no crash.
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    link = PanelLink.open(PINS, session, lambda f: f(), "real")
    assert link.panel is None
    assert "Table buttons and lamps not working" in session.alerts[-1].message
    assert session.alerts[-1].way_forward.startswith("Use the screen's buttons")
    assert link.describe().startswith("no panel (")
    session.perform(lambda s: pb.shuffle(s))  # the table carries on
    assert session.state.shoe is not None
    link.close()
