"""How the table is started: the dealer app's options, which the launcher runs with and each
game's headless script reads. Its own module, below the launcher and the games' screens,
which both take it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class KioskOptions:
    """How to start the table. `headless` draws offscreen and plays one coup by itself,
    writing screenshots of both screens into `out`."""

    headless: bool = False
    out: Path | None = None
    signage: bool = True
    size: tuple[int, int] = (800, 480)
    signage_size: tuple[int, int] = (960, 540)
    fullscreen: bool = False
    position: tuple[int, int] | None = None  # a borderless window's top-left corner on a
    # desktop of several screens (the SD image's display server: kiosk.screens), not fullscreen
    pace: float = 0.6  # seconds between the simulated shoe's cards, like a dealer's hand
    seed: int = 2026
    pin_factory: str | None = None  # None: the config's [gpio] factory; "mock" in the demo
    report: list[str] = field(default_factory=list)  # what the headless run did, for the CLI
    offscreen: bool = False  # draw offscreen with no script (`tableside run --headless`)
    rounds: int = 12  # --headless, a game that plays a shoe: at most this many rounds (it stops
    # after a cut-card shuffle)
