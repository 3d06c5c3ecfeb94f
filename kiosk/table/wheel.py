"""The roulette wheel controller's reports, as the table records them (docs/protocols/wheel-ss2.md
"Exceptions, as the maker tells integrators to handle them").

The wheel is the authority on the ball: its launch, "no more bets" and the winning number go
to a game that `SpinsWheel` and become that game's records. Its warnings are the table's own
records (device reports) with an alert that says what to do: a miss-spin voids the spin (the
bets stay locked; the driver has already acknowledged it with `*R`), a ball not seen for 5 s,
a failed launch, a component fault, the wheel stopping in the middle of a game.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from hardware.wheel import events as wev
from kiosk.rules.game import SpinsWheel
from kiosk.rules.operations import Operation
from kiosk.table.alerts import Severity

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

log = logging.getLogger(__name__)


def on_event(session: TableSession[Any], event: Any) -> None:
    """Record one wheel event (the wheel's protocol names this module as its `table_side`:
    kiosk/table/session.py routes its events here)."""
    device = event.device
    if isinstance(event, wev.WheelStatus | wev.WheelReply | wev.BettingOpened
                  | wev.WheelRecovering):
        # The raw reports keep the link alive; a new game and the driver's restart attempts
        # are in the next report of substance. Nothing to record.
        log.debug("wheel: %r", event)
        return
    game = session.game
    if isinstance(event, wev.BallInRim | wev.BetsClosed | wev.WinningNumber | wev.MissSpin):
        if not isinstance(game, SpinsWheel):  # capabilities: only a wheel game hears it
            session.report(device, "result_refused", f"{session.spec.title} takes no wheel "
                           f"results", Severity.STOP,
                           f"The wheel reported a game, but {session.spec.title.lower()} "
                           f"spins no wheel", "Check which devices are configured for this table")
            return
        wheel: SpinsWheel[Any] = game
        if isinstance(event, wev.BallInRim):
            _record(session, wheel.wheel_spun(session.state, event.direction))
        elif isinstance(event, wev.BetsClosed):
            _record(session, wheel.wheel_closed_betting(session.state))
        elif isinstance(event, wev.WinningNumber):
            ops = wheel.wheel_result(session.state, event.number, event.direction)
            if not ops:
                session.report(device, "result_again", f"{event.number}: the table already "
                               f"has this spin's number", Severity.WARNING,
                               f"The wheel reported {event.number} after the number was called",
                               "Check the dolly against the wheel; void the spin if they differ")
            for op in ops:
                _record(session, op)
        else:
            _record(session, wheel.wheel_void(session.state, "miss-spin: the ball hit something"))
            session.alert(Severity.WARNING, "The wheel voided the spin (a miss-spin)",
                          "The bets stay locked; the wheel spins again")
        return
    if isinstance(event, wev.NoBall):
        session.report(device, "no_ball", f"no ball seen for {event.reports} reports",
                       Severity.STOP, "The wheel has not seen the ball for 5 seconds",
                       "Look into the wheel; void the spin if the ball is not in it")
    elif isinstance(event, wev.LaunchFailed):
        session.report(device, "launch_failed", f"ball launch failed for {event.reports} "
                       f"reports", Severity.WARNING, "The wheel could not launch the ball",
                       "It tries again; if it keeps failing, void the spin and call a "
                       "technician")
    elif isinstance(event, wev.ComponentFault):
        session.report(device, "fault", "sensor, motor or encoder fault", Severity.STOP,
                       "The wheel reports a sensor, motor or encoder fault",
                       "Stop the game, run the wheel's self-test and call a technician")
    elif isinstance(event, wev.WheelClosed):
        if event.during_play:
            session.report(device, "stopped", f"dropped to idle during game {event.spin}",
                           Severity.STOP, "The wheel stopped in the middle of a game",
                           "It is being restarted; if it stays stopped, void the spin and "
                           "call a technician")
        else:
            session.report(device, "closed", f"idle after game {event.spin}")
    elif isinstance(event, wev.SelfTestCode):
        if event.code:
            session.report(device, "self_test", f"{event.code}: {event.text}", Severity.STOP,
                           f"The wheel's self-test found: {event.text}",
                           "Call a technician; the wheel must not be played")
        else:
            session.report(device, "self_test", "0: no error", Severity.INFO,
                           "The wheel's self-test passed")
    elif isinstance(event, wev.WheelStatistic):
        session.report(device, "chi_squared", f"{event.chi2} ({event.percent}%)")


def _record(session: TableSession[Any], op: Operation | None) -> None:
    if op is not None:
        session.perform(lambda _s: op)
