"""The small tree of errors every layer raises (DESIGN.md "Conventions").

Two kinds of trouble are kept apart, because the dealer's way forward differs:

- `UnreadableInput`: bytes or codes that do not mean anything (a bad frame, a bad card code).
  The way forward is to read again or key the value in.
- `NotAllowed`: a well-formed action the rules do not allow now (a bet after "no more bets",
  over the limit, a card the shoe cannot contain). It names the rule clause it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class TablesideError(ValueError):
    """Base of every error Tableside raises on purpose; the message is for a dealer."""


class UnreadableInput(TablesideError):
    """Input that cannot be understood: a bad frame, a bad card code, a corrupt record."""


class NotAllowed(TablesideError):
    """A well-formed action the rules do not allow at this moment."""

    def __init__(self, message: str, clause: str | None = None) -> None:
        self.clause = clause
        super().__init__(f"{message} (rule {clause})" if clause else message)


def allowed(verify: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
    """`can_x` from `verify_x`: whether the action is allowed now (the UI enables its buttons
    from it), with the same arguments."""
    try:
        verify(*args, **kwargs)
    except NotAllowed:
        return False
    return True


class ImpossibleCard(NotAllowed):
    """A card the shoe cannot contain: more copies seen than the decks hold (rule 5.4)."""
