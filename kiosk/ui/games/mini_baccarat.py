"""Mini baccarat's screens (the UI side of its registration, `GameSpec.screens`): the dealer
app (punto banco's screen with the shuffler malfunction procedure), the players' sign, the
headless demo's touch script and the typed console. Kivy is imported only when a screen is
made, so the console and the CLI can import this module without it."""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kiosk.assembly import GameConsole, typed_amount
from kiosk.config import TableConfig
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.ui import headless
from kiosk.ui.games import baccarat as punto_banco
from kiosk.ui.options import KioskOptions

log = logging.getLogger(__name__)


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp

    return MiniBaccaratDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                                 on_new_shoe=new_shoe)


def sign() -> Any:
    from kiosk.ui.signage.mini_baccarat_view import MiniBaccaratSignage

    return MiniBaccaratSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


PLAYS = "one coup, stopped by a shuffler fault and completed from a dealing shoe (rule 12.5)"
HEADLESS_PACE = 0.6  # seconds between the simulated shoe's cards: time to see the jam
DONE = "coup settled"  # the headless demo's report says so when it played its coup
integrity_report = None  # no integrity figures (`tableside integrity` is the wheel's)
# The odds are punto banco's (the same coup, drawing table and payouts): its command, by this
# game's name.
odds_command = click.Command(
    "mini-baccarat", callback=punto_banco.odds_command.callback,
    params=list(punto_banco.odds_command.params),
    help="Mini baccarat's odds, which are punto banco's (the same drawing rules 5.2 and "
         "payouts 5.7): every ordered 6-card deal counted, each bet's house edge.")


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    """One coup by touch: bets, no more bets, three cards, the shuffler malfunction button,
    the procedure of rule 12.5 by its big buttons, the coup completed; screenshots."""
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
        if session.state.shoe is None:
            await tap(screen.ids.new_shoe)
        await place_demo_bets(screen, session)
        report.append(f"bets placed: {len(session.state.bets)}")
        save_png(render(screen), out / "dealer-betting-800x480.png")
        await tap(screen.ids.primary)
        for _ in range(800):  # the shuffler jams once it has dealt two cards
            if len(session.state.player_cards) + len(session.state.banker_cards) >= 2:
                break
            await asyncio.sleep(0.01)
        await tap(screen.ids.malfunction)
        report.append(f"malfunction: {screen.step}")
        await asyncio.sleep(0.2)
        save_png(render(screen), out / "dealer-malfunction-800x480.png")
        await play_procedure(screen, session, out, report)
        for _ in range(600):
            if session.state.phase is mb.Phase.PAYING:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        report.append(f"result: {screen.step}")
        save_png(render(screen), out / "dealer-paying-800x480.png")
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


async def place_demo_bets(screen: Any, session: Any) -> None:
    tap = headless.tap
    areas = session.state.rules.area_ids()

    def chip(rank: int) -> Any:
        chips = sorted(screen.ids.chips.children, key=lambda c: c.value)
        return chips[min(rank, len(chips) - 1)]

    for area, kind, presses in ((areas[0], "banker", (3, 3)), (areas[2], "player", (3, 2)),
                                (areas[4], "banker", (4,))):
        tile = next(t for t in screen.ids.areas.children if t.area == area)
        await tap(tile)
        await tap(screen.ids[f"kind_{kind}"])
        for p in presses:
            if not chip(p).disabled:
                await tap(chip(p))


async def play_procedure(screen: Any, session: Any, out: Path, report: list[str]) -> None:
    """Rule 12.5 by the procedure panel's big buttons: no damage, nobody disadvantaged, no
    spare device (the inspector's badge once), the first seat takes the wagers back and the
    others stay, the shuffle, the cut, the dealing shoe."""
    from kiosk.ui.capture import render, save_png

    tap = headless.tap
    screen.inspector_badge = "4411"  # the badge the inspector gave (the badge pad's digits)
    answers = {mb.Fact.DAMAGED: False, mb.Fact.DISADVANTAGED: False, mb.Fact.SPARE: False}
    for shot in range(1, 31):
        state = session.state
        now = mb.where(state)
        if now is None or now.step is mb.Step.DONE:
            break
        if now.step is mb.Step.FACT:
            assert now.fact is not None
            await tap(screen.ids.proc_yes if answers[now.fact] else screen.ids.proc_no)
        elif now.step is mb.Step.OFFER:
            first = now.area == session.state.rules.area_ids()[0]
            await tap(screen.ids.proc_yes if first else screen.ids.proc_no)
        elif now.step is mb.Step.CUT:
            await tap(screen.ids.proc_yes)  # the seat offered the cut cuts (rule 4.2)
        else:
            await tap(screen.ids.proc_go)
        await asyncio.sleep(0.1)
        save_png(render(screen), out / f"dealer-procedure-{shot:02d}-800x480.png")
        report.append(f"procedure: {screen.step}")


