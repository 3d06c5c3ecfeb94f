"""Arizona Hold'em's screens (the UI side of its registration, `GameSpec.screens`): the dealer
app, the players' sign, the headless demo's touch script, the typed console, the scripted
demo dealer and `tableside odds arizona`. Kivy is imported only when a screen is made."""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from kiosk.assembly import GameConsole, typed_amount
from kiosk.config import TableConfig
from kiosk.rules.amounts import format_money
from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.operations import (
    AntePlaced,
    BettingClosed,
    CardDealt,
    Checked,
    CommunityTurned,
    Misdealt,
    Raised,
    Settled,
    Shuffled,
    Voided,
)
from kiosk.rules.arizona.state import circle_in_play, deciding as az_deciding
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from kiosk.rules.operations import Operation
from kiosk.table.session import Severity
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions

log = logging.getLogger(__name__)

PLAYS = "one hand"  # what the headless demo plays, for the CLI
HEADLESS_PACE = 0.1  # seconds between the simulated shoe's cards there
DONE = "hand settled"  # the headless demo's report says so when it played its hand
integrity_report = None  # no integrity figures (`tableside integrity` is the wheel's)


# --- The dealer's screen, the players' sign and the headless demo ---------------------------


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.arizona_app import ArizonaDealerApp

    return ArizonaDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                            on_new_shoe=new_shoe)


def sign() -> Any:
    # The players' sign (kiosk/ui/signage/arizona_view.py) is built beside this screen.
    from kiosk.ui.signage.arizona_view import (  # type: ignore[import-not-found,unused-ignore]
        ArizonaSignage,
    )

    return ArizonaSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


async def _enabled(button: Any) -> None:
    """Wait (2 s at most) for the screen to follow the session: it does on its next frame."""
    for _ in range(40):
        if not button.disabled:
            return
        await asyncio.sleep(0.05)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    """Play one hand by touching the dealer screen: the shuffle, antes on three boxes, no
    more bets, rule 6.2's deal from the simulated shoe (or keyed when no card comes), each
    player raising or checking in turn, the community cards turned, the payouts in large
    type and confirmed; screenshots of both screens."""
    from kiosk.rules.arizona.strategy import raises_first, raises_second
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    report = opts.report
    tap = headless.tap
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        await asyncio.sleep(0.3)
        if not screen.ids.shuffle.disabled:
            await tap(screen.ids.shuffle)
        chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
        rules = session.state.rules
        # The first chip at the table minimum or over it (rule 2.2), and the one above it.
        low = next((i for i, c in enumerate(chips) if c.value >= rules.minimum),
                   len(chips) - 1)
        high = min(low + 1, len(chips) - 1)
        for box, presses in ((1, (low, low)), (min(3, rules.boxes), (high,)),
                             (min(5, rules.boxes), (low,))):
            await tap(screen.tile(box))
            for p in presses:
                if not chips[p].disabled:
                    await tap(chips[p])
        report.append(f"antes: {len(session.state.antes)} boxes, " + ", ".join(
            f"box {b} {format_money(a, rules.currency)}" for b, a in session.state.antes))
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        if session.state.phase is not az.Phase.DEALING:
            report.append(f"no more bets refused: {screen.step_detail or screen.alert_text}")
            return
        for _ in range(600):  # the simulated shoe deals through the pty at a dealer's pace
            if session.state.phase is not az.Phase.DEALING:
                break
            await asyncio.sleep(0.05)
        if session.state.phase is az.Phase.DEALING:
            report.append(f"the deal did not finish: {screen.step}")
            return
        save_png(render(screen), out / "dealer-deciding-800x480.png")
        while session.state.phase is not az.Phase.REVEAL:
            state = session.state
            box = az_deciding(state)
            if box is None:
                await _enabled(screen.ids.turn)
                await tap(screen.ids.turn)
                continue
            cards = state.cards_of(box)
            raising = (raises_first(cards) if circle_in_play(state) == 1
                       else raises_second((*cards, state.community[0])))
            tile = screen.tile(box)
            button = tile.raise_button if raising else tile.check_button
            await _enabled(button)
            await tap(button)
            if az_deciding(session.state) == box:  # refused: the alert says why
                report.append(f"decision refused: {screen.alert_text}")
                return
        await asyncio.sleep(0.3)
        report.append(f"reveal: {screen.step}")
        save_png(render(screen), out / "dealer-reveal-800x480.png")
        save_png(headless.render_at(screen, (1280, 800)), out / "dealer-1280x800.png")
        await asyncio.sleep(0.3)
        sheet = screen.open_payouts(session.state.boxes[0])
        await asyncio.sleep(0.3)
        if sheet is not None:
            from kiosk.ui.capture import grab

            save_png(grab(), out / "dealer-payouts-800x480.png")
            from kiosk.ui.dealer.arizona_words import reveal_blocks

            report.extend(f"{b.title}: " + "; ".join(f"{r.caption} {r.amount}" for r in b.rows)
                          for b in reveal_blocks(session.state))
            await tap(sheet.ids.confirm)
        else:
            await tap(screen.ids.primary)
        if session.state.round > 1 and session.state.hands:
            report.append(f"{DONE}: hand {session.state.round - 1}, best "
                          f"{session.state.hands[-1]}")
        await asyncio.sleep(0.3)
        save_png(render(screen), out / "dealer-800x480.png")
        await headless.signage_shots(cfg, out, report)
    except Exception as exc:  # the report says what went wrong; the app still closes
        log.exception("headless hand")
        report.append(f"error: {exc}")
    finally:
        app.stop()

