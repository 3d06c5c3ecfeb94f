"""The pit's configurations, taken up by the table between rounds.

The sync (its own thread or process) leaves the newest signed configuration the pit offers
beside the journal (`kiosk/sync/pit_config.py`); the kiosk looks at it every few seconds from
its own loop. A configuration that is not signed by this table's pit, is another table's, is
older than the one in force, or is not a valid configuration is refused on record
(`PitConfigRefused`, which reaches the pit as an alert) and told to the dealer; the table keeps
its limits. A good one waits until no round is in play (`Game.between_rounds`), then goes on
record (`PitConfigApplied`: old version -> new, the signed body whole) in one transaction with
the game's opening under the new rules, so every round after it is judged by them and the
signage, replay and the pit all see the change.

A change the running screens cannot take over (another game, other chip buttons, another
table name or number of places, or any rule the game's screens are built from: everything
but the limits, `GameSpec.screen_rules`) is applied the same way and then asks the kiosk to
restart; the table's start reads the version in force from the journal (`effective`).

A limit change the inspector makes at the table (kiosk/table/limits.py) stands over the pit's
version in force until the next one: `effective` reads the last `LimitsChanged` after it back
over the configuration, and `PitConfigs` tells the screens the bounds and the game's section
(`limits.attach`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.config import ConfigError, TableConfig, with_pit, with_section
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.money import format_money
from kiosk.rules.operations import operation_from_record
from kiosk.rules.registry import GAMES
from kiosk.signed_config import PitConfigError, SignedConfig, check_body, verify
from kiosk.store.journal import Entry, Journal
from kiosk.sync.pit_config import read_offer
from kiosk.table import limits
from kiosk.table.records import PitConfigApplied, PitConfigRefused, Snapshot
from kiosk.table.roles import LimitsChanged
from kiosk.table.session import Severity, TableSession

log = logging.getLogger(__name__)

POLL_EVERY = 2.0
"""Seconds between the kiosk's looks at the offered configuration."""


def in_force(journal: Journal) -> PitConfigApplied | None:
    """The pit's configuration the journal last put in force (None: the table's own file).
    Read without folding: the rows after the last snapshot, else the row the snapshot's
    facts name, so start-up stays as quick on a journal of a million rows."""
    row = _in_force_row(journal)
    if row is None:
        return None
    try:
        op = operation_from_record(row.kind, row.payload)
    except UnreadableInput:
        return None
    return op if isinstance(op, PitConfigApplied) else None


def _in_force_row(journal: Journal) -> Entry | None:
    snap = journal.last_of_kind(Snapshot.kind)
    after = snap.seq if snap is not None else 0
    row = journal.last_of_kind(PitConfigApplied.kind, after)
    if row is None and snap is not None:
        try:
            seq = json.loads(str(snap.payload["facts"])).get("pit_config", 0)
        except (KeyError, ValueError, AttributeError):
            seq = 0
        row = journal.entry(seq) if isinstance(seq, int) and seq > 0 else None
    if row is None or row.kind != PitConfigApplied.kind:
        return None
    return row


def limits_in_force(journal: Journal) -> LimitsChanged | None:
    """The inspector's last limit change at the table after the pit's version in force
    (None: none since it; a newer pit version replaces a change)."""
    pit = _in_force_row(journal)
    row = journal.last_of_kind(LimitsChanged.kind, pit.seq if pit is not None else 0)
    if row is None:
        return None
    try:
        op = operation_from_record(row.kind, row.payload)
    except UnreadableInput:
        return None
    return op if isinstance(op, LimitsChanged) else None


