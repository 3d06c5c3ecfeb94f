"""Play pai gow rounds through the engine's acts and `apply` (the golden rounds, the property
tests, the golden journal)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kiosk.rules.money import ChipRule
from kiosk.rules.operations import Operation
from kiosk.rules.paigow import engine as pg

RULES = pg.PaiGowRules(minimum=1_000, maximum=100_000, areas=7, chips=ChipRule(100))


@dataclass
class Table:
    rules: pg.PaiGowRules = RULES
    state: pg.PaiGowState = field(init=False)
    journal: list[Operation] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = pg.initial_state(self.rules, "PG-1")
        self.do(pg.open_table(self.rules, "PG-1"))

    def do(self, op: Operation) -> Operation:
        self.journal.append(op)
        self.state = pg.apply(self.state, op)
        return op


def play(table: Table, *, bets: Sequence[tuple[int, int]],
         hands: dict[int, tuple[str, str]], bank_tiles: str,
         bank: tuple[pg.Bank, int, int] | None = None, bank_high: str | None = None,
         supervisor: str = "Thandi") -> pg.Settled:
    """One round: the wash, the bank, the wagers, no more bets, each area's hands (high, low
    as tile codes), the bank's tiles (the house way, or `bank_high` as the player/banker set
    them), the supervisor's confirmation when the House banks, the settlement."""
    t = table
    t.do(pg.shuffle(t.state))
    if bank is not None:
        t.do(pg.take_bank(t.state, *bank))
    for area, amount in bets:
        t.do(pg.place_bet(t.state, area, amount))
    t.do(pg.close_betting(t.state))
    while t.state.to_set is not None:
        area = t.state.to_set
        high, low = hands[area]
        t.do(pg.set_hand(t.state, area, pg.parse_tiles(high), pg.parse_tiles(low)))
    high_tiles = pg.parse_tiles(bank_high) if bank_high else None
    t.do(pg.set_bank(t.state, pg.parse_tiles(bank_tiles), high_tiles))
    if t.state.phase is pg.Phase.CONFIRM:
        t.do(pg.confirm_house_way(t.state, supervisor))
    settled = pg.confirm_payouts(t.state)
    t.do(settled)
    return settled
