"""The GPIO panel's errors, in the project's tree under ValueError (docs/architecture.md)."""

from __future__ import annotations

from kiosk.rules.errors import TablesideError, UnreadableInput


class PinMapError(UnreadableInput):
    """The `[gpio]` section of the table's config is not valid.

    `key` and `reason` are kept apart so the config reader can put the file's line in front;
    the message alone reads `gpio.<key>: <reason>`.
    """

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"gpio.{key}: {reason}" if key else f"gpio: {reason}")


class PanelError(TablesideError):
    """The table's panel (buttons, tower lamp, display) cannot be opened or driven.

    The only exception the panel raises on purpose: a caller catches this one type, shows the
    message to the technician and carries on without the panel.
    """
