"""The table's physical panel follows the session: tower lamp, minimum display, buttons.

A press of "no more bets" does exactly what the screen's button does (the dealer app hands
in its own handler); "call inspector" is journaled like the screen's. A panel that cannot be
opened is reported to the dealer and the table carries on with the screen alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from hardware.gpio.errors import PanelError
from hardware.gpio.panel import Dispatch, LampState, TablePanel
from hardware.gpio.pinmap import PinMap
from kiosk.rules.game import Game
from kiosk.rules.operations import Operation
from kiosk.table.session import Severity, TableSession

log = logging.getLogger(__name__)
Session = TableSession[Any]


def lamp_for(game: Game[Any], state: Any) -> LampState:
    """Green while bets may be placed (rules 5.6, 4.2 item 1), red from "no more bets" until
    the round is settled, off while the table cannot play (cards being shuffled or cut)."""
    if not game.ready(state):
        return LampState.OFF
    return LampState.BETTING_OPEN if game.betting_open(state) else LampState.NO_MORE_BETS


class PanelLink:
    """Keeps one `TablePanel` in step with one session."""

    def __init__(self, session: Session, panel: TablePanel | None, problem: str = "") -> None:
        self.session = session
        self.panel = panel
        self.problem = problem
        session.listeners.append(self.update)
        self.update(session.state, None)

    @classmethod
    def open(cls, pins: PinMap, session: Session, dispatch: Dispatch, factory: str | None,
             on_no_more_bets: Callable[[], None] | None = None) -> PanelLink:
        """Open the panel on `pins` (`factory` overrides the pin map's). `on_no_more_bets` is
        the screen's own handler; without a screen the session closes betting itself."""

        def no_more_bets() -> None:
            if on_no_more_bets is not None:
                on_no_more_bets()
            else:
                session.attempt(session.game.close_betting)

        def call_inspector() -> None:
            try:
                session.call_inspector("button")
            except Exception as exc:  # a full disk must not take the panel thread down
                session.alert(Severity.STOP, f"Not recorded: {exc}", "Call a technician")

        try:
            panel = TablePanel.open(pins, on_no_more_bets=no_more_bets,
                                    on_call_inspector=call_inspector, dispatch=dispatch,
                                    kind=factory)
        except PanelError as exc:
            session.alert(Severity.WARNING, f"Table buttons and lamps not working: {exc}",
                          "Use the screen's buttons; call a technician")
            return cls(session, None, str(exc))
        return cls(session, panel)

    def update(self, state: Any, _op: Operation | None) -> None:
        if self.panel is None:
            return
        try:
            game = self.session.game
            self.panel.show(lamp_for(game, state), self.session.inspector_called)
            self.panel.show_minimum(game.table_minimum(game.rules_of(state)))
        except PanelError as exc:
            log.warning("panel: %s", exc)
            self.problem = str(exc)

    def describe(self) -> str:
        if self.panel is None:
            return f"no panel ({self.problem})"
        st = self.panel.state()
        return (f"green {st.green.value}, red {st.red.value}, amber {st.amber.value}, "
                f"display {st.display!r} ({self.panel.factory_description})")

    def close(self) -> None:
        if self.session.listeners.count(self.update):
            self.session.listeners.remove(self.update)
        if self.panel is not None:
            self.panel.close()
