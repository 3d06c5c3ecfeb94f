"""Punto banco's screens (the UI side of its registration, `GameSpec.screens`): the dealer
app, the players' sign, and the headless demo's touch script. Kivy is imported only when a
screen is made, so the console and the CLI can import this module without it."""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from kiosk.assembly import GameConsole, typed_amount
from kiosk.config import TableConfig
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.table.session import Severity
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions

log = logging.getLogger(__name__)


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    return PuntoBancoDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                     on_new_shoe=new_shoe)


def sign() -> Any:
    from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage

    return PuntoBancoSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


PLAYS = "one coup"  # what the headless demo plays, for the CLI
HEADLESS_PACE = 0.15  # seconds between the simulated shoe's cards there
DONE = "coup settled"  # the headless demo's report says so when it played its coup
integrity_report = None  # no integrity figures (`tableside integrity` is the wheel's)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                         panel: Any) -> None:
    """Play one coup by touching the dealer screen, then screenshot both screens."""
    from kiosk.rules.baccarat import engine as pb
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
        report.append(f"bets placed: {len(session.state.bets)}, "
                      f"{format_money(session.state.total_staked, rules.currency)} in all")
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        if not dealing(session.state):
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


# --- The typed console and the scripted demo dealer (kiosk/console.py) ----------------------

CONSOLE_HELP = """\
Commands (amounts in whole units or like 12.50):
  shuffle [hand|shuffler]       load a freshly shuffled shoe (rule 5.5)
  bet AREA KIND AMOUNT          AREA 1-14 or standing; KIND banker|player|tie
  remove AREA KIND AMOUNT       take a bet back (undo) before no more bets
  close                         no more bets (the simulated shoe then deals)
  card CODE                     key in a card (unread card, misread, no shoe)
  accept NAME                   inspector accepts a queried card
  void REASON...                void the coup: every bet goes back
  confirm                       payouts checked and paid: settle the coup
  collect AREA                  collect the commission an area owes
  status | help | quit"""


