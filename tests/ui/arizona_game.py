"""Registers Arizona Hold'em for a kiosk process started by a test (`TABLESIDE_GAMES`), while
the build does not register it itself."""

from __future__ import annotations

from kiosk.rules.arizona.spec import SPEC
from kiosk.rules.registry import GAMES

if SPEC.name not in GAMES.names():
    GAMES.register(SPEC)
