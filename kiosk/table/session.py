"""The table session: the one place where device events and dealer actions meet the game.

Data flows one way (DESIGN.md): a driver's typed event or a dealer's tap becomes an Operation
from the game's pure rules, the Operation is appended durably to the journal, and only then does
the session's state move and do the views hear of it. Restarting folds the journal back into
the same coup at the same step.

Nothing a device sends can crash the session: noise is counted, a card the rules refuse is
journaled as a device report and shown to the dealer with a way forward.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, TablesideError
from kiosk.rules.game import Game
from kiosk.rules.operations import Operation, operation_from_record
from kiosk.store.journal import Journal, JournalError

log = logging.getLogger(__name__)
S = TypeVar("S")


HELD = "card_held"  # a shoe card waits for a step on the screen (DeviceReport.event)
RELEASED = "card_released"  # ... and goes to the game now, on record with its own row
SET_ASIDE = "held_set_aside"  # held cards the table can no longer deal (another game)


@dataclass(frozen=True, slots=True)
class DeviceReport(Operation):
    """Something a device did that the journal must show although the coup did not move:
    a lost frame, a card the rules refused, a device gone silent or back."""

    kind = "device_report"
    device: str
    event: str
    detail: str


@dataclass(frozen=True, slots=True)
class InspectorCalled(Operation):
    """The dealer called the inspector (the table's button or the screen)."""

    kind = "inspector_called"
    source: str  # "button" or "screen"


@dataclass(frozen=True, slots=True)
class InspectorAttended(Operation):
    """The inspector came to the table; the amber lamp stops."""

    kind = "inspector_attended"
    inspector: str


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"  # the dealer must look
    STOP = "stop"  # the dealer must act before the coup goes on


@dataclass(frozen=True, slots=True)
class Alert:
    """A message for the dealer with the way forward, in words."""

    severity: Severity
    message: str
    way_forward: str = ""


Listener = Callable[[Any, Operation | None], None]


class TableSession(Generic[S]):
    """Routes events and actions to `game`, journaling every Operation before it counts."""

    def __init__(self, game: Game[S], journal: Journal, rules: Any, table_id: str) -> None:
        self.game = game
        self.journal = journal
        self.table_id = table_id
        self.alerts: deque[Alert] = deque(maxlen=50)  # the most recent ones
        self.alerts_raised = 0  # all ever raised: a view tells new alerts by this count
        self.held_cards: deque[Card] = deque()
        self.listeners: list[Listener] = []
        self.device_online: dict[str, bool] = {}
        self.bad_input = 0
        self._releasing = False
        self.inspector_called = False
        self.state: S = game.initial_state(rules, table_id)
        replayed = 0
        opened_as = ""  # the kind of the journal's last table opening
        self._folding = True
        for entry in journal.entries():
            try:
                op = operation_from_record(entry.kind, entry.payload)
                self.state = game.apply(self.state, op)
                self._track(op)
            except Exception as exc:  # the table cannot resume past a row it cannot fold
                why = str(exc) if isinstance(exc, TablesideError) else repr(exc)
                raise JournalError(
                    f"Row {entry.seq} of the journal ({entry.kind}) cannot be replayed: "
                    f"{why}. The table does not start on a journal it cannot follow: call a "
                    f"technician (`tableside replay` lists every row that does not fit)"
                ) from exc
            replayed += 1
            if entry.kind.endswith("table_opened"):
                opened_as = entry.kind
        self._folding = False
        self.replayed = replayed
        if replayed == 0:
            self.perform(lambda _s: game.open_table(rules, table_id))
        elif opened_as != game.open_table(rules, table_id).kind:
            # The table was reconfigured to another game: this game's opening goes on record,
            # so replay, sync and the signage know which game the rows that follow belong to.
            self.alert(Severity.INFO, f"The table now runs {getattr(game, 'name', 'a new game')}",
                       "Shuffle and load the cards for it")
            self._set_aside_held("the table now runs another game")
            self.perform(lambda _s: game.open_table(rules, table_id))
        elif self._rules_of(self.state) != rules:
            self.alert(Severity.INFO, "The table configuration changed since the last start",
                       "It takes effect now; the bets already placed stay")
            self._set_aside_held("the table's configuration changed")
            self.perform(lambda _s: game.open_table(rules, table_id))
        if self.held_cards:
            self.alert(Severity.WARNING, f"{len(self.held_cards)} shoe card(s) held before the "
                       f"restart: {', '.join(c.code for c in self.held_cards)}",
                       "They are dealt as soon as the screen's step is done")
            self._try_release()

    @staticmethod
    def _rules_of(state: Any) -> Any:
        return getattr(state, "rules", None)

    # --- Actions ----------------------------------------------------------------------

    def perform(self, action: Callable[[S], Operation], before: Operation | None = None
                ) -> Operation:
        """Run one dealer or device action: the game builds the Operation (raising
        `NotAllowed` with the reason), the journal stores it durably, then state moves.
        `before`, a table-level record (a held card's release), is stored with it in one
        transaction: both or neither.

        If the journal cannot write (a full disk), the error propagates with state unchanged,
        so nothing is shown that is not on record. Held cards dealt after the action are
        not the action's business: a failure there is an alert, the card stays held."""
        op = action(self.state)
        new_state = self.game.apply(self.state, op)
        rows = [op] if before is None else [before, op]
        self.journal.append_many([(r.kind, r.to_payload()) for r in rows])
        self.state = new_state
        for r in rows:
            self._track(r)
        self._notify(op)
        if self.held_cards and not self._releasing:
            self._try_release()
        return op

    def _try_release(self) -> None:
        try:
            self.release_held_cards()
        except Exception as exc:  # what came before is on record: say so, keep the card
            log.exception("releasing a held card")
            self.alert(Severity.STOP, f"A held card could not be recorded: {exc}",
                       "It stays held; call a technician")

    def attempt(self, action: Callable[[S], Operation]) -> Operation | None:
        """`perform`, with a refusal turned into an alert instead of an exception, and any
        other failure (a bug, say) into a red alert: a button press never stops the table."""
        try:
            return self.perform(action)
        except TablesideError as exc:
            self.alert(Severity.WARNING, str(exc))
            return None
        except Exception as exc:
            log.exception("action failed")
            self.alert(Severity.STOP, f"Not recorded: {exc}",
                       "Call a technician; nothing was changed")
            return None

    def next_step(self) -> str:
        return self.game.next_step(self.state)

    def alerts_since(self, seen: int) -> list[Alert]:
        """The alerts raised after a view had seen `seen` of them (only the kept ones)."""
        new = min(self.alerts_raised - seen, len(self.alerts))
        return list(self.alerts)[len(self.alerts) - new:] if new > 0 else []

    def call_inspector(self, source: str) -> bool:
        """Call the inspector once; calling again while the call stands does nothing."""
        if self.inspector_called:
            return False
        self.perform(lambda _s: InspectorCalled(source))
        self.alert(Severity.INFO, "Inspector called", "The amber lamp flashes until they come")
        return True

    def inspector_attended(self, inspector: str) -> None:
        if not inspector.strip():
            raise NotAllowed("Say which inspector attended")
        self.perform(lambda _s: InspectorAttended(inspector.strip()))

    def _track(self, op: Operation) -> None:
        """Table-level facts that are not part of any game's state, folded from the journal
        at start as they were made live: the inspector's call, and the shoe cards held for
        a step on the screen, so a restart keeps them (each is journaled when it is held and
        when it is released to the game; a void takes the held cards with its round)."""
        if isinstance(op, InspectorCalled):
            self.inspector_called = True
        elif isinstance(op, InspectorAttended):
            self.inspector_called = False
        elif isinstance(op, DeviceReport) and op.event == HELD:
            self.held_cards.append(Card.parse(op.detail))
        elif isinstance(op, DeviceReport) and op.event == RELEASED and self.held_cards:
            self.held_cards.popleft()
        elif isinstance(op, DeviceReport) and op.event == SET_ASIDE:
            self.held_cards.clear()
        elif op.kind.endswith("_voided") and self.held_cards:
            gone = ", ".join(c.code for c in self.held_cards)
            self.held_cards.clear()
            if not self._folding:  # news now, not when an old void is folded at start
                self.alert(Severity.WARNING, f"Held card(s) {gone} go with the void round",
                           "Put them aside with the round's cards")

    def alert(self, severity: Severity, message: str, way_forward: str = "") -> None:
        a = Alert(severity, message, way_forward)
        self.alerts.append(a)
        self.alerts_raised += 1
        log.warning("%s: %s%s", severity, message, f" -> {way_forward}" if way_forward else "")
        self._notify(None)

    def release_held_cards(self) -> None:
        """Deal the shoe cards that arrived while a card needed the dealer's decision."""
        self._releasing = True
        try:
            while self.held_cards:
                card = self.held_cards[0]
                try:
                    self.game.verify_shoe_card(self.state, card)
                except NotAllowed:
                    return
                self._release(card)
        finally:
            self._releasing = False

    def _release(self, card: Card) -> None:
        # The release and the card's own record in one transaction: a held card is never
        # released without being dealt, queried or refused on record.
        self._shoe_card(card, before=DeviceReport("SHOE", RELEASED, card.code))

    def _set_aside_held(self, why: str) -> None:
        """Held cards that can no longer go to the game they came out for, on record."""
        if not self.held_cards:
            return
        gone = ", ".join(c.code for c in self.held_cards)
        report = DeviceReport("SHOE", SET_ASIDE, f"{gone}: {why}")
        self.perform(lambda _s: report)
        self.alert(Severity.WARNING, f"Held card(s) {gone} set aside: {why}",
                   "Put them aside; they are not dealt")

    # --- Device events ------------------------------------------------------------------

    def on_device_event(self, event: Any) -> None:
        """Handle one typed event from a driver. Never raises."""
        try:
            self._on_device_event(event)
        except TablesideError as exc:
            self.alert(Severity.STOP, f"Could not record a {type(event).__name__}: {exc}",
                       "Call a technician; the table must not go on until it is recorded")
        except Exception:  # a bug must not take the table down with it
            log.exception("device event %r", event)
            self.alert(Severity.STOP, f"Internal error handling {type(event).__name__}",
                       "Call a technician")

    def _on_device_event(self, event: Any) -> None:
        device = getattr(event, "device", "SHOE")
        if isinstance(event, ev.CardRead):
            if self.held_cards or self.game.holds_cards(self.state):
                why = "it waits for the card before it"
                try:
                    self.game.verify_shoe_card(self.state, event.card)
                except NotAllowed as exc:
                    why = str(exc)
                # On record before anything else: the card has left the shoe.
                self.perform(lambda _s: DeviceReport(device, HELD, event.card.code))
                if self.held_cards:
                    self.alert(Severity.WARNING, f"{event.card.name.capitalize()} held: {why}",
                               "It is dealt as soon as the screen's step is done")
                return
            self._shoe_card(event.card)
        elif isinstance(event, ev.CardUnread):
            self._device_action(device, "unread", self.game.unread_card,
                                "Key in the card from its face")
        elif isinstance(event, ev.CardBurned):
            self._device_action(device, "burn", lambda s: self.game.burn(s, event.card), "")
        elif isinstance(event, ev.CutCardOut):
            self._device_action(device, "cut", self.game.cut_card_out, "")
            words = getattr(self.game, "cut_card_words", None)
            self.alert(Severity.INFO, words(self.state) if words else
                       "Cutting card out: this is the last coup of the shoe")
        elif isinstance(event, ev.FramesLost):
            detail = (f"{event.missing} frame(s) lost between {event.expected_seq} and "
                      f"{event.got_seq}")
            self.perform(lambda _s: DeviceReport(device, "frames_lost", detail))
            self.alert(Severity.STOP, f"The shoe link lost {event.missing} message(s)",
                       "Check the cards on the table against the screen and key in any card "
                       "that is missing")
        elif isinstance(event, ev.DeviceOffline):
            if self.device_online.get(device, True):
                self.device_online[device] = False
                self.perform(lambda _s: DeviceReport(
                    device, "offline", f"silent for {event.silent_seconds:.0f} s"))
                self.alert(Severity.WARNING, f"The {_device_name(device)} is not answering",
                           "Key in cards by hand; check its cable and power")
        elif isinstance(event, ev.DeviceOnline):
            if not self.device_online.get(device, True):
                self.device_online[device] = True
                self.perform(lambda _s: DeviceReport(device, "online", ""))
                self.alert(Severity.INFO, f"The {_device_name(device)} is back")
        elif isinstance(event, ev.ShoeHello):
            self.device_online[device] = True
            self.perform(lambda _s: DeviceReport(
                device, "restarted" if event.restarted else "hello",
                f"{event.model} firmware {event.firmware} serial {event.serial_number}"))
            if event.restarted:  # what it read just before may not have reached us
                self.alert(Severity.WARNING, f"The {_device_name(device)} restarted",
                           "Check the cards on the table against the screen and key in any "
                           "card that is missing")
        elif isinstance(event, ev.BadInput):
            self.bad_input += 1
            log.info("bad input from %s: %s %r", device, event.reason, event.raw)
        elif isinstance(event, ev.ShoeStateChanged):
            self.perform(lambda _s: DeviceReport(device, "state", str(event.state)))
        # Heartbeats and the shuffler's reports are not part of punto banco's coup.

    def _shoe_card(self, card: Card, before: Operation | None = None) -> None:
        try:
            op = self.perform(lambda s: self.game.shoe_card(s, card), before)
        except NotAllowed as exc:
            # The card has physically left the shoe: record that it was refused and why.
            report = DeviceReport("SHOE", "card_refused", f"{card.code}: {exc}")
            self.perform(lambda _s: report, before)
            self.alert(Severity.STOP, f"The shoe dealt the {card.name} but {exc}",
                       "Put the card aside and call the inspector, or void the coup")
            return
        if op.kind.endswith("card_queried"):  # every game's queried card carries a message
            self.alert(Severity.STOP, getattr(op, "message", "Queried card"),
                       "Key in the right card if the shoe misread it, void the coup, or "
                       "call the inspector to accept it")

    def _device_action(self, device: str, what: str, action: Callable[[S], Operation],
                       way_forward: str) -> None:
        try:
            self.perform(action)
        except NotAllowed as exc:
            report = DeviceReport(device, f"{what}_refused", str(exc))
            self.perform(lambda _s: report)
            self.alert(Severity.WARNING, str(exc), way_forward)
            return
        if way_forward:
            self.alert(Severity.STOP, f"The {_device_name(device)} reported: {what}",
                       way_forward)

    def _notify(self, op: Operation | None) -> None:
        for listener in list(self.listeners):
            try:
                listener(self.state, op)
            except Exception:  # a broken view must not stop the table
                log.exception("listener %r failed", listener)


def _device_name(device: str) -> str:
    return {"SHOE": "card shoe", "SHUF": "shuffler"}.get(device, device.lower())
