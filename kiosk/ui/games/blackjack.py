"""Blackjack's and Touch 21's screens (the UI side of their registration,
`GameSpec.screens`): the dealer app, the players' sign, and the headless demo's touch script
through a cut-card shuffle. Kivy is imported only when a screen is made."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kiosk.config import TableConfig
from kiosk.rules.errors import TablesideError
from kiosk.rules.money import format_money
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions

if TYPE_CHECKING:
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.rules.blackjack.simulation import Tally

log = logging.getLogger(__name__)


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.rules.blackjack import engine as bj
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    def draw() -> None:
        if shoe is not None:
            shoe.pull()

    def place_cutting_card(_state: Any, op: Any) -> None:
        # The simulated shoe sends CUT where the dealer put the cutting card (rule 4.5).
        if shoe is not None and isinstance(op, bj.CardsCut):
            shoe.place_cutting_card(op.cutting_card_from_back)

    session.listeners.append(place_cutting_card)
    return BlackjackDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                              on_new_shoe=new_shoe, on_draw=draw if shoe is not None else None)


def sign() -> Any:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage

    return BlackjackSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state.rules if state is not None else None, state, link)


PLAYS = "a shoe"  # what the headless demo plays, for the CLI
HEADLESS_PACE = 0.06  # seconds between the simulated shoe's cards there
DONE = "round settled"
console = None  # no typed console: blackjack is run from its screen
integrity_report = None  # no integrity figures (`tableside integrity` is the wheel's)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                              panel: Any) -> None:
    """Play rounds by touching the blackjack screen through a cut-card shuffle (rules
    4.1-4.7, shuffle and cut), then screenshot both screens. Cards come from the simulated
    shoe over the pseudo-terminal; the players hit below 17 and stand from 17."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.cut import Stage
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    tap = headless.tap
    shuffles = 0

    async def until(test: Callable[[], bool], seconds: float = 30.0) -> bool:
        for _ in range(int(seconds / 0.05)):
            if test():
                return True
            await asyncio.sleep(0.05)
        return False

    async def prepare_shoe(screen: Any) -> None:
        nonlocal shuffles
        prep = session.state.prep
        if prep.stage is Stage.READY:
            return
        shuffles += 1
        report.append(f"shuffle {shuffles}: {bj.next_step(session.state)}")
        if prep.stage is Stage.SHUFFLE:
            if session.state.rules.shuffler:
                await tap(screen.ids.hand_shuffle)
                await tap(screen.ids.into_shuffler)
            else:
                await tap(screen.ids.shuffled)
        if session.state.prep.stage is Stage.CUT:
            who = bj.prep_now(session.state).offered_to() or 1
            # The cutting card as deep as rule 4.5 allows (half way), so the demo reaches it.
            while not screen.ids.back_more.disabled and \
                    screen.from_back < 52 * session.state.rules.decks // 2:
                await tap(screen.ids.back_more)
            await tap(screen.tile(who))
            await tap(screen.ids.box_cuts)
            report.append(f"cut by box {who}: {session.state.prep.cut_at} cards, cutting "
                          f"card {session.state.prep.cutting_card_from_back} from the back")
        await until(lambda: session.state.prep.stage is Stage.READY, 10)

    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)
        # Each box bets the minimum in as few chips as the buttons allow (rule 2.2): the
        # biggest chip that does not go over it, else the smallest.
        minimum = session.state.rules.minimum
        chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
        chip = max((c for c in chips if c.value <= minimum), key=lambda c: c.value,
                   default=chips[0])
        for n in range(1, opts.rounds + 1):
            await prepare_shoe(screen)
            for box in (1, 2, 3, 5, 6, 7):
                if screen.alert_shown:  # e.g. "cutting card out": read, then carry on
                    report.append(f"alert: {screen.alert_text}")
                    await tap(screen.ids.alert_ok)
                await tap(screen.tile(box))
                for _ in range(20):
                    if session.state.stake_of(box, "A") >= session.state.rules.minimum:
                        break
                    await tap(chip)
                else:
                    report.append(f"could not bet on box {box}: player {screen.player}, "
                                  f"{bj.next_step(session.state)}")
                    return
            if n == 1:
                save_png(render(screen), out / "dealer-betting-800x480.png")
            for _ in range(600):  # a round's steps, by touch, until its payouts are shown
                s = session.state
                if screen.alert_shown:
                    report.append(f"alert: {screen.alert_text}")
                    await tap(screen.ids.alert_ok)
                if s.phase is bj.Phase.PAYING or s.pending is not None:
                    break
                if s.prep.stage is not Stage.READY and not s.round_cards:
                    await prepare_shoe(screen)  # the cutting card came first (rule 4.1.2)
                elif s.phase is bj.Phase.BETTING:
                    await tap(screen.ids.primary)  # no more bets
                    if session.state.phase is bj.Phase.BETTING:
                        await asyncio.sleep(0.2)
                elif s.phase in (bj.Phase.CHECK, bj.Phase.INSURANCE):
                    await tap(screen.ids.primary)
                elif s.phase is bj.Phase.PLAYING and bj.decisions(s):
                    h = s.current
                    if h is not None and h.total.best < 17 and screen.can_draw:
                        await tap(screen.ids.draw)

                        def moved(before: Any = s) -> bool:
                            return session.state is not before

                        await until(moved, 5)
                    else:
                        await tap(screen.ids.stand)
                elif s.phase is bj.Phase.PLAYING and bj.can_pay_blackjack(s):
                    await tap(screen.ids.pay_blackjack)
                else:
                    await asyncio.sleep(0.1)
            await asyncio.sleep(0.3)
            if n == 1:
                save_png(render(screen), out / "dealer-paying-800x480.png")
                save_png(headless.render_at(screen, (1920, 1080)), out / "dealer-1920x1080.png")
            report.append(f"round {n}: {screen.step}")
            await asyncio.sleep(0.3)  # let the screen lay out again after the big render
            await until(lambda: not screen.ids.primary.disabled, 5)
            await tap(screen.ids.primary)
            settled = session.state.last_settled
            if settled is None or settled.round != session.state.round - 1:
                report.append(f"round {n} not settled: {bj.next_step(session.state)}")
                return
            net = sum(r.net for r in (*settled.settlements, *settled.paid_earlier))
            report.append(f"round settled: round {settled.round}, players' net "
                          f"{format_money(net, session.state.rules.currency)}")
            if session.state.prep.stage is not Stage.READY:
                break  # the cutting card came out: the shoe has been played through
        await prepare_shoe(screen)  # the cut-card shuffle, as the next shoe starts
        report.append(f"shuffles: {shuffles}")
        save_png(render(screen), out / "dealer-800x480.png")
        await headless.signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless round")
        report.append(f"error: {exc}")
    finally:
        app.stop()


