"""Who may do what at the table: people, PINs, roles, sign-in, lockout and overrides (the
Mpumalanga table game rules, section 2; docs/roles.md has the table of who may do what).

People
    A table knows three roles (`Role`): the dealer, the inspector and the technician. Its
    people come in the `[people]` section of its configuration, one sub-table each, with
    the PIN stored hashed with scrypt (`hash_pin`; the pit's inspector passwords use the
    same functions)::

        [people]
        lockout_after = 5          # wrong PINs in a row that lock an id out
        lockout_minutes = 15       # for this long
        [people.4471]              # an id is a badge number: digits only
        name = "Thandi M."
        role = "dealer"
        pin = "scrypt$16384$8$1$...$..."   # tableside pit pin

    An id is a badge number, digits only (`id_refusal`): the PIN pad keys digits.

    The pit signs `[people]` with the limits (kiosk/signed_config.py): the same document,
    taken up between rounds, kept in the journal once applied, so a table that cannot reach
    the pit keeps the last signed list. A table with no pit reads its own file. A table with
    no `[people]` at all checks no PIN (as before this module): every override is allowed
    as the game allows it and none is journaled.

The role check (the API other parts of the table use)
    `NEEDS[action]` is the role an `Override` needs. `TableSession.override(action,
    person, pin, reason, act=None)` checks the PIN (locking the id out after
    `lockout_after` wrong ones), the role and the reason, then journals an `OverrideApproved`
    record in one transaction with the act (`act(state) -> Operation`, or nothing: an
    override of something that is not a game's act, like reopening outside hours, journals
    the record alone). It raises `RoleRefused` (a `NotAllowed`: a ValueError) with the
    reason in words, and journals nothing, when any of that fails.
    `TableSession.may(action, allowed)` is the screens' `can_` for an override: the game
    allows it (`allowed`) and somebody on the list holds the role; `needs_words(action)`
    says which role a greyed control needs.

Records (all `TableRecord`s: no game's, every game leaves its state as it is)
    `OverrideApproved(action, role, person, name, reason, detail)` kind "override";
    `DealerSignedIn(dealer, name)`, `DealerSignedOut(dealer, name)`;
    `RoundDealer(round, dealer, name)`, journaled with the first act of each round while a
    dealer is signed in (a journal with no sign-in has none: older journals read as
    before); `PinLockedOut(person, attempts, seconds)`, which the pit raises as an alert;
    `PinRefused(person)`, a wrong PIN keyed to a command that runs once (the self-test, the
    set-up screen), so the next run, and the running table's next PIN check, count it
    towards the lockout (`check_on_record`, `tally_on_record`); `LimitsChanged`, the
    inspector's limit change at the table (kiosk/table/limits.py), here so that every
    reader of a journal (the fold, the replay, the pit) knows it.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from kiosk.rules.errors import NotAllowed, Said
from kiosk.rules.operations import TableRecord

if TYPE_CHECKING:
    from kiosk.store.journal import Journal

_N, _R, _P = 2**14, 8, 1  # scrypt's cost: about 50 ms and 16 MiB a check on a small server
PIN_DIGITS = (4, 8)
"""A PIN is 4 to 8 digits."""
LOCKOUT_AFTER = 5
LOCKOUT_MINUTES = 15
ID_DIGITS = 8
"""An id is a badge number of 1 to 8 digits: the table's PIN pad keys digits only, so an id
with letters could never be keyed (docs/roles.md)."""
_ID = re.compile(rf"[0-9]{{1,{ID_DIGITS}}}")


class Role(StrEnum):
    DEALER = "dealer"
    INSPECTOR = "inspector"
    TECHNICIAN = "technician"


class Override(StrEnum):
    """An act that needs a role's PIN and a reason."""

    VOID = "void_round"
    CARD_CORRECTION = "card_correction"
    ACCEPT_QUERIED = "accept_queried_card"
    MANUAL_CARD = "manual_card"
    LIMIT_CHANGE = "limit_change"
    REOPEN_HOURS = "reopen_outside_hours"
    DEVICE_SETUP = "device_setup"
    SELF_TEST = "self_test"
    ATTENDED = "inspector_attended"


NEEDS: dict[Override, Role] = {
    Override.VOID: Role.INSPECTOR,
    Override.CARD_CORRECTION: Role.INSPECTOR,
    Override.ACCEPT_QUERIED: Role.INSPECTOR,
    Override.MANUAL_CARD: Role.INSPECTOR,
    Override.LIMIT_CHANGE: Role.INSPECTOR,
    Override.REOPEN_HOURS: Role.INSPECTOR,
    Override.DEVICE_SETUP: Role.TECHNICIAN,
    Override.SELF_TEST: Role.TECHNICIAN,
    Override.ATTENDED: Role.INSPECTOR,
}
"""The role each override needs (docs/roles.md)."""

