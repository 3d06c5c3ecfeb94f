"""The table session: the one place where device events and dealer actions meet the game.

Data flows one way (docs/architecture.md): a driver's typed event or a dealer's tap becomes
an Operation
from the game's pure rules, the Operation is appended durably to the journal, and only then does
the session's state move and do the views hear of it. Restarting folds the journal back into
the same coup at the same step.

Nothing a device sends can crash the session: noise is counted, a card the rules refuse is
journaled as a device report and shown to the dealer with a way forward.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from hardware import events as ev
from hardware.protocols import protocol_of_device
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, Said, Sentence, TablesideError
from kiosk.rules.game import DealsFromShoe, Game
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening, TableRecord
from kiosk.rules.registry import GAMES, GameSpec
from kiosk.store.journal import Journal, JournalError, JournalWriteError
from kiosk.table.alerts import Alert as Alert, Severity as Severity
from kiosk.table.fold import Folded, FoldError, step
from kiosk.table.hours import OpeningHours, verify_open
from kiosk.table.records import (
    HELD,
    RELEASED,
    SET_ASIDE,
    DeviceReport,
    InspectorAttended,
    InspectorCalled,
)
from kiosk.table.roles import (
    NEEDS,
    NO_LIST,
    ROLE_WORDS,
    DealerSignedIn,
    DealerSignedOut,
    Gate,
    LockedOut,
    Override,
    People,
    Person,
    PinLockedOut,
    Role,
    RoleRefused,
    RoundDealer,
    approval,
    tally_on_record,
)
from kiosk.table.snapshot import SNAPSHOT_EVERY, fold_journal, take

__all__ = ["DeviceReport", "InspectorAttended", "InspectorCalled", "Severity", "TableSession"]

log = logging.getLogger(__name__)
S = TypeVar("S")

RETRY_SECONDS = 1.0
"""While the journal cannot be written, a write is tried again at most this often (a device's
event or a dealer's command tries it)."""

COALESCE_SECONDS = 60.0
"""Reports of one kind from one device within this long are one journal record with a count
(a noisy line must not flood the journal), and one alert."""


Listener = Callable[[Any, Operation | None], None]

_FACT_EVENTS = (HELD, RELEASED, SET_ASIDE)  # reports that are facts: never coalesced
_LOGGED = ("bad_input",)  # reports with no alert that the technician's log shows (an alert
# is logged by `alert`)


def spec_for(game: GameSpec | Game[Any], rules: Any, table_id: str) -> GameSpec:
    """The registered game a session runs: given as its spec, or as its engine (the game
    its opening names under these rules)."""
    if isinstance(game, GameSpec):
        return game
    return GAMES.opened(game.open_table(rules, table_id))  # type: ignore[arg-type]


class TableSession(Generic[S]):
    """Routes events and actions to the game, journaling every Operation before it counts."""

    def __init__(self, game: GameSpec | Game[S], journal: Journal, rules: Any, table_id: str,
                 *, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.spec = spec_for(game, rules, table_id)
        self.game: Game[S] = self.spec.engine
        self.journal = journal
        self.table_id = table_id
        self.alerts: deque[Alert] = deque(maxlen=50)  # the most recent ones
        self.alerts_raised = 0  # all ever raised: a view tells new alerts by this count
        self.listeners: list[Listener] = []
        self.device_online: dict[str, bool] = {}
        # role -> send a named command to that device ("start" to the wheel); the launcher
        # fills it for each device it opened a link to.
        self.device_commands: dict[str, Callable[[str], bool]] = {}
        self.bad_input = 0
        # The roles whose device is the simulator (`port = "simulated"`): the launcher says
        # so, and every card from a simulated shoe (or shuffler) goes on record as "simulated".
        self.simulated: set[str] = set()
        # The device that deals the cards (its label: "SHOE", or "SHUF" for a shuffler that
        # deals): the one a held card's release and set-aside name. The launcher sets it from
        # the table's file; each card a device deals sets it too.
        self.dealing_device = "SHOE"
        # Why the journal cannot be written ("" while it can): the table stops dealing on the
        # first failed write, and what the shoe does meanwhile (a card, a burn, the cutting
        # card) waits in `unrecorded`, in order, to be recorded once it can write again
        # (`retry_journal`).
        self.halted = ""
        self.unrecorded: list[Waiting] = []
        self._retry_at = 0.0
        self._retrying = False
        self.clock = clock
        # The approved opening hours (rule 2.4; None: the clock never closes the table):
        # outside them no new round opens unless the inspector's override holds.
        self.hours: OpeningHours | None = None
        # Who may do what (kiosk/table/roles.py): the people list in force and its PIN
        # check; the launcher and the pit's configurations set it (`set_people`).
        self.people: People = NO_LIST
        self.gate = Gate(NO_LIST, clock)
        self._pins_from: dict[str, int] = {}  # per id: the row of its last right PIN here
        self.wall_clock = wall_clock
        self._restore_lockout()
        self._releasing = False
        self._quiet: dict[tuple[str, str], tuple[float, int, str]] = {}  # coalesced reports
        self._rejects: dict[tuple[str, str], int] = {}  # (device, kind) -> bad inputs seen
        try:
            self.folded = fold_journal(journal)
        except FoldError as exc:  # the table cannot resume past a row it cannot fold
            cause = exc.__cause__
            why = (repr(cause) if cause is not None and not isinstance(cause, TablesideError)
                   else exc.why)
            raise JournalError(
                f"Row {exc.seq} of the journal ({exc.kind}) cannot be replayed: {why}. "
                f"The table does not start on a journal it cannot follow: call a technician "
                f"(`tableside replay` lists every row that does not fit)") from exc
        self.replayed = journal.count() if self.folded.seq else 0
        self._snapshot_at = self.folded.seq  # a snapshot is taken SNAPSHOT_EVERY rows on
        opening = self.game.open_table(rules, table_id)
        if self.folded.game is None:
            self.perform(lambda _s: opening)
        elif self.folded.game.family != self.spec.family:
            # The table was reconfigured to another game: this game's opening goes on record,
            # so replay, sync and the signage know which game the rows that follow belong to.
            self.alert(Severity.INFO, f"The table now runs {self.spec.title.lower()}",
                       "Shuffle and load the cards for it")
            self._set_aside_held("the table now runs another game")
            self.perform(lambda _s: opening)
        elif self.game.rules_of(self.folded.state) != rules:
            self.alert(Severity.INFO, "The table configuration changed since the last start",
                       "It takes effect now; the bets already placed stay")
            self._set_aside_held("the table's configuration changed")
            self.perform(lambda _s: opening)
        if self.held_cards:
            self.alert(Severity.WARNING, f"{len(self.held_cards)} shoe card(s) held before the "
                       f"restart: {', '.join(c.code for c in self.held_cards)}",
                       "They are dealt as soon as the screen's step is done")
            self._try_release()

    # --- What the views read -------------------------------------------------------------

    @property
    def state(self) -> S:
        return self.folded.state  # type: ignore[no-any-return]

    @property
    def held_cards(self) -> tuple[Card, ...]:
        """Shoe cards waiting for a step on the screen, oldest first (on record)."""
        return self.folded.facts.held

    @property
    def out_of_play(self) -> dict[str, str]:
        """Devices whose cards are out of play, with why (a shuffler whose count did not
        match the decks in play): their cards are refused on record until they count right.
        On record, so a restart keeps it."""
        return dict(self.folded.facts.out_of_play)

    @property
    def inspector_called(self) -> bool:
        return self.folded.facts.inspector_called

    def next_step(self) -> Said:
        return self.game.next_step(self.state)

    def alerts_since(self, seen: int) -> list[Alert]:
        """The alerts raised after a view had seen `seen` of them (only the kept ones)."""
        new = min(self.alerts_raised - seen, len(self.alerts))
        return list(self.alerts)[len(self.alerts) - new:] if new > 0 else []

    def has_device(self, role: str) -> bool:
        """Whether a device of this role is linked to the table (simulated or real)."""
        return role in self.device_commands

    def command_device(self, role: str, command: str) -> bool:
        """Send a named command to the device of `role` (its protocol knows the bytes);
        False when there is no such device or it is not connected."""
        send = self.device_commands.get(role)
        if send is None:
            return False
        try:
            return send(command)
        except Exception:  # a device that cannot be told must not stop the table
            log.exception("command %r to the %s", command, role)
            return False

    # --- Actions ----------------------------------------------------------------------

    def perform(self, action: Callable[[S], Operation],
                before: Operation | Sequence[Operation] | None = None) -> Operation:
        """Run one dealer or device action: the game builds the Operation (raising
        `NotAllowed` with the reason), the journal stores it durably, then state moves.
        `before`, a table-level record (a held card's release), is stored with it in one
        transaction: both or neither.

        If the journal cannot write (a full disk), the error propagates with state unchanged,
        so nothing is shown that is not on record. Held cards dealt after the action are
        not the action's business: a failure there is an alert, the card stays held.

        While the journal could not write (`halted`), it is tried again first: its failure
        and the cards that waited go on record before this action."""
        if self.halted and not self._retrying:
            self.retry_journal(now=True)
        op = action(self.state)
        rows = ([] if before is None else [before] if isinstance(before, Operation)
                else list(before))
        rows = [*self._round_dealer(op), *rows, op]
        folded = self.folded
        try:
            for r in rows:
                folded = step(folded, r)
        except FoldError as exc:  # the game built a record its own fold refuses: a bug
            raise TablesideError(f"not recorded: {exc}") from exc
        self._verify_hours(op, folded)
        held_before = self.held_cards
        try:
            self.journal.append_many([(r.kind, r.to_payload()) for r in rows])
        except JournalWriteError as exc:
            self._write_failed(exc)
            raise
        self.folded = folded
        if folded.seq - self._snapshot_at >= SNAPSHOT_EVERY:
            self._snapshot()
        if isinstance(op, RoundVoid) and held_before:
            gone = ", ".join(c.code for c in held_before)
            self.alert(Severity.WARNING, f"Held card(s) {gone} go with the void round",
                       "Put them aside with the round's cards")
        self._notify(op)
        if self.held_cards and not self._releasing:
            self._try_release()
        return op

    def _verify_hours(self, op: Operation, after: Folded) -> None:
        """Refuses the act that would open a new round outside the approved hours (rule
        2.4), unless the inspector's reopening holds; a round in play is finished."""
        if (self.hours is None or isinstance(op, TableRecord | TableOpening)
                or self.folded.game is None or after.game is not self.folded.game):
            return
        if self.game.between_rounds(self.state) and not self.game.between_rounds(after.state):
            verify_open(self.hours, self.journal.now(), self.folded.facts.outside_hours_until)

    def _write_failed(self, exc: JournalWriteError) -> None:
        """The first failed write stops the table dealing: one STOP alert, in the log too.
        The table keeps answering; nothing that is not on record is shown as done."""
        self._retry_at = self.clock() + RETRY_SECONDS
        if self.halted:
            return
        self.halted = str(exc)
        log.error("the journal cannot be written: %s", exc)
        self.alert(Severity.STOP, Said.words(
            "The journal cannot be written: the table stops dealing (%(why)s)",
            why=exc.failure.value.replace("_", " ")),
            Said.words("Deal no more cards; free space or call a technician. Cards already "
                       "out are kept and recorded once it writes again"))

    def retry_journal(self, *, now: bool = False) -> bool:
        """While the journal cannot be written: try again (at most every RETRY_SECONDS unless
        `now`). The failure goes on record first, then the cards that waited, in order.
        True when the journal writes (again)."""
        if not self.halted:
            return True
        if self._retrying or (not now and self.clock() < self._retry_at):
            return False
        self._retry_at = self.clock() + RETRY_SECONDS
        report = DeviceReport("JOURNAL", "write_failed",
                              f"{self.halted}; cards kept meanwhile: {self.waiting() or 'none'}")
        self._retrying = True  # the report before any card, held ones included
        try:
            self.perform(lambda _s: report)
        except JournalWriteError:
            return False
        except Exception:  # a closed journal, a bug: the table stays stopped, and says why
            log.exception("retrying the journal")
            return False
        finally:
            self._retrying = False
        self.halted = ""
        events, self.unrecorded = self.unrecorded, []
        self.alert(Severity.INFO, Said.words(
            "The journal writes again: %(n)s card(s) that waited are recorded now",
            n=len(events)))
        self._retrying = True
        try:
            for i, waiting in enumerate(events):
                self._on_device_event(waiting.event)  # the path it took the first time
                if self.halted:  # full again: the rest wait, in order, behind it
                    self.unrecorded.extend(events[i + 1:])
                    return False
        finally:
            self._retrying = False
        return True

    def waiting(self) -> str:
        """What the shoe did that waits to be recorded, in words ("3C, burn, cutting card")."""
        return ", ".join(w.words for w in self.unrecorded)

    def _snapshot(self) -> None:
        """The folded table on record, so the next start folds only the rows after it. A
        failure costs only start-up time: it is logged, the table goes on."""
        try:
            snap = take(self.folded)
            self.journal.append(snap.kind, snap.to_payload())
            self.folded = step(self.folded, snap)
            self._snapshot_at = self.folded.seq
        except Exception:
            log.exception("snapshot of row %d not written", self.folded.seq)
            self._snapshot_at = self.folded.seq  # try again SNAPSHOT_EVERY rows on

    def record(self, op: TableRecord) -> Operation:
        """Journal one of the table's own records (a device report, the inspector)."""
        return self.perform(lambda _s: op)

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
            self.refused(exc)
            return None
        except Exception as exc:
            log.exception("action failed")
            self.alert(Severity.STOP, f"Not recorded: {exc}",
                       "Call a technician; nothing was changed")
            return None

    # --- People, sign-in and overrides (kiosk/table/roles.py) ---------------------------

    def set_people(self, people: People) -> None:
        """The people list in force (the table's file, or the pit's signed one between
        rounds). Wrong PINs counted and lockouts running carry over."""
        self.people = people
        self.gate.people = people

    def _restore_lockout(self) -> None:
        """The last lockout on record still runs after a restart, for the time it has left
        by the wall clock (a restart is no way round it)."""
        row = self.journal.last_of_kind(PinLockedOut.kind)
        if row is None:
            return
        try:
            at = datetime.fromisoformat(str(row.wall_time).replace("Z", "+00:00"))
            seconds, person = int(row.payload["seconds"]), str(row.payload["person"])
        except (KeyError, TypeError, ValueError):
            return
        left = seconds - (self.wall_clock() - at).total_seconds()
        if 0 < left <= seconds:
            self.gate.until[person] = self.clock() + left

    @property
    def dealer(self) -> Person | None:
        """The dealer signed in (None: nobody, or not on the list in force)."""
        pid = self.folded.facts.dealer
        found = self.people.get(pid) if pid else None
        return found if found is not None else (Person(pid, pid, Role.DEALER, "")
                                                if pid else None)

    def _round_dealer(self, op: Operation) -> list[Operation]:
        """The round's dealer on record with its first act, while a dealer is signed in."""
        facts = self.folded.facts
        if not facts.dealer or isinstance(op, TableRecord | TableOpening) \
                or self.folded.game is None:
            return []
        rnd = self.game.round_number(self.state)
        if rnd == facts.dealer_round:
            return []
        dealer = self.dealer
        return [RoundDealer(rnd, facts.dealer, dealer.name if dealer else facts.dealer)]

    def check_pin(self, person_id: str, pin: str) -> Person:
        """The person whose id and PIN these are. A wrong one raises `RoleRefused`; the one
        that locks the id out is journaled (`PinLockedOut`, an alert at the pit too) and
        raised at the table as a STOP alert and `LockedOut`."""
        person_id = person_id.strip()
        # The wrong PINs and the lockout on record count as well as this table's own: another
        # process on the journal (the self-test, the set-up screen) puts its own there, and
        # they add up at once, not at the next start.
        on_record, left = tally_on_record(self.journal, person_id, self.wall_clock(),
                                          self._pins_from.get(person_id, 0))
        if left > 0 and person_id not in self.gate.until:
            self.gate.until[person_id] = self.clock() + left
        own = self.gate.wrong.get(person_id, 0)
        if on_record:
            self.gate.wrong[person_id] = own + on_record
        try:
            person, locked = self.gate.check(person_id, pin)
        finally:
            if on_record and person_id in self.gate.wrong:  # keep this table's own count
                self.gate.wrong[person_id] = max(0, self.gate.wrong[person_id] - on_record)
        if not locked:
            self._pins_from[person_id] = self.journal.count()  # a right PIN: count anew
            return person
        minutes = self.people.lockout_seconds // 60
        self.record(PinLockedOut(person_id, self.people.lockout_after,
                                 self.people.lockout_seconds))
        self._pins_from[person_id] = self.journal.count()  # its own lockout runs here
        self.alert(Severity.STOP, Said.words(
            "%(who)s locked out for %(minutes)s minute(s) after %(n)s wrong PINs",
            who=person_id, minutes=minutes, n=self.people.lockout_after),
            Said.words("The pit is told; call the inspector"))
        err = LockedOut.of("%(who)s is locked out after too many wrong PINs: %(minutes)s "
                           "minute(s) left", who=person_id, minutes=minutes)
        err.seconds = float(self.people.lockout_seconds)
        raise err

    def sign_in(self, person_id: str, pin: str) -> Person:
        """A dealer signs in with their id and PIN; on record (`DealerSignedIn`), with the
        dealer before them signed out in the same transaction."""
        person = self.check_pin(person_id, pin)
        if person.role is not Role.DEALER:
            raise RoleRefused.of("%(who)s is not on this table's list as a dealer",
                                 who=person.id)
        if self.folded.facts.dealer == person.id:
            return person
        signed_in = DealerSignedIn(person.id, person.name)
        before = self.dealer  # the dealer change: the one before signed out with it
        self.perform(lambda _s: signed_in, before=None if before is None
                     else DealerSignedOut(before.id, before.name))
        return person

    def sign_out(self) -> None:
        """The dealer signed in signs out (on record: `DealerSignedOut`)."""
        dealer = self.dealer
        if dealer is not None:
            self.record(DealerSignedOut(dealer.id, dealer.name))

    def override_needed(self, action: Callable[[S], Operation]) -> Override | None:
        """The override an act needs on a table that checks PINs, told by what it would
        record (the records' shared bases, never a game's name): a void; a card on record
        as accepted by the inspector; a card keyed in while the shoe is linked and
        answering. None when it needs none (or the table checks no PIN). The rules' refusal
        of the act itself propagates."""
        if not self.people.checked:
            return None
        op = action(self.state)
        source = str(getattr(op, "source", ""))
        if isinstance(op, RoundVoid):
            return Override.VOID
        if source == "override":
            return Override.ACCEPT_QUERIED
        if source == "keyed" and self.keyed_over_shoe():
            return Override.MANUAL_CARD
        return None

    def keyed_over_shoe(self) -> bool:
        """Whether a card keyed in now would stand over the shoe's read (a manual card, the
        inspector's override on a table that checks PINs): the shoe is linked and answering
        and no unread card waits. With the shoe away, or for a card it could not read,
        keying in is the way the card goes on record: the dealer's own act."""
        if not (self.has_device("shoe") and self.device_online.get("SHOE", True)):
            return False
        pending = getattr(self.state, "pending", None)
        return str(getattr(pending, "reason", "")) != "unread"

    def may(self, action: Override, allowed: bool = True) -> bool:
        """The screens' `can_` for an override: the game allows it (`allowed`) and someone
        on the list in force holds the role it needs (a table with no list checks none)."""
        return allowed and (not self.people.checked or self.people.holds(NEEDS[action]))

    def override(self, action: Override, person_id: str, pin: str, reason: str,
                 act: Callable[[S], Operation] | None = None, detail: str = ""
                 ) -> Operation:
        """An override by the role it needs (`NEEDS`), with a reason: the `OverrideApproved`
        record and the act (if any) in one transaction, or `RoleRefused` and nothing on
        record. A table with no people list checks no PIN: the act alone, as before (an
        override with no act is refused there: nobody can approve it)."""
        reason = " ".join(reason.split())
        if not self.people.checked:
            if act is not None:
                return self.perform(act)
            raise RoleRefused.of("This table has no people list: nobody can give the "
                                 "%(role)s's PIN", role=ROLE_WORDS[NEEDS[action]])
        if not reason:
            raise RoleRefused.of("Give a reason for the override")
        record = approval(self.check_pin(person_id, pin), action, reason, detail)
        if act is None:
            return self.perform(lambda _s: record)
        return self.perform(act, before=record)

    def call_inspector(self, source: str) -> bool:
        """Call the inspector once; calling again while the call stands does nothing."""
        if self.inspector_called:
            return False
        self.record(InspectorCalled(source))
        self.alert(Severity.INFO, "Inspector called", "The amber lamp flashes until they come")
        return True

    def inspector_attended(self, inspector: str) -> None:
        if not inspector.strip():
            raise NotAllowed("Say which inspector attended")
        self.record(InspectorAttended(inspector.strip()))

    def refused(self, exc: TablesideError) -> None:
        """A refusal as a warning: its English on record, its sentence for the screens."""
        self.alert(Severity.WARNING, str(exc), sentence=exc.sentence)

    def alert(self, severity: Severity, message: str, way_forward: str = "", *,
              sentence: Sentence | None = None) -> None:
        """Tell the dealer. A `Said` message (or way forward) carries its sentence, for the
        screen to say in the dealer's language; the alert and the log keep the English."""
        if sentence is None and isinstance(message, Said):
            sentence = message.sentence
        a = Alert(severity, message, way_forward, sentence)
        self.alerts.append(a)
        self.alerts_raised += 1
        log.warning("%s: %s%s", severity, message, f" -> {way_forward}" if way_forward else "")
        self._notify(None)

    # --- Held shoe cards ------------------------------------------------------------------

    def release_held_cards(self) -> None:
        """Deal the shoe cards that arrived while a card needed the dealer's decision."""
        shoe = self.dealing_game()
        if shoe is None:
            return
        self._releasing = True
        try:
            while self.held_cards:
                card = self.held_cards[0]
                try:
                    shoe.verify_shoe_card(self.state, card)
                except NotAllowed:
                    return
                # The release and the card's own record in one transaction: a held card is
                # never released without being dealt, queried or refused on record.
                device = self.dealing_device
                self.deal_card(shoe, device, card,
                               before=DeviceReport(device, RELEASED, card.code))
        finally:
            self._releasing = False

    def _set_aside_held(self, why: str) -> None:
        """Held cards that can no longer go to the game they came out for, on record."""
        if not self.held_cards:
            return
        gone = ", ".join(c.code for c in self.held_cards)
        self.record(DeviceReport(self.dealing_device, SET_ASIDE, f"{gone}: {why}"))
        self.alert(Severity.WARNING, f"Held card(s) {gone} set aside: {why}",
                   "Put them aside; they are not dealt")

    # --- Device events ------------------------------------------------------------------

    def on_device_event(self, event: Any) -> None:
        """Handle one typed event from a driver. Never raises."""
        if self.halted:  # a heartbeat a second: the journal is tried again
            self.retry_journal()
        try:
            self._on_device_event(event)
        except TablesideError as exc:
            self.alert(Severity.STOP, f"Could not record a {type(event).__name__}: {exc}",
                       "Call a technician; the table must not go on until it is recorded")
        except Exception:  # a bug must not take the table down with it
            log.exception("device event %r", event)
            self.alert(Severity.STOP, f"Internal error handling {type(event).__name__}",
                       "Call a technician")

    def dealing_game(self) -> DealsFromShoe[S] | None:
        """The game as one that takes cards from a dealing device, or None."""
        game = self.game
        return game if isinstance(game, DealsFromShoe) else None

    def _on_device_event(self, event: Any) -> None:
        device = getattr(event, "device", "SHOE")
        if not isinstance(event, ev.LINK_EVENTS):
            # Every device's own events go to the module its protocol's registration names
            # (the card shoe's kiosk/table/shoe.py, the wheel's kiosk/table/wheel.py); the
            # link's reports, the same for every device, are handled here.
            handling = protocol_of_device(device)
            if handling is None or not handling.table_side:
                self.report(device, "unknown_device", type(event).__name__, Severity.WARNING,
                            Said.words("A device the table does not know sent a message: "
                                       "%(device)s", device=device),
                            Said.words("Check which devices are configured for this table"))
                return
            importlib.import_module(handling.table_side).on_event(self, event)
            return
        if isinstance(event, ev.FramesLost):
            detail = (f"{event.missing} frame(s) lost between {event.expected_seq} and "
                      f"{event.got_seq}")
            self.report(device, "frames_lost", detail, Severity.STOP,
                        Said.words("The %(device)s link lost %(n)s message(s)",
                                   device=device_name(device), n=event.missing),
                        CHECK_THE_CARDS)
        elif isinstance(event, ev.DeviceOffline):
            if self.device_online.get(device, True):
                self.device_online[device] = False
                by_hand = _by_hand(device)
                reason = getattr(event, "reason", "")  # the link's words for why
                name = device_name(device)
                if reason:  # the port: missing, not allowed, gone
                    self.report(device, "offline", reason, Severity.WARNING,
                                Said.words("The %(device)s cannot be reached: %(reason)s",
                                           device=name, reason=reason),
                                Said.words("%(by_hand)s; call a technician", by_hand=by_hand))
                else:
                    self.report(device, "offline", f"silent for {event.silent_seconds:.0f} s",
                                Severity.WARNING,
                                Said.words("The %(device)s is not answering", device=name),
                                Said.words("%(by_hand)s; check its cable and power",
                                           by_hand=by_hand))
        elif isinstance(event, ev.DeviceOnline):
            was = self.device_online.get(device, True)
            self.device_online[device] = True
            if not was:
                self.report(device, "online", "", Severity.INFO,
                            Said.words("The %(device)s is back", device=device_name(device)))
        elif isinstance(event, ev.BadInput):
            self._on_bad_input(device, event)
        # Heartbeats only keep the link alive (the driver watches them).

    def _on_bad_input(self, device: str, event: ev.BadInput) -> None:
        """Bytes the driver could not take. A card frame that arrived intact but names no
        card as the spec writes it, or a repeated seq with other content, is a card that may
        have left the shoe: a STOP alert and a report. Any other reject (noise, a bad
        checksum) goes on record in the link's report with the count of each kind so far;
        a card lost that way shows as a gap in the sequence (`FramesLost`)."""
        self.bad_input += 1
        self._rejects[(device, str(event.kind))] = self._rejects.get(
            (device, str(event.kind)), 0) + 1
        raw = str(event.raw)[2:-1]  # the bytes as text, control bytes escaped
        name = device_name(device)
        if event.kind is ev.BadKind.BAD_CARD:
            self.report(device, "card_unknown", f"{event.reason}: {raw}", Severity.STOP,
                        Said.words("The %(device)s sent a card the table does not know: "
                                   "%(frame)s", device=name, frame=raw),
                        CHECK_THE_CARDS)
        elif event.kind is ev.BadKind.REPEAT_DIFFERS:
            self.report(device, "repeat_differs", f"{event.reason}: {raw}", Severity.STOP,
                        Said.words("The %(device)s sent two messages under one number: "
                                   "%(frame)s", device=name, frame=raw),
                        CHECK_THE_CARDS)
        else:
            counts = ", ".join(f"{n} {kind}" for (d, kind), n in sorted(self._rejects.items())
                               if d == device)
            self.report(device, "bad_input", f"{event.kind}: {event.reason}: {raw} "
                        f"(so far: {counts})")

    def in_order(self, event: Any, words: str, act: Callable[[], None]) -> None:
        """A device's act that must go on record in the order it happened (a card out of the
        shoe): `act` records it. While the journal cannot write, the event waits in
        `unrecorded` (never dropped), behind anything already waiting, with `words` to say
        it; it takes this same path again once the journal writes (`retry_journal`)."""
        if self.halted or (self.unrecorded and not self._retrying):
            self._keep(Waiting(event, words))
            return
        try:
            act()
        except JournalWriteError:  # halted now (perform said so): it waits
            self._keep(Waiting(event, words))

    def _keep(self, waiting: Waiting) -> None:
        self.unrecorded.append(waiting)
        log.error("kept in memory, the journal cannot be written: %s from %s",
                  waiting.words, getattr(waiting.event, "device", "?"))
        self._notify(None)

    def deal_card(self, shoe: DealsFromShoe[S], device: str, card: Card,
                  before: Operation | None = None) -> None:
        """A card the dealing `device` dealt, given to the game: dealt, queried, or refused
        on record in the device's name (it has left the device either way)."""
        self.dealing_device = device
        try:
            op = self.perform(lambda s: self._from_simulator(shoe.shoe_card(s, card), device),
                              before)
        except NotAllowed as exc:
            # The card has physically left the shoe: record that it was refused and why
            # (a noisy line's cards once a minute, with their count).
            detail = f"{card.code}: {exc}"
            why = Said(str(exc), exc.sentence)
            message = (Said.words("The shoe dealt the %(card)s but %(why)s", card=card.name,
                                  why=why) if device == "SHOE" else
                       Said.words("The %(device)s dealt the %(card)s but %(why)s",
                                  device=device_name(device), card=card.name, why=why))
            way = (Said.words("Put the card aside and call the inspector, or void the "
                              "%(round)s", round=self.round_word()) if self._may_void()
                   else Said.words("Put the card aside and call the inspector"))
            if before is None:
                self.report(device, "card_refused", detail, Severity.STOP, message, way)
                return
            self.perform(lambda _s: DeviceReport(device, "card_refused", detail), before)
            self.alert(Severity.STOP, message, way)
            return
        if isinstance(op, CardQuery):
            self.alert(Severity.STOP, op.message,
                       Said.words("Key in the right card if the shoe misread it, void the "
                                  "%(round)s, or call the inspector to accept it",
                                  round=self.round_word()))

    def _may_void(self) -> bool:
        """Whether the game lets the dealer void the round now (its engine's
        `can_void_round`): a coup the shuffler malfunction procedure holds is not voided,
        it ends by the procedure (rule 12.4). A game that says nothing may."""
        engine = importlib.import_module(type(self.game).__module__)
        check = getattr(engine, "can_void_round", None)
        if not callable(check):
            return True
        try:
            return bool(check(self.state, "reason to be given"))
        except (TypeError, TablesideError):
            return True

    def _from_simulator(self, op: Operation, device: str) -> Operation:
        """A card a simulated device dealt, on record as `"source": "simulated"`, never as
        the shoe's: a journal shows whether real cards were dealt."""
        source = getattr(op, "source", None)
        found = protocol_of_device(device)
        role = found.role if found is not None else "shoe"
        if role not in self.simulated or not isinstance(source, StrEnum) or source != "shoe":
            return op
        simulated: Any = type(source)("simulated")
        return dataclasses.replace(op, **{"source": simulated})

    def round_word(self) -> str:
        """What the game calls a round ("coup"), a `Said` the screens translate."""
        word = self.spec.round_word
        return {"coup": Said.words("coup"), "round": Said.words("round"),
                "spin": Said.words("spin")}.get(word, word)

    def report(self, device: str, event: str, detail: str, severity: Severity | None = None,
               message: str = "", way_forward: str = "") -> None:
        """Journal a device's report and alert the dealer, at most once a minute for each
        device and kind: repeats within the minute are counted and go on record with the
        next one after it (`DeviceReport.count`)."""
        key = (device, event)
        now = self.clock()
        quiet = self._quiet.get(key)
        if event not in _FACT_EVENTS and quiet is not None and now - quiet[0] < COALESCE_SECONDS:
            self._quiet[key] = (quiet[0], quiet[1] + 1, detail)
            return
        count = 1 + (quiet[1] if quiet is not None else 0)
        if count > 1:
            detail = f"{detail} ({count - 1} more like it in the minute before)"
        self._quiet[key] = (now, 0, detail)
        self.record(DeviceReport(device, event, detail, count))
        if severity is None and event in _LOGGED:  # for the technician (journalctl)
            log.warning("%s %s: %s", device, event, detail)
        if severity is not None:
            self.alert(severity, message or detail, way_forward)

    def flush_reports(self) -> None:
        """Put on record the reports still being counted (at close). With a journal that
        cannot write, what is lost is said in the log, card by card: never silently."""
        if self.halted:
            self.retry_journal(now=True)
        try:
            for (device, event), (_since, count, detail) in list(self._quiet.items()):
                if count:
                    self._quiet[(device, event)] = (self.clock(), 0, detail)
                    self.record(DeviceReport(device, event, f"{detail} (repeated)", count))
        except JournalWriteError as exc:
            log.error("reports not recorded at close: %s", exc)
        if self.unrecorded:
            log.error("closing with what the shoe did that the journal could not record: %s",
                      self.waiting())

    def _notify(self, op: Operation | None) -> None:
        for listener in list(self.listeners):
            try:
                listener(self.state, op)
            except Exception:  # a broken view must not stop the table
                log.exception("listener %r failed", listener)


@dataclasses.dataclass(frozen=True, slots=True)
class Waiting:
    """A device's event kept while the journal cannot write, with the words that say it
    ("3C", "burn", "cutting card") on the console and in the log."""

    event: Any
    words: str


def device_name(device: str) -> str:
    """The device as the dealer calls it ("card shoe"; a `Said` the screens translate), as
    its protocol's registration says."""
    found = protocol_of_device(device)
    return found.spoken if found is not None and found.spoken else device.lower()


def _by_hand(device: str) -> Said:
    """What the dealer does while the device is away, as its protocol's registration says."""
    found = protocol_of_device(device)
    return (found.by_hand if found is not None and found.by_hand
            else Said.words("Key in cards by hand"))
CHECK_THE_CARDS = Said.words("Check the cards on the table against the screen and key in "
                              "any card that is missing")

