"""The shoe simulator speaks the protocol's bytes (docs/architecture.md; spec
docs/protocols/shoe-shuffler.md) and injects the faults it is told to, where it is told to."""

from __future__ import annotations

import os

import pytest

from hardware.events import (
    BadInput,
    BadKind,
    CardRead,
    CardUnread,
    CutCardOut,
    FramesLost,
    ShoeHello,
    ShoeState,
    ShoeStateChanged,
)
from hardware.shoe.line_dialect import LineParser, encode_frame
from hardware.shoe.plain_dialect import PlainParser
from hardware.simulators.shoe import Fate, FaultPlan, ShoeSimulator
from kiosk.shoe import SeededShoe


def test_a_clean_shoe_deals_every_card_in_the_seeded_order() -> None:
    sim = ShoeSimulator(decks=1, seed=11)
    data = sim.opening() + b"".join(iter(sim.step, None)) + sim.closing()
    events = LineParser().feed(data)
    assert events[0] == ShoeHello(
        device="SHOE", seq=0, model=sim.model, firmware="1.0", serial_number=sim.serial_number
    )
    assert events[1] == ShoeStateChanged(device="SHOE", seq=1, state=ShoeState.LOADED)
    assert events[-1] == ShoeStateChanged(device="SHOE", seq=54, state=ShoeState.EMPTY)
    cards = [e.card for e in events if isinstance(e, CardRead)]
    assert cards == SeededShoe(decks=1, seed=11).cards
    assert len(cards) == 52
    assert sim.done and sim.step() is None
    assert sim.read_cards == cards


def test_same_seed_same_bytes() -> None:
    plan = FaultPlan(noise=0.2, drop=0.1, unread=0.1, duplicate=0.1, bad_checksum=0.1)
    runs = []
    for _ in range(2):
        sim = ShoeSimulator(decks=2, seed=5, faults=plan)
        runs.append(sim.opening() + b"".join(iter(sim.step, None)))
    assert runs[0] == runs[1]
    other = ShoeSimulator(decks=2, seed=6, faults=plan)
    assert other.opening() + b"".join(iter(other.step, None)) != runs[0]


def test_faults_at_given_positions() -> None:
    plan = FaultPlan(
        noise_at=frozenset({2}),
        drop_at=frozenset({4}),
        unread_at=frozenset({6}),
        duplicate_at=frozenset({8}),
        bad_checksum_at=frozenset({10}),
    )
    sim = ShoeSimulator(decks=1, seed=3, faults=plan, cut_at=11, cards=12)
    parser = LineParser()
    events = parser.feed(sim.opening() + b"".join(iter(sim.step, None)))
    assert [d.fate for d in sim.dealt] == [
        Fate.READ,
        Fate.READ,
        Fate.READ,
        Fate.DROPPED,
        Fate.READ,
        Fate.UNREAD,
        Fate.READ,
        Fate.READ,
        Fate.READ,
        Fate.BAD_CHECKSUM,
        Fate.READ,
        Fate.READ,
    ]
    assert [d.noise for d in sim.dealt].count(True) == 1 and sim.dealt[1].noise
    assert sim.dealt[7].duplicated
    shoe = SeededShoe(decks=1, seed=3).cards
    assert [e.card for e in events if isinstance(e, CardRead)] == [
        shoe[i] for i in (0, 1, 2, 4, 6, 7, 8, 10, 11)
    ]
    # Card 4 (seq 5) was dropped; card 10 (seq 11) arrived corrupt.
    lost = [e for e in events if isinstance(e, FramesLost)]
    assert [(e.expected_seq, e.got_seq, e.missing) for e in lost] == [(5, 6, 1), (11, 12, 1)]
    assert [e.seq for e in events if isinstance(e, CardUnread)] == [7]
    # CUT follows card 11 (seq 12), before card 12 (seq 14).
    assert [e.seq for e in events if isinstance(e, CutCardOut)] == [13]
    assert parser.stats.bad == {BadKind.NOISE: 1, BadKind.BAD_CHECKSUM: 1}
    assert parser.stats.duplicates == 1


def test_fault_rates_are_applied() -> None:
    sim = ShoeSimulator(decks=1, seed=1, faults=FaultPlan(noise=1.0, unread=1.0))
    events = LineParser().feed(b"".join(iter(sim.step, None)))
    assert sum(isinstance(e, CardUnread) for e in events) == 52
    assert sum(isinstance(e, BadInput) and e.kind is BadKind.NOISE for e in events) == 52
    with pytest.raises(ValueError):
        FaultPlan(drop=1.5)


def test_plain_dialect_output() -> None:
    plan = FaultPlan(
        noise_at=frozenset({1}),
        unread_at=frozenset({2}),
        drop_at=frozenset({3}),
        bad_checksum_at=frozenset({4}),
        duplicate_at=frozenset({5}),
    )
    sim = ShoeSimulator(decks=1, seed=9, dialect="plain", faults=plan, cut_at=1, cards=6)
    assert sim.opening() == b"" and sim.heartbeat() == b""
    parser = PlainParser()
    events = parser.feed(b"".join(iter(sim.step, None)))
    shoe = SeededShoe(decks=1, seed=9).cards
    assert [e.card for e in events if isinstance(e, CardRead)] == [shoe[0], shoe[4], shoe[5]]
    assert sim.read_cards == [shoe[0], shoe[4], shoe[5]]
    assert parser.stats.bad_total == 3  # the noise line, "??" and the corrupt code


def test_answers_hello_requests_even_split_across_reads() -> None:
    sim = ShoeSimulator(decks=1)
    request = encode_frame("KIOSK", 0, "HELLO?")
    assert sim.respond(request[:5]) == b""
    reply = sim.respond(request[5:] + b"$KIOSK,1,HELLO?*00\r\n")  # the second has a bad checksum
    assert LineParser().feed(reply) == [
        ShoeHello(
            device="SHOE", seq=0, model=sim.model, firmware="1.0", serial_number=sim.serial_number
        )
    ]
    assert sim.respond(encode_frame("KIOSK", 2, "ACK", "0")) == b""


def test_write_next_writes_to_a_file_descriptor() -> None:
    read_fd, write_fd = os.pipe()
    try:
        sim = ShoeSimulator(decks=1, seed=2, cut_at=3)
        assert sim.write_next(write_fd, 3) == 3
        assert sim.write_next(write_fd, 100) == 49
        events = LineParser().feed(os.read(read_fd, 65536))
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert len([e for e in events if isinstance(e, CardRead)]) == 52
    assert isinstance(events[-1], ShoeStateChanged) and events[-1].state is ShoeState.EMPTY
    assert sum(isinstance(e, CutCardOut) for e in events) == 1
