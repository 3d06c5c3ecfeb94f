"""The general rules' acts at a table (section 2 of the Mpumalanga table game rules): reopening
outside the approved hours (rule 2.4), flagging a disputed round (rule 2.8), a cash buy-in,
a chip change and a colour-up (rule 2.1). Each checks who asks, builds its record and puts it
on record through the session, like any other act: nothing counts that is not on record.

Who may do what is asked of `allowed_role`, the one place the people at the table and their
roles are checked: today the role the screen was given; the sign-in with PINs answers it."""

from __future__ import annotations

from typing import Any

from kiosk.rules.errors import NotAllowed
from kiosk.table import cash, disputes, hours
from kiosk.table.session import Severity, TableSession


def allowed_role(session: TableSession[Any], role: str, needed: tuple[str, ...],
                 what: str) -> None:
    """Refuses `what` to anyone not in one of the `needed` roles."""
    if role not in needed:
        raise NotAllowed.of("%(what)s needs the %(role)s", what=what,
                            role=" or the ".join(needed))


def reopen_outside_hours(session: TableSession[Any], by: str, role: str,
                         reason: str) -> hours.OpenedOutsideHours:
    """The inspector reopens the table outside its approved hours (rule 2.4): on record
    with who, the role and the reason; it holds until the next approved opening."""
    allowed_role(session, role, ("inspector",), "Reopening outside the approved hours")
    op = hours.reopening(session.hours, session.journal.now(), by, role, reason)
    session.record(op)
    session.alert(Severity.INFO, "The inspector reopened the table outside its hours",
                  "Rounds may open until the next approved opening")
    return op


def table_closed(session: TableSession[Any]) -> bool:
    """Whether the clock keeps the table from opening a new round now (rule 2.4)."""
    if session.hours is None:
        return False
    now = session.journal.now()
    return not (session.hours.is_open(now) or hours.override_in_force(
        session.folded.facts.outside_hours_until, now))


def flag_dispute(session: TableSession[Any], round_number: int, by: str, role: str,
                 note: str) -> disputes.RoundDisputed:
    """The dealer or the inspector flags a round as disputed, with a note (rule 2.8)."""
    allowed_role(session, role, disputes.ROLES, "Flagging a dispute")
    last = session.game.round_number(session.state)
    op = disputes.dispute(round_number, last, by, role, note)
    session.record(op)
    session.alert(Severity.WARNING, f"Round {op.round} flagged as disputed",
                  "The inspector sees the replay of it on this screen")
    return op


def record_buy_in(session: TableSession[Any], place: str, cash_cents: int, *,
                  laid_out: bool, bet: int = 0, colour: str = "", wheel_chips: int = 0,
                  chip_value: int = 0) -> cash.CashBuyIn:
    """A cash buy-in on record (rule 2.1), once the cash is laid out for verification."""
    op = cash.buy_in(place, cash_cents, bet=bet, colour=colour, wheel_chips=wheel_chips,
                     chip_value=chip_value, laid_out=laid_out)
    session.record(op)
    return op


def record_exchange(session: TableSession[Any], what: cash.Exchange, place: str, taken: int,
                    given: int, *, laid_out: bool, colour: str = "",
                    wheel_chips: int = 0) -> cash.ChipExchange:
    """A chip change or colour-up on record (rule 2.1)."""
    op = cash.exchange(what, place, taken, given, colour=colour, wheel_chips=wheel_chips,
                       laid_out=laid_out)
    session.record(op)
    return op
