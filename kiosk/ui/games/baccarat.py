"""Punto banco's screens (the UI side of its registration, `GameSpec.screens`): the dealer
app, the players' sign, and the headless demo's touch script. Kivy is imported only when a
screen is made, so the console and the CLI can import this module without it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.ui import headless
from kiosk.ui.launcher import KioskOptions

log = logging.getLogger(__name__)


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.app import DealerApp

    return DealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                     on_new_shoe=new_shoe)


def sign() -> Any:
    from kiosk.ui.signage.signage import SignageScreen

    return SignageScreen()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


console = True  # `tableside run --console`: kiosk/console.py
PLAYS = "one coup"  # what the headless demo plays, for the CLI
HEADLESS_PACE = 0.15  # seconds between the simulated shoe's cards there
DONE = "coup settled"  # the headless demo's report says so when it played its coup


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                         panel: Any) -> None:
    """Play one coup by touching the dealer screen, then screenshot both screens."""
    from kiosk.rules import punto_banco as pb
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)

        tap = headless.tap

        def chip(rank: int) -> Any:
            chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
            return chips[min(rank, len(chips) - 1)]

        if session.state.shoe is None:
            await tap(screen.ids.new_shoe)
        rules = session.state.rules
        areas = rules.area_ids()
        for area, kind, presses in ((areas[0], "banker", (3, 3, 0)),
                                    (areas[2], "player", (3, 2)),
                                    (areas[3], "banker", (4,)), (areas[3], "tie", (2,))):
            tile = next(t for t in screen.ids.areas.children if t.area == area)
            await tap(tile)
            await tap(screen.ids[f"kind_{kind}"])
            for p in presses:
                if not chip(p).disabled:
                    await tap(chip(p))
        report.append(f"bets placed: {len(session.state.bets)}")
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        if session.state.phase is not pb.Phase.DEALING:
            report.append(f"no more bets refused: {screen.step_detail or screen.alert_text}")
            return
        report.append(f"lamp after no more bets: {panel.describe()}")
        for _ in range(600):  # the simulated shoe deals through the pty at a dealer's pace
            if session.state.phase is pb.Phase.PAYING:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        report.append(f"result: {screen.step}")
        save_png(render(screen), out / "dealer-paying-800x480.png")
        big = headless.render_at(screen, (1920, 1080))
        save_png(big, out / "dealer-1920x1080.png")
        await asyncio.sleep(0.2)
        await tap(screen.ids.primary)
        if session.state.last_settled is not None:
            report.append(f"coup settled: coup {session.state.last_settled.coup}")
        await asyncio.sleep(0.3)
        save_png(render(screen), out / "dealer-800x480.png")
        await headless.signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless coup")
        report.append(f"error: {exc}")
    finally:
        app.stop()
