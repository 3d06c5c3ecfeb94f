"""Device protocols, one registration each: what a serial link needs to talk to a device.

A protocol names the parser that turns its bytes into typed `hardware.events`, the greeting
sent when the port opens, an optional poll, and how long the device may stay silent before it
counts as offline. A new device (the SS2 roulette wheel, another maker's shoe) is one module
with its parser and one `register_protocol` line here; nothing else in the kiosk changes: the
table's config names it in `[devices.<role>]` (role and dialect make the protocol's name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hardware.events import KIOSK, SHOE, SHUFFLER
from hardware.shoe.line_dialect import SEQ_MODULUS, LineParser, encode_frame
from hardware.shoe.plain_dialect import PlainParser
from hardware.shoe.stats import DialectParser


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


# The shoe: the line dialect (the spec) or plain card codes, one a line.
register_protocol(DeviceProtocol("shoe-line", "shoe", SHOE, LineParser, greeting=_hello))
register_protocol(DeviceProtocol("shoe-plain", "shoe", SHOE, PlainParser))
# The shuffler speaks the same line protocol as device SHUF (spec: "Shuffler to kiosk").
register_protocol(DeviceProtocol("shuffler-line", "shuffler", SHUFFLER, LineParser,
                                 greeting=_hello))
# The SS2 roulette wheel (shared/specs/wheel-ss2.md) registers here with its game.
