"""Dialect `line` of the shoe and shuffler protocol: a sans-IO parser and a frame encoder.

Spec: docs/protocols/shoe-shuffler.md, "Frame (dialect line)", "Shoe to kiosk",
"Shuffler to kiosk". Frames look like `$SHOE,17,CARD,TH*<checksum>\\r\\n`.

The parser takes bytes in any chunking and returns typed events. Its result depends only on the
byte stream, never on how it was split, so a frame cut across reads is read the same as a whole
one. Bad input becomes a counted `BadInput` event and reading resumes at the next `$`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum, auto
from functools import reduce

from hardware.events import (
    KIOSK,
    SHOE,
    SHUFFLER,
    BadInput,
    BadKind,
    CardBurned,
    CardRead,
    CardsDamaged,
    CardUnread,
    CutCardOut,
    DeviceEvent,
    FaultCode,
    FramesLost,
    Heartbeat,
    ShoeHello,
    ShoeState,
    ShoeStateChanged,
    ShuffleCount,
    ShufflerFault,
    ShufflerState,
    ShufflerStateChanged,
)
from hardware.shoe.stats import ParserStats, device_card
from kiosk.rules.cards import Card
from kiosk.rules.errors import UnreadableInput

MAX_FRAME = 82
"""Spec: a frame is at most 82 bytes including `$` and `\\r\\n`."""
MAX_CONTENT = MAX_FRAME - 3
"""Bytes allowed between `$` and the line end."""
SEQ_MODULUS = 1000
"""Spec: `seq` is decimal 0-999, wrapping after 999."""

# Spec tables "Shoe to kiosk" and "Shuffler to kiosk": a type the device does not send is
# unknown for that device (a shoe never sends COUNT).
TYPES_BY_DEVICE: dict[str, frozenset[str]] = {
    SHOE: frozenset({"HELLO", "CARD", "BURN", "UNREAD", "CUT", "STATE", "HB"}),
    # BURN and UNREAD from a shuffler that deals are new in version 1.1 of the protocol.
    SHUFFLER: frozenset({"HELLO", "STATE", "COUNT", "FAULT", "DAMAGED", "CARD", "BURN",
                         "UNREAD", "HB"}),
}

_FRAME_END = re.compile(rb"[$\r\n]")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
_FIELD_FORBIDDEN = frozenset("$*,\r\n")


def checksum(body: bytes) -> int:
    """Spec "Frame": the XOR of every byte after `$` and before `*`."""
    return reduce(lambda acc, b: acc ^ b, body, 0)


def encode_frame(device: str, seq: int, frame_type: str, *fields: str) -> bytes:
    """One frame with its checksum and CRLF, e.g. `encode_frame("SHOE", 17, "CARD", "TH")`.

    Raises ValueError for values no frame can carry (a programming error, not bad input).
    """
    if not 0 <= seq < SEQ_MODULUS:
        raise ValueError(f"seq must be 0-999, not {seq}")
    parts = [device, str(seq), frame_type, *fields]
    for part in parts:
        if not part.isascii() or not part.isprintable() or _FIELD_FORBIDDEN & set(part):
            raise ValueError(f"{part!r} cannot be sent in a frame")
    body = ",".join(parts).encode("ascii")
    frame = b"$" + body + b"*" + f"{checksum(body):02X}".encode("ascii") + b"\r\n"
    if len(frame) > MAX_FRAME:
        raise ValueError(f"frame of {len(frame)} bytes is longer than {MAX_FRAME}")
    return frame


class _State(Enum):
    GAP = auto()  # between frames, waiting for `$`
    FRAME = auto()  # after `$`, collecting up to the line end
    SKIP = auto()  # dropping the tail of an overlong frame


class LineParser:
    """Parser for dialect `line`: `feed(bytes) -> list[DeviceEvent]`, never raises on input.

    `label` names the port in events whose bytes name no device (noise, a frame too mangled
    to read its device). Sequence numbers are tracked per device (spec "Frame", `seq`).
    """

    def __init__(self, label: str = SHOE) -> None:
        self.label = label
        self.stats = ParserStats()
        self._state = _State.GAP
        self._buf = bytearray()
        self._last_seq: dict[str, int] = {}
        self._last_body: dict[str, bytes] = {}  # the frame last accepted, to tell a
        # retransmission (the same bytes again) from a different frame under the same seq
        self._restarted = False  # the frame being decoded is a HELLO after a power-on
        self._decoders: dict[str, Callable[[str, int, list[str], bytes], DeviceEvent]] = {
            "HELLO": self._hello,
            "CARD": self._card,
            "BURN": self._burn,
            "UNREAD": self._no_fields,
            "CUT": self._no_fields,
            "HB": self._no_fields,
            "STATE": self._state_changed,
            "COUNT": self._count,
            "DAMAGED": self._count,
            "FAULT": self._fault,
        }

    @property
    def pending(self) -> int:
        """Bytes held back for an unfinished frame or noise run (never more than MAX_FRAME)."""
        return len(self._buf)

    def last_seq(self, device: str) -> int | None:
        """The last sequence number accepted from `device`, or None before its first frame."""
        return self._last_seq.get(device)

    def reset(self) -> list[DeviceEvent]:
        """Give up a half-received frame (the link was reopened); returns it as `BadInput`.

        Sequence baselines are kept on purpose: frames sent while the link was down must show
        up as a gap when it comes back.
        """
        events: list[DeviceEvent] = []
        if self._state is _State.FRAME:
            events.append(
                self._bad(BadKind.TRUNCATED, bytes(self._buf), "frame cut short: link reopened")
            )
        self._flush_gap(events)
        self._state = _State.GAP
        self._buf.clear()
        return events

    def feed(self, data: bytes) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        pos, end = 0, len(data)
        while pos < end:
            if self._state is _State.GAP:
                pos = self._feed_gap(data, pos, events)
            elif self._state is _State.FRAME:
                pos = self._feed_frame(data, pos, events)
            else:
                pos = self._feed_skip(data, pos)
        return events

    # -- byte level ------------------------------------------------------------------------

    def _feed_gap(self, data: bytes, pos: int, events: list[DeviceEvent]) -> int:
        dollar = data.find(b"$", pos)
        stop = len(data) if dollar < 0 else dollar
        # Noise is reported in runs of at most MAX_FRAME bytes so memory stays bounded and the
        # runs do not depend on how the stream was chunked.
        while pos < stop:
            take = min(stop - pos, MAX_FRAME - len(self._buf))
            self._buf += data[pos : pos + take]
            pos += take
            if len(self._buf) >= MAX_FRAME:
                self._flush_gap(events)
        if dollar >= 0:
            self._flush_gap(events)
            self._buf += b"$"
            self._state = _State.FRAME
            pos = dollar + 1
        return pos

    def _flush_gap(self, events: list[DeviceEvent]) -> None:
        if self._state is _State.GAP and self._buf:
            # Stray line ends between frames (a CR/LF pair split as two ends, blank lines) are
            # tolerated silently; anything else is noise.
            noise = bytes(self._buf).strip(b"\r\n")
            if noise:
                events.append(self._bad(BadKind.NOISE, noise, "bytes outside any frame"))
            self._buf.clear()

    def _feed_frame(self, data: bytes, pos: int, events: list[DeviceEvent]) -> int:
        match = _FRAME_END.search(data, pos)
        stop = len(data) if match is None else match.start()
        # `room` more bytes without a line end would make the content (all but the `$`)
        # longer than MAX_CONTENT: the frame is overlong as soon as they are here.
        room = MAX_CONTENT + 2 - len(self._buf)
        if stop - pos >= room:
            self._buf += data[pos : pos + room]
            events.append(
                self._bad(
                    BadKind.OVERLONG,
                    bytes(self._buf),
                    f"no line end within {MAX_FRAME} bytes of '$'",
                )
            )
            self._buf.clear()
            self._state = _State.SKIP
            return pos + room
        self._buf += data[pos:stop]
        if match is None:
            return stop
        frame = bytes(self._buf)
        self._buf.clear()
        if data[stop] == ord("$"):
            events.append(self._bad(BadKind.TRUNCATED, frame, "frame cut short by the next '$'"))
            self._buf += b"$"
            return stop + 1
        # A CR or LF ends the frame: CRLF as the spec says, a bare LF (or CR) leniently.
        events.extend(self._parse(frame))
        self._state = _State.GAP
        return stop + 1

    def _feed_skip(self, data: bytes, pos: int) -> int:
        match = _FRAME_END.search(data, pos)
        stop = len(data) if match is None else match.start()
        self.stats.bytes_skipped += stop - pos
        if match is None:
            return stop
        if data[stop] == ord("$"):
            self._buf += b"$"
            self._state = _State.FRAME
        else:
            self._state = _State.GAP
        return stop + 1

    # -- frame level -----------------------------------------------------------------------

    def _parse(self, raw: bytes) -> list[DeviceEvent]:
        content = raw[1:]
        star = content.rfind(b"*")
        if star < 0:
            return [self._bad(BadKind.MALFORMED, raw, "no '*' before the checksum")]
        body, digits = content[:star], content[star + 1 :]
        if len(digits) != 2 or not set(digits) <= _HEX:
            return [self._bad(BadKind.MALFORMED, raw, "checksum is not two hex digits")]
        if any(b < 0x20 or b > 0x7E for b in body):
            return [self._bad(BadKind.MALFORMED, raw, "control or non-ASCII byte in frame")]
        sent, computed = int(digits, 16), checksum(body)
        if sent != computed:
            return [
                self._bad(
                    BadKind.BAD_CHECKSUM,
                    raw,
                    f"checksum {sent:02X} sent but the bytes give {computed:02X}",
                )
            ]
        parts = body.decode("ascii").split(",")
        if len(parts) < 3:
            return [self._bad(BadKind.MALFORMED, raw, "frame lacks device, seq and type")]
        device, seq_text, frame_type, fields = parts[0], parts[1], parts[2], parts[3:]
        if device not in TYPES_BY_DEVICE:
            why = "a kiosk frame echoed back" if device == KIOSK else f"device {device!r}"
            return [self._bad(BadKind.UNKNOWN_DEVICE, raw, f"unknown device: {why}")]
        if not (1 <= len(seq_text) <= 3 and seq_text.isdigit()):
            return [
                self._bad(BadKind.BAD_SEQ, raw, f"seq {seq_text!r} is not 0-999", device=device)
            ]
        seq = int(seq_text)

        # The frame arrived intact from this device, so it moves the sequence even if its
        # content turns out to be bad: it was not lost, only not understood.
        events: list[DeviceEvent] = []
        last = self._last_seq.get(device)
        # Spec: HELLO is sent at power-on, and a device counts from 0 again: a restart, not
        # lost frames. The HELLO says so, and the session asks the dealer to check the cards.
        self._restarted = (last is not None and seq == 0 and frame_type == "HELLO"
                           and last != SEQ_MODULUS - 1)
        if self._restarted:
            self.stats.restarts += 1
            last = None
        if last is not None:
            if seq == last:
                # Spec: a repeated `seq` is a retransmission, ignored; one that says something
                # else is not (a card the shoe dealt would be lost): reported, never dropped.
                if body == self._last_body.get(device):
                    self.stats.duplicates += 1
                    return []
                return [self._bad(BadKind.REPEAT_DIFFERS, raw,
                                  f"seq {seq} repeated with other content than "
                                  f"{self._last_body.get(device, b'').decode('ascii')!r}",
                                  device=device, seq=seq)]
            expected = (last + 1) % SEQ_MODULUS
            missing = (seq - expected) % SEQ_MODULUS
            if missing:
                self.stats.gaps += 1
                self.stats.frames_lost += missing
                events.append(
                    FramesLost(
                        device=device,
                        seq=seq,
                        expected_seq=expected,
                        got_seq=seq,
                        missing=missing,
                    )
                )
        self._last_seq[device] = seq
        self._last_body[device] = body

        if frame_type not in TYPES_BY_DEVICE[device]:
            events.append(
                self._bad(
                    BadKind.UNKNOWN_TYPE,
                    raw,
                    f"{device} does not send {frame_type!r}",
                    device=device,
                    seq=seq,
                )
            )
            return events
        event = self._decoders[frame_type](device, seq, [frame_type, *fields], raw)
        if not isinstance(event, BadInput):
            self.stats.frames += 1
        events.append(event)
        return events

    def _bad(
        self,
        kind: BadKind,
        raw: bytes,
        reason: str,
        *,
        device: str | None = None,
        seq: int | None = None,
    ) -> BadInput:
        self.stats.bad[kind] += 1
        self.stats.bytes_skipped += len(raw)
        return BadInput(device=device or self.label, seq=seq, raw=raw, reason=reason, kind=kind)

    def _wrong_count(self, device: str, seq: int, fields: list[str], raw: bytes) -> BadInput:
        return self._bad(
            BadKind.BAD_FIELDS,
            raw,
            f"{fields[0]} with {len(fields) - 1} field(s)",
            device=device,
            seq=seq,
        )

    # -- one decoder per frame type; `fields[0]` is the type ---------------------------------

    def _hello(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) != 4:
            return self._wrong_count(device, seq, fields, raw)
        return ShoeHello(device=device, seq=seq, model=fields[1], firmware=fields[2],
                         serial_number=fields[3], restarted=self._restarted)

    def _parse_card(self, device: str, seq: int, code: str, raw: bytes) -> Card | BadInput:
        try:
            return device_card(code)
        except UnreadableInput as exc:
            return self._bad(BadKind.BAD_CARD, raw, str(exc), device=device, seq=seq)

    def _card(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) != 2:
            return self._wrong_count(device, seq, fields, raw)
        card = self._parse_card(device, seq, fields[1], raw)
        if isinstance(card, BadInput):
            return card
        return CardRead(device=device, seq=seq, card=card)

    def _burn(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        # Spec: BURN [card code]; an empty field is read as "no card" too.
        if len(fields) > 2:
            return self._wrong_count(device, seq, fields, raw)
        if len(fields) == 1 or not fields[1]:
            return CardBurned(device=device, seq=seq, card=None)
        card = self._parse_card(device, seq, fields[1], raw)
        if isinstance(card, BadInput):
            return card
        return CardBurned(device=device, seq=seq, card=card)

    def _no_fields(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) != 1:
            return self._wrong_count(device, seq, fields, raw)
        if fields[0] == "UNREAD":
            return CardUnread(device=device, seq=seq)
        if fields[0] == "CUT":
            return CutCardOut(device=device, seq=seq)
        return Heartbeat(device=device, seq=seq)

    def _state_changed(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) != 2:
            return self._wrong_count(device, seq, fields, raw)
        try:
            if device == SHOE:
                return ShoeStateChanged(device=device, seq=seq, state=ShoeState(fields[1]))
            return ShufflerStateChanged(device=device, seq=seq, state=ShufflerState(fields[1]))
        except ValueError:
            return self._bad(
                BadKind.BAD_VALUE,
                raw,
                f"{device} has no state {fields[1]!r}",
                device=device,
                seq=seq,
            )

    def _count(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) != 2:
            return self._wrong_count(device, seq, fields, raw)
        text = fields[1]
        if not (1 <= len(text) <= 6 and text.isdigit()):
            return self._bad(
                BadKind.BAD_VALUE,
                raw,
                f"{fields[0]} {text!r} is not a number of cards",
                device=device,
                seq=seq,
            )
        if fields[0] == "COUNT":
            return ShuffleCount(device=device, seq=seq, cards=int(text))
        return CardsDamaged(device=device, seq=seq, cards=int(text))

    def _fault(self, device: str, seq: int, fields: list[str], raw: bytes) -> DeviceEvent:
        if len(fields) < 2:
            return self._wrong_count(device, seq, fields, raw)
        # Free text may itself contain commas: they split it into more fields, so join them.
        code_text, text = fields[1], ",".join(fields[2:])
        try:
            code = FaultCode(code_text)
        except ValueError:
            # A malfunction must never be dropped because its code is new to us (mini
            # baccarat shuffler malfunction procedure): report it as OTHER, keeping the code.
            code, text = FaultCode.OTHER, f"[{code_text}] {text}".rstrip()
        return ShufflerFault(device=device, seq=seq, code=code, text=text)
