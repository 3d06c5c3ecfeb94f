"""Mini baccarat's state: punto banco's (the coup, the shoe, the roads) with the device the
cards come from and the shuffler malfunction in hand."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.baccarat.house import Bet
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.cards import Card
from kiosk.rules.cut import ShoePrep
from kiosk.rules.mini_baccarat.house import Branch, Device, Fact, MiniBaccaratRules, Who


@dataclass(frozen=True, slots=True)
class Malfunction:
    """The procedure of rules 12.1-12.5 for one coup, as far as it has gone."""

    coup: int
    cards_dealt: int
    detail: str
    by: Who
    facts: tuple[tuple[Fact, bool], ...] = ()
    removed: tuple[Card, ...] | None = None  # rules 12.3.1, 12.5.2 (None: not yet)
    transferred: bool = False  # rules 12.2, 12.3.2
    replaced: bool = False  # rules 12.3.3, 12.5.2
    offered: tuple[str, ...] = ()  # rule 12.5.1: the areas asked so far
    returned: tuple[Bet, ...] = ()  # rule 12.5.1: the wagers handed back
    prep: ShoePrep | None = None  # rule 12.5.3: the shuffle and cut
    continued: Device | None = None  # rules 12.2, 12.3.4, 12.5.4: the coup goes on from it

    def fact(self, fact: Fact) -> bool | None:
        for f, answer in self.facts:
            if f is fact:
                return answer
        return None

    @property
    def branch(self) -> Branch | None:
        """The rule the facts lead to, None while one is still unknown. A disadvantage ends
        the coup whatever else holds (rule 12.4); otherwise no spare or no transfer is rule
        12.5, and with both the damage decides between 12.2 and 12.3."""
        if self.fact(Fact.DISADVANTAGED):
            return Branch.TERMINATE
        if self.fact(Fact.DAMAGED) is None or self.fact(Fact.DISADVANTAGED) is None:
            return None
        spare = self.fact(Fact.SPARE)
        if spare is None:
            return None
        if not spare:
            return Branch.DEALING_SHOE
        transferable = self.fact(Fact.TRANSFERABLE)
        if transferable is None:
            return None
        if not transferable:
            return Branch.DEALING_SHOE
        return Branch.REPLACE if self.fact(Fact.DAMAGED) else Branch.TRANSFER


@dataclass(frozen=True)  # no slots: punto banco's fold copies __dict__ (its hot path)
class MiniBaccaratState(PuntoBancoState):
    rules: MiniBaccaratRules  # a PuntoBancoRules, narrowed
    device: Device = Device.SHUFFLER  # what the coup's cards come from
    malfunction: Malfunction | None = None

    @property
    def stopped(self) -> bool:
        """A malfunction stopped the coup and the procedure has not let it go on."""
        return self.malfunction is not None and self.malfunction.continued is None
