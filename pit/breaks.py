"""A chain break as an inspector inspects it: the row the pit quarantined beside the row the
pit holds at that place, and what differs between them, field by field and, in the payload,
value by value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.store.canonical import loads_strict
from pit.ingest import WireRow

FIELDS = ("wall_time", "kind", "payload", "prev_hash", "hash")


@dataclass(frozen=True, slots=True)
class Difference:
    """One thing that differs: where ("kind", "payload.amount", "prev_hash"), the pit's
    value and the quarantined row's, as text."""

    where: str
    held: str
    sent: str


@dataclass(frozen=True, slots=True)
class Break:
    """The quarantined row at one place of a table's chain, and what the pit holds there."""

    seq: int
    sent: WireRow
    reason: str
    received_at: str
    held: WireRow | None
    """The row the pit holds at `seq`; None when the break is the first row after its head
    (then `before` is the row it should have followed)."""
    before: WireRow | None
    differences: tuple[Difference, ...]


def compare(sent: WireRow, held: WireRow | None, before: WireRow | None) -> tuple[Difference,
                                                                                   ...]:
    """What differs between a quarantined row and the pit's: every field, and each value of
    the payloads; for a row after the pit's head, its link to the head."""
    out: list[Difference] = []
    if held is None:
        if before is not None and sent.prev_hash != before.hash:
            out.append(Difference(f"prev_hash (the hash of row {before.seq})", before.hash,
                                  sent.prev_hash))
        return tuple(out)
    for name in FIELDS:
        mine, theirs = getattr(held, name), getattr(sent, name)
        if mine == theirs:
            continue
        if name == "payload":
            out.extend(_payload(mine, theirs))
        else:
            out.append(Difference(name, mine, theirs))
    return tuple(out)


def _payload(held: str, sent: str) -> list[Difference]:
    try:
        a, b = loads_strict(held), loads_strict(sent)
    except ValueError:
        return [Difference("payload", held, sent)]
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return [Difference("payload", held, sent)]
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key, _MISSING) != b.get(key, _MISSING):
            out.append(Difference(f"payload.{key}", _text(a.get(key, _MISSING)),
                                  _text(b.get(key, _MISSING))))
    return out or [Difference("payload (as text)", held, sent)]


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING: Any = _Missing()


def _text(value: object) -> str:
    import json

    if value is _MISSING:
        return "(not there)"
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
