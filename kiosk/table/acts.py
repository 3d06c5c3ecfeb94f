"""The general rules' acts at a table (section 2 of the Mpumalanga table game rules): reopening
outside the approved hours (rule 2.4), flagging a disputed round (rule 2.8), a cash buy-in,
a chip change and a colour-up (rule 2.1). Each checks who asks, builds its record and puts it
on record through the session, like any other act: nothing counts that is not on record.

Who may do what is the people list's (kiosk/table/roles.py): reopening outside the hours is
an inspector's override, with the inspector's PIN and a reason, on record with its act; a
dispute is flagged by the dealer signed in, or by the inspector with a PIN. A table with no
people list checks no PIN (as roles.py says): the screen's word for who acts is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.rules.operations import Operation
from kiosk.table import cash, disputes, hours
from kiosk.table.roles import Override, Role, RoleRefused
from kiosk.table.session import Severity, TableSession


def reopen_outside_hours(session: TableSession[Any], person_id: str, pin: str,
                         reason: str) -> hours.OpenedOutsideHours:
    """The inspector reopens the table outside its approved hours (rule 2.4): the
    inspector's override (PIN and reason) and the reopening on record in one transaction;
    it holds until the next approved opening."""
    now = session.journal.now()

    def act(_state: Any) -> Operation:
        return hours.reopening(session.hours, now, person_id, "inspector", reason)

    op = session.override(Override.REOPEN_HOURS, person_id, pin, reason, act=act,
                          detail="rule 2.4")
    assert isinstance(op, hours.OpenedOutsideHours)
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


def flag_dispute(session: TableSession[Any], round_number: int, note: str, *,
                 person_id: str = "", pin: str = "", role: str = "dealer"
                 ) -> disputes.RoundDisputed:
    """A round flagged as disputed, with a note (rule 2.8): by the inspector or a dealer
    who gives an id and PIN, else by the dealer signed in. With no people list, by
    `person_id` in the `role` the screen gives."""
    if session.people.checked:
        if person_id.strip():
            person = session.check_pin(person_id, pin)
            by, role = person.id, str(person.role)
        elif session.dealer is not None:
            by, role = session.dealer.id, str(Role.DEALER)
        else:
            raise RoleRefused.of("Sign in as the dealer, or give the inspector's id and PIN")
    else:
        by = person_id.strip() or role
    if role not in disputes.ROLES:
        raise RoleRefused.of("Only the dealer or the inspector may flag a dispute", "2.8")
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


def record_chip_exchange(session: TableSession[Any], what: cash.Exchange, place: str,
                         taken: Mapping[int, int], given: Mapping[int, int], *,
                         laid_out: bool, colour: str = "", wheel_chips: int = 0
                         ) -> cash.ChipExchange:
    """A chip change or colour-up broken down by chip on record (rule 2.1); refused, with
    nothing on record, when the chips given are not worth the chips taken."""
    currency = str(getattr(session.game.rules_of(session.state), "currency", "R"))
    op = cash.exchange_chips(what, place, taken, given, colour=colour,
                             wheel_chips=wheel_chips, laid_out=laid_out, currency=currency)
    session.record(op)
    return op