def command(line: str) -> Callable[[pb.PuntoBancoState], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb == "shuffle":
        method = args[0] if args else "hand"
        return lambda s: pb.shuffle(s, method)
    if verb in ("bet", "remove") and len(args) == 3:
        area, kind, amount = args[0], pb.BetKind(args[1].lower()), typed_amount(args[2])
        fn = pb.place_bet if verb == "bet" else pb.remove_bet
        return lambda s: fn(s, area, kind, amount)
    if verb == "close":
        return pb.close_betting
    if verb == "card" and len(args) == 1:
        card = Card.parse(args[0])
        return lambda s: pb.deal_card(s, card, pb.CardSource.KEYED)
    if verb == "accept" and args:
        return lambda s: pb.accept_queried_card(s, " ".join(args))
    if verb == "void" and args:
        return lambda s: pb.void_round(s, " ".join(args))
    if verb == "confirm":
        return pb.confirm_payouts
    if verb == "collect" and len(args) == 1:
        return lambda s: pb.collect_commission(s, args[0])
    raise NotAllowed(f"unknown command {line!r}; type help")


def status_text(session: Any) -> str:
    st = session.state
    cur = st.rules.currency
    bets = ", ".join(f"{b.area}:{b.kind.value} {format_money(b.amount, cur)}" for b in st.bets)
    owed = ", ".join(f"{a}: {format_money(v, cur)}" for a, v in st.commission_owed)
    shoe = f"{st.shoe.remaining} cards left" if st.shoe else "no shoe"
    return (f"Coup {st.coup}, {st.phase.value}, {shoe}. Bets: {bets or 'none'}. "
            f"Commission owed: {owed or 'none'}.\nNext: {session.next_step()}")


def describe(op: Operation, state: pb.PuntoBancoState) -> str | None:
    cur = state.rules.currency
    if isinstance(op, pb.CoupSettled):
        r = op.result
        lines = [f"Coup {op.coup}: Player {' '.join(c.code for c in op.player_cards)} "
                 f"({r.player_total})  Banker {' '.join(c.code for c in op.banker_cards)} "
                 f"({r.banker_total})  -> {r.winner.value.upper()}"]
        for s in op.settlements:
            sign = {"win": f"wins {format_money(s.paid, cur)}", "lose": "loses",
                    "stand_off": "stands off"}[s.outcome.value]
            extra = f" (rounding {format_money(s.rounding, cur)})" if s.rounding else ""
            comm = f", commission {format_money(s.commission, cur)} owed" if s.commission else ""
            lines.append(f"    area {s.area:>8} {s.kind.value:<6} "
                         f"{format_money(s.stake, cur):>8} {sign}{extra}{comm}")
        return "\n".join(lines)
    if isinstance(op, pb.CardDealt):
        return f"  {op.hand.value:<6} <- {op.card.code} ({op.card.name}, {op.source.value})"
    if isinstance(op, pb.ShoeShuffled):
        return f"New shoe: {op.decks} decks shuffled by {op.method} (rule 5.5)"
    if isinstance(op, pb.BettingClosed):
        return f"Coup {op.coup}: no more bets"
    if isinstance(op, pb.CoupVoided):
        return f"Coup {op.coup} VOID: {op.reason}"
    return None


async def deal(session: Any, shoe: Any, pace: float) -> None:
    """Pull cards from the simulated shoe until the drawing table is done (rule 5.2).

    An unread card is keyed in from the card itself, as a dealer does."""
    while session.state.phase is pb.Phase.DEALING:
        pending = session.state.pending
        if pending is not None and pending.reason == "unread":
            card = shoe.sim.dealt[-1].card
            session.perform(lambda s, c=card: pb.deal_card(s, c, pb.CardSource.KEYED))
            continue
        if pending is not None:
            return  # a queried card needs a person's decision
        before = len(session.state.player_cards) + len(session.state.banker_cards)
        if shoe.pull() is None:
            session.alert(Severity.STOP, "The simulated shoe is empty",
                          "Void the coup and load a new shoe")
            return
        for _ in range(400):  # wait for the card to come back through the driver (2 s)
            await asyncio.sleep(0.005)
            now = len(session.state.player_cards) + len(session.state.banker_cards)
            if now != before or session.state.pending is not None:
                break
        await asyncio.sleep(pace)


def dealing(state: pb.PuntoBancoState) -> bool:
    return state.phase is pb.Phase.DEALING


async def play_round(session: Any, shoe: Any, rng: Any, pace: float) -> None:
    """One coup by the scripted dealer: a few bets, no more bets, the cards from the
    simulated shoe, the payouts confirmed (or the coup void if a card needs a person)."""
    from kiosk.rules.baccarat.demo import bets

    if session.state.shoe is None:
        if session.replayed or session.state.coup > 1:
            shoe.new_shoe()
        session.perform(lambda s: pb.shuffle(s, "hand"))
    for bet in bets(session.state.rules, rng):
        session.attempt(bet)
    click.echo(session.next_step())
    session.perform(pb.close_betting)
    await deal(session, shoe, pace)
    if session.state.phase is not pb.Phase.PAYING:
        session.perform(lambda s: pb.void_round(s, "card needs a decision", "demo"))
        return
    click.echo(session.next_step())
    session.perform(pb.confirm_payouts)
    await asyncio.sleep(pace)


console = GameConsole(help=CONSOLE_HELP, command=command, status=status_text,
                      describe=describe, dealing=dealing, deal=deal, play_round=play_round)


# --- `tableside odds ...` (kiosk/cli.py finds it through the registry) ------------------------


@click.command("punto-banco")
@click.option("--decks", type=click.IntRange(1, 16), default=8, show_default=True)
@click.option("--commission", "commission_mode", type=click.Choice(["net", "commission"]),
              default="net", show_default=True, help="rule 5.7 banker payout mode")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(decks: int, commission_mode: str, as_json: bool) -> None:
    """Count every ordered 6-card deal (unused cards counted) through the table's drawing
    rules (5.2) and print each bet's probability and house edge (5.7)."""
    from kiosk.rules.baccarat.engine import CommissionMode, PuntoBancoRules
    from kiosk.rules.baccarat.odds import baccarat_odds

    result = baccarat_odds(decks)
    rules = PuntoBancoRules(decks=decks, commission_mode=CommissionMode(commission_mode))
    edges = result.house_edges(rules)
    counts = {"banker": result.banker, "player": result.player, "tie": result.tie}
    if as_json:
        click.echo(json.dumps({
            "decks": decks, "total": result.total, "counts": counts,
            "probability": {k: _ratio(Fraction(v, result.total)) for k, v in counts.items()},
            "house_edge": {k: _ratio(v) for k, v in edges.items()},
            "payouts": dict(rules.odds()),
        }, indent=2))
        return
    click.echo(f"Punto banco, {decks} deck{'s' if decks != 1 else ''}: "
               f"{result.total:,} ordered 6-card deals")
    for k, v in counts.items():
        click.echo(f"  {k:<7} {v:>26,}   p = {float(Fraction(v, result.total)):.8f}")
    click.echo("House edge at the configured payouts:")
    for name, pay in rules.odds():
        click.echo(f"  {name:<7} {pay:<28} {float(edges[name.lower()] * 100):.4f}%")


def _ratio(f: Fraction) -> dict[str, Any]:
    return {"exact": f"{f.numerator}/{f.denominator}", "decimal": f"{float(f):.10f}",
            "percent": f"{float(f * 100):.4f}"}