# --- `tableside odds ...` (kiosk/cli.py finds it through the registry) ------------------------


def _simulate(args: tuple[BlackjackRules, int, int]) -> Tally:
    """One worker's batch: `rounds` rounds from a shoe shuffled by `random.Random(seed)`."""
    from kiosk.rules.blackjack.simulation import Simulator, strategy_for

    rules, seed, rounds = args
    return Simulator(rules, strategy_for(rules), random.Random(seed)).run(rounds)


def estimate(rules: BlackjackRules, *, target: float = 0.001, max_seconds: float = 540.0,
             workers: int = 2, chunk: int = 20_000, seed: int = 1,
             progress: Callable[[Tally, float], None] | None = None,
             max_rounds: int | None = None) -> tuple[Tally, float]:
    """Simulate until the 95% half-width is within `target` (0.001 = 0.1%), time runs out,
    or `max_rounds` rounds are played; returns the tally and the seconds taken. The engine
    plays in `workers` processes (`kiosk.rules.blackjack.simulation`)."""
    from kiosk.rules.blackjack.simulation import Tally

    start = time.perf_counter()
    total = Tally(unit=rules.minimum)
    next_seed = seed * 10_000
    if max_rounds is not None:
        chunk = max(1, min(chunk, -(-max_rounds // workers)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        while True:
            batch = [(rules, next_seed + i, chunk) for i in range(workers)]
            next_seed += workers
            for t in pool.map(_simulate, batch):
                total = total + t
            elapsed = time.perf_counter() - start
            if progress is not None:
                progress(total, elapsed)
            if total.half_width <= target:
                break
            if max_rounds is not None and total.rounds >= max_rounds:
                break
            per_batch = elapsed / (total.rounds / (chunk * workers))
            if elapsed + per_batch > max_seconds:
                break
    return total, time.perf_counter() - start


@click.command("blackjack")
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="the table's configuration (game blackjack or touch-21); default: the "
                   "standard game's defaults")
@click.option("--touch-21", "touch", is_flag=True, help="without --config: Touch 21's defaults")
@click.option("--target", type=float, default=0.1, show_default=True,
              help="95% confidence half-width to reach, in percent")
@click.option("--max-seconds", type=float, default=540.0, show_default=True,
              help="stop the simulation after about this long")
@click.option("--rounds", "max_rounds", type=click.IntRange(min=2), default=None,
              help="stop the simulation after this many rounds (a quick look: 20000 takes "
                   "a few seconds, to within about 0.6%)")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--strategy", "show_strategy", is_flag=True, help="print the strategy charts")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(config_path: str | None, touch: bool, target: float, max_seconds: float,
                   max_rounds: int | None, workers: int, seed: int, show_strategy: bool,
                   as_json: bool) -> None:
    """The house edge of the configured blackjack rules: the engine itself plays seven boxes
    of basic strategy (computed for those rules) until the 95% interval is within --target,
    beside the combinatorial figure for the same strategy (docs/blackjack-odds.md)."""
    from kiosk.program import refuse
    from kiosk.rules.blackjack.analysis import house_edge
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.rules.blackjack.strategy import basic_strategy, describe

    if config_path:
        from kiosk.config import load

        try:
            cfg = load(config_path)
        except TablesideError as exc:
            refuse(str(exc))
        if not isinstance(cfg.rules, BlackjackRules):
            refuse(f"{config_path} configures {cfg.game}, not blackjack (a blackjack "
                   f"table's: tableside config example --game blackjack)")
        rules = cfg.rules
    elif touch:
        rules = BlackjackRules.touch_21()
    else:  # the defaults of the game asked for: `tableside odds touch-21` is Touch 21's
        from kiosk.rules.registry import game

        rules = game(click.get_current_context().info_name or "blackjack").rules()
    analytic = house_edge(rules)

    def progress(tally: Any, elapsed: float) -> None:
        if not as_json:
            click.echo(f"  {tally.rounds:>10,} rounds  {elapsed:6.0f} s  edge "
                       f"{tally.edge * 100:.3f}% +/- {tally.half_width * 100:.3f}%", err=True)

    if not as_json:
        click.echo(f"{rules.game_name}: {describe(rules)}")
        if show_strategy:
            click.echo(basic_strategy(rules).table())
    tally, seconds = estimate(rules, target=target / 100, max_seconds=max_seconds,
                              workers=workers, seed=seed, progress=progress,
                              max_rounds=max_rounds)
    met = tally.half_width * 100 <= target
    if as_json:
        click.echo(json.dumps({
            "game": rules.game_name, "rules": describe(rules), "rounds": tally.rounds,
            "hands": tally.hands, "seconds": round(seconds, 1),
            "house_edge_percent": round(tally.edge * 100, 4),
            "half_width_percent": round(tally.half_width * 100, 4),
            "target_met": met, "combinatorial_percent": round(analytic * 100, 4),
            "raw_house_edge_percent": round(tally.raw_edge * 100, 4),
            "raw_half_width_percent": round(tally.raw_half_width * 100, 4),
            "variance_reduction": round(tally.variance_reduction, 2),
        }, indent=2))
        return
    click.echo(f"Simulated through the engine: {tally.hands:,} hands in {tally.rounds:,} "
               f"rounds, {seconds:.0f} s")
    click.echo(f"  house edge {tally.edge * 100:.3f}% +/- {tally.half_width * 100:.3f}% "
               f"(95%){'' if met else f'  (not yet within the {target:g}% target)'}")
    click.echo(f"  from the results alone {tally.raw_edge * 100:.3f}% +/- "
               f"{tally.raw_half_width * 100:.3f}%; the control variates (the analysis's "
               f"figure for each up card, the dealer's chances card by card) needed "
               f"{tally.variance_reduction:.1f} times fewer rounds")
    click.echo(f"Combinatorial, same strategy: {analytic * 100:.3f}%")
