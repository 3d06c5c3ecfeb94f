"""Punto banco's one frozen state: the coup in play, the shoe, the roads' results and the
commission owed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.baccarat.house import Bet, BetKind, PendingCard, Phase, PuntoBancoRules
from kiosk.rules.baccarat.operations import CoupSettled
from kiosk.rules.baccarat.outcomes import CoupResult
from kiosk.rules.cards import Card, ShoeContents


@dataclass(frozen=True)  # no slots: `_replace` copies __dict__ in one step (the hot path)
class PuntoBancoState:
    rules: PuntoBancoRules
    table_id: str = ""
    coup: int = 1
    phase: Phase = Phase.BETTING
    shoe: ShoeContents | None = None  # None until a shuffled shoe is loaded (rule 5.5)
    bets: tuple[Bet, ...] = ()
    player_cards: tuple[Card, ...] = ()
    banker_cards: tuple[Card, ...] = ()
    # The cards' values (rule 5.4), kept beside them for the drawing table's hot path.
    player_values: tuple[int, ...] = ()
    banker_values: tuple[int, ...] = ()
    pending: PendingCard | None = None
    cut_card_out: bool = False
    results: tuple[CoupResult, ...] = ()  # this shoe's results, for the roads
    commission_owed: tuple[tuple[str, Fraction], ...] = ()
    last_settled: CoupSettled | None = None
    burned: int = 0

    def bet_total(self, area: str, kind: BetKind) -> int:
        amount = 0
        for b in self.bets:  # a plain loop: a generator costs more than the few bets it sums
            if b.area == area and b.kind is kind:
                amount += b.amount
        return amount

    def owed_by(self, area: str) -> Fraction:
        return dict(self.commission_owed).get(area, Fraction(0))

    @property
    def total_staked(self) -> int:
        return sum(b.amount for b in self.bets)