ROLE_WORDS = {Role.DEALER: Said.words("dealer"), Role.INSPECTOR: Said.words("inspector"),
              Role.TECHNICIAN: Said.words("technician")}
"""Each role as the screens say it (a `Said`: translated on the screen)."""


class RoleRefused(NotAllowed):
    """An override or a sign-in refused: a wrong PIN, a locked-out id, the wrong role, no
    reason. The message says which, for the dealer."""


class LockedOut(RoleRefused):
    """An id locked out after too many wrong PINs; `seconds` left."""

    seconds: float = 0.0


# --- PINs ---------------------------------------------------------------------------------


def hash_pin(secret: str, salt: bytes | None = None) -> str:
    """A PIN (or the pit's password) hashed with scrypt, as stored: scheme, cost, salt, key."""
    salt = salt or secrets.token_bytes(16)
    key = hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    salt_text, key_text = base64.b64encode(salt).decode(), base64.b64encode(key).decode()
    return f"scrypt${_N}${_R}${_P}${salt_text}${key_text}"


def check_pin(secret: str, stored: str) -> bool:
    """Whether `secret` is the one `stored` was hashed from (False for a malformed hash)."""
    try:
        scheme, n, r, p, salt_text, key_text = stored.split("$")
        if scheme != "scrypt":
            return False
        salt, key = base64.b64decode(salt_text), base64.b64decode(key_text)
        got = hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=int(n), r=int(r),
                             p=int(p), dklen=len(key))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, key)


@functools.cache
def _no_one() -> str:
    """A hash to check an unknown id's PIN against, so timing does not tell ids apart."""
    return hash_pin("not a real pin", b"0" * 16)


def pin_refusal(pin: str) -> str:
    """Why `pin` cannot be a PIN ("" when it can)."""
    lo, hi = PIN_DIGITS
    if not (pin.isascii() and pin.isdigit() and lo <= len(pin) <= hi):
        return f"a PIN is {lo} to {hi} digits"
    return ""


def id_refusal(person_id: str) -> str:
    """Why `person_id` cannot be a person's id ("" when it can): ids are digits, by rule,
    as the PIN pad keys them."""
    if not (person_id.isascii() and _ID.fullmatch(person_id)):
        return (f"an id is a badge number of 1 to {ID_DIGITS} digits (the table's PIN pad "
                f"keys digits only), not {person_id!r}")
    return ""


# --- people -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    name: str
    role: Role
    pin_hash: str


@dataclass(frozen=True, slots=True)
class People:
    """The people a table knows. `checked` is False for a table with no `[people]`: it
    checks no PIN (see the module's text)."""

    persons: tuple[Person, ...] = ()
    lockout_after: int = LOCKOUT_AFTER
    lockout_seconds: int = LOCKOUT_MINUTES * 60
    checked: bool = False

    def get(self, person_id: str) -> Person | None:
        return next((p for p in self.persons if p.id == person_id), None)

    def holds(self, role: Role) -> bool:
        return any(p.role is role for p in self.persons)


NO_LIST = People()


