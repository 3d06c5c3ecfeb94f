"""The card shoe and the shuffler are wired like every other device: their events go to the
table side their protocol registers (kiosk/table/shoe.py, shuffler.py), their simulators are
registered with their protocol and served by `tableside simulate <role>`, and the session, the
screen's launcher and the console have no path of their own for them."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

from hardware import events as ev
from hardware.link import SerialLink
from hardware.protocols import protocol, roles, simulator_of
from hardware.simulators.cli import simulate

ROOT = Path(__file__).resolve().parents[2]
CARD_DEVICE_EVENTS = {"CardRead", "CardUnread", "CardBurned", "CutCardOut", "ShoeHello",
                      "ShoeStateChanged", "ShufflerStateChanged", "ShuffleCount",
                      "ShufflerFault", "CardsDamaged", "Heartbeat"}


def _names(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(tree)
            if isinstance(n, ast.Attribute | ast.Name)}


def test_the_session_has_no_branch_of_its_own_for_the_shoe_or_the_shuffler() -> None:
    assert not _names("kiosk/table/session.py") & CARD_DEVICE_EVENTS
    assert not _names("kiosk/table/session.py") & {"UsesShuffler", "ShoeReader"}
    assert (protocol("shoe-line").table_side, protocol("shoe-plain").table_side,
            protocol("shuffler-line").table_side) == (
        "kiosk.table.shoe", "kiosk.table.shoe", "kiosk.table.shuffler")


def test_the_launcher_and_the_console_open_the_dealing_device_as_the_assembly_does() -> None:
    for path in ("kiosk/ui/launcher.py", "kiosk/console.py"):
        names = _names(path)
        assert "ShoeReader" not in names and "dealing_link" in names, path


def test_every_registered_simulator_has_its_simulate_command() -> None:
    with_simulator = {role for role in roles() if simulator_of(role) is not None}
    assert with_simulator == {"shoe", "shuffler", "wheel"}
    assert with_simulator <= set(simulate.commands)


def test_the_registered_card_simulators_say_hello_on_their_pty() -> None:
    """What `port = "simulated"` runs for a shoe or a shuffler that only shuffles: it says
    HELLO and keeps the line alive, read through its own protocol."""

    async def hello(role: str, name: str) -> list[ev.DeviceEvent]:
        make = simulator_of(role)
        assert make is not None
        device = make(0, 0.05)
        got: list[ev.DeviceEvent] = []
        link = SerialLink(device.path, protocol(name), got.append)
        tasks = [asyncio.create_task(device.run()), asyncio.create_task(link.run())]
        try:
            for _ in range(3000):  # never a timed assertion
                if sum(isinstance(e, ev.Heartbeat) for e in got) >= 2:
                    break
                await asyncio.sleep(0.01)
        finally:
            link.stop()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            device.close()
        return got

    shoe = asyncio.run(hello("shoe", "shoe-line"))
    assert any(isinstance(e, ev.ShoeHello) and e.device == "SHOE" for e in shoe)
    shuffler = asyncio.run(hello("shuffler", "shuffler-line"))
    assert any(isinstance(e, ev.ShoeHello) and e.device == "SHUF" for e in shuffler)
