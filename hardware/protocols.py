"""Device protocols, one registration each: what a serial link needs to talk to a device.

A protocol names the parser that turns its bytes into typed `hardware.events`, the greeting
sent when the port opens, an optional poll, and how long the device may stay silent before it
counts as offline. A new device (the SS2 roulette wheel, another maker's shoe) is one module
with its parser and one `register_protocol` line here; nothing else in the kiosk changes: the
table's config names it in `[devices.<role>]` (role and dialect make the protocol's name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.events import KIOSK, SHOE, SHUFFLER
from hardware.shoe.line_dialect import SEQ_MODULUS, LineParser, encode_frame
from hardware.shoe.plain_dialect import PlainParser
from hardware.shoe.stats import DialectParser
from hardware.wheel import ss2
from hardware.wheel.events import WHEEL
from kiosk.rules.errors import Said


@dataclass(frozen=True, slots=True)
class DeviceProtocol:
    name: str  # "shoe-line": role and dialect
    role: str  # the table's device role: shoe, shuffler, wheel
    label: str  # the device name its events carry when the bytes name none
    make_parser: Callable[[str], DialectParser]  # label -> a fresh parser
    greeting: Callable[[int], bytes] | None = None  # kiosk seq -> bytes sent on connect
    poll: Callable[[int], bytes] | None = None  # kiosk seq -> bytes sent every poll_every
    poll_every: float = 0.0
    heartbeat_timeout: float = 5.0  # seconds of silence before the device counts as offline
    seq_modulus: int = SEQ_MODULUS  # the kiosk's own frame numbers wrap here
    answer: Callable[[object], bytes | None] | None = None  # bytes sent back for an event
    commands: Mapping[str, bytes] = field(default_factory=dict)  # named commands the table
    # may send ("start" a wheel's game)
    spoken: Said | None = None  # the device as the dealer calls it ("roulette wheel")
    by_hand: Said | None = None  # what the dealer does while it is away
    table_side: str = ""
    """The module that records the device's own events at the table (its `on_event(session,
    event)`: kiosk/table/shoe.py, shuffler.py, wheel.py); the link's reports (`LINK_EVENTS`)
    the session handles itself, the same for every device."""
    simulator: Callable[[int, float], Any] | None = None
    """(seed, seconds between reports) -> the device's simulator on a pseudo-terminal (its
    `path` is the port, `run()` serves it): the demo's, and `tableside simulate <role>`'s."""


_PROTOCOLS: dict[str, DeviceProtocol] = {}


def register_protocol(protocol: DeviceProtocol) -> DeviceProtocol:
    if protocol.name in _PROTOCOLS:
        raise ValueError(f"two device protocols are called {protocol.name!r}")
    _PROTOCOLS[protocol.name] = protocol
    return protocol


def protocol(name: str) -> DeviceProtocol:
    """The registered protocol; ValueError naming the known ones for another name."""
    found = _PROTOCOLS.get(name)
    if found is None:
        raise ValueError(f"unknown device protocol {name!r} (known: {', '.join(_PROTOCOLS)})")
    return found


def protocol_of_device(label: str) -> DeviceProtocol | None:
    """The first protocol whose events carry this device name ("WHEEL"), or None."""
    return next((p for p in _PROTOCOLS.values() if p.label == label), None)


def simulator_of(role: str) -> Callable[[int, float], Any] | None:
    """The pseudo-terminal simulator registered for a device role, if any."""
    return next((p.simulator for p in _PROTOCOLS.values() if p.role == role and p.simulator),
                None)


def protocol_names() -> tuple[str, ...]:
    return tuple(_PROTOCOLS)


def roles() -> dict[str, tuple[str, ...]]:
    """Each device role with the dialects its protocols speak, as the config lists them."""
    out: dict[str, list[str]] = {}
    for p in _PROTOCOLS.values():
        out.setdefault(p.role, []).append(p.name.removeprefix(p.role + "-"))
    return {role: tuple(dialects) for role, dialects in out.items()}


def _hello(seq: int) -> bytes:
    return encode_frame(KIOSK, seq, "HELLO?")


def _pty_shoe(seed: int, period: float) -> Any:
    from hardware.simulators.shuffler import PtyDevice

    return PtyDevice.shoe(seed=seed, period=period)


def _pty_shuffler(seed: int, period: float) -> Any:
    from hardware.simulators.shuffler import PtyDevice

    return PtyDevice.shuffler(seed=seed, period=period)


def _pty_wheel(seed: int, period: float) -> Any:
    from hardware.simulators.wheel import PtyWheel

    return PtyWheel(seed=seed, period=period)


# The shoe: the line dialect (the spec) or plain card codes, one a line.
register_protocol(DeviceProtocol("shoe-line", "shoe", SHOE, LineParser, greeting=_hello,
                                 spoken=Said.words("card shoe"), table_side="kiosk.table.shoe",
                                 simulator=_pty_shoe))
register_protocol(DeviceProtocol("shoe-plain", "shoe", SHOE, PlainParser,
                                 spoken=Said.words("card shoe"), table_side="kiosk.table.shoe"))
# The shuffler speaks the same line protocol as device SHUF (spec: "Shuffler to kiosk"); one
# that deals sends the shoe's card frames too.
register_protocol(DeviceProtocol("shuffler-line", "shuffler", SHUFFLER, LineParser,
                                 greeting=_hello, spoken=Said.words("shuffler"),
                                 table_side="kiosk.table.shuffler", simulator=_pty_shuffler))
# The SS2 roulette wheel (docs/protocols/wheel-ss2.md): run in the maker's integration mode 1159,
# which reports status every 500 ms by itself (bit 128), so no poll; the greeting asks only
# for the firmware version (harmless in any state; `*K` would start a game).
register_protocol(DeviceProtocol("wheel-ss2", "wheel", WHEEL, ss2.SS2Parser,
                                 greeting=lambda _seq: ss2.COMMANDS["version"],
                                 heartbeat_timeout=3.0, answer=ss2.answer,
                                 commands=ss2.COMMANDS, spoken=Said.words("roulette wheel"),
                                 by_hand=Said.words("Spin by hand and key in the winning "
                                                    "numbers"),
                                 table_side="kiosk.table.wheel", simulator=_pty_wheel))