# --- The typed console and the scripted demo dealer (kiosk/console.py) ----------------------

CONSOLE_HELP = punto_banco.CONSOLE_HELP.replace(
    "  status | help | quit", """\
  The shuffler malfunction procedure (rules 12.1-12.5); BY is nothing (the dealer) or
  "by inspector NAME BADGE":
  fault DETAIL...               the shuffler stopped in this coup (rule 12.1)
  fact FACT yes|no [BY]         FACT damaged|disadvantaged|spare|transferable
  remove CARD... [BY]           the damaged cards, removed from play (12.3.1, 12.5.2)
  transfer [BY]                 the cards moved to the spare shuffler (12.2, 12.3.2)
  replace [BY]                  the damaged cards replaced from a new deck (12.3.3, 12.5.2)
  offer SEAT return|stay [BY]   the seat's player takes the wagers back or stays (12.5.1)
  reshuffle [BY]                the cards shuffled by hand for a dealing shoe (12.5.3)
  refuse SEAT                   the seat refused the cut (rule 4.3)
  cut SEAT|supervisor:NAME AT BACK  the cut (rules 4.2-4.5), cards in from the front/back
  continue [BY]                 the coup goes on (12.2, 12.3.4, 12.5.4)
  terminate [BY]                the coup ends, every wager returned (12.4, 12.5.1)
  status | help | quit""")


def _who(args: list[str]) -> tuple[list[str], mb.Who]:
    """The words before "by", and who they name (the dealer when no one is named)."""
    if "by" not in args:
        return args, mb.DEALER
    i = args.index("by")
    rest = args[i + 1:]
    if rest[:1] == ["dealer"]:
        return args[:i], mb.DEALER
    if rest[:1] == ["inspector"] and len(rest) >= 3:
        return args[:i], mb.inspector(" ".join(rest[1:-1]), rest[-1])
    raise NotAllowed("say who: by dealer, or by inspector NAME BADGE")


def _yes(word: str, yes: str, no: str) -> bool:
    if word.lower() in (yes, "y"):
        return True
    if word.lower() in (no, "n"):
        return False
    raise NotAllowed(f"{yes} or {no}, not {word!r}")


