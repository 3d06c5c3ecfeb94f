"""Property tests of both shoe dialects: chunking never matters, bad bytes never raise, and a
valid frame after any garbage is still read (docs/protocols/shoe-shuffler.md, "Frame": "Bad input
never stops the reader"; "reading resumes at the next `$`")."""

from __future__ import annotations

from hypothesis import given, strategies as st

from hardware.events import CardRead, DeviceEvent
from hardware.shoe.line_dialect import MAX_FRAME, LineParser, encode_frame
from hardware.shoe.plain_dialect import MAX_LINE, PlainParser
from hardware.shoe.stats import DialectParser, ParserStats
from kiosk.rules.cards import Card, deck

CODES = [c.code for c in deck()]

TEMPLATES: list[tuple[str, str, tuple[str, ...]]] = [
    ("SHOE", "HELLO", ("M", "1.0", "S1")),
    ("SHOE", "CARD", ("AS",)),
    ("SHOE", "BURN", ()),
    ("SHOE", "BURN", ("9H",)),
    ("SHOE", "UNREAD", ()),
    ("SHOE", "CUT", ()),
    ("SHOE", "STATE", ("EMPTY",)),
    ("SHOE", "HB", ()),
    ("SHUF", "COUNT", ("312",)),
    ("SHUF", "FAULT", ("JAM", "x")),
    ("SHUF", "STATE", ("READY",)),
    ("SHUF", "DAMAGED", ("1",)),
    ("SHOE", "SPIN", ()),  # intact frame of an unknown type
    ("SHOE", "CARD", ("ZZ",)),  # intact frame with a bad card code
]


@st.composite
def frames(draw: st.DrawFn) -> bytes:
    device, frame_type, fields = draw(st.sampled_from(TEMPLATES))
    return encode_frame(device, draw(st.integers(0, 999)), frame_type, *fields)


def corrupt(frame: bytes) -> bytes:
    return frame[:-4] + b"00\r\n" if frame[-4:-2] != b"00" else frame[:-4] + b"01\r\n"


pieces = st.one_of(
    frames(),
    frames().map(corrupt),
    frames().map(lambda f: f[: len(f) // 2]),  # cut short
    st.binary(max_size=40),
    st.sampled_from([b"$", b"\r", b"\n", b"\r\n", b"*", b",", b"$" + b"A" * 120]),
    st.lists(st.sampled_from(CODES), max_size=3).map(lambda cs: " ".join(cs).encode() + b"\n"),
)
streams = st.lists(pieces, max_size=25).map(b"".join)


def feed_in_chunks(parser: DialectParser, data: bytes, cuts: list[int]) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        events += parser.feed(data[start:cut])
        start = cut
        assert parser.pending <= MAX_FRAME
    return events


def snapshot(stats: ParserStats) -> tuple[object, ...]:
    return (
        stats.frames,
        stats.duplicates,
        stats.gaps,
        stats.frames_lost,
        dict(stats.bad),
        stats.bytes_skipped,
    )


@given(streams, st.data())
def test_line_events_do_not_depend_on_chunking(data: bytes, draw: st.DataObject) -> None:
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=20))
    whole, chunked = LineParser(), LineParser()
    expected = whole.feed(data)
    assert feed_in_chunks(chunked, data, cuts) == expected
    assert snapshot(chunked.stats) == snapshot(whole.stats)


@given(streams, st.data())
def test_plain_events_do_not_depend_on_chunking(data: bytes, draw: st.DataObject) -> None:
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=20))
    whole, chunked = PlainParser(), PlainParser()
    expected = whole.feed(data)
    assert feed_in_chunks(chunked, data, cuts) == expected
    assert snapshot(chunked.stats) == snapshot(whole.stats)


@given(st.binary(max_size=3000), st.data())
def test_random_bytes_never_raise_and_memory_stays_bounded(
    data: bytes, draw: st.DataObject
) -> None:
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=10))
    for parser in (LineParser(), PlainParser()):
        feed_in_chunks(parser, data, cuts)
        assert parser.pending <= max(MAX_FRAME, MAX_LINE + 1)
        parser.reset()
        assert parser.pending == 0


@given(st.binary(max_size=500), st.sampled_from(CODES))
def test_a_valid_frame_after_any_garbage_is_read(garbage: bytes, code: str) -> None:
    line = LineParser()
    line.feed(garbage)
    # Any sequence number the garbage may have set does not matter: take one far from it.
    seq = ((line.last_seq("SHOE") or 0) + 500) % 1000
    events = line.feed(encode_frame("SHOE", seq, "CARD", code))
    assert events[-1] == CardRead(device="SHOE", seq=seq, card=Card.parse(code))

    plain = PlainParser()
    plain.feed(garbage)
    events = plain.feed(b"\n" + code.encode() + b"\r\n")
    assert events[-1] == CardRead(device="SHOE", seq=None, card=Card.parse(code))


@given(
    st.lists(st.tuples(st.binary(max_size=60), st.sampled_from(CODES)), max_size=30),
    st.integers(0, 999),
)
def test_valid_frames_interleaved_with_noise_all_come_out(
    mix: list[tuple[bytes, str]], first_seq: int
) -> None:
    stream = b"".join(
        noise + encode_frame("SHOE", (first_seq + i) % 1000, "CARD", code)
        for i, (noise, code) in enumerate(mix)
    )
    events = LineParser().feed(stream)
    assert [e.card.code for e in events if isinstance(e, CardRead)] == [c for _, c in mix]

    plain_stream = b"".join(noise + b"\n" + code.encode() + b"\r\n" for noise, code in mix)
    read = [e.card.code for e in PlainParser().feed(plain_stream) if isinstance(e, CardRead)]
    # Garbage may itself hold a card code on a line of its own; ours must all come out in order.
    remaining = iter(read)
    assert all(code in remaining for _, code in mix)
