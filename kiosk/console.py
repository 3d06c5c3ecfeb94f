"""The headless table: `tableside demo` and `tableside run --config table.toml`.

Until the dealer screen lands, the table runs in a terminal. Cards always take the real path:
shoe bytes on a serial line (a pseudo-terminal fed by the shoe simulator when no shoe is
attached), the shoe driver, the table session, the journal. In `demo` a scripted dealer places
bets and pulls cards; in `run` the dealer types commands (`help` lists them).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shlex
import sys
import tty
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path

import click

from hardware.shoe.reader import ShoeReader
from hardware.simulators.shoe import ShoeSimulator
from kiosk.config import TableConfig
from kiosk.rules import punto_banco as pb
from kiosk.rules.cards import Card
from kiosk.rules.errors import TablesideError
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.store.journal import Journal
from kiosk.table.session import Alert, Severity, TableSession

Session = TableSession[pb.PuntoBancoState]


class SimulatedShoe:
    """A shoe simulator on a pseudo-terminal whose cards the dealer pulls one at a time."""

    def __init__(self, decks: int, seed: int) -> None:
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty stays up between reader reconnects
        self.decks, self.seed = decks, seed
        self.sim = self._new_sim()

    def _new_sim(self) -> ShoeSimulator:
        # The cutting card sits about 14 cards from the back, as a dealer places it.
        return ShoeSimulator(decks=self.decks, seed=self.seed, cut_at=52 * self.decks - 14)

    def place_cutting_card(self, from_back: int) -> None:
        """The dealer put the cutting card `from_back` cards from the back (blackjack's rule
        4.5, shuffle and cut): the simulator sends CUT when it is reached."""
        self.sim.cut_at = 52 * self.decks - from_back

    def new_shoe(self) -> None:
        self.seed += 1
        seq = self.sim.next_seq
        self.sim = self._new_sim()
        self.sim.next_seq = seq  # the link's sequence carries on across shoes
        self.sim.opened = True

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def open(self) -> None:
        self.send(self.sim.opening())
        self.sim.opened = True

    def pull(self) -> Card | None:
        """Deal one card out of the shoe: its frame goes down the line."""
        data = self.sim.step()
        if data is None:
            return None
        self.send(data)
        return self.sim.dealt[-1].card

    async def heartbeat(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.send(self.sim.heartbeat())

    def close(self) -> None:
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


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


def _echo_alert(alert: Alert) -> None:
    way = f" -> {alert.way_forward}" if alert.way_forward else ""
    click.echo(f"  [{alert.severity.value}] {alert.message}{way}")


def open_session(cfg: TableConfig, *, quiet: bool = False) -> tuple[Session, Journal]:
    """The table session for the configured game, folded from its journal."""
    from kiosk.rules.registry import game

    cfg.journal.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal.open(cfg.journal, cfg.table_id)
    try:
        session: Session = TableSession(game(cfg.game), journal, cfg.rules, cfg.table_id)
    except BaseException:
        journal.close()
        raise
    seen = 0  # the opening's alerts are printed with the first update

    def show(state: pb.PuntoBancoState, op: Operation | None) -> None:
        nonlocal seen
        if quiet:
            return
        if op is not None:
            text = describe(op, state)
            if text:
                click.echo(text)
        for alert in session.alerts_since(seen):
            _echo_alert(alert)
        seen = session.alerts_raised

    session.listeners.append(show)
    show(session.state, None)  # what opening the table raised (a restart's held cards)
    return session, journal


async def deal_coup(session: Session, shoe: SimulatedShoe, pace: float) -> None:
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


def _random_bets(rules: pb.PuntoBancoRules, rng: random.Random
                 ) -> list[tuple[str, pb.BetKind, int]]:
    bets: list[tuple[str, pb.BetKind, int]] = []
    chip = rules.chips.smallest_chip
    for area in rng.sample(rules.area_ids(), rng.randint(1, 4)):
        kind = rng.choice([pb.BetKind.BANKER, pb.BetKind.BANKER, pb.BetKind.PLAYER])
        lim = rules.limit(kind)
        amount = max(lim.minimum, rng.choice([1, 2, 5, 10, 25]) * lim.minimum)
        amount += rng.choice([0, 0, 1, 3]) * chip  # odd stakes show the 19:20 rounding
        bets.append((area, kind, min(amount, lim.maximum)))
        if rng.random() < 0.25:
            tie = rules.limit(pb.BetKind.TIE)
            bets.append((area, pb.BetKind.TIE, tie.minimum))
    return bets


async def run_demo(cfg: TableConfig, coups: int, seed: int, pace: float) -> Session:
    session, journal = open_session(cfg)
    shoe = SimulatedShoe(cfg.rules.decks, seed)
    reader = ShoeReader(shoe.path, "line", session.on_device_event)
    reader_task = asyncio.create_task(reader.run())
    beat = asyncio.create_task(shoe.heartbeat())
    rng = random.Random(seed)
    try:
        await reader.wait_connected(5)
        shoe.open()
        if session.replayed:
            click.echo(f"Resumed table {cfg.table_id} from {journal.count()} journal rows "
                       f"at coup {session.state.coup}: {session.next_step()}")
        if session.state.phase is not pb.Phase.BETTING:
            session.perform(lambda s: pb.void_coup(s, "demo restarted mid-coup", "demo"))
        if session.replayed and session.state.shoe is not None:
            # The simulator cannot resume the old shoe's order: change the shoe (rule 5.5) so
            # the table's count of cards seen matches the cards it will now be dealt.
            shoe.new_shoe()
            session.perform(lambda s: pb.shuffle(s, "hand"))
        for _ in range(coups):
            if session.state.shoe is None:
                if session.replayed or session.state.coup > 1:
                    shoe.new_shoe()
                session.perform(lambda s: pb.shuffle(s, "hand"))
            for area, kind, amount in _random_bets(cfg.rules, rng):
                session.attempt(lambda s, a=area, k=kind, m=amount: pb.place_bet(s, a, k, m))
            click.echo(session.next_step())
            session.perform(pb.close_betting)
            await deal_coup(session, shoe, pace)
            if session.state.phase is not pb.Phase.PAYING:
                session.perform(lambda s: pb.void_coup(s, "card needs a decision", "demo"))
                continue
            click.echo(session.next_step())
            session.perform(pb.confirm_payouts)
            await asyncio.sleep(pace)
    finally:
        beat.cancel()
        reader.stop()
        await asyncio.gather(reader_task, beat, return_exceptions=True)
        shoe.close()
        journal.close()
    return session


HELP = """\
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