def read_people(section: Mapping[str, Any],
                fail: Callable[[str, str, str], Any]) -> People:
    """The `[people]` section of a configuration; `fail(section, key, reason)` raises with
    the file's line (kiosk/config.py's reader)."""
    after = section.get("lockout_after", LOCKOUT_AFTER)
    minutes = section.get("lockout_minutes", LOCKOUT_MINUTES)
    for key, value, hi in (("lockout_after", after, 20), ("lockout_minutes", minutes, 1440)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
            fail("people", key, f"must be a whole number from 1 to {hi}, not {value!r}")
    persons = []
    for pid, entry in section.items():
        if pid in ("lockout_after", "lockout_minutes"):
            continue
        where = f"people.{pid}"
        if not isinstance(entry, dict):
            fail("people", pid, "must be a person, like [people.4471] with name, role and pin")
        why = id_refusal(pid)
        if why:
            fail(where, "", why)
        for key in entry:
            if key not in ("name", "role", "pin"):
                fail(where, key, "unknown key (known here: name, pin, role)")
        name, role, pin = entry.get("name", pid), entry.get("role"), entry.get("pin")
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            fail(where, "name", "must be text of 1 to 40 characters")
        if role not in [r.value for r in Role]:
            fail(where, "role", f"must be one of {', '.join(Role)}, not {role!r}")
        if not isinstance(pin, str) or not pin.startswith("scrypt$") or pin.count("$") != 5:
            fail(where, "pin", "must be a PIN hashed with scrypt (tableside pit pin), "
                               "never the PIN itself")
        persons.append(Person(pid, str(name), Role(str(role)), str(pin)))
    return People(tuple(persons), int(after), int(minutes) * 60, checked=True)


def people_toml(people: list[tuple[str, str, Role, str]], lockout_after: int = LOCKOUT_AFTER,
                lockout_minutes: int = LOCKOUT_MINUTES) -> str:
    """A `[people]` section for (id, name, role, PIN) each, the PINs hashed."""
    lines = ["[people]", f"lockout_after = {lockout_after}",
             f"lockout_minutes = {lockout_minutes}"]
    for pid, name, role, pin in people:
        why = id_refusal(pid) or pin_refusal(pin)
        if why:
            raise RoleRefused(f"{pid}: {why}")
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        lines += [f"[people.{pid}]", f'name = "{quoted}"', f'role = "{role}"',
                  f'pin = "{hash_pin(pin)}"']
    return "\n".join(lines) + "\n"


# --- the journal's records ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OverrideApproved(TableRecord):
    """An override with the PIN of the role it needs and a reason (module text)."""

    kind = "override"
    action: str
    role: str
    person: str
    name: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DealerSignedIn(TableRecord):
    kind = "dealer_signed_in"
    dealer: str
    name: str


@dataclass(frozen=True, slots=True)
class DealerSignedOut(TableRecord):
    kind = "dealer_signed_out"
    dealer: str
    name: str


@dataclass(frozen=True, slots=True)
class RoundDealer(TableRecord):
    """Who dealt round `round` (with the round's first act)."""

    kind = "round_dealer"
    round: int
    dealer: str
    name: str


@dataclass(frozen=True, slots=True)
class PinLockedOut(TableRecord):
    """`attempts` wrong PINs in a row for the id `person`: locked out for `seconds`."""

    kind = "pin_locked_out"
    person: str
    attempts: int
    seconds: int


@dataclass(frozen=True, slots=True)
class PinRefused(TableRecord):
    """A wrong PIN for the id `person` keyed where no running table counts it (the self-test
    command: one try a run). On record so that the next try counts it towards the lockout
    (`check_on_record`); the PIN itself is never on record."""

    kind = "pin_refused"
    person: str


@dataclass(frozen=True, slots=True)
class LimitsChanged(TableRecord):
    """The inspector changed one bet's limits at the table (rule 2.2, kiosk/table/limits.py):
    `bet` ("banker"; "" for a game whose limits are one pair), its new `minimum` and
    `maximum` in cents, and the game's section `section` of the configuration whole after
    the change (`data`, JSON), which the table's start reads back over its configuration."""

    kind = "limits_changed"
    bet: str
    minimum: int
    maximum: int
    section: str
    data: str


# --- the PIN check with its lockout --------------------------------------------------------


@dataclass
class Gate:
    """Checks PINs against the people list, counting wrong ones per id on `clock`
    (monotonic seconds). `locked(id)` is the seconds left of a lockout (0: none)."""

    people: People
    clock: Callable[[], float]
    wrong: dict[str, int] = field(default_factory=dict)
    until: dict[str, float] = field(default_factory=dict)

    def locked(self, person_id: str) -> float:
        left = self.until.get(person_id, 0.0) - self.clock()
        if left <= 0 and person_id in self.until:
            del self.until[person_id]
            self.wrong.pop(person_id, None)
        return max(0.0, left)

    def check(self, person_id: str, pin: str) -> tuple[Person, bool]:
        """The person whose PIN this is. Raises `LockedOut` while the id is locked out,
        `RoleRefused` for a wrong id or PIN; the bool is True when this wrong PIN just
        locked the id out (the caller journals it: `lockout`)."""
        left = self.locked(person_id)
        if left:
            err = LockedOut.of("%(who)s is locked out after too many wrong PINs: "
                               "%(minutes)s minute(s) left", who=person_id,
                               minutes=int(-(-left // 60)))
            err.seconds = left
            raise err
        person = self.people.get(person_id)
        good = check_pin(pin, person.pin_hash if person is not None else _no_one())
        if person is not None and good:
            self.wrong.pop(person_id, None)
            return person, False
        count = self.wrong[person_id] = self.wrong.get(person_id, 0) + 1
        if count >= self.people.lockout_after:
            self.until[person_id] = self.clock() + self.people.lockout_seconds
            return Person(person_id, "", Role.DEALER, ""), True
        raise RoleRefused.of("Wrong id or PIN (%(left)s more wrong before a lockout)",
                             left=self.people.lockout_after - count)


def _when(wall_time: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(wall_time).replace("Z", "+00:00"))
    except ValueError:
        return None


TALLY_KINDS = (PinRefused.kind, PinLockedOut.kind, OverrideApproved.kind,
               DealerSignedIn.kind)
"""The rows a PIN tally reads: wrong PINs, lockouts, and the approvals and sign-ins that a
right PIN put on record (which start the count again)."""


def tally_on_record(journal: Journal, person_id: str, now: datetime, after_seq: int = 0
                    ) -> tuple[int, float]:
    """The wrong PINs on record for `person_id` in a row (`PinRefused` rows since its last
    lockout, approval or sign-in on record, and after row `after_seq`), and the seconds left
    at `now` (wall clock) of its last lockout on record (0: none running). Read newest first
    through the journal's kind index, and only back to that point: every PIN check makes it,
    so the wrong PINs of another process on the same journal (the self-test's) count at
    once."""
    wrong = 0
    for row in journal.newest_of_kinds(TALLY_KINDS, after_seq):
        who = row.payload.get("dealer") if row.kind == DealerSignedIn.kind \
            else row.payload.get("person")
        if who != person_id:
            continue
        if row.kind == PinRefused.kind:
            wrong += 1
            continue
        if row.kind == PinLockedOut.kind:
            at = _when(row.wall_time)
            seconds = row.payload.get("seconds")
            if at is not None and isinstance(seconds, int):
                left = float(seconds) - (now - at).total_seconds()
                return wrong, left if 0 < left <= seconds else 0.0
        return wrong, 0.0
    return wrong, 0.0


def check_on_record(journal: Journal, people: People, person_id: str, pin: str,
                    now: datetime) -> Person:
    """The PIN check of a command that runs once and ends (the self-test, the set-up
    screen), counted towards the lockout like every PIN keyed at the table: a lockout on
    record for `person_id` still running at `now` (wall clock) refuses even the right PIN;
    each wrong PIN goes on record (`PinRefused`), and the `lockout_after`-th in a row since
    the id's last lockout, approval or sign-in on record (`tally_on_record`) locks it out on
    record (`PinLockedOut`: the running table honours it at its next PIN check, a restart
    too, and the pit raises it). Raises `RoleRefused` (`LockedOut`) as `Gate.check` does."""
    person_id = person_id.strip()
    wrong, left = tally_on_record(journal, person_id, now)
    gate = Gate(people, time.monotonic)
    if wrong:
        gate.wrong[person_id] = wrong
    if left > 0:
        gate.until[person_id] = time.monotonic() + left
    try:
        person, locked = gate.check(person_id, pin)
    except LockedOut:
        raise
    except RoleRefused:
        journal.append(PinRefused.kind, PinRefused(person_id).to_payload())
        raise
    if locked:
        minutes = people.lockout_seconds // 60
        journal.append_many([
            (PinRefused.kind, PinRefused(person_id).to_payload()),
            (PinLockedOut.kind, PinLockedOut(person_id, people.lockout_after,
                                             people.lockout_seconds).to_payload())])
        err = LockedOut.of("%(who)s is locked out after too many wrong PINs: %(minutes)s "
                           "minute(s) left", who=person_id, minutes=minutes)
        err.seconds = float(people.lockout_seconds)
        raise err
    return person


def approval(person: Person, action: Override, reason: str, detail: str = ""
             ) -> OverrideApproved:
    """The record of `person` approving `action` (their PIN already checked): `RoleRefused`
    unless they hold the role it needs and there is a reason."""
    reason = " ".join(reason.split())
    if not reason:
        raise RoleRefused.of("Give a reason for the override")
    role = NEEDS[action]
    if person.role is not role:
        raise RoleRefused.of("%(who)s may not do this: it needs the %(role)s's PIN",
                             who=person.id, role=ROLE_WORDS[role])
    return OverrideApproved(str(action), str(role), person.id, person.name, reason, detail)


def needs_words(action: Override) -> Said:
    """What a greyed control says about who may do it ("Needs the inspector's PIN")."""
    return Said.words("Needs the %(role)s's PIN", role=ROLE_WORDS[NEEDS[action]])
