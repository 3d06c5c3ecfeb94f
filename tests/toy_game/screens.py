"""High card's screens module (docs/adding-a-game.md, part 3): every name of
`kiosk.ui.games.ScreensModule`. A dealer app of four buttons under the next step, a sign, the
headless demo's touch script, the typed console, `tableside odds high-card` and
`tableside integrity`. Kivy is imported only inside the functions, which take its
classes from `tests/toy_game/kivy_screens.py`.

Every word on its screens is one the catalogues translate already (a real game's own words go
into assets/locale with their translations), and every size follows the screen's height, so
the toy fits at every size the configuration accepts (tests/test_toy_game.py lays it out)."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from kiosk import i18n
from kiosk.assembly import GameConsole
from kiosk.config import TableConfig
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.ui import headless
from kiosk.ui.options import KioskOptions
from tests.toy_game import rules as hc

PLAYS = "one round"
HEADLESS_PACE = 0.1
DONE = "round settled"


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from tests.toy_game.kivy_screens import HighCardDealerApp

    return HighCardDealerApp(session)


def sign() -> Any:
    from tests.toy_game.kivy_screens import HighCardSign

    return HighCardSign()


def show_sign(view: Any, state: Any, link: Any) -> None:
    """The round, the last result and the limits, read afresh from the rules each time (so a
    change of limits from the pit shows at once: `screen_rules` leaves them out)."""
    if state is None:
        view.text = "HIGH CARD"
        return
    last = state.results[-1].upper() if state.results else "-"
    cur = state.rules.currency
    view.text = (f"HIGH CARD  round {state.round}  last: {last}\n"
                 f"{i18n.gettext('MIN')} {format_money(state.rules.minimum, cur)}  "
                 f"{i18n.gettext('MAX')} {format_money(state.rules.maximum, cur)}")


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        if not session.state.shuffled:
            await headless.tap(screen.shuffle)
        await headless.tap(screen.bet)
        await headless.tap(screen.close)
        for _ in range(200):  # the simulated shoe deals the two cards by itself
            if session.state.phase is hc.Phase.PAYING:
                break
            await asyncio.sleep(0.05)
        await headless.tap(screen.confirm)
        opts.report.append(f"{DONE}: round {session.state.round - 1}, "
                           f"{session.state.results[-1]}")
        save_png(render(screen), out / "dealer-800x480.png")
    except Exception as exc:
        opts.report.append(f"error: {exc}")
    finally:
        app.stop()


# --- The typed console and the scripted demo dealer (kiosk/console.py) ----------------------

CONSOLE_HELP = """\
Commands (amounts in cents):
  shuffle                       a new shoe
  bet player|dealer AMOUNT      a bet on a side
  close                         no more bets (the simulated shoe then deals)
  card CODE                     key in a card
  void REASON...                void the round: every bet goes back
  confirm                       payouts checked and paid: settle the round
  status | help | quit"""


def command(line: str) -> Callable[[hc.HighCardState], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb == "shuffle":
        return hc.shuffle
    if verb == "bet" and len(args) == 2 and args[0] in ("player", "dealer") \
            and args[1].isdigit():
        side, amount = hc.Side(args[0]), int(args[1])
        return lambda s: hc.place_bet(s, side, amount)
    if verb == "close":
        return hc.close_betting
    if verb == "card" and len(args) == 1:
        card = Card.parse(args[0])
        return lambda s: hc.shoe_card(s, card)
    if verb == "void" and args:
        return lambda s: hc.void_round(s, " ".join(args))
    if verb == "confirm":
        return hc.confirm_payouts
    raise NotAllowed(f"unknown command {line!r}; type help")


def status_text(session: Any) -> str:
    st = session.state
    bets = ", ".join(f"{side.value} {format_money(a, st.rules.currency)}" for side, a in st.bets)
    return f"Round {st.round}, {st.phase.value}. Bets: {bets or 'none'}.\nNext: " \
           f"{session.next_step()}"


def describe(op: Operation, state: hc.HighCardState) -> str | None:
    if isinstance(op, hc.Settled):
        return f"Round {op.round}: {op.winner} wins, paid {list(op.paid)}"
    if isinstance(op, hc.CardDealt):
        return f"  {op.side.value:<6} <- {op.card.code}"
    if isinstance(op, hc.Voided):
        return f"Round {op.round} VOID: {op.reason}"
    return None


def dealing(state: hc.HighCardState) -> bool:
    return state.phase is hc.Phase.DEALING


async def deal(session: Any, shoe: Any, pace: float) -> None:
    """Pull cards from the simulated shoe until both sides have theirs."""
    while session.state.phase is hc.Phase.DEALING:
        before = session.state.player, session.state.dealer
        if shoe.pull() is None:
            return
        for _ in range(400):  # wait for the card to come back through the driver (2 s)
            await asyncio.sleep(0.005)
            if (session.state.player, session.state.dealer) != before:
                break
        await asyncio.sleep(pace)


async def play_round(session: Any, shoe: Any, rng: Any, pace: float) -> None:
    """One round by the scripted dealer: a bet, no more bets, two cards, payouts confirmed."""
    if not session.state.shuffled:
        session.perform(hc.shuffle)
    side = hc.Side.PLAYER if rng.random() < 0.5 else hc.Side.DEALER
    session.attempt(lambda s: hc.place_bet(s, side, session.state.rules.minimum))
    click.echo(session.next_step())
    session.perform(hc.close_betting)
    await deal(session, shoe, pace)
    if session.state.phase is not hc.Phase.PAYING:
        session.perform(lambda s: hc.void_round(s, "card needs a decision"))
        return
    click.echo(session.next_step())
    session.perform(hc.confirm_payouts)
    await asyncio.sleep(pace)


console = GameConsole(help=CONSOLE_HELP, command=command, status=status_text,
                      describe=describe, dealing=dealing, deal=deal, play_round=play_round)


# --- `tableside odds high-card` and `tableside integrity` -----------------------------------


def chances(decks: int) -> dict[str, Fraction]:
    """Each outcome's chance: every ordered pair of cards of a shoe of `decks` decks."""
    per_rank = 4 * decks
    total = 52 * decks * (52 * decks - 1)
    push = Fraction(13 * per_rank * (per_rank - 1), total)
    return {"player": (1 - push) / 2, "dealer": (1 - push) / 2, "push": push}


@click.command("high-card")
@click.option("--decks", type=click.IntRange(1, 8), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(decks: int, as_json: bool) -> None:
    """Each outcome's exact chance; the house edge of an even-money bet on either side is
    nil (a push returns the stake)."""
    odds = chances(decks)
    if as_json:
        click.echo(json.dumps({k: f"{v.numerator}/{v.denominator}" for k, v in odds.items()}))
        return
    for name, p in odds.items():
        click.echo(f"  {name:<7} {p.numerator}/{p.denominator}  p = {float(p):.6f}")
    click.echo("House edge of a bet on either side: 0%")


def integrity_report(entries: list[Any], rules: hc.HighCardRules) -> dict[str, Any]:
    """How often each side won in the journal, beside the chance of it."""
    won = Counter(e.payload["winner"] for e in entries if e.kind == hc.Settled.kind)
    rounds = sum(won.values())
    odds = chances(rules.decks)
    return {"rounds": rounds,
            "won": {k: won.get(k, 0) for k in odds},
            "expected": {k: float(v * rounds) for k, v in odds.items()}}
