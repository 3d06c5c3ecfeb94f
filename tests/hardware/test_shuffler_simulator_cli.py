"""`tableside simulate shuffler`: prints its pseudo-terminal on its first line, then says
HELLO, shuffles, counts and deals a coup as device SHUF, with the faults asked for; read
through the shuffler's own protocol."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import tty
from pathlib import Path

from hardware import events as ev
from hardware.protocols import protocol
from hardware.shoe.line_dialect import encode_frame
from hardware.simulators.shuffler import ShufflerFaults, ShufflerSimulator

ROOT = Path(__file__).resolve().parents[2]


def _read(*args: str) -> list[ev.DeviceEvent]:
    """Run the command, greet it (`HELLO?`) and read its events until it ends."""
    proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "simulate", "shuffler",
                             "--decks", "1", "--seed", "4", "--pace", "0.01", "--wait",
                             "--linger", "0.2", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    events: list[ev.DeviceEvent] = []
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/pts/")
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        parser = protocol("shuffler-line").make_parser("SHUF")
        os.write(fd, encode_frame("KIOSK", 0, "HELLO?"))
        for _ in range(300):  # until it has ended (or 60 s on a very busy machine)
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    events += parser.feed(os.read(fd, 4096))
                except OSError:
                    break
            elif proc.poll() is not None:
                break
        os.close(fd)
    finally:
        proc.kill()
        proc.wait()
    return [e for e in events if not isinstance(e, ev.Heartbeat)]


def _expected(faults: ShufflerFaults) -> list[ev.DeviceEvent]:
    """What the same simulator says, read by the same parser (HELLO answered first)."""
    sim = ShufflerSimulator(decks=1, seed=4, cards=6, stops=faults)
    parser = protocol("shuffler-line").make_parser("SHUF")
    data = sim.opening()
    while (step := sim.step()) is not None:
        data += step
    if sim.power_lost:
        data += sim.power_on()
    return [e for e in parser.feed(data) if not isinstance(e, ev.Heartbeat)]


def test_a_coup_with_a_jam_after_two_cards() -> None:
    got = _read("--jam-after", "2")
    kinds = [type(e).__name__ for e in got]
    assert kinds[:5] == ["ShoeHello", "ShoeHello", "ShufflerStateChanged", "ShuffleCount",
                         "ShufflerStateChanged"]  # its HELLO, and again for our HELLO?
    cards = [e.card.code for e in got if isinstance(e, ev.CardRead)]
    assert len(cards) == 2
    assert [c.code for c in ShufflerSimulator(decks=1, seed=4).shoe.cards[:2]] == cards
    fault = [e for e in got if isinstance(e, ev.ShufflerFault)]
    assert [(f.code, f.text) for f in fault] == [(ev.FaultCode.JAM, "card jam")]
    assert isinstance(got[-1], ev.ShufflerStateChanged)
    assert got[-1].state is ev.ShufflerState.IDLE
    # The same bytes as the simulator's own, but for the HELLO it answered.
    assert [type(e) for e in got[1:]] == [type(e) for e in _expected(
        ShufflerFaults(jam_after=2))]


def test_a_wrong_count_and_a_power_loss() -> None:
    got = _read("--count", "51", "--power-loss-after", "1", "--silence", "0.3")
    assert [e.cards for e in got if isinstance(e, ev.ShuffleCount)] == [51]
    assert len([e for e in got if isinstance(e, ev.CardRead)]) == 1
    hellos = [e for e in got if isinstance(e, ev.ShoeHello)]
    assert [h.restarted for h in hellos] == [False, False, True]  # back after the silence
    assert isinstance(got[-1], ev.ShufflerStateChanged)
    assert got[-1].state is ev.ShufflerState.IDLE


def test_a_dealing_shuffler_burns_and_says_unread_new_in_1_1() -> None:
    """Protocol version 1.1: BURN and UNREAD from a shuffler are its events (bad input in 1)."""
    from kiosk.rules.cards import Card

    parser = protocol("shuffler-line").make_parser("SHUF")
    got = parser.feed(encode_frame("SHUF", 0, "BURN", "9D") + encode_frame("SHUF", 1, "BURN")
                      + encode_frame("SHUF", 2, "UNREAD") + encode_frame("SHUF", 3, "CUT"))
    assert got[:3] == [ev.CardBurned(device="SHUF", seq=0, card=Card.parse("9D")),
                       ev.CardBurned(device="SHUF", seq=1, card=None),
                       ev.CardUnread(device="SHUF", seq=2)]
    assert isinstance(got[3], ev.BadInput) and got[3].kind is ev.BadKind.UNKNOWN_TYPE


def test_it_stops_on_sigterm_even_while_silent() -> None:
    """SIGTERM in the silence of a power loss ends it at once (kiosk.stopping: status 0),
    saying what it dealt."""
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "simulate", "shuffler",
                             "--pace", "0", "--power-loss-after", "1", "--silence", "600"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        parser = protocol("shuffler-line").make_parser("SHUF")
        seen: list[ev.DeviceEvent] = []
        for _ in range(300):  # until its card is out: it is silent after it
            if any(isinstance(e, ev.CardRead) for e in seen):
                break
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                seen += parser.feed(os.read(fd, 4096))
        os.close(fd)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert "dealt 1 card(s); stopped: power loss" in err
