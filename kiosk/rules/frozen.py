"""Pickling and copying of the rules' frozen values.

Compiled (kiosk/native.py), a frozen dataclass cannot be unpickled or copied field by field:
the default restores each field with setattr, which the frozen class refuses. These values
are rebuilt by their constructor instead, the same way compiled or not.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_constructor(value: Any) -> tuple[Any, ...]:
    """`__reduce__` for a frozen dataclass: its class and its constructor's arguments."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)
