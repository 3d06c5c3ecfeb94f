"""What the headless demo shares between games: a finger on a widget, a screen drawn at
another size, the signage's screenshots. Each game's own touch script is in its screens
module (kiosk/ui/games/)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.rules.registry import GAMES


async def tap(widget: Any, settle: float = 0.15) -> None:
    """A finger on the widget's centre: down, up, and time for the screen to follow."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    await asyncio.sleep(0.03)
    touch.touch_up()
    await asyncio.sleep(settle)


async def signage_shots(cfg: TableConfig, out: Path, report: list[str]) -> None:
    for size in ((1920, 1080), (800, 480)):
        name = f"signage-{size[0]}x{size[1]}.png"
        from kiosk.ui.launcher import SignageProcess

        shoe = cfg.device("shoe")
        simulated = ("--simulated-shoe",) if shoe is not None and shoe.port == "simulated" \
            and "shoe" in GAMES.get(cfg.game).devices else ()
        args = SignageProcess(cfg.journal, cfg.name, size, extra=(
            "--screenshot", str(out / name), "--after", "1.5", *simulated)).args
        proc = await asyncio.create_subprocess_exec(*args)
        try:
            code = await proc.wait()
        except asyncio.CancelledError:  # the demo is stopping: the screenshot goes with it
            proc.terminate()
            await asyncio.wait_for(proc.wait(), 1.5)
            raise
        report.append(f"signage screenshot {name}: exit {code}")


def render_at(widget: Any, size: tuple[int, int]) -> Any:
    """Lay the screen out at another size, draw it off-screen, and put it back."""
    from kivy.base import EventLoop

    from kiosk.ui.capture import render

    old_hint, old_size = widget.size_hint, tuple(widget.size)
    widget.size_hint = (None, None)
    widget.size = size
    for _ in range(3):
        EventLoop.idle()
    frame = render(widget)
    widget.size_hint = old_hint
    widget.size = old_size
    return frame
