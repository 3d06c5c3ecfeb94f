"""Pai gow's screens (the UI side of its registration, `GameSpec.screens`): the dealer app,
the players' sign and the headless demo's touch script (built beside this module:
kiosk/ui/dealer/paigow_app.py, kiosk/ui/signage/paigow_view.py, kiosk/ui/games/paigow_play.py),
the typed console, the scripted demo dealer, `tableside odds paigow` and the game's own
command, `tableside paigow houseway TILES`. Kivy is imported only when a screen is made."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import click

from kiosk.assembly import GameConsole, typed_amount
from kiosk.config import TableConfig
from kiosk.rules.amounts import format_money
from kiosk.rules.errors import NotAllowed, TablesideError
from kiosk.rules.operations import Operation
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.operations import (
    BankHandSet,
    BankTaken,
    BetPlaced,
    BettingClosed,
    HandSet,
    HandUnset,
    HouseWayConfirmed,
    Settled,
    Voided,
    Washed,
)
from kiosk.ui.options import KioskOptions

PLAYS = "one round"  # what the headless demo plays, for the CLI
HEADLESS_PACE = 0.1  # no card comes from a shoe: the tiles are keyed
DONE = "round settled"  # the headless demo's report says so when it played its round
integrity_report = None  # no integrity figures (`tableside integrity` is the wheel's)


# --- The dealer's screen, the players' sign and the headless demo ---------------------------


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kiosk.ui.dealer.paigow_app import (  # type: ignore[import-not-found,unused-ignore]
        dealer_app as app,
    )

    return app(session, cfg, shoe, new_shoe)


def sign() -> Any:
    from kiosk.ui.signage.paigow_view import (  # type: ignore[import-not-found,unused-ignore]
        PaiGowSignage,
    )

    return PaiGowSignage()


def show_sign(view: Any, state: Any, link: Any) -> None:
    view.show(state, link)


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: KioskOptions,
                        panel: Any) -> None:
    from kiosk.ui.games.paigow_play import (  # type: ignore[import-not-found,unused-ignore]
        headless_play as play,
    )

    await play(app, session, cfg, opts, panel)


# --- The typed console and the scripted demo dealer (kiosk/console.py) ----------------------

CONSOLE_HELP = """\
Commands (amounts in whole units or like 12.50; a tile is its pips, two digits: 66 is teen,
12 and 24 the Gee Joon tiles, either end first):
  wash                          the tiles washed and stacked for this round
  bank house                    the House banks, the chung on area one (rule 13.1.1)
  bank player AREA AMOUNT       the player/banker of AREA banks with AMOUNT (13.2.1, 13.2.2)
  bank cobank AREA AMOUNT       ... with the House as co-bank, each AMOUNT (13.3.1, 13.3.2)
  bet AREA AMOUNT               a wager on AREA
  remove AREA                   take the area's wager back before no more bets
  close                         no more bets (a player/banker short of cover: 13.3 applies)
  hand AREA H H L L             the area's tiles as its player set them: high two, low two
  unhand AREA                   take off the area's hands keyed wrong, to key them again
                                (only before the bank's hands are set)
  banker T T T T [high H H]     the bank's four tiles, set the house way (13.1.2, 13.3.4), or
                                with its high hand as the player/banker set it (13.2.3)
  supervisor NAME               the game supervisor confirms the House way (13.1.5)
  void REASON...                void the round: every wager goes back
  confirm                       match each area and settle, in the order of 13.1, 13.2 or 13.3
  status | help | quit"""


def _area(text: str) -> int:
    if not text.isdigit():
        raise click.BadParameter(f"{text!r} is not an area number")
    return int(text)


BANKS = {"house": pg.Bank.HOUSE, "player": pg.Bank.PLAYER, "cobank": pg.Bank.COBANK,
         "co-bank": pg.Bank.COBANK}


def command(line: str) -> Callable[[pg.PaiGowState], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb in ("wash", "shuffle") and not args:
        return pg.shuffle
    if verb == "bank" and args and args[0].lower() in BANKS:
        bank = BANKS[args[0].lower()]
        if bank is pg.Bank.HOUSE and len(args) == 1:
            return lambda s: pg.take_bank(s, bank, 1, 0)
        if len(args) == 3:
            area, amount = _area(args[1]), typed_amount(args[2])
            return lambda s: pg.take_bank(s, bank, area, amount)
    if verb == "bet" and len(args) == 2:
        area, amount = _area(args[0]), typed_amount(args[1])
        return lambda s: pg.place_bet(s, area, amount)
    if verb == "remove" and len(args) == 1:
        area = _area(args[0])
        return lambda s: pg.remove_bet(s, area)
    if verb == "close" and not args:
        return pg.close_betting
    if verb == "hand" and len(args) == 5:
        area, tiles = _area(args[0]), pg.parse_tiles(args[1:])
        return lambda s: pg.set_hand(s, area, tiles[:2], tiles[2:])
    if verb == "unhand" and len(args) == 1:
        area = _area(args[0])
        return lambda s: pg.unset_hand(s, area)
    if verb == "banker" and len(args) in (4, 7) and (len(args) == 4 or args[4] == "high"):
        tiles = pg.parse_tiles(args[:4])
        high = pg.parse_tiles(args[5:]) if len(args) == 7 else None
        return lambda s: pg.set_bank(s, tiles, high)
    if verb == "supervisor" and args:
        name = " ".join(args)
        return lambda s: pg.confirm_house_way(s, name)
    if verb == "void" and args:
        reason = " ".join(args)
        return lambda s: pg.void_round(s, reason)
    if verb == "confirm" and not args:
        return pg.confirm_payouts
    raise NotAllowed(f"unknown command {line!r}; type help")


def status_text(session: Any) -> str:
    st: pg.PaiGowState = session.state
    cur = st.rules.currency
    bank = st.bank.value + (f" at area {st.chung}" if st.bank is not pg.Bank.HOUSE else "")
    if st.banker_wager:
        bank += f" with {format_money(st.banker_wager, cur)}"
    bets = ", ".join(f"area {a} {format_money(n, cur)}" for a, n in st.bets)
    return (f"Round {st.round}, {st.phase.value}, {'washed' if st.washed else 'not washed'}. "
            f"Bank: {bank}. Wagers: {bets or 'none'}.\nNext: {session.next_step()}")


def describe(op: Operation, state: pg.PaiGowState) -> str | None:
    cur = state.rules.currency
    if isinstance(op, Settled):
        bank = pg.Setting(pg.hand(*op.bank_high), pg.hand(*op.bank_low))
        lines = [f"Round {op.round}, {op.bank.value} at area {op.chung}: {bank.codes}  "
                 f"({bank.words})"]
        for a in op.areas:
            mine = pg.Setting(pg.hand(*a.high), pg.hand(*a.low))
            net = ("+" if a.net >= 0 else "-") + format_money(abs(a.net), cur)
            lines.append(f"    area {a.area}  {mine.codes}  {mine.words:<28} "
                         f"{a.result.value} {net}")
        for s in op.steps:
            if s.amount:
                lines.append(f"      {s.clause:<7} {s.move.value:<10} area {s.area} "
                             f"{format_money(s.amount, cur):>12}  {s.source.value} -> "
                             f"{s.to.value}")
        return "\n".join(lines)
    if isinstance(op, Washed):
        return "Tiles washed and stacked"
    if isinstance(op, BankTaken):
        return (f"  {op.bank.value} banks at area {op.area}"
                + (f" with {format_money(op.wager, cur)}" if op.wager else ""))
    if isinstance(op, BetPlaced):
        return f"  area {op.area} wager {format_money(op.amount, cur)}"
    if isinstance(op, BettingClosed):
        return f"Round {state.round}: no more bets" + (f"; {op.reason}" if op.reason else "")
    if isinstance(op, HandSet):
        mine = pg.Setting(pg.hand(*op.high), pg.hand(*op.low))
        return f"  area {op.area} set {mine.codes} ({mine.words})"
    if isinstance(op, HandUnset):
        return f"  area {op.area}'s hands taken off, to be keyed again"
    if isinstance(op, BankHandSet):
        bank = pg.Setting(pg.hand(*op.high), pg.hand(*op.low))
        return f"  bank set {bank.codes} ({bank.words}): {op.why}"
    if isinstance(op, HouseWayConfirmed):
        return f"  House way confirmed by {op.supervisor} (rule 13.1.5)"
    if isinstance(op, Voided):
        return f"Round {op.round} VOID: {op.reason}"
    return None


def dealing(state: pg.PaiGowState) -> bool:
    return False  # the tiles are keyed in: nothing comes from a shoe


async def deal(session: Any, shoe: Any, pace: float) -> None:
    return None


async def play_round(session: Any, shoe: Any, rng: Any, pace: float) -> None:
    """One round by the scripted dealer: the wash, the bank (now and then a player/banker or
    a co-bank), wagers, no more bets, the tiles keyed in as each player set them the house
    way, the bank's set the house way, the supervisor's confirmation, the settlement."""
    import asyncio

    from kiosk.rules.paigow.demo import bets, deal as deal_tiles, set_by_house_way

    session.perform(pg.shuffle)
    rules = session.state.rules
    choice = rng.choice(["house", "house", "player", "cobank"])
    if choice != "house":
        chung = rng.randint(1, rules.areas)
        wager = rng.choice([2, 5, 10]) * rules.minimum
        session.attempt(lambda s: pg.take_bank(s, BANKS[choice], chung, wager))
    for bet in bets(rules, session.state.chung, rng):
        session.attempt(bet)
    click.echo(session.next_step())
    if session.attempt(pg.close_betting) is None:
        session.attempt(lambda s: pg.void_round(s, "the bank could not cover the wagers"))
        return
    stacks = deal_tiles(rng)
    for i, area in enumerate(session.state.in_order()):
        session.perform(set_by_house_way(area, stacks[i + 1]))
    bank_tiles = stacks[0]
    session.perform(lambda s: pg.set_bank(s, bank_tiles))
    if session.state.phase is pg.Phase.CONFIRM:
        session.perform(lambda s: pg.confirm_house_way(s, "demo supervisor"))
    click.echo(session.next_step())
    session.perform(pg.confirm_payouts)
    await asyncio.sleep(pace)


console = GameConsole(help=CONSOLE_HELP, command=command, status=status_text,
                      describe=describe, dealing=dealing, deal=deal, play_round=play_round)


# --- `tableside odds paigow` (kiosk/cli.py finds it through the registry) --------------------


def _ratio(f: Fraction) -> dict[str, str]:
    return {"exact": f"{f.numerator}/{f.denominator}", "decimal": f"{float(f):.10f}",
            "percent": f"{float(f * 100):.4f}"}


def _house_way(way: str, split_pairs: bool) -> pg.HouseWay:
    return pg.HouseWay(pg.Way(way), split_pairs)


@click.command("paigow")
@click.option("--way", type=click.Choice([w.value for w in pg.Way]), default="low-first",
              show_default=True, help="the house way both the player and the bank set by")
@click.option("--split-pairs", is_flag=True, help="the house way weighs pairs like any tiles")
@click.option("--commission", type=click.IntRange(0, 10), default=5, show_default=True,
              metavar="PERCENT", help="the commission on a win, in whole percent")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_command(way: str, split_pairs: bool, commission: int, as_json: bool) -> None:
    """Count every deal of the 32 tiles (the player's four, then the bank's four of the 28
    left), both set by the house way, through the engine's hands and `match` (copies to the
    banker), and print the exact house edge of a player and of a player/banker (against one
    player) at the commission (5% unless told)."""
    from kiosk.rules.paigow.odds import paigow_odds

    start = time.monotonic()

    def progress(done: int, total: int) -> None:
        if done % 1000 == 0 or done == total:
            print(f"counted {done:,} of {total:,} kinds of four-tile hand "
                  f"({time.monotonic() - start:.1f} s)", file=sys.stderr, flush=True)

    result = paigow_odds(_house_way(way, split_pairs), progress)
    took = time.monotonic() - start
    rate = Fraction(commission, 100)
    player, banker = result.player_edge(rate), result.banker_edge(rate)
    if as_json:
        click.echo(json.dumps({
            "deals": result.deals, "wins": result.wins, "losses": result.losses,
            "standoffs": result.standoffs, "house_way": way, "split_pairs": split_pairs,
            "commission_percent": commission, "house_edge": _ratio(player),
            "banker_edge": _ratio(banker), "seconds": round(took, 1)}, indent=2))
        return
    d = result.deals
    click.echo(f"Pai gow, the house way ({way}{', pairs split' if split_pairs else ''}) "
               f"against the house way: {d:,} deals")
    click.echo(f"  player wins   {result.wins / d:.6%}")
    click.echo(f"  stand-offs    {result.standoffs / d:.6%}")
    click.echo(f"  player loses  {result.losses / d:.6%}")
    click.echo(f"  house edge    {float(player * 100):.4f}% at {commission}% commission")
    click.echo(f"  player/banker {float(banker * 100):.4f}% against one player, "
               f"{commission}% commission")
    click.echo(f"  counted in {took:.1f} s")


# --- `tableside paigow ...`: the game's own commands (kiosk/cli.py) --------------------------


@click.group("paigow")
def game_command() -> None:
    """Pai gow's own commands."""


