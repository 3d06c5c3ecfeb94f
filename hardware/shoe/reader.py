"""The card shoe's serial reader: a `SerialLink` with the shoe's protocol for a dialect.

Spec: docs/protocols/shoe-shuffler.md. Kept for the callers that name a dialect;
everything it does is `hardware.link.SerialLink`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hardware.events import SHOE, DeviceEvent
from hardware.link import SerialLink
from hardware.shoe.stats import DialectParser

if TYPE_CHECKING:
    from hardware.protocols import DeviceProtocol

DIALECTS = ("line", "plain")


def make_parser(dialect: str, label: str = SHOE) -> DialectParser:
    """The parser for a dialect named in the table's config; ValueError for an unknown name."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown shoe dialect {dialect!r} (known: {', '.join(DIALECTS)})")
    return _shoe_protocol(dialect).make_parser(label)


def _shoe_protocol(dialect: str) -> DeviceProtocol:
    # hardware.protocols imports this package's dialects: asked for when used, not before.
    from hardware.protocols import protocol

    return protocol(f"shoe-{dialect}")


class ShoeReader(SerialLink):
    """A serial link to a card shoe speaking `dialect` (line or plain)."""

    def __init__(
        self,
        url: str,
        dialect: str,
        on_event: Callable[[DeviceEvent], None],
        baudrate: int = 9600,
        heartbeat_timeout: float = 5.0,
        *,
        device: str = SHOE,
        retry_interval: float = 1.0,
        ask_hello: bool = True,
    ) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"unknown shoe dialect {dialect!r} (known: {', '.join(DIALECTS)})")
        self.dialect = dialect
        super().__init__(url, _shoe_protocol(dialect), on_event, baudrate,
                         heartbeat_timeout, device=device, retry_interval=retry_interval,
                         ask_hello=ask_hello)
