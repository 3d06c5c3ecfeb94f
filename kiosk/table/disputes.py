"""Disputes (the Mpumalanga table game rules, rule 2.8): a query is attended to on merit.

The dealer or the inspector flags a round as disputed, with a note; the flag is on record
(`RoundDisputed`), listed in the replay report, raised at the pit as an alert to acknowledge,
and the replay's recomputation of that round is shown on the table's screen for the
inspector (`kiosk.replay.replay_round`).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.errors import NotAllowed
from kiosk.rules.operations import TableRecord

ROLES = ("dealer", "inspector")
"""Who may flag a round as disputed (rule 2.8)."""
MAX_NOTE = 500


@dataclass(frozen=True, slots=True)
class RoundDisputed(TableRecord):
    """A round flagged as disputed (rule 2.8): its number as the game counts it, who flagged
    it, in which role, and the note."""

    kind = "round_disputed"
    round: int
    by: str
    role: str
    note: str

    def line(self) -> str:
        """The replay report's line."""
        return f"round {self.round} disputed by the {self.role} {self.by}: {self.note}"


def dispute(round_number: int, last_round: int, by: str, role: str,
            note: str) -> RoundDisputed:
    """The record flagging round `round_number` (of `last_round` so far) as disputed: the
    dealer or the inspector, by name, with a note."""
    if role not in ROLES:
        raise NotAllowed.of("Only the dealer or the inspector may flag a dispute", "2.8")
    if not by.strip():
        raise NotAllowed.of("Say who flags the dispute", "2.8")
    if not note.strip():
        raise NotAllowed.of("Write a note saying what is disputed", "2.8")
    if len(note.strip()) > MAX_NOTE:
        raise NotAllowed.of("The note is too long: at most %(n)s characters", n=MAX_NOTE)
    if not 1 <= round_number <= last_round:
        raise NotAllowed.of("There is no round %(round)s to dispute (rounds 1 to %(last)s)",
                            "2.8", round=round_number, last=last_round)
    return RoundDisputed(round_number, by.strip(), role, note.strip())

