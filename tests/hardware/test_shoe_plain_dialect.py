"""Dialect `plain` (spec docs/protocols/shoe-shuffler.md, "Dialect plain")."""

from __future__ import annotations

from hardware.events import BadInput, BadKind, CardRead
from hardware.shoe.plain_dialect import MAX_LINE, PlainParser
from kiosk.rules.cards import Card


def read(code: str) -> CardRead:
    return CardRead(device="SHOE", seq=None, card=Card.parse(code))


def test_one_card_a_line_with_optional_spaces() -> None:
    parser = PlainParser()
    events = parser.feed(b"AS\r\n  TD \r\nQH\n7C\r")
    assert events == [read("AS"), read("TD"), read("QH"), read("7C")]
    assert parser.stats.frames == 4
    assert parser.stats.bad_total == 0


def test_a_lower_case_code_is_refused() -> None:
    """The spec's codes are upper case: `qh` was dealt as QH; it is bad input now."""
    parser = PlainParser()
    events = parser.feed(b"qh\r\nAs\r\n7C\r\n")
    assert [e.kind for e in events if isinstance(e, BadInput)] == [BadKind.BAD_CARD] * 2
    assert events[-1] == read("7C")


def test_blank_lines_are_not_errors() -> None:
    parser = PlainParser()
    assert parser.feed(b"\r\n\r\n   \r\nKH\r\n") == [read("KH")]
    assert parser.stats.bad_total == 0


def test_anything_else_is_counted_and_skipped() -> None:
    parser = PlainParser(device="SHUF")
    events = parser.feed(b"HELLO\r\n1X\r\n\x00\x01\r\nAS\r\n")
    assert [type(e) for e in events] == [BadInput, BadInput, BadInput, CardRead]
    kinds = [e.kind for e in events if isinstance(e, BadInput)]
    assert kinds == [BadKind.BAD_CARD, BadKind.BAD_CARD, BadKind.MALFORMED]
    assert [e.raw for e in events if isinstance(e, BadInput)] == [b"HELLO", b"1X", b"\x00\x01"]
    assert all(e.device == "SHUF" for e in events)
    assert parser.stats.bad == {BadKind.BAD_CARD: 2, BadKind.MALFORMED: 1}
    assert parser.stats.bytes_skipped == 5 + 2 + 2


def test_overlong_line_is_reported_once_without_holding_it() -> None:
    parser = PlainParser()
    events = parser.feed(b"Z" * 10_000)
    assert parser.pending == 0
    events += parser.feed(b"Z" * 10_000 + b"\r\nJC\r\n")
    assert [type(e) for e in events] == [BadInput, CardRead]
    bad = events[0]
    assert isinstance(bad, BadInput)
    assert bad.kind is BadKind.OVERLONG
    assert len(bad.raw) == MAX_LINE + 1
    assert parser.stats.bytes_skipped == 20_000
    assert events[1] == read("JC")


def test_reset_reports_a_half_line() -> None:
    parser = PlainParser()
    assert parser.feed(b"A") == []
    events = parser.reset()
    assert len(events) == 1
    assert isinstance(events[0], BadInput)
    assert events[0].kind is BadKind.TRUNCATED
    assert parser.feed(b"S\r\n") == [
        BadInput(
            device="SHOE",
            seq=None,
            raw=b"S",
            reason="'S' is not a card code (rank then suit, like AS or TD)",
            kind=BadKind.BAD_CARD,
        )
    ]
