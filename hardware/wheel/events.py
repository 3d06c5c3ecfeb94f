"""Typed events of the roulette wheel controller (docs/protocols/wheel-ss2.md).

`WheelStatus` is each raw `*X` report; the rest are what the reports mean, worked out by the
parser from the order of states and the warning flags, counted in reports (the wheel reports
every 500 ms), so the same bytes always give the same events. Fields are keyword-only, like
hardware/events.py; `device` is the link's label, `seq` is None (the SS2 numbers no frames).
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.events import DeviceEvent

WHEEL = "WHEEL"

CLOCKWISE = "clockwise"
ANTICLOCKWISE = "anticlockwise"


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelStatus(DeviceEvent):
    """`*X;<state>;<spin>;<number>;<warning>;<speed>;<direction>` as sent."""

    device: str
    seq: int | None = None
    state: int  # 1 before game, 2 place bets, 3 ball in rim, 4 no more bets, 5 result, 6 closed
    spin: int  # 1..256, wrapping
    number: str | None  # the last winning number; None before the first
    warning: int  # 1 ball removed, 2 ball with the wheel, 4 fault, 8 failed launch
    rpm_tenths: int
    direction: int  # 0 clockwise, 1 anticlockwise


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingOpened(DeviceEvent):
    """State 2: a new game; place your bets. `games` counts games since the driver started,
    across the spin counter's wrap from 256 to 1."""

    device: str
    seq: int | None = None
    spin: int
    games: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BallInRim(DeviceEvent):
    """State 3: the ball is launched and running in the rim, `direction` as reported."""

    device: str
    seq: int | None = None
    spin: int
    direction: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsClosed(DeviceEvent):
    """State 4: no more bets."""

    device: str
    seq: int | None = None
    spin: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WinningNumber(DeviceEvent):
    """The ball is in a pocket (the plain number line or state 5, whichever came first)."""

    device: str
    seq: int | None = None
    spin: int
    number: str
    direction: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MissSpin(DeviceEvent):
    """State 3 with warning 2: the ball turned with the wheel (it hit something): a VOID
    game; the host locks the bets and answers `*R`."""

    device: str
    seq: int | None = None
    spin: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NoBall(DeviceEvent):
    """State 4 with warning 1 for 10 reports (5 s): no ball detected."""

    device: str
    seq: int | None = None
    spin: int
    reports: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LaunchFailed(DeviceEvent):
    """Warning 8 past the first 6 reports (3 s): the ball was not launched."""

    device: str
    seq: int | None = None
    spin: int
    reports: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ComponentFault(DeviceEvent):
    """Warning 4: a sensor, motor or encoder fault."""

    device: str
    seq: int | None = None
    spin: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelClosed(DeviceEvent):
    """State 6; `during_play` when it came from states 2-4 (a fault, by the field notes)."""

    device: str
    seq: int | None = None
    spin: int
    during_play: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelRecovering(DeviceEvent):
    """After an unexpected drop to state 6: about once a second, up to 10 times, the host
    sends `*P 1` until the wheel is back in state 2 (field notes)."""

    device: str
    seq: int | None = None
    attempt: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SelfTestCode(DeviceEvent):
    """`*F <code>`: a self-test result, or a fault during play (mode bit 256)."""

    device: str
    seq: int | None = None
    code: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelStatistic(DeviceEvent):
    """`*w <chi2> <percent>`, kept as the wheel wrote them (never floats)."""

    device: str
    seq: int | None = None
    chi2: str
    percent: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelReply(DeviceEvent):
    """Any other reply: `*K CAM`, `*R OK`, `*P OK`, `*S 2.07`, `*F BUSY`..."""

    device: str
    seq: int | None = None
    command: str
    text: str


WheelEvent = (WheelStatus | BettingOpened | BallInRim | BetsClosed | WinningNumber | MissSpin
              | NoBall | LaunchFailed | ComponentFault | WheelClosed | WheelRecovering
              | SelfTestCode | WheelStatistic | WheelReply)