def command(line: str) -> Callable[[Any], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb == "card" and len(args) == 1:
        card = Card.parse(args[0])
        return lambda s: mb.deal_card(s, card, mb.CardSource.KEYED)
    if verb == "void" and args:
        return lambda s: mb.void_round(s, " ".join(args))
    if verb == "confirm":
        return mb.confirm_payouts
    if verb == "accept" and args:
        return lambda s: mb.accept_queried_card(s, " ".join(args))
    if verb in ("bet", "remove") and len(args) == 3 and args[1].lower() in _KINDS:
        area, kind, amount = args[0], mb.BetKind(args[1].lower()), typed_amount(args[2])
        act = mb.place_bet if verb == "bet" else mb.remove_bet
        return lambda s: act(s, area, kind, amount)
    return _procedure(verb, args) or punto_banco.command(line)


_KINDS = frozenset(k.value for k in mb.BetKind)


def _procedure(verb: str, args: list[str]) -> Callable[[Any], Operation] | None:
    if verb == "fault":
        detail = " ".join(args) or "stopped"
        return lambda s: mb.shuffler_malfunction(s, detail, mb.DEALER)
    if verb == "fact" and len(args) >= 2:
        rest, who = _who(args)
        fact, answer = mb.Fact(rest[0].lower()), _yes(rest[1], "yes", "no")
        return lambda s: mb.establish_fact(s, fact, answer, who)
    if verb == "remove" and args:  # "remove AREA KIND AMOUNT" took a bet back above
        rest, who = _who(args)
        cards = tuple(Card.parse(c) for c in rest)
        return lambda s: mb.remove_damaged_cards(s, cards, who)
    if verb in ("transfer", "replace", "reshuffle", "continue", "terminate"):
        _, who = _who(args)
        act = {"transfer": mb.transfer_cards, "replace": mb.replace_damaged_cards,
               "reshuffle": mb.reshuffle_cards, "continue": mb.continue_coup,
               "terminate": mb.terminate_coup}[verb]
        return lambda s: act(s, who)
    if verb == "offer" and len(args) >= 2:
        rest, who = _who(args)
        area, back = rest[0], _yes(rest[1], "return", "stay")
        return lambda s: mb.offer_wager_back(s, area, back, who)
    if verb == "refuse" and len(args) == 1:
        seat_no = int(args[0])
        return lambda s: mb.refuse_cut(s, seat_no)
    if verb == "cut" and len(args) == 3:
        who_cut, at, from_back = args[0], int(args[1]), int(args[2])
        if who_cut.startswith("supervisor:"):
            name = who_cut.split(":", 1)[1]
            return lambda s: mb.cut_cards(s, None, at, from_back, name)
        cutter = int(who_cut)
        return lambda s: mb.cut_cards(s, cutter, at, from_back)
    return None


def status_text(session: Any) -> str:
    text = punto_banco.status_text(session)
    st = session.state
    m = st.malfunction
    if m is not None:
        cur = st.rules.currency
        facts = ", ".join(f"{f.value} {'yes' if a else 'no'}" for f, a in m.facts)
        back = ", ".join(f"{b.area}:{b.kind.value} {format_money(b.amount, cur)}"
                         for b in m.returned)
        text += (f"\nShuffler malfunction after {m.cards_dealt} card(s): {m.detail}. "
                 f"Facts: {facts or 'none yet'}. Rule: {m.branch or 'not yet known'}. "
                 f"Wagers returned: {back or 'none'}.")
    return text


def describe(op: Operation, state: Any) -> str | None:
    cur = state.rules.currency
    if isinstance(op, mb.ShufflerMalfunctioned):
        return (f"Coup {op.coup}: SHUFFLER MALFUNCTION after {op.cards_dealt} card(s): "
                f"{op.detail} ({op.by}; rule 12.1)")
    if isinstance(op, mb.FactEstablished):
        return f"  {op.fact.value}: {'yes' if op.answer else 'no'} ({op.by})"
    if isinstance(op, mb.WagerOffered):
        what = ", ".join(f"{b.kind.value} {format_money(b.amount, cur)}" for b in op.bets)
        return (f"  seat {op.area}: {what} " + ("returned" if op.returned else "stays in")
                + " (rule 12.5.1)")
    if isinstance(op, mb.CoupTerminated):
        lines = [f"Coup {op.coup} TERMINATED (rule {op.branch}): every wager returned"]
        lines += [f"    area {b.area:>3} {b.kind.value:<6} {format_money(b.amount, cur):>10}"
                  for b in op.returned]
        return "\n".join(lines)
    if isinstance(op, mb.CoupContinued):
        return f"  the coup continues from the {op.device.value} (rule {op.branch})"
    return punto_banco.describe(op, state)


def dealing(state: Any) -> bool:
    return state.phase is mb.Phase.DEALING and not state.stopped


async def deal(session: Any, shoe: Any, pace: float) -> None:
    if session.state.stopped:
        return
    await punto_banco.deal(session, shoe, pace)


async def play_round(session: Any, shoe: Any, rng: Any, pace: float) -> None:
    """One coup by the scripted dealer (punto banco's: the same coup)."""
    from kiosk.rules.mini_baccarat.demo import bets

    if session.state.shoe is None:
        if session.replayed or session.state.coup > 1:
            shoe.new_shoe()
        session.perform(lambda s: mb.shuffle(s, "shuffler"))
    for bet in bets(session.state.rules, rng):
        session.attempt(bet)
    click.echo(session.next_step())
    session.perform(mb.close_betting)
    await deal(session, shoe, pace)
    if session.state.phase is not mb.Phase.PAYING:
        if not session.state.stopped:
            session.perform(lambda s: mb.void_round(s, "card needs a decision", "demo"))
        return
    click.echo(session.next_step())
    session.perform(mb.confirm_payouts)
    await asyncio.sleep(pace)


console = GameConsole(help=CONSOLE_HELP, command=command, status=status_text,
                      describe=describe, dealing=dealing, deal=deal, play_round=play_round)
