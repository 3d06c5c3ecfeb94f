"""The headless demo's pai gow round, played by touching the dealer screen (`tableside demo
--game paigow --headless`): the tiles washed, wagers on three areas with the House banking
(rule 13.1.1), no more bets, each area's four tiles keyed on the tile keypad as its player
set them, counter clockwise from the chung, the House tiles set the house way (13.1.2), the
supervisor's badge (13.1.5), the settlement in the order of 13.1 and "Confirm payouts";
screenshots of both screens."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.rules.amounts import format_money
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions

log = logging.getLogger(__name__)

DONE = "round settled"  # as kiosk/ui/games/paigow.py says it
HANDS = ("66 45 55 16", "11 13 46 55", "22 33 35 25")
"""The tiles of the three wagered areas, in order from the chung; each player sets the
stronger hand high."""
BANK = "56 15 34 26"
"""The House's four tiles."""


def _modal(name: str) -> Any:
    from kivy.core.window import Window

    return next((w for w in Window.children if type(w).__name__ == name), None)


async def _opened(name: str) -> Any:
    """Wait (2 s at most) for a dialog to open over the screen."""
    for _ in range(40):
        found = _modal(name)
        if found is not None:
            return found
        await asyncio.sleep(0.05)
    return None


async def _key_tiles(pad: Any, codes: str, *, pick_allowed: bool) -> None:
    """Tap four tiles on the pad, then a setting (the first the game allows), then Set."""
    tap = headless.tap
    for code in codes.split():
        # A tile's code is its pips, the smaller end first (kiosk/rules/paigow/tiles.py).
        want = "".join(sorted(code))
        await tap(next(k for k in pad.ids.tile_keys.children if k.code == want))
    settings = list(reversed(pad.ids.settings.children))
    choice = next((b for b in settings if not b.disabled), None) if pick_allowed \
        else settings[0]
    if choice is not None:
        await tap(choice)
    await tap(pad.ids.done)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    from kiosk.ui.capture import grab, render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    tap = headless.tap
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)
        if not screen.ids.wash.disabled:
            await tap(screen.ids.wash)
        rules = session.state.rules
        chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
        low = next((i for i, c in enumerate(chips) if c.value >= rules.minimum),
                   len(chips) - 1)
        areas = [a for a in (2, 4, 6) if a <= rules.areas][:len(HANDS)]
        for area in areas:
            await tap(screen.card(area))
            if not chips[low].disabled:
                await tap(chips[low])
        report.append("wagers: " + ", ".join(
            f"area {a} {format_money(w, rules.currency)}" for a, w in session.state.bets))
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        if str(session.state.phase) != "setting":  # the tiles' phase (13.1.2)
            report.append(f"no more bets refused: {screen.step_detail or screen.alert_text}")
            return
        for codes in HANDS[:len(areas)]:
            await tap(screen.ids.primary)
            pad = await _opened("TileKeypad")
            if pad is None:
                report.append(f"no tile keypad: {screen.step}")
                return
            await _key_tiles(pad, codes, pick_allowed=False)
        await tap(screen.ids.primary)
        pad = await _opened("TileKeypad")
        if pad is None:
            report.append(f"no tile keypad for the House: {screen.step}")
            return
        save_png(grab(), out / "dealer-tile-keypad-800x480.png")
        await _key_tiles(pad, BANK, pick_allowed=True)
        await asyncio.sleep(0.2)
        report.append(f"house way: {session.state.bank_why}")
        save_png(render(screen), out / "dealer-supervisor-800x480.png")
        await tap(screen.ids.primary)
        badge = await _opened("BadgePad")
        if badge is None:
            report.append(f"no badge pad: {screen.step}")
            return
        for key in ("7", "OK"):
            await tap(next(b for b in badge.ids.pad.children if b.key == key))
        sheet = await _opened("PayoutSheet")
        if sheet is None:
            report.append(f"no settlement: {screen.step}")
            return
        await asyncio.sleep(0.3)
        save_png(grab(), out / "dealer-payouts-800x480.png")
        save_png(headless.render_at(screen, (1280, 800)), out / "dealer-1280x800.png")
        from kiosk.ui.dealer.paigow_words import settlement_blocks

        report.extend(f"  {b.title}: " + "; ".join(f"{r.caption} {r.amount}".strip()
                                                   for r in b.rows)
                      for b in settlement_blocks(session.state))
        await tap(sheet.ids.confirm)
        if session.state.round > 1:
            report.append(f"{DONE}: round {session.state.round - 1}, the bank's hands "
                          f"{session.state.last[-1]}")
        await asyncio.sleep(0.3)
        save_png(render(screen), out / "dealer-800x480.png")
        await headless.signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless round")
        report.append(f"error: {exc}")
    finally:
        app.stop()
