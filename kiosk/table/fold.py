"""One fold of the journal into the table's state (docs/architecture.md, "The seams": one fold).

The session's start, replay, the signage feed and the pit all rebuild a table from its
journal with `step` (one record) or `fold` (rows). A table opening starts its game's state, or
changes the rules of the game in play; the table's own records (device reports, the
inspector) keep the table's facts; every other record goes to the game whose family it
belongs to, and only while that game runs: a record of another game is an error
(`OtherGame`), never folded into the wrong state nor skipped in silence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kiosk.rules.cards import Card
from kiosk.rules.errors import TablesideError, UnreadableInput
from kiosk.rules.operations import (
    Operation,
    RoundVoid,
    TableOpening,
    TableRecord,
    operation_from_record,
)
from kiosk.rules.registry import GAMES, GameSpec, Registry
from kiosk.table import cash as cash, disputes as disputes  # their records, for every fold
from kiosk.table.hours import OpenedOutsideHours
from kiosk.table.records import (
    COUNT_WRONG,
    COUNTED,
    HELD,
    RELEASED,
    SET_ASIDE,
    DeviceReport,
    InspectorAttended,
    InspectorCalled,
    PitConfigApplied,
)
from kiosk.table.roles import DealerSignedIn, DealerSignedOut, RoundDealer


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the table's own records say: the inspector's call standing, and the shoe cards
    held for a step on the screen (journaled when held and when released, so a restart
    keeps them; a void takes them with its round)."""

    inspector_called: bool = False
    held: tuple[Card, ...] = ()
    pit_config: int = 0  # the row of the pit's configuration in force (0: the table's file)
    outside_hours_until: str = ""  # the inspector's reopening outside hours holds until then
    dealer: str = ""  # the id of the dealer signed in ("": none; kiosk/table/roles.py)
    dealer_round: int = 0  # the last round whose dealer is on record (`RoundDealer`)
    out_of_play: tuple[tuple[str, str], ...] = ()
    """(device, why) for each device whose cards are out of play: a shuffler whose count was
    not the decks in play (`count_wrong`), until it counts right (`count`)."""


@dataclass(frozen=True, slots=True)
class Folded:
    """The table after the rows folded so far: its game (None until a table is opened),
    the game's state, the table's facts and the last row's seq."""

    game: GameSpec | None = None
    state: Any = None
    facts: TableFacts = field(default_factory=TableFacts)
    seq: int = 0

    @property
    def table_id(self) -> str:
        return str(getattr(self.state, "table_id", "")) if self.state is not None else ""


EMPTY = Folded()


class FoldError(UnreadableInput):
    """A row the table cannot follow; the message says which and why."""

    def __init__(self, seq: int, kind: str, why: str, message: str = "") -> None:
        super().__init__(message or f"row {seq}: {kind} cannot follow: {why}")
        self.seq, self.kind, self.why = seq, kind, why


class OtherGame(FoldError):
    """A record of another game than the one the table runs, with no opening for it."""

    def __init__(self, seq: int, kind: str, family: str, running: str) -> None:
        super().__init__(seq, kind, f"a {family} record on a table running {running}")
        self.family = family


def facts_after(facts: TableFacts, op: Operation) -> TableFacts:
    """The table's facts after one of its own records (or a void, which takes the held
    cards with its round)."""
    if isinstance(op, InspectorCalled):
        return dataclasses.replace(facts, inspector_called=True)
    if isinstance(op, InspectorAttended):
        return dataclasses.replace(facts, inspector_called=False)
    if isinstance(op, OpenedOutsideHours):  # rule 2.4
        return dataclasses.replace(facts, outside_hours_until=op.until)
    if isinstance(op, DealerSignedIn):
        return dataclasses.replace(facts, dealer=op.dealer)
    if isinstance(op, DealerSignedOut):
        return dataclasses.replace(facts, dealer="")
    if isinstance(op, RoundDealer):
        return dataclasses.replace(facts, dealer_round=op.round)
    if isinstance(op, DeviceReport):
        if op.event == HELD:
            return dataclasses.replace(facts, held=(*facts.held, Card.parse(op.detail)))
        if op.event == RELEASED and facts.held:
            return dataclasses.replace(facts, held=facts.held[1:])
        if op.event == SET_ASIDE:
            return dataclasses.replace(facts, held=())
        if op.event in (COUNT_WRONG, COUNTED):
            others = tuple(o for o in facts.out_of_play if o[0] != op.device)
            out = (*others, (op.device, op.detail)) if op.event == COUNT_WRONG else others
            return dataclasses.replace(facts, out_of_play=out)
    if isinstance(op, RoundVoid) and facts.held:
        return dataclasses.replace(facts, held=())
    return facts


def step(folded: Folded, op: Operation, seq: int = 0, games: Registry = GAMES,
         kind: str = "") -> Folded:
    """The table after `op`. Raises `FoldError` (the table unchanged) for a record it cannot
    follow: before any opening, of another game, or one the game's rules refuse. `kind` is
    the row's own kind for the message (an older journal's name for the record)."""
    seq = seq or folded.seq + 1
    kind = kind or op.kind
    try:
        if isinstance(op, TableRecord):
            facts = facts_after(folded.facts, op)
            if isinstance(op, PitConfigApplied):
                facts = dataclasses.replace(facts, pit_config=seq)
            return Folded(folded.game, folded.state, facts, seq)
        if isinstance(op, TableOpening):
            spec = games.opened(op)
            state = folded.state
            if folded.game is None or folded.game.family != spec.family:
                state = spec.engine.initial_state(op.rules, op.table_id)
            return Folded(spec, spec.engine.apply(state, op), folded.facts, seq)
        family = games.family_of(op)
        if family is None:
            raise FoldError(seq, kind, "a record of no game this build knows")
        if folded.game is None:
            raise FoldError(seq, kind, "before the table opened",
                            f"row {seq}: {kind} before the table opened")
        if family != folded.game.family:
            raise OtherGame(seq, kind, family, folded.game.title)
        state = folded.game.engine.apply(folded.state, op)
        return Folded(folded.game, state, facts_after(folded.facts, op), seq)
    except FoldError:
        raise
    except Exception as exc:  # the rules refused it, or a bug: either way not followed
        why = str(exc) if isinstance(exc, TablesideError) else f"{type(exc).__name__} {exc}"
        raise FoldError(seq, kind, why) from exc


def fold(rows: Iterable[Any], start: Folded = EMPTY, *,
         on_error: Callable[[FoldError], None] | None = None,
         before: Callable[[Folded, Operation, Any], None] | None = None,
         games: Registry = GAMES) -> Folded:
    """Fold journal rows (anything with seq, kind and payload) from `start`.

    Without `on_error` the first row that cannot be read or followed raises `FoldError`;
    with it, the row is reported there and skipped. `before(folded, op, row)` sees each
    Operation just before it is folded (replay audits there)."""
    folded = start
    for row in rows:
        try:
            try:
                op = operation_from_record(row.kind, row.payload)
            except UnreadableInput as exc:
                raise FoldError(row.seq, row.kind, str(exc), f"row {row.seq}: {exc}") from exc
            if before is not None:
                try:
                    before(folded, op, row)
                except Exception as exc:
                    why = (str(exc) if isinstance(exc, TablesideError)
                           else f"{type(exc).__name__} {exc}")
                    raise FoldError(row.seq, row.kind, why) from exc
            folded = step(folded, op, row.seq, games, row.kind)
        except FoldError as exc:
            if on_error is None:
                raise
            on_error(exc)
            folded = dataclasses.replace(folded, seq=row.seq)
    return folded