# --- The typed console and the scripted demo dealer (kiosk/console.py) ----------------------

CONSOLE_HELP = """\
Commands (amounts in whole units or like 12.50):
  shuffle                       the cards are shuffled for this hand (rule 6.5)
  ante BOX AMOUNT               an ante in box A of BOX (1-7)
  remove BOX                    take the box's ante back before no more bets
  close                         no more bets (the simulated shoe then deals, rule 6.2)
  card CODE                     key in a card (unread card, no shoe)
  raise BOX | check BOX         the box's player raises (the ante's amount) or not, in the
                                circle in play, each in turn (rule 6.2)
  turn                          turn the next community card
  misdeal REASON...             a card exposed or the wrong number dealt: dealt again
  void REASON...                void the hand: every bet goes back
  confirm                       reveal left to right and pay at rule 6.6's table
  status | help | quit"""


def _box(text: str) -> int:
    if not text.isdigit():
        raise click.BadParameter(f"{text!r} is not a box number")
    return int(text)


def _in_circle(act: Callable[[az.ArizonaState, int, int], Operation], box: int
               ) -> Callable[[az.ArizonaState], Operation]:
    def action(state: az.ArizonaState) -> Operation:
        circle = circle_in_play(state)
        if circle is None:
            raise NotAllowed.of("No raise is taken now", clause="6.2")
        return act(state, box, circle)
    return action


