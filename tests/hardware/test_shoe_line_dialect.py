"""Dialect `line` (spec docs/protocols/shoe-shuffler.md: "Frame", "Shoe to kiosk", "Shuffler to
kiosk")."""

from __future__ import annotations

import pytest

from hardware.events import (
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
from hardware.shoe.line_dialect import MAX_FRAME, LineParser, checksum, encode_frame
from kiosk.rules.cards import Card


def raw_frame(body: str, check: str | None = None, end: bytes = b"\r\n") -> bytes:
    """A frame built by hand, so tests can send what `encode_frame` refuses to build."""
    if check is None:
        value = 0
        for ch in body.encode("ascii"):
            value ^= ch
        check = f"{value:02X}"
    return b"$" + body.encode("ascii") + b"*" + check.encode("ascii") + end


def card(code: str) -> Card:
    return Card.parse(code)


def test_checksum_of_the_spec_example() -> None:
    # Spec "Frame": `$SHOE,17,CARD,TH*` + checksum; XOR of "SHOE,17,CARD,TH" worked by hand.
    assert checksum(b"SHOE,17,CARD,TH") == 0x33
    assert encode_frame("SHOE", 17, "CARD", "TH") == b"$SHOE,17,CARD,TH*33\r\n"
    assert LineParser().feed(b"$SHOE,17,CARD,TH*33\r\n") == [
        CardRead(device="SHOE", seq=17, card=card("TH"))
    ]


FRAMES: list[tuple[bytes, DeviceEvent]] = [
    (
        encode_frame("SHOE", 0, "HELLO", "ACME-X", "2.1", "SN42"),
        ShoeHello(device="SHOE", seq=0, model="ACME-X", firmware="2.1", serial_number="SN42"),
    ),
    (encode_frame("SHOE", 0, "CARD", "QH"), CardRead(device="SHOE", seq=0, card=card("QH"))),
    (encode_frame("SHOE", 0, "BURN", "7C"), CardBurned(device="SHOE", seq=0, card=card("7C"))),
    (encode_frame("SHOE", 0, "BURN"), CardBurned(device="SHOE", seq=0, card=None)),
    (encode_frame("SHOE", 0, "UNREAD"), CardUnread(device="SHOE", seq=0)),
    (encode_frame("SHOE", 0, "CUT"), CutCardOut(device="SHOE", seq=0)),
    (
        encode_frame("SHOE", 0, "STATE", "LOADED"),
        ShoeStateChanged(device="SHOE", seq=0, state=ShoeState.LOADED),
    ),
    (
        encode_frame("SHOE", 0, "STATE", "EMPTY"),
        ShoeStateChanged(device="SHOE", seq=0, state=ShoeState.EMPTY),
    ),
    (
        encode_frame("SHOE", 0, "STATE", "REMOVED"),
        ShoeStateChanged(device="SHOE", seq=0, state=ShoeState.REMOVED),
    ),
    (encode_frame("SHOE", 0, "HB"), Heartbeat(device="SHOE", seq=0)),
    (
        encode_frame("SHUF", 0, "HELLO", "SHUF-9", "0.9b", "77"),
        ShoeHello(device="SHUF", seq=0, model="SHUF-9", firmware="0.9b", serial_number="77"),
    ),
    *[
        (
            encode_frame("SHUF", 0, "STATE", state.value),
            ShufflerStateChanged(device="SHUF", seq=0, state=state),
        )
        for state in ShufflerState
    ],
    (encode_frame("SHUF", 0, "COUNT", "416"), ShuffleCount(device="SHUF", seq=0, cards=416)),
    *[
        (
            encode_frame("SHUF", 0, "FAULT", code.value, "see manual"),
            ShufflerFault(device="SHUF", seq=0, code=code, text="see manual"),
        )
        for code in FaultCode
    ],
    (
        encode_frame("SHUF", 0, "FAULT", "JAM", "gate 2", " left"),
        ShufflerFault(device="SHUF", seq=0, code=FaultCode.JAM, text="gate 2, left"),
    ),
    (
        encode_frame("SHUF", 0, "FAULT", "DOOR"),
        ShufflerFault(device="SHUF", seq=0, code=FaultCode.DOOR, text=""),
    ),
    (
        # A code new to us still reports the malfunction, as OTHER with the code kept.
        encode_frame("SHUF", 0, "FAULT", "HEAT", "too hot"),
        ShufflerFault(device="SHUF", seq=0, code=FaultCode.OTHER, text="[HEAT] too hot"),
    ),
    (encode_frame("SHUF", 0, "DAMAGED", "2"), CardsDamaged(device="SHUF", seq=0, cards=2)),
    (encode_frame("SHUF", 0, "CARD", "AS"), CardRead(device="SHUF", seq=0, card=card("AS"))),
    (encode_frame("SHUF", 0, "HB"), Heartbeat(device="SHUF", seq=0)),
]


@pytest.mark.parametrize(("frame", "expected"), FRAMES, ids=[f.decode().strip() for f, _ in FRAMES])
def test_every_frame_type_gives_its_event(frame: bytes, expected: DeviceEvent) -> None:
    parser = LineParser()
    assert parser.feed(frame) == [expected]
    assert parser.stats.frames == 1
    assert parser.stats.bad_total == 0
    assert parser.stats.bytes_skipped == 0


def test_lenient_checksum_case_and_line_ends() -> None:
    parser = LineParser()
    events = parser.feed(raw_frame("SHOE,0,CARD,2D", "6f"))  # checksum given in lower case
    assert checksum(b"SHOE,0,CARD,2D") == 0x6F
    assert events == [CardRead(device="SHOE", seq=0, card=card("2D"))]
    # LF alone, and CR alone, end a frame as well as CRLF does.
    assert parser.feed(raw_frame("SHOE,1,HB", end=b"\n")) == [Heartbeat(device="SHOE", seq=1)]
    assert parser.feed(raw_frame("SHOE,2,HB", end=b"\r")) == [Heartbeat(device="SHOE", seq=2)]
    assert parser.feed(b"\n\r\n" + raw_frame("SHOE,3,HB")) == [Heartbeat(device="SHOE", seq=3)]
    assert parser.stats.bad_total == 0


NEXT = encode_frame("SHOE", 1, "CARD", "KD")
NEXT_EVENT = CardRead(device="SHOE", seq=1, card=card("KD"))

BAD: list[tuple[str, bytes, BadKind]] = [
    ("noise", b"\x00\xffgarbage\x07", BadKind.NOISE),
    ("bad checksum", raw_frame("SHOE,0,CARD,AS", "00"), BadKind.BAD_CHECKSUM),
    ("unknown type", raw_frame("SHOE,0,SPIN,17"), BadKind.UNKNOWN_TYPE),
    ("shoe sends shuffler type", raw_frame("SHOE,0,COUNT,52"), BadKind.UNKNOWN_TYPE),
    ("unknown device", raw_frame("WHEEL,0,HB"), BadKind.UNKNOWN_DEVICE),
    ("kiosk echo", encode_frame("KIOSK", 0, "HELLO?"), BadKind.UNKNOWN_DEVICE),
    ("bad card code", raw_frame("SHOE,0,CARD,1X"), BadKind.BAD_CARD),
    ("bad burn card", raw_frame("SHOE,0,BURN,ZZ"), BadKind.BAD_CARD),
    ("card without field", raw_frame("SHOE,0,CARD"), BadKind.BAD_FIELDS),
    ("card with two fields", raw_frame("SHOE,0,CARD,AS,KD"), BadKind.BAD_FIELDS),
    ("hb with field", raw_frame("SHOE,0,HB,1"), BadKind.BAD_FIELDS),
    ("hello short", raw_frame("SHOE,0,HELLO,A,B"), BadKind.BAD_FIELDS),
    ("state unknown", raw_frame("SHOE,0,STATE,SHUFFLING"), BadKind.BAD_VALUE),
    ("count not a number", raw_frame("SHUF,0,COUNT,lots"), BadKind.BAD_VALUE),
    ("seq too big", raw_frame("SHOE,1000,HB"), BadKind.BAD_SEQ),
    ("seq not a number", raw_frame("SHOE,x,HB"), BadKind.BAD_SEQ),
    ("no checksum", b"$SHOE,0,HB\r\n", BadKind.MALFORMED),
    ("checksum not hex", raw_frame("SHOE,0,HB", "G1"), BadKind.MALFORMED),
    ("too few parts", raw_frame("SHOE,0"), BadKind.MALFORMED),
    ("control byte", raw_frame("SHOE,0,HB\x01"), BadKind.MALFORMED),
    ("truncated", b"$SHOE,0,CAR", BadKind.TRUNCATED),
]


@pytest.mark.parametrize(("bad", "kind"), [(b, k) for _, b, k in BAD], ids=[n for n, _, _ in BAD])
def test_bad_input_is_counted_skipped_and_the_next_frame_read(bad: bytes, kind: BadKind) -> None:
    parser = LineParser()
    events = parser.feed(bad + NEXT)
    assert len(events) == 2, events
    first = events[0]
    assert isinstance(first, BadInput)
    assert first.kind is kind
    assert first.raw == bad.rstrip(b"\r\n")
    assert first.reason
    assert events[1] == NEXT_EVENT
    assert parser.stats.bad == {kind: 1}
    assert parser.stats.bytes_skipped == len(first.raw)
    assert parser.stats.frames == 1


def test_overlong_frame_is_reported_once_and_its_tail_skipped() -> None:
    parser = LineParser()
    overlong = b"$SHOE,0,HELLO," + b"A" * 100 + b"*00\r\n"
    events = parser.feed(overlong + NEXT)
    assert [type(e) for e in events] == [BadInput, CardRead]
    bad = events[0]
    assert isinstance(bad, BadInput)
    assert bad.kind is BadKind.OVERLONG
    assert bad.raw == overlong[: MAX_FRAME - 1]
    assert parser.stats.bad == {BadKind.OVERLONG: 1}
    assert parser.stats.bytes_skipped == len(overlong) - 2  # everything but the CRLF


def test_longest_legal_frame_is_read() -> None:
    model = "M" * (MAX_FRAME - len(b"$SHOE,0,HELLO,,1,2*00\r\n"))
    frame = encode_frame("SHOE", 0, "HELLO", model, "1", "2")
    assert len(frame) == MAX_FRAME
    event = LineParser().feed(frame)[0]
    assert isinstance(event, ShoeHello)
    assert event.model == model
    with pytest.raises(ValueError):
        encode_frame("SHOE", 0, "HELLO", model + "M", "1", "2")


def test_noise_is_reported_in_bounded_runs() -> None:
    parser = LineParser(label="SHUF")
    events = parser.feed(b"x" * 1000)
    assert parser.pending < MAX_FRAME
    events += parser.feed(NEXT)
    noise = [e for e in events if isinstance(e, BadInput)]
    assert all(e.kind is BadKind.NOISE and e.device == "SHUF" for e in noise)
    assert sum(len(e.raw) for e in noise) == 1000
    assert max(len(e.raw) for e in noise) == MAX_FRAME
    assert parser.stats.bytes_skipped == 1000
    assert events[-1] == NEXT_EVENT


def test_retransmission_is_ignored() -> None:
    parser = LineParser()
    five = encode_frame("SHOE", 5, "CARD", "2C")
    events = parser.feed(five + five + encode_frame("SHOE", 6, "CARD", "3C"))
    assert events == [
        CardRead(device="SHOE", seq=5, card=card("2C")),
        CardRead(device="SHOE", seq=6, card=card("3C")),
    ]
    assert parser.stats.duplicates == 1
    assert parser.stats.gaps == 0


def test_first_frame_sets_the_baseline() -> None:
    parser = LineParser()
    assert parser.feed(encode_frame("SHOE", 500, "HB")) == [Heartbeat(device="SHOE", seq=500)]
    assert parser.last_seq("SHOE") == 500
    assert parser.last_seq("SHUF") is None


def test_gap_reports_frames_lost_then_the_event() -> None:
    parser = LineParser()
    events = parser.feed(encode_frame("SHOE", 3, "HB") + encode_frame("SHOE", 7, "CARD", "AD"))
    assert events == [
        Heartbeat(device="SHOE", seq=3),
        FramesLost(device="SHOE", seq=7, expected_seq=4, got_seq=7, missing=3),
        CardRead(device="SHOE", seq=7, card=card("AD")),
    ]
    assert (parser.stats.gaps, parser.stats.frames_lost) == (1, 3)


def test_gap_across_the_wrap() -> None:
    # Spec: seq wraps after 999. 998 -> 1 lost 999 and 0.
    parser = LineParser()
    events = parser.feed(encode_frame("SHOE", 998, "HB") + encode_frame("SHOE", 1, "HB"))
    assert events[1] == FramesLost(device="SHOE", seq=1, expected_seq=999, got_seq=1, missing=2)
    # 999 -> 0 is in order.
    parser = LineParser()
    events = parser.feed(encode_frame("SHOE", 999, "HB") + encode_frame("SHOE", 0, "HB"))
    assert events == [Heartbeat(device="SHOE", seq=999), Heartbeat(device="SHOE", seq=0)]


def test_a_device_that_powers_on_again_counts_from_zero_without_a_gap() -> None:
    """Spec: HELLO is sent at power-on; after a restart the device's seq starts at 0. That
    is not lost frames; a jump to anything else, or to 0 without a HELLO, still is."""
    parser = LineParser()
    events = parser.feed(encode_frame("SHOE", 41, "CARD", "4H")
                         + encode_frame("SHOE", 0, "HELLO", "ACME-X", "2.1", "SN42")
                         + encode_frame("SHOE", 1, "CARD", "5H"))
    assert [type(e).__name__ for e in events] == ["CardRead", "ShoeHello", "CardRead"]
    assert events[1] == ShoeHello(device="SHOE", seq=0, model="ACME-X", firmware="2.1",
                                  serial_number="SN42", restarted=True)
    assert (parser.stats.gaps, parser.stats.restarts) == (0, 1)
    assert parser.last_seq("SHOE") == 1
    events = parser.feed(encode_frame("SHOE", 0, "CARD", "6H"))  # 0 again, no HELLO
    assert events[0] == FramesLost(device="SHOE", seq=0, expected_seq=2, got_seq=0,
                                   missing=998)
    events = parser.feed(encode_frame("SHOE", 5, "HELLO", "ACME-X", "2.1", "SN42"))
    assert isinstance(events[0], FramesLost) and events[0].missing == 4  # asked, not power-on
    assert events[1] == ShoeHello(device="SHOE", seq=5, model="ACME-X", firmware="2.1",
                                  serial_number="SN42", restarted=False)


def test_sequences_are_counted_per_device() -> None:
    parser = LineParser()
    stream = (
        encode_frame("SHOE", 10, "HB")
        + encode_frame("SHUF", 0, "HB")
        + encode_frame("SHOE", 11, "HB")
        + encode_frame("SHUF", 1, "HB")
    )
    assert not [e for e in parser.feed(stream) if isinstance(e, FramesLost)]


def test_a_corrupt_card_frame_shows_as_a_lost_frame() -> None:
    parser = LineParser()
    corrupt = raw_frame("SHOE,2,CARD,AS", "00")
    events = parser.feed(
        encode_frame("SHOE", 1, "CARD", "KS") + corrupt + encode_frame("SHOE", 3, "CARD", "QS")
    )
    assert [type(e) for e in events] == [CardRead, BadInput, FramesLost, CardRead]
    assert events[2] == FramesLost(device="SHOE", seq=3, expected_seq=2, got_seq=3, missing=1)


def test_an_intact_but_unknown_frame_still_moves_the_sequence() -> None:
    # It arrived (its checksum is right), so it is not lost, only not understood.
    parser = LineParser()
    events = parser.feed(
        encode_frame("SHOE", 1, "HB") + raw_frame("SHOE,2,SPIN") + encode_frame("SHOE", 3, "HB")
    )
    assert [type(e) for e in events] == [Heartbeat, BadInput, Heartbeat]
    bad = events[1]
    assert isinstance(bad, BadInput)
    assert (bad.device, bad.seq, bad.kind) == ("SHOE", 2, BadKind.UNKNOWN_TYPE)


def test_reset_reports_a_half_frame_and_keeps_the_sequence() -> None:
    parser = LineParser()
    parser.feed(encode_frame("SHOE", 4, "HB") + b"$SHOE,5,CA")
    events = parser.reset()
    assert len(events) == 1
    assert isinstance(events[0], BadInput)
    assert events[0].kind is BadKind.TRUNCATED
    assert events[0].raw == b"$SHOE,5,CA"
    assert parser.pending == 0
    assert parser.feed(encode_frame("SHOE", 7, "HB"))[0] == FramesLost(
        device="SHOE", seq=7, expected_seq=5, got_seq=7, missing=2
    )


@pytest.mark.parametrize(
    "args",
    [
        ("SHOE", 1000, "HB"),
        ("SHOE", -1, "HB"),
        ("SHOE", 0, "CARD", "A,S"),
        ("SH$OE", 0, "HB"),
        ("SHOE", 0, "FAULT", "JAM", "é"),
    ],
)
def test_encode_frame_refuses_what_no_frame_can_carry(args: tuple[str, int, str]) -> None:
    with pytest.raises(ValueError):
        encode_frame(*args)


def test_a_repeated_seq_carrying_another_card_is_reported_not_dropped() -> None:
    """A retransmission is the same frame again; the same seq with another card is a card
    that left the shoe, and it was silently dropped as a retransmission."""
    parser = LineParser()
    events = parser.feed(encode_frame("SHOE", 5, "CARD", "2C")
                         + encode_frame("SHOE", 5, "CARD", "9H")
                         + encode_frame("SHOE", 6, "CARD", "3C"))
    assert events[0] == CardRead(device="SHOE", seq=5, card=card("2C"))
    assert events[2] == CardRead(device="SHOE", seq=6, card=card("3C"))
    bad = events[1]
    assert isinstance(bad, BadInput)
    assert (bad.kind, bad.device, bad.seq) == (BadKind.REPEAT_DIFFERS, "SHOE", 5)
    assert bad.raw == encode_frame("SHOE", 5, "CARD", "9H").rstrip(b"\r\n")
    assert "'SHOE,5,CARD,2C'" in bad.reason
    assert parser.stats.duplicates == 0
    assert parser.stats.bad == {BadKind.REPEAT_DIFFERS: 1}


@pytest.mark.parametrize("code", ["ZZ", "10H", "1S", "as", " KD", "KD ", "Td"])
def test_a_card_code_not_as_the_spec_writes_it_is_refused(code: str) -> None:
    """Card codes are upper case rank then suit; `as` and ` KD` were dealt as AS and KD."""
    parser = LineParser()
    frame = encode_frame("SHOE", 1, "CARD", code)
    events = parser.feed(frame + encode_frame("SHOE", 2, "CARD", "AS"))
    bad = events[0]
    assert isinstance(bad, BadInput) and bad.kind is BadKind.BAD_CARD and bad.seq == 1
    assert repr(code) in bad.reason
    assert events[1:] == [CardRead(device="SHOE", seq=2, card=card("AS"))]
    burn = parser.feed(encode_frame("SHOE", 3, "BURN", code))[0]
    assert isinstance(burn, BadInput) and burn.kind is BadKind.BAD_CARD
