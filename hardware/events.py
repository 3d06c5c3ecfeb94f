"""Typed device events: what the shoe and shuffler drivers hand to the table session.

Every driver turns bytes into these values (docs/architecture.md: bytes -> typed
DeviceEvent, never raises on bad input). The frame types follow
docs/protocols/shoe-shuffler.md ("Shoe to kiosk", "Shuffler to kiosk"); the last few
events (`FramesLost`, `BadInput`, `DeviceOffline`, `DeviceOnline`) are the driver's own reports
about the link ("Frame (dialect line)": gaps are told to the dealer, bad bytes are counted and
logged, silence for 5 s means the device is offline).

Every event carries `device` (`SHOE` or `SHUF`, or the label of the port for link events) and
`seq` (the frame's sequence number, or None where the dialect has none). Fields are keyword-only
so that `device` and `seq` can never be swapped with a payload by position.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.cards import Card

SHOE = "SHOE"
SHUFFLER = "SHUF"
KIOSK = "KIOSK"


class ShoeState(StrEnum):
    """Spec "Shoe to kiosk", `STATE`."""

    LOADED = "LOADED"
    EMPTY = "EMPTY"
    REMOVED = "REMOVED"


class ShufflerState(StrEnum):
    """Spec "Shuffler to kiosk", `STATE`."""

    IDLE = "IDLE"
    SHUFFLING = "SHUFFLING"
    READY = "READY"
    DEALING = "DEALING"


class FaultCode(StrEnum):
    """Spec "Shuffler to kiosk", `FAULT`."""

    JAM = "JAM"
    DOOR = "DOOR"
    COUNT = "COUNT"
    DAMAGE = "DAMAGE"
    MOTOR = "MOTOR"
    SENSOR = "SENSOR"
    OTHER = "OTHER"


class BadKind(StrEnum):
    """Why bytes were skipped; the key of the parsers' per-reason counters."""

    NOISE = "noise"
    TRUNCATED = "truncated"
    OVERLONG = "overlong"
    MALFORMED = "malformed"
    BAD_CHECKSUM = "bad checksum"
    UNKNOWN_DEVICE = "unknown device"
    BAD_SEQ = "bad sequence number"
    UNKNOWN_TYPE = "unknown type"
    BAD_FIELDS = "wrong field count"
    BAD_CARD = "bad card code"
    BAD_VALUE = "bad value"
    REPEAT_DIFFERS = "repeated seq, other content"


class DeviceEvent:
    """Base of every typed device event. Each carries `device` (the label its bytes name, or
    the port's) and `seq` (the frame's number, or None). A device's own events subclass it in
    its own module (the wheel's: hardware/wheel/events.py); nothing here names them."""

    __slots__ = ()
    device: str
    seq: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeHello(DeviceEvent):
    """`HELLO`: the device names itself (shoe or shuffler; `device` tells which)."""

    device: str
    seq: int | None
    model: str
    firmware: str
    serial_number: str
    restarted: bool = False  # at seq 0 after other frames: it powered on again


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRead(DeviceEvent):
    """`CARD`: a card left the shoe (or shuffler) face up and was read."""

    device: str
    seq: int | None
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(DeviceEvent):
    """`BURN`: a card was burned face down; its value, if sent, is never shown."""

    device: str
    seq: int | None
    card: Card | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardUnread(DeviceEvent):
    """`UNREAD`: a card left the shoe but could not be read; the dealer keys it in."""

    device: str
    seq: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CutCardOut(DeviceEvent):
    """`CUT`: the cutting card came out."""

    device: str
    seq: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeStateChanged(DeviceEvent):
    """Shoe `STATE`."""

    device: str
    seq: int | None
    state: ShoeState


@dataclass(frozen=True, slots=True, kw_only=True)
class ShufflerStateChanged(DeviceEvent):
    """Shuffler `STATE`."""

    device: str
    seq: int | None
    state: ShufflerState


@dataclass(frozen=True, slots=True, kw_only=True)
class ShuffleCount(DeviceEvent):
    """`COUNT`: cards counted in the last shuffle (checked against the decks in play)."""

    device: str
    seq: int | None
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShufflerFault(DeviceEvent):
    """`FAULT`: a shuffler malfunction; an unknown code arrives as OTHER with the code in text."""

    device: str
    seq: int | None
    code: FaultCode
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDamaged(DeviceEvent):
    """`DAMAGED`: cards the shuffler found damaged."""

    device: str
    seq: int | None
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Heartbeat(DeviceEvent):
    """`HB`: the device is alive (every second)."""

    device: str
    seq: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FramesLost(DeviceEvent):
    """A jump in `seq`: frames were lost and the dealer must be told (a lost CARD changes
    the game). `seq` is the sequence number that revealed the gap (= `got_seq`)."""

    device: str
    seq: int | None
    expected_seq: int
    got_seq: int
    missing: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BadInput(DeviceEvent):
    """Bytes that did not form a valid frame: counted, logged with their raw bytes, skipped.

    Emitted, never raised. `device` is the frame's device when it could be read, otherwise the
    label of the port.
    """

    device: str
    seq: int | None
    raw: bytes
    reason: str
    kind: BadKind


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceOffline(DeviceEvent):
    """No bytes for the heartbeat timeout, or the port cannot be opened or went away.
    `reason` says why in words when the link knows ("no such device /dev/ttyUSB0",
    "/dev/ttyUSB0: permission denied (...)"); empty for a device that fell silent."""

    device: str
    seq: int | None = None
    silent_seconds: float
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceOnline(DeviceEvent):
    """Bytes are arriving (again) from the port."""

    device: str
    seq: int | None = None


LINK_EVENTS = (FramesLost, BadInput, DeviceOffline, DeviceOnline)
"""The driver's own reports about a link, the same for every device: the session handles
them itself, whatever the device (the rest go to the device's own handling)."""
