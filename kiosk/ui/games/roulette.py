"""American roulette's screens (the UI side of its registration, `GameSpec.screens`): the
dealer app, the players' sign, the headless demo's touch script, `tableside odds roulette`
and `tableside integrity` (the wheel's chi-squared, direction alternation and games per
hour, for technicians). Kivy is imported only when a screen is made."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from kiosk.config import TableConfig
from kiosk.rules.roulette import engine as rl
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions

log = logging.getLogger(__name__)

WHEEL = "WHEEL"  # the label the wheel's link puts on its events (hardware/wheel/events.py)
PLAYS = "one spin"
HEADLESS_PACE = 0.1
DONE = "spin settled"
console = None  # no typed console: roulette is run from its screen


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.roulette_app import RouletteDealerApp

    def online() -> bool:
        return bool(session.has_device("wheel") and session.device_online.get(WHEEL, False))

    return RouletteDealerApp(session, table_name=cfg.name, wheel_online=online,
                             start_wheel=lambda: bool(session.command_device("wheel",
                                                                             "start")))


def sign() -> Any:
    from kiosk.ui.signage.roulette_view import RouletteSignage

    return RouletteSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    """Play one spin by touching the dealer screen: two players' chip changes, bets from
    both colours (a call bet too), the spin (the wheel's, or by hand), the number, the
    payouts; screenshots of both screens."""
    from kivy.core.window import Window

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
        for colour, value in (("pink", 500), ("yellow", 1_000)):
            await tap(screen.colour_buttons[colour])
            if session.state.stack(colour) is None:
                await tap(screen.change_button)
                pad = screen.pad
                await tap(pad.value_buttons[value])
                await tap(pad.count_buttons[50])
                await tap(pad.ok)
        await tap(screen.colour_buttons["pink"])
        await tap(screen.cells["17"])
        await tap(screen.mode_buttons["split"])
        await tap(screen.cells["17"])
        await tap(screen.cells["20"])
        await tap(screen.colour_buttons["yellow"])
        await tap(screen.mode_buttons["straight"])
        await tap(screen.cells["0"])
        if session.state.rules.call_bets:
            await tap(screen.call_buttons["orphans"])
        totals = rl.totals(session.state)
        report.append(f"bets placed: {len(session.state.layout)} chips places, "
                      f"{', '.join(f'{c} {n}' for c, n, _v in totals)}; "
                      f"{session.state.rules.money(sum(v for _c, _n, v in totals))} in all")
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.spin_button)
        if not session.state.ball_spinning and screen.wheel_online():
            for _ in range(100):  # the wheel launches the ball and reports it
                if session.state.ball_spinning or session.state.phase is rl.Phase.RESULT:
                    break
                await asyncio.sleep(0.05)
        report.append(f"ball: {session.state.last_direction}")
        if screen.wheel_online():
            for _ in range(400):  # the wheel calls no more bets and the number
                if session.state.phase is rl.Phase.RESULT:
                    break
                await asyncio.sleep(0.05)
        else:
            await tap(screen.close_button)
            await tap(screen.cells["17"])  # keyed in by hand
        if session.state.phase is not rl.Phase.RESULT:
            report.append(f"no number: {screen.step_label.text} {screen.alert_label.text}")
            return
        await asyncio.sleep(0.2)
        report.append(f"number: {session.state.number} "
                      f"({'wheel' if screen.wheel_online() else 'hand'})")
        report.extend(screen.payout_text.splitlines())
        save_png(render(screen), out / "dealer-paying-800x480.png")
        save_png(headless.render_at(screen, (1280, 800)), out / "dealer-1280x800.png")
        await asyncio.sleep(0.3)  # laid out again at its own size before the next touch
        # The payouts opened in large type over the layout; confirmed from there.
        sheet = next((w for w in Window.children if type(w).__name__ == "PayoutSheet"),
                     None)
        if sheet is not None:
            save_png(grab(), out / "dealer-payouts-800x480.png")
            await tap(sheet.ids.confirm)
        else:
            for _ in range(40):  # the screen follows the session on its next frame
                if not screen.confirm_button.disabled:
                    break
                await asyncio.sleep(0.05)
            await tap(screen.confirm_button)
        if session.state.results:
            report.append(f"{DONE}: spin {session.state.spin - 1}, "
                          f"{session.state.results[-1]}")
        await asyncio.sleep(0.3)
        save_png(render(screen), out / "dealer-800x480.png")
        await headless.signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless spin")
        report.append(f"error: {exc}")
    finally:
        app.stop()


# --- `tableside odds roulette` ------------------------------------------------------------


@click.command("roulette")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(as_json: bool) -> None:
    """Every bet's house edge on both wheels, from the engine's own payout code: each bet
    settled on every pocket (rules 3.4, 3.5)."""
    from kiosk.rules.roulette.odds import percent, table
    from kiosk.rules.roulette.wheel import Wheel

    out = {w.value: table(rl.RouletteRules(wheel=w)) for w in Wheel}
    if as_json:
        click.echo(json.dumps({w: [b.as_json() for b in rows] for w, rows in out.items()},
                              indent=2))
        return
    for w, rows in out.items():
        click.echo(f"American roulette, {w} wheel ({Wheel(w).pockets} pockets):")
        for b in rows:
            click.echo(f"  {b.bet:<24} {b.pays:>5}  {b.chips:>2} chip(s)  wins on {b.covers:>2}"
                       f"  house edge {percent(b.house_edge)} "
                       f"({b.house_edge.numerator}/{b.house_edge.denominator})")


# --- `tableside integrity` ----------------------------------------------------------------


def integrity_report(entries: list[Any], rules: rl.RouletteRules) -> dict[str, Any]:
    """The wheel's integrity from the journal's settled spins and their spins' directions."""
    from kiosk.rules.roulette.integrity import integrity

    results: list[str] = []
    directions: list[str] = []
    times: list[int] = []
    spun: dict[int, str] = {}
    for e in entries:
        if e.kind == rl.BallSpun.kind:
            spun[e.payload["spin"]] = e.payload["direction"]
        elif e.kind == rl.SpinSettled.kind:
            results.append(e.payload["number"])
            directions.append(spun.get(e.payload["spin"], ""))
            times.append(int(datetime.fromisoformat(e.wall_time).timestamp()))
    return integrity(results, directions, times, rules.wheel).as_json()