def command(line: str) -> Callable[[az.ArizonaState], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb == "shuffle":
        return az.shuffle
    if verb == "ante" and len(args) == 2:
        box, amount = _box(args[0]), typed_amount(args[1])
        return lambda s: az.place_bet(s, box, amount)
    if verb == "remove" and len(args) == 1:
        box = _box(args[0])
        return lambda s: az.remove_bet(s, box)
    if verb == "close":
        return az.close_betting
    if verb == "card" and len(args) == 1:
        card = Card.parse(args[0])
        return lambda s: az.shoe_card(s, card)
    if verb in ("raise", "check") and len(args) == 1:
        return _in_circle(az.raise_bet if verb == "raise" else az.check, _box(args[0]))
    if verb == "turn":
        return az.turn_community
    if verb in ("misdeal", "void") and args:
        reason = " ".join(args)
        fn = az.misdeal if verb == "misdeal" else az.void_round
        return lambda s: fn(s, reason)
    if verb == "confirm":
        return az.confirm_payouts
    raise NotAllowed(f"unknown command {line!r}; type help")


def status_text(session: Any) -> str:
    st: az.ArizonaState = session.state
    cur = st.rules.currency
    boxes = []
    for box in st.boxes:
        raised = "".join(f" +{c}" for c in (1, 2) if st.raise_of(box, c))
        boxes.append(f"box {box} {format_money(st.ante_of(box), cur)}{raised}")
    turned = " ".join(c.code for c in st.community[: st.turned])
    return (f"Hand {st.round}, {st.phase.value}, {'shuffled' if st.shuffled else 'not shuffled'}"
            f". Antes: {', '.join(boxes) or 'none'}. Community: {turned or 'face down'}."
            f"\nNext: {session.next_step()}")


def describe(op: Operation, state: az.ArizonaState) -> str | None:
    cur = state.rules.currency
    if isinstance(op, Settled):
        lines = [f"Hand {op.round}: community {' '.join(c.code for c in op.community)}"]
        for b in op.boxes:
            paid = (f"wins {format_money(b.net, cur)} at {b.odds} to 1" if b.odds is not None
                    else f"loses {format_money(-b.net, cur)}")
            lines.append(f"    box {b.box}  {' '.join(c.code for c in b.cards[:3])}  "
                         f"{b.hand:<32} {paid}")
        return "\n".join(lines)
    if isinstance(op, CardDealt):
        return (f"  community {op.slot + 1} <- face down" if op.box == 0
                else f"  box {op.box} card {op.slot + 1} <- face down")
    if isinstance(op, CommunityTurned):
        return f"Community card {op.slot + 1}: {op.card.code} ({op.card.name})"
    if isinstance(op, AntePlaced):
        return f"  box {op.box} ante {format_money(op.amount, cur)}"
    if isinstance(op, Raised):
        return f"  box {op.box} raises {format_money(op.amount, cur)} in circle {op.circle}"
    if isinstance(op, Checked):
        return f"  box {op.box} checks circle {op.circle}"
    if isinstance(op, Shuffled):
        return "Shuffled for the next hand (rule 6.5)"
    if isinstance(op, BettingClosed):
        return f"Hand {state.round}: no more bets"
    if isinstance(op, Misdealt):
        return f"MISDEAL, hand {op.round}: {op.reason}; shuffle and deal again"
    if isinstance(op, Voided):
        return f"Hand {op.round} VOID: {op.reason}"
    return None


def dealing(state: az.ArizonaState) -> bool:
    return state.phase is az.Phase.DEALING and state.shuffled


async def deal(session: Any, shoe: Any, pace: float) -> None:
    """Pull cards from the simulated shoe until rule 6.2's cycle is finished."""
    while dealing(session.state):
        before = len(session.state.dealt)
        if shoe.pull() is None:
            session.alert(Severity.STOP, "The simulated shoe is empty",
                          "Misdeal and shuffle again")
            return
        for _ in range(400):  # the card comes back through the driver (2 s at most)
            await asyncio.sleep(0.005)
            if len(session.state.dealt) != before:
                break
        else:
            return  # the card was not dealt (a query): a person decides
        await asyncio.sleep(pace)


async def play_round(session: Any, shoe: Any, rng: Any, pace: float) -> None:
    """One hand by the scripted dealer: antes, no more bets, rule 6.2's deal from a freshly
    shuffled shoe, each player raising by the best strategy, the reveal and the payouts."""
    from kiosk.rules.arizona.demo import bets, decision

    shoe.new_shoe()
    session.perform(az.shuffle)
    for bet in bets(session.state.rules, rng):
        session.attempt(bet)
    click.echo(session.next_step())
    session.perform(az.close_betting)
    await deal(session, shoe, pace)
    if session.state.phase is az.Phase.DEALING:
        session.perform(lambda s: az.void_round(s, "card needs a decision"))
        return
    while session.state.phase is not az.Phase.REVEAL:
        act = decision(session.state)
        session.perform(act if act is not None else az.turn_community)
    click.echo(session.next_step())
    session.perform(az.confirm_payouts)
    await asyncio.sleep(pace)


console = GameConsole(help=CONSOLE_HELP, command=command, status=status_text,
                      describe=describe, dealing=dealing, deal=deal, play_round=play_round)


# --- `tableside odds arizona` (kiosk/cli.py finds it through the registry) --------------------


def _ratio(f: Fraction) -> dict[str, str]:
    return {"exact": f"{f.numerator}/{f.denominator}", "decimal": f"{float(f):.10f}",
            "percent": f"{float(f * 100):.4f}"}


@click.command("arizona")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(as_json: bool) -> None:
    """Count every one-deck deal (three cards, then the two community cards) through the
    engine's evaluator and rule 6.6's pay table, raising whenever it pays to, and print the
    exact house edge and both raise strategies."""
    from kiosk.rules.arizona.odds import arizona_odds

    def progress(done: int, total: int) -> None:
        if done % 250 == 0 or done == total:
            print(f"counted {done:,} of {total:,} kinds of three-card hand", file=sys.stderr,
                  flush=True)

    result = arizona_odds(progress)
    first = [row.holding for row in result.first_strategy if row.raise_it]
    second = [(row.holding, row.raise_it) for row in result.second_strategy]
    if as_json:
        click.echo(json.dumps({
            "deals": result.deals,
            "house_edge_per_ante": _ratio(result.house_edge),
            "house_edge_per_total_bet": _ratio(result.edge_per_bet),
            "first_raised": _ratio(result.first_raised),
            "second_raised": _ratio(result.second_raised),
            "first_raise_with": first,
            "second_raise": {holding: raise_it for holding, raise_it in second},
        }, indent=2))
        return
    click.echo(f"Arizona Hold'em, one deck: {result.deals:,} ordered deals, best raises")
    click.echo(f"  house edge per ante       {float(result.house_edge * 100):.4f}%")
    click.echo(f"  house edge per total bet  {float(result.edge_per_bet * 100):.4f}%")
    click.echo(f"  circle 1 raised           {float(result.first_raised * 100):.2f}% of hands")
    click.echo(f"  circle 2 raised           {float(result.second_raised * 100):.2f}% of hands")
    click.echo("Circle 1: raise with")
    for holding in first:
        click.echo(f"  {holding}")
    click.echo("Circle 2: knowing the first community card")
    for holding, raise_it in second:
        click.echo(f"  {'raise ' if raise_it else 'check '} {holding}")