def effective(cfg: TableConfig, journal: Journal) -> tuple[TableConfig, str]:
    """The configuration the table runs: its file, with the pit's version in force over it.
    A version on record that no longer reads (the file changed under it) is left out, and
    the reason returned for the dealer's screen."""
    applied = in_force(journal)
    if applied is not None:
        try:
            cfg = with_pit(cfg, applied.body, _name(applied.version))
        except ConfigError as exc:
            return cfg, f"The pit's configuration version {applied.version} no longer " \
                        f"fits this table's file ({exc}); the table runs its own file"
    changed = limits_in_force(journal)
    if changed is None:
        return cfg, ""
    try:
        current = cfg.data.get(changed.section, {})
        data = limits.limits_over(current if isinstance(current, dict) else {},
                                  json.loads(changed.data), changed.bet)
        return with_section(cfg, changed.section, data), ""
    except (ConfigError, ValueError) as exc:
        return cfg, f"The inspector's limit change at the table no longer fits this " \
                    f"table's configuration ({exc}); the table runs without it"


def effective_file(cfg: TableConfig) -> tuple[TableConfig, str]:
    """`effective` for the journal `cfg` names (the file alone while there is no journal)."""
    if not cfg.journal.exists():
        return cfg, ""
    journal = Journal.open(cfg.journal, cfg.table_id, read_only=True)
    try:
        return effective(cfg, journal)
    finally:
        journal.close()


def _name(version: int) -> str:
    return f"the pit's configuration version {version}"


def describe(before: TableConfig, after: TableConfig) -> str:
    """What changed, in the words a dealer and a player read: the game, the limits, the rest."""
    old, new = GAMES.get(before.game), GAMES.get(after.game)
    parts = []
    if old.name != new.name:
        parts.append(f"the table now runs {new.title.lower()}")
    currency = getattr(after.rules, "currency", "R")
    lo, hi = (new.engine.table_minimum(after.rules), new.engine.table_maximum(after.rules))
    if old.name != new.name or (lo, hi) != (old.engine.table_minimum(before.rules),
                                            old.engine.table_maximum(before.rules)):
        parts.append(f"limits {format_money(lo, currency)} to {format_money(hi, currency)}")
    if old.name == new.name and before.rules != after.rules and not parts:
        parts.append("house rules changed")
    if before.chip_values != after.chip_values:
        parts.append("chip buttons changed")
    if before.name != after.name:
        parts.append(f"table name {after.name}")
    if before.hours != after.hours:
        parts.append(f"opening hours {after.hours.text()}" if after.hours is not None
                     else "no opening hours")
    if before.people != after.people:
        parts.append("people and PINs changed")
    return "; ".join(parts) or "no change to limits or rules"


def needs_restart(before: TableConfig, after: TableConfig) -> bool:
    """Whether the running screens cannot take the change over live: they were built for
    the old game (another game of the same family too: its name and rules are in the
    header), chips, name or number of places, or for rules the game says its screens are
    built from (`GameSpec.screen_rules`: everything but the limits, which they read on
    every refresh)."""
    old, new = GAMES.get(before.game), GAMES.get(after.game)
    return (old.name != new.name or before.chip_values != after.chip_values
            or before.name != after.name
            or old.places.count(before.rules) != new.places.count(after.rules)
            or old.screens_built_from(before.rules) != new.screens_built_from(after.rules))


@dataclass
class Pending:
    doc: SignedConfig
    config: TableConfig


