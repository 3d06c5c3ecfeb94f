"""What the table tells the dealer: an alert's severity, its message and the way forward.

Below the session and every device's handling of its events (kiosk/table/wheel.py), which
raise them through the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.errors import Sentence


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"  # the dealer must look
    STOP = "stop"  # the dealer must act before the coup goes on


@dataclass(frozen=True, slots=True)
class Alert:
    """A message for the dealer with the way forward, in words."""

    severity: Severity
    message: str
    way_forward: str = ""
    sentence: Sentence | None = None
    """A refusal's message as the rules' template and values (kiosk/rules/errors.py), for a
    screen to say in the dealer's language; `message` is its English, as the log holds it."""
