"""A shuffler simulator that speaks the same bytes as a real shuffler (docs/protocols/
shoe-shuffler.md, "Shuffler to kiosk"), and the registered pseudo-terminal simulators of the
card devices (`tableside simulate <role>`, `port = "simulated"`).

`ShufflerSimulator` is the shoe simulator (hardware/simulators/shoe.py) as device `SHUF`: it
says HELLO, shuffles (`STATE SHUFFLING`), counts its cards (`COUNT`), is `READY`, then deals
(`STATE DEALING` before its first card, a `CARD` per card). It injects the faults a shuffler
shows mid-coup, each after a given number of cards (0: before the first):

- a jam: `FAULT JAM`, then `STATE IDLE`; no more cards;
- a damaged card: `DAMAGED 1`, `FAULT DAMAGE`, `STATE IDLE`; no more cards;
- a wrong count: `COUNT` says another number than the cards it holds;
- a power loss: the line goes silent (no heartbeat); on power again it says `HELLO` from
  seq 0 (the kiosk reads it as restarted) and `STATE IDLE`; no more cards.

Like the shoe simulator it does no I/O itself: it returns bytes (`run_shuffler` paces them
over a link, the silence of a power loss included).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from hardware.events import SHUFFLER, FaultCode, ShufflerState
from hardware.simulators.shoe import (
    Link,
    PtyLink,
    ShoeSimulator,
    close_and_linger,
    deal_paced,
)


@dataclass(frozen=True)
class ShufflerFaults:
    """Faults to inject, each after this many cards dealt (None: never; 0: before the first
    card). `count` is what COUNT says instead of the cards the shuffler holds."""

    jam_after: int | None = None
    damaged_after: int | None = None
    power_loss_after: int | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        for name in ("jam_after", "damaged_after", "power_loss_after", "count"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must not be negative, not {value}")


@dataclass
class ShufflerSimulator(ShoeSimulator):
    """A seeded shuffler that deals, as device SHUF, with `faults` injected."""

    device: str = SHUFFLER
    model: str = "TABLESIDE-SHUF-SIM"
    serial_number: str = "SIMSHUF01"
    stops: ShufflerFaults = field(default_factory=ShufflerFaults)
    state: ShufflerState = field(init=False, default=ShufflerState.IDLE)
    stopped: str = field(init=False, default="")  # why it deals no more ("jam", ...)
    power_lost: bool = field(init=False, default=False)  # silent until `power_on`

    def __post_init__(self) -> None:
        if self.dialect != "line":
            raise ValueError("a shuffler speaks the line dialect only")
        super().__post_init__()

    @property
    def done(self) -> bool:
        return bool(self.stopped) or super().done

    def say_state(self, state: ShufflerState) -> bytes:
        """STATE `state`, and the simulator is in it."""
        self.state = state
        return self._frame("STATE", state)[1]

    @property
    def holds(self) -> int:
        """The cards in the shuffler now."""
        return self.shoe.remaining

    def opening(self) -> bytes:
        """Switched on loaded: HELLO, it shuffles and counts, then it is READY; a fault due
        before the first card comes at once."""
        self.opened = True
        return self.hello() + self.shuffled() + self._fault_due()

    def shuffled(self) -> bytes:
        """A shuffle: STATE SHUFFLING, COUNT (the cards it holds, or `stops.count`), READY."""
        counted = self.stops.count if self.stops.count is not None else self.holds
        return (self.say_state(ShufflerState.SHUFFLING) + self._frame("COUNT", str(counted))[1]
                + self.say_state(ShufflerState.READY))

    def _fault_due(self) -> bytes:
        """The fault due after the cards dealt so far, if any (and it stops dealing)."""
        if self.stopped:
            return b""
        n, plan = len(self.dealt), self.stops
        if plan.jam_after == n:
            self.stopped = "jam"
            return self._frame("FAULT", FaultCode.JAM, "card jam")[1] + self.say_state(
                ShufflerState.IDLE)
        if plan.damaged_after == n:
            self.stopped = "damaged"
            return (self._frame("DAMAGED", "1")[1]
                    + self._frame("FAULT", FaultCode.DAMAGE, "damaged card")[1]
                    + self.say_state(ShufflerState.IDLE))
        if plan.power_loss_after == n:
            self.stopped = "power loss"
            self.power_lost = True
        return b""

    def step(self) -> bytes | None:
        """Deal one card (STATE DEALING before the first); a fault due after it follows."""
        if self.done:
            return None
        start = self.say_state(ShufflerState.DEALING) if self.state != ShufflerState.DEALING \
            else b""
        card = super().step()
        if card is None:
            return None
        return start + card + self._fault_due()

    def heartbeat(self) -> bytes:
        """HB; nothing while the power is off."""
        return b"" if self.power_lost else super().heartbeat()

    def closing(self) -> bytes:
        return b"" if self.power_lost else super().closing()

    def respond(self, data: bytes) -> bytes:
        return b"" if self.power_lost else super().respond(data)

    def power_on(self) -> bytes:
        """The power is back: the shuffler starts again from seq 0 (HELLO, STATE IDLE); the
        cards it held are in an unknown state, so it deals no more."""
        self.power_lost = False
        self.next_seq = 0
        return self.hello() + self.say_state(ShufflerState.IDLE)


async def run_shuffler(simulator: ShufflerSimulator, link: Link, *, pace: float = 1.5,
                       heartbeat_interval: float = 1.0, silence: float = 8.0,
                       linger: float = 1.0) -> None:
    """Deal over `link`, one card every `pace` seconds with an HB every `heartbeat_interval`,
    until the shuffler stops (its cards dealt, or a fault); a power loss is `silence` seconds
    of nothing, then its restart. Then the heartbeat goes on for `linger` seconds."""
    if heartbeat_interval <= 0 or pace < 0 or silence < 0:
        raise ValueError("heartbeat_interval must be positive, pace and silence not negative")
    await link.write(simulator.opening())
    next_beat = await deal_paced(simulator, link, pace, heartbeat_interval,
                                 stop=lambda: simulator.done)
    if simulator.power_lost:
        await asyncio.sleep(silence)
        await link.write(simulator.power_on())
        next_beat = asyncio.get_running_loop().time() + heartbeat_interval
    await close_and_linger(simulator, link, linger, next_beat, heartbeat_interval)


class PtyDevice:
    """A card device's registered simulator (`DeviceProtocol.simulator`): it says HELLO on a
    pseudo-terminal and keeps the line alive, answering `HELLO?`, until stopped. It deals no
    cards by itself; the demo's dealer pulls them (kiosk/assembly.py's `SimulatedShoe`), and
    `tableside simulate shoe` or `simulate shuffler` deal a whole shoe or coup."""

    def __init__(self, simulator: ShoeSimulator, period: float) -> None:
        self.sim = simulator
        self.period = period
        self.link = PtyLink()
        self.path = self.link.path

    @classmethod
    def shoe(cls, seed: int = 0, period: float = 1.0) -> PtyDevice:
        return cls(ShoeSimulator(seed=seed), period)

    @classmethod
    def shuffler(cls, seed: int = 0, period: float = 1.0) -> PtyDevice:
        return cls(ShufflerSimulator(seed=seed), period)

    async def run(self) -> None:
        self.link.answer(self.sim)
        hello = self.sim.hello()
        if isinstance(self.sim, ShufflerSimulator):
            hello += self.sim.say_state(ShufflerState.IDLE)
        self.sim.opened = True
        await self.link.write(hello)
        while True:
            await asyncio.sleep(self.period)
            await self.link.write(self.sim.heartbeat())

    def close(self) -> None:
        self.link.close()


__all__ = ["PtyDevice", "ShufflerFaults", "ShufflerSimulator", "run_shuffler"]