def _amount(text: str) -> int:
    try:
        cents = Decimal(text) * 100
    except InvalidOperation:
        raise click.BadParameter(f"{text!r} is not an amount") from None
    if cents != cents.to_integral_value():
        raise click.BadParameter(f"{text!r} is not a whole number of cents")
    return int(cents)


def command(session: Session, line: str) -> Callable[[pb.PuntoBancoState], Operation] | None:
    """The action for one typed command; None for commands that only print."""
    words = shlex.split(line)
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb == "shuffle":
        method = args[0] if args else "hand"
        return lambda s: pb.shuffle(s, method)
    if verb in ("bet", "remove") and len(args) == 3:
        area, kind, amount = args[0], pb.BetKind(args[1].lower()), _amount(args[2])
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
        return lambda s: pb.void_coup(s, " ".join(args))
    if verb == "confirm":
        return pb.confirm_payouts
    if verb == "collect" and len(args) == 1:
        return lambda s: pb.collect_commission(s, args[0])
    raise click.BadParameter(f"unknown command {line!r}; type help")


def status_text(session: Session) -> str:
    st = session.state
    cur = st.rules.currency
    bets = ", ".join(f"{b.area}:{b.kind.value} {format_money(b.amount, cur)}" for b in st.bets)
    owed = ", ".join(f"{a}: {format_money(v, cur)}" for a, v in st.commission_owed)
    shoe = f"{st.shoe.remaining} cards left" if st.shoe else "no shoe"
    return (f"Coup {st.coup}, {st.phase.value}, {shoe}. Bets: {bets or 'none'}. "
            f"Commission owed: {owed or 'none'}.\nNext: {session.next_step()}")


async def run_console(cfg: TableConfig) -> None:
    session, journal = open_session(cfg)
    shoe: SimulatedShoe | None = None
    url, dialect = cfg.shoe.port, cfg.shoe.dialect
    if url == "simulated":
        shoe = SimulatedShoe(cfg.rules.decks, seed=int.from_bytes(os.urandom(4), "big"))
        url, dialect = shoe.path, "line"
    reader = ShoeReader(url, dialect, session.on_device_event, baudrate=cfg.shoe.baudrate)
    reader_task = asyncio.create_task(reader.run())
    beat = asyncio.create_task(shoe.heartbeat()) if shoe else None
    if shoe:
        await reader.wait_connected(5)
        shoe.open()
    click.echo(f"Table {cfg.table_id} ({cfg.name}), journal {cfg.journal}, shoe {url}")
    click.echo(status_text(session))
    try:
        while True:
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line or line.strip().lower() in ("quit", "exit"):
                break
            text = line.strip()
            if text in ("help", "?"):
                click.echo(HELP)
                continue
            if text == "status":
                click.echo(status_text(session))
                continue
            try:
                action = command(session, text)
                if action is not None:
                    if text.startswith("shuffle") and shoe and session.state.coup > 1:
                        shoe.new_shoe()
                    session.perform(action)
                    if shoe and session.state.phase is pb.Phase.DEALING:
                        await deal_coup(session, shoe, 0.3)
            except (TablesideError, click.BadParameter, ValueError) as exc:
                click.echo(f"  refused: {exc}")
            click.echo(f"Next: {session.next_step()}")
    finally:
        if beat:
            beat.cancel()
        reader.stop()
        await asyncio.gather(reader_task, *(t for t in [beat] if t), return_exceptions=True)
        if shoe:
            shoe.close()
        journal.close()


def _demo_config(journal: Path, game: str = "") -> TableConfig:
    from kiosk.config import parse
    from kiosk.rules.registry import GAMES

    spec = GAMES.get(game or GAMES.names()[0])
    name = " ".join(w.capitalize() for w in spec.title.split())
    return parse(f'[table]\nid = "DEMO-1"\nname = "{name} demo"\ngame = "{spec.name}"\n'
                 f'journal = "{journal}"\n[chips]\nsmallest = 5\n')
