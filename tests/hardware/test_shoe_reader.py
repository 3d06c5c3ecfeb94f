"""The real reader reads the simulator over a real pseudo-terminal and over socket://
(docs/architecture.md, "How it is proven": the real driver reads a pseudo-terminal or socket
fed by the simulator).
Spec docs/protocols/shoe-shuffler.md: "Link", "Frame", `HB` (silence = offline),
"Kiosk to device"."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from typing import Any

from hardware.events import (
    BadInput,
    BadKind,
    CardRead,
    CardUnread,
    CutCardOut,
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    FramesLost,
    Heartbeat,
    ShoeHello,
    ShoeState,
    ShoeStateChanged,
)
from hardware.shoe.reader import ShoeReader
from hardware.simulators.shoe import FaultPlan, PtyLink, ShoeSimulator, TcpLink, run_paced


def run(coro: Coroutine[Any, Any, None], timeout: float = 10.0) -> None:
    """pytest-asyncio is not installed: run each scenario in its own loop, never forever."""
    asyncio.run(asyncio.wait_for(coro, timeout))


async def until(condition: Callable[[], bool], timeout: float = 8.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out waiting for the reader"
        await asyncio.sleep(0.01)


def of(kind: type[DeviceEvent], events: list[DeviceEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def test_reader_reads_the_simulator_over_a_pty_with_injected_faults() -> None:
    events: list[DeviceEvent] = []
    plan = FaultPlan(
        noise_at=frozenset({2}),
        drop_at=frozenset({4}),
        unread_at=frozenset({6}),
        duplicate_at=frozenset({8}),
        bad_checksum_at=frozenset({10}),
    )
    sim = ShoeSimulator(decks=1, seed=7, faults=plan, cut_at=12)

    async def scenario() -> None:
        link = PtyLink()
        reader = ShoeReader(link.path, "line", events.append)
        task = asyncio.create_task(reader.run())
        try:
            assert await reader.wait_connected(3.0)
            sim.write_next(link.master, 14)
            # Garbage a real line may carry must not stop it either.
            link.send(random.Random(1).randbytes(3000).replace(b"$", b"#"))
            sim.write_next(link.master, 52)
            await until(lambda: bool(of(ShoeStateChanged, events)[1:]))
        finally:
            reader.stop()
            await task
            link.close()

    run(scenario())
    assert isinstance(events[0], DeviceOnline)
    assert isinstance(events[1], ShoeHello)
    assert events[2] == ShoeStateChanged(device="SHOE", seq=1, state=ShoeState.LOADED)
    assert [e.card for e in of(CardRead, events)] == sim.read_cards
    assert len(sim.read_cards) == 52 - 3  # dropped, unread, corrupt
    lost = of(FramesLost, events)
    assert [(e.expected_seq, e.missing) for e in lost] == [(5, 1), (11, 1)]
    assert [e.seq for e in of(CardUnread, events)] == [7]
    assert len(of(CutCardOut, events)) == 1
    # 2 opening frames, 52 cards, CUT: STATE EMPTY is frame 55.
    assert events[-1] == ShoeStateChanged(device="SHOE", seq=55, state=ShoeState.EMPTY)
    bad = of(BadInput, events)
    assert {e.kind for e in bad} == {BadKind.NOISE, BadKind.BAD_CHECKSUM}
    assert sum(e.kind is BadKind.BAD_CHECKSUM for e in bad) == 1
    assert sum(len(e.raw) for e in bad if e.kind is BadKind.NOISE) >= 3000


def test_reader_asks_hello_and_the_simulator_answers() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1, seed=1)

    async def scenario() -> None:
        link = PtyLink()
        link.answer(sim)
        reader = ShoeReader(link.path, "line", events.append)
        task = asyncio.create_task(reader.run())
        try:
            await asyncio.wait_for(link.hello_requested.wait(), 3.0)
            await until(lambda: bool(of(ShoeHello, events)))
        finally:
            reader.stop()
            await task
            link.close()

    run(scenario())
    assert events[:2] == [
        DeviceOnline(device="SHOE"),
        ShoeHello(
            device="SHOE",
            seq=0,
            model=sim.model,
            firmware=sim.firmware,
            serial_number=sim.serial_number,
        ),
    ]


def test_plain_dialect_over_a_pty() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(
        decks=1,
        seed=4,
        dialect="plain",
        faults=FaultPlan(noise_at=frozenset({1}), unread_at=frozenset({3})),
    )

    async def scenario() -> None:
        link = PtyLink()
        reader = ShoeReader(link.path, "plain", events.append)
        task = asyncio.create_task(reader.run())
        try:
            assert await reader.wait_connected(3.0)
            sim.write_next(link.master, 52)
            await until(lambda: len(of(CardRead, events)) == 51)
        finally:
            reader.stop()
            await task
            link.close()

    run(scenario())
    assert [e.card for e in of(CardRead, events)] == sim.read_cards
    assert all(e.seq is None for e in of(CardRead, events))
    assert len(of(BadInput, events)) == 2


def test_whole_shoe_over_socket_at_pace() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1, seed=21, cut_at=40)
    frames_counted: list[int] = []

    async def scenario() -> None:
        link = TcpLink(sim)
        url = await link.start(0)
        reader = ShoeReader(url, "line", events.append)
        task = asyncio.create_task(reader.run())
        try:
            await asyncio.wait_for(link.client_connected.wait(), 3.0)
            await run_paced(sim, link, pace=0.002, heartbeat_interval=0.05, linger=0.1)
            await until(lambda: bool(of(ShoeStateChanged, events)[1:]))
        finally:
            reader.stop()
            await task
            await link.close()
        frames_counted.append(reader.stats.frames)

    run(scenario())
    assert [e.card for e in of(CardRead, events)] == sim.shoe.cards
    assert len(of(CutCardOut, events)) == 1
    assert of(Heartbeat, events)
    # The opening HELLO, and the answer to the reader's HELLO?.
    assert len(of(ShoeHello, events)) == 2
    assert not of(FramesLost, events)
    assert not of(BadInput, events)
    assert frames_counted == [len(events) - 1]  # all but DeviceOnline


def test_silence_means_offline_and_bytes_bring_it_back() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1)

    async def scenario() -> None:
        link = PtyLink()
        reader = ShoeReader(link.path, "line", events.append, heartbeat_timeout=0.3)
        task = asyncio.create_task(reader.run())
        try:
            assert await reader.wait_connected(3.0)
            link.send(sim.opening())
            await until(lambda: len(events) == 3)
            assert reader.online is True
            await until(lambda: len(events) == 4)
            assert reader.online is False
            link.send(sim.heartbeat())
            await until(lambda: len(events) == 6)
        finally:
            reader.stop()
            await task
            link.close()

    run(scenario())
    assert [type(e) for e in events] == [
        DeviceOnline,
        ShoeHello,
        ShoeStateChanged,
        DeviceOffline,
        DeviceOnline,
        Heartbeat,
    ]
    offline = events[3]
    assert isinstance(offline, DeviceOffline)
    assert 0.29 <= offline.silent_seconds < 2.0


def test_port_going_away_is_offline_and_the_reader_reconnects() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1, seed=8)

    async def scenario() -> None:
        first = TcpLink(sim)
        url = await first.start(0)
        reader = ShoeReader(url, "line", events.append, retry_interval=0.05)
        task = asyncio.create_task(reader.run())
        second = TcpLink(sim)
        try:
            await asyncio.wait_for(first.client_connected.wait(), 3.0)
            await first.write(sim.opening() + (sim.step() or b""))
            await until(lambda: len(of(CardRead, events)) == 1)
            await first.close()
            await until(lambda: bool(of(DeviceOffline, events)))
            # Three cards leave the shoe while the cable is out.
            for _ in range(3):
                sim.step()
            await asyncio.sleep(0.2)  # several failed retries: still one DeviceOffline
            await second.start(first.port)
            await asyncio.wait_for(second.client_connected.wait(), 3.0)
            await second.write(sim.step() or b"")
            await until(lambda: len(of(CardRead, events)) == 2)
        finally:
            reader.stop()
            await task
            await second.close()

    run(scenario())
    assert len(of(DeviceOffline, events)) == 1
    assert [type(e) for e in events if isinstance(e, DeviceOffline | DeviceOnline)] == [
        DeviceOnline,
        DeviceOffline,
        DeviceOnline,
    ]
    # The frames sent while the link was down show up as a gap when it returns (the HELLO
    # answering the reader's HELLO? on reconnecting may come first, or after the card).
    lost = of(FramesLost, events)
    assert len(lost) == 1
    assert lost[0].missing == 3
    assert [e.card for e in of(CardRead, events)] == [sim.dealt[0].card, sim.dealt[4].card]


def test_unopenable_port_is_offline_once_and_stop_ends_the_run() -> None:
    events: list[DeviceEvent] = []

    async def scenario() -> None:
        reader = ShoeReader("/dev/no-such-shoe", "line", events.append, retry_interval=0.02)
        task = asyncio.create_task(reader.run())
        await asyncio.sleep(0.2)
        assert not reader.connected
        reader.stop()
        await asyncio.wait_for(task, 2.0)

    run(scenario())
    assert len(events) == 1
    assert isinstance(events[0], DeviceOffline)


def test_pty_vanishing_reports_the_half_frame_then_offline() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1)

    async def scenario() -> None:
        link = PtyLink()
        # No retry during the test: the kernel may hand the freed pty to another process,
        # whose bytes a retrying reader would then read (and steal).
        reader = ShoeReader(link.path, "line", events.append, retry_interval=60)
        task = asyncio.create_task(reader.run())
        try:
            assert await reader.wait_connected(3.0)
            link.send(sim.opening() + b"$SHOE,2,CA")
            await until(lambda: len(events) == 3)
            link.close()  # the shoe's USB cable is pulled
            await until(lambda: bool(of(DeviceOffline, events)))
        finally:
            reader.stop()
            await task

    run(scenario())
    assert [type(e) for e in events] == [
        DeviceOnline,
        ShoeHello,
        ShoeStateChanged,
        BadInput,
        DeviceOffline,
    ]
    half = events[3]
    assert isinstance(half, BadInput)
    assert (half.kind, half.raw) == (BadKind.TRUNCATED, b"$SHOE,2,CA")