@game_command.command("houseway")
@click.argument("tiles", nargs=-1, required=True)
@click.option("--way", type=click.Choice([w.value for w in pg.Way]), default=None,
              help="the house way (default: the configuration's, else low-first)")
@click.option("--split-pairs", is_flag=True, default=None, help="weigh pairs like any tiles")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="a table.toml whose [paigow] house way to use")
def houseway(tiles: tuple[str, ...], way: str | None, split_pairs: bool | None,
             config_path: str | None) -> None:
    """Set four TILES the house way (13.1.2, 13.3.4) and say why: "66 45 55 16"."""
    rules = pg.HouseWay()
    if config_path is not None:
        from pathlib import Path

        from kiosk.config import load

        cfg = load(Path(config_path))
        if not isinstance(cfg.rules, pg.PaiGowRules):
            raise click.BadParameter(f"{config_path} is not a pai gow table's configuration")
        rules = cfg.rules.house_way
    if way is not None or split_pairs:
        rules = pg.HouseWay(pg.Way(way) if way else rules.way,
                            bool(split_pairs) or rules.split_pairs)
    try:
        four = pg.parse_tiles(" ".join(tiles))
        if len(four) != 4:
            raise NotAllowed(f"four tiles, not {len(four)}: such as 66 45 55 16")
        from kiosk.rules.paigow.tiles import too_many

        extra = too_many(four)
        if extra is not None:
            raise NotAllowed(f"the set has only {extra.copies} of {extra.code}")
    except TablesideError as exc:
        raise click.BadParameter(str(exc)) from None
    decision = pg.house_way(four, rules)
    s = decision.setting
    click.echo(f"high {s.high.codes:<6} {s.high.words}")
    click.echo(f"low  {s.low.codes:<6} {s.low.words}")
    click.echo(f"why: {decision.why} (house way {rules.way.value}"
               f"{', pairs split' if rules.split_pairs else ''})")
    for other in pg.splits(four):
        if other != s:
            click.echo(f"  not {other.codes}: {other.words}")