class PitConfigs:
    """Takes up the pit's configurations for one table session (see the module's text).
    `base` is the table's own file; `restart` is called when a change needs the kiosk
    restarted (with the configuration it must restart on)."""

    def __init__(self, session: TableSession[Any], base: TableConfig,
                 restart: Callable[[TableConfig], None] | None = None) -> None:
        self.session = session
        self.base = base
        self.restart = restart
        applied = in_force(session.journal)
        self.version = applied.version if applied is not None else 0
        self.config, _problem = effective(base, session.journal)
        session.set_people(self.config.people)  # the last signed list the journal holds
        session.hours = self.config.hours  # ... and the approved hours (rule 2.4)
        self._attach_limits()
        self.pending: Pending | None = None
        self._seen: tuple[int, str] | None = None
        self._refused: tuple[str, str] | None = None
        self.restart_wanted: TableConfig | None = None

    def poll(self) -> None:
        """Look at the offered configuration; apply a waiting one if no round is in play.
        Never raises: a failure is an alert, the table goes on as it was."""
        try:
            self._poll()
        except Exception as exc:  # a bug here must not stop the table
            log.exception("pit configuration")
            self.session.alert(Severity.WARNING, f"The pit's configuration was not taken up: "
                               f"{exc}", "The table keeps its limits; call a technician")

    def _poll(self) -> None:
        journal = self.session.journal.path
        try:
            doc = read_offer(journal)
        except PitConfigError as exc:
            self._refuse(0, str(exc), key=("unreadable", str(exc)))
            return
        if doc is not None and (doc.version, doc.signature) != self._seen:
            self._seen = (doc.version, doc.signature)
            self._consider(doc)
        if self.pending is not None and self.restart_wanted is None:
            game = self.session.game
            if game.between_rounds(self.session.state):
                self._apply(self.pending)

    def _consider(self, doc: SignedConfig) -> None:
        cfg = self.base
        try:
            verify(doc, cfg.sync.pit_key, cfg.table_id)
        except PitConfigError as exc:
            self._refuse(doc.version, str(exc))
            return
        if doc.version <= self.version:
            if doc.version < self.version:
                self._refuse(doc.version, f"version {doc.version} is older than version "
                             f"{self.version}, which this table runs")
            return
        try:
            new = check_body(doc.body, cfg, _name(doc.version))
        except ConfigError as exc:  # what `config check` refuses, refused on record
            self._refuse(doc.version, str(exc))
            return
        self.pending = Pending(doc, new)
        if not self.session.game.between_rounds(self.session.state):
            self.session.alert(Severity.INFO, f"New table configuration from the pit "
                               f"(version {doc.version}): {describe(self.config, new)}",
                               f"It takes effect when this {self.session.spec.round_word} "
                               "is over")

    def _refuse(self, version: int, reason: str, key: tuple[str, str] | None = None) -> None:
        seen = key or (str(version), reason)
        if self._refused == seen:
            return
        self._refused = seen
        self.session.record(PitConfigRefused(version, reason))
        self.session.alert(Severity.STOP, f"Configuration from the pit refused: {reason}",
                           "The table keeps its limits and rules; tell the pit")

    def _apply(self, pending: Pending) -> None:
        doc, new = pending.doc, pending.config
        summary = describe(self.config, new)
        record = PitConfigApplied(self.version, doc.version, doc.body, doc.signature,
                                  doc.created_by, doc.created_at, summary)
        restart = needs_restart(self.config, new)
        session = self.session
        if GAMES.get(new.game).family == session.spec.family:
            # The new game's own opening: a family's games may have engines of their own
            # (mini baccarat's beside punto banco's), each opening with its own rules.
            opening = GAMES.get(new.game).engine.open_table(new.rules, session.table_id)
            session.perform(lambda _s: opening, before=record)
        else:  # another game: its opening comes with the restart (TableSession's start)
            session.record(record)
        self.pending = None
        self.version, self.config = doc.version, new
        session.hours = new.hours  # the approved hours it signed (rule 2.4), from now
        session.set_people(new.people)  # who may do what, from this round on
        self._attach_limits()  # a newer version's limits replace a change at the table
        way = "The dealer screen restarts for it" if restart else "In force from this " \
              f"{session.spec.round_word}"
        session.alert(Severity.INFO, f"Table configuration version {doc.version} from the "
                      f"pit: {summary}", way)
        if restart:
            self.restart_wanted = new
            if self.restart is not None:
                self.restart(new)

    # --- the inspector's limit change at the table (kiosk/table/limits.py) ---------------

    def _attach_limits(self) -> None:
        section = GAMES.get(self.config.game).config.section
        data = self.config.data.get(section, {})
        limits.attach(self.session, limits.TableLimits(
            self.config.limits_bounds, section, dict(data) if isinstance(data, dict) else {},
            self._limits_rules, self._limits_changed))

    def _limits_rules(self, data: dict[str, Any]) -> Any:
        section = GAMES.get(self.config.game).config.section
        return with_section(self.config, section, data).rules

    def _limits_changed(self, data: dict[str, Any]) -> None:
        section = GAMES.get(self.config.game).config.section
        self.config = with_section(self.config, section, data)
