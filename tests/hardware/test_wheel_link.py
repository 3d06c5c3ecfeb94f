"""The SS2 wheel over a real pseudo-terminal: the simulator on one side, the table's serial
link with the `wheel-ss2` protocol on the other; the host's answers go back down the line."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hardware.events import DeviceOnline
from hardware.link import SerialLink
from hardware.protocols import protocol
from hardware.simulators.wheel import PtyWheel, WheelSimulator
from hardware.wheel import events as wev
from hardware.wheel.ss2 import SS2Parser


async def play(wheel: PtyWheel, until: Any, timeout: float = 5.0) -> list[Any]:
    events: list[Any] = []
    link = SerialLink(wheel.path, protocol("wheel-ss2"), events.append)
    tasks = [asyncio.create_task(link.run()), asyncio.create_task(wheel.run())]
    try:
        assert await link.wait_connected(2)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not until(events, wheel) and loop.time() < end:
            await asyncio.sleep(0.01)
        assert until(events, wheel), [type(e).__name__ for e in events]
    finally:
        link.stop()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        wheel.close()
    return events


def got(kind: type) -> Any:
    return lambda events, _w: any(isinstance(e, kind) for e in events)


def test_a_game_over_the_pty_gives_the_events_of_its_bytes():
    wheel = PtyWheel(seed=1, period=0.01)
    expected = SS2Parser().feed(b"".join(WheelSimulator(seed=9).game("17")))
    wheel.spin("17")
    events = asyncio.run(play(wheel, got(wev.WinningNumber)))
    assert isinstance(events[0], DeviceOnline)
    meaning = [e for e in events if type(e).__module__ == "hardware.wheel.events"
               and not isinstance(e, wev.WheelStatus | wev.WheelReply)]
    assert meaning == [e for e in expected if not isinstance(e, wev.WheelStatus)]
    assert wheel.heard[0] == b"*S"  # the greeting asks the firmware version only


def test_the_host_starts_a_game_with_u1():
    wheel = PtyWheel(seed=3, period=0.01)

    async def go() -> list[Any]:
        events: list[Any] = []
        link = SerialLink(wheel.path, protocol("wheel-ss2"), events.append)
        tasks = [asyncio.create_task(link.run()), asyncio.create_task(wheel.run())]
        try:
            await link.wait_connected(2)
            await asyncio.sleep(0.05)
            assert link.command("start")
            for _ in range(300):
                if any(isinstance(e, wev.WinningNumber) for e in events):
                    break
                await asyncio.sleep(0.01)
        finally:
            link.stop()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            wheel.close()
        return events

    events = asyncio.run(go())
    assert b"*u 1" in wheel.heard
    assert [e.number for e in events if isinstance(e, wev.WinningNumber)] == [
        wheel.sim.number]


def test_a_miss_spin_is_acknowledged_with_R_down_the_line():
    wheel = PtyWheel(period=0.01)
    wheel.spin("5", faults=("miss_spin",))
    events = asyncio.run(play(wheel, lambda ev, w: b"*R" in w.heard))
    assert sum(isinstance(e, wev.MissSpin) for e in events) == 1
    assert wheel.heard.count(b"*R") == 1


@pytest.mark.parametrize("fault", ["drop_to_6"])
def test_a_drop_to_6_in_play_is_answered_with_P1(fault):
    wheel = PtyWheel(period=0.01)
    wheel.spin("5", faults=(fault,))
    events = asyncio.run(play(wheel, lambda ev, w: b"*P 1" in w.heard))
    assert any(isinstance(e, wev.WheelClosed) and e.during_play for e in events)
    assert wheel.sim.state == 1  # the simulated wheel came back on `*P 1`


def test_the_makers_example_over_the_pty_gives_the_events_of_its_bytes():
    from hardware.simulators.wheel import maker_example

    wheel = PtyWheel(period=10.0)  # silent but for what the test sends
    expected = [e for e in SS2Parser().feed(maker_example())]

    def sent(events: list[Any], w: PtyWheel) -> bool:
        if not w.heard:
            return False
        if not getattr(w, "_sent", False):
            w.send(maker_example())
            w._sent = True  # type: ignore[attr-defined]
        return sum(type(e).__module__ == "hardware.wheel.events" for e in events) >= len(
            [e for e in expected if e])

    events = asyncio.run(play(wheel, sent))
    got = [e for e in events if type(e).__module__ == "hardware.wheel.events"
           and not isinstance(e, wev.WheelReply)]
    assert got == expected
